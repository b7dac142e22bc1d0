"""What every game offers: the public engine API that the interface, saves, bots and tools use."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any

from core.moves import Deal, Move
from core.options import Options, OptionSpec, parse_options, resolve_options


class Game(ABC):
    """One game's rules. Every method is pure: states go in, new states come out."""

    name: str  # as in GAME_NAMES, e.g. "chicken-foot"
    title: str  # for people, e.g. "Chicken Foot"
    rule_prefix: str  # "CF", "DB" or "MN"
    min_players: int
    max_players: int
    option_specs: tuple[OptionSpec, ...]

    # -- players and options -------------------------------------------------------------------
    def check_players(self, players: Any) -> int:
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.title} takes {self.player_range()} players, not {players!r}")
        return players

    def player_range(self) -> str:
        if self.min_players == self.max_players:
            return f"exactly {self.min_players}"
        return f"{self.min_players} to {self.max_players}"

    def resolve_options(self, players: int, options: Mapping[str, Any] | None) -> Options:
        """Every option with its default filled in; ValueError for an unknown option or bad value."""
        return resolve_options(self.name, self.option_specs, players, options)

    def parse_options(self, players: int, texts: Mapping[str, str]) -> dict[str, Any]:
        """Typed option values from user-typed text ("rounds": "3")."""
        return parse_options(self.name, self.option_specs, players, texts)

    # -- the engine ------------------------------------------------------------------------------
    @abstractmethod
    def new_game(self, players: int, options: Mapping[str, Any] | None = None, seed: int | None = None) -> Any:
        """A state before the first deal (`chance` is true). ValueError for bad players or options."""

    @abstractmethod
    def deal(self, state: Any, rng: random.Random) -> Deal:
        """The chance event due now, drawn with `rng` (the engine never owns randomness)."""

    @abstractmethod
    def legal_moves(self, state: Any) -> tuple[Move, ...]:
        """Every legal move for the seat to move, in a stable order; () when over or chance is due."""

    @abstractmethod
    def apply(self, state: Any, move: Move) -> Any:
        """The state after `move`; raises IllegalMove (and changes nothing) if it is not legal."""

    @abstractmethod
    def view(self, state: Any, seat: int) -> Any:
        """What `seat` may know of `state`, and nothing more."""

    @abstractmethod
    def determinize(self, view: Any, rng: random.Random) -> Any:
        """A full state consistent with `view`, the hidden tiles placed at random."""

    @abstractmethod
    def describe_move(
        self, state: Any, move: Move, names: tuple[str, ...] | None = None, viewer: int | None = None
    ) -> str:
        """The move, made in `state` by the seat to move, in plain words ("Ana played 3-5 on train 2"),
        as `viewer` may read it: what only one seat saw (the tile it drew) is told to that seat alone;
        with no viewer, only what every seat saw."""
