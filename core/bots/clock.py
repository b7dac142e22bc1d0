"""A decision's time budget, spent in units of work (a sampled world, a pass over the root moves)."""

from __future__ import annotations

import time


class Clock:
    """Answers whether another unit of work is likely to end before the deadline, judging by the
    mean time the units so far took, so that decisions end within their budget rather than just
    after it."""

    __slots__ = ("deadline", "started", "units")

    def __init__(self, seconds: float) -> None:
        self.started = time.perf_counter()
        self.deadline = self.started + seconds
        self.units = 0

    def time_for_another(self) -> bool:
        """Count a finished unit; True if one more is expected to finish in time."""
        self.units += 1
        now = time.perf_counter()
        return now + (now - self.started) / self.units <= self.deadline

    def expired(self) -> bool:
        return time.perf_counter() >= self.deadline
