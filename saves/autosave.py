"""Autosave: the interface calls it after every event, so closing the terminal loses nothing."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from core.match import Match
from saves.ids import new_match_id
from saves.record import SavedMatch
from saves.store import Loaded, SaveStore


class Autosave:
    """Writes one match to its file in `store` each time it is called.

    Call it after every event: `autosave()`, or pass it as `play_out(match, on_event=autosave)`.
    A failure raises SaveError (one line, for the interface to show); the match itself is untouched.
    """

    def __init__(
        self,
        store: SaveStore,
        match: Match,
        match_id: str | None = None,
        created: int | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.match = match
        self.match_id = match_id or new_match_id()
        self.clock = clock
        self.created = int(clock()) if created is None else created

    @classmethod
    def resume(cls, store: SaveStore, loaded: Loaded | SavedMatch, clock: Callable[[], float] = time.time) -> Autosave:
        """Go on saving a loaded match to its own file, keeping its id and when it started."""
        record = loaded.record if isinstance(loaded, Loaded) else loaded
        return cls(store, record.match, record.match_id, record.created, clock)

    @property
    def path(self) -> Path:
        return self.store.path(self.match_id)

    def record(self) -> SavedMatch:
        return SavedMatch(self.match_id, self.match, self.created, max(self.created, int(self.clock())))

    def __call__(self, match: Match | None = None) -> Path:
        if match is not None:
            self.match = match
        return self.store.save(self.record())
