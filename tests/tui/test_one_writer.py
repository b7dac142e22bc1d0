"""One process per match, as players meet it: a second `dominoes --resume`, the load screen, the
title's Resume and `dominoes host --resume` of a match open elsewhere are refused in one line naming
the process that has it; a holder that died leaves the match free."""

from __future__ import annotations

import json
import signal
import subprocess

from cli.main import main
from saves import Autosave, SaveStore
from saves.lock import lock_path
from tests.processes import WAIT, InTerminal, dominoes_argv, environment, run_dominoes, wait_until
from tests.tui.conftest import human_turn, quick_settings, record_notices, take_a_turn
from tests.tui.conftest import wait_until as wait_in_app
from tui.app import DominoesApp
from tui.preferences import Preferences
from tui.screens.load import LoadScreen
from tui.screens.table import TableScreen
from tui.screens.title import TitleScreen

MATCH_ID = "3f9a2c1b7e40"


def saved_match(store: SaveStore) -> None:
    match = quick_settings(seed=7).new_match()
    match.deal()
    Autosave(store, match, match_id=MATCH_ID)()


def holder_pid(store: SaveStore) -> int | None:
    try:
        return json.loads(lock_path(store.directory, MATCH_ID).read_text())["pid"]
    except (OSError, ValueError, KeyError):
        return None


def of(severity: str, notices: list[tuple[str, str]]) -> list[str]:
    return [message for kind, message in notices if kind == severity]


def test_the_interface_twice_then_its_holder_dies(private_home, capsys):
    store = SaveStore()
    saved_match(store)
    first = InTerminal(dominoes_argv("--resume", "3f9a"), environment(private_home))
    try:
        wait_until(lambda: holder_pid(store) == first.pid, "the first interface to open the match")
        assert main(["--resume", "3f9a"]) == 1
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1
        assert err.startswith(f"dominoes --resume: match {MATCH_ID} is open in another process (process {first.pid}, ")
        assert "dominoes --resume 3f9a, " in err and err.rstrip().endswith("close it there first")
        first.process.kill()  # the holder dies, holding the lock
        first.process.wait()
    finally:
        first.close()
    second = Autosave.open(store, MATCH_ID)  # its lock was the dead holder's: taken over
    second.close()


async def test_the_load_screen_and_the_title_refuse_a_match_a_host_has_open(private_home):
    store = SaveStore()
    saved_match(store)
    socket = private_home / "table.sock"
    host = subprocess.Popen(
        dominoes_argv("host", "--resume", MATCH_ID, "--socket", str(socket)),
        env=environment(private_home),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert host.stdout.readline().startswith(f"hosting Chicken Foot (match {MATCH_ID})")
        app = DominoesApp(preferences=Preferences(bot_speed="instant"))
        notices = record_notices(app)
        async with app.run_test(size=(100, 32)) as pilot:
            await wait_in_app(pilot, lambda: isinstance(app.screen, TitleScreen) and app.screen.looks >= 1)
            await pilot.press("c")  # the title's Resume offers the match
            await wait_in_app(pilot, lambda: of("error", notices))
            refusal = f"Match {MATCH_ID} is open in another process (process {host.pid}, dominoes host --resume"
            assert of("error", notices)[-1].startswith(refusal) and isinstance(app.screen, TitleScreen)
            await pilot.press("l")
            await wait_in_app(pilot, lambda: isinstance(app.screen, LoadScreen))
            await pilot.press("enter")
            await wait_in_app(pilot, lambda: len(of("error", notices)) == 2)
            assert of("error", notices)[-1].startswith(refusal)
            assert isinstance(app.screen, LoadScreen) and app.autosave is None  # the list stays
            host.send_signal(signal.SIGINT)
            assert host.wait(WAIT) == 0
            await pilot.press("enter")  # the host has let it go: now it opens
            await wait_in_app(pilot, lambda: human_turn(app))
            assert app.autosave.match_id == MATCH_ID and app.autosave.locked
    finally:
        if host.poll() is None:
            host.kill()
        host.communicate()


async def test_a_host_refuses_a_match_the_interface_has_open(private_home):
    app = DominoesApp(start=quick_settings(seed=7), preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_in_app(pilot, lambda: human_turn(app))
        match_id = app.autosave.match_id
        assert app.autosave.locked  # from its first save on
        refused = run_dominoes(private_home, "host", "--resume", match_id, "--socket", str(private_home / "t.sock"))
        assert refused.returncode == 1 and refused.stdout == ""
        assert refused.stderr.count("\n") == 1
        assert refused.stderr.startswith(f"dominoes host: match {match_id} is open in another process (process ")
        await pilot.press("q")  # back to the title: the match is let go
        await wait_in_app(pilot, lambda: not isinstance(app.screen, TableScreen))
        assert app.autosave is None and not lock_path(SaveStore().directory, match_id).exists()
    Autosave.open(SaveStore(), match_id).close()


async def test_a_save_changed_under_the_interface_is_not_written_over(private_home):
    app = DominoesApp(start=quick_settings(seed=7), preferences=Preferences(bot_speed="instant"))
    notices = record_notices(app)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_in_app(pilot, lambda: human_turn(app))
        store = SaveStore()
        match_id = app.autosave.match_id
        # A writer that takes no lock (an older dominoes) plays on in the same file.
        other = Autosave.resume(store, store.load(match_id))
        other.match.apply(other.match.legal_moves()[-1])
        other()
        theirs = store.load(match_id).record.match
        await take_a_turn(pilot)
        await wait_in_app(pilot, lambda: app.autosave.match_id != match_id and human_turn(app))
        await pilot.pause()  # the last bot move's save
        assert of("warning", notices) == [
            f"Match {match_id} was changed by another process since this one opened it, so it was not written "
            f"over; this match goes on as match {app.autosave.match_id}."
        ]
        assert store.load(match_id).record.match == theirs
        assert store.load(app.autosave.match_id).record.match == app.match
        assert not of("error", notices)
