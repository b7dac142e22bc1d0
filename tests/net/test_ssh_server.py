"""`dominoes serve-ssh`: asyncssh clients on loopback against the real server, whose sessions run
the real lobby in a pseudo-terminal of their own."""

from __future__ import annotations

import asyncio
import fcntl
import os
import socket
import stat
import struct
import termios

import asyncssh
import pytest

from cli.main import main
from net.ssh_keys import KeyFileError, load_authorized_keys
from tests.net.ssh_client import TIMEOUT, connect, open_terminal, running_door


def window_size(fd: int) -> tuple[int, int]:
    rows, columns, _, _ = struct.unpack("HHHH", fcntl.ioctl(fd, termios.TIOCGWINSZ, b"\0" * 8))
    return columns, rows


def test_a_known_key_gets_its_own_lobby_in_a_pty_of_its_own(home, keys):
    async def run() -> None:
        async with (
            running_door(home, keys, max_sessions=1) as door,
            await connect(door, keys.known, username="alice") as connection,
        ):
            channel, screen = await open_terminal(connection, (80, 24))
            await screen.wait_for("Dominoes lobby")
            assert "signed in as alice" in screen.text()  # the SSH user name is the player's name
            (session,) = door.active
            child = session.child
            assert window_size(child.master) == (80, 24)

            # The window changes size: the pty follows, and the interface draws itself again.
            before = len(screen.received)
            channel.change_terminal_size(100, 30)
            for _ in range(600):  # at most 30 s: the frame comes long before on a machine that works
                if window_size(child.master) == (100, 30) and len(screen.received) > before:
                    break
                await asyncio.sleep(0.05)
            assert window_size(child.master) == (100, 30)
            assert len(screen.received) > before

            # One session at a time here: a second one is refused with a reason.
            _, second = await open_terminal(connection)
            await asyncio.wait_for(second.closed.wait(), TIMEOUT)
            assert "the server is full (1 session in play)" in second.text()

            # Quitting the lobby ends the session, with the child's exit status.
            channel.write(b"q")
            await asyncio.wait_for(screen.closed.wait(), TIMEOUT)
            assert channel.get_exit_status() == 0
            assert child.process.returncode == 0
            assert not door.active

    asyncio.run(run())


def test_a_dropped_connection_takes_its_interface_with_it(home, keys):
    async def run() -> None:
        async with running_door(home, keys) as door:
            connection = await connect(door, keys.known)
            _, screen = await open_terminal(connection)
            await screen.wait_for("Dominoes lobby")
            (session,) = door.active
            process = session.child.process
            connection.abort()  # the network goes away, with no goodbye
            await asyncio.wait_for(process.wait(), TIMEOUT)
            for _ in range(600):
                if not door.active:
                    break
                await asyncio.sleep(0.05)
            assert not door.active
            with pytest.raises(ProcessLookupError):
                os.kill(process.pid, 0)

    asyncio.run(run())


def test_a_session_without_a_terminal_is_told_why_and_closed(home, keys):
    async def run() -> None:
        async with running_door(home, keys) as door, await connect(door, keys.known) as connection:
            result = await asyncio.wait_for(connection.run(encoding="utf-8"), TIMEOUT)
            assert result.exit_status == 1
            assert "connect from a terminal (ssh -t)" in result.stdout
            assert not door.active
            result = await asyncio.wait_for(connection.run("rm -rf /", term_type="xterm", encoding="utf-8"), TIMEOUT)
            assert result.exit_status == 1
            assert "unknown command 'rm -rf /'" in result.stdout

    asyncio.run(run())


def test_an_unknown_key_is_refused(home, keys):
    async def run() -> None:
        async with running_door(home, keys) as door:
            with pytest.raises(asyncssh.PermissionDenied):
                await connect(door, keys.stranger)
            assert not door.active

    asyncio.run(run())


def test_a_password_is_refused_and_never_asked_for(home, keys):
    async def run() -> None:
        async with running_door(home, keys) as door:
            for method in ("password", "keyboard-interactive"):
                with pytest.raises(asyncssh.PermissionDenied):
                    await connect(door, None, password="secret", preferred_auth=method)

    asyncio.run(run())


def test_the_host_key_is_made_on_first_start_and_kept(home, keys):
    path = home / "ssh_host_ed25519_key"

    async def start_and_connect(known_hosts: object) -> str:
        async with (
            running_door(home, keys) as door,
            await connect(door, keys.known, known_hosts=known_hosts) as connection,
        ):
            return connection.get_server_host_key().get_fingerprint()

    assert not path.exists()
    first = asyncio.run(start_and_connect(None))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    key = asyncssh.read_private_key(path)
    assert key.get_algorithm() == "ssh-ed25519" and key.get_fingerprint() == first
    content = path.read_bytes()
    # The second start uses the same key: a client that remembered it connects without a question.
    remembered = asyncssh.import_known_hosts(f"[127.0.0.1]:* {key.export_public_key().decode()}")
    second = asyncio.run(start_and_connect(remembered))
    assert second == first and path.read_bytes() == content


def test_authorized_keys_problems_are_one_line(tmp_path):
    empty = tmp_path / "empty"
    empty.write_text("# nobody yet\n\n")
    garbage = tmp_path / "garbage"
    garbage.write_text("ssh-ed25519 not-base64!\n")
    cases = {
        tmp_path / "missing": "does not exist",
        empty: "holds no keys",
        garbage: "cannot be read",
        tmp_path: "is a directory",
    }
    for path, words in cases.items():
        with pytest.raises(KeyFileError, match=words):
            load_authorized_keys(path)


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (["--authorized-keys", "{home}/missing"], "does not exist"),
        (["--authorized-keys", "{home}/empty"], "holds no keys"),
        (["--authorized-keys", "{home}/authorized_keys", "--port", "70000"], "--port must be from 0 to 65535"),
        (["--authorized-keys", "{home}/authorized_keys", "--max-sessions", "0"], "--max-sessions must be at least 1"),
    ],
)
def test_serve_ssh_refuses_bad_arguments_in_one_line(home, keys, capsys, arguments, words):
    (home / "empty").write_text("")
    code = main(["serve-ssh", *[word.format(home=home) for word in arguments]])
    err = capsys.readouterr().err
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (home / "ssh_host_ed25519_key").exists()


def test_serve_ssh_on_a_port_in_use_says_so_in_one_line(home, keys, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = main(["serve-ssh", "--port", str(port), "--authorized-keys", str(keys.authorized)])
    err = capsys.readouterr().err
    assert code == 1 and f"port {port} on 127.0.0.1 is in use" in err and len(err.strip().splitlines()) == 1


def test_a_damaged_host_key_is_one_line_not_a_traceback(home, keys, capsys):
    (home / "bad_key").write_text("not a key\n")
    (home / "bad_key").chmod(0o600)
    code = main(["serve-ssh", "--authorized-keys", str(keys.authorized), "--host-key", str(home / "bad_key")])
    err = capsys.readouterr().err
    assert code == 1 and "the host key file" in err and "cannot be read" in err
