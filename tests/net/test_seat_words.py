"""What a joining player is told about a seat a bot holds: "an easy bot", never "a easy bot"."""

from __future__ import annotations

import pytest

from core.seats import Seat
from net.seats import SeatRefused, SeatTable


@pytest.mark.parametrize(("level", "described"), [("easy", "an easy bot"), ("hard", "a hard bot")])
def test_a_seat_taken_by_a_bot_is_described_with_its_article(level, described):
    table = SeatTable((Seat("Seat 1"), Seat("Seat 2", "bot", level)))
    with pytest.raises(SeatRefused) as refused:
        table.choose("Ana", 1)
    assert str(refused.value) == f"seat 2 is not free (it is {described})"
