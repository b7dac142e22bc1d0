"""Scorepad: round-by-round scores by player, the totals, and each round's winner marked."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import DataTable

WINNER_MARK = "★"
NAME_WIDTH = 6  # keeps eight players' columns readable beside the board


def round_winners(scores: Sequence[int]) -> set[int]:
    """The lowest score of a round "wins the round" (CF-16); a shared lowest marks them all."""
    best = min(scores)
    return {seat for seat, points in enumerate(scores) if points == best}


class Scorepad(DataTable[Text]):
    """Rows are rounds, columns are players; the last row holds the totals."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
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
        for seat, name in enumerate(names):
            self.add_column(name[:NAME_WIDTH], key=f"seat{seat}")
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
