"""A player's statistics (`records.summary`) in words, in lines that fit 80 columns."""

from __future__ import annotations

import textwrap
from datetime import datetime
from typing import Any

from core.words import plural


def ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def day(seconds: int) -> str:
    try:
        return datetime.fromtimestamp(seconds).strftime("%Y-%m-%d")
    except (OverflowError, ValueError, OSError):
        return "?"


def loss_text(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def rating_line(part: dict[str, Any]) -> str:
    rating = part["rating"]
    if not part["rated_matches"]:
        return f"rating {rating['text']}, new: {rating['level']} until rated matches say more"
    trend = part["trend"]
    over = min(part["rated_matches"], 10)
    moved = f"; {trend:+d} over the last {plural(over, 'rated match')}" if trend is not None else ""
    return f"rating {rating['text']}, {rating['level']}{moved}"


def opponents_line(part: dict[str, Any]) -> str:
    cells = [f"{row['opponent']} {row['wins']} of {row['matches']}" for row in part["by_opponent"]]
    return "wins against " + " · ".join(cells) if cells else "no opponents recorded"


def accuracy_line(part: dict[str, Any]) -> str:
    accuracy = part["accuracy"]
    if not accuracy["reviewed"]:
        return "loss a decision: no reviewed match yet"
    reviewed, recent, first = accuracy["reviewed"], accuracy["recent"], accuracy["first"]
    if reviewed <= first["matches"]:  # too few to compare: all of them, once
        return f"loss a decision: {loss_text(first['mean_loss'])} over {plural(reviewed, 'reviewed match')}"
    cells = [f"last {window} {loss_text(recent[window]['mean_loss'])}" for window in recent if int(window) < reviewed]
    cells.append(f"first {first['matches']} {loss_text(first['mean_loss'])}")
    return f"loss a decision: {' · '.join(cells)} · {reviewed} reviewed"


def mistake_line(part: dict[str, Any]) -> str:
    commonest = part["commonest_mistake"]
    if commonest is None:
        return "commonest mistake: none found yet" if part["accuracy"]["reviewed"] else ""
    return (
        f"commonest mistake: {commonest['verdict']} when {commonest['kind']} "
        f"({commonest['count']} of {plural(commonest['of'], 'flawed decision')})"
    )


def not_rated_lines(part: dict[str, Any]) -> list[str]:
    """Why the matches that are not rated are not ("not rated: 3 dealt from a seed"), if any, in
    lines of 76 columns at most."""
    cells = [f"{row['matches']} {row['why']}" for row in part.get("not_rated", ())]
    return textwrap.wrap("not rated: " + " · ".join(cells), 76, subsequent_indent="  ") if cells else []


def match_line(word: str, match: dict[str, Any]) -> str:
    loss = f", {match['mean_loss']:.2f} a decision" if match["mean_loss"] is not None else ""
    return (
        f"{word} match: {day(match['ended'])} {match['match']}, {ordinal(match['place'])} of {match['players']}{loss}"
    )


def head_line(part: dict[str, Any]) -> str:
    if part.get("limited"):
        return f"{part['title']}: {plural(part['rated_matches'], 'rated match')}"
    left = f", {part['abandoned']} abandoned" if part.get("abandoned") else ""
    counts = f"{plural(part['matches'], 'match')}, {plural(part['wins'], 'win')} ({part['rated']} rated{left})"
    return f"{part['title']}: {counts}"


def detail_lines(part: dict[str, Any]) -> list[str]:
    """Everything but the head line, each line within 78 columns (but for very long names)."""
    if part.get("limited"):
        return [rating_line(part), "the rest of this record is not public"]  # the player's choice
    lines = [rating_line(part), *not_rated_lines(part), opponents_line(part), accuracy_line(part), mistake_line(part)]
    lines += [match_line("best", part["best"]), match_line("worst", part["worst"])]
    return [line for line in lines if line]


def game_lines(part: dict[str, Any]) -> list[str]:
    return [head_line(part)] + [f"  {line}" for line in detail_lines(part)]


def format_summary(data: dict[str, Any]) -> str:
    since = f" since {day(data['since'])}" if data["since"] else ""
    if not data["games"]:
        return f"{data['name']} has no finished match in the record{since}."
    lines = [f"Statistics of {data['name']}{since}"]
    for part in data["games"]:
        lines += ["", *game_lines(part)]
    return "\n".join(lines)
