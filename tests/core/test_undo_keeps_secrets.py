"""Undo keeps secrets: at a table with another human it never goes back into a round whose hands
have been shown (it stops at the round's end, saying why); with one human it may, and the match is
marked. And the fairness check: the secret gives the commitment, and every deal is the secret's."""

from __future__ import annotations

import random

import pytest

from core import Match, Seat
from core.bots import get_bot
from core.fairness import check_deals
from core.moves import Deal
from core.review import branch

SECRET = bytes(range(32))


def play_to_round_two(seats: list[Seat], game: str = "doubles") -> Match:
    """A match dealt from SECRET, played by easy choices to the first decision of a human in
    round 2 (a redeal's deal counted as the round's)."""
    options = {"rounds": 2} if game == "chicken-foot" else {}
    match = Match(game, len(seats), options, seats, None, secret=SECRET)
    bot, rng = get_bot("easy"), random.Random(2)
    while True:
        state = match.state
        if state.chance:
            match.deal()
            continue
        if state.round == 2 and not seats[state.to_move].is_bot:
            return match
        match.apply(bot.choose(match.view(state.to_move), match.legal_moves(), rng))


def two_humans() -> list[Seat]:
    return [Seat("Ana"), Seat("Ben"), Seat("Cy", "bot", "easy")]


@pytest.mark.parametrize("game", ["chicken-foot", "doubles", "moon"])
def test_with_two_humans_undo_stops_at_the_end_of_the_round_and_says_why(game):
    match = play_to_round_two(two_humans(), game)
    before = match.cursor
    assert match.undo_point() is not None  # a human decision of round 1 is there to go back to...
    word = "hand" if game == "moon" else "round"
    refusal = (
        f"Undo stops at the end of {word} 1: its hands have been shown to every player, so it is not played again."
    )
    assert match.undo_refusal() == refusal  # ... but its hands were shown at its end
    assert not match.can_undo() and not match.undo()
    assert match.cursor == before and not match.undid_revealed_round
    # From the round's end itself (every hand on show), the same.
    last_deal = max(i for i, event in enumerate(match.events) if type(event) is Deal)
    match.cursor = last_deal
    assert match.state.chance and match.undo_refusal() == refusal and not match.undo()


def test_with_two_humans_undo_within_the_round_in_play_stays():
    match = play_to_round_two(two_humans())
    bot, rng = get_bot("easy"), random.Random(3)
    while (
        match.state.to_move is None
        or match.seats[match.state.to_move].is_bot
        or match.undo_point() is None
        or (match.revealed_round(match.undo_point()) is not None)
    ):
        match.apply(bot.choose(match.view(match.state.to_move), match.legal_moves(), rng))
    point = match.undo_point()
    assert match.can_undo() and match.undo_refusal() is None and match.undo()
    assert match.cursor == point and match.state.round == 2 and not match.undid_revealed_round


def test_against_bots_alone_undo_takes_back_the_last_move_of_a_round_and_marks_the_match():
    match = play_to_round_two([Seat("Ana"), Seat("Bot", "bot", "easy"), Seat("Cy", "bot", "easy")])
    assert match.can_undo() and match.undo_refusal() is None
    assert match.undo()
    assert match.state.round == 1 and match.undid_revealed_round  # practice, not a fair match
    assert (
        Match(match.game_name, match.players, match.options, match.seats, None, match.events, secret=SECRET) != match
    )  # the mark is part of the match


def test_a_branch_is_practice_and_keeps_the_hidden_deals_of_a_match_in_play_hidden():
    match = play_to_round_two(two_humans())
    first_decision = next(i for i, event in enumerate(match.events) if type(event) is not Deal)
    new = branch(match, first_decision, 0)
    assert new.undid_revealed_round and new.events == match.events[:first_decision]
    assert new.secret != SECRET  # the original's later deals, still hidden, are not the branch's
    round_two = max(i for i, event in enumerate(match.events) if type(event) is Deal)
    while not (new.state.chance and new.state.round == 1):
        new.apply(new.legal_moves()[0])
    new.deal()
    assert new.events[-1] != match.events[round_two]


@pytest.mark.parametrize("game", ["chicken-foot", "doubles", "moon"])
def test_the_deals_of_a_match_check_against_its_secret_and_commitment(game):
    match = play_to_round_two(two_humans(), game)
    verdict = check_deals(match)
    deals = sum(1 for event in match.events if type(event) is Deal)
    assert verdict.fair and verdict.deals == deals >= 2
    assert verdict.reason == f"the secret gives the commitment, and every deal ({deals}) is the one it gives"
    # Another commitment (a table that showed one and dealt from another secret): refused.
    events = match.events
    other = Match(game, match.players, match.options, match.seats, None, events, secret=SECRET, commitment="0" * 64)
    assert not check_deals(other).fair
    assert "does not give the commitment" in check_deals(other).reason
    # A deal that is not the secret's: two tiles (not doubles) swapped between the first two hands.
    first = match.events[0]
    one = next(tile for tile in first.hands[0] if not tile.is_double)
    two = next(tile for tile in first.hands[1] if not tile.is_double)
    hands = [list(hand) for hand in first.hands]
    hands[0][hands[0].index(one)], hands[1][hands[1].index(two)] = two, one
    stacked = Deal(tuple(tuple(sorted(hand)) for hand in hands), first.stock, first.first, first.search_start)
    tampered = Match(game, match.players, match.options, match.seats, None, (stacked,), secret=SECRET)
    word = "hand" if game == "moon" else "round"
    assert not check_deals(tampered).fair
    assert check_deals(tampered).reason == f"deal 1 (event 1, {word} 1) is not the one the secret gives"


@pytest.mark.parametrize("game", ["chicken-foot", "moon"])
def test_against_bots_with_people_watching_undo_stops_at_the_end_of_the_round(game):
    match = play_to_round_two([Seat("Ana"), Seat("Bot", "bot", "easy"), Seat("Cy", "bot", "easy")], game)
    match.watched = True  # the table had watchers: they saw round 1's hands at its end
    word = "hand" if game == "moon" else "round"
    assert match.undo_refusal() == (
        f"Undo stops at the end of {word} 1: its hands have been shown to everyone watching, so it is not played again."
    )
    before = match.cursor
    assert not match.undo() and match.cursor == before and not match.undid_revealed_round
