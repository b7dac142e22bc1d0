"""The review's judgement of one decision: from the seat's view only, the same for the same seed,
verdicts by each game's thresholds, the reason, and "play from here"."""

from __future__ import annotations

import itertools
import random

import pytest

from core import Match, Seat, get_game
from core.bots import get_bot
from core.moves import Deal
from core.review import (
    Decision,
    ReviewSettings,
    Weighing,
    branch,
    build_report,
    decisions,
    in_play_note,
    review_decision,
    summarise,
    verdict,
    weigh_decision,
)
from core.review.verdicts import THRESHOLDS, VERDICTS

SETTINGS = ReviewSettings(seed=3, worlds=6)


def easy_match(game: str, players: int, seed: int, events: int, options=None) -> Match:
    """A match of easy bots, `events` events long (or to its end)."""
    seats = [Seat(f"Bot {n}", "bot", "easy") for n in range(1, players + 1)]
    match = Match(game, players, options or {}, seats, seed)
    bot, rng = get_bot("easy"), random.Random(seed)
    while len(match.events) < events and not match.state.over:
        if match.state.chance:
            match.deal()
        else:
            match.apply(bot.choose(match.view(match.state.to_move), match.legal_moves(), rng))
    return match


def choices(match: Match, seat: int | None = None) -> list[Decision]:
    """The decisions with more than one legal move (of `seat`, if given), up to the cursor: the
    round in play's too, as these tests weigh positions (which ones a review judges is
    `decisions`'s to say)."""
    found = []
    for index in range(match.cursor):
        state = match.state_at(index)
        if type(match.events[index]) is Deal or (seat is not None and state.to_move != seat):
            continue
        if len(match.game.legal_moves(state)) > 1:
            found.append(Decision(index, state.to_move, state.round))
    return found


def stopped_in_round_two(game: str) -> Match:
    """A match of Ana and easy bots, stopped a few moves into its second round (Moon: hand)."""
    players = 3 if game != "doubles" else 2
    seats = [Seat("Ana"), *(Seat(f"Bot {n}", "bot", "easy") for n in range(2, players + 1))]
    match = Match(game, players, {"rounds": 2} if game == "chicken-foot" else {}, seats, None, secret=bytes(32))
    bot, rng = get_bot("easy"), random.Random(1)
    moves_in_two = 0
    while moves_in_two < 8:
        if match.state.chance:
            match.deal()
            continue
        if match.state.round == 2:
            moves_in_two += 1
        match.apply(bot.choose(match.view(match.state.to_move), match.legal_moves(), rng))
    return match


def to_a_round_end(match: Match) -> Match:
    """`match` played on by its easy bots until a round (Moon: hand) is over."""
    bot, rng = get_bot("easy"), random.Random(0)
    while not match.state.chance and not match.state.over:
        match.apply(bot.choose(match.view(match.state.to_move), match.legal_moves(), rng))
    return match


def test_every_decision_of_the_rounds_over_is_found_and_deals_are_not_decisions():
    match = to_a_round_end(easy_match("moon", 3, seed=2, events=40))
    found = decisions(match)
    assert [d.index for d in found] == [i for i, e in enumerate(match.events) if type(e) is not Deal]
    assert all(d.seat == match.state_at(d.index).to_move for d in found)
    assert {d.seat for d in decisions(match, [1])} == {1}
    assert in_play_note(match) is None
    match.undo()  # a decision undone is not reviewed, and its hand is in play again: nor is any of it
    last_deal = max(i for i, e in enumerate(match.events[: match.cursor]) if type(e) is Deal)
    assert [d.index for d in decisions(match)] == [d.index for d in found if d.index < last_deal]
    assert in_play_note(match) == f"hand {match.state.round} is still being played: it is reviewed once it is over"


def test_a_forced_move_is_not_weighed_and_says_why():
    match = easy_match("chicken-foot", 3, seed=4, events=80, options={"rounds": 1})
    forced = next(d for d in decisions(match) if len(match.game.legal_moves(match.state_at(d.index))) == 1)
    state, move = match.state_at(forced.index), match.events[forced.index]
    weighing = weigh_decision(match.game, state, move, forced.index, SETTINGS)
    assert weighing == Weighing((0.0,), 0, 0.0)
    review = review_decision(match.game, state, move, forced, weighing)
    assert (review.verdict, review.loss, review.alternatives, review.best) == ("best", 0.0, 1, move)
    assert review.reason


@pytest.mark.parametrize(("game", "players"), [("chicken-foot", 3), ("doubles", 2), ("moon", 3)])
def test_the_same_seed_gives_the_same_review_and_another_seed_other_deals(game, players):
    match = easy_match(game, players, seed=5, events=60, options={"rounds": 1} if game == "chicken-foot" else None)
    picked = choices(match)[:4]
    assert picked
    for decision in picked:
        state, move = match.state_at(decision.index), match.events[decision.index]
        first = weigh_decision(match.game, state, move, decision.index, SETTINGS)
        again = weigh_decision(match.game, state, move, decision.index, SETTINGS)
        assert first == again and first.worlds == SETTINGS.worlds
        assert review_decision(match.game, state, move, decision, first) == review_decision(
            match.game, state, move, decision, again
        )
    other = ReviewSettings(seed=4, worlds=6)
    assert any(
        weigh_decision(match.game, match.state_at(d.index), match.events[d.index], d.index, SETTINGS)
        != weigh_decision(match.game, match.state_at(d.index), match.events[d.index], d.index, other)
        for d in picked
    )


def swapped_hidden_tiles(match: Match, index: int, seat: int) -> Match:
    """The same match with one tile of one opponent and one of another swapped in the round's deal,
    both still in their hands at event `index`, so that the events stay legal and `seat` sees the
    same: the first pair that does so."""
    deal_at = max(i for i in range(index) if type(match.events[i]) is Deal)
    deal = match.events[deal_at]
    state = match.state_at(index)
    one, two = (s for s in range(match.players) if s != seat)
    for a, b in itertools.product(state.hands[one], state.hands[two]):
        hands = [list(hand) for hand in deal.hands]
        hands[one][hands[one].index(a)] = b
        hands[two][hands[two].index(b)] = a
        changed = Deal(tuple(map(tuple, hands)), deal.stock, deal.first, deal.search_start)
        events = [*match.events[:deal_at], changed, *match.events[deal_at + 1 : index + 1]]
        try:
            other = Match(match.game_name, match.players, dict(match.options), match.seats, match.seed, events)
        except Exception:  # a swap that makes an event illegal (a draw while a tile fits): try another
            continue
        if match.game.view(other.state_at(index), seat) == match.game.view(state, seat):
            return other
    raise AssertionError("no swap of hidden tiles keeps the events legal")


@pytest.mark.parametrize(("game", "players"), [("chicken-foot", 3), ("doubles", 3), ("moon", 3)])
def test_a_decision_is_judged_on_what_the_seat_could_see(game, players):
    match = easy_match(game, players, seed=8, events=45, options={"rounds": 1} if game == "chicken-foot" else None)
    decision = choices(match, seat=0)[-1]
    other = swapped_hidden_tiles(match, decision.index, 0)
    state, hidden_changed = match.state_at(decision.index), other.state_at(decision.index)
    assert state.hands != hidden_changed.hands  # the other hands differ ...
    move = match.events[decision.index]
    weighing = weigh_decision(match.game, state, move, decision.index, SETTINGS)
    assert weighing == weigh_decision(match.game, hidden_changed, move, decision.index, SETTINGS)  # ... unseen
    review = review_decision(match.game, state, move, decision, weighing)
    assert review == review_decision(match.game, hidden_changed, move, decision, weighing)


@pytest.mark.parametrize("game", ["chicken-foot", "doubles", "moon"])
def test_verdicts_follow_each_games_thresholds(game):
    limits = THRESHOLDS[game]
    assert verdict(game, 0.0) == "best"
    assert verdict(game, limits.best) == "best"
    assert verdict(game, (limits.best + limits.good) / 2) == "good"
    assert verdict(game, (limits.good + limits.inaccuracy) / 2) == "inaccuracy"
    assert verdict(game, (limits.inaccuracy + limits.mistake) / 2) == "mistake"
    assert verdict(game, limits.mistake) == "blunder"
    # A shortfall the sampling could explain (within two standard errors) is never worse than good.
    assert verdict(game, limits.mistake, error=limits.mistake / 1.5) == "good"
    assert verdict(game, limits.mistake, error=limits.mistake / 3) == "blunder"


def test_a_flawed_move_is_told_with_the_better_move_and_how_far_apart_they_came():
    match = easy_match("chicken-foot", 3, seed=4, events=80, options={"rounds": 1})
    decision = choices(match, seat=0)[0]
    state, move = match.state_at(decision.index), match.events[decision.index]
    legal = match.game.legal_moves(state)
    made = legal.index(move)
    better = (made + 1) % len(legal)
    means = [0.0] * len(legal)
    means[better], means[made] = 9.0, 3.0  # the others lie between: the reason compares these two
    for index in range(len(legal)):
        if index not in (better, made):
            means[index] = 7.0
    review = review_decision(match.game, state, move, decision, Weighing(tuple(means), 40, 0.5))
    assert review.verdict == "mistake" and review.loss == 6.0 and review.best == legal[better]
    assert review.reason.startswith(review.best_words)
    evidence = "in 40 sampled deals it did best, 6.0 points a round better than the next best move"
    assert f"{evidence} ({review.move_words.lower()})" in review.reason


def test_the_report_counts_each_seats_verdicts_and_lists_its_worst_three():
    match = easy_match("doubles", 2, seed=6, events=80)
    reviews = []
    for decision in decisions(match):
        state, move = match.state_at(decision.index), match.events[decision.index]
        weighing = weigh_decision(match.game, state, move, decision.index, SETTINGS)
        reviews.append(review_decision(match.game, state, move, decision, weighing))
    report = build_report("doubles", "m1", match.names, [0, 1], reviews)
    assert [seat["seat"] for seat in report["seats"]] == [1, 2]
    assert len(report["decisions"]) == len(reviews)
    for seat in report["seats"]:
        mine = [d for d in report["decisions"] if d["seat"] == seat["seat"]]
        assert seat["decisions"] == len(mine) == sum(seat["verdicts"].values())
        assert list(seat["verdicts"]) == list(VERDICTS)
        assert seat["mean_loss"] == pytest.approx(sum(d["loss"] for d in mine) / len(mine), abs=1e-3)
        flawed = sorted((d["loss"] for d in mine if d["verdict"] != "best"), reverse=True)
        assert [w["loss"] for w in seat["worst"]] == flawed[:3]
    assert summarise(0, []).decisions == 0


def test_play_from_here_keeps_the_past_and_the_deals_to_come_and_seats_a_person():
    match = easy_match("chicken-foot", 3, seed=4, events=200, options={"rounds": 2})
    decision = choices(match, seat=1)[3]
    new = branch(match, decision.index, 1)
    assert new.events == match.events[: decision.index] and new.cursor == decision.index
    assert new.state == match.state_at(decision.index)
    assert not new.seats[1].is_bot and new.seats[1].name == match.seats[1].name
    assert new.seats[0] == match.seats[0] and new.seed == match.seed
    # The next round is dealt the same tiles, whatever is played now.
    game = get_game("chicken-foot")
    while not new.state.chance:
        new.apply(game.legal_moves(new.state)[-1])
    new.deal()
    second_deal = [e for e in match.events if type(e) is Deal][1]
    assert new.events[-1] == second_deal
    with pytest.raises(ValueError):
        branch(match, match.cursor + 1, 0)
