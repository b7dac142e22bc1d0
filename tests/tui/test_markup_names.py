"""Names are the players' own text: shown exactly as typed, never read as markup, at a table at
this keyboard, at a table across the network, in the lobby, at the end of a round and of the match.

A name like `[/x]` once crashed every other player's interface (a markup closing tag with nothing
to close), `[b]Z` came out bold as "Z", and `[@click=app.quit]` would have been a link that quits.
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from core.seats import Seat, check_name
from net.address import tcp
from net.client import TableClient
from net.paths import tables_dir
from net.server import TableServer
from net.tables import Table, TableSeat, host_argv, write_seat_status, write_sidecar
from tests.tui.conftest import human_turn, quick_app, quick_settings, take_a_turn, wait_until
from tests.tui.test_join import my_turn, one_decision_from_the_end, play_by_keys
from tui.app import DominoesApp
from tui.lobby_app import LobbyApp
from tui.preferences import Preferences
from tui.screens.game_over import GameOverScreen
from tui.screens.pass_device import PassScreen
from tui.screens.round_over import RoundOverScreen
from tui.screens.undo_dialog import UndoDialog

MARKUP_NAMES = ("[b]Z", "[/x]", "[@click=app.quit]", "a,b", "[$accent]")
TIMEOUT = 20.0


def screen_text(app) -> str:
    """Every character on the screen as drawn, line by line."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def assert_shown(app, names) -> None:
    text = screen_text(app)
    for name in names:
        assert name in text, f"{name!r} is not on the screen:\n{text}"


@pytest.mark.parametrize("name", ["[/x]", "[b]Z", "[@click=app.quit]", "a,b", "[$accent]", "Ana"])
def test_a_name_is_checked_and_kept_exactly(name):
    assert check_name(f"  {name} ") == name


@pytest.mark.parametrize(
    "name, words",
    [
        ("", "cannot be empty"),
        ("x" * 21, "at most 20 characters"),
        ("a\x1b[31mb", "printable"),
        ("a\nb", "printable"),
        ("evil\u202etxt", "printable"),  # a direction override would spoof what follows
        (None, "a name is text"),
    ],
)
def test_a_bad_name_is_refused_in_one_line(name, words):
    with pytest.raises(ValueError, match=words.replace("(", r"\(")):
        check_name(name)


async def test_names_at_a_table_here_at_the_round_over_and_game_over_screens():
    kinds = ("human", "bot:easy", "bot:easy", "bot:random", "bot:easy")
    app = quick_app(quick_settings(kinds=kinds, names=MARKUP_NAMES, rounds=1, seed=3))
    async with app.run_test(size=(160, 50)) as pilot:
        await wait_until(pilot, lambda: human_turn(app))
        assert_shown(app, MARKUP_NAMES)  # the status line names every seat
        assert "[b]Z's tiles" in screen_text(app)
        for _ in range(300):
            await wait_until(
                pilot,
                lambda: human_turn(app) or isinstance(app.screen, (RoundOverScreen, GameOverScreen, PassScreen)),
            )
            if isinstance(app.screen, RoundOverScreen):
                break
            await take_a_turn(pilot)
        assert isinstance(app.screen, RoundOverScreen)
        assert_shown(app, MARKUP_NAMES)
        headline = str(app.screen.query_one("#round-headline").render())
        assert headline.startswith("Round 1 over")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        assert_shown(app, MARKUP_NAMES)
        match = app.match
        winners = " and ".join(match.names[seat] for seat in match.state.winners)
        assert winners in str(app.screen.query_one("#over-headline").render())
        assert app.is_running  # nothing was clicked or quit by a name


async def test_names_at_a_remote_table_through_round_over_and_game_over():
    table = (Seat("Seat 1"), Seat("[/x]", "bot", "easy"), Seat("[@click=app.quit]", "bot", "easy"))
    server = TableServer(one_decision_from_the_end(table, seed=5))
    await server.start(tcp("127.0.0.1", 0))
    try:
        client = await TableClient.connect(str(server.address), "[b]Z")
        app = joined(client)
        async with app.run_test(size=(160, 50)) as pilot:
            await wait_until(pilot, lambda: my_turn(app, server) or isinstance(app.screen, RoundOverScreen), TIMEOUT)
            names = ("[b]Z", "[/x]", "[@click=app.quit]")
            assert_shown(app, names)
            while not isinstance(app.screen, RoundOverScreen):
                await wait_until(pilot, lambda: isinstance(app.screen, RoundOverScreen) or my_turn(app, server), 30)
                if not isinstance(app.screen, RoundOverScreen):
                    await play_by_keys(pilot, server)
            assert_shown(app, names)
            await pilot.press("enter")
            await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen), TIMEOUT)
            assert_shown(app, names)
            assert app.is_running
    finally:
        await server.close()


def joined(client: TableClient) -> DominoesApp:
    return DominoesApp(remote=client, preferences=Preferences(bot_speed="instant"))


async def test_an_undo_request_names_its_asker_as_typed():
    app = quick_app()
    async with app.run_test() as pilot:
        await app.push_screen(UndoDialog("[/x]"))
        await pilot.pause()
        assert "[/x] asks to undo." in screen_text(app)


async def test_the_pass_screen_names_the_next_player_as_typed():
    kinds = ("human", "human")
    app = quick_app(quick_settings(kinds=kinds, names=("[b]Z", "[/x]")))
    async with app.run_test() as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, PassScreen) and "Pass to" in screen_text(app))
        player = app.screen.player
        assert player in ("[b]Z", "[/x]") and f"Pass to {player}" in screen_text(app)


async def test_the_lobby_greets_and_lists_names_as_typed():
    directory = tables_dir()
    directory.mkdir(parents=True, exist_ok=True)
    socket = directory / "t-1.sock"
    seats = (TableSeat("human", "[$accent]"), TableSeat("open"), TableSeat("bot", "[/x]", "easy"))
    write_seat_status(directory / "t-1.seats", ["[$accent]", "a,b", "[/x]"], ["away", "human", "easy"])
    # The listing checks that the host serves the socket named on its command line: a stand-in does.
    host = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", str(socket)])
    try:
        write_sidecar(Table("t-1", "moon", seats, {}, "[$accent]", time.time(), host.pid, socket), directory)
        app = LobbyApp("[b]Z", preferences=Preferences(bot_speed="instant"))
        async with app.run_test(size=(100, 24)) as pilot:
            await wait_until(pilot, lambda: "a,b" in screen_text(app))
            assert_shown(app, ("signed in as [b]Z", "[$accent] (away)", "a,b", "[/x]"))
            assert app.is_running
    finally:
        host.kill()
        host.wait()


def test_a_name_with_a_comma_holds_its_seat_at_a_hosted_table(tmp_path):
    from cli.host_command import plan
    from cli.parser import build_parser

    socket = tmp_path / "t.sock"
    argv = host_argv(
        "moon", (TableSeat("human", "a,b"), TableSeat("open"), TableSeat("bot", "[/x]", "easy")), {}, socket
    )
    args = build_parser().parse_args(argv[argv.index("host") :])
    match = plan(args).match
    assert match.names == ("a,b", "Seat 2", "[/x]")
