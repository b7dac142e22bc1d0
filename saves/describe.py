"""`dominoes saves show MATCH`: a saved match's move log in plain words, round by round.

Each round's deal (every hand, and the stock in drawing order) is shown once that round is over,
never while it is in play: the log of a match in progress gives away nothing its table hides. So
with the match's chance: the commitment players were shown at the start is given whole, and the
secret behind it (or the seed of a match of several humans) only once the match is over.
"""

from __future__ import annotations

from typing import Any

from core.match import Match
from core.moves import Deal
from core.tiles import format_tiles
from saves.record import SavedMatch
from saves.summary import round_text, round_word, scores_text, status_text, timestamp

STOCK_WORDS = {"moon": "widow"}  # Moon keeps a widow; the draw games draw from a stock


def describe_match(record: SavedMatch, notice: str | None = None) -> str:
    match = record.match
    game = match.game
    options = ", ".join(f"{spec.name}={spec.format(match.options[spec.name])}" for spec in game.option_specs)
    lines = [
        f"Match {record.match_id}: {game.title}, {match.players} players",
        "Seats: " + ", ".join(f"{number}. {seat.describe()}" for number, seat in enumerate(match.seats, 1)),
        f"Options: {options}" if options else "Options: none",
        f"Started {timestamp(record.created)}, last played {timestamp(record.updated)}, "
        f"saved by dominoes {record.app_version}",
        f"Now: {round_text(match)}, {status_text(match)}",
    ]
    lines += chance_lines(record)
    if notice:
        lines.append(f"Note: {notice}")
    for start, end in rounds(match):
        lines.append("")
        lines.extend(describe_round(match, start, end))
    if match.cursor == 0:
        lines += ["", "Nothing has been played yet."]
    undone = len(match.events) - match.cursor
    if undone:
        lines += ["", f"({undone} undone event{'s' if undone != 1 else ''} after this point can be redone.)"]
    return "\n".join(lines)


def chance_lines(record: SavedMatch) -> list[str]:
    """Where the deals come from, and the mark of an undo into a shown round."""
    match = record.match
    over = match.state.over
    lines = []
    if match.secret is not None:
        lines.append(f"Commitment: {match.commitment} (shown to the players at the start as {match.commitment[:16]})")  # type: ignore[index]
        if over:
            lines.append(f"Secret: {match.secret.hex()} (check every deal: dominoes verify {record.match_id})")
        else:
            lines.append("Secret: shown once the match is over, with the deals it gave")
    elif match.seed is not None:
        if over or not match.shared:
            lines.append(f"Deals: from the seed {match.seed} (practice: whoever knows it knows every deal)")
        else:
            lines.append("Deals: from a seed, shown once the match is over")
    if match.undid_revealed_round:
        lines.append(f"Practice: an undo went back into a {round_word(match)} whose hands had been shown.")
    return lines


def rounds(match: Match) -> list[tuple[int, int]]:
    """(first, end) event indexes of each round up to the cursor: a round starts with its deal."""
    events = match.events[: match.cursor]
    starts = [index for index, event in enumerate(events) if type(event) is Deal]
    ends = starts[1:] + [len(events)] if starts else []
    return list(zip(starts, ends, strict=True))


def describe_round(match: Match, start: int, end: int) -> list[str]:
    names = match.names
    events = match.events
    number = match.state_at(start + 1).round
    redeal = start > 0 and match.state_at(start).round == number
    word = round_word(match).capitalize()
    lines = [f"{word} {number}" + (" (dealt again)" if redeal else "")]
    for index in range(start, end):
        lines.append(f"  {index + 1:>4}. {match.game.describe_move(match.state_at(index), events[index], names)}")
    after = match.state_at(end)
    if not (after.chance or after.over):
        lines.append("  The round is in play: its deal is shown once it is over.")
        return lines
    before = match.state_at(start).scores
    points = tuple(total - earlier for total, earlier in zip(after.scores, before, strict=True))
    lines += [
        f"  {word} {number} over. Points: {scores_text(match, points)}.",
        f"  Totals: {scores_text(match, after.scores)}.",
        "  The deal:",
    ]
    deal: Any = events[start]
    for seat, hand in zip(match.seats, deal.hands, strict=True):
        lines.append(f"    {seat.name}: {format_tiles(hand)}")
    stock = STOCK_WORDS.get(match.game_name, "stock, in drawing order")
    lines.append(f"    {stock}: {format_tiles(deal.stock) or 'none'}")
    return lines
