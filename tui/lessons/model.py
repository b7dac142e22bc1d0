"""A lesson: a stacked deal, the script of its round, and a step of text at each decision.

Where a lesson stands is read from the match itself: while the match's events up to its cursor are
the script's first events, the lesson is on, and the step at the cursor says what comes next. Undo,
redo, leaving and resuming therefore all keep the lesson in step, with nothing else to save.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from core import Match
from core.moves import Move
from core.seats import Seat


@dataclass(frozen=True)
class Step:
    """One step of a lesson: what to do next and why.

    `index` is the position in the script of the move the step is about: the learner's move (the
    one the lesson asks for), or a bot's (the learner watches it); `len(script)` for the closing
    step, read once the lesson's round is over. `why` says why the lesson wants this move rather
    than another legal one (shown when the learner plays another). `prefers`, shown with the text,
    is the lesson owning up: a review of the deal finds another move better, and the lesson says
    which, and why it asks for its own all the same (a rule it wants to show). A test holds every
    step to it: the lesson's move is one the review judges best or good, or `prefers` names the
    better one.
    """

    index: int
    number: int  # 1, 2, ... in the order of the lesson
    title: str
    text: str
    rules: tuple[str, ...]  # the rule IDs the step cites
    why: str = ""
    prefers: str = ""


@dataclass(frozen=True)
class Lesson:
    game: str
    title: str
    summary: str  # one line for the menu that offers the lessons
    seats: tuple[Seat, ...]
    options: Mapping[str, Any]
    seed: int  # the seed of the deals of free play, after the lesson
    script: tuple[Move, ...]  # every event of the lesson's round; the first is its deal
    steps: tuple[Step, ...]
    promises: tuple[str, ...]  # the rule IDs the lesson promises come up in play

    @property
    def players(self) -> int:
        return len(self.seats)

    def new_match(self) -> Match:
        """The lesson's match, dealt: its first event is the lesson's stacked deal."""
        return Match(self.game, self.players, self.options, self.seats, self.seed, events=self.script[:1])

    def began(self, match: Match) -> bool:
        """Whether `match` is this lesson's match (its first event is the lesson's deal)."""
        return match.game_name == self.game and match.players == self.players and match.events[:1] == self.script[:1]

    def follows(self, match: Match) -> bool:
        """Whether the lesson is on: every event so far is the script's, and some are still to come
        (or the closing step is still to be read)."""
        cursor = match.cursor
        return cursor <= len(self.script) and match.events[:cursor] == self.script[:cursor]

    def step_at(self, index: int) -> Step | None:
        """The step about the script's event at `index` (the closing step at `len(script)`)."""
        for step in self.steps:
            if step.index == index:
                return step
        return None

    def where(self, match: Match, total: bool = True) -> str:
        """Where `match`, this lesson's match, stands, in a few words for a list of saved matches:
        "Doubles lesson, step 3 of 8" ("step 3" without `total`), or once it has left the script
        "Doubles lesson played on, round 2"."""
        name = f"{match.game.title} lesson"
        if not self.follows(match):
            return f"{name} played on, {'hand' if self.game == 'moon' else 'round'} {match.state.round}"
        done = [step.number for step in self.steps if step.index <= match.cursor]
        return f"{name}, step {done[-1] if done else 1}" + (f" of {len(self.steps)}" if total else "")

    def expected(self, index: int) -> Move | None:
        """The script's event at `index`, None past its end."""
        return self.script[index] if index < len(self.script) else None
