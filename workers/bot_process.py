"""Asking the bot worker process for a decision (see `workers.bot_worker`).

`BotProcess.decide` blocks until the answer comes, so the interface calls it from a thread
worker; the thread only waits on a pipe, and the search itself runs in the other process, on the
other core, without holding the interface's interpreter. `cancel` (undo while a bot thinks) kills
the process; the next decision starts a fresh one.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from typing import Any

from core import Match
from core.moves import Move
from workers.bot_worker import read_frame, write_frame

IN_PROCESS_LEVELS = frozenset({"random", "easy"})  # quick enough to answer where they are asked


class BotError(Exception):
    """The bot process could not decide (it was cancelled, or it answered with an error)."""


class BotProcess:
    def __init__(self) -> None:
        self._process: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._next_id = 0
        self._cancelled_up_to = 0  # requests numbered up to this one were cancelled, sent or not
        self._closed = False  # once closed, no decision starts a process again

    def _ensure(self) -> subprocess.Popen[bytes]:
        if self._process is None or self._process.poll() is not None:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "workers.bot_worker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        return self._process

    def decide(self, match: Match, seat: int, level: str, budget: float | None, rng_seed: int) -> Move:
        """The move the bot of `level` makes for `seat` at the match's cursor."""
        return self.ask(self.request(match, seat, level, budget, rng_seed))

    def request(self, match: Match, seat: int, level: str, budget: float | None, rng_seed: int) -> dict[str, Any]:
        """A decision as plain data: build it where the match lives (the interface's thread), since
        the match may change (undo) while `ask` waits in another thread."""
        with self._lock:
            self._next_id += 1
            number = self._next_id
        return {
            "id": number,
            "game": match.game_name,
            "players": match.players,
            "options": dict(match.options),
            "seed": match.seed,  # None for a match dealt from a secret: the worker never holds it
            "events": [event.to_data() for event in match.events[: match.cursor]],
            "seat": seat,
            "level": level,
            "budget": budget,
            "rng": rng_seed,
        }

    def ask(self, request: dict[str, Any]) -> Move:
        """Send `request` and wait for the answer (blocking: call it from a thread)."""
        with self._lock:
            if request["id"] <= self._cancelled_up_to:  # cancelled before its thread got here
                raise BotError("the decision was cancelled")
            if self._closed:  # a thread that got here after its table closed: start nothing
                raise BotError("the bot process is closed")
            process = self._ensure()
        try:
            write_frame(process.stdin, request)  # type: ignore[arg-type]
            answer = read_frame(process.stdout)  # type: ignore[arg-type]
        except (OSError, ValueError) as error:
            raise BotError(f"the bot process stopped: {error}") from None
        if answer is None:
            raise BotError("the bot process stopped before answering")
        if "error" in answer:
            raise BotError(answer["error"])
        return Move.from_data(answer["move"])

    def cancel(self) -> None:
        """Stop a decision in progress, or about to be sent (the waiting `ask` raises BotError)."""
        with self._lock:
            self._cancelled_up_to = self._next_id
        process = self._process
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()

    def close(self) -> None:
        """Stop the process (a decision in progress ends with BotError), for good."""
        with self._lock:
            self._closed = True
            self._cancelled_up_to = self._next_id
            process = self._process
            self._process = None
        if process is not None and process.poll() is None:
            if process.stdin:
                process.stdin.close()
            try:
                process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def decision_seed(match: Match, seat: int) -> int:
    """The seed of a bot's decision: fixed by the match's chance (its secret or chosen seed), the
    seat and the cursor, so a decision undone and redone (or made again after resuming a save)
    comes out the same (`Match.decision_seed`)."""
    return match.decision_seed(seat)
