"""The status line's facts name the draw pile as each game's rules do: Chicken Foot's chicken yard
(CF-3), Doubles' boneyard (DB-2), so the line agrees with the rules screen and the lessons."""

from __future__ import annotations

import pytest

from core import Match
from tui.presentation import status_facts


@pytest.mark.parametrize(("game", "players", "word"), [("chicken-foot", 4, "yard"), ("doubles", 4, "boneyard")])
def test_the_draw_pile_has_its_games_name(game, players, word):
    match = Match(game, players, {}, None, 3)
    match.deal()
    view = match.view(0)
    facts = status_facts(game, view)
    assert f"{word} {view.stock_size}" in facts
