"""What someone watching a table may see: what every seat sees, and nothing any one seat holds.

A watcher's view is a seat's view with that seat's own knowledge taken out: its hand, the tile it
drew and must play, and (in Moon) the widow and the discard that only the bidder sees. What is
left is what the rules show every seat alike: the layout, hand sizes, the stock's size, scores,
the public record of the round, and every hand once a draw game's round is over (shown to every
seat for scoring). The seat it is built from is one that holds nothing extra: never
Moon's bidder.
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

PRIVATE = ("drawn", "widow", "discard")  # fields of a seat's view that only that seat may see


def watcher_view(game: Any, state: Any) -> Any:
    """The view of `state` for someone at no seat: a seat's view holding none of its own tiles."""
    seat = 0
    bidder = getattr(state, "bidder", None)
    if bidder == seat:
        seat = (bidder + 1) % state.players
    view = game.view(state, seat)
    names = {item.name for item in fields(view)}
    return replace(view, hand=(), **{name: None for name in PRIVATE if name in names})


__all__ = ["watcher_view"]
