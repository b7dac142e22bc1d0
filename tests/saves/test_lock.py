"""One writer per match: the lock beside a save, and the autosave that never writes over a file
another process changed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import saves.lock
from saves.autosave import Autosave, MatchChangedElsewhere
from saves.errors import SaveError
from saves.lock import MatchInUse, MatchLock, describe_holder, lock_path
from saves.store import SaveStore
from tests.saves.builders import CREATED, small_match

ROOT = Path(__file__).resolve().parents[2]
HOLD = "import sys; from pathlib import Path; from saves.lock import MatchLock; "
HOLD += "lock = MatchLock.acquire(Path(sys.argv[1]), sys.argv[2]); print('locked', flush=True); sys.stdin.read()"


def holder(directory: Path, match_id: str) -> subprocess.Popen[str]:
    """Another process holding the lock of `match_id` until its standard input closes."""
    process = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(directory), match_id],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout.readline() == "locked\n"
    return process


def test_a_lock_is_held_until_released_and_its_file_goes_with_it(tmp_path):
    lock = MatchLock.acquire(tmp_path, "m1")
    path = lock_path(tmp_path, "m1")
    assert path == tmp_path / "m1.dominoes.lock" and lock.held
    written = json.loads(path.read_text())
    assert written["pid"] == os.getpid() and written["command"] and written["since"] > CREATED
    with pytest.raises(MatchInUse, match=rf"match m1 is open in another process \(process {os.getpid()}, "):
        MatchLock.acquire(tmp_path, "m1")  # another open file, even in this process
    lock.release()
    assert not path.exists() and not lock.held
    with MatchLock.acquire(tmp_path, "m1"):
        assert path.exists()
    assert not path.exists()


def test_another_process_holding_the_lock_is_named_and_its_death_frees_the_match(tmp_path):
    process = holder(tmp_path, "m1")
    try:
        with pytest.raises(MatchInUse) as refused:
            MatchLock.acquire(tmp_path, "m1")
        reason = refused.value.reason
        assert f"process {process.pid}" in reason and "@" in reason and "since" in reason
        assert "\n" not in reason and reason.endswith("close it there first")
        process.kill()  # dies holding it: no release, the lock file stays behind
        process.wait()
        assert lock_path(tmp_path, "m1").exists()
        with MatchLock.acquire(tmp_path, "m1") as taken:  # the OS let go of the dead holder's lock
            assert json.loads(taken.path.read_text())["pid"] == os.getpid()
    finally:
        process.kill()
        process.wait()


def test_a_lock_released_just_as_another_process_takes_it_is_not_shared(tmp_path, monkeypatch):
    # The waiter opens the lock file; its holder then removes it and lets go; the waiter's lock now
    # holds a file that is no longer the lock. It must see that and take the new one.
    holding = MatchLock.acquire(tmp_path, "m1")
    real_try_lock = saves.lock._try_lock

    def released_meanwhile(descriptor: int) -> bool:
        holding.release()
        return real_try_lock(descriptor)

    monkeypatch.setattr(saves.lock, "_try_lock", released_meanwhile)
    taken = MatchLock.acquire(tmp_path, "m1")
    monkeypatch.setattr(saves.lock, "_try_lock", real_try_lock)
    assert taken.path.exists()
    with pytest.raises(MatchInUse):
        MatchLock.acquire(tmp_path, "m1")  # the lock file there now is the one `taken` holds
    taken.release()


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"not json",
        b"\xff\xfe",
        b"[1, 2]",
        json.dumps({"pid": "[b]x[/b]\x1b[31m", "command": "a\nb", "user": 3, "host": None}).encode(),
        json.dumps({"command": "x" * 5000}).encode(),
        b"[" * 100_000,
    ],
)
def test_whatever_a_lock_file_says_its_holder_is_told_in_one_plain_line(content):
    said = describe_holder(content)
    assert "\n" not in said and "\x1b" not in said and len(said) < 300
    assert said.isprintable()


def test_a_holder_is_told_as_it_wrote_itself():
    said = describe_holder(json.dumps({"pid": 42, "command": "dominoes host", "user": "ann", "host": "box"}).encode())
    assert said.startswith("process 42, dominoes host, ann@box")


def test_an_opened_match_is_locked_until_closed_and_read_afresh(tmp_path):
    store = SaveStore(tmp_path)
    match = small_match()
    Autosave(store, match, "m1", created=CREATED)()
    listed = store.load("m1")  # as the load screen lists it, before another process moves on
    elsewhere = Autosave.open(store, "m1")
    elsewhere.match.apply(elsewhere.match.legal_moves()[0])
    elsewhere()
    with pytest.raises(MatchInUse):
        Autosave.open(store, "m1")
    with pytest.raises(MatchInUse):
        store.delete("m1")
    elsewhere.close()
    opened = Autosave.open(store, "m1")
    assert opened.match == elsewhere.match != listed.record.match  # the file as it is now
    assert opened.locked and opened.notice is None
    opened.close()
    assert not lock_path(tmp_path, "m1").exists()
    assert store.delete("m1") == [store.path("m1"), store.backup_path("m1")]


def test_a_new_exclusive_autosave_locks_with_its_first_save(tmp_path):
    store = SaveStore(tmp_path)
    autosave = Autosave(store, small_match(), exclusive=True)
    assert not autosave.locked
    autosave()
    assert autosave.locked
    with pytest.raises(MatchInUse):
        Autosave.open(store, autosave.match_id)
    autosave.close()
    Autosave.open(store, autosave.match_id).close()


def test_autosave_never_writes_over_a_file_another_process_changed(tmp_path):
    store = SaveStore(tmp_path)
    Autosave(store, small_match(), "m1", created=CREATED)()
    # Two writers that both loaded the same save (an older dominoes, or a file system without locks).
    first = Autosave.resume(store, store.load("m1"))
    second = Autosave.resume(store, store.load("m1"))
    first.match.apply(first.match.legal_moves()[0])
    first()
    theirs = store.load("m1").record.match
    second.match.apply(second.match.legal_moves()[-1])
    with pytest.raises(MatchChangedElsewhere) as refused:
        second()
    moved = second.match_id
    assert moved != "m1"
    assert refused.value.reason == (
        "match m1 was changed by another process since this one opened it, so it was not written over; "
        f"this match goes on as match {moved}"
    )
    assert store.load("m1").record.match == theirs  # nothing of the other process's play is lost
    assert store.load(moved).record.match == second.match  # nor of this one's
    assert store.load(moved).record.created == CREATED
    second.match.apply(second.match.legal_moves()[0])
    second()  # goes on in its new file, quietly
    assert store.load(moved).record.match == second.match
    first()  # the first writer is still where it left its file
    assert store.load("m1").record.match == theirs


def test_a_file_rewritten_with_the_same_events_is_not_a_change(tmp_path):
    store = SaveStore(tmp_path)
    autosave = Autosave(store, small_match(), "m1", created=CREATED)
    autosave()
    copy = store.path("m1").read_bytes()
    store.path("m1").unlink()
    store.path("m1").write_bytes(copy)  # a new file (a copy back from elsewhere), the same match
    autosave.match.apply(autosave.match.legal_moves()[0])
    autosave()
    assert autosave.match_id == "m1" and store.load("m1").record.match == autosave.match


def test_a_save_directory_that_cannot_be_written_is_a_save_error_not_a_lock_error(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("")
    with pytest.raises(SaveError, match="cannot be taken"):
        MatchLock.acquire(blocked / "saves", "m1")
    autosave = Autosave(SaveStore(blocked / "saves"), small_match(), exclusive=True)
    with pytest.raises(SaveError, match="could not be saved"):
        autosave()


def test_a_lock_file_that_is_not_a_regular_file_is_refused_without_waiting(tmp_path):
    os.mkfifo(lock_path(tmp_path, "m1"))
    with pytest.raises(SaveError, match="not a regular file"):
        MatchLock.acquire(tmp_path, "m1")


def test_the_ending_signals_are_handled_before_the_holder_is_named(tmp_path, monkeypatch):
    """A process that reads the holder's pid may signal it at once (`kill`, the tests of lock
    signals): by then SIGTERM and SIGHUP must already remove the file."""
    handling: list[object] = []
    write_holder = saves.lock._write_holder

    def noting(descriptor: int) -> None:
        handling.append([signal.getsignal(number) for number in saves.lock.ENDING_SIGNALS])
        write_holder(descriptor)

    monkeypatch.setattr(saves.lock, "_write_holder", noting)
    saved = {number: signal.signal(number, signal.SIG_DFL) for number in saves.lock.ENDING_SIGNALS}
    try:
        lock = MatchLock.acquire(tmp_path, "abc123")
        lock.release()
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)
    assert handling == [[saves.lock._release_and_end] * len(saves.lock.ENDING_SIGNALS)]
