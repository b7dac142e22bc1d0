"""Watching a table from no seat in the interface: the board, the hand sizes and the log, never a
hand; every key that acts says why it cannot; a round's result comes and goes on its own; the game
over screen checks the deals but keeps nothing in the watcher's saves. And quick messages at a seat:
m, a number, and the phrase shows in everyone's log."""

from __future__ import annotations

import dataclasses
import secrets

from core import Match, Seat
from core.chance import SECRET_BYTES
from net.client import TableClient
from net.messages import Said
from net.talk import PHRASES
from saves import SaveStore
from tests.tui.conftest import wait_until
from tests.tui.test_join import TIMEOUT, joined_app, served
from tui.app import DominoesApp
from tui.preferences import Preferences
from tui.screens.game_over import GameOverScreen
from tui.screens.moon_dialogs import MoonDialog
from tui.screens.round_over import RoundOverScreen
from tui.screens.talk_dialog import TalkDialog
from tui.screens.watch_table import WATCHING, WatchTableScreen
from tui.widgets.hand_view import HandView
from tui.widgets.move_log import MoveLog


def bots_match(game: str = "chicken-foot", **options: object) -> Match:
    table = [Seat("Ann")] + [Seat(f"Bot {i}", "bot", "easy") for i in (2, 3)]
    options = options or {"rounds": 1}
    return Match(game, 3, options, table, None, secret=secrets.token_bytes(SECRET_BYTES))


async def watching_app(server) -> DominoesApp:
    client = await TableClient.watch(str(server.address))
    return DominoesApp(remote=client, preferences=Preferences(bot_speed="instant"))


def watch_screen(app: DominoesApp) -> WatchTableScreen:
    return next(screen for screen in reversed(app.screen_stack) if isinstance(screen, WatchTableScreen))


async def test_a_watcher_sees_the_table_but_no_hand_and_cannot_act(private_home):
    async with served(bots_match()) as server:
        ann = await TableClient.connect(str(server.address), "Ann")
        app = await watching_app(server)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, WatchTableScreen), TIMEOUT)
            screen = watch_screen(app)
            hand = screen.query_one(HandView)
            assert hand.tiles == () and "every hand stays hidden" in str(hand.hidden)
            status = str(screen.query_one("#status").render())
            assert "you are watching" in status and "your turn" not in status
            shown = {key.description for key in screen.query("FooterKey")}
            assert not shown & {"Play", "Draw", "Pass", "Hint", "Undo", "Say", "Bid/trump"}, shown
            assert {"Rules", "Leave"} <= shown
            before = server.match.cursor
            for key in ("d", "p", "h", "u", "m", "enter"):
                await pilot.press(key)
            await pilot.pause()
            assert str(screen.query_one("#notice").render()) == WATCHING
            assert server.match.cursor == before  # nothing a watcher pressed reached the table
            await ann.close()


async def test_a_watcher_follows_a_whole_match_to_a_checked_end_kept_nowhere(private_home):
    async with served(bots_match(rounds=2)) as server:
        server.deal_delay = 0.5  # a round's result stays a moment before the next deal
        ann = await TableClient.connect(str(server.address), "Ann")
        app = await watching_app(server)
        async with app.run_test(size=(80, 24)) as pilot:

            async def ann_plays() -> None:
                async for event in ann.events():
                    if getattr(event, "legal", ()):
                        await ann.send_move(event.legal[0])

            playing = pilot.app.run_worker(ann_plays())
            # Round 1's result shows, and goes by itself once round 2 is dealt: nobody presses a key.
            await wait_until(pilot, lambda: isinstance(app.screen, RoundOverScreen), TIMEOUT)
            await wait_until(pilot, lambda: server.match.state.round == 2 or server.match.state.over, TIMEOUT)
            if not server.match.state.over:
                await wait_until(pilot, lambda: isinstance(app.screen, WatchTableScreen), TIMEOUT)
            await wait_until(pilot, lambda: server.match.state.over, TIMEOUT * 2)
            # The round's result shows to the watcher as to a player; Enter goes on to the end.
            await wait_until(pilot, lambda: isinstance(app.screen, RoundOverScreen), TIMEOUT)
            assert "Review" not in {key.description for key in app.screen.query("FooterKey")}
            await pilot.press("enter")
            await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen), TIMEOUT)
            over = app.screen
            await wait_until(pilot, lambda: over.fair_check() is not None, TIMEOUT)
            check = over.fair_check()
            assert check.fair and check.match_id is None
            assert "you" not in over.outcome.headline.lower().split()  # nobody here played
            playing.cancel()
    assert SaveStore().ids() == []  # the watched match is not the watcher's


async def test_a_seated_player_talks_with_t_and_a_number_and_everyone_reads_it(private_home):
    async with served(bots_match("moon", target=7)) as server:
        app = await joined_app(server, "Ann")
        watcher = await TableClient.watch(str(server.address))
        async with app.run_test(size=(80, 24)) as pilot:
            # Ann's first decision is a bid (MN-9): its dialog opens, and she puts it off to talk first.
            await wait_until(pilot, lambda: isinstance(app.screen, MoonDialog), TIMEOUT)
            table = next(s for s in app.screen_stack if hasattr(s, "remote"))
            await pilot.press("escape")
            await wait_until(pilot, lambda: app.screen is table, TIMEOUT)
            # News that a watcher came leaves the decision where it was: the bid stays put off.
            await wait_until(pilot, lambda: table.remote.snapshot.watchers == 1, TIMEOUT)
            await pilot.pause()
            assert app.screen is table
            await pilot.press("m")
            await wait_until(pilot, lambda: isinstance(app.screen, TalkDialog), TIMEOUT)
            await pilot.press(str(PHRASES.index("Good game") + 1))
            heard = await watcher.next_event(TIMEOUT)
            while not isinstance(heard, Said):
                heard = await watcher.next_event(TIMEOUT)
            assert (heard.seat, heard.phrase) == (0, PHRASES.index("Good game"))
            log = table.query_one(MoveLog)
            await wait_until(pilot, lambda: "Ann: “Good game”" in log.lines, TIMEOUT)
        await watcher.close()


async def test_a_watcher_behind_the_table_skips_to_its_latest_news_but_shows_each_rounds_end(private_home):
    async with served(bots_match()) as server:
        ann = await TableClient.connect(str(server.address), "Ann")
        app = await watching_app(server)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, WatchTableScreen), TIMEOUT)
            screen = watch_screen(app)
            drawn: list[int] = []
            screen.advance = lambda: drawn.append(screen.remote.snapshot.cursor)  # what a snapshot drawn runs
            behind = screen.remote.snapshot
            later = dataclasses.replace(behind, cursor=behind.cursor + 1)
            screen.remote.client.waiting_events = lambda: 1  # more news waits behind each of these
            screen.take(later)
            assert screen.remote.snapshot is later and drawn == []  # taken in, not drawn
            ended_view = dataclasses.replace(later.view, chance=True)
            ended = dataclasses.replace(later, view=ended_view, cursor=later.cursor + 1)
            screen.take(ended)
            assert drawn == [ended.cursor]  # a round's end is drawn, however far behind
            await ann.close()
