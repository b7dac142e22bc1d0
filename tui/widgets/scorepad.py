"""Scorepad: round-by-round scores by player, each round's winner marked, and the totals (Σ),
which are always in sight.

`ScoreSheet` lays the scores out as lines of text for a given room. The table's side column shows
it in a `Scorepad`, which never scrolls: when the rounds do not fit its height, the oldest fold
into one line of subtotals ("1-4"), and a table too wide for the column turns on its side (a row
per player, a column per round, the oldest rounds folded into one column). The game-over screen
shows every round in a `ScoreTable`, whose rounds scroll between the names and the totals.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

WINNER_MARK = "★"
BIDDER_MARK = "◆"  # Moon: the seat that won the bidding in that hand
IN_PLAY = "…"  # the round in play has no score yet
SCOREPAD_WIDTH = 30  # the side column at 80x24
MAX_HEADING = 12
MIN_HEADING = 3  # a name cut shorter than this ("Yo" for "You") reads as another word


def short_name(name: str, width: int) -> str:
    """A column heading of at most `width` characters: "Seat 2" may become "S2", "Ana" stays."""
    if len(name) <= width:
        return name
    words = name.split()
    if len(words) > 1:
        initials = "".join(word[0] for word in words[:-1])
        return (initials + words[-1])[:width]
    return name[:width]


def cut(name: str, head: str) -> bool:
    """Whether a one-word name was cut to fewer than `MIN_HEADING` letters for a heading (a name of
    several words shortens to its initials, "S2", which reads as the name)."""
    return " " not in name and len(head) < min(MIN_HEADING, len(name))


def heading_width(players: int, room: int = SCOREPAD_WIDTH) -> int:
    return max(2, min(MAX_HEADING, (room - 4) // players - 2))


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
        return Text("-", style="dim")
    mark = {True: "✓", False: "✗", None: " "}[record.made]
    return Text(f"{record.bid}{mark}", style="bold" if record.made is None else "")


class Line(NamedTuple):
    """One line of the sheet: a round (or several folded into one, or the round in play)."""

    label: str
    bid: Text | None  # Moon's bid column; None for the other games
    cells: tuple[Text, ...]  # per seat
    style: str = ""  # "folded": subtotals of the oldest rounds


class Layout(NamedTuple):
    """The sheet laid out: the heading line, the round lines, the totals line."""

    head: Text
    rounds: list[Text]
    total: Text


def _fit(text: Text, width: int, justify: str = "right") -> Text:
    text = text.copy()
    text.truncate(width)
    pad = width - text.cell_len
    if justify == "right":
        text.pad_left(pad)
    else:
        text.pad_right(pad)
    return text


def _joined(cells: Sequence[Text]) -> Text:
    return Text(" ").join(cells)


class ScoreSheet:
    """The scores of a match, ready to be laid out in the room a widget has."""

    def __init__(
        self,
        names: Sequence[str],
        round_scores: Sequence[Sequence[int]],
        totals: Sequence[int],
        current_round: int | None = None,
        *,
        high: bool = False,
        bids: Sequence[BidRecord | None] | None = None,
        winners: Sequence[int] | None = None,
    ) -> None:
        """`high`: the highest total leads; `bids` (Moon): a bid column, one entry per line
        (the rounds, then the round in play), the bidder's cell marked; `winners`: the totals to
        underline once the match is over (a made 21 wins from behind, MN-19), else the best."""
        self.names = tuple(names)
        self.scores = tuple(tuple(scores) for scores in round_scores)
        self.totals = tuple(totals)
        marks = tuple(winners) if winners is not None else None
        self.key = (self.names, self.scores, self.totals, current_round, high, tuple(bids or ()), marks)
        self.has_bids = bids is not None
        self.lines = [self._line(index, scores, high, bids) for index, scores in enumerate(self.scores)]
        if current_round is not None and current_round > len(self.scores):
            self.lines.append(self._current(current_round, bids))
        best = (max(totals) if high else min(totals)) if totals else None
        marked = set(winners) if winners is not None else {seat for seat, total in enumerate(totals) if total == best}
        self.total_cells = tuple(
            Text(f"{total} ", style="bold underline" if seat in marked else "bold") for seat, total in enumerate(totals)
        )

    def _bid(self, index: int, bids: Sequence[BidRecord | None] | None) -> tuple[Text | None, int | None]:
        if bids is None:
            return None, None
        record = bids[index] if index < len(bids) else None
        return bid_text(record), record.bidder if record is not None else None

    def _line(self, index: int, scores: tuple[int, ...], high: bool, bids: Sequence[BidRecord | None] | None) -> Line:
        winners = set() if bids is not None else round_winners(scores, high)
        bid, bidder = self._bid(index, bids)
        cells = tuple(
            Text(f"{points}{WINNER_MARK if seat in winners else BIDDER_MARK if seat == bidder else ' '}")
            for seat, points in enumerate(scores)
        )
        return Line(str(index + 1), bid, cells)

    def _current(self, current_round: int, bids: Sequence[BidRecord | None] | None) -> Line:
        bid, bidder = self._bid(len(self.scores), bids)
        cells = tuple(Text(f"{IN_PLAY}{BIDDER_MARK if seat == bidder else ' '}") for seat in range(len(self.names)))
        return Line(str(current_round), bid, cells)

    def folded(self, count: int) -> list[Line]:
        """The lines with the first `count` rounds (never the round in play) folded into one line of
        their subtotals; `count` below 2 folds nothing."""
        count = min(count, len(self.scores))
        if count < 2:
            return list(self.lines)
        subtotals = [sum(scores[seat] for scores in self.scores[:count]) for seat in range(len(self.names))]
        cells = tuple(Text(f"{points} ", style="italic") for points in subtotals)
        bid = Text("") if self.has_bids else None
        return [Line(f"1-{count}", bid, cells, "folded"), *self.lines[count:]]

    # -- a line a round, a column a player ---------------------------------------------------------
    def upright(self, width: int, height: int | None = None) -> Layout | None:
        """A line a round under a heading of names, the totals last; with `height` (the lines
        there is room for), the oldest rounds fold so that every line fits. None if the players'
        columns do not fit in `width`, or a name would be cut to fewer than `MIN_HEADING` letters."""
        lines = list(self.lines)
        if height is not None:
            room = max(1, height - 2)  # the heading and the totals always show
            if len(lines) > room:
                lines = self.folded(len(lines) - room + 1)
        label_width = max(2, *(len(line.label) for line in lines)) if lines else 2
        fixed = [label_width]
        if self.has_bids:
            fixed.append(max(3, *(line.bid.cell_len for line in lines if line.bid is not None)) if lines else 3)
        numbers = [
            max(self.total_cells[seat].cell_len, *(line.cells[seat].cell_len for line in lines))
            for seat in range(len(self.names))
        ]
        spare = width - sum(fixed) - len(fixed) + 1 - sum(number + 1 for number in numbers)
        if spare < 0:
            return None
        heading = min(MAX_HEADING, max(2, (width - sum(fixed) - len(fixed) + 1) // max(1, len(self.names)) - 1))
        heads = [short_name(name, max(number, heading)) for name, number in zip(self.names, numbers, strict=True)]
        widths = [max(number, len(head)) for number, head in zip(numbers, heads, strict=True)]
        while sum(fixed) + len(fixed) - 1 + sum(w + 1 for w in widths) > width:  # names shrink to the numbers
            seat = max(range(len(widths)), key=lambda s: widths[s] - numbers[s])
            widths[seat] -= 1
            heads[seat] = short_name(self.names[seat], widths[seat])
        if any(cut(name, head) for head, name in zip(heads, self.names, strict=True)):
            return None  # "You" would read "Yo": on its side, every name keeps its letters
        bid_head = [Text("Bid")] if self.has_bids else []
        head = _joined(
            [_fit(Text("Rd"), fixed[0], "left")]
            + [_fit(cell, fixed[1]) for cell in bid_head]
            + [_fit(Text(head), w) for head, w in zip(heads, widths, strict=True)]
        )
        rounds = []
        for line in lines:
            cells = [_fit(Text(line.label), fixed[0], "left")]
            if line.bid is not None:
                cells.append(_fit(line.bid, fixed[1]))
            cells += [_fit(cell, w) for cell, w in zip(line.cells, widths, strict=True)]
            row = _joined(cells)
            if line.style == "folded":
                row.stylize("dim")
            rounds.append(row)
        total = _joined(
            [_fit(Text("Σ", style="bold"), fixed[0], "left")]
            + ([Text(" " * fixed[1])] if self.has_bids else [])
            + [_fit(cell, w) for cell, w in zip(self.total_cells, widths, strict=True)]
        )
        return Layout(head, rounds, total)

    # -- a line a player, a column a round ----------------------------------------------------------
    def sideways(self, width: int) -> Layout:
        """A line a player (the bids, in Moon, on a line above them), a column a round, the totals
        in the last column; the oldest rounds fold into one column so that the columns fit `width`."""
        name_width = max(2, min(8, max(len(short_name(name, 8)) for name in self.names)))
        total_width = max(1, *(cell.cell_len for cell in self.total_cells))
        for count in (0, *range(2, len(self.scores) + 1)):
            lines = self.folded(count)
            columns = [max(len(line.label), *(cell.cell_len for cell in line.cells)) for line in lines]
            if name_width + sum(column + 1 for column in columns) + total_width + 1 <= width:
                break
        names = [_fit(Text(short_name(name, name_width)), name_width, "left") for name in self.names]
        head = _joined(
            [Text(" " * name_width)]
            + [_fit(Text(line.label), column) for line, column in zip(lines, columns, strict=True)]
            + [_fit(Text("Σ", style="bold"), total_width)]
        )
        rounds = []
        for seat, name in enumerate(names):
            rounds.append(
                _joined(
                    [name]
                    + [_fit(line.cells[seat], column) for line, column in zip(lines, columns, strict=True)]
                    + [_fit(self.total_cells[seat], total_width)]
                )
            )
        return Layout(head, rounds, Text(""))


def layout_lines(layout: Layout) -> list[Text]:
    """Every line of a layout, top to bottom (one on its side has no totals line)."""
    return [layout.head, *layout.rounds, *([layout.total] if layout.total.plain else [])]


class Scorepad(Widget):
    """The scorepad of the table's side column: it never scrolls and never clips a player, and the
    totals are always its last line (see the module's note)."""

    DEFAULT_CSS = """
    Scorepad {
        height: auto;
        overflow: hidden hidden;
    }
    Scorepad > .scorepad--heading {
        text-style: bold;
    }
    Scorepad > .scorepad--stripe {
        background: $surface-darken-1 40%;
    }
    """
    COMPONENT_CLASSES = {"scorepad--heading", "scorepad--stripe"}

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.sheet: ScoreSheet | None = None
        self._shown: tuple[object, ...] = ()

    def show(self, sheet: ScoreSheet) -> None:
        if sheet.key == self._shown:
            return  # redrawn after every event: only a change of scores lays it out again
        self._shown = sheet.key
        self.sheet = sheet
        self.refresh(layout=True)

    def layout_for(self, width: int, height: int | None = None) -> Layout | None:
        """The sheet laid out in `width` columns and (if given) `height` lines: upright if the
        players' columns fit, else on its side (its totals are then its last column)."""
        sheet = self.sheet
        if sheet is None:
            return None
        return sheet.upright(width, height) or sheet.sideways(width)

    def lines_for(self, width: int, height: int | None = None) -> list[Text]:
        layout = self.layout_for(width, height)
        return [] if layout is None else layout_lines(layout)

    def get_content_height(self, container, viewport, width: int) -> int:  # type: ignore[no-untyped-def]
        return max(1, len(self.lines_for(width)))

    def render(self) -> Text:
        size = self.content_size
        layout = self.layout_for(size.width, size.height)
        if layout is None:
            return Text("")
        layout.head.stylize(self.get_component_rich_style("scorepad--heading", partial=True))
        stripe = self.get_component_rich_style("scorepad--stripe", partial=True)
        for row in layout.rounds[1::2]:
            row.stylize(stripe)
        return Text("\n").join(layout_lines(layout))

    def text(self) -> str:
        """What the scorepad shows, as plain text (for tests and for reading it back)."""
        size = self.content_size
        return "\n".join(line.plain for line in self.lines_for(size.width, size.height))


class ScoreTable(Vertical):
    """Every round, for the game-over screen: the names on top and the totals right under the last
    round stay in sight while the rounds between them scroll (arrow keys, PageUp/PageDown,
    Home/End, the wheel). Give it a height (1fr): the rounds take what the names and totals leave."""

    DEFAULT_CSS = """
    ScoreTable > .score-heading, ScoreTable > .score-total {
        height: 1;
    }
    ScoreTable > .score-heading {
        text-style: bold;
    }
    ScoreTable > VerticalScroll {
        height: auto;
        scrollbar-size-vertical: 1;
    }
    """

    def __init__(self, sheet: ScoreSheet, room: int, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.sheet = sheet
        self.room = room  # the columns the table may use

    def compose(self) -> ComposeResult:
        layout = self.sheet.upright(self.room)
        if layout is None:  # too wide even for the whole screen: a line a player instead
            layout = self.sheet.sideways(self.room)
        yield Static(layout.head, classes="score-heading")
        with VerticalScroll(id="score-rounds"):
            yield Static(Text("\n").join(layout.rounds))
        if layout.total.plain:
            yield Static(layout.total, classes="score-total")

    def on_resize(self) -> None:
        fixed = sum(1 for child in self.children if child.id != "score-rounds")
        self.query_one("#score-rounds").styles.max_height = max(1, self.size.height - fixed)
