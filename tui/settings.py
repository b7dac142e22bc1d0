"""What a new match needs (game, seats, options, a seed chosen for practice), checked without Textual.

The new-match screen and `dominoes new` both build a `MatchSettings`; a bad value raises
ValueError with a one-line reason, so the command line can exit with status 2 before the
interface starts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from core import get_game
from core.bots import BOT_LEVELS
from core.seats import Seat, check_name

if TYPE_CHECKING:
    from core.match import Match


@dataclass(frozen=True)
class MatchSettings:
    game: str
    seats: tuple[Seat, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int | None = None

    @property
    def players(self) -> int:
        return len(self.seats)

    def new_match(self) -> Match:
        """A fresh match: with no seed, dealt from a secret drawn here from the operating system
        (`new_secret`), which nobody sees before the match is over; with a seed, its practice deals."""
        from core.match import Match  # the engine loads when the first match starts, not at start-up

        if self.seed is not None:
            return Match(self.game, self.players, self.options, self.seats, self.seed)
        return Match(self.game, self.players, self.options, self.seats, None, secret=new_secret())

    def rematch(self, seed: int | None) -> MatchSettings:
        """The same table again: with the next seed after a chosen one, else a new secret."""
        return MatchSettings(self.game, self.seats, self.options, seed)


def new_secret() -> bytes:
    """A match's secret: 256 bits from the operating system's random source (core derives every
    deal from it, and never draws one itself)."""
    import secrets  # here: the title screen's first frame does not wait for hashlib

    from core.chance import SECRET_BYTES

    return secrets.token_bytes(SECRET_BYTES)


def seat_kind(text: str) -> tuple[str, str | None]:
    """ "human" -> ("human", None); "bot:easy" or "easy" -> ("bot", "easy"); ValueError otherwise."""
    word = text.strip().lower()
    if word == "human":
        return "human", None
    level = word.removeprefix("bot:")
    if level == "bot":
        level = "easy"
    if level not in BOT_LEVELS:
        raise ValueError(f"a seat is 'human' or a bot level ({', '.join(BOT_LEVELS)}), not {text!r}")
    return "bot", level


def build_settings(
    game_name: str,
    players: int,
    kinds: Sequence[str],
    names: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
    seed: int | None = None,
) -> MatchSettings:
    """Check everything a new match needs; ValueError says what is wrong in one line."""
    game = get_game(game_name)
    players = game.check_players(players)
    if len(kinds) != players:
        raise ValueError(f"{players} players need {players} seats, not {len(kinds)}")
    resolved = game.resolve_options(players, options)
    seats = []
    for index, kind_text in enumerate(kinds):
        kind, level = seat_kind(kind_text)
        given = (names[index] if index < len(names) else "").strip()
        name = check_name(given) if given else default_name(index, kind, level)
        seats.append(Seat(name, kind, level))
    if len({seat.name.casefold() for seat in seats}) != len(seats):
        raise ValueError("every player needs a different name")
    if seed is not None and (type(seed) is not int or seed < 0):
        raise ValueError(f"the seed is a whole number from 0 up, not {seed!r}")
    return MatchSettings(game.name, tuple(seats), dict(resolved), seed)


def default_name(index: int, kind: str, level: str | None) -> str:
    if index == 0 and kind == "human":
        return "You"
    return f"Seat {index + 1}"
