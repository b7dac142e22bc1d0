"""Match: the history of events, its cursor, undo and redo, and chance owned by the driver."""

from __future__ import annotations

import pytest

from core import IllegalMove, Match, Seat
from core.moves import Deal


def human_vs_bots(seed=3, players=3):
    seats = [Seat("Ana"), *(Seat(f"Bot {i}", "bot", "easy") for i in range(1, players))]
    return Match("chicken-foot", players, {"rounds": 2}, seats, seed)


def advance(match, decisions):
    """Play `decisions` moves (first legal move each), dealing when chance is due."""
    for _ in range(decisions):
        while match.state.chance:
            match.deal()
        match.apply(match.legal_moves()[0])


def test_undo_steps_back_to_the_humans_previous_decision():
    match = human_vs_bots()
    advance(match, 12)
    # Move on to the human's next decision, then undo.
    while match.state.chance or match.state.to_move != 0:
        advance(match, 1)
    target = max(i for i in range(match.cursor) if not match.state_at(i).chance and match.state_at(i).to_move == 0)
    assert match.undo()
    assert match.cursor == target and match.state.to_move == 0
    # Redo returns to where we were: the human's decision after the bots' moves.
    end = len(match.events)
    assert match.redo()
    assert match.cursor == end


def test_a_new_move_after_undo_discards_the_redo_tail():
    match = human_vs_bots()
    advance(match, 6)
    while match.state.chance or match.state.to_move != 0:
        advance(match, 1)
    match.undo()
    cut = match.cursor
    match.apply(match.legal_moves()[-1])
    assert len(match.events) == cut + 1
    assert not match.can_redo()


def test_undo_with_nothing_to_undo():
    match = human_vs_bots()
    assert not match.can_undo() and not match.undo()
    match.deal()
    assert not match.undo()  # the deal alone is not a decision
    assert not match.redo()


def test_a_deal_is_never_rerolled():
    """The same round gets the same tiles whatever was played before it."""
    a, b = human_vs_bots(seed=11), human_vs_bots(seed=11)
    for match, pick in ((a, 0), (b, -1)):
        while match.state.round < 2:
            if match.state.chance:
                match.deal()
            else:
                legal = match.legal_moves()
                match.apply(legal[pick])
    deals = [[e for e in m.events if type(e) is Deal] for m in (a, b)]
    assert deals[0] == deals[1]
    # Undoing into round 1 and replaying differently still deals round 2 the same.
    while a.state.round == 2:
        a.undo()
    while a.state.round < 2:
        if a.state.chance:
            a.deal()
        else:
            a.apply(a.legal_moves()[len(a.legal_moves()) // 2])
    assert [e for e in a.events if type(e) is Deal] == deals[0]


def test_an_illegal_move_changes_nothing():
    match = human_vs_bots()
    match.deal()
    before = (match.cursor, match.events, match.state)
    with pytest.raises(IllegalMove):
        match.apply(match.events[0])  # a second deal
    assert (match.cursor, match.events, match.state) == before


def test_a_match_replays_from_its_events():
    match = human_vs_bots()
    advance(match, 30)
    match.undo()
    copy = Match("chicken-foot", 3, match.options, match.seats, match.seed, match.events, match.cursor)
    assert copy == match
    assert copy.state == match.state
    assert [copy.state_at(i) for i in range(len(copy.events) + 1)] == [
        match.state_at(i) for i in range(len(match.events) + 1)
    ]


def test_match_validation():
    with pytest.raises(ValueError):
        Match("chicken-foot", 3, {}, [Seat("a")], 1)
    with pytest.raises(ValueError):
        Match("chicken-foot", 3, {}, None, "seed")
    with pytest.raises(ValueError):
        Seat("a", "robot")
    with pytest.raises(ValueError):
        Seat("a", "bot")
    with pytest.raises(ValueError):
        Match("chicken-foot", 3, {}, None, 1, (), cursor=2)
