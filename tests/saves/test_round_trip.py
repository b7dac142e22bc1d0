"""Save then load gives the same match: equal in every state of its history, and undo, redo and new
moves after loading behave exactly as they would have without the save."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import GAME_NAMES, Match
from saves.codec import decode, encode
from tests.saves.builders import random_match, record_of


def assert_same_match(loaded: Match, original: Match) -> None:
    assert loaded == original
    assert loaded.events == original.events
    for index in range(len(original.events) + 1):
        assert loaded.state_at(index) == original.state_at(index), f"the state after {index} events differs"
    assert loaded.state == original.state


def assert_same_behaviour(loaded: Match, original: Match, rng: random.Random, steps: int = 40) -> None:
    """The same undo, redo and move choices, made on both, keep them equal at every step."""
    for _ in range(steps):
        assert (loaded.can_undo(), loaded.can_redo()) == (original.can_undo(), original.can_redo())
        roll = rng.random()
        if roll < 0.35:
            assert loaded.undo() == original.undo()
        elif roll < 0.6:
            assert loaded.redo() == original.redo()
        elif original.state.over:
            continue
        elif original.state.chance:
            loaded.deal()
            original.deal()
        else:
            pick = rng.randrange(len(original.legal_moves()))
            loaded.apply(loaded.legal_moves()[pick])
            original.apply(original.legal_moves()[pick])
        assert loaded.cursor == original.cursor
        assert loaded.state == original.state
        assert loaded.events == original.events


@pytest.mark.parametrize("game_name", GAME_NAMES)
@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_save_then_load_gives_the_same_match_in_every_state(game_name, seed):
    rng = random.Random(seed)
    original = random_match(game_name, rng)
    record = record_of(original, f"m{seed:x}")
    data = encode(record)
    loaded = decode(data)
    assert (loaded.match_id, loaded.created, loaded.updated) == (record.match_id, record.created, record.updated)
    assert_same_match(loaded.match, original)
    assert encode(loaded) == data  # nothing is lost or reordered: the file is written back byte for byte
    assert_same_behaviour(loaded.match, original, random.Random(seed + 1))


@pytest.mark.parametrize("game_name", GAME_NAMES)
def test_a_complete_match_round_trips_and_resumes_its_redo_tail(game_name):
    rng = random.Random(11)
    original = random_match(game_name, rng, max_events=100_000, finish=True)
    original.cursor = len(original.events)
    assert original.state.over
    # Half the match as a redo tail (set, not undone: at a table of several humans undo stops at
    # the end of the last round, whose hands have been shown).
    original.cursor = len(original.events) // 2
    assert original.can_redo()
    loaded = decode(encode(record_of(original))).match
    assert_same_match(loaded, original)
    while original.redo():
        assert loaded.redo()
        assert loaded.state == original.state
    assert not loaded.redo() and loaded.state.over
