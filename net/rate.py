"""A token bucket: at most `rate` things a second on average, `burst` at once.

Used wherever one end may ask for work faster than is fair to everyone else: messages and keys from
a browser or an SSH client, pings, sign-ins through one invite link.
"""

from __future__ import annotations

import time
from collections.abc import Callable


class TokenBucket:
    """`take()` spends one token if there is one; `wait()` is how long until there is."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self._tokens = burst
        self._last = clock()

    def _refill(self) -> None:
        now = self.clock()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now

    def take(self, tokens: float = 1.0) -> bool:
        self._refill()
        if self._tokens < tokens:
            return False
        self._tokens -= tokens
        return True

    def spend(self, tokens: float = 1.0) -> float:
        """Spend `tokens` even if there are not that many (going into debt); the seconds to wait
        before the bucket is out of debt (0.0 if it never was)."""
        self._refill()
        self._tokens -= tokens
        return 0.0 if self._tokens >= 0 else -self._tokens / self.rate

    def wait(self, tokens: float = 1.0) -> float:
        """Seconds until `tokens` could be taken."""
        self._refill()
        return 0.0 if self._tokens >= tokens else (tokens - self._tokens) / self.rate
