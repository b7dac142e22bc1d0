"""What the table screen reads and asks for, whoever holds the match.

A table is either a `Match` in this process (`LocalTable`) or a table server across the network
(`RemoteTable`, in tui/remote_table.py, which only ever has its own seat's view). The screen draws
from the viewer's `View` and the legal moves, so both look and play the same.
"""

from __future__ import annotations

from typing import Any, Protocol

from core import Match
from core.game import Game
from core.moves import Move


class TableModel(Protocol):
    """A table as the screen sees it. `apply` may raise `IllegalMove` (a local table) or send the
    move away and learn later whether it was refused (a remote one)."""

    viewer: int  # the seat whose hand is shown

    @property
    def game(self) -> Game: ...

    @property
    def game_name(self) -> str: ...

    @property
    def names(self) -> tuple[str, ...]: ...

    @property
    def players(self) -> int: ...

    @property
    def seats(self) -> tuple[str, ...]:
        """Per seat: "human", "away", "open", or a bot's level."""
        ...

    @property
    def cursor(self) -> int:
        """Changes with every change of the table (a move, a deal, an undo)."""
        ...

    def view(self) -> Any:
        """The viewer's `View`: the board, the hand, the scores, the public record."""
        ...

    def legal_moves(self) -> tuple[Move, ...]:
        """The legal moves of the human to move here; () when no one here is to decide."""
        ...

    def human_to_move(self) -> bool:
        """A human at this table is to decide (not a bot, not a deal, not the end)."""
        ...

    def log_lines(self, limit: int) -> list[str]:
        """The last `limit` moves in plain words, oldest first."""
        ...

    def can_undo(self) -> bool: ...

    def undo_refusal(self) -> str | None:
        """Why the undo due is not allowed at this table (a round's end stops it), if it is not."""
        ...

    def can_redo(self) -> bool: ...

    def apply(self, move: Move) -> None: ...

    def undo(self) -> None: ...

    def redo(self) -> None: ...


class LocalTable:
    """A `Match` played at this keyboard: every seat's view is at hand, so hot-seat play only moves
    `viewer`; undo and redo move the match's cursor."""

    def __init__(self, match: Match, viewer: int | None = None) -> None:
        self.match = match
        self.viewer = viewer if viewer is not None else (match.humans[0] if match.humans else 0)
        self._described: dict[tuple[int, Move, int], str] = {}

    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def game_name(self) -> str:
        return self.match.game_name

    @property
    def names(self) -> tuple[str, ...]:
        return self.match.names

    @property
    def players(self) -> int:
        return self.match.players

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple((seat.level or "easy") if seat.is_bot else "human" for seat in self.match.seats)

    @property
    def cursor(self) -> int:
        return self.match.cursor

    @property
    def state(self) -> Any:
        return self.match.state

    def view(self) -> Any:
        return self.match.view(self.viewer)

    def legal_moves(self) -> tuple[Move, ...]:
        return self.match.legal_moves()

    def human_to_move(self) -> bool:
        state = self.match.state
        return (
            not state.chance
            and not state.over
            and state.to_move is not None
            and not self.match.seats[state.to_move].is_bot
        )

    def log_lines(self, limit: int) -> list[str]:
        """As the viewer may read them: the tiles it drew itself are named (hot seat: per viewer)."""
        match = self.match
        viewer = self.viewer
        lines = []
        for index in range(max(0, match.cursor - limit), match.cursor):
            event = match.events[index]
            key = (index, event, viewer)
            line = self._described.get(key)
            if line is None:
                line = match.game.describe_move(match.state_at(index), event, match.names, viewer)
                self._described[key] = line
            lines.append(line)
        return lines

    def can_undo(self) -> bool:
        return self.match.can_undo()

    def undo_refusal(self) -> str | None:
        return self.match.undo_refusal()

    def can_redo(self) -> bool:
        return self.match.can_redo()

    def apply(self, move: Move) -> None:
        self.match.apply(move)

    def undo(self) -> None:
        self.match.undo()

    def redo(self) -> None:
        self.match.redo()


def as_table(source: Match | TableModel) -> TableModel:
    """A table for a `Match` (seen from its first human seat), or the table itself."""
    return LocalTable(source) if isinstance(source, Match) else source
