"""BoardTree: the layout of a draw game as a Textual `Tree` that follows the action.

The root is the centre double, named in the border's title (the root's own row is not shown, so
every line has two more cells for its label). Each node is one line of play (a train, a toe, a
spinner's arm) labelled with its name and its chain of tiles, so a long train stays one readable
line; the lines that branch from a double closing a line are that node's children. Runs of empty
lines (the free sides of a spinner, the trains still to start) fold into one node, which carries
the open end among them ("arms 3 and 4 of the 4-4: empty ◀4"). Node data is the line id (a
fold's first line; the root's is `CENTRE`), which is also the target a `Play` names.

Every label is fitted to the width it has (tui/widgets/board_labels.py): the board never scrolls
sideways. It scrolls itself to what matters: the ends where the selected tile may go, an
unfinished chicken foot and its toes, and otherwise the line that took the last tile; the open
ends left out of view are counted on the border ("▼ 3 more ends below").
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, replace

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from core.layout import CENTRE, Layout
from core.places import Place
from tui.widgets.board_labels import LineLabel, crop, fit, needs_short_name
from tui.widgets.dominoes import domino

PlaceNamer = Callable[[Layout, int], Place]
GUIDE_DEPTH = 2  # cells of indentation per level of the tree


def default_place(board: Layout, line_id: int) -> Place:
    return Place("line", line_id + 1, "")


@dataclass(frozen=True)
class Marks:
    """What to point out on the board besides the tiles themselves."""

    targets: tuple[int, ...] = ()  # open ends where the selected tile may go
    last_line: int | None = None  # the line that took the last tile played
    locked: Collection[int] = ()  # numbers no tile may be played against (Doubles)
    foot_size: int = 0  # how many lines a double opens when it must be filled first (CF-10)


@dataclass(frozen=True, slots=True)
class Row:
    """One node of the tree: a line, or a fold of empty lines that are no open end."""

    lines: tuple[int, ...]
    depth: int  # 1 for the lines on the centre
    parent: int  # the line closed by the double it grows from (CENTRE: the centre)


def rows_of(board: Layout) -> list[Row]:
    """The nodes of the tree in the order they are shown (depth first)."""
    rows: list[Row] = []

    def add(parent: int, depth: int) -> None:
        children = board.children(parent)
        index = 0
        while index < len(children):
            line_id = children[index]
            run = [line_id]
            if _folds(board, line_id) or _empty_end(board, line_id):
                # The free sides still to fill share one line, with the open end among them first.
                while index + len(run) < len(children) and _folds(board, children[index + len(run)]):
                    run.append(children[index + len(run)])
            if len(run) == 1:
                rows.append(Row((line_id,), depth, parent))
                if board.lines[line_id].open is None:
                    add(line_id, depth + 1)
            else:
                rows.append(Row(tuple(run), depth, parent))
            index += len(run)

    add(CENTRE, 1)
    return rows


def _empty_end(board: Layout, line_id: int) -> bool:
    """An empty line that is an open end: the free sides after it are its fellows."""
    return not board.lines[line_id].tiles and line_id in board.ends


def _folds(board: Layout, line_id: int) -> bool:
    """An empty line that takes no tile now: one of a double's interchangeable free sides."""
    return not board.lines[line_id].tiles and line_id not in board.ends


class BoardTree(Tree[int]):
    """The board. Enter (or a click) on a line plays the selected tile there; `e` (the table's
    key) jumps between the ends where it fits."""

    BINDINGS = [Binding("enter", "select_cursor", "Play", id="board.play")]

    @dataclass
    class TargetChosen(Message):
        board_tree: BoardTree
        line_id: int

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__("", data=CENTRE, id=id, classes=classes)
        self.auto_expand = False
        self.show_root = False
        self.guide_depth = GUIDE_DEPTH
        self.board: Layout | None = None
        self.marks = Marks()
        self.place: PlaceNamer = default_place
        self.empty_words = ""
        self.border_title = "Board"
        self.rows: list[Row] = []
        self._line_nodes: dict[int, TreeNode[int]] = {}  # every line, folded ones to their fold's node
        self._labels: list[LineLabel] = []
        self._row_of: dict[int, int] = {}  # line id -> its row's index
        self._siblings: dict[int, list[int]] = {}  # parent line -> the indices of its rows
        self._budgets: list[int] = []  # cells for each row's label
        self._short: dict[int, bool] = {}  # parent line -> its rows' names are short
        self._built_for: tuple[object, ...] = ()  # the board and size the nodes were built for
        self._told: tuple[object, ...] = ()  # what the borders say now

    # -- showing a board -----------------------------------------------------------------------------
    def show(self, board: Layout | None, marks: Marks, place: PlaceNamer | None = None, empty_words: str = "") -> None:
        """Show `board` with `marks`, scrolled to what matters now (see the module's docstring)."""
        self.board = board
        previous, self.marks = self.marks, marks
        if place is not None:
            self.place = place
        self.empty_words = empty_words
        width = self.content_region.width
        if board is None:
            self._built_for = ()
            self.clear()
            self.rows, self._labels, self._line_nodes = [], [], {CENTRE: self.root}
            words = empty_words or "The table is empty until the tiles are dealt."
            self.root.add(crop(Text(words, style="dim"), max(width - 1, 1)), data=CENTRE, allow_expand=False)
            self.root.expand()
            self._announce()
            return
        size = (width, self.content_region.height, self.place)
        if not self._built_for or self._built_for[0] is not board or self._built_for[1:] != size:
            self._rebuild(board, width)
        elif (marks.last_line, marks.locked, marks.foot_size) != (
            previous.last_line,
            previous.locked,
            previous.foot_size,
        ):
            self._relabel({index: self._describe(board, row) for index, row in enumerate(self.rows)})
        else:  # only the picked tile changed: the same lines, other ends to mark "play here"
            moved = set(previous.targets).symmetric_difference(marks.targets)
            rows = {self._row_of[line] for line in moved if line in self._row_of}
            self._relabel(
                {index: replace(self._labels[index], target=not self._labels[index].target) for index in rows}
            )
        self._follow()

    def _rebuild(self, board: Layout, width: int) -> None:
        cursor = self.cursor_node.data if self.cursor_node is not None else None
        self.clear()
        self.rows = rows = rows_of(board)
        self._labels = [self._describe(board, row) for row in rows]
        self._row_of = {line: index for index, row in enumerate(rows) for line in row.lines}
        self._siblings = {}
        for index, row in enumerate(rows):
            self._siblings.setdefault(row.parent, []).append(index)
        # A row's label has the width less the guides of its depth, and less a scrollbar's column
        # when the rows will not all fit.
        usable = max(width, 20) - (1 if len(rows) > self.content_region.height else 0)
        self._budgets = [max(8, usable - (row.depth - 1) * GUIDE_DEPTH) for row in rows]
        self._short = {parent: self._needs_short(parent) for parent in self._siblings}
        self._line_nodes = {CENTRE: self.root}
        parents: list[TreeNode[int]] = [self.root]
        for index, row in enumerate(rows):
            del parents[row.depth :]
            node = parents[-1].add(self._fitted(index), data=row.lines[0], expand=True, allow_expand=False)
            parents.append(node)
            for line_id in row.lines:
                self._line_nodes[line_id] = node
        self.root.expand()
        self._built_for = (board, width, self.content_region.height, self.place)
        node = self._line_nodes.get(cursor) if cursor is not None else None
        if node is not None:
            self.cursor_line = self._line_of(node)

    def _relabel(self, labels: dict[int, LineLabel]) -> None:
        """The same lines with new marks: only the labels that changed are drawn again, and their
        siblings when the kind of name they share changes."""
        changed = {index: label for index, label in labels.items() if label != self._labels[index]}
        redraw = set(changed)
        for index, label in changed.items():
            self._labels[index] = label
        for parent in {self.rows[index].parent for index in changed}:
            short = self._needs_short(parent)
            if short != self._short[parent]:
                self._short[parent] = short
                redraw.update(self._siblings[parent])
        for index in redraw:
            self._line_nodes[self.rows[index].lines[0]].set_label(self._fitted(index))

    def _needs_short(self, parent: int) -> bool:
        """Siblings keep names of one kind: if one must drop its double ("toe 2"), they all do."""
        return any(needs_short_name(self._labels[index], self._budgets[index]) for index in self._siblings[parent])

    def _fitted(self, index: int) -> Text:
        return fit(self._labels[index], self._budgets[index], self._short[self.rows[index].parent])

    def _describe(self, board: Layout, row: Row) -> LineLabel:
        marks = self.marks
        first = row.lines[0]
        line = board.lines[first]
        place = self.place(board, first)
        is_end = line.open is not None and first in board.ends
        if len(row.lines) > 1:
            last = place.number + len(row.lines) - 1
            joint = "and" if len(row.lines) == 2 else "to"
            numbers = f"{place.word}s {place.number} {joint} {last}"
            return LineLabel(
                f"{numbers} of {place.of}" if place.of else numbers,
                numbers,
                open=line.open if is_end else None,
                locked=is_end and line.open in marks.locked,
                target=first in marks.targets,
            )
        foot = None
        if marks.foot_size and line.open is None:
            toes = board.children(first)
            to_go = sum(1 for toe in toes if not board.lines[toe].tiles)
            if to_go:
                foot = (to_go, len(toes))
        return LineLabel(
            name=str(place),
            short=place.short,
            pairs=board.oriented(first),
            open=line.open if is_end else None,
            locked=is_end and line.open in marks.locked,
            foot=foot,
            target=first in marks.targets,
            last=first == marks.last_line,
        )

    # -- following the action --------------------------------------------------------------------------
    def _line_of(self, node: TreeNode[int]) -> int:
        self._tree_lines  # noqa: B018 (builds the lines, which numbers the nodes)
        return node._line

    def _rows_at(self, line_ids: Collection[int]) -> list[int]:
        found = {self._line_of(self._line_nodes[line]) for line in line_ids if line in self._line_nodes}
        return sorted(found)

    def _foot_lines(self) -> list[int]:
        """The line closed by an unfinished chicken foot's double, and its toes."""
        board = self.board
        if board is None or not self.marks.foot_size:
            return []
        for line_id in board.empty_ends:
            parent = board.lines[line_id].parent
            if parent != CENTRE:
                return [parent, *board.children(parent)]
        return []

    def _follow(self) -> None:
        """Scroll so the ends where the selected tile fits and an unfinished foot are in view
        (else the line that took the last tile); move the cursor onto the first such end."""
        marks = self.marks
        must = self._rows_at([*marks.targets, *self._foot_lines()])
        wanted = self._rows_at([marks.last_line] if marks.last_line is not None else [])
        if not must:
            must, wanted = wanted, []
        targets = self._rows_at(marks.targets)
        if targets and self.cursor_line not in targets:
            self.cursor_line = targets[0]
        height = self.scrollable_content_region.height or self.content_region.height
        if must and height > 0:
            self.scroll_to(y=self._window(must, wanted, height), animate=False)
        self._announce()

    def _window(self, must: list[int], wanted: list[int], height: int) -> int:
        """The first row to show: every row of `must` in view if they fit (else the first ones), the
        rows of `wanted` too if that is possible, moving as little as can be from where it is."""
        top = round(self.scroll_y)
        low, high = must[0], must[-1]
        if high - low + 1 > height:
            return low
        earliest, latest = high - height + 1, low  # the range of tops that show all of `must`
        for row in wanted:
            narrower = max(earliest, row - height + 1), min(latest, row)
            if narrower[0] <= narrower[1]:
                earliest, latest = narrower
        return min(max(top, earliest), latest)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._announce()

    def on_resize(self, event: events.Resize) -> None:
        if self.board is not None or self.empty_words:
            self.show(self.board, self.marks, None, self.empty_words)

    def _announce(self) -> None:
        """The centre double in the border's title, and the open ends out of view counted on the
        borders, above and below."""
        board = self.board
        above = below = 0
        if board is not None:
            top, height = round(self.scroll_y), self.scrollable_content_region.height
            for line_id in board.ends:
                node = self._line_nodes.get(line_id)
                if node is None or node is self.root:
                    continue
                row = self._line_of(node)
                above += row < top
                below += row >= top + height
        told = (board.centre if board is not None else None, above, below)
        if told == self._told:
            return  # setting a border's text redraws the whole widget: only when it changes
        self._told = told
        title = Text("Board")
        if board is not None:
            title.append(" centre ")
            title.append_text(domino(board.centre[0], board.centre[1], "bold"))
        if above:
            title.append(f" ▲ {_ends(above)} above")
        self.border_title = title  # type: ignore[assignment]
        self.border_subtitle = f"▼ {_ends(below)} below" if below else ""

    # -- moving between the ends the tile fits ---------------------------------------------------------
    def next_target(self) -> bool:
        """Move the cursor to the next end where the selected tile fits (round to the first)."""
        rows = self._rows_at(self.marks.targets)
        if not rows:
            return False
        later = [row for row in rows if row > self.cursor_line]
        self.move_cursor_to_line(later[0] if later else rows[0])
        return True

    def focus_target(self, line_id: int) -> None:
        node = self._line_nodes.get(line_id)
        if node is not None:
            self.move_cursor(node)
            self.scroll_to_node(node, animate=False)

    # -- input -------------------------------------------------------------------------------------
    def on_tree_node_selected(self, event: Tree.NodeSelected[int]) -> None:
        event.stop()
        if event.node.data is not None and event.node.data != CENTRE:
            self.post_message(self.TargetChosen(self, event.node.data))


def _ends(count: int) -> str:
    return f"{count} more end{'s' if count > 1 else ''}"
