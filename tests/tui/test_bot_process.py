"""Bots thinking in their own process: legal answers, cancelling, and bad requests."""

from __future__ import annotations

import threading
import time

import pytest

from core import Match, Seat
from workers.bot_process import BotError, BotProcess


def started_match(players=3):
    seats = [Seat("Ana"), *(Seat(f"Bot {i}", "bot", "easy") for i in range(1, players))]
    match = Match("chicken-foot", players, {"rounds": 1}, seats, 4)
    match.deal()
    return match


@pytest.fixture
def bots():
    process = BotProcess()
    yield process
    process.close()


def test_the_process_answers_with_a_legal_move_and_follows_the_match(bots):
    match = started_match()
    for _ in range(12):
        state = match.state
        if state.chance or state.over:
            break
        move = bots.decide(match, state.to_move, "easy", None, 7)
        assert move in match.legal_moves()
        match.apply(move)


def test_cancel_stops_a_long_search(bots):
    match = started_match()
    easy = BotProcess()
    try:
        # The hard bot answers early when one move is clearly best: play on (easy moves) to a
        # decision it is still searching after a second, then cancel it.
        for _ in range(15):
            if match.state.chance or match.state.over:
                break
            errors = []
            answers = []

            def think(seat=match.state.to_move, errors=errors, answers=answers):
                try:
                    answers.append(bots.decide(match, seat, "hard", 30.0, 1))
                except BotError as error:
                    errors.append(error)

            thread = threading.Thread(target=think)
            thread.start()
            thread.join(timeout=1.0)
            if thread.is_alive():
                started = time.perf_counter()
                bots.cancel()
                thread.join(timeout=25)
                assert not thread.is_alive()
                if not answers:  # (on a busy machine an early answer can come just before the cancel)
                    assert errors
                    assert time.perf_counter() - started < 25  # stopped, not searched for its 30 s
                    break
            match.apply(easy.decide(match, match.state.to_move, "easy", None, 1))
        else:
            raise AssertionError("the hard bot answered every decision within a second")
    finally:
        easy.close()
    # The next decision starts a fresh process.
    assert bots.decide(match, match.state.to_move, "easy", None, 1) in match.legal_moves()


def test_a_request_for_the_wrong_seat_is_an_error(bots):
    match = started_match()
    with pytest.raises(BotError, match="not seat"):
        bots.decide(match, (match.state.to_move + 1) % 3, "easy", None, 1)
    with pytest.raises(BotError, match="unknown bot level"):
        bots.decide(match, match.state.to_move, "genius", None, 1)


def test_a_decision_cancelled_before_it_is_sent_is_never_searched(bots):
    match = started_match()
    request = bots.request(match, match.state.to_move, "hard", 30.0, 1)
    bots.cancel()
    started = time.perf_counter()
    with pytest.raises(BotError, match="cancelled"):
        bots.ask(request)
    assert time.perf_counter() - started < 10 and bots._process is None  # no process was started for it
    assert bots.decide(match, match.state.to_move, "easy", None, 1) in match.legal_moves()  # later ones go on


def test_a_decision_asked_after_close_starts_no_process():
    # A table that closes while a bot's thread is on its way to `ask`: that thread must not start
    # a process the table will never close (the server test once saw one alive after its table).
    bots = BotProcess()
    match = started_match()
    bots.decide(match, match.state.to_move, "easy", None, 1)
    request = bots.request(match, match.state.to_move, "hard", 30.0, 1)
    bots.close()
    with pytest.raises(BotError):
        bots.ask(request)
    with pytest.raises(BotError, match="closed"):
        bots.decide(match, match.state.to_move, "easy", None, 1)
    assert bots._process is None
