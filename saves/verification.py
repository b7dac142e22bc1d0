"""`dominoes verify MATCH` (and `saves verify`): a finished match's deals checked against its chance.

For a match dealt from a secret: the secret gives the commitment recorded at the start (the one the
players were shown: a joined player's copy keeps the one its table sent then), and every deal in the
save is the one the secret gives. For a seed chosen for practice: every deal is the seed's. A match
still in play is not checked: its secret is shown only once it is over.
"""

from __future__ import annotations

from core.chance import SHORT_COMMITMENT
from core.fairness import check_deals
from saves.record import SavedMatch
from saves.summary import status_text

HEX = frozenset("0123456789abcdef")


def check_shown(shown: str) -> str:
    """The commitment digits a player noted at the start, as typed: ValueError unless they are 1 to 64
    hex digits."""
    digits = shown.strip().lower()
    if not 1 <= len(digits) <= 64 or not set(digits) <= HEX:
        raise ValueError(f"--shown takes the hex digits of the commitment you were shown, not {shown!r}")
    return digits


def verify(record: SavedMatch, shown: str | None = None) -> tuple[bool, list[str]]:
    """(fair, lines): whether the deals check, and what was found, in plain words. ValueError (one
    line) for a match that is still being played."""
    match = record.match
    word = "hand" if match.game_name == "moon" else "round"
    if not match.state.over:
        raise ValueError(
            f"match {record.match_id} is still being played: its secret is shown, and its deals can be "
            f"checked, once it is over ({word} {match.state.round} now)"
        )
    verdict = check_deals(match)
    fair = verdict.fair
    lines = []
    if match.secret is not None:
        commitment = match.commitment or ""
        lines += [
            f"  Commitment: {commitment} (shown at the start as {commitment[:SHORT_COMMITMENT]})",
            f"  Secret:     {match.secret.hex()}",
        ]
        if shown is not None:
            if commitment.startswith(shown):
                lines.append(f"  The commitment begins with the digits you were shown ({shown}).")
            else:
                fair = False
                lines.append(f"  The commitment does not begin with the digits you were shown ({shown}).")
    elif match.seed is not None:
        lines.append(f"  Seed: {match.seed} (practice: whoever knew it knew every deal)")
        if shown is not None:
            fair = False
            lines.append("  No commitment was shown: this match was dealt from a seed, not a secret.")
    reason = verdict.reason
    lines.append(f"  {reason[0].upper()}{reason[1:]}.")
    if match.undid_revealed_round:
        lines.append(f"  Practice: an undo went back into a {word} whose hands had been shown.")
    outcome = "the deals are fair" if fair else "the deals do NOT check"
    head = f"Match {record.match_id} ({match.game.title}, {status_text(match)}): {outcome}."
    return fair, [head, *lines]
