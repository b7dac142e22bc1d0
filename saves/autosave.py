"""Autosave: the interface calls it after every event, so closing the terminal loses nothing.

A match is written by one process at a time. `Autosave.open` (a saved match) and an `exclusive`
autosave (a new one) hold the match's lock (`saves.lock`) until `close()`. Every autosave also
checks, before it writes, that the file still ends where this process left it (the events it
loaded or last wrote): if another process has changed it meanwhile, that file is not written over,
and this process's match goes on under a new id instead (`MatchChangedElsewhere` says which).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.match import Match
from saves.errors import SaveError
from saves.ids import new_match_id
from saves.lock import MatchInUse, MatchLock
from saves.record import SavedMatch
from saves.store import Loaded, SaveStore


class MatchChangedElsewhere(SaveError):
    """The save was changed by another process; this one's match was saved under a new id instead.
    The autosave goes on writing there (`Autosave.match_id` is the new id)."""


def position(match: Match) -> tuple[int, Any, int]:
    """Where a match's history ends: the number of events, the last one, and the undo cursor."""
    events = match.events
    return len(events), events[-1] if events else None, match.cursor


def file_signature(path: Path) -> tuple[int, int, int, int] | None:
    """What changes whenever a save is written (each write renames a new file over the old)."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns


def _lock_if_possible(store: SaveStore, match_id: str) -> MatchLock | None:
    """The match's lock; MatchInUse if another process holds it. None where no lock can be had (a
    directory that cannot be written, or a file system without locks): the save itself then says
    what is wrong, or goes ahead guarded by the check of where the file ends."""
    try:
        return MatchLock.acquire(store.directory, match_id)
    except MatchInUse:
        raise
    except SaveError:
        return None


class Autosave:
    """Writes one match to its file in `store` each time it is called.

    Call it after every event: `autosave()`, or pass it as `play_out(match, on_event=autosave)`.
    A failure raises SaveError (one line, for the interface to show); the match itself is untouched.
    `exclusive`: take the match's lock at the first write and hold it until `close()`.
    """

    def __init__(
        self,
        store: SaveStore,
        match: Match,
        match_id: str | None = None,
        created: int | None = None,
        clock: Callable[[], float] = time.time,
        *,
        exclusive: bool = False,
    ) -> None:
        self.store = store
        self.match = match
        self.match_id = match_id or new_match_id()
        self.clock = clock
        self.created = int(clock()) if created is None else created
        self.exclusive = exclusive
        self.notice: str | None = None  # set by `open` when the backup had to be loaded
        self._lock: MatchLock | None = None
        # Where the file on disk ends, as this process loaded or last wrote it, and that file's
        # signature then; None until there is a file this autosave knows.
        self._expected: tuple[int, Any, int] | None = None
        self._signature: tuple[int, int, int, int] | None = None

    @classmethod
    def resume(cls, store: SaveStore, loaded: Loaded | SavedMatch, clock: Callable[[], float] = time.time) -> Autosave:
        """Go on saving a loaded match to its own file, keeping its id and when it started."""
        record = loaded.record if isinstance(loaded, Loaded) else loaded
        autosave = cls(store, record.match, record.match_id, record.created, clock)
        autosave._expected = position(record.match)
        return autosave

    @classmethod
    def open(cls, store: SaveStore, match_id: str, clock: Callable[[], float] = time.time) -> Autosave:
        """Open a saved match to go on with it: its lock first (MatchInUse, naming the process
        that has it open, if one does), then the file, read afresh under the lock (SaveError if it
        cannot be loaded). `notice` says if its backup had to be used. `close()` lets it go."""
        lock = _lock_if_possible(store, match_id)
        try:
            loaded = store.load(match_id)
            signature = file_signature(store.path(match_id))
        except BaseException:
            if lock is not None:
                lock.release()
            raise
        autosave = cls.resume(store, loaded, clock)
        autosave.exclusive = True
        autosave.notice = loaded.notice
        autosave._lock = lock
        autosave._signature = signature if loaded.path == store.path(match_id) else None
        return autosave

    @property
    def path(self) -> Path:
        return self.store.path(self.match_id)

    @property
    def locked(self) -> bool:
        return self._lock is not None and self._lock.held

    def record(self) -> SavedMatch:
        return SavedMatch(self.match_id, self.match, self.created, max(self.created, int(self.clock())))

    def __call__(self, match: Match | None = None) -> Path:
        if match is not None:
            self.match = match
        if self.exclusive and self._lock is None:
            self._lock = _lock_if_possible(self.store, self.match_id)
        moved_from = self.match_id if self._changed_elsewhere() else None
        if moved_from is not None:
            self._move_to_new_id()
        path = self.store.save(self.record())
        self._expected, self._signature = position(self.match), file_signature(path)
        if moved_from is not None:
            raise MatchChangedElsewhere(
                f"match {moved_from} was changed by another process since this one opened it, so it was "
                f"not written over; this match goes on as match {self.match_id}"
            )
        return path

    def _changed_elsewhere(self) -> bool:
        """Whether the file no longer ends where this process left it (a damaged file does not count:
        the backup keeps the last good one)."""
        if self._expected is None:
            return False
        signature = file_signature(self.path)
        if signature is None or signature == self._signature:
            return False
        try:
            found = self.store.read(self.path, self.match_id)
        except SaveError:
            return False
        return position(found.match) != self._expected

    def _move_to_new_id(self) -> None:
        lock = self._lock
        self.match_id = new_match_id()
        self._expected = self._signature = None
        if lock is not None:
            self._lock = _lock_if_possible(self.store, self.match_id)
            lock.release()

    def close(self) -> None:
        """Let the match go (its lock released): another process may open it now."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None
