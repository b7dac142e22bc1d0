"""BoardTree: the layout of a draw game as a Textual `Tree`.

The root is the centre double. Each node is one line of play (a train, a toe, a spinner's arm)
labelled with its chain of tiles, so a long train stays one readable line; the lines that branch
from a double closing a line are that node's children. Node data is the line id (the root's is
`CENTRE`), which is also the target a `Play` names.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from core.layout import CENTRE, Layout
from tui.widgets.dominoes import chain, domino, number

OPEN_MARK = "◀"  # an open end that takes a tile
TARGET_STYLE = "bold reverse green"
LAST_STYLE = "bold reverse yellow"
LineNamer = Callable[[Layout, int], str]


def default_line_name(board: Layout, line_id: int) -> str:
    return f"line {line_id + 1}"


@dataclass(frozen=True)
class Marks:
    """What to point out on the board besides the tiles themselves."""

    targets: Collection[int] = ()  # open ends where the selected tile may go
    last_line: int | None = None  # the line that took the last tile played
    locked: Collection[int] = ()  # numbers no tile may be played against (Doubles)
    foot_size: int = 0  # how many lines a double opens when it must be filled first (CF-10)


class BoardTree(Tree[int]):
    """The board. Enter (or a click) on a line plays the selected tile there."""

    BINDINGS = [Binding("enter", "select_cursor", "Play here", id="board.play")]

    @dataclass
    class TargetChosen(Message):
        board_tree: BoardTree
        line_id: int

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__("", data=CENTRE, id=id, classes=classes)
        self.auto_expand = False
        self.show_root = True
        self.guide_depth = 2
        self.board: Layout | None = None
        self.border_title = "Board"
        self.line_name: LineNamer = default_line_name
        self._line_nodes: dict[int, TreeNode[int]] = {}

    def show(self, board: Layout | None, marks: Marks, line_name: LineNamer | None = None) -> None:
        """Rebuild the tree for `board`; the cursor stays on the line it was on when possible."""
        self.board = board
        if line_name is not None:
            self.line_name = line_name
        cursor = self.cursor_node.data if self.cursor_node is not None else None
        self.clear()
        self._line_nodes = {CENTRE: self.root}
        if board is None:
            self.root.set_label(Text("(the table is empty until the tiles are dealt)", style="dim"))
            return
        self.root.set_label(self._centre_label(board))
        self._add_children(self.root, board, CENTRE, marks)
        self.root.expand()
        preferred = next(iter(marks.targets), None) if marks.targets else cursor
        node = self._line_nodes.get(preferred) if preferred is not None else None
        if node is not None:
            self.move_cursor(node)

    def focus_target(self, line_id: int) -> None:
        node = self._line_nodes.get(line_id)
        if node is not None:
            self.move_cursor(node)
            self.scroll_to_node(node, animate=False)

    # -- labels ------------------------------------------------------------------------------------
    def _centre_label(self, board: Layout) -> Text:
        centre = board.centre
        text = Text("centre ")
        text.append_text(domino(centre[0], centre[1], "bold"))
        return text

    def _add_children(self, parent: TreeNode[int], board: Layout, line_id: int, marks: Marks) -> None:
        for child in board.children(line_id):
            node = parent.add(self._label(board, child, marks), data=child, expand=True)
            self._line_nodes[child] = node
            line = board.lines[child]
            if line.open is None:
                self._add_children(node, board, child, marks)
            else:
                node.allow_expand = False

    def _label(self, board: Layout, line_id: int, marks: Marks) -> Text:
        line = board.lines[line_id]
        text = Text()
        name = self.line_name(board, line_id)
        text.append(f"{name}: ", style="bold" if line_id in marks.targets else "")
        pairs = board.oriented(line_id)
        if pairs:
            text.append_text(chain(pairs, LAST_STYLE, last=line_id == marks.last_line))
        else:
            text.append("empty", style="dim italic")
        if line.open is not None and line_id in board.ends:
            text.append(f" {OPEN_MARK}")
            text.append_text(number(line.open, "underline" if line.open in marks.locked else ""))
            if line.open in marks.locked:
                # DB-7: only the double of a locked number may go here, and it unlocks it.
                text.append(f" locked: {line.open}-{line.open} only", style="dim")
        elif marks.foot_size:
            toes = board.children(line_id)
            filled = sum(1 for toe in toes if board.lines[toe].tiles)
            if filled < len(toes):
                text.append(f"  chicken foot {filled} of {len(toes)} toes", style="bold reverse red")
        if line_id in marks.targets:
            text.append("  ")
            text.append(" play here ", style=TARGET_STYLE)
        return text

    # -- input -------------------------------------------------------------------------------------
    def on_tree_node_selected(self, event: Tree.NodeSelected[int]) -> None:
        event.stop()
        if event.node.data is not None and event.node.data != CENTRE:
            self.post_message(self.TargetChosen(self, event.node.data))
