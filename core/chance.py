"""Where a match's chance comes from: a secret the caller drew, or a seed chosen for practice.

A match started without a seed is given a secret of `SECRET_BYTES` random bytes by whoever starts
it (the front end draws them from the operating system with `secrets`; core never draws). Every
random stream of the match is derived from that secret and a label naming what the stream is for,
with HMAC-SHA256 (a pseudo-random function): deal n is drawn from the stream labelled "deal:n",
and a bot's decision at cursor c from "bot:SEAT:c". What a seat sees (its hands, the plays, the
bots' moves) are outputs of streams keyed by the secret; without the key no set of them says
anything about another, so the best attack on a hidden hand is trying 2^256 secrets.

Before the match, players are shown a commitment to the secret: its SHA-256 (`commitment`), in
short form its first `SHORT_COMMITMENT` hex digits. When the match is over the secret is shown,
and anyone can check that it gives the commitment and every deal (`core.fairness`).

A chosen seed (an integer) keeps the derivation of earlier versions exactly, so a seed replays the
same deals and bot decisions as it always has: deal n from `random.Random(f"{seed}:deal:{n}")`.
Such a match is practice: anyone who knows the seed knows every deal.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from typing import Any

SECRET_BYTES = 32  # 256 bits from the operating system
SHORT_COMMITMENT = 16  # hex digits shown at the table: 64 bits of the commitment
_BLOCK_BITS = 256  # one HMAC-SHA256 output


def check_secret(secret: Any) -> bytes:
    """`secret` if it is `SECRET_BYTES` bytes; ValueError otherwise."""
    if type(secret) is not bytes or len(secret) != SECRET_BYTES:
        raise ValueError(f"a match's secret is {SECRET_BYTES} bytes")
    return secret


def commitment(secret: bytes) -> str:
    """The commitment to a secret: its SHA-256, as 64 lowercase hex digits."""
    return hashlib.sha256(secret).hexdigest()


def short_commitment(whole: str) -> str:
    """The commitment as the table shows it: its first 16 hex digits."""
    return whole[:SHORT_COMMITMENT]


def derive(secret: bytes, label: str) -> bytes:
    """32 bytes for `label` ("deal:3", "bot:1:57"): HMAC-SHA256 keyed by the secret."""
    return hmac.new(secret, label.encode("ascii"), hashlib.sha256).digest()


class StreamRandom(random.Random):
    """A `random.Random` whose bits come from HMAC-SHA256 in counter mode under `key`, so what it
    gives (a shuffle, a choice) is unpredictable without the key and the same every time with it.
    Every method of `random.Random` that a deal uses (shuffle, randrange, choice, random) draws
    through `getrandbits`. It has no state to save: make it again from its key."""

    def __init__(self, key: bytes) -> None:
        self._key = key
        self._counter = 0
        self._pool = 0  # bits drawn from the stream and not yet used
        self._pool_bits = 0
        super().__init__()

    def seed(self, a: Any = None, version: int = 2) -> None:
        """The stream is fixed by its key; seeding changes nothing."""
        self.gauss_next = None

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        while self._pool_bits < k:
            block = hmac.new(self._key, self._counter.to_bytes(8, "big"), hashlib.sha256).digest()
            self._counter += 1
            self._pool |= int.from_bytes(block, "big") << self._pool_bits
            self._pool_bits += _BLOCK_BITS
        bits = self._pool & ((1 << k) - 1)
        self._pool >>= k
        self._pool_bits -= k
        return bits

    def random(self) -> float:
        return self.getrandbits(53) * (1.0 / (1 << 53))

    def getstate(self) -> Any:
        raise NotImplementedError("a stream is made again from its key, not saved")

    def setstate(self, state: Any) -> None:
        raise NotImplementedError("a stream is made again from its key, not saved")


def deal_rng(seed: int | None, secret: bytes | None, deals_before: int) -> random.Random:
    """The generator of a match's next deal, fixed by its chance and how many deals came before."""
    if secret is not None:
        return StreamRandom(derive(secret, f"deal:{deals_before}"))
    if seed is None:
        raise ValueError("this copy of the match does not hold the secret its deals come from")
    return random.Random(f"{seed}:deal:{deals_before}")


def decision_seed(seed: int | None, secret: bytes | None, seat: int, cursor: int) -> int:
    """The seed of a bot's decision at `cursor`, so a decision undone and made again (or made after
    resuming a save) comes out the same: 64 bits derived from the secret, or from the seed as
    earlier versions did."""
    if secret is not None:
        return int.from_bytes(derive(secret, f"bot:{seat}:{cursor}")[:8], "big")
    if seed is None:
        raise ValueError("this copy of the match does not hold the secret its bots' seeds come from")
    digest = hashlib.sha256(f"{seed}:bot:{seat}:{cursor}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def branch_secret(secret: bytes, position: int) -> bytes:
    """The secret of a match branched at `position` from one still in play: its later deals are
    new (the original's, still hidden, stay so), and as unpredictable."""
    return derive(secret, f"branch:{position}")
