"""A joined player's check of a finished match: the secret the table revealed at the end gives the
commitment it sent at the start, every deal is the one the secret gives, and every hand this seat
was shown is the one the revealed history gives. A copy of the match is kept in the player's own
saves, so `dominoes verify MATCH` can check it again later. No Textual here.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from core.bots import BOT_LEVELS
from core.chance import SHORT_COMMITMENT
from core.fairness import check_deals
from core.match import Match
from core.seats import Seat
from net.messages import Revealed


@dataclass(frozen=True)
class FairCheck:
    """`fair`: every check passed; `lines`: what was found, in short lines for the game-over screen;
    `match_id`: where the copy was kept (None if it could not be)."""

    fair: bool
    lines: tuple[str, ...]
    match_id: str | None


def revealed_match(
    game: str,
    players: int,
    options: Mapping[str, Any],
    names: tuple[str, ...],
    labels: tuple[str, ...],
    revealed: Revealed,
    commitment: str | None,
) -> Match:
    """The finished match as the table revealed it; ValueError if its events are not a legal match."""
    seats = [
        Seat(name, "bot", label) if label in BOT_LEVELS else Seat(name)
        for name, label in zip(names, labels, strict=True)
    ]
    if revealed.secret is not None:
        return Match(
            game, players, options, seats, None, revealed.events, secret=revealed.secret, commitment=commitment
        )
    return Match(game, players, options, seats, revealed.seed, revealed.events)


def check_revealed(
    match: Match, viewer: int, seen: Mapping[int, tuple[Any, ...]], commitment: str | None
) -> tuple[bool, str]:
    """(fair, one line): the commitment sent at the start, the deals, and the hands this seat was
    shown (`seen`: the seat's hand at each cursor it saw, that no undo took back)."""
    if match.secret is not None and commitment is None:
        return False, "the table sent no commitment at the start, so its secret proves nothing"
    verdict = check_deals(match)
    if not verdict.fair:
        return False, verdict.reason
    for cursor, hand in sorted(seen.items()):
        if cursor > len(match.events) or sorted(match.state_at(cursor).hands[viewer]) != sorted(hand):
            return False, f"the hand you were shown after event {cursor} is not the one the revealed match gives"
    return True, verdict.reason


def keep_copy(match: Match, match_id: str) -> str | None:
    """Save the finished match in this player's saves, under the table's id when it is free (or holds
    this same match already), else a new one. The id, or None if it could not be written."""
    from saves import SaveError, SaveStore
    from saves.ids import is_match_id, new_match_id
    from saves.record import SavedMatch

    store = SaveStore()
    wanted = match_id if is_match_id(match_id) and match_id != "unsaved" else new_match_id()
    try:
        if store.path(wanted).exists():
            try:
                if store.load(wanted).record.match.events == match.events:
                    return wanted  # the host's own save, on this machine: the same match
            except SaveError:
                pass
            wanted = new_match_id()
        now = int(time.time())
        store.save(SavedMatch(wanted, match, now, now))
    except (SaveError, OSError):
        return None
    return wanted


def fair_check(
    game: str,
    players: int,
    options: Mapping[str, Any],
    names: tuple[str, ...],
    labels: tuple[str, ...],
    viewer: int,
    revealed: Revealed,
    commitment: str | None,
    seen: Mapping[int, tuple[Any, ...]],
    match_id: str,
    keep: bool = True,
) -> FairCheck:
    """Everything a player is told about the deals when a joined match is over; with `keep`, a copy
    of the match goes into their saves (a watcher's check keeps none)."""
    try:
        match = revealed_match(game, players, options, names, labels, revealed, commitment)
    except ValueError as error:
        return FairCheck(False, ("✗ The deals do NOT check:", f"  the revealed match is not legal ({error})"), None)
    fair, reason = check_revealed(match, viewer, seen, commitment)
    secret = f"Secret {match.secret.hex()}" if match.secret is not None else f"Seed {match.seed}"
    dealt = "every deal and every hand you were shown" if seen else "every deal"
    if fair and commitment:
        verdict = (f"✓ Fair deals: the secret gives the commitment {commitment[:SHORT_COMMITMENT]},", f"  {dealt}")
    elif fair:
        verdict = (f"✓ Fair deals: the seed gives {dealt}",)
    else:
        verdict = ("✗ The deals do NOT check:", f"  {reason}")
    if not keep:
        return FairCheck(fair, (secret, *verdict), None)
    kept = keep_copy(match, match_id)
    where = f"Saved as {kept}: dominoes verify {kept}" if kept is not None else "The match could not be saved here"
    return FairCheck(fair, (secret, *verdict, where), kept)
