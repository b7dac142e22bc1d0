"""The words of `dominoes saves` and `saves show`, for random matches of every game at any cursor."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import GAME_NAMES
from core.moves import Deal
from core.tiles import format_tiles
from saves.describe import describe_match
from saves.listing import Entry, format_entry
from saves.store import Loaded
from tests.saves.builders import random_match, record_of


@pytest.mark.parametrize("game_name", GAME_NAMES)
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_the_log_numbers_every_event_and_reveals_only_finished_deals(game_name, seed):
    match = random_match(game_name, random.Random(seed))
    record = record_of(match)
    text = describe_match(record)
    lines = text.splitlines()
    numbered = [line for line in lines if line[:7].strip().rstrip(".").isdigit()]
    assert [int(line.split(".")[0]) for line in numbered] == list(range(1, match.cursor + 1))
    deals = [index for index, event in enumerate(match.events[: match.cursor]) if type(event) is Deal]
    finished = 0
    for position, start in enumerate(deals):
        end = deals[position + 1] if position + 1 < len(deals) else match.cursor
        after = match.state_at(end)
        revealed = after.chance or after.over
        finished += revealed
        for seat, hand in zip(match.seats, match.events[start].hands, strict=True):
            assert (f"    {seat.name}: {format_tiles(hand)}" in lines) == revealed
    assert text.count("  The deal:") == finished
    entry = format_entry(Entry(record.match_id, Loaded(record, Path("test-match.dominoes"))))
    assert entry[0].startswith(f"{record.match_id}  {match.game.title}  ")
    assert entry[1] == "    " + ", ".join(
        f"{seat.describe()} {score}" for seat, score in zip(match.seats, match.state.scores, strict=True)
    )
