"""Scorepad: round-by-round scores by player, the totals, and each round's winner marked."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rich.text import Text
from textual.widgets import DataTable

WINNER_MARK = "★"
BIDDER_MARK = "◆"  # Moon: the seat that won the bidding in that hand
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


def round_winners(scores: Sequence[int], high: bool = False) -> set[int]:
    """The lowest score of a round "wins the round" (CF-16), or the highest where scores go up
    (DB-11, DB-12: only a seat that scored); a shared best marks them all."""
    best = max(scores) if high else min(scores)
    if high and best <= 0:
        return set()
    return {seat for seat, points in enumerate(scores) if points == best}


class BidRecord(NamedTuple):
    """Moon: who won the bidding of a hand, the bid, and whether it was made (None: in play)."""

    bidder: int
    bid: int
    made: bool | None = None


def bid_text(record: BidRecord | None) -> Text:
    if record is None:
        return Text("-", style="dim", justify="right")
    mark = {True: "✓", False: "✗", None: " "}[record.made]
    return Text(f"{record.bid}{mark}", style="bold" if record.made is None else "", justify="right")


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
        *,
        high: bool = False,
        bids: Sequence[BidRecord | None] | None = None,
    ) -> None:
        """`high`: the highest total leads; `bids` (Moon): a bid column, one entry per row shown
        (the rounds, then the round in play), the bidder's cell marked."""
        key = (tuple(names), tuple(map(tuple, round_scores)), tuple(totals), current_round, high, tuple(bids or ()))
        if key == self._shown:
            return
        self._shown = key
        self.clear(columns=True)
        self.add_column("Rd", key="round")
        if bids is not None:
            self.add_column("Bid", key="bid")
        width = heading_width(len(names) + (bids is not None), self.room)
        for seat, name in enumerate(names):
            self.add_column(Text(short_name(name, width)), key=f"seat{seat}")  # a name: never markup

        def bid_cells(index: int) -> tuple[list[Text], int | None]:
            if bids is None:
                return [], None
            record = bids[index] if index < len(bids) else None
            return [bid_text(record)], record.bidder if record is not None else None

        for index, scores in enumerate(round_scores):
            winners = set() if bids is not None else round_winners(scores, high)
            before, bidder = bid_cells(index)
            cells = [
                Text(
                    f"{points}{WINNER_MARK if seat in winners else BIDDER_MARK if seat == bidder else ' '}",
                    justify="right",
                )
                for seat, points in enumerate(scores)
            ]
            self.add_row(Text(str(index + 1)), *before, *cells, key=f"round{index}")
        if current_round is not None and current_round > len(round_scores):
            before, bidder = bid_cells(len(round_scores))
            marks = [BIDDER_MARK if seat == bidder else " " for seat in range(len(names))]
            cells = [Text(f"…{mark}", justify="right") for mark in marks]
            self.add_row(Text(str(current_round)), *before, *cells)
        best = (max(totals) if high else min(totals)) if totals else 0
        self.add_row(
            Text("Σ", style="bold"),
            *([Text("")] if bids is not None else []),
            *(
                Text(f"{total} ", style="bold underline" if total == best else "bold", justify="right")
                for total in totals
            ),
            key="total",
        )
