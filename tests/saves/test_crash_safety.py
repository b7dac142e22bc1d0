"""Crash safety: a process autosaving a match after every event is killed with SIGKILL at random
moments, over and over; after every kill the match loads, whole, from its own file (the last save or
the one before), never damaged and never from the backup."""

from __future__ import annotations

import os
import random
import signal
import sys
import time
import traceback
from pathlib import Path

from core import Match
from core.simulation import simulate_match
from saves.autosave import Autosave
from saves.errors import SaveError
from saves.store import SaveStore

KILLS = 120
MID_WRITE = 20  # kills that must land while a temporary file is being written (more kills if needed)
MAX_KILLS = 600
MATCH_ID = "crash-test"


def autosave_forever(directory: Path, full: Match, ready: int) -> None:
    """The child: resume the saved match (or start it), then play on, saving after every event;
    at the end of the match start it again from the beginning. After its first save it writes a
    byte to `ready`, so that every life of the child moves the match on."""
    store = SaveStore(directory)
    try:
        match = store.load(MATCH_ID).record.match
    except SaveError:
        match = Match(full.game_name, full.players, full.options, full.seats, full.seed)
    autosave = Autosave(store, match, MATCH_ID)
    events = full.events
    while True:
        if len(match.events) == len(events):
            match = Match(full.game_name, full.players, full.options, full.seats, full.seed)
        else:
            match.apply(events[len(match.events)])
        autosave(match)
        if ready >= 0:
            os.write(ready, b"s")
            os.close(ready)
            ready = -1


def start_child(directory: Path, full: Match) -> int:
    """Fork a child that autosaves; return its pid once it has saved at least once."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child never returns into the test runner
        status = 0
        try:
            os.close(read_end)
            autosave_forever(directory, full, write_end)
        except BaseException:
            traceback.print_exc(file=sys.stderr)
            status = 1
        finally:
            os._exit(status)
    os.close(write_end)
    try:
        assert os.read(read_end, 1) == b"s", "the child failed before its first save"
    finally:
        os.close(read_end)
    return pid


def temporary_files(directory: Path) -> int:
    return sum(name.endswith(".tmp") for name in os.listdir(directory))


def test_sigkill_while_autosaving_never_damages_the_match(tmp_path):
    full, _ = simulate_match("chicken-foot", 4, {"rounds": 2}, ["random"], 21)
    rng = random.Random(8)
    store = SaveStore(tmp_path)
    lengths = set()
    kill = mid_write = 0
    while kill < KILLS or (mid_write < MID_WRITE and kill < MAX_KILLS):
        temporaries = temporary_files(tmp_path)
        pid = start_child(tmp_path, full)
        time.sleep(rng.uniform(0, 0.01))
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, "the child stopped by itself"
        loaded = store.load(MATCH_ID)
        assert loaded.notice is None and loaded.path == store.path(MATCH_ID)
        events = loaded.record.match.events
        assert events == full.events[: len(events)]
        lengths.add(len(events))
        mid_write += temporary_files(tmp_path) > temporaries  # a write was cut off before its rename
        kill += 1
    assert store.ids() == [MATCH_ID]
    assert mid_write >= MID_WRITE
    assert len(lengths) > 20, "the kills should land at many different points of the match"
