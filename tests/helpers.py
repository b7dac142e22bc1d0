"""Helpers for building positions with explicit deals (stacked decks)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from core.moves import Deal
from core.tiles import Tile


def tile(text: str) -> Tile:
    """`tile("5-3")` is Tile(3, 5)."""
    a, b = text.split("-")
    return Tile(int(a), int(b))


def tiles(text: str) -> list[Tile]:
    """`tiles("9-5 5-3")` is [Tile(5, 9), Tile(3, 5)]."""
    return [tile(word) for word in text.split()]


def stacked_hands(
    full_set: Iterable[Tile],
    players: int,
    hand_size: int,
    hands: dict[int, str] | None = None,
    stock_top: str = "",
    exclude: Iterable[Tile] = (),
    avoid: dict[int, set[int]] | None = None,
) -> tuple[tuple[tuple[Tile, ...], ...], tuple[Tile, ...]]:
    """Hands and stock with the named tiles exactly where a test wants them.

    `hands` names some tiles of some seats; every hand is then filled up to `hand_size` from the
    tiles nobody named, in ascending order, skipping for a seat any tile that carries a number in
    `avoid[seat]`; `stock_top` is drawn first, the rest of the stock after. `exclude` keeps tiles
    out of the hands and the stock altogether.
    """
    named = {seat: tiles(text) for seat, text in (hands or {}).items()}
    top = tiles(stock_top)
    used = {t for group in named.values() for t in group} | set(top) | set(exclude)
    spare = [t for t in full_set if t not in used]
    avoid = avoid or {}
    result: dict[int, tuple[Tile, ...]] = {}
    # Seats with numbers to avoid choose first, so the others can take what they leave.
    for seat in sorted(range(players), key=lambda s: s not in avoid):
        hand = list(named.get(seat, []))
        allowed = [t for t in spare if not set(t) & avoid.get(seat, set())]
        if len(allowed) < hand_size - len(hand):
            raise ValueError(f"not enough tiles to fill seat {seat}'s hand while avoiding {avoid.get(seat)}")
        for t in allowed[: hand_size - len(hand)]:
            hand.append(t)
            spare.remove(t)
        result[seat] = tuple(hand)
    return tuple(result[seat] for seat in range(players)), tuple(top + spare)


def play_moves(game: Any, state: Any, moves: Iterable[Any]) -> Any:
    for move in moves:
        state = game.apply(state, move)
    return state


def make_deal(hands: tuple[tuple[Tile, ...], ...], stock: tuple[Tile, ...], **fields: Any) -> Deal:
    return Deal(hands, stock, **fields)
