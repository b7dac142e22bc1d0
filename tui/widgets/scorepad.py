"""Scorepad: round-by-round scores by player, the totals, and each round's winner marked."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import DataTable

WINNER_MARK = "★"
SCOREPAD_WIDTH = 30  # the side column at 80x24; every player's column fits in it


def short_name(name: str, width: int) -> str:
    """A column heading of at most `width` characters: "Seat 2" may become "S2", "Ana" stays."""
    if len(name) <= width:
        return name
    words = name.split()
    if len(words) > 1:
        initials = "".join(word[0] for word in words[:-1])
        return (initials + words[-1])[:width]
    return name[:width]


def heading_width(players: int, room: int = SCOREPAD_WIDTH) -> int:
    return max(2, min(12, (room - 4) // players - 2))


def round_winners(scores: Sequence[int]) -> set[int]:
    """The lowest score of a round "wins the round" (CF-16); a shared lowest marks them all."""
    best = min(scores)
    return {seat for seat, points in enumerate(scores) if points == best}


class Scorepad(DataTable[Text]):
    """Rows are rounds, columns are players; the last row holds the totals."""

    def __init__(self, *, room: int = SCOREPAD_WIDTH, id: str | None = None, classes: str | None = None) -> None:
        """`room`: the columns the scorepad may count on, shared among the players' headings."""
        self.room = room
        super().__init__(id=id, classes=classes, zebra_stripes=True, cursor_type="none", show_cursor=False)
        self.can_focus = False
        self._shown: tuple[object, ...] = ()

    def show(
        self,
        names: Sequence[str],
        round_scores: Sequence[Sequence[int]],
        totals: Sequence[int],
        current_round: int | None = None,
    ) -> None:
        key = (tuple(names), tuple(map(tuple, round_scores)), tuple(totals), current_round)
        if key == self._shown:
            return
        self._shown = key
        self.clear(columns=True)
        self.add_column("Rd", key="round")
        width = heading_width(len(names), self.room)
        for seat, name in enumerate(names):
            self.add_column(short_name(name, width), key=f"seat{seat}")
        for index, scores in enumerate(round_scores):
            winners = round_winners(scores)
            cells = [
                Text(f"{points}{WINNER_MARK}" if seat in winners else f"{points} ", justify="right")
                for seat, points in enumerate(scores)
            ]
            self.add_row(Text(str(index + 1)), *cells, key=f"round{index}")
        if current_round is not None and current_round > len(round_scores):
            self.add_row(Text(str(current_round)), *(Text("…", justify="right") for _ in names))
        best = min(totals) if totals else 0
        self.add_row(
            Text("Σ", style="bold"),
            *(
                Text(f"{total} ", style="bold underline" if total == best else "bold", justify="right")
                for total in totals
            ),
            key="total",
        )
