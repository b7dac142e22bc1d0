"""The caps a server puts on what its players may hold at once, whatever door they came through."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_TAKEOVER = 60.0
MAX_WATCHERS_LIMIT = 1000  # the most watchers any one table may be allowed
DEFAULT_MAX_WATCHERS = 50


@dataclass(frozen=True)
class ServerLimits:
    max_sessions: int = 32  # sessions in play at once, in all
    max_player_sessions: int = 3  # ...and of one player
    max_tables: int = 20  # tables open at once (each a `dominoes host` process), in all
    max_player_tables: int = 3  # ...opened by one player
    takeover: float = DEFAULT_TAKEOVER  # seconds before an easy bot plays for a lobby table's away player
    max_watchers: int = DEFAULT_MAX_WATCHERS  # people watching one lobby table at once (0: nobody may watch)

    def check(self) -> None:
        """ValueError (one line, naming the option) for a limit that makes no sense."""
        for name in ("max_sessions", "max_player_sessions", "max_tables", "max_player_tables"):
            if getattr(self, name) < 1:
                raise ValueError(f"--{name.replace('_', '-')} must be at least 1, not {getattr(self, name)}")
        if not 0 <= self.max_watchers <= MAX_WATCHERS_LIMIT:
            raise ValueError(f"--max-watchers must be from 0 to {MAX_WATCHERS_LIMIT}, not {self.max_watchers}")
        if not 0 <= self.takeover <= 24 * 3600:
            raise ValueError(f"--takeover must be from 0 to 86400 seconds, not {self.takeover:g}")
