"""Shuffling with the caller's generator: the same order as `random.Random.shuffle`, three times faster.

Every deal, and every world a searching bot imagines, starts with a shuffle. `Random.shuffle` spends
most of its time in a Python-level call per tile (`_randbelow`). `shuffle` below runs the same
Fisher-Yates steps, drawing the same bits from the same generator (rejection sampling with
`getrandbits` of the bound's bit length), with the steps worked out once per length, so a given
generator gives the same order either way: seeded deals, saves and bots' choices do not change.
A generator of any other kind (a subclass, `SystemRandom`) is left to its own `shuffle`.
"""

from __future__ import annotations

import random
from typing import Any

_LONGEST = 64  # the double-nine set has 55 tiles: longer lists take the generator's own shuffle

# _STEPS[n]: for a list of n items, each step's (position, bound, bits of the bound), last first.
_STEPS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple((i, i + 1, (i + 1).bit_length()) for i in range(length - 1, 0, -1)) for length in range(_LONGEST + 1)
)


def shuffle(items: list[Any], rng: random.Random) -> None:
    """Shuffle `items` in place with `rng`, exactly as `rng.shuffle(items)` would."""
    if type(rng) is not random.Random or len(items) > _LONGEST:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i, bound, bits in _STEPS[len(items)]:
        j = getrandbits(bits)
        while j >= bound:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]
