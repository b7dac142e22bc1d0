"""A round's public record: who did what, as every seat saw it.

Stored inside states as a linked list of pairs, `((seat, move), older)` with `()` for empty, so a
move extends it in constant time. Views carry it as a plain tuple, oldest first, for bots that
reason about what other players could not do (a player who drew could not play).
"""

from __future__ import annotations

from typing import Any

from core.moves import Move

PublicLog = tuple[Any, ...]  # () or ((seat, move), PublicLog)
EMPTY_LOG: PublicLog = ()


def entries(log: PublicLog) -> tuple[tuple[int, Move], ...]:
    """The log's entries, oldest first."""
    items = []
    while log:
        items.append(log[0])
        log = log[1]
    items.reverse()
    return tuple(items)


def from_entries(items: tuple[tuple[int, Move], ...]) -> PublicLog:
    log: PublicLog = EMPTY_LOG
    for item in items:
        log = (item, log)
    return log
