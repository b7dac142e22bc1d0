"""The review screen: opened from the round-over, game-over and load screens, stepped through by
event and by decision, a seat switched, the sidecar reused, and "play from here".

Most tests open a saved match whose review is already kept beside it (weighed once for the module),
so they open at once; the last weighs a review in the background, as a first review is."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest

from core import Match, Seat
from core.bots import get_bot
from core.moves import Deal, Play
from core.review import FLAWED, ReviewSettings
from saves import SaveStore
from saves.record import SavedMatch
from tests.core.test_review import stopped_in_round_two
from tests.tui.conftest import finished_round, wait_until
from tui.app import DominoesApp
from tui.preferences import Preferences
from tui.review_session import ReviewSession
from tui.screens import review as review_screen
from tui.screens.game_over import GameOverScreen
from tui.screens.load import LoadScreen
from tui.screens.pass_device import PassScreen
from tui.screens.review import ReviewScreen
from tui.screens.round_over import RoundOverScreen
from tui.screens.table import TableScreen
from tui.widgets.board_tree import BoardTree
from tui.widgets.review_hand import ReviewHand
from tui.widgets.verdict_strip import VerdictStrip

SETTINGS = ReviewSettings(seed=2, worlds=8)  # the fewest deals that may find fault with a move
MATCH_ID = "original"


@pytest.fixture(autouse=True)
def quick_review(monkeypatch):
    """Few sampled deals a decision, so a review takes a moment."""
    monkeypatch.setattr(review_screen, "REVIEW_SETTINGS", SETTINGS)


@pytest.fixture(scope="module")
def reviewed_save(tmp_path_factory):
    """A finished one-round match of four easy bots, saved, with every seat's review beside it."""
    directory = tmp_path_factory.mktemp("reviewed")
    store = SaveStore(directory)
    match = finished_round(seed=4)
    store.save(SavedMatch(MATCH_ID, match, 1, 1))
    ReviewSession(match, MATCH_ID, store.review_path(MATCH_ID), SETTINGS).run()
    return directory


@pytest.fixture
def store(private_home, reviewed_save) -> SaveStore:
    """The user's saves: the reviewed match and its review."""
    store = SaveStore(private_home / "saves")
    shutil.copytree(reviewed_save, store.directory)
    return store


def finished_app(store: SaveStore) -> DominoesApp:
    """The reviewed match resumed: it opens on its round-over screen."""
    return DominoesApp(saved=store.load(MATCH_ID), preferences=Preferences(bot_speed="instant"))


async def reviewed(pilot) -> ReviewScreen:
    """The review screen, once every decision of its seat is weighed."""
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ReviewScreen))
    screen = pilot.app.screen
    await wait_until(
        pilot,
        lambda: screen.session is not None and screen.session.complete and screen.progress is None,
        timeout=60,
    )
    await pilot.pause()
    return screen


async def review_from_round_over(pilot) -> ReviewScreen:
    """`v` on the round-over screen, and the review once weighed."""
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, RoundOverScreen))
    await pilot.press("v")
    return await reviewed(pilot)


def side_text(screen: ReviewScreen) -> str:
    return str(screen.query_one("#review-text").render())


async def test_from_the_round_over_screen_v_reviews_the_round_and_steps_through_it(store):
    app = finished_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, RoundOverScreen))
        await pilot.press("v")
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.session is not None)
        assert app.screen.session.complete  # the review kept beside the save: nothing to weigh again
        screen = await reviewed(pilot)
        match = screen.match
        mine = screen.seat_decisions()
        assert screen.position == mine[0] and screen.seat == 0
        assert match.events[screen.position] is app.match.events[screen.position]  # a copy of the same match
        # Every decision of the seat is judged, and the strip shows one mark per decision of the round.
        assert set(screen.reviews) == set(mine)
        strip = screen.query_one(VerdictStrip)
        assert [cell.position for cell in strip.cells] == mine and strip.current == mine[0]
        # Right and left: one event; PageDown and PageUp: one decision of the reviewed seat.
        await pilot.press("right")
        assert screen.position == mine[0] + 1
        await pilot.press("left", "pagedown")
        assert screen.position == mine[1]
        await pilot.press("pagedown", "pageup")
        assert screen.position == mine[1]
        await pilot.press("home")
        assert screen.position == 0 and not screen.check_action("step", (-1,))
        await pilot.press("left")
        assert screen.position == 0
        await pilot.press("end")
        assert screen.position == screen.end and not screen.check_action("step", (1,))
        assert not screen.check_action("play_from_here", ())
        text = side_text(screen)
        assert text.startswith("Game over") and "Every hand:" in text  # the round is over: every hand shown
        # At a decision: the move in words, the verdict, the reason.
        await pilot.press("home", "pagedown")
        review = screen.reviews[screen.position]
        text = side_text(screen)
        assert match.game.describe_move(match.state_at(screen.position), review.move, match.names) in text
        assert review.reason in text.replace("\n", " ") or review.reason[:40] in text
        await pilot.press("escape")
        assert isinstance(app.screen, RoundOverScreen)  # back where it was opened


async def test_the_strip_jumps_to_a_decision_and_marks_the_better_move(store):
    app = finished_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await review_from_round_over(pilot)
        flawed = [p for p, review in screen.reviews.items() if review.verdict in FLAWED]
        assert flawed, "this round has a move the review finds fault with"
        target = flawed[0]
        strip = screen.query_one(VerdictStrip)
        cell = [c.position for c in strip.cells].index(target)
        await pilot.click(VerdictStrip, offset=(len(strip.label) + 1 + 2 * cell + 1, 0))
        assert screen.position == target
        review = screen.reviews[target]
        hand = screen.query_one(ReviewHand)
        if review.best.tile != review.move.tile:
            assert str(hand.labels[review.best.tile]) == "best" and str(hand.labels[review.move.tile]) == "you"
        assert f"Better: {review.best_words}" in side_text(screen).replace("\n", " ")


async def test_the_seat_is_switched_with_s(store):
    app = finished_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await review_from_round_over(pilot)
        assert screen.session.path == store.review_path(MATCH_ID)
        await pilot.press("s")
        assert screen.seat == 1
        screen = await reviewed(pilot)
        assert {screen.deciders[p] for p in screen.seat_decisions()} == {1}
        assert set(screen.seat_decisions()) <= set(screen.reviews)
        assert screen.position in screen.seat_decisions()  # moved on to that seat's next decision
        assert str(screen.query_one(ReviewHand).border_title) == f"{screen.names[1]}'s tiles"


async def test_play_from_here_opens_a_new_match_at_that_decision(store):
    original = store.load(MATCH_ID).record.match
    before = store.path(MATCH_ID).read_bytes()
    app = DominoesApp(preferences=Preferences(bot_speed="slow"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await wait_until(pilot, lambda: isinstance(app.screen, LoadScreen))
        await pilot.press("v")
        screen = await reviewed(pilot)
        assert screen.match_id == MATCH_ID
        await pilot.press("pagedown", "pagedown")
        position = screen.position
        assert screen.check_action("play_from_here", ())
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        match = app.match
        assert match.events == original.events[:position]
        assert not match.seats[0].is_bot and match.seats[0].name == original.seats[0].name
        assert match.seats[1:] == original.seats[1:]
        new_id = app.autosave.match_id
        assert new_id != MATCH_ID and store.path(new_id).exists()  # saved at once, under a new id
        assert store.load(new_id).record.match.events == original.events[:position]
        assert store.path(MATCH_ID).read_bytes() == before  # the reviewed match is unchanged
        assert app.screen.human_to_move()  # the decision is the player's now


async def test_the_game_over_screen_offers_the_review(store):
    app = finished_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, RoundOverScreen))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        assert app.screen.check_action("review", ())
        await pilot.press("v")
        screen = await reviewed(pilot)
        assert screen.position == screen.seat_decisions()[0]
        await pilot.press("q")
        assert isinstance(app.screen, GameOverScreen)


async def test_the_load_screen_cannot_review_a_damaged_save(private_home):
    from tests.tui.test_saving import damaged_store

    damaged_store()
    app = DominoesApp(preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await wait_until(pilot, lambda: isinstance(app.screen, LoadScreen))
        screen = app.screen
        assert screen.highlighted_entry() is not None and screen.check_action("review", ())
        options = screen.query_one("#load-list")
        damaged = next(i for i, option in enumerate(options.options) if option.disabled and option.id)
        options.highlighted = damaged
        await pilot.pause()
        assert screen.check_action("review", ()) is None  # greyed out: nothing to review
        await pilot.press("v")
        assert app.screen is screen


async def test_a_first_review_is_weighed_in_the_background():
    match = finished_round(seed=4)
    app = DominoesApp(preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(ReviewScreen(match, None, None, seat=2, settings=SETTINGS))
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.session is not None)
        assert not app.screen.session.complete  # nothing kept: weighed now, in the worker processes
        screen = await reviewed(pilot)
        assert screen.end == match.cursor and screen.session.path is None
        assert screen.reviews and max(screen.reviews) < screen.end


async def test_the_end_of_a_round_that_is_not_the_last_says_the_match_goes_on():
    """Not "the match stops here": the round-over dialog beneath offers the next deal."""
    match = Match("doubles", 2, {}, [Seat("Ana"), Seat("Bot", "bot", "easy")], None, secret=bytes(32))
    bot, rng = get_bot("easy"), random.Random(1)
    match.deal()
    while not match.state.chance:  # up to the end of round 1, the next deal not made
        match.apply(bot.choose(match.view(match.state.to_move), match.legal_moves(), rng))
    assert not match.state.over
    app = DominoesApp(preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(ReviewScreen(match, None, None, seat=0, settings=SETTINGS))
        screen = await reviewed(pilot)
        await pilot.press("end")
        text = " ".join(side_text(screen).split())
        assert "The match goes on: the next round is dealt when you go on." in text
        assert "stops here" not in text


@pytest.mark.parametrize("game", ["chicken-foot", "doubles", "moon"])
async def test_the_round_in_play_is_not_reviewed_and_is_named(game):
    match = stopped_in_round_two(game)
    second = max(i for i, event in enumerate(match.events) if type(event) is Deal)
    app = DominoesApp(preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(ReviewScreen(match, None, None, seat=0, settings=ReviewSettings(seed=2, worlds=2)))
        screen = await reviewed(pilot)
        # Nothing of the round in play: the review ends where round 1 ended, before the next deal.
        assert screen.end == second and screen.match.events == match.events[:second]
        assert screen.reviews and max(screen.reviews) < second
        await pilot.press("end")
        word = "Hand" if game == "moon" else "Round"
        assert f"{word} 2 is still being played: it is reviewed once it is over." in side_text(screen)
        # No position tells a move of round 2 (one that reads as no move of round 1 does).
        told = {words(match, i) for i in range(second)}
        round_two = {words(match, i) for i in range(second + 1, match.cursor)} - told
        assert round_two
        for _ in range(screen.end + 1):
            assert not any(line in side_text(screen) for line in round_two)
            await pilot.press("left")


def words(match: Match, index: int) -> str:
    return match.game.describe_move(match.state_at(index), match.events[index], match.names)


async def test_with_two_humans_at_the_keyboard_the_review_opens_behind_the_pass_screen(private_home):
    match = finished_round(seed=4)
    match.seats = (Seat("Ana"), Seat("Ben"), *match.seats[2:])
    app = DominoesApp(preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        app.show_review(match, seat=1)
        await wait_until(pilot, lambda: isinstance(app.screen, PassScreen))
        assert "Pass to Ben" in str(app.screen.query_one("#pass-message").render())
        assert isinstance(app.screen_stack[-2], ReviewScreen)  # the review is behind it
        await pilot.press("enter")
        screen = await reviewed(pilot)
        assert screen.seat == 1
        await pilot.press("s")  # Cy, a bot: nobody to pass to
        await pilot.pause()
        assert app.screen is screen and screen.seat == 2
        for _ in range(2):
            await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, PassScreen))  # back to Ana: passed to her first
        assert "Pass to Ana" in str(app.screen.query_one("#pass-message").render())


# -- how it looks, at 80x24 ------------------------------------------------------------------------
async def at_a_flawed_decision(pilot) -> None:
    screen = await review_from_round_over(pilot)
    while screen.reviews.get(screen.position) is None or screen.reviews[screen.position].verdict not in FLAWED:
        await pilot.press("pagedown")
    await pilot.pause()


def test_snapshot_a_mistake_and_the_better_move(snap_compare, store):
    assert snap_compare(finished_app(store), run_before=at_a_flawed_decision, terminal_size=(80, 24))


def test_snapshot_the_end_of_the_round_shows_every_hand(snap_compare, store):
    async def at_the_end(pilot):
        await review_from_round_over(pilot)
        await pilot.press("end")
        await pilot.pause()

    assert snap_compare(finished_app(store), run_before=at_the_end, terminal_size=(80, 24))


def test_snapshot_a_moon_decision(snap_compare, private_home):
    from tests.core.test_review import easy_match, to_a_round_end

    match = to_a_round_end(easy_match("moon", 3, seed=3, events=20))  # a hand in play is not reviewed
    match.seats = (Seat("Ana"), *match.seats[1:])
    store = SaveStore(private_home / "saves")
    store.save(SavedMatch("moon", match, 1, 1))

    async def at_a_trick(pilot):
        pilot.app.show_review(store.load("moon").record.match, "moon")
        screen = await reviewed(pilot)
        while screen.match.state_at(screen.position).phase != "play":
            await pilot.press("pagedown")
        await pilot.pause()

    app = DominoesApp(preferences=Preferences(bot_speed="instant"))
    assert snap_compare(app, run_before=at_a_trick, terminal_size=(80, 24))


def review_workers() -> list[int]:
    """The review worker processes running now (Linux: from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                command = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if b"workers.review_worker" in command and Path(f"/proc/{entry}/stat").read_text().split()[3] == str(
                os.getpid()
            ):
                found.append(int(entry))
    return found


async def test_closing_the_review_or_quitting_while_it_thinks_stops_its_workers():
    app = DominoesApp(preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        slow = ReviewSettings(budget=5.0)  # every decision would take seconds
        app.push_screen(ReviewScreen(finished_round(seed=4), None, None, jobs=2, settings=slow))
        await wait_until(pilot, lambda: len(review_workers()) == 2, timeout=30)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not review_workers())
        app.push_screen(ReviewScreen(finished_round(seed=4), None, None, jobs=2, settings=slow))
        await wait_until(pilot, lambda: len(review_workers()) == 2, timeout=30)
        await pilot.press("ctrl+q")
    assert not review_workers()


async def test_the_screen_says_whose_play_and_marks_a_move_that_was_the_only_one(store):
    app = finished_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await review_from_round_over(pilot)
        name = screen.names[screen.seat]
        status = str(screen.query_one("#status").render())
        assert status.startswith(f"Review of {name}'s play · ")  # the play reviewed: not "Review of Seat 1"
        assert f"{len(screen.seat_decisions())} decisions · mean loss" in status
        # Before the deal the empty board says so (not that the round has begun).
        screen.action_jump(0)
        assert screen.query_one(BoardTree).root.children[0].label.plain == "The tiles are not dealt yet."
        # A tile played because it was the only legal move is marked "only", not "best" or "you".
        forced = [p for p in screen.seat_decisions() if screen.reviews[p].alternatives == 1]
        played = [p for p in forced if type(screen.reviews[p].move) is Play]
        assert played, "the seat had a forced play this round"
        screen.action_jump(played[0])
        await pilot.pause()
        assert str(screen.query_one(ReviewHand).labels[screen.reviews[played[0]].move.tile]) == "only"


async def test_a_doubles_board_before_its_first_tile_says_the_round_is_dealt():
    from tests.core.test_review import easy_match, to_a_round_end

    match = to_a_round_end(easy_match("doubles", 2, seed=5, events=1))
    app = DominoesApp(preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(ReviewScreen(match, None, None, seat=0, settings=ReviewSettings(seed=2, worlds=1)))
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.session is not None)
        screen = app.screen
        screen.action_jump(1)  # dealt, and the highest double not played yet (DB-3)
        assert screen.match.state_at(1).round == 1 and screen.match.state_at(1).board is None
        words = screen.query_one(BoardTree).root.children[0].label.plain
        assert words == "Nothing is played yet this round."


async def test_moon_says_hand_and_shows_no_empty_hands_at_the_end():
    from tests.core.test_review import easy_match, to_a_round_end

    match = to_a_round_end(easy_match("moon", 3, seed=3, events=20))
    app = DominoesApp(preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(ReviewScreen(match, None, None, seat=0, settings=ReviewSettings(seed=2, worlds=1)))
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.session is not None)
        screen = app.screen
        screen.action_jump(2)
        assert "Every hand, as the hand went:" in side_text(screen)  # Moon's rounds are hands (MN-17)
        screen.action_jump(screen.end)  # every tile played: no list of hands that hold nothing
        assert screen.match.state.chance and "Every hand" not in side_text(screen)
        assert "none" not in side_text(screen)


async def test_the_moon_review_names_the_seat_and_gives_no_table_instructions():
    from tests.core.test_review import easy_match, to_a_round_end
    from tui.widgets.trick_view import TrickView

    match = to_a_round_end(easy_match("moon", 3, seed=3, events=20))
    bidder = match.state.bidder
    match.seats = tuple(
        Seat("Ana") if seat == bidder else Seat(("Ben", "Cy", "Dee")[seat], "bot", "easy") for seat in range(3)
    )
    name = "Ana"
    app = DominoesApp(preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(ReviewScreen(match, None, None, seat=bidder, settings=ReviewSettings(seed=2, worlds=1)))
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.session is not None)
        screen = app.screen
        told = []
        for position in range(screen.end + 1):
            screen.action_jump(position)
            told.append(screen.query_one(TrickView).render().plain)
        everything = "\n".join(told)
        # The review's keys are not the table's: no "press Enter", no "Now name trump", no "You lead".
        for words in ("press Enter", "Pick a tile", "Now name trump", "You lead", "your hand", "You laid"):
            assert words not in everything
        assert f"went to {name}'s hand." in everything and f"{name} lays one tile aside face down." in everything
        assert f"{name} names trump next." in everything
        assert "Nothing led yet. Ana leads." in everything  # the bidder leads the first trick (MN-13)
