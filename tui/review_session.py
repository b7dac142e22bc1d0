"""The review of a saved match, as `dominoes review` and the review screen both make it: what the
sidecar beside the save already holds, the rest weighed in worker processes, and the sidecar kept
up to date (also when the review is stopped part way, so the work done is not lost). No Textual
here: the command line uses it without starting the interface.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from core.match import Match
from core.review import (
    Decision,
    DecisionReview,
    ReviewSettings,
    Weighing,
    build_report,
    decisions,
    in_play_note,
    review_decision,
)
from saves.review_sidecar import load_review, save_review
from workers.review_pool import ReviewError, ReviewPool

Progress = Callable[[int, int, int], None]  # (event index just weighed, decisions weighed, decisions to weigh)


class ReviewSession:
    """The review of `seats` (0-based; every seat if None) of `match`, saved as `match_id`, with its
    sidecar at `path` (None: not kept). `notices` collects what the player should be told (a
    refused sidecar, one that could not be written). Weighings are kept across runs, so a review
    of another seat (`set_seats`) weighs only that seat's decisions."""

    def __init__(
        self,
        match: Match,
        match_id: str,
        path: Path | None,
        settings: ReviewSettings | None = None,
        seats: Collection[int] | None = None,
        jobs: int | None = None,
        niceness: int = 0,
    ) -> None:
        self.match = match
        self.match_id = match_id
        self.path = path
        self.settings = settings or ReviewSettings()
        self.jobs = jobs
        self.niceness = niceness
        self.set_seats(seats)
        self.weighings, notice = load_review(path, match, self.settings) if path is not None else ({}, None)
        self._loaded = dict(self.weighings)
        self.notices: list[str] = [notice] if notice else []
        self._pool: ReviewPool | None = None
        self._running = threading.Lock()  # one run at a time: a new one waits for a cancelled one
        self._closed = False
        self._guard = threading.Lock()  # between starting a pool and cancelling it

    def set_seats(self, seats: Collection[int] | None) -> None:
        """Review these seats (every seat if None) from now on."""
        self.seats = tuple(sorted(seats)) if seats is not None else tuple(range(self.match.players))
        self.decisions: list[Decision] = decisions(self.match, self.seats)

    @property
    def missing(self) -> list[Decision]:
        return [decision for decision in self.decisions if decision.index not in self.weighings]

    @property
    def complete(self) -> bool:
        return not self.missing

    def run(self, progress: Progress | None = None) -> None:
        """Weigh every decision the sidecar did not hold (blocking); ReviewError if a worker fails or
        `cancel` is called. The sidecar is written in any case with what is known."""
        with self._running:
            with self._guard:
                if self._closed:
                    raise ReviewError("the review was closed")
                self._pool = pool = ReviewPool(self.jobs, self.niceness)
            missing = self.missing
            if not missing:
                return
            try:
                for done, (index, weighing) in enumerate(
                    pool.weigh(self.match, [d.index for d in missing], self.settings), 1
                ):
                    self.weighings[index] = weighing
                    if progress is not None:
                        progress(index, done, len(missing))
            finally:
                self.keep()

    def cancel(self) -> None:
        """Stop `run` from another thread (it raises ReviewError)."""
        with self._guard:
            pool = self._pool
        if pool is not None:
            pool.cancel()

    def close(self) -> None:
        """Stop `run` from another thread, and any run after it."""
        with self._guard:
            self._closed = True
        self.cancel()

    def keep(self) -> None:
        """Write the sidecar if the review learnt anything since it was read."""
        if self.path is None or self.weighings == self._loaded:
            return
        try:
            save_review(self.path, self.match, self.settings, self.weighings)
        except OSError as error:
            self.notices.append(f"the review could not be kept beside the save ({error.strerror or error})")
            return
        self._loaded = dict(self.weighings)

    # -- the results -------------------------------------------------------------------------------
    def review(self, decision: Decision) -> DecisionReview | None:
        """The verdict on one decision, once it is weighed."""
        weighing: Weighing | None = self.weighings.get(decision.index)
        if weighing is None:
            return None
        match = self.match
        return review_decision(
            match.game, match.state_at(decision.index), match.events[decision.index], decision, weighing
        )

    def reviews(self) -> list[DecisionReview]:
        found = (self.review(decision) for decision in self.decisions)
        return [review for review in found if review is not None]

    def report(self) -> dict[str, Any]:
        match = self.match
        return build_report(
            match.game_name, self.match_id, match.names, self.seats, self.reviews(), in_play_note(match)
        )
