"""A match's lock file goes with its holder: the interface ended by SIGTERM or SIGHUP (a `kill`, a
closed terminal, a dropped SSH session) removes it, and a host stopped by either says goodbye and
removes it; after SIGKILL the file stays, and the next process takes the match over without a word."""

from __future__ import annotations

import json
import signal
import subprocess
from pathlib import Path

import pytest

from saves import Autosave, SaveStore
from saves.lock import lock_path
from tests.processes import WAIT, InTerminal, dominoes_argv, environment, wait_until
from tests.saves.builders import small_match

MATCH_ID = "3f9a2c1b7e40"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    Autosave(SaveStore(tmp_path / "saves"), small_match(), MATCH_ID)()
    return tmp_path


@pytest.fixture(autouse=True)
def hangup_at_its_default():
    """SIGHUP ends a process, as in a terminal. Under `nohup` the tests and the interfaces they start
    inherit it ignored, and an interface rightly leaves it so (it handles only what would end it)."""
    saved = signal.signal(signal.SIGHUP, signal.SIG_DFL)
    yield
    signal.signal(signal.SIGHUP, saved)


def holder(home: Path) -> int | None:
    try:
        return json.loads(lock_path(home / "saves", MATCH_ID).read_text())["pid"]
    except (OSError, ValueError, KeyError):
        return None


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGHUP], ids=["sigterm", "sighup"])
def test_the_interface_ended_by_a_signal_removes_its_lock(home, how):
    interface = InTerminal(dominoes_argv("--resume", "3f9a"), environment(home))
    try:
        wait_until(lambda: holder(home) == interface.pid, "the interface to open the match")
        interface.process.send_signal(how)
        assert interface.process.wait(WAIT) == -how  # it ends as the signal ends a process
    finally:
        interface.close()
    assert not lock_path(home / "saves", MATCH_ID).exists()
    Autosave.open(SaveStore(home / "saves"), MATCH_ID).close()


def test_after_sigkill_the_lock_stays_and_is_taken_over_without_a_word(home):
    interface = InTerminal(dominoes_argv("--resume", "3f9a"), environment(home))
    try:
        wait_until(lambda: holder(home) == interface.pid, "the interface to open the match")
        interface.process.kill()
        interface.process.wait(WAIT)
    finally:
        interface.close()
    assert lock_path(home / "saves", MATCH_ID).exists()  # nothing runs after SIGKILL
    again = Autosave.open(SaveStore(home / "saves"), MATCH_ID)
    assert not again.notice
    again.close()
    assert not lock_path(home / "saves", MATCH_ID).exists()


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGHUP], ids=["sigterm", "sighup"])
def test_a_host_stopped_by_a_signal_saves_says_so_and_removes_its_lock(home, how):
    host = subprocess.Popen(
        dominoes_argv("host", "--resume", MATCH_ID, "--socket", str(home / "t.sock")),
        env=environment(home),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert host.stdout.readline().startswith("hosting ")
        wait_until(lambda: holder(home) == host.pid, "the host to hold the match")
        host.send_signal(how)
        out, err = host.communicate(timeout=WAIT)
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
    assert host.returncode == 0
    # The only line on stderr is the note that the small match is dealt from a seed, not a secret.
    assert [line for line in err.splitlines() if not line.startswith("dominoes host: note: ")] == []
    assert f"stopped; the match is saved: dominoes host --resume {MATCH_ID}" in out
    assert not lock_path(home / "saves", MATCH_ID).exists() and not (home / "t.sock").exists()
