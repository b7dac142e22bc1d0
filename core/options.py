"""Rule options: their specifications (with one-line explanations) and the frozen mapping a state holds."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

OptionValue = int | bool | str

_TRUE_WORDS = ("on", "true", "yes", "1")
_FALSE_WORDS = ("off", "false", "no", "0")


@dataclass(frozen=True)
class OptionSpec:
    """One rule option of a game.

    `default`, `minimum` and `maximum` may be functions of the player count (Chicken Foot's
    `centre_trains` runs from the player count up to 8).
    """

    name: str
    kind: str  # "int", "bool" or "choice"
    default: OptionValue | Callable[[int], OptionValue]
    explanation: str
    minimum: int | Callable[[int], int] = 0
    maximum: int | Callable[[int], int] = 0
    choices: tuple[str, ...] = ()

    def default_for(self, players: int) -> OptionValue:
        return self.default(players) if callable(self.default) else self.default

    def bounds_for(self, players: int) -> tuple[int, int]:
        lo = self.minimum(players) if callable(self.minimum) else self.minimum
        hi = self.maximum(players) if callable(self.maximum) else self.maximum
        return lo, hi

    def allowed(self, players: int) -> str:
        """The allowed values in words, for messages and help."""
        if self.kind == "bool":
            return "on or off"
        if self.kind == "choice":
            return " or ".join(self.choices)
        lo, hi = self.bounds_for(players)
        return f"a whole number from {lo} to {hi}" if lo != hi else f"{lo}"

    def check(self, value: Any, players: int) -> OptionValue:
        """Return `value` if it is valid for this option, else raise ValueError saying why."""
        if self.kind == "bool":
            if type(value) is bool:
                return value
        elif self.kind == "choice":
            if isinstance(value, str) and value in self.choices:
                return value
        elif type(value) is int:
            lo, hi = self.bounds_for(players)
            if lo <= value <= hi:
                return value
        raise ValueError(f"option {self.name} must be {self.allowed(players)}, not {value!r}")

    def parse(self, text: str, players: int) -> OptionValue:
        """Read a value typed by a user ("rounds=3" gives "3"); ValueError if it is not valid."""
        word = text.strip().lower()
        if self.kind == "bool":
            if word in _TRUE_WORDS:
                return True
            if word in _FALSE_WORDS:
                return False
        elif self.kind == "choice":
            return self.check(word, players)
        else:
            try:
                number = int(word, 10)
            except ValueError:
                pass
            else:
                return self.check(number, players)
        raise ValueError(f"option {self.name} must be {self.allowed(players)}, not {text!r}")

    def format(self, value: OptionValue) -> str:
        if self.kind == "bool":
            return "on" if value else "off"
        return str(value)


class Options(Mapping[str, OptionValue]):
    """A frozen, hashable mapping of option names to values, with every default filled in."""

    __slots__ = ("_items", "_map")

    def __init__(self, values: Mapping[str, OptionValue] | None = None) -> None:
        items = tuple(sorted((values or {}).items()))
        self._items = items
        self._map = dict(items)

    def __getitem__(self, name: str) -> OptionValue:
        return self._map[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._map)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Options):
            return self._items == other._items
        if isinstance(other, Mapping):
            return self._map == dict(other)
        return NotImplemented

    def __setattr__(self, name: str, value: object) -> None:
        if hasattr(self, "_map"):
            raise AttributeError("Options are immutable")
        object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        return f"Options({self._map!r})"


def resolve_options(
    game_name: str, specs: tuple[OptionSpec, ...], players: int, given: Mapping[str, Any] | None
) -> Options:
    """Check `given` against `specs` and fill in every default; ValueError names what is wrong."""
    known = {spec.name: spec for spec in specs}
    given = dict(given or {})
    for name in given:
        if name not in known:
            names = ", ".join(known) or "none"
            raise ValueError(f"unknown option {name!r} for {game_name} (its options: {names})")
    return Options(
        {
            spec.name: spec.check(given[spec.name], players) if spec.name in given else spec.default_for(players)
            for spec in specs
        }
    )


def parse_options(
    game_name: str, specs: tuple[OptionSpec, ...], players: int, texts: Mapping[str, str]
) -> dict[str, OptionValue]:
    """Turn user-typed option values into typed ones; ValueError for an unknown name or a bad value."""
    known = {spec.name: spec for spec in specs}
    parsed: dict[str, OptionValue] = {}
    for name, text in texts.items():
        spec = known.get(name)
        if spec is None:
            names = ", ".join(known) or "none"
            raise ValueError(f"unknown option {name!r} for {game_name} (its options: {names})")
        parsed[name] = spec.parse(text, players)
    return parsed
