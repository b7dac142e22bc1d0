"""docs/save-format.md stays true: its annotated example is the file this version writes."""

from __future__ import annotations

import json
import re
from pathlib import Path

from core import Match, Seat
from saves.body import body_of
from saves.codec import decode
from saves.format import MAGIC, pack_body, wrap
from saves.migrations import FORMAT_VERSION
from saves.record import SavedMatch

DOC = (Path(__file__).resolve().parents[2] / "docs" / "save-format.md").read_text()


def example() -> bytes:
    """The match of the example: the bot plays, Ana plays, the bot plays, Ana undoes."""
    match = Match("chicken-foot", 2, {"rounds": 1}, [Seat("Ana"), Seat("Bot", "bot", "easy")], seed=42)
    match.deal()
    for _ in range(3):
        match.apply(match.legal_moves()[0])
    assert match.undo() and match.cursor == 2
    record = SavedMatch("3f9a2c1b7e40", match, 1764424800, 1764425112)
    return wrap(pack_body(body_of(record)), FORMAT_VERSION, "0.1.0")  # the version the example names


def test_the_annotated_example_is_byte_for_byte_what_is_written():
    data = example()
    assert f"is {len(data)} bytes" in DOC
    assert FORMAT_VERSION == 2 and f"format version {FORMAT_VERSION}" in DOC
    assert data.startswith(MAGIC) and data[8:16].hex(" ") == "00 02 05 30 2e 31 2e 30"
    assert f"\n{data[-4:].hex(' ')}  " in DOC  # the checksum line
    body = json.loads(re.search(r"```json\n(.*?)```", DOC, re.S).group(1))
    assert body == body_of(decode(data))


def test_the_example_hands_and_stock_are_shown_in_the_documented_order():
    record = decode(example())
    deal = record.match.events[0]
    assert [t.to_data() for t in deal.hands[0]][:1] == [9] and str(deal.hands[0][-1]) == "8-9"
    assert str(deal.hands[1][-1]) == "8-8" and len(deal.stock) == 12
    assert (deal.first, deal.search_start) == (1, 1)
