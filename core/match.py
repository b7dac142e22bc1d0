"""A match: its game, options and seats, and its history of events with an undo cursor.

The match is the driver that owns chance: each deal is drawn from a random generator derived from
the match's chance (a secret given by whoever starts the match, or a seed chosen for practice: see
`core.chance`) and the number of deals before it, so undoing and replaying never re-rolls a deal
(the same round gets the same tiles, whatever was played before it).

Undo keeps secrets: at a table with more than one human it never goes back into a round whose
hands have been shown (the round's end reveals them); with one human (or none) it may, and the
match is then marked (`undid_revealed_round`), as practice rather than a fair match. A match that
people have watched (`watched`, set by the table that served them) is treated as shared: its
watchers saw the hands at the round's end too, and must not see that round played again.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from core import chance
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
        seed: int | None = 0,
        events: Iterable[Move] = (),
        cursor: int | None = None,
        *,
        secret: bytes | None = None,
        commitment: str | None = None,
        undid_revealed_round: bool = False,
    ) -> None:
        """The deals come from `secret` (`core.chance.SECRET_BYTES` bytes the caller drew) when it
        is given, and `seed` is then left out (None or its default); otherwise from the whole
        number `seed`. A match with neither (seed None) replays its events but cannot deal: a copy
        for a process that must not hold the secret. `commitment` is the one the players were
        shown (by default the secret's own); `undid_revealed_round` carries the mark of a save."""
        self.game: Game = get_game(game)
        if secret is not None:
            chance.check_secret(secret)
            if seed is not None and (type(seed) is not int or seed != 0):
                raise ValueError("a match's deals come from a seed or from a secret, not both")
            seed = None
        elif seed is not None and type(seed) is not int:
            raise ValueError(f"a match's seed is a whole number, not {seed!r}")
        if commitment is not None and (type(commitment) is not str or len(commitment) != 64):
            raise ValueError("a commitment is 64 hex digits")
        initial = self.game.new_game(players, options, seed)
        self.players: int = players
        self.options = initial.options
        self.seed: int | None = seed
        self.secret: bytes | None = secret
        self.commitment: str | None = (
            commitment if commitment is not None else chance.commitment(secret) if secret is not None else None
        )
        self.undid_revealed_round: bool = bool(undid_revealed_round)
        self.watched = False  # someone at no seat has watched: undo keeps the rounds they saw shown
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

    @property
    def seed_chosen(self) -> bool:
        """Whether the deals come from a seed (chosen for practice, or a match saved before deals
        came from secrets, whose seed could be found by trying them all): anyone who knows it
        knows every deal. False for a match dealt from a secret."""
        return self.seed is not None

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
        """The generator for the next deal: fixed by the match's chance and how many deals came
        before. ValueError for a copy that holds neither seed nor secret."""
        deals = sum(1 for event in self._events[: self.cursor] if type(event) is Deal)
        return chance.deal_rng(self.seed, self.secret, deals)

    def decision_seed(self, seat: int) -> int:
        """The seed of a bot's decision for `seat` at the cursor: the same decision again after an
        undo and a redo, or after resuming the save."""
        return chance.decision_seed(self.seed, self.secret, seat, self.cursor)

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
        `state_at(point).to_move` is the seat whose move the undo takes back. Whether the undo is
        allowed is `undo_refusal`'s to say."""
        for index in range(self.cursor - 1, -1, -1):
            if self._is_decision(index):
                return index
        return None

    @property
    def shared(self) -> bool:
        """More than one human plays: what one of them sees of another's hand matters."""
        return len(self.humans) > 1

    def revealed_round(self, point: int) -> int | None:
        """The round (Moon: hand) whose end lies after `point` and up to the cursor, if one does:
        its end showed the hands (every seat's view of a finished round reveals them), so going
        back to `point` would play that round again with its hands known."""
        for index in range(self.cursor, point, -1):
            state = self._states[index]
            if state.round > 0 and (state.chance or state.over):
                return state.round
        return None

    def undo_refusal(self) -> str | None:
        """Why the undo due now is not allowed, in one line, or None (allowed, or nothing to undo):
        at a table with another human, or one that people have watched, undo never goes back into a
        round whose hands were shown."""
        point = self.undo_point()
        if point is None or not (self.shared or self.watched):
            return None
        number = self.revealed_round(point)
        if number is None:
            return None
        word = "hand" if self.game_name == "moon" else "round"
        shown = "every player" if self.shared else "everyone watching"
        return (
            f"Undo stops at the end of {word} {number}: its hands have been shown to {shown}, "
            "so it is not played again."
        )

    def can_undo(self) -> bool:
        return self.undo_point() is not None and self.undo_refusal() is None

    def undo(self) -> bool:
        """Step back to the previous human decision, undoing the bot moves after it. False if there
        is nothing to undo or `undo_refusal` forbids it. An undo into a round whose hands were shown
        (with one human at most) marks the match: `undid_revealed_round`."""
        point = self.undo_point()
        if point is None or self.undo_refusal() is not None:
            return False
        if self.revealed_round(point) is not None:
            self.undid_revealed_round = True
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
            and self.secret == other.secret
            and self.commitment == other.commitment
            and self.undid_revealed_round == other.undid_revealed_round
            and self._events == other._events
            and self.cursor == other.cursor
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Match({self.game_name!r}, players={self.players}, events={len(self._events)}, cursor={self.cursor})"
