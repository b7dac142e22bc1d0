"""Rebuilding a match from a checked body: every event is replayed through the game's `apply`.

A save is never trusted: its events are parsed and applied one by one, exactly as moves typed at the
table would be, so a file whose history breaks a rule is refused with the event and the rule named.
"""

from __future__ import annotations

from typing import Any

from core.errors import IllegalMove
from core.match import Match
from core.moves import Move
from saves.body import Header
from saves.errors import SaveError


def replay(header: Header, events: list[Any]) -> Match:
    """The match the body describes, its events applied and its cursor set; SaveError otherwise."""
    try:
        match = Match(
            header.game,
            header.players,
            header.options,
            header.seats,
            header.seed,
            secret=header.secret,
            commitment=header.commitment,
            undid_revealed_round=header.undid_revealed_round,
        )
    except ValueError as error:
        raise SaveError(f"the file's match settings are not valid: {error}") from None
    names = match.names
    for number, data in enumerate(events, 1):
        try:
            move = Move.from_data(data)
        except ValueError as error:
            raise SaveError(f"event {number} is not a move: {error}") from None
        state = match.state
        try:
            match.apply(move)
        except IllegalMove as error:
            raise SaveError(f"event {number} ({describe(match, state, move, names)}) is not legal: {error}") from None
        except Exception as error:  # a file must never crash the loader, whatever an engine makes of it
            raise SaveError(
                f"event {number} ({describe(match, state, move, names)}) could not be replayed "
                f"({type(error).__name__}: {error})"
            ) from None
    match.cursor = header.cursor
    return match


def describe(match: Match, state: Any, move: Move, names: tuple[str, ...]) -> str:
    """The event in the game's words, or its plain form when the game cannot say it (it was illegal)."""
    try:
        return match.game.describe_move(state, move, names)
    except Exception:  # describing an illegal move may fail: its target or its player may not exist
        return str(move)
