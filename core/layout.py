"""The layout of the draw games as a tree of lines of play.

The root is the centre double. A *line* is one chain of tiles that grows outwards from a double: a
train or a toe in Chicken Foot, a spinner's arm in Doubles. A double played at the end of a line
closes that line and opens new, empty lines branching from it (Chicken Foot's three toes, the
three free sides of a Doubles spinner); those lines are the double's children in the tree.

Every open end is a target, named by its line's number. Empty lines of one double are
interchangeable, so only the first empty line of each double is an open end: a player chooses the
double, not which of its identical free sides.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from core.moves import Play, play
from core.tiles import Tile

CENTRE = -1  # the parent of the lines that start on the centre double

# Chicken Foot keeps a layout in a plain form on its hot paths: the same fields as Layout and Line
# in plain tuples, `(centre, lines, ends, empty_ends)` with each line `(parent, tiles, open)`.
# Python builds, reads and unpacks a plain tuple several times faster than a named tuple, and a
# play rebuilds the layout. A state's `board` wraps its plain layout as a Layout when it is read
# (`board_property`). A named tuple is a tuple, so the two forms compare and hash alike, and the
# functions below take either. (Doubles keeps less: its open ends, see `core.games.doubles`, and
# replays its plays through `plain_play` when its board is read.)
_new = tuple.__new__
PlainLayout = tuple[Any, ...]


class Line(NamedTuple):
    """One line of play. `tiles` run from the double it starts on outwards."""

    parent: int  # the line that ends in this line's double, or CENTRE
    tiles: tuple[Tile, ...]
    open: int | None  # the number showing at the far end; None once a double has closed the line


class Layout(NamedTuple):
    """The centre double, every line of play, and the open ends that can take a tile."""

    centre: Tile
    lines: tuple[Line, ...]
    ends: tuple[int, ...]  # the lines whose far end is open; the number is the line's `open`
    empty_ends: tuple[int, ...]  # the open ends that are empty lines: free sides of a double

    @staticmethod
    def start(centre: Tile, branches: int) -> Layout:
        """A layout of just the centre double with `branches` empty lines on it."""
        return as_layout(plain_start(centre, branches))

    def play(self, line_id: int, tile: Tile, branches: int) -> Layout:
        """The layout with `tile` added at the open end of line `line_id` (see `plain_play`)."""
        return as_layout(plain_play(self, play(tile, line_id), branches))

    # -- questions about the layout ------------------------------------------------------------
    def tiles(self) -> Iterator[Tile]:
        """Every tile on the table, the centre double first."""
        yield self.centre
        for line in self.lines:
            yield from line.tiles

    def children(self, line_id: int) -> tuple[int, ...]:
        """The lines that branch from the double closing `line_id` (CENTRE: from the centre)."""
        return tuple(i for i, line in enumerate(self.lines) if line.parent == line_id)

    def base_double(self, line_id: int) -> Tile:
        """The double that line `line_id` starts on."""
        parent = self.lines[line_id].parent
        return self.centre if parent == CENTRE else self.lines[parent].tiles[-1]

    def showing(self, line_id: int) -> int:
        """The number a tile must match to go on line `line_id` (its open end, or its double)."""
        line = self.lines[line_id]
        if line.open is not None:
            return line.open
        return line.tiles[-1][0]

    def oriented(self, line_id: int) -> tuple[tuple[int, int], ...]:
        """The line's tiles as (near, far) pairs, read from its double outwards."""
        number = self.base_double(line_id)[0]
        pairs = []
        for tile in self.lines[line_id].tiles:
            far = tile.other(number)
            pairs.append((number, far))
            number = far
        return tuple(pairs)


# -- the plain form ------------------------------------------------------------------------------
def plain_start(centre: Tile, branches: int) -> PlainLayout:
    """The plain layout of just the centre double with `branches` empty lines on it."""
    return (centre, ((CENTRE, (), centre[0]),) * branches, (0,), (0,))


def plain_play(layout: PlainLayout, move: Play, branches: int) -> PlainLayout:
    """The plain layout after `move`: its tile added at the open end of line `move.target`.

    The caller has checked that the end is open and that the tile matches it. A double closes
    the line and opens `branches` empty lines on itself.
    """
    centre, lines, ends, empty_ends = layout
    line_id = move.target
    parent, tiles, shown = lines[line_id]
    tile = move.tile
    low = move.low
    # Lines and ends are changed through lists: cheaper than slicing tuples around the change.
    new_lines = list(lines)
    if low == move.high:
        count = len(lines)
        new_lines[line_id] = (parent, tiles + (tile,), None)
        new_lines += ((line_id, (), shown),) * branches
        changed = list(ends)
        changed[changed.index(line_id)] = count
        ends = tuple(changed)
        empty_ends += (count,)
        now_open = count
    else:
        new_lines[line_id] = (parent, tiles + (tile,), move.high if low == shown else low)
        now_open = line_id
    if tiles:
        return (centre, tuple(new_lines), ends, empty_ends)
    # The first empty line of a double was filled: the next one, if any, is now open, and takes
    # its place among the empty ends.
    sibling = line_id + 1
    if sibling < len(lines) and lines[sibling][0] == parent and not lines[sibling][1]:
        changed = list(ends)
        changed.insert(changed.index(now_open) + 1, sibling)
        ends = tuple(changed)
        changed = list(empty_ends)
        changed[changed.index(line_id)] = sibling
        empty_ends = tuple(changed)
    else:
        at = empty_ends.index(line_id)
        empty_ends = empty_ends[:at] + empty_ends[at + 1 :]
    return (centre, tuple(new_lines), ends, empty_ends)


def as_layout(layout: PlainLayout) -> Layout:
    """The Layout of a plain layout (or of a Layout: the same one)."""
    if type(layout) is Layout:
        return layout  # type: ignore[return-value]
    centre, lines, ends, empty_ends = layout
    return _new(Layout, (centre, tuple([_new(Line, line) for line in lines]), ends, empty_ends))


def as_plain(layout: PlainLayout) -> PlainLayout:
    """The plain form of a Layout (or of a plain layout: the same one)."""
    if type(layout) is tuple:
        return layout
    centre, lines, ends, empty_ends = layout
    return (centre, tuple([tuple(line) for line in lines]), tuple(ends), tuple(empty_ends))


def board_property() -> property:
    """`state.board`: the state's plain layout (its `table` field) as a Layout, or None."""

    def board(state: Any) -> Layout | None:
        table = state.table
        return None if table is None else as_layout(table)

    return property(board)
