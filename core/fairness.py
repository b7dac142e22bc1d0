"""Checking a match's deals: the secret gives the commitment the players were shown, and every deal
in the history is the one the secret (or the chosen seed) gives.

    verdict = check_deals(match)    # pure: the match's own events, secret and commitment
    verdict.fair, verdict.reason    # reason: one line, naming the first deal that is wrong
"""

from __future__ import annotations

from dataclasses import dataclass

from core import chance
from core.match import Match
from core.moves import Deal


@dataclass(frozen=True)
class Verdict:
    """`fair`: the commitment and every deal check; `deals`: how many deals were checked (all of
    them when fair); `reason`: one line saying what was found."""

    fair: bool
    deals: int
    reason: str


def check_deals(match: Match) -> Verdict:
    """Every deal of `match` (its redo tail included) against the one its chance gives, after the
    commitment against the secret. A copy without seed or secret cannot be checked."""
    if match.secret is None and match.seed is None:
        return Verdict(False, 0, "this copy of the match holds no secret to check its deals with")
    if match.secret is not None and chance.commitment(match.secret) != match.commitment:
        return Verdict(
            False, 0, "the secret does not give the commitment shown at the start: it is not the one dealt from"
        )
    source = "the secret" if match.secret is not None else f"the seed {match.seed}"
    word = "hand" if match.game_name == "moon" else "round"
    deals = 0
    for index, event in enumerate(match.events):
        if type(event) is not Deal:
            continue
        state = match.state_at(index)
        expected = match.game.deal(state, chance.deal_rng(match.seed, match.secret, deals))
        deals += 1
        if expected != event:
            number = match.state_at(index + 1).round
            return Verdict(
                False, deals - 1, f"deal {deals} (event {index + 1}, {word} {number}) is not the one {source} gives"
            )
    if match.secret is not None:
        return Verdict(True, deals, f"the secret gives the commitment, and every deal ({deals}) is the one it gives")
    return Verdict(True, deals, f"every deal ({deals}) is the one {source} gives")
