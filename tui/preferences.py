"""The player's preferences (theme, bot speed, default names and seats, whether a finished match is
reviewed at once, what a served player shows on the leaderboard), kept as JSON.

They live in the user's config directory, or in `$DOMINOES_HOME` when it is set (tests use it).
A missing, oversized or damaged file gives the defaults for whatever cannot be read: preferences
are a convenience and never stop the game from starting.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from core.seats import check_name
from records.visibility import VISIBILITIES
from saves.json_file import load_json_file

MAX_BYTES = 64 * 1024  # a preferences file is a few hundred bytes; refuse to read anything huge
FILE_NAME = "preferences.json"
BOT_SPEEDS = ("instant", "normal", "slow")
SPEED_DELAYS = {"instant": 0.0, "normal": 0.7, "slow": 1.8}  # seconds a bot's move stays "thinking"
MAX_SEATS = 8


def default_names() -> tuple[str, ...]:
    return ("You",) + tuple(f"Seat {i}" for i in range(2, MAX_SEATS + 1))


def default_seat_kinds() -> tuple[str, ...]:
    return ("human",) + ("bot:easy",) * (MAX_SEATS - 1)


@dataclass(frozen=True)
class Preferences:
    theme: str = "textual-dark"
    bot_speed: str = "normal"
    names: tuple[str, ...] = field(default_factory=default_names)
    seats: tuple[str, ...] = field(default_factory=default_seat_kinds)  # "human" or "bot:LEVEL"
    review_after_match: bool = True  # weigh a finished match's review in the background, for the record
    leaderboard: str = VISIBILITIES[0]  # on a server: "private", "listed" (name and rating) or "public"

    def to_json(self) -> str:
        data = asdict(self)
        data["names"] = list(self.names)
        data["seats"] = list(self.seats)
        return json.dumps(data, indent=2)

    @staticmethod
    def from_data(data: Any) -> Preferences:
        """Every field that is present and sensible; the default for every other."""
        base = Preferences()
        if not isinstance(data, dict):
            return base
        theme = data.get("theme")
        speed = data.get("bot_speed")
        return Preferences(
            theme=theme if isinstance(theme, str) and 0 < len(theme) <= 64 else base.theme,
            bot_speed=speed if speed in BOT_SPEEDS else base.bot_speed,
            names=_names(data.get("names"), base.names),
            seats=_strings(data.get("seats"), base.seats, 32),
            review_after_match=_flag(data.get("review_after_match"), base.review_after_match),
            leaderboard=data["leaderboard"] if data.get("leaderboard") in VISIBILITIES else base.leaderboard,
        )


def _flag(value: Any, fallback: bool) -> bool:
    return value if isinstance(value, bool) else fallback


def _strings(value: Any, fallback: tuple[str, ...], longest: int) -> tuple[str, ...]:
    if not isinstance(value, list):
        return fallback
    cleaned = [item.strip() if isinstance(item, str) else "" for item in value[:MAX_SEATS]]
    return tuple(
        item if 0 < len(item) <= longest else fallback[i]
        for i, item in enumerate(cleaned + [""] * (MAX_SEATS - len(cleaned)))
    )


def _names(value: Any, fallback: tuple[str, ...]) -> tuple[str, ...]:
    """The names kept for the new-match form: any that is not a valid name (a file may say
    anything) falls back to its default."""
    names = list(_strings(value, fallback, 64))
    for index, name in enumerate(names):
        try:
            names[index] = check_name(name)
        except ValueError:
            names[index] = fallback[index]
    return tuple(names)


def config_dir() -> Path:
    home = os.environ.get("DOMINOES_HOME")
    if home:
        return Path(home)
    from platformdirs import user_config_dir

    return Path(user_config_dir("dominoes", appauthor=False))


def preferences_path() -> Path:
    return config_dir() / FILE_NAME


def load_preferences(path: Path | None = None) -> Preferences:
    path = path or preferences_path()
    try:
        data = load_json_file(path, MAX_BYTES)
    except (OSError, ValueError):
        return Preferences()
    return Preferences.from_data(data)


def save_preferences(preferences: Preferences, path: Path | None = None) -> bool:
    """Write atomically (a temporary file, then a rename); False if the directory is not writable."""
    path = path or preferences_path()
    temporary = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(preferences.to_json() + "\n", encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink()
        return False
    return True
