"""A seat's accuracy in a match, from the match's finished review (the sidecar beside its save,
`saves.review_sidecar`): how many decisions it made, its mean loss per decision (as `dominoes
review` gives it), and how many of its decisions got each verdict, by the kind of move.

Only a review made with the review's standard settings (`STANDARD`, those of the review screen and
of `dominoes review` without options) and complete for the seat counts: every match is then
weighed alike.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from core.match import Match
from core.moves import Bid, Discard, Draw, Pass, Play, Trump
from core.review import ReviewSettings, decisions, review_decision, summarise
from core.review.verdicts import VERDICTS
from saves.review_sidecar import load_review

STANDARD = ReviewSettings()
KINDS = {
    Play: "playing a tile",
    Draw: "drawing",
    Pass: "passing",
    Bid: "bidding",
    Discard: "discarding",
    Trump: "naming trumps",
}


def flawed_verdicts() -> tuple[str, ...]:
    """The verdicts that are a kind of mistake: every one the review ranks below "good"."""
    return VERDICTS[VERDICTS.index("good") + 1 :]


@dataclass(frozen=True)
class SeatAccuracy:
    decisions: int
    mean_loss: float
    verdicts: dict[tuple[str, str], int]  # (verdict, kind of move) -> decisions


def move_kind(move: object) -> str:
    return KINDS.get(type(move), type(move).__name__.lower())


def seat_accuracy(match: Match, seat: int, weighings: dict) -> SeatAccuracy | None:
    """The seat's accuracy from the weighings of a review; None unless every decision is weighed."""
    mine = decisions(match, [seat])
    if not mine or any(decision.index not in weighings for decision in mine):
        return None
    reviews = [
        review_decision(match.game, match.state_at(d.index), match.events[d.index], d, weighings[d.index]) for d in mine
    ]
    counts = Counter((review.verdict, move_kind(review.move)) for review in reviews)
    return SeatAccuracy(len(reviews), summarise(seat, reviews).mean_loss, dict(counts))


def accuracy_from_review(match: Match, path: Path, seats: list[int]) -> dict[int, SeatAccuracy]:
    """Each of `seats` whose review in the sidecar at `path` is complete, and its accuracy."""
    weighings, _notice = load_review(path, match, STANDARD)
    if not weighings:
        return {}
    found = {}
    for seat in seats:
        accuracy = seat_accuracy(match, seat, weighings)
        if accuracy is not None:
            found[seat] = accuracy
    return found
