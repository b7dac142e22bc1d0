"""Sessions forked from the doors' warm process: what a spawned session was, and nothing shared that
must not be (warm_sessions.session_fork, warm_sessions.zygote). asyncssh and browser-protocol clients on loopback
against the real doors, whose sessions run the real lobby."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import os
import random
import re
import signal
import subprocess
import sys
import time
import types
from pathlib import Path
from typing import Any

import aiohttp

from net import session_priority, web_server, web_session
from net.control_channel import ZYGOTE_NAME
from net.limits import ServerLimits
from net.player_sessions import player_home
from net.session_priority import group_niceness
from net.web_server import PAGE
from saves import SaveStore
from tests.net.ssh_client import TIMEOUT, Screen, connect, open_terminal, running_door
from tests.net.test_ssh_server import window_size
from tests.net.web_client import browser, open_screen, running_web_door, signed_in
from tests.processes import children, piped_dominoes, wait_until
from tui.preferences import FILE_NAME, Preferences, save_preferences
from warm_sessions.session_fork import is_zygote


def parent_of(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as stat:
        return int(stat.read().rsplit(")", 1)[1].split()[1])


def held(pid: int) -> set[str]:
    """What the process's descriptors point at."""
    found = set()
    for name in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            found.add(os.readlink(f"/proc/{pid}/fd/{name}"))
    return found


def environment_of(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/environ", "rb") as environ:
        pairs = [entry.decode(errors="replace").partition("=") for entry in environ.read().split(b"\0") if entry]
    return {name: value for name, _, value in pairs}


def niceness(pid: int) -> tuple[int, int | None]:
    """The process's niceness, and its scheduling group's where the system has such groups."""
    return os.getpriority(os.PRIO_PROCESS, pid), group_niceness(pid)


def nicer_than_this_process_by(steps: int, pid: int) -> tuple[int, int | None]:
    """The niceness `pid` should have `steps` nicer than this process: its group's too, where it has
    one (this process may have none: a container's first group shows none)."""
    expected = min(19, os.nice(0) + steps)
    return expected, expected if group_niceness(pid) is not None else None


async def until(check, what: str, timeout: float = TIMEOUT) -> None:
    for _ in range(int(timeout / 0.05)):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never {what}")


async def match_alone(channel, screen: Screen, player: str) -> None:
    channel.write(b"a")  # a match alone against bots
    await screen.wait_for("Start")
    channel.write(b"\x13")  # Ctrl+S: start it
    await screen.wait_for(f"{player}'s tiles")


def first_deal(store: SaveStore) -> object:
    (match_id,) = store.ids()
    match = store.load(match_id).record.match
    return match.events[0]


def test_two_players_sessions_are_forked_and_share_no_folder_deal_or_descriptor(home, keys):
    saves = {name: SaveStore(home / "players" / name / "saves") for name in ("alice", "mallory")}

    async def run() -> None:
        async with running_door(home, keys) as door:
            zygote = door.launcher.zygote.process.pid
            sessions = {}
            for name, key in (("alice", keys.known), ("mallory", keys.mallory)):
                connection = await connect(door, key, username=name)
                channel, screen = await open_terminal(connection)
                await screen.wait_for(f"signed in as {name}")
                (session,) = door.active - {s for s, _, _ in sessions.values()}
                assert parent_of(session.child.process.pid) == zygote  # forked, not spawned
                sessions[name] = (session, channel, screen)
            for name, (_, channel, screen) in sessions.items():
                await match_alone(channel, screen, name)
                await until(lambda name=name: saves[name].ids(), f"{name}'s match saved")

            # Each match is in its player's folder alone, and the two were dealt apart.
            assert len(saves["alice"].ids()) == len(saves["mallory"].ids()) == 1
            assert not (home / "saves").exists() or not os.listdir(home / "saves")
            assert first_deal(saves["alice"]) != first_deal(saves["mallory"])

            # Neither holds a descriptor of the other's: its pty, its folder, its files.
            alice, mallory = (sessions[name][0].child.process.pid for name in ("alice", "mallory"))
            for pid, other, other_name in ((alice, mallory, "mallory"), (mallory, alice, "alice")):
                mine, theirs = held(pid), held(other)
                terminal = os.readlink(f"/proc/{other}/fd/0")
                assert terminal.startswith("/dev/pts/") and terminal not in mine
                assert not any(f"/players/{other_name}" in target for target in mine)
                assert not ({target for target in theirs if target.startswith("/")} - {"/dev/null"}) & mine
            for _, channel, _ in sessions.values():
                channel.close()

    asyncio.run(asyncio.wait_for(run(), 180))


def test_the_more_sessions_run_the_nicer_each_is_those_running_already_too(home, keys, monkeypatch):
    monkeypatch.setattr(session_priority, "DOOR_SHARE", 1.0)  # the sessions together weigh one door

    async def run() -> None:
        async with running_door(home, keys) as door:
            sessions = []
            for name, key in (("alice", keys.known), ("mallory", keys.mallory)):
                connection = await connect(door, key, username=name)
                _, screen = await open_terminal(connection)
                await screen.wait_for(f"signed in as {name}")
                (session,) = door.active - set(sessions)
                sessions.append(session)
            first, second = (session.child.process.pid for session in sessions)
            assert (
                niceness(second)
                == nicer_than_this_process_by(session_priority.session_nice(2), second)
                != niceness(os.getpid())
            )
            assert niceness(first) == niceness(second)  # made as nice when the second came
            zygote = door.launcher.zygote.process.pid
            assert niceness(zygote) in {(os.nice(0), 0), (os.nice(0), None)}  # its group never the sessions'
            threads = os.listdir(f"/proc/{first}/task")
            assert len(threads) > 1  # the interface's own threads, started before: as nice
            assert {os.getpriority(os.PRIO_PROCESS, int(thread)) for thread in threads} == {niceness(second)[0]}

    asyncio.run(asyncio.wait_for(run(), 120))


def ended_by_itself(session: Any, screen: Any) -> AssertionError:
    """A session that ended before it was killed: its exit status and what it last showed."""
    code = session.child.process.returncode
    return AssertionError(f"the session ended ({code}) before it was killed:\n{screen.text()[-3000:]}")


def test_a_session_killed_mid_save_leaves_its_match_whole(home, keys):
    store = SaveStore(home / "players" / "alice" / "saves")
    save_preferences(Preferences(bot_speed="instant"), player_home(home, "alice") / FILE_NAME)
    chooser = random.Random(26)
    cursors = []

    async def run() -> None:
        async with running_door(home, keys) as door:
            for attempt in range(4):
                connection = await connect(door, keys.known, username="alice")
                channel, screen = await open_terminal(connection)
                if attempt == 0:
                    await screen.wait_for("Dominoes lobby")
                    await match_alone(channel, screen, "alice")
                else:
                    await screen.wait_for("resume your match")
                    channel.write(b"\r")
                    await screen.wait_for("alice's tiles")
                (session,) = door.active
                pid = session.child.process.pid
                assert parent_of(pid) == door.launcher.zygote.process.pid
                for _ in range(chooser.randrange(20, 60)):  # play on: every event is saved
                    try:
                        channel.write(chooser.choice([b"\r", b"\r", b"d", b"p", b"\x1b[C"]))
                    except BrokenPipeError:
                        raise ended_by_itself(session, screen) from None
                    await asyncio.sleep(chooser.uniform(0.0, 0.04))
                try:
                    os.killpg(pid, signal.SIGKILL)  # whatever it was doing, a save among it
                except ProcessLookupError:
                    raise ended_by_itself(session, screen) from None
                await asyncio.wait_for(session.child.process.wait(), TIMEOUT)
                connection.close()
                await until(lambda: not door.active, "the session released")
                (match_id,) = store.ids()
                loaded = store.load(match_id)  # whole: it loads, events and all
                cursors.append(loaded.record.match.cursor)
            assert cursors == sorted(cursors) and cursors[-1] > cursors[0] + 4  # it was played, and kept

    asyncio.run(asyncio.wait_for(run(), 240))


def test_sessions_are_spawned_while_a_dead_zygote_is_restarted_and_forked_again_after(home, keys):
    async def run() -> None:
        async with running_door(home, keys) as door:
            first = door.launcher.zygote
            connection = await connect(door, keys.known, username="alice")
            channel, screen = await open_terminal(connection)
            await screen.wait_for("Dominoes lobby")
            (forked,) = door.active

            os.kill(first.process.pid, signal.SIGKILL)  # the warm process dies
            await until(lambda: not first.alive, "the zygote's end noticed")
            other = await connect(door, keys.mallory, username="mallory")
            _, hers = await open_terminal(other)
            await hers.wait_for("signed in as mallory")
            (spawned,) = door.active - {forked}
            assert parent_of(spawned.child.process.pid) == os.getpid()  # started afresh by the door meanwhile

            await until(lambda: door.launcher.ready, "a new zygote ready")
            assert door.launcher.zygote is not first and door.launcher.restarts == 1
            third = await connect(door, keys.mallory, username="mallory")
            _, again = await open_terminal(third)
            await again.wait_for("signed in as mallory")
            (warm,) = door.active - {forked, spawned}
            assert parent_of(warm.child.process.pid) == door.launcher.zygote.process.pid

            # The session the dead zygote forked goes on, and ends as any session does.
            before = len(screen.received)
            channel.change_terminal_size(100, 30)
            await until(lambda: len(screen.received) > before, "a redraw at the new size")
            channel.write(b"q")
            await asyncio.wait_for(screen.closed.wait(), TIMEOUT)
            assert channel.get_exit_status() == 0
            await until(lambda: forked not in door.active, "the session released")
            for each in (other, third):
                each.close()

    asyncio.run(asyncio.wait_for(run(), 180))


def memory_of(pid: int) -> dict[str, int]:
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        return {line.split(":")[0]: int(line.split()[1]) for line in rollup if line.split()[-1] == "kB"}


def test_serve_ssh_forks_its_zygote_from_its_own_process_sharing_what_both_imported(home, keys):
    """The program `dominoes serve-ssh` prepares itself and forks its zygote before it starts
    anything: the zygote holds nothing of the door's but shares its pages, and a login is forked
    from it holding nothing of either. If that zygote dies, another is started and forks logins."""
    server = piped_dominoes(home, "serve-ssh", "--port", "0", "--authorized-keys", str(keys.authorized))
    try:
        listening = server.stdout.readline()
        port = int(re.search(r"listening on 127\.0\.0\.1:(\d+)", listening).group(1))
        (zygote,) = [pid for pid in children(server.pid) if is_zygote(pid)]
        with open(f"/proc/{zygote}/comm") as comm:
            assert comm.read().strip() == ZYGOTE_NAME  # what ps and top show
        assert os.listdir(f"/proc/{zygote}/task") == [str(zygote)]
        assert os.getsid(zygote) == zygote != os.getsid(server.pid)
        descriptors = sorted(target.split(":")[0] for target in held(zygote))
        assert descriptors == ["/dev/null", "pipe", "socket"]  # its channel and wake-up pipe: no socket of the door's
        memory = memory_of(zygote)
        assert memory["Pss"] < 0.75 * memory["Rss"]  # half of what it holds is the door's too

        async def log_in(zygote: int) -> bool:
            """A login, then q: whether `zygote` forked its session (until one is ready, the door
            spawns sessions)."""
            door = types.SimpleNamespace(port=port)
            connection = await connect(door, keys.known, username="alice")  # type: ignore[arg-type]
            channel, screen = await open_terminal(connection)
            await screen.wait_for("signed in as alice")
            forked = children(zygote)
            for session in forked:
                with open(f"/proc/{session}/comm") as comm:
                    assert comm.read().strip() == os.path.basename(sys.executable)[:15]  # named as a spawned one
                door_sockets = {target for target in held(server.pid) if target.startswith("socket:")}
                assert not held(session) & door_sockets
            channel.write(b"q")
            await asyncio.wait_for(screen.closed.wait(), TIMEOUT)
            connection.close()
            assert channel.get_exit_status() == 0
            return len(forked) == 1

        assert asyncio.run(asyncio.wait_for(log_in(zygote), 120))

        os.kill(zygote, signal.SIGKILL)  # the forked zygote dies: the door starts another, and forks from it

        def restarted_zygotes() -> list[int]:
            return [pid for pid in children(server.pid) if pid != zygote and is_zygote(pid)]

        wait_until(restarted_zygotes, "another zygote")
        (restarted,) = restarted_zygotes()
        deadline = time.monotonic() + TIMEOUT
        while not asyncio.run(asyncio.wait_for(log_in(restarted), 120)):
            assert time.monotonic() < deadline, "no login forked by the zygote started again"
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            server.kill()
            server.communicate()
    assert server.returncode == 0


def test_with_spawn_every_session_is_started_afresh_and_no_zygote_runs(home, keys, monkeypatch):
    monkeypatch.setattr(session_priority, "DOOR_SHARE", 0.5)  # the first session is as nice as a third would be

    async def run() -> None:
        async with running_door(home, keys, spawn=True) as door:
            assert not door.launcher.warm
            connection = await connect(door, keys.known, username="alice")
            channel, screen = await open_terminal(connection)
            await screen.wait_for("Dominoes lobby")
            (session,) = door.active
            assert parent_of(session.child.process.pid) == os.getpid()
            pid = session.child.process.pid
            assert niceness(pid) == nicer_than_this_process_by(4, pid)  # as the door asked
            channel.write(b"q")
            await asyncio.wait_for(screen.closed.wait(), TIMEOUT)
            assert channel.get_exit_status() == 0

    asyncio.run(asyncio.wait_for(run(), 120))


def test_a_browser_session_is_forked_too_and_hung_up_when_its_socket_goes(home: Path):
    async def run() -> None:
        async with running_web_door(home) as door, browser(door) as client:
            await signed_in(client, door, "Ann")
            screen = await open_screen(client)
            await screen.wait_for("signed in as Ann")
            (session,) = door.active
            process = session.child.process
            assert parent_of(process.pid) == door.launcher.zygote.process.pid
            assert (home / "players" / "ann").is_dir()
            await screen.websocket.close()  # the tab is closed
            await asyncio.wait_for(process.wait(), TIMEOUT)
            await until(lambda: not door.active, "the session released")
            try:
                os.kill(process.pid, 0)
            except ProcessLookupError:
                pass  # gone, and reaped
            else:
                raise AssertionError("the session outlived its socket")

    asyncio.run(asyncio.wait_for(run(), 120))


async def started_with_its_page(door: Any) -> Any:
    """The one session the door started as it served a page, once it has started."""
    await until(lambda: door.active and next(iter(door.active)).prepared, "a session started")
    (started,) = door.active
    return started


async def window_known(client: aiohttp.ClientSession, door: Any, size: tuple[int, int]) -> None:
    """A session of the browser's at `size`, ended: the door knows its window's size from then on."""
    screen = await open_screen(client, size)
    await screen.wait_for("signed in as")
    await screen.keys("q")
    await screen.wait_closed()
    await until(lambda: not door.active, "the session released")


def test_a_browser_session_starts_with_its_page_and_its_socket_takes_it_over(home: Path):
    async def run() -> None:
        limits = ServerLimits(max_player_sessions=1)
        async with running_web_door(home, limits=limits) as door, browser(door) as client, browser(door) as other:
            await signed_in(client, door, "Ann")
            assert not door.active  # the invite link's answer starts nothing (a chat's preview fetches it)
            await window_known(client, door, (90, 28))
            async with client.get("/") as response:
                assert response.status == 200
            started = await started_with_its_page(door)
            assert (
                started.websocket is None and parent_of(started.child.process.pid) == door.launcher.zygote.process.pid
            )
            assert window_size(started.child.master) == (90, 28)  # at the size the browser's window had last
            async with client.get("/") as response:  # loaded again before its socket came: still the one session
                assert response.status == 200

            # It counts under the caps as any session: Ann's second browser finds her one session taken.
            await signed_in(other, door, "Ann")
            refused = await open_screen(other)
            await refused.wait_closed()
            assert "you have 1 session open here already" in refused.text()

            screen = await open_screen(client, (100, 30))
            await screen.wait_for("signed in as Ann")
            assert door.active == {started} and started.websocket is not None  # the page's socket took it over
            assert window_size(started.child.master) == (100, 30)  # at the socket's window size
            await screen.keys("q")
            await screen.wait_closed()
            await until(lambda: not door.active, "the session released")

    asyncio.run(asyncio.wait_for(run(), 120))


def test_a_page_opens_its_socket_at_once_and_its_session_starts_at_the_size_the_page_says(home: Path):
    async def run() -> None:
        async with running_web_door(home) as door, browser(door) as client:
            launched: list[tuple[int, int, int, int]] = []
            launch = door.launch

            def record(argv: Any, environment: Any, size: tuple[int, int, int, int]) -> Any:
                launched.append(size)
                return launch(argv, environment, size)

            door.launch = record
            await signed_in(client, door, "Ann")
            async with client.get("/") as response:
                page, policy = await response.text(), response.headers["Content-Security-Policy"]
            # The socket's script is in the page, before the terminal's scripts, and its policy allows
            # that one inline script: by its hash.
            early = (PAGE / "static" / "early.js").read_text(encoding="utf-8")
            assert page.index(f"<script>{early}</script>") < page.index('<script src="/static/terminal/terminal.js">')
            early_hash = base64.b64encode(hashlib.sha256(early.encode()).digest()).decode()
            assert f"script-src 'self' 'sha256-{early_hash}';" in policy and "unsafe-inline'; img" in policy
            # A browser whose window's size the door does not know yet: its session waits for the page
            # to say it (early.js, once the font is in), and starts at it: its lobby is drawn once.
            screen = await open_screen(client, None)  # opened as the page loads: no window size yet
            await screen.send("stdin", "q")  # nothing to take it yet: dropped
            await screen.send("resize", {"width": 100, "height": 30})
            await screen.wait_for("signed in as Ann")
            (started,) = door.active
            assert launched == [(100, 30, 0, 0)] and window_size(started.child.master) == (100, 30)
            await screen.keys("q")
            await screen.wait_closed()
            await until(lambda: not door.active, "the session released")

            async with client.get("/") as response:  # the next page's session starts with it, at that size
                assert response.status == 200
            again = await started_with_its_page(door)
            assert launched[1:] == [(100, 30, 0, 0)] and window_size(again.child.master) == (100, 30)
            screen = await open_screen(client, None)
            await screen.wait_for("signed in as Ann")
            assert door.active == {again} and window_size(again.child.master) == (100, 30)
            await screen.send("resize", {"width": 90, "height": 28})  # the window changed since: it follows
            await until(lambda: window_size(again.child.master) == (90, 28), "the window's new size")

    asyncio.run(asyncio.wait_for(run(), 120))


def test_a_browser_that_gives_its_windows_size_in_hints_has_its_session_started_with_its_page_at_it(home: Path):
    async def run() -> None:
        async with running_web_door(home) as door, browser(door) as client:
            await signed_in(client, door, "Ann")
            await window_known(client, door, (90, 28))  # its window then, since made larger
            window = {"Sec-CH-Viewport-Width": "1000", "Sec-CH-Viewport-Height": "640", "Sec-CH-DPR": "1"}
            async with client.get("/", headers=window) as response:  # as Chromium asks for the page
                assert response.headers["Accept-CH"] == "Sec-CH-Viewport-Width, Sec-CH-Viewport-Height, Sec-CH-DPR"
            started = await started_with_its_page(door)
            assert window_size(started.child.master) == (111, 30)  # the terminal's cells in that window
            screen = await open_screen(client, (111, 30))
            await screen.wait_for("signed in as Ann")
            assert door.active == {started}

    asyncio.run(asyncio.wait_for(run(), 120))


def test_a_page_that_never_says_its_size_gets_its_session_at_80x24_soon_after(home: Path, monkeypatch):
    monkeypatch.setattr(web_session, "FIRST_SIZE_WAIT", 0.5)

    async def run() -> None:
        async with running_web_door(home) as door, browser(door) as client:
            await signed_in(client, door, "Ann")
            screen = await open_screen(client, None)  # and nothing more: a page without early.js's measure
            await screen.wait_for("signed in as Ann")
            (started,) = door.active
            assert window_size(started.child.master) == (80, 24)

    asyncio.run(asyncio.wait_for(run(), 120))


def test_a_session_started_with_a_page_whose_socket_never_comes_is_hung_up_and_uncounted(home: Path, monkeypatch):
    monkeypatch.setattr(web_server, "PRESTART_WAIT", 1.0)

    async def run() -> None:
        async with running_web_door(home) as door, browser(door) as client:
            await signed_in(client, door, "Ann")
            await window_known(client, door, (80, 24))
            async with client.get("/") as response:
                assert response.status == 200
            started = await started_with_its_page(door)
            process = started.child.process
            await asyncio.wait_for(process.wait(), TIMEOUT)  # no socket came: hung up
            await until(lambda: not door.active, "the session released")
            screen = await open_screen(client)  # a socket that comes later gets a session of its own
            await screen.wait_for("signed in as Ann")
            (fresh,) = door.active
            assert fresh is not started and fresh.child.process.pid != process.pid

    asyncio.run(asyncio.wait_for(run(), 120))


def test_with_spawn_a_browser_session_starts_with_its_socket_as_before(home: Path):
    async def run() -> None:
        async with running_web_door(home, spawn=True) as door, browser(door) as client:
            await signed_in(client, door, "Ann")
            async with client.get("/") as response:
                assert response.status == 200 and "<script>" not in await response.text()
                assert "script-src 'self';" in response.headers["Content-Security-Policy"]
            screen = await open_screen(client)
            await screen.wait_for("signed in as Ann")
            (session,) = door.active
            assert parent_of(session.child.process.pid) == os.getpid()
            assert not door.launcher.warm

    asyncio.run(asyncio.wait_for(run(), 120))


def test_a_forked_session_takes_its_window_size_from_its_pty_not_from_the_servers_columns_and_lines(home: Path):
    # A server started where COLUMNS and LINES are exported (a shell, a test runner's workers) must
    # not pass them to the zygote or to a session forked from it: the interface reads them before
    # asking its terminal, and would draw every session at that size whatever the player's window.
    exported = {**os.environ, "COLUMNS": "80", "LINES": "24"}

    async def run() -> None:
        async with running_web_door(home, environment=exported) as door, browser(door) as client:
            await signed_in(client, door, "Ann")
            screen = await open_screen(client, (100, 30))
            await screen.wait_for("signed in as Ann")
            (session,) = door.active
            process = session.child.process
            assert parent_of(process.pid) == door.launcher.zygote.process.pid  # forked, not spawned
            # The zygote was started without them (/proc shows the environment a process was
            # started with; a forked session's own is only seen in what it draws) ...
            assert not {"COLUMNS", "LINES"} & set(environment_of(door.launcher.zygote.process.pid))
            # ... and the session draws down to its window's last row, 30, not the server's 24.
            await until(lambda: b"\x1b[30;" in screen.received, "the lobby drawn on the window's 30th row")
            await screen.keys("q")
            await screen.wait_closed()

    asyncio.run(asyncio.wait_for(run(), 120))
