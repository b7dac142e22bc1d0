"""What the draw games (Chicken Foot, Doubles) share beyond the tiles, the draw pile and the layout.

Their turn machinery looks alike but is not the same: the openings differ, which ends may be played
differ (Chicken Foot's feet, Doubles' locked numbers), and so do the states and the scoring. Each
game therefore keeps its own hot path; what is truly common lives here: naming seats in words
(determinization's helpers are in `core.determinize`, a deal's check in `core.hands`).
"""

from __future__ import annotations


def seat_name(names: tuple[str, ...] | None, seat: int) -> str:
    """The seat's name for messages and the move log ("Seat 2" when there are no names)."""
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return f"Seat {seat + 1}"
