"""The hint in Doubles and Moon: when the suggested move is the easy player's too, its reason names the
rule of thumb and the rule it rests on (forced moves always do)."""

from __future__ import annotations

import random

import pytest

from core import get_game
from core.bots import get_bot
from core.bots.hint import hint
from core.moves import Bid, Discard, Draw, Pass, Play, Trump

EASY = get_bot("easy")


def decisions(name: str, players: int, options: dict, seed: int):
    """Every decision of a match of easy bots: (view, legal)."""
    game = get_game(name)
    state = game.new_game(players, options, seed=seed)
    rng = random.Random(seed)
    while not state.over:
        if state.chance:
            state = game.apply(state, game.deal(state, rng))
            continue
        legal = game.legal_moves(state)
        view = game.view(state, state.to_move)
        yield view, legal
        state = game.apply(state, EASY.choose(view, legal, random.Random(0)))


@pytest.mark.parametrize("seed", [1, 2])
def test_doubles_hint_is_the_easy_move_with_its_rule(seed):
    openings = 0
    for view, legal in decisions("doubles", 3, {"target": 40}, seed):
        move, reason = hint(view, legal, worlds=2)
        assert move in legal
        if move != EASY.choose(view, legal, random.Random(0)):
            continue  # the medium player's own choice, told in general words (see test_hint.py)
        if type(move) is Play and move.target is None:
            openings += 1
            assert reason == f"Open the round with the {move.tile}: the highest double always starts it (DB-3)."
        elif type(move) is Play:
            place = get_game("doubles").line_name(view.board, move.target)
            assert reason.startswith(f"Play the {move.tile} on {place}: ")
        elif type(move) is Draw:
            assert "(DB-8)" in reason
        else:
            assert type(move) is Pass and "(DB-9)" in reason
    assert openings >= 2


@pytest.mark.parametrize("seed", [1, 2])
def test_moon_hint_is_the_easy_move_with_its_count(seed):
    kinds = set()
    for view, legal in decisions("moon", 3, {"target": 10}, seed):
        move, reason = hint(view, legal, worlds=2)
        assert move in legal
        if move != EASY.choose(view, legal, random.Random(0)):
            continue  # the medium player's own choice, told in general words (see test_hint.py)
        kinds.add(type(move))
        if type(move) is Bid:
            word = "Pass" if move.amount == 0 else f"Bid {move.amount}"
            assert reason.startswith(f"{word}: ") and "tricks" in reason
        elif type(move) is Discard:
            assert reason.startswith(f"Lay aside the {move.tile}: ") and "(MN-11)" in reason
        elif type(move) is Trump:
            assert "(MN-12)" in reason
        else:
            assert reason.startswith((f"Play the {move.tile}", f"Lead the {move.tile}"))
    assert kinds == {Bid, Discard, Trump, Play}


def test_moon_reasons_speak_of_tricks_and_suits_never_pips_for_every_move():
    """Any move the hint may suggest in Moon gets a reason about the hand, in Moon's terms (MN-5:
    there are no pips to shed in a trick-taking game)."""
    from core.bots import hint_moon
    from core.bots.hint import move_words

    bids_of_21 = 0
    for view, legal in decisions("moon", 3, {"target": 10}, 1):
        for move in legal:
            reason = hint_moon.reason(view, legal, move)
            assert "pip" not in reason and reason.endswith(".")
            words = move_words(view, move)
            assert reason.startswith(
                (words, f"Play the {getattr(move, 'tile', '')}", f"Lead the {getattr(move, 'tile', '')}",
                 f"Lay aside the {getattr(move, 'tile', '')}", "Name ", "Choose no trump", "Pass")
            )  # fmt: skip
            assert ":" in reason and len(reason.split(":", 1)[1].strip()) > 10  # a reason follows the move
            if move == Bid(21):
                bids_of_21 += 1
                assert "sure" in reason and "(MN-19)" in reason and "trump" in reason
    assert bids_of_21 >= 1


def test_moon_hint_counts_a_trump_only_in_the_trump_suit():
    """MN-5: with fives trump the 1-5 is a trump and no longer a 1: "you hold three" 1s, not four."""
    from core.bots.hint_moon import suit_counts
    from core.games.moon_suits import TRUMP
    from tests.helpers import tiles

    counts = suit_counts(tuple(tiles("1-5 1-1 1-3 1-4 2-6")), 5)
    assert counts[1] == 3 and counts[TRUMP] == 1 and counts[5] == 0
    assert counts[3] == 1 and counts[4] == 1  # a non-double belongs to both its numbers' suits (MN-3)
    assert suit_counts(tuple(tiles("1-5 1-1")), "doubles")[1] == 1  # MN-6: the 1-1 is a trump, the 1-5 a 1


def test_the_bidding_hint_names_the_trump_the_trump_hint_suggests_unless_the_widow_changes_it():
    from core.bots.hint_moon import trump_words
    from core.bots.moon_trump import trump_choice

    game = get_game("moon")
    changed = 0
    for seed in range(3):
        state = game.new_game(3, {}, seed=seed)
        state = game.apply(state, game.deal(state, random.Random(seed)))
        bidder = state.to_move
        move, reason = hint(game.view(state, bidder), game.legal_moves(state), worlds=2)
        named = trump_choice(game.view(state, bidder).hand).best
        assert f"played with {trump_words(named)}," in reason or (type(move) is Bid and move.amount == 21)
        for bid in (Bid(4), Bid(0), Bid(0)):  # the hint's bidder wins the bid: the widow joins the hand
            state = game.apply(state, bid)
        view = game.view(state, bidder)
        # The widow laid aside again: the same seven tiles, and the trump the bidding hint named.
        same = game.apply(state, Discard(view.widow))
        trump, words = hint(game.view(same, bidder), game.legal_moves(same))
        assert trump == Trump(named) and "widow changed" not in words
        assert words.startswith(("Choose no trump", f"Name {named}s as trump", "Name doubles as trump"))
        for tile in view.hand:  # another tile laid aside: a new hand, maybe a new trump, said so
            if tile == view.widow:
                continue
            after = game.apply(state, Discard(tile))
            trump, words = hint(game.view(after, bidder), game.legal_moves(after))
            if trump != Trump(named):
                changed += 1
                assert words.endswith(
                    f" The widow changed it: before you took the {view.widow} and laid aside the {tile},"
                    f" {trump_words(named)} did best."
                )
            else:
                assert "widow changed" not in words
    assert changed >= 1
