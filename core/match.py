"""A match: its game, options and seats, and its history of events with an undo cursor.

The match is the driver that owns chance: each deal is drawn from a random generator derived from
the match's seed and the number of deals before it, so undoing and replaying never re-rolls a deal
(the same round gets the same tiles, whatever was played before it).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from core.game import Game
from core.moves import Deal, Move
from core.registry import get_game
from core.seats import Seat, default_seats


class Match:
    """The events of one match and a cursor into them; `state` is the state at the cursor."""

    def __init__(
        self,
        game: str,
        players: int,
        options: Mapping[str, Any] | None = None,
        seats: Sequence[Seat] | None = None,
        seed: int = 0,
        events: Iterable[Move] = (),
        cursor: int | None = None,
    ) -> None:
        self.game: Game = get_game(game)
        if type(seed) is not int:
            raise ValueError(f"a match's seed is a whole number, not {seed!r}")
        initial = self.game.new_game(players, options, seed)
        self.players: int = players
        self.options = initial.options
        self.seed = seed
        self.seats: tuple[Seat, ...] = tuple(seats) if seats is not None else default_seats(players)
        if len(self.seats) != players:
            raise ValueError(f"{players} players need {players} seats, not {len(self.seats)}")
        self._events: list[Move] = []
        self._states: list[Any] = [initial]
        self.cursor = 0
        for event in events:
            self.apply(event)
        if cursor is not None:
            if type(cursor) is not int or not 0 <= cursor <= len(self._events):
                raise ValueError(f"the cursor must be between 0 and {len(self._events)}, not {cursor!r}")
            self.cursor = cursor

    # -- reading -------------------------------------------------------------------------------
    @property
    def game_name(self) -> str:
        return self.game.name

    @property
    def state(self) -> Any:
        return self._states[self.cursor]

    @property
    def events(self) -> tuple[Move, ...]:
        """Every event, including any redo tail beyond the cursor."""
        return tuple(self._events)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)

    def state_at(self, index: int) -> Any:
        """The state after the first `index` events."""
        return self._states[index]

    def view(self, seat: int) -> Any:
        return self.game.view(self.state, seat)

    def legal_moves(self) -> tuple[Move, ...]:
        return self.game.legal_moves(self.state)

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(i for i, seat in enumerate(self.seats) if not seat.is_bot)

    # -- playing -------------------------------------------------------------------------------
    def apply(self, move: Move) -> Any:
        """Play `move` at the cursor (discarding any redo tail); IllegalMove changes nothing."""
        new_state = self.game.apply(self.state, move)
        del self._events[self.cursor :]
        del self._states[self.cursor + 1 :]
        self._events.append(move)
        self._states.append(new_state)
        self.cursor += 1
        return new_state

    def deal_rng(self) -> random.Random:
        """The generator for the next deal: fixed by the seed and how many deals came before."""
        deals = sum(1 for event in self._events[: self.cursor] if type(event) is Deal)
        return random.Random(f"{self.seed}:deal:{deals}")

    def deal(self) -> Any:
        """Draw and apply the chance event that is due."""
        return self.apply(self.game.deal(self.state, self.deal_rng()))

    # -- undo and redo -------------------------------------------------------------------------
    def _is_decision(self, index: int) -> bool:
        """Whether the state after `index` events waits for a decision that undo stops at: a human
        seat's, or any seat's in a match without humans."""
        state = self._states[index]
        if state.chance or state.to_move is None:
            return False
        humans = self.humans
        return not humans or state.to_move in humans

    def undo_point(self) -> int | None:
        """The cursor an undo goes back to: the previous human decision (None: nothing to undo).
        `state_at(point).to_move` is the seat whose move the undo takes back."""
        for index in range(self.cursor - 1, -1, -1):
            if self._is_decision(index):
                return index
        return None

    def can_undo(self) -> bool:
        return self.undo_point() is not None

    def undo(self) -> bool:
        """Step back to the previous human decision, undoing the bot moves after it."""
        point = self.undo_point()
        if point is None:
            return False
        self.cursor = point
        return True

    def can_redo(self) -> bool:
        return self.cursor < len(self._events)

    def redo(self) -> bool:
        """Step forward to the next human decision (or the end of the history)."""
        if not self.can_redo():
            return False
        self.cursor += 1
        while self.cursor < len(self._events) and not self._is_decision(self.cursor):
            self.cursor += 1
        return True

    # -- comparing -----------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return (
            self.game_name == other.game_name
            and self.players == other.players
            and self.options == other.options
            and self.seats == other.seats
            and self.seed == other.seed
            and self._events == other._events
            and self.cursor == other.cursor
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Match({self.game_name!r}, players={self.players}, events={len(self._events)}, cursor={self.cursor})"
