"""The review screen steps through every event of a match without fail: seeded matches of all three
games, stopped at a round's end, part way through a round and at game over, opened from the
round-over, load and game-over screens, each stepped event by event (← →), decision by decision
(PgUp PgDn), to both ends (Home End) and for every seat (`s`).

The matches are weighed once for the module, with enough deals for every verdict to be possible,
and the review is kept beside each save, so every screen opens on a complete review."""

from __future__ import annotations

import shutil

import pytest

from core import Match, Seat
from core.moves import Deal
from core.review import ReviewSettings
from saves import SaveStore
from saves.record import SavedMatch
from tests.core.harness import play_out
from tests.tui.conftest import wait_until
from tui.app import DominoesApp
from tui.preferences import Preferences
from tui.review_session import ReviewSession
from tui.screens import review as review_screen
from tui.screens.game_over import GameOverScreen
from tui.screens.load import LoadScreen
from tui.screens.review import ReviewScreen
from tui.screens.round_over import RoundOverScreen
from tui.widgets.review_hand import ReviewHand
from tui.widgets.verdict_strip import VerdictStrip

SETTINGS = ReviewSettings(seed=1, worlds=8)  # the fewest deals that may call a move a mistake
GAMES = {  # game: (players, options, seed): short matches of several rounds
    "chicken-foot": (3, {"rounds": 2}, 3),
    "doubles": (2, {"target": 15}, 5),
    "moon": (3, {"target": 6}, 2),
}
STOPS = ("round-end", "mid-round", "game-over")


def played(game: str) -> Match:
    """A whole match of easy bots but for seat 1, "You" (played by the easy bot all the same)."""
    players, options, seed = GAMES[game]
    seats = [Seat("You"), *(Seat(f"Bot {n}", "bot", "easy") for n in range(2, players + 1))]
    match = Match(game, players, options, seats, seed)
    return play_out(match, seed)


def stopped(match: Match, stop: str) -> Match:
    """The match as it stood at `stop`: just after its first round ended, half way through its second
    round, or over."""
    later = [i for i, event in enumerate(match.events) if type(event) is Deal and match.state_at(i).round]
    assert later, "the match needs a second round to stop in"
    second_over = later[1] if len(later) > 1 else len(match.events)
    cursor = {"round-end": later[0], "mid-round": (later[0] + second_over) // 2, "game-over": len(match.events)}[stop]
    cut = Match(match.game_name, match.players, dict(match.options), match.seats, match.seed, match.events[:cursor])
    assert cut.state.chance == (stop == "round-end") and cut.state.over == (stop == "game-over")
    return cut


@pytest.fixture(autouse=True)
def stepping_review(monkeypatch):
    monkeypatch.setattr(review_screen, "REVIEW_SETTINGS", SETTINGS)


@pytest.fixture(scope="module")
def weighed(tmp_path_factory):
    """Every game's match saved whole and at each stop, with every seat's review beside each save."""
    directory = tmp_path_factory.mktemp("stepped")
    store = SaveStore(directory)
    for game in GAMES:
        match = played(game)
        ReviewSession(match, game, store.review_path(game), SETTINGS, jobs=2).run()
        for stop in STOPS:
            match_id = f"{game}-{stop}"
            store.save(SavedMatch(match_id, stopped(match, stop), 1, 1))
            shutil.copy(store.review_path(game), store.review_path(match_id))  # a review of its past
    return directory


def side_text(screen: ReviewScreen) -> str:
    return str(screen.query_one("#review-text").render())


async def settled(pilot, screen: ReviewScreen) -> None:
    await wait_until(
        pilot, lambda: screen.session is not None and screen.session.complete and screen.progress is None, timeout=60
    )
    await pilot.pause()


def check_drawn(screen: ReviewScreen) -> None:
    """What is beside the board, below it and in the hand, at the position the screen is at."""
    text = side_text(screen)
    position, end = screen.position, screen.end
    assert text.strip(), f"nothing beside the board at event {position + 1}"
    if position < end:
        assert f"Event {position + 1} of {end}" in text
    else:
        assert text.startswith(("Game over", "Round", "Hand", "The match stands here"))
    if screen.is_seat_decision(position):
        review = screen.reviews[position]
        assert review.verdict.capitalize() in text or review.alternatives == 1
    for widget in (screen.query_one(VerdictStrip), screen.query_one(ReviewHand)):
        assert widget.render().plain.strip()


async def walk(pilot, screen: ReviewScreen) -> None:
    """Every event, one at a time by the → key's action, drawn at each; the frame is shown once at
    the end (the keys themselves are pressed in `press_through`)."""
    screen.action_jump(0)
    check_drawn(screen)
    for position in range(1, screen.end + 1):
        screen.action_step(1)
        assert screen.position == position
        check_drawn(screen)
    await pilot.pause()


async def press_through(pilot, screen: ReviewScreen, every: bool) -> None:
    """The keys: → through every event (`every`), or only around the end, where the match stops;
    PgUp through the seat's decisions and PgDn, Home and End."""
    await pilot.press("home")
    assert screen.position == 0
    check_drawn(screen)
    if every:
        for position in range(1, screen.end + 1):
            await pilot.press("right")
            assert screen.position == position
            check_drawn(screen)
    else:
        await pilot.press("end")
    await pilot.press("right")  # past the end: nothing more
    assert screen.position == screen.end
    check_drawn(screen)
    for position in range(screen.end - 1, max(-1, screen.end - 4), -1):
        await pilot.press("left")
        assert screen.position == position
        check_drawn(screen)
    await pilot.press("end")
    mine = screen.seat_decisions()
    for position in reversed(mine if every else mine[-3:]):
        await pilot.press("pageup")
        assert screen.position == position
        check_drawn(screen)
    if len(mine) > 1 and screen.position == mine[0]:
        await pilot.press("pagedown")
        assert screen.position == mine[1]
        check_drawn(screen)
    await pilot.press("end")
    assert screen.position == screen.end
    await pilot.press("home")
    assert screen.position == 0


async def review_every_seat(pilot, app: DominoesApp, every: bool) -> ReviewScreen:
    """The review opened, then each seat in turn (`s`): the keys pressed, and every event drawn."""
    await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen))
    screen = app.screen
    first = screen.seat
    for turn in range(screen.match.players):
        await settled(pilot, screen)
        assert screen.seat == (first + turn) % screen.match.players
        owner = screen.names[screen.seat]
        assert str(screen.query_one(ReviewHand).border_title) == (
            "Your tiles" if owner == "You" else f"{owner}'s tiles"
        )
        await press_through(pilot, screen, every and turn == 0)
        await walk(pilot, screen)
        await pilot.press("s")
    return screen


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("stop", STOPS)
async def test_every_event_of_the_review_is_drawn(private_home, weighed, game, stop):
    store = SaveStore(private_home / "saves")
    shutil.copytree(weighed, store.directory)
    match_id = f"{game}-{stop}"
    app = DominoesApp(
        saved=store.load(match_id) if stop != "mid-round" else None, preferences=Preferences(bot_speed="instant")
    )
    async with app.run_test(size=(80, 24)) as pilot:
        if stop == "mid-round":  # from the load screen
            await pilot.press("l")
            await wait_until(pilot, lambda: isinstance(app.screen, LoadScreen))
            options = app.screen.query_one("#load-list")
            options.highlighted = next(i for i, option in enumerate(options.options) if option.id == match_id)
            await pilot.pause()
            await pilot.press("v")
        else:  # the resumed match opens on its round's end: from there, or the game-over screen after it
            await wait_until(pilot, lambda: isinstance(app.screen, RoundOverScreen))
            if stop == "game-over":
                await pilot.press("enter")
                await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
            await pilot.press("v")
        # Every key through every event once per game (the whole match); the stops around their end.
        screen = await review_every_seat(pilot, app, every=stop == "game-over")
        assert screen.match_id == match_id
        await pilot.press("escape")
        assert not isinstance(app.screen, ReviewScreen)
