"""Worker processes that weigh a review's decisions (see `workers.review_worker`), so a review uses
every core and the interface that asked for it keeps its own.

Each worker gets the match once, then one decision at a time: the next is sent as soon as it
answers, so the workers stay busy until the last decisions. Answers come back in the order they
are found. The workers run in a session of their own, so a Ctrl+C at the terminal reaches only the
command that started them, which stops them (`close`); they also end when their input closes.
"""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Iterator, Sequence
from typing import Any

from core import Match
from core.review import ReviewSettings, Weighing
from workers.bot_worker import read_frame, write_frame

POLL_SECONDS = 0.1  # how often a wait for answers looks up (a Ctrl+C is seen at once anyway)


class ReviewError(Exception):
    """The review could not go on: a worker stopped or answered with an error, or it was cancelled."""


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def match_request(match: Match, settings: ReviewSettings, niceness: int) -> dict[str, Any]:
    return {
        "game": match.game_name,
        "players": match.players,
        "options": dict(match.options),
        "seed": match.seed,  # None for a match dealt from a secret: the workers never hold it
        "events": [event.to_data() for event in match.events[: match.cursor]],
        "settings": settings.to_data(),
        "nice": niceness,
    }


class ReviewPool:
    """Up to `jobs` worker processes; `niceness` lowers their priority (the interface keeps its core)."""

    def __init__(self, jobs: int | None = None, niceness: int = 0) -> None:
        self.jobs = max(1, jobs if jobs is not None else default_jobs())
        self.niceness = niceness
        self._processes: list[subprocess.Popen[bytes]] = []
        self._lock = threading.Lock()
        self._cancelled = False

    def weigh(self, match: Match, indexes: Sequence[int], settings: ReviewSettings) -> Iterator[tuple[int, Weighing]]:
        """Weigh the decisions at these event indexes; each (index, weighing) as soon as it is known.
        ReviewError if a worker fails or the pool is cancelled; the workers stop when this ends."""
        pending = deque(indexes)
        if not pending:
            return
        answers: queue.Queue[tuple[int, Any]] = queue.Queue()
        request = match_request(match, settings, self.niceness)
        try:
            for number in range(min(self.jobs, len(pending))):
                process = self._start()
                write_frame(process.stdin, request)  # type: ignore[arg-type]
                self._send(process, pending.popleft())
                threading.Thread(target=_read_answers, args=(process, number, answers), daemon=True).start()
            busy = set(range(len(self._processes)))  # workers with a decision in hand
            while busy:
                try:
                    number, answer = answers.get(timeout=POLL_SECONDS)
                except queue.Empty:
                    self._check_cancelled()
                    continue
                self._check_cancelled()
                if number not in busy:
                    continue  # a worker that was done has ended
                index, weighing = _weighing(answer)
                process = self._processes[number]
                if pending:
                    self._send(process, pending.popleft())
                else:
                    busy.discard(number)
                    process.stdin.close()  # type: ignore[union-attr]
                yield index, weighing
        except OSError as error:
            self._check_cancelled()
            raise ReviewError(f"a review process stopped ({error.strerror or error})") from None
        finally:
            self.close()

    def cancel(self) -> None:
        """Stop the review from any thread: the workers are killed and `weigh` raises ReviewError."""
        self._cancelled = True
        self.close()

    def close(self) -> None:
        with self._lock:
            processes, self._processes = self._processes, []
        for process in processes:
            if process.poll() is None:
                process.kill()
            process.wait()
            for stream in (process.stdin, process.stdout):
                if stream is not None and not stream.closed:
                    with contextlib.suppress(OSError):
                        stream.close()

    # -- inside ------------------------------------------------------------------------------------
    def _start(self) -> subprocess.Popen[bytes]:
        with self._lock:
            self._check_cancelled()
            process = subprocess.Popen(
                [sys.executable, "-m", "workers.review_worker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # a Ctrl+C at the terminal is for the command, which stops these
            )
            self._processes.append(process)
        return process

    @staticmethod
    def _send(process: subprocess.Popen[bytes], index: int) -> None:
        write_frame(process.stdin, {"index": index})  # type: ignore[arg-type]

    def _check_cancelled(self) -> None:
        if self._cancelled:
            raise ReviewError("the review was stopped")


def _read_answers(process: subprocess.Popen[bytes], number: int, answers: queue.Queue[tuple[int, Any]]) -> None:
    """A worker's answers, into the shared queue; None when it stops."""
    while True:
        try:
            answer = read_frame(process.stdout)  # type: ignore[arg-type]
        except (OSError, ValueError):
            answer = None
        answers.put((number, answer))
        if answer is None:
            return


def _weighing(answer: Any) -> tuple[int, Weighing]:
    if not isinstance(answer, dict):
        raise ReviewError("a review process stopped before answering")
    if "error" in answer:
        raise ReviewError(str(answer["error"]))
    return answer["index"], Weighing(tuple(answer["means"]), answer["worlds"], answer["error_se"])
