"""The rules of a game as the rules screen shows them: the Markdown shipped with the package
(`tui/rules/<game>.md`), with the sentences an option changes said for the match at hand.

A rules file names what an option decides as `{option}` (`the first to {target} wins`). For a
match, each is filled with that match's value ("30 points"), and a short section before the rules
lists every option of the match with its one-line explanation; without a match (the title screen),
with the default and the option that changes it ("100 points (option `target`)").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any

from core import get_game
from core.words import count_word

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _rounds(value: int | None) -> str:
    if value is None:
        return "ten rounds (or fewer, with the `rounds` option)"
    return f"{count_word(value)} round{'s' if value != 1 else ''}"


def _trains(value: int | None) -> str:
    if value is None:
        return "one train per player (or more, with the `centre_trains` option)"
    return f"{count_word(value)} train{'s' if value != 1 else ''}"


def _points(name: str, default: int) -> Callable[[int | None], str]:
    def words(value: int | None) -> str:
        return f"{default} points (option `{name}`)" if value is None else f"{value} points"

    return words


# What each placeholder says: for a match's value, or (None) with no match.
PHRASES: dict[str, dict[str, Callable[[Any], str]]] = {
    "chicken-foot": {"rounds": _rounds, "centre_trains": _trains},
    "doubles": {"target": _points("target", 100)},
    "moon": {"target": _points("target", 21)},
}


def option_value(value: Any) -> str:
    if value is True:
        return "on"
    if value is False:
        return "off"
    return str(value)


def rules_text(game_name: str, options: Mapping[str, Any] | None = None) -> str:
    """The rules of the game in the app's own words; with `options` (a match's, every one filled
    in), as they apply to that match."""
    game = get_game(game_name)
    try:
        text = resources.files("tui").joinpath("rules", f"{game_name}.md").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return f"# {game.title}\n\nThe rules of {game.title} are not written up here yet."
    phrases = PHRASES.get(game_name, {})

    def fill(found: re.Match[str]) -> str:
        name = found.group(1)
        if name not in phrases:
            return found.group(0)
        return phrases[name](options.get(name) if options is not None else None)

    text = PLACEHOLDER.sub(fill, text)
    if options is None:
        return text
    lines = ["## This match", ""]
    for spec in game.option_specs:
        if spec.name in options:
            lines.append(f"- `{spec.name}`: **{option_value(options[spec.name])}**. {spec.explanation}")
    title, intro, rest = text.split("\n\n", 2)  # the heading, the paragraph that opens the rules
    return "\n\n".join([title, intro, "\n".join(lines), rest])
