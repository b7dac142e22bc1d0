"""The easy Doubles bot's rules of thumb: unlock numbers it holds, keep locked the numbers it
lacks, shed heavy tiles."""

from __future__ import annotations

import random

from core.bots import get_bot
from core.moves import Play
from tests.core.test_doubles_rules import DB, end_showing, position, source_example
from tests.helpers import tile

EASY = get_bot("easy")


def choice(state):
    legal = DB.legal_moves(state)
    return EASY.choose(DB.view(state, state.to_move), legal, random.Random(0))


def test_it_unlocks_a_number_it_holds_rather_than_one_it_lacks():
    state = source_example({0: "3-3 3-1 3-2 4-4"})
    assert choice(state) == Play(tile("3-3"), end_showing(state, "6-3"))


def test_it_does_not_unlock_a_number_it_lacks_when_it_has_another_play():
    state = position(2, {0: "5-5 6-0 0-2"}, "6-6", [(0, "6-1"), (1, "6-3"), (2, "6-5")], 0, "0-3 0-4 1-2")
    assert set(DB.legal_moves(state)) == {Play(tile("5-5"), 2), Play(tile("6-0"), 3)}
    assert choice(state) == Play(tile("6-0"), 3)


def test_it_sheds_heavy_tiles():
    state = position(2, {0: "6-0 6-5 1-2"}, "6-6", [(0, "6-1"), (1, "6-3")], 0, "0-3 0-4 1-4")
    assert choice(state) == Play(tile("6-5"), 2)
