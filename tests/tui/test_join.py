"""Pilot tests of `dominoes join`: the interface at a seat of a real table server on loopback.

Each test starts a `TableServer` in its own event loop, joins it with a `TableClient` (and, for
undo by agreement, a second headless client), and plays by key presses.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from core import IllegalMove, Match
from core.moves import DRAW, Bid
from core.seats import Seat
from net import server as server_module
from net.address import tcp
from net.client import TableClient
from net.messages import Refused, Snapshot, UndoAsked, UndoPending, UndoResult
from net.server import TableServer
from tests.core.harness import play_out
from tests.tui.conftest import press_a_turn, wait_until
from tui.app import DominoesApp
from tui.preferences import Preferences
from tui.screens.game_over import GameOverScreen
from tui.screens.moon_dialogs import MoonDialog
from tui.screens.remote_table import RemoteTableScreen
from tui.screens.round_over import RoundOverScreen
from tui.screens.undo_dialog import UndoDialog
from tui.screens.undo_waiting import UndoWaitingDialog
from tui.widgets.hand_view import HandView

TIMEOUT = 30.0


def seats(*kinds: str) -> tuple[Seat, ...]:
    return tuple(
        Seat(f"Seat {i + 1}") if kind == "human" else Seat(f"Bot {i + 1}", "bot", kind) for i, kind in enumerate(kinds)
    )


def first_mover_seed(game: str, kinds: tuple[str, ...], seat: int, options: dict | None = None) -> int:
    """The first seed whose first deal gives `seat` the first decision."""
    for seed in range(1, 200):
        match = Match(game, len(kinds), options, seats(*kinds), seed)
        match.deal()
        if match.state.to_move == seat:
            return seed
    raise AssertionError("no such seed")


@contextlib.asynccontextmanager
async def served(match: Match) -> AsyncIterator[TableServer]:
    server = TableServer(match)
    await server.start(tcp("127.0.0.1", 0))
    try:
        yield server
    finally:
        await server.close()


async def joined_app(server: TableServer, name: str = "Ana") -> DominoesApp:
    client = await TableClient.connect(str(server.address), name)
    return DominoesApp(remote=client, preferences=Preferences(bot_speed="instant"))


def remote_screen(app: DominoesApp) -> RemoteTableScreen:
    """The remote table, also while a dialog is above it."""
    return next(screen for screen in reversed(app.screen_stack) if isinstance(screen, RemoteTableScreen))


def my_turn(app: DominoesApp, server: TableServer) -> bool:
    """The table shows the server's latest position and waits for this player's keys."""
    screen = app.screen
    return (
        isinstance(screen, RemoteTableScreen)
        and screen.human_to_move()
        and screen.remote.snapshot.cursor == server.match.cursor
    )


def notice(app: DominoesApp) -> str:
    return str(remote_screen(app).query_one("#notice").render())


async def play_by_keys(pilot, server: TableServer) -> None:
    """This player's turn by keys: Enter on the tile under the cursor (and on its end if it has
    several), or draw, or pass; then wait for the server to take it."""
    screen = remote_screen(pilot.app)
    before = server.match.cursor
    await press_a_turn(pilot, screen, screen.remote.legal_moves())
    await wait_until(pilot, lambda: server.match.cursor > before, TIMEOUT)


async def next_of(client: TableClient, kind: type) -> object:
    """The headless client's next event of `kind`, skipping snapshots (and its own request's waiting)."""
    while True:
        event = await client.next_event(TIMEOUT)
        if isinstance(event, kind):
            return event
        assert isinstance(event, (Snapshot, UndoPending)), event


async def test_join_plays_moves_by_keys_and_sees_the_bots_answer():
    kinds = ("human", "easy", "easy")
    async with served(Match("doubles", 3, None, seats(*kinds), seed=11)) as server:
        app = await joined_app(server)
        async with app.run_test() as pilot:
            for _ in range(3):
                await wait_until(pilot, lambda: my_turn(app, server), TIMEOUT)
                screen = remote_screen(app)
                # Only this seat's own tiles are shown, as the server's match has them.
                assert screen.query_one(HandView).tiles == server.match.view(0).hand
                assert screen.viewer == 0 and "your turn, Ana" in str(screen.query_one("#status").render())
                await play_by_keys(pilot, server)
            # The bots' moves came back as updates: the log holds the server's lines.
            await wait_until(pilot, lambda: remote_screen(app).remote.snapshot.cursor == server.match.cursor)
            assert remote_screen(app).remote.log_lines(300)[-1] == server.log_lines(0)[-1]
            assert server.match.names[0] == "Ana"  # the joining player named the seat


async def test_refused_move_shows_the_rule_and_changes_nothing():
    kinds = ("human", "easy")
    seed = first_mover_seed("doubles", kinds, 0)
    async with served(Match("doubles", 2, None, seats(*kinds), seed=seed)) as server:
        app = await joined_app(server)
        async with app.run_test() as pilot:
            await wait_until(pilot, lambda: my_turn(app, server), TIMEOUT)
            state = server.match.state
            assert DRAW not in server.match.legal_moves()  # DB-3: the highest double opens the round
            try:
                server.match.game.apply(state, DRAW)
            except IllegalMove as error:
                expected = error.message
            before = server.match.cursor
            await pilot.press("d")
            await wait_until(pilot, lambda: notice(app) == expected, TIMEOUT)
            assert expected.startswith("DB-")
            assert remote_screen(app).query_one("#notice").has_class("illegal")
            assert server.match.cursor == before and server.match.state is state
            # Still this player's turn: a legal move is taken.
            await play_by_keys(pilot, server)


async def test_undo_needs_the_other_players_agreement(monkeypatch):
    kinds = ("human", "human")
    seed = first_mover_seed("doubles", kinds, 0)
    async with served(Match("doubles", 2, None, seats(*kinds), seed=seed)) as server:
        app = await joined_app(server, "Ana")
        ben = await TableClient.connect(str(server.address), "Ben")
        try:
            async with app.run_test() as pilot:
                await wait_until(pilot, lambda: my_turn(app, server), TIMEOUT)
                decision = server.match.cursor
                await play_by_keys(pilot, server)
                moved = server.match.cursor

                # Ben asks; the dialog names the move that goes back, and whose it is; Ana
                # declines: nothing changes, and Ben cannot ask again at once.
                await ben.request_undo()
                await wait_until(pilot, lambda: isinstance(app.screen, UndoDialog), TIMEOUT)
                assert "Ben asks to undo" in str(app.screen.query_one("#undo-question").render())
                words = server.match.game.describe_move(
                    server.match.state_at(decision), server.match.events[decision], server.match.names, 0
                )
                assert words.startswith("Ana ")
                assert app.screen.detail.splitlines()[:3] == [
                    "These moves go back:",
                    f"  {words}",
                    "Play goes back to your decision.",
                ]
                await pilot.press("n")
                result = await next_of(ben, UndoResult)
                assert result == UndoResult(False, 1, 0)
                assert server.match.cursor == moved
                await wait_until(pilot, lambda: notice(app) == "You declined Ben's undo.")
                await ben.request_undo()
                assert "Ana declined your undo; you can ask again in" in (await next_of(ben, Refused)).reason

                # Ben asks again later; Ana agrees: back to Ana's decision.
                monkeypatch.setattr(server_module, "UNDO_AGAIN_AFTER", 0.0)
                await ben.request_undo()
                await wait_until(pilot, lambda: isinstance(app.screen, UndoDialog), TIMEOUT)
                await pilot.press("y")
                result = await next_of(ben, UndoResult)
                assert result.accepted and server.match.cursor == decision
                await wait_until(pilot, lambda: my_turn(app, server), TIMEOUT)
                assert notice(app) == "Undone at Ben's request: back to the previous decision."

                # Ana moves again and asks herself: Ben's agreement is needed, and given.
                await play_by_keys(pilot, server)
                await wait_until(pilot, lambda: remote_screen(app).check_action("undo", ()) is True, TIMEOUT)
                await pilot.press("u")
                asked = await next_of(ben, UndoAsked)
                assert asked.by == 0 and server.match.cursor == decision + 1
                await wait_until(pilot, lambda: isinstance(app.screen, UndoWaitingDialog), TIMEOUT)
                assert "waiting for Ben" in str(app.screen.query_one("#undo-wait-question").render())
                await ben.answer_undo(True)
                await wait_until(pilot, lambda: my_turn(app, server), TIMEOUT)
                assert server.match.cursor == decision
                await wait_until(pilot, lambda: notice(app) == "Undone: back to the previous decision.")
        finally:
            await ben.close()


async def test_the_asker_sees_what_the_request_waits_for_and_withdraws_it_with_u_or_escape(monkeypatch):
    monkeypatch.setattr(server_module, "UNDO_AGAIN_AFTER", 0.0)  # asked again at once, for the test
    kinds = ("human", "human")
    seed = first_mover_seed("doubles", kinds, 0)
    async with served(Match("doubles", 2, None, seats(*kinds), seed=seed)) as server:
        app = await joined_app(server, "Ana")
        ben = await TableClient.connect(str(server.address), "Ben")
        try:
            async with app.run_test() as pilot:
                await wait_until(pilot, lambda: my_turn(app, server), TIMEOUT)
                await play_by_keys(pilot, server)
                moved = server.match.cursor
                for key in ("u", "escape"):
                    await wait_until(pilot, lambda: remote_screen(app).check_action("undo", ()) is True, TIMEOUT)
                    await pilot.press("u")
                    await next_of(ben, UndoAsked)
                    await wait_until(pilot, lambda: isinstance(app.screen, UndoWaitingDialog), TIMEOUT)
                    dialog = app.screen
                    assert "waiting for Ben" in str(dialog.query_one("#undo-wait-question").render())
                    assert dialog.detail.startswith("These moves go back:\n  Ana ")
                    assert "Play goes back to your decision." in dialog.detail
                    await pilot.press(key)
                    result = await next_of(ben, UndoResult)
                    assert result == UndoResult(False, 0, None, "Ana withdrew the request")
                    await wait_until(pilot, lambda: notice(app) == "You withdrew your undo request.", TIMEOUT)
                    assert not isinstance(app.screen, UndoWaitingDialog) and server.match.cursor == moved
        finally:
            await ben.close()


async def test_server_going_away_says_so_and_q_leaves():
    kinds = ("human", "easy")
    async with served(Match("doubles", 2, None, seats(*kinds), seed=5)) as server:
        app = await joined_app(server)
        async with app.run_test() as pilot:
            await wait_until(pilot, lambda: my_turn(app, server), TIMEOUT)
            await server.close()
            await wait_until(pilot, lambda: "The table has closed" in notice(app), TIMEOUT)
            assert notice(app) == "The table has closed: the host closed the table. Press q to leave."
            screen = remote_screen(app)
            assert not screen.human_to_move()
            assert screen.check_action("draw", ()) is None and screen.check_action("undo", ()) is None
            await pilot.press("enter")  # a tile chosen now sends nothing and breaks nothing
            await pilot.press("q")
            await wait_until(pilot, lambda: not app.is_running, TIMEOUT)
        assert app.return_code == 0


async def test_the_status_says_who_is_away_and_whose_seat_is_open():
    async with served(Match("doubles", 2, None, seats("human", "human"), seed=5)) as server:
        app = await joined_app(server, "Ana")
        async with app.run_test() as pilot:
            status = remote_screen(app).query_one("#status")
            await wait_until(pilot, lambda: "waiting for Seat 2" in str(status.render()), TIMEOUT)
            ben = await TableClient.connect(str(server.address), "Ben")
            await wait_until(pilot, lambda: "waiting for" not in str(status.render()), TIMEOUT)
            assert "away" not in str(status.render())
            await ben.close()
            await wait_until(pilot, lambda: "Ben is away" in str(status.render()), TIMEOUT)


async def test_keys_the_server_owns_are_hidden():
    async with served(Match("doubles", 2, None, seats("human", "easy"), seed=5)) as server:
        app = await joined_app(server)
        async with app.run_test() as pilot:
            await wait_until(pilot, lambda: my_turn(app, server), TIMEOUT)
            screen = remote_screen(app)
            for action in ("redo", "speed", "save_copy"):
                assert screen.check_action(action, ()) is False
            footer = {active.binding.action for active in screen.active_bindings.values()}
            assert {"draw", "pass_turn", "hint", "undo", "leave"} <= footer
            assert not {"redo", "speed", "save_copy"} & footer
            await pilot.press("r")  # hidden, yet it answers
            assert "no redo at a shared table" in str(screen.query_one("#notice").render())


async def test_moon_bid_is_made_in_the_dialog():
    kinds = ("human", "easy", "easy")
    async with served(Match("moon", 3, {"target": 5}, seats(*kinds), seed=3)) as server:
        app = await joined_app(server)
        async with app.run_test() as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, MoonDialog), TIMEOUT)
            dialog = app.screen
            assert dialog.moves == server.match.legal_moves() and server.match.state.to_move == 0
            before = server.match.cursor
            await pilot.press("enter")
            await wait_until(pilot, lambda: server.match.cursor > before, TIMEOUT)
            assert server.match.events[before] == dialog.moves[0] and type(dialog.moves[0]) is Bid


async def test_a_bid_dialog_closes_when_the_table_does():
    async with served(Match("moon", 3, {"target": 5}, seats("human", "easy", "easy"), seed=3)) as server:
        app = await joined_app(server)
        async with app.run_test() as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, MoonDialog), TIMEOUT)
            await server.close()
            await wait_until(pilot, lambda: isinstance(app.screen, RemoteTableScreen), TIMEOUT)
            await pilot.pause()
            assert notice(app) == "The table has closed: the host closed the table. Press q to leave."
            assert remote_screen(app).check_action("decide", ()) is False  # no bid to make any more


def one_decision_from_the_end(table: tuple[Seat, ...] | None = None, seed: int = 4) -> Match:
    """A one-round Chicken Foot match (seat 1 human, the others bots: `table`) played by bots in the
    engine to its end, then taken back to the human seat's last decision: the server hosts it where
    it stands."""
    table = table or seats("human", "easy")
    match = Match("chicken-foot", len(table), {"rounds": 1}, table, seed=seed)
    play_out(match, seed)
    assert match.undo() and match.state.to_move == 0
    return match


async def test_the_end_of_the_match_to_the_game_over_screen():
    async with served(one_decision_from_the_end()) as server:
        app = await joined_app(server)
        async with app.run_test() as pilot:
            while not isinstance(app.screen, RoundOverScreen):
                await wait_until(pilot, lambda: isinstance(app.screen, RoundOverScreen) or my_turn(app, server), 30)
                if not isinstance(app.screen, RoundOverScreen):
                    await play_by_keys(pilot, server)
            assert server.match.state.over
            await wait_until(pilot, lambda: app.screen.is_mounted, TIMEOUT)  # its rows are added on mount
            rows = app.screen.query_one("#reveal")
            hands = server.match.state.hands
            for seat in range(2):  # every hand revealed, from the view the server sent
                shown = str(rows.get_row_at(seat)[1])
                assert all(f"{t.low}|{t.high}" in shown for t in hands[seat]) or shown == "out"
            await pilot.press("enter")
            await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen), TIMEOUT)
            over = app.screen
            winner = server.match.state.winners[0]
            # The joined player is spoken to: "You win", or the winner's name.
            expected = "You win." if winner == over.table.viewer else f"{server.match.names[winner]} wins."
            assert expected in str(over.query_one("#over-headline").render())
            assert over.check_action("choose", ("rematch",)) is False  # the host's table, not ours to restart
            await pilot.press("q")
            await wait_until(pilot, lambda: not app.is_running, TIMEOUT)


class HostingApp(DominoesApp):
    """Hosts `match` on loopback and joins it, all in the app's own event loop (a snapshot test
    runs the app in a loop of its own)."""

    def __init__(self, match: Match) -> None:
        super().__init__(preferences=Preferences(bot_speed="instant"))
        self.server = TableServer(match)

    async def join(self, name: str) -> None:
        await self.server.start(tcp("127.0.0.1", 0))
        self.open_remote(await TableClient.connect(str(self.server.address), name))

    async def on_unmount(self) -> None:
        await self.server.close()


def test_remote_table_snapshot(snap_compare):
    app = HostingApp(Match("doubles", 3, None, seats("human", "easy", "easy"), seed=11))

    async def at_my_turn(pilot):
        await app.join("Ana")
        await wait_until(pilot, lambda: my_turn(app, app.server), TIMEOUT)

    assert snap_compare(app, run_before=at_my_turn, terminal_size=(100, 30))


async def test_a_joined_match_goes_into_the_players_record_and_its_game_over_shows_the_rating(private_home):
    """The copy a joined player keeps of the finished match goes into their record: the game-over
    screen gives the rating change, and the record holds the match once, rated, in their seat."""
    from records.summary import played
    from tui.my_record import my_record

    table = (Seat("Ana"), Seat("Bot 2", "bot", "easy"))
    match = Match("chicken-foot", 2, {"rounds": 1}, table, None, secret=bytes(range(32)))
    async with served(match) as server:
        client = await TableClient.connect(str(server.address), "Ana")
        app = DominoesApp(remote=client, preferences=Preferences(bot_speed="instant", review_after_match=False))
        async with app.run_test(size=(80, 24)) as pilot:
            while not isinstance(app.screen, (RoundOverScreen, GameOverScreen)):
                await wait_until(pilot, lambda: isinstance(app.screen, RoundOverScreen) or my_turn(app, server), 60)
                if not isinstance(app.screen, RoundOverScreen):
                    await play_by_keys(pilot, server)
            await pilot.press("enter")
            await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen), TIMEOUT)
            line = app.screen.query_one("#over-record")
            await wait_until(pilot, lambda: "Rating " in str(line.render()), 60)
            kept = app.screen.fair_check().match_id
            await pilot.press("q")
            await wait_until(pilot, lambda: not app.is_running, TIMEOUT)
    [entry] = played(my_record(), "ana", "chicken-foot")
    assert entry.match_id == kept and entry.seat == 0 and entry.counts
    assert entry.score == server.match.state.scores[0]
