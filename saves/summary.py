"""A saved match in a few words: its round, whether it is over, the scores, when it was played."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from core.match import Match

ROUND_WORDS = {"moon": "hand"}  # Moon plays hands; the draw games play rounds


def round_word(match: Match) -> str:
    return ROUND_WORDS.get(match.game_name, "round")


def round_text(match: Match) -> str:
    number = match.state.round
    if number == 0:
        return "not dealt yet"
    rounds = match.options.get("rounds")
    word = round_word(match)
    return f"{word} {number} of {rounds}" if isinstance(rounds, int) else f"{word} {number}"


def status_text(match: Match) -> str:
    state = match.state
    if not state.over:
        return "in progress"
    winners = [match.seats[seat].name for seat in state.winners]
    if len(winners) == 1:
        return f"finished, {winners[0]} won"
    return f"finished, {join_names(winners)} shared the win"


def scores_text(match: Match, scores: Sequence[int], kinds: bool = False) -> str:
    """ "Ana 12, Bo 30"; with `kinds`, bots are marked: "Ana 12, Bo (easy bot) 30"."""
    return ", ".join(
        f"{seat.describe() if kinds else seat.name} {score}" for seat, score in zip(match.seats, scores, strict=True)
    )


def join_names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def timestamp(seconds: int) -> str:
    """Local time, to the minute."""
    try:
        return datetime.fromtimestamp(seconds).strftime("%Y-%m-%d %H:%M")
    except (OverflowError, ValueError, OSError):  # a time at the edge of what the platform can show
        return f"{seconds} seconds after 1970"
