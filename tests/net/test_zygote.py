"""The warm session server (`python -m warm_sessions.zygote`) on its own: what it holds once ready, and what it
makes of requests sent down its control channel, as a door sends them."""

from __future__ import annotations

import contextlib
import os
import select
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli.session_entry import SESSION_ENTRY
from net.control_channel import receive, send
from tests.net.ssh_client import plain
from warm_sessions.zygote import SessionRequest, differs_at_import

ROOT = Path(__file__).resolve().parent.parent.parent
TIMEOUT = 60.0


class Zygote:
    """A zygote started as a door starts it, and the door's end of its channel."""

    def __init__(self, environment: dict[str, str]) -> None:
        self.channel, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "warm_sessions.zygote", str(theirs.fileno()), SESSION_ENTRY],
            pass_fds=[theirs.fileno()],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=environment,
            cwd=ROOT,
            start_new_session=True,
        )
        theirs.close()
        self.channel.settimeout(TIMEOUT)
        self.reports: list[dict[str, object]] = []  # exit reports that came while waiting for something else

    def next(self) -> tuple[dict[str, object], list[int]]:
        message, descriptors = receive(self.channel)
        assert message is not None, "the zygote closed its channel"
        return message, descriptors

    def answer(self) -> tuple[dict[str, object], list[int]]:
        """The answer to the last request (exit reports on the way are kept)."""
        while True:
            message, descriptors = self.next()
            if "exited" not in message:
                return message, descriptors
            self.reports.append(message)

    def exit_code(self, pid: int) -> int:
        while True:
            for report in self.reports:
                if report["exited"] == pid:
                    return report["code"]  # type: ignore[return-value]
            message, descriptors = self.next()
            assert "exited" in message and not descriptors, message
            self.reports.append(message)

    def request(self, number: int, arguments: list[str], environment: dict[str, str], terminal: int) -> None:
        send(self.channel, {"session": number, "args": arguments, "environment": environment}, [terminal])

    def close(self) -> None:
        self.channel.close()
        try:
            self.process.wait(TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def zygote_environment(home: Path) -> dict[str, str]:
    environment = {name: value for name, value in os.environ.items() if not name.startswith("TEXTUAL_")}
    environment.update(PYTHONPATH=str(ROOT), DOMINOES_HOME=str(home), TERM="xterm-256color")
    return environment


@pytest.fixture
def zygote(tmp_path: Path) -> Iterator[Zygote]:
    started = Zygote(zygote_environment(tmp_path))
    try:
        message, descriptors = started.next()
        assert message == {"ready": started.process.pid} and descriptors == []
        yield started
    finally:
        started.close()


def read_until(master: int, words: str, timeout: float = TIMEOUT) -> str:
    """What the pty shows until `words` appear in it (or it closes)."""
    seen = b""
    deadline = time.monotonic() + timeout
    while words not in plain(seen) and time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    return plain(seen)


def descriptors_of(pid: int) -> dict[int, str]:
    found = {}
    for name in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            found[int(name)] = os.readlink(f"/proc/{pid}/fd/{name}")
    return found


def test_once_ready_the_zygote_has_one_thread_and_no_open_file_but_its_channel(zygote):
    pid = zygote.process.pid
    assert os.listdir(f"/proc/{pid}/task") == [str(pid)]  # no thread started by what it imported
    held = descriptors_of(pid)
    assert [held[standard] for standard in (0, 1, 2)] == ["/dev/null"] * 3
    others = sorted(target.split(":")[0] for number, target in held.items() if number > 2)
    assert others == ["pipe", "pipe", "socket"]  # the SIGCHLD wake-up pipe's two ends, the channel
    with open(f"/proc/{pid}/status") as status:
        resident = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    assert resident > 30_000  # KiB: Textual, the app and the engine are in it, imported once for every session


def test_once_ready_the_zygote_has_offered_its_heap_to_the_kernels_same_page_merging(zygote):
    from warm_sessions.page_merging import kernel_merging

    heap_flags: list[str] = []
    with open(f"/proc/{zygote.process.pid}/smaps") as smaps:
        for line in smaps:
            fields = line.split()
            if "-" in fields[0] and len(fields) >= 5:
                name = fields[5] if len(fields) > 5 else ""
            elif fields[0] == "VmFlags:" and name == "[heap]":
                heap_flags = fields[1:]
    offered = "mg" in heap_flags  # VM_MERGEABLE: the sessions it forks inherit it
    assert offered == (kernel_merging() != "absent")


def test_a_forked_session_runs_its_command_in_its_pty_with_its_environment_and_exits_with_its_status(zygote, tmp_path):
    mine = tmp_path / "alice"
    mine.mkdir()
    master, slave = os.openpty()
    try:
        environment = {**zygote_environment(tmp_path), "DOMINOES_HOME": str(mine)}
        zygote.request(1, ["saves"], environment, slave)
        answer, descriptors = zygote.answer()
        assert answer["session"] == 1 and type(answer["pid"]) is int and len(descriptors) == 1
        os.close(descriptors[0])  # the pidfd the door would watch
        shown = read_until(master, "saves.")
        assert f"No saved matches in {mine / 'saves'}" in " ".join(shown.split())  # its own folder, not the zygote's
        assert zygote.exit_code(answer["pid"]) == 0

        zygote.request(2, ["saves", "show", "nope"], environment, slave)  # a command that fails
        answer, descriptors = zygote.answer()
        os.close(descriptors[0])
        assert zygote.exit_code(answer["pid"]) != 0
    finally:
        os.close(master)
        os.close(slave)


def test_a_forked_session_holds_its_pty_and_nothing_of_the_zygote_or_of_another_session(zygote, tmp_path):
    zygote_held = descriptors_of(zygote.process.pid)
    ptys, pids = [], []
    try:
        for number, name in enumerate(("alice", "bob"), start=1):
            master, slave = os.openpty()
            ptys.append((master, slave))
            folder = tmp_path / name
            folder.mkdir()
            environment = {**zygote_environment(tmp_path), "DOMINOES_HOME": str(folder)}
            zygote.request(number, ["lobby", f"--name={name}"], environment, slave)
            answer, descriptors = zygote.answer()
            os.close(descriptors[0])
            pids.append(answer["pid"])
            assert f"signed in as {name}" in read_until(master, f"signed in as {name}")
        terminals = [os.ttyname(slave) for _, slave in ptys]
        zygote_files = {target for number, target in zygote_held.items() if number > 2}
        for index, pid in enumerate(pids):
            held = descriptors_of(pid)
            assert [held[standard] for standard in (0, 1, 2)] == [terminals[index]] * 3
            assert terminals[1 - index] not in held.values()  # nothing of the other player's session
            assert not zygote_files & set(held.values())  # nor the zygote's channel or wake-up pipe
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            session_id, terminal_number = int(fields[3]), int(fields[4])
            assert session_id == pid  # a session of its own...
            assert terminal_number == os.stat(terminals[index]).st_rdev  # ...whose controlling terminal is its pty
    finally:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, 9)
        for master, slave in ptys:
            os.close(master)
            os.close(slave)


def test_what_the_zygote_cannot_fork_as_asked_it_refuses_in_one_line(zygote, tmp_path):
    reader, writer = os.pipe()
    try:
        zygote.request(1, ["lobby", "--name=alice"], zygote_environment(tmp_path), reader)  # not a terminal
        answer, descriptors = zygote.answer()
        assert answer == {"session": 1, "refused": "a request's terminal is not a terminal"} and not descriptors
    finally:
        os.close(reader)
        os.close(writer)
    master, slave = os.openpty()
    try:
        changed = {**zygote_environment(tmp_path), "TEXTUAL_ANIMATIONS": "none"}  # Textual read it at import
        zygote.request(2, ["lobby", "--name=alice"], changed, slave)
        answer, descriptors = zygote.answer()
        assert answer == {"session": 2, "refused": "its TEXTUAL_ANIMATIONS is not this process's"}
        send(zygote.channel, {"session": 3, "args": "lobby", "environment": {}}, [slave])
        answer, _ = zygote.answer()
        assert answer == {"session": 3, "refused": "a request's arguments are a short list"}
        assert zygote.process.poll() is None  # still serving
    finally:
        os.close(master)
        os.close(slave)


def test_the_zygote_ends_when_its_door_closes_the_channel(tmp_path):
    started = Zygote(zygote_environment(tmp_path))
    assert "ready" in started.next()[0]
    started.channel.close()
    assert started.process.wait(TIMEOUT) == 0


def test_a_request_is_checked_before_anything_is_forked():
    master, slave = os.openpty()
    try:
        request = SessionRequest.from_message({"session": 4, "args": ["lobby"], "environment": {"A": "1"}}, [slave])
        assert request.arguments == ("lobby",) and request.environment == {"A": "1"} and request.nice == 0
        nicer = {"session": 4, "args": [], "environment": {}, "nice": 19}
        assert SessionRequest.from_message(nicer, [slave]).nice == 19
        for bad in (
            {"session": 4, "args": [], "environment": {}, "nice": -21},
            {"session": 4, "args": [], "environment": {}, "nice": 20},
            {"session": 4, "args": [], "environment": {}, "nice": True},
            {"session": "4", "args": [], "environment": {}},
            {"session": 4, "args": ["x\0y"], "environment": {}},
            {"session": 4, "args": ["x"] * 65, "environment": {}},
            {"session": 4, "args": [], "environment": {"A=B": "1"}},
            {"session": 4, "args": [], "environment": {"A": 1}},
        ):
            with pytest.raises(ValueError):
                SessionRequest.from_message(bad, [slave])
        with pytest.raises(ValueError):
            SessionRequest.from_message({"session": 4, "args": [], "environment": {}}, [])
    finally:
        os.close(master)
        os.close(slave)


def test_only_what_is_read_at_import_must_match_the_zygotes_environment():
    own = {"PYTHONPATH": "/app", "TEXTUAL_FPS": "30", "TERM": "xterm", "HOME": "/srv"}
    assert differs_at_import({**own, "TERM": "screen", "DOMINOES_HOME": "/srv/players/ann"}, own) is None
    assert differs_at_import({**own, "PYTHONPATH": "/elsewhere"}, own) == "PYTHONPATH"
    assert differs_at_import({**own, "ESCDELAY": "10"}, own) == "ESCDELAY"
    del own["TEXTUAL_FPS"]
    assert differs_at_import({**own, "TEXTUAL_FPS": "30"}, own) == "TEXTUAL_FPS"


@pytest.mark.parametrize("entry", ["cli.main", "no_such_module:run", "cli.main:no_such_function", "cli.main:1x"])
def test_a_zygote_told_an_entry_that_names_no_function_says_so_in_one_line(entry):
    result = subprocess.run(
        [sys.executable, "-m", "warm_sessions.zygote", "9", entry], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("warm_sessions.zygote: "), result.stderr
