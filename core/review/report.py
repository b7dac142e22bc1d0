"""A reviewed decision in words (the move, the better one, the verdict and the reason), each seat's
summary, and the whole review as plain data: the JSON that `dominoes review --json` prints."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from core.bots.hint import explain, hint, move_words
from core.game import Game
from core.moves import Move
from core.review.decisions import Decision
from core.review.verdicts import VERDICTS, verdict
from core.review.weigh import Weighing

WORST = 3  # decisions listed as a seat's worst


@dataclass(frozen=True)
class DecisionReview:
    """One decision judged: `loss` is how far the move made fell short of the best move found, in
    the game's points (a round's; a Moon hand's)."""

    decision: Decision
    move: Move
    best: Move
    loss: float
    error: float
    verdict: str
    reason: str
    move_words: str
    best_words: str
    alternatives: int  # legal moves there were to choose from
    deals: int  # sampled deals the moves were tried in

    @property
    def index(self) -> int:
        return self.decision.index

    @property
    def seat(self) -> int:
        return self.decision.seat

    def to_data(self, names: Sequence[str]) -> dict[str, Any]:
        return {
            "event": self.index + 1,
            "round": self.decision.round,
            "seat": self.seat + 1,
            "name": names[self.seat],
            "move": self.move_words,
            "best": self.best_words,
            "loss": round(self.loss, 3),
            "verdict": self.verdict,
            "reason": self.reason,
            "alternatives": self.alternatives,
            "deals": self.deals,
        }


def review_decision(game: Game, state: Any, move: Move, decision: Decision, weighing: Weighing) -> DecisionReview:
    """The verdict on `move`, made at `state`, from its weighing; the reason is the hint's, for the
    better move when there was one, else for the move made. Only the seat's view is read."""
    view = game.view(state, decision.seat)
    legal = game.legal_moves(state)
    made = legal.index(move)
    if len(legal) == 1:
        reason = hint(view, legal)[1]  # no sampling for a single move: the rule that forces it
        words = move_words(view, move)
        return DecisionReview(decision, move, move, 0.0, 0.0, "best", reason, words, words, 1, 0)
    if len(weighing.means) != len(legal):
        raise ValueError(f"event {decision.index + 1} has {len(legal)} legal moves, not {len(weighing.means)}")
    means = list(weighing.means)
    best = weighing.best
    loss = max(0.0, means[best] - means[made])
    judged = verdict(game.name, loss, weighing.error)
    if judged == "best":
        reason = explain(view, legal, move, means, weighing.worlds)
    else:
        # The better move's reason, its evidence measured against the move made: the other moves
        # are put below it, so the hint compares the two.
        below = means[made] - 1.0
        paired = [mean if i in (best, made) else below for i, mean in enumerate(means)]
        reason = explain(view, legal, legal[best], paired, weighing.worlds)
    return DecisionReview(
        decision,
        move,
        legal[best],
        loss,
        weighing.error,
        judged,
        reason,
        move_words(view, move),
        move_words(view, legal[best]),
        len(legal),
        weighing.worlds,
    )


@dataclass(frozen=True)
class SeatSummary:
    seat: int
    decisions: int
    mean_loss: float
    verdicts: dict[str, int]
    worst: tuple[DecisionReview, ...]

    def to_data(self, names: Sequence[str]) -> dict[str, Any]:
        return {
            "seat": self.seat + 1,
            "name": names[self.seat],
            "decisions": self.decisions,
            "mean_loss": round(self.mean_loss, 3),
            "verdicts": dict(self.verdicts),
            "worst": [review.to_data(names) for review in self.worst],
        }


def summarise(seat: int, reviews: Iterable[DecisionReview]) -> SeatSummary:
    """A seat's decisions counted: how many, the mean loss, each verdict, the worst (not best) three."""
    mine = [review for review in reviews if review.seat == seat]
    counts = dict.fromkeys(VERDICTS, 0)
    for review in mine:
        counts[review.verdict] += 1
    mean = sum(review.loss for review in mine) / len(mine) if mine else 0.0
    flawed = sorted((r for r in mine if r.verdict != "best"), key=lambda r: (-r.loss, r.index))
    return SeatSummary(seat, len(mine), mean, counts, tuple(flawed[:WORST]))


def build_report(
    game: str,
    match_id: str,
    names: Sequence[str],
    seats: Iterable[int],
    reviews: Sequence[DecisionReview],
    in_play: str | None = None,
) -> dict[str, Any]:
    """The review as plain data: `seats` (0-based) summarised, every reviewed decision in order, and
    `in_play`: the note that the round in play is not reviewed yet (None when none is)."""
    ordered = sorted(reviews, key=lambda review: review.index)
    return {
        "game": game,
        "match": match_id,
        "seats": [summarise(seat, ordered).to_data(names) for seat in seats],
        "decisions": [review.to_data(names) for review in ordered],
        "in_play": in_play,
    }
