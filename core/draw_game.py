"""What the draw games (Chicken Foot, Doubles) share beyond the tiles, the draw pile and the layout.

Their turn machinery looks alike but is not the same: the openings differ, which ends may be played
differ (Chicken Foot's feet, Doubles' locked numbers), and so do the states and the scoring. Each
game therefore keeps its own hot path; what is truly common lives here: naming seats and draws in
words (determinization's helpers are in `core.determinize`, a deal's check in `core.hands`).
"""

from __future__ import annotations

from core.tiles import Tile


def draw_words(who: str, tile: Tile, shown: bool, fits: bool) -> str:
    """A draw in the move log. Only the player who drew may see the tile (`shown`); whether it
    fitted is public, since a tile that does not fit ends the turn at once."""
    drew = f"{who} drew the {tile}" if shown else f"{who} drew a tile"
    return drew if fits else f"{drew} and passed"


def seat_name(names: tuple[str, ...] | None, seat: int) -> str:
    """The seat's name for messages and the move log ("Seat 2" when there are no names)."""
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return f"Seat {seat + 1}"
