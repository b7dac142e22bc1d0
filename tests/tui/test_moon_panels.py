"""Moon's panels follow the hand: the widow line after the discard, a bid that can no longer be made
said to be lost, and the status line's "hand over" (Moon plays hands, MN-17)."""

from __future__ import annotations

import random

from core import Match
from core.bots import get_bot
from core.moves import Discard
from core.seats import Seat
from core.tiles import Tile
from tests.tui.conftest import wait_until
from tui.app import DominoesApp
from tui.lessons import load_lesson
from tui.preferences import Preferences
from tui.screens.round_over import RoundOverScreen
from tui.widgets.trick_view import TrickView


def lesson_match(events: int, *replacing: tuple[int, object]) -> Match:
    """The Moon lesson's match after its first `events` events, some of them replaced."""
    lesson = load_lesson("moon")
    script = list(lesson.script[:events])
    for index, move in replacing:
        script[index] = move
    return Match("moon", 3, lesson.options, lesson.seats, lesson.seed, script)


def trick_text(match: Match, seat: int = 0) -> str:
    view = TrickView()
    view.show(match.view(seat), match.names)
    return view.render().plain


def test_after_the_discard_the_widow_line_says_where_the_widow_went():
    lesson = load_lesson("moon")
    discard = next(i for i, move in enumerate(lesson.script) if type(move) is Discard)
    during = trick_text(lesson_match(discard))
    assert "The widow 1-2 is in your hand now." in during.replace("[1|2]", "1-2")
    itself = trick_text(lesson_match(discard + 1)).replace("[1|2]", "1-2")  # the widow laid aside again
    assert "You laid the widow 1-2 aside." in itself and "in your hand" not in itself
    other = trick_text(lesson_match(discard + 1, (discard, Discard(Tile(1, 4)))))
    other = other.replace("[1|2]", "1-2").replace("[1|4]", "1-4")
    assert "The widow 1-2 is in your hand; you laid 1-4 aside." in other
    assert "widow" not in trick_text(lesson_match(discard + 1), seat=1)  # the others see neither tile


def a_bid_that_cannot_be_made() -> Match:
    """Easy bots' hands, played until the bidder needs more tricks than are left to play."""
    bot = get_bot("easy")
    for seed in range(200):
        match, rng = Match("moon", 3, {}, None, seed), random.Random(seed)
        match.deal()
        while not match.state.chance and not match.state.over:
            state = match.state
            if state.phase == "play" and state.bidder is not None:
                promised = 7 if state.bid == 21 else state.bid
                if promised - state.taken[state.bidder] > 7 - len(state.tricks):
                    return match
            match.apply(bot.choose(match.view(state.to_move), match.legal_moves(), rng))
    raise AssertionError("no bid was set in 200 hands")


def test_a_bid_that_can_no_longer_be_made_is_said_to_be_lost():
    match = a_bid_that_cannot_be_made()
    state = match.state
    short = (7 if state.bid == 21 else state.bid) - state.taken[state.bidder]
    left = 7 - len(state.tricks)
    words = " ".join(trick_text(match).split())
    trick = "trick" if left == 1 else "tricks"
    assert f"(the bid is lost: {short} more needed, {left} {trick} left)" in words
    assert "the bid needs" not in words
    match.cursor = next(i for i in range(match.cursor) if match.state_at(i).phase == "play")
    assert "(the bid needs" in " ".join(trick_text(match).split())  # at the first trick it could be made


async def test_moons_status_line_says_hand_over():
    lesson = load_lesson("moon")
    match = Match("moon", 3, lesson.options, lesson.seats, lesson.seed, lesson.script)  # the hand played out
    app = DominoesApp(match=match, preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: getattr(app.screen, "read_due", lambda: False)())
        await pilot.press("enter")  # the lesson's closing step, then the hand's end
        await wait_until(pilot, lambda: isinstance(app.screen, RoundOverScreen))
        status = str(app.screen_stack[-2].query_one("#status").render())
        assert "hand over" in status and "round" not in status


def table_board(app: DominoesApp) -> TrickView | None:
    """The table's trick view, under any dialog the table has pushed over it."""
    for screen in app.screen_stack:
        for board in screen.query(TrickView):
            return board
    return None


async def test_a_table_of_bots_only_tells_of_the_widow_by_name_not_as_yours():
    """Watching bots, the table shows the first seat's view; the bidder's widow line names that
    seat rather than saying "You laid the widow" to someone who laid nothing."""
    lesson = load_lesson("moon")
    discard = next(i for i, move in enumerate(lesson.script) if type(move) is Discard)
    bots = tuple(Seat(f"Bot {i + 1}", "bot", "easy") for i in range(3))
    for seats, addressed in ((lesson.seats, True), (bots, False)):
        match = Match("moon", 3, lesson.options, seats, lesson.seed, lesson.script[: discard + 1])
        app = DominoesApp(match=match, preferences=Preferences(bot_speed="slow"))
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda app=app: table_board(app) is not None)
            board = table_board(app)
            assert board is not None
            assert board.addressed is addressed
            if not addressed:
                text = " ".join(board.render().plain.split()).replace("[1|2]", "1-2")
                assert "Bot 1 laid the widow 1-2 aside." in text and "You" not in text
