"""How a door starts a player's session: a pty of its own and the lobby in it, spawned as a fresh
`python -m cli` (`net.pty_session.spawn_in_pty`, the cold start).

The doors take their launcher from their front end: this one, or one that forks sessions from a
warm process (`warm_sessions.session_fork.WarmSessions`, which the front ends above `net` choose),
so that `net` never imports the machinery that prepares that process. Either way the more sessions
run, the nicer each is (`net.session_priority`), those running already too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from net.player_sessions import child_environment
from net.pty_session import PtyProcess, spawn_in_pty
from net.session_priority import lower_priority, niceness, session_nice


class SessionLauncher:
    """Sessions spawned afresh, each at the niceness the number running gives."""

    warm = False  # a launcher that forks sessions from a warm process says so

    def __init__(self, environment: Mapping[str, str]) -> None:
        self.environment = child_environment(environment)  # the doors' sessions' environment, before the player's
        self._running: dict[PtyProcess, int] = {}  # the sessions launched, and the niceness each has
        self._starting = 0  # and those being launched

    async def start(self) -> None:
        """Ready the launcher as its door starts (nothing to do for spawned sessions)."""

    async def close(self) -> None:
        """Let go of what the launcher holds as its door stops (nothing, for spawned sessions)."""

    def end_forked(self) -> None:
        """End what was prepared for a door that never started (nothing, for spawned sessions)."""

    async def launch(
        self, argv: Sequence[str], environment: Mapping[str, str], size: tuple[int, int, int, int]
    ) -> tuple[int, PtyProcess]:
        """A new session in a pty of its own at `size`: the pty's master side and the process."""
        self._starting += 1  # sessions start side by side: each counts those not started yet too
        try:
            nice = self._give_way()
            master, process = await self._start(argv, environment, size, nice)
        finally:
            self._starting -= 1
        self._running[process] = nice  # it takes that niceness itself
        self._give_way()  # those that came while it started may have made it one too few
        return master, process

    def _give_way(self) -> int:
        """How nice a session is now (its niceness), every running one made at least that nice.
        Only those that are not yet are looked at: a login at 200 sessions reads nothing of the
        other 199 unless they must change."""
        self._running = {process: given for process, given in self._running.items() if process.returncode is None}
        nice = niceness(session_nice(len(self._running) + self._starting))
        for process, given in self._running.items():
            if given < nice and self._can_lower(process) and lower_priority(process.pid, nice):
                self._running[process] = nice  # the pid is the session's still
        return nice

    def _can_lower(self, process: PtyProcess) -> bool:
        """Whether `process`'s pid is the session's own to lower now."""
        return True

    async def _start(
        self, argv: Sequence[str], environment: Mapping[str, str], size: tuple[int, int, int, int], nice: int
    ) -> tuple[int, PtyProcess]:
        return await spawn_in_pty(argv, environment, size, nice)
