"""Over SSH a key lets in only the player its line names; every player has a folder of their own;
what a client asks for is bounded (window sizes, idle connections, sessions at once); the host key
must be private."""

from __future__ import annotations

import asyncio
import stat

import asyncssh
import pytest

from cli.main import main
from net.limits import ServerLimits
from net.player_sessions import SessionCaps, SessionRefused, lobby_session, player_home, safe_folder_name
from net.pty_session import MAX_COLUMNS, MAX_ROWS, clamped_size, terminal_name
from net.ssh_keys import KeyFileError, load_authorized_keys, load_or_create_host_key
from tests.net.ssh_client import TIMEOUT, connect, key_line, make_key, open_terminal, running_door
from tests.net.test_ssh_server import window_size


def test_a_key_logs_in_only_as_the_player_its_line_names(home, keys):
    async def run() -> None:
        async with running_door(home, keys) as door:
            with pytest.raises(asyncssh.PermissionDenied):
                await connect(door, keys.mallory, username="alice")  # alice's name, mallory's key
            with pytest.raises(asyncssh.PermissionDenied):
                await connect(door, keys.known, username="mallory")  # and the other way round
            with pytest.raises(asyncssh.PermissionDenied):
                await connect(door, keys.known, username="nobody")
            async with await connect(door, keys.known, username="ALICE") as connection:  # any case
                _, screen = await open_terminal(connection)
                await screen.wait_for("signed in as alice")  # the name as the key's line gives it
            assert not door.active or all(session.player == "alice" for session in door.active)

    asyncio.run(run())


def test_authorized_keys_name_their_players(tmp_path):
    alice = make_key(tmp_path / "a")
    bob = make_key(tmp_path / "b")
    path = tmp_path / "keys"
    options = 'no-pty,from="127.0.0.1" '
    path.write_text(
        "# the club\n"
        + key_line(alice, "Alice laptop 2024")
        + options
        + key_line(alice, "alice")  # a second line for her
        + key_line(bob, "[b]Bob")
    )
    keys = load_authorized_keys(path)
    assert sorted(keys.names()) == ["Alice", "[b]Bob"]
    assert keys.name_of("ALICE") == "Alice" and keys.name_of("[B]bob") == "[b]Bob" and keys.name_of("eve") is None
    assert keys.keys_for("eve") is None and keys.keys_for("alice") is not None


@pytest.mark.parametrize(
    "comment, words",
    [("", "must name its player (a name cannot be empty)"), ("a" * 30, "must name its player (a name has at most 20")],
)
def test_a_key_line_without_a_players_name_is_refused_in_one_line(tmp_path, comment, words):
    key = make_key(tmp_path / "k")
    path = tmp_path / "keys"
    path.write_text("# first\n" + key_line(key, comment))
    with pytest.raises(KeyFileError) as refused:
        load_authorized_keys(path)
    assert f"{path}, line 2: the comment after the key {words}" in str(refused.value)
    assert "\n" not in str(refused.value)


def test_a_host_key_others_can_read_is_refused(home, keys, capsys):
    path = home / "host_key"
    load_or_create_host_key(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.chmod(0o644)
    with pytest.raises(KeyFileError, match=r"can be read by others \(mode 0644\); make it private \(chmod 600"):
        load_or_create_host_key(path)
    assert main(["serve-ssh", "--authorized-keys", str(keys.authorized), "--host-key", str(path)]) == 1
    err = capsys.readouterr().err
    assert "can be read by others" in err and len(err.strip().splitlines()) == 1


def test_window_sizes_are_bounded():
    assert clamped_size(20000, 20000) == (MAX_COLUMNS, MAX_ROWS, 0, 0) == (500, 200, 0, 0)
    assert clamped_size(70000, 30, 70000, -5) == (500, 30, 65535, 0)
    assert clamped_size(0, 0) == (80, 24, 0, 0)
    assert clamped_size(100, 30) == (100, 30, 0, 0)
    assert terminal_name("xterm-256color") == "xterm-256color"
    assert terminal_name("x\x1b]0;owned\x07") == "xterm-256color" and terminal_name("") == "xterm-256color"


def test_a_huge_window_is_drawn_at_the_largest_size(home, keys):
    async def run() -> None:
        async with running_door(home, keys) as door, await connect(door, keys.known) as connection:
            channel, screen = await open_terminal(connection, (20000, 20000))
            await screen.wait_for("Dominoes lobby")
            (session,) = door.active
            assert window_size(session.child.master) == (500, 200)
            channel.change_terminal_size(70000, 70000)  # once a struct.error that hung the session
            for _ in range(100):
                await asyncio.sleep(0.02)
            assert window_size(session.child.master) == (500, 200)
            channel.change_terminal_size(100, 30)
            for _ in range(200):
                if window_size(session.child.master) == (100, 30):
                    break
                await asyncio.sleep(0.05)
            assert window_size(session.child.master) == (100, 30)
            channel.write(b"q")
            await asyncio.wait_for(screen.closed.wait(), TIMEOUT)

    asyncio.run(run())


def test_a_connection_with_no_session_is_closed(home, keys):
    async def run() -> None:
        async with running_door(home, keys) as door:
            door.no_session_close = 0.3  # 30 seconds for real
            connection = await connect(door, keys.known)
            await asyncio.wait_for(connection.wait_closed(), TIMEOUT)
            assert not door.connections

    asyncio.run(run())


def test_the_real_no_session_limit_is_thirty_seconds():
    from net.ssh_server import NO_SESSION_CLOSE

    assert NO_SESSION_CLOSE == 30.0


def test_sessions_are_counted_per_player_and_in_all(home, keys):
    async def run() -> None:
        limits = ServerLimits(max_sessions=3, max_player_sessions=2)
        async with running_door(home, keys, limits=limits) as door:
            connection = await connect(door, keys.known)
            screens = []
            for _ in range(2):
                _, screen = await open_terminal(connection)
                await screen.wait_for("Dominoes lobby")
                screens.append(screen)
            _, third = await open_terminal(connection)
            await asyncio.wait_for(third.closed.wait(), TIMEOUT)
            assert "you have 2 sessions open here already" in third.text()
            other = await connect(door, keys.mallory, username="mallory")
            _, hers = await open_terminal(other)
            await hers.wait_for("Dominoes lobby")
            _, full = await open_terminal(other)
            await asyncio.wait_for(full.closed.wait(), TIMEOUT)
            assert "the server is full (3 sessions in play)" in full.text()
            other.close()
            connection.close()

    asyncio.run(run())


def test_caps_count_sessions_of_every_door(home):
    caps = SessionCaps(home, ServerLimits(max_sessions=2, max_player_sessions=1))
    first = caps.admit("Alice", "ssh")
    with pytest.raises(SessionRefused, match="you have 1 session open here already"):
        SessionCaps(home, ServerLimits(max_sessions=2, max_player_sessions=1)).admit("ALICE", "web")
    caps.admit("bob", "web")
    with pytest.raises(SessionRefused, match="the server is full"):
        caps.admit("carol", "ssh")
    first.close()
    caps.admit("carol", "ssh")
    assert stat.S_IMODE((home / "sessions").stat().st_mode) == 0o700


def test_every_player_has_a_folder_of_their_own(home):
    names = ["alice", "Alice", "a/b", "..", ".", "a%2Fb", "ß", "ss", "[b]Z", "a,b", "名前"]
    folders = {name: player_home(home, name) for name in names}
    assert folders["alice"] == folders["Alice"]  # one player, whatever the case
    assert folders["ß"] == folders["ss"]  # equal once case is folded, like the names at a table
    others = {folders[name] for name in names if name not in ("Alice", "ss")}
    assert len(others) == len(names) - 2  # no two other names share a folder
    for folder in folders.values():
        assert folder.parent == home / "players" and stat.S_IMODE(folder.stat().st_mode) == 0o700
        assert not folder.name.startswith(".")
    assert safe_folder_name("a/b") == "a%2Fb" and safe_folder_name("a%2Fb") == "a%252fb"


def test_a_session_runs_the_lobby_with_the_players_folder_and_the_servers_tables(home):
    limits = ServerLimits(takeover=45, max_player_tables=2, max_watchers=7)
    argv, environment = lobby_session("a,b", home, limits, "watch slow")
    assert argv[2:] == [
        "cli",
        "lobby",
        "--name=a,b",
        "--takeover=45",
        "--max-tables=20",
        "--max-player-tables=2",
        "--max-watchers=7",
        "--watch",
        "--speed=slow",
    ]
    assert environment["DOMINOES_HOME"] == str(home / "players" / "a%2Cb")
    assert environment["DOMINOES_SERVER_HOME"] == str(home) and environment["DOMINOES_SERVED"] == "1"
    with pytest.raises(ValueError, match="unknown command 'sh'"):
        lobby_session("alice", home, command="sh")


def test_a_session_takes_its_window_size_from_its_pty_not_the_servers_environment(home):
    # A server started where COLUMNS and LINES are exported (by a shell, or a test runner's
    # workers) drew every browser session at that size, whatever the page's window.
    _, environment = lobby_session("alice", home, base={"COLUMNS": "80", "LINES": "24", "LANG": "C.UTF-8"})
    assert "COLUMNS" not in environment and "LINES" not in environment
    assert environment["LANG"] == "C.UTF-8"
