"""The review screen: a match stepped through event by event as one seat saw it, each of that
seat's decisions judged against the best move found (see core/review), and "play from here".

A position is an event index: at position p the board and hand are as they were just before event
p, the event itself is told beside them, and at a decision of the reviewed seat its verdict, the
better move (marked on the board and in the hand) and the reason. The last position is the match
as it stands at the end of its last round that is over: the round in play is not reviewed (nothing
of it is shown: it is named as reviewed once it is over), and every hand shown is of a round that
is over (as `dominoes saves show` does). With several humans at one keyboard the screen opens
behind the pass screen of the seat it reviews. The review is weighed in worker processes, started
by a thread, and kept beside the save; what is already weighed shows at once, the rest as it comes.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from core import Match
from core.moves import Deal, Discard, Move, Play
from core.review import DecisionReview, ReviewSettings, branch, in_play_note, loss_words, reviewed_end, summarise
from core.tiles import Tile
from core.words import plural, possessive
from tui.host import host
from tui.presentation import board_kind, board_marks, line_namer, status_facts
from tui.review_session import ReviewSession
from tui.screens.round_over import round_headline
from tui.styles import STYLES, TABLE_STYLES
from tui.widgets.board_tree import BoardTree
from tui.widgets.dominoes import tile_text
from tui.widgets.footer import Footer
from tui.widgets.review_hand import ReviewHand
from tui.widgets.trick_view import TrickView
from tui.widgets.verdict_strip import StripCell, VerdictStrip
from tui.widgets.verdicts import VERDICT_STYLES, verdict_mark, verdict_text
from workers.review_pool import ReviewError

REVIEW_NICENESS = 10  # the workers think below the interface, which keeps answering keys
REVIEW_SETTINGS = ReviewSettings()  # the command's defaults: 0.2 s a decision, seed 0


def copy_of(match: Match) -> Match:
    """The match up to the end of its last round that is over (no undone tail, nothing of the round
    in play), apart from the one being played."""
    return Match(
        match.game_name,
        match.players,
        dict(match.options),
        match.seats,
        match.seed,
        match.events[: reviewed_end(match)],
        secret=match.secret,
        commitment=match.commitment,
    )


class ReviewScreen(Screen[None]):
    CSS_PATH: ClassVar = [TABLE_STYLES, STYLES / "review.tcss"]  # the board and hand as at the table
    AUTO_FOCUS = None  # nothing takes the keys from the screen: they step through the review
    # Short words for the footer (all of them fit at 80 columns); the palette shows the tooltips.
    BINDINGS = [
        Binding("left", "step(-1)", "Prev", key_display="←", tooltip="One event earlier", id="review.earlier"),
        Binding("right", "step(1)", "Next", key_display="→", tooltip="One event later", id="review.later"),
        Binding(
            "pageup",
            "decision(-1)",
            "Prev turn",
            key_display="PgUp",
            tooltip="The previous decision",
            id="review.previous",
        ),
        Binding(
            "pagedown", "decision(1)", "Next turn", key_display="PgDn", tooltip="The next decision", id="review.next"
        ),
        Binding("home", "jump(0)", "Start", show=False, tooltip="The start of the match", id="review.first"),
        Binding("end", "jump(-1)", "End", show=False, tooltip="The end of the match", id="review.last"),
        Binding(
            "enter",
            "play_from_here",
            "Play from here",
            tooltip="Play from here: a new match from this position",
            id="review.play",
        ),
        Binding("s", "next_seat", "Seat", tooltip="Review the next seat", id="review.seat"),
        Binding("escape", "close", "Close", tooltip="Close the review", id="review.close"),
        Binding("q", "close", "Close", show=False, tooltip="Close the review", id="review.close_q"),
    ]

    def __init__(
        self,
        match: Match,
        match_id: str | None,
        path: Path | None,
        seat: int | None = None,
        start_round: int | None = None,
        jobs: int | None = None,
        settings: ReviewSettings | None = None,
    ) -> None:
        """Review `seat` (0-based; the first human seat by default) of `match` as it stands, with the
        sidecar at `path` (None: not kept); start at that seat's first decision of `start_round`
        (of the match, if None)."""
        super().__init__()
        self.match = copy_of(match)
        self.in_play = in_play_note(match)  # the round in play, named as not reviewed yet
        self.match_id = match_id or "unsaved"
        self.path = path
        self.jobs = jobs
        self.settings = settings or REVIEW_SETTINGS
        humans = self.match.humans
        self.seat = seat if seat is not None else (humans[0] if humans else 0)
        self.end = self.match.cursor
        self.deciders = {
            index: self.match.state_at(index).to_move
            for index, event in enumerate(self.match.events)
            if type(event) is not Deal
        }
        self.revealed_until = self._revealed_until()
        self.position = self._start(start_round)
        self.session: ReviewSession | None = None
        self.reviews: dict[int, DecisionReview] = {}  # by position, as they are weighed
        self.progress: tuple[int, int] | None = None  # (weighed, to weigh) while the workers think
        self.problem: str | None = None
        self.generation = 0  # bumped when the review restarts, so a late answer is dropped
        self.closed = False  # the screen is gone: a review opened after that is closed at once
        self._keys_state: tuple[bool | None, ...] = ()  # which keys could act when the footer was drawn
        self.sub_title = f"Review of {self.match.game.title}"

    # -- the match, position by position ---------------------------------------------------------
    @property
    def names(self) -> tuple[str, ...]:
        return self.match.names

    def _revealed_until(self) -> int:
        """The last position whose round is over: every hand may be shown up to there."""
        last = self.match.state_at(self.end)
        if last.chance or last.over:
            return self.end
        deals = [index for index in range(self.end) if type(self.match.events[index]) is Deal]
        return deals[-1] if deals else 0

    def _start(self, start_round: int | None) -> int:
        mine = self.seat_decisions()
        if start_round is not None:
            mine = [p for p in mine if self.match.state_at(p).round == start_round] or mine
        return mine[0] if mine else 0

    def seat_decisions(self) -> list[int]:
        return [position for position, seat in self.deciders.items() if seat == self.seat and position < self.end]

    def round_of(self, position: int) -> int:
        return self.match.state_at(position).round

    def is_seat_decision(self, position: int) -> bool:
        return position < self.end and self.deciders.get(position) == self.seat

    # -- layout ----------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="table-main"):
            with Vertical(id="board-area"):
                layout = board_kind(self.match.game_name) == "layout"
                board = BoardTree(id="board") if layout else TrickView(id="board", addressed=False)
                board.can_focus = False
                yield board
            side = VerticalScroll(id="review-side")
            side.can_focus = False
            with side:
                yield Static(id="review-text")
        yield VerdictStrip(id="review-strip")
        yield ReviewHand(id="hand")
        yield Footer(compact=True, show_command_palette=False)  # Ctrl+P still opens it

    def on_mount(self) -> None:
        self.redraw()
        self.think(self.generation, None)
        self.pass_to_seat()

    def pass_to_seat(self) -> None:
        """Several humans at one keyboard: the review of a human seat waits behind that player's
        pass screen, as the table does."""
        if self.match.shared and not self.match.seats[self.seat].is_bot:
            from tui.screens.pass_device import PassScreen

            name = self.names[self.seat]
            self.app.push_screen(PassScreen(name, f"Next: the review of {possessive(name)} decisions."))

    def on_unmount(self) -> None:
        self.closed = True
        if self.session is not None:
            self.session.close()

    # -- weighing, in the background ---------------------------------------------------------------
    @work(thread=True, group="review")
    def think(self, generation: int, session: ReviewSession | None) -> None:
        """Open the review (its sidecar) if need be, then weigh what it lacks, reporting each decision."""
        if session is None:
            session = ReviewSession(
                self.match, self.match_id, self.path, self.settings, [self.seat], self.jobs, REVIEW_NICENESS
            )
            # Set here, not from the interface's thread: the screen may close (and the app with it)
            # before that thread could take it, and either this sees `closed` or `on_unmount` sees it.
            self.session = session
            if self.closed:
                session.close()
        known = [d for d in session.decisions if d.index in session.weighings]
        self._call(self._weighed, generation, [review for review in map(session.review, known) if review], None)
        by_index = {decision.index: decision for decision in session.decisions}

        def progress(index: int, done: int, total: int) -> None:
            review = session.review(by_index[index])
            self._call(self._weighed, generation, [review] if review else [], (done, total))

        try:
            total = len(session.missing)
            if total:
                self._call(self._weighed, generation, [], (0, total))
            session.run(progress)
        except ReviewError as error:
            self._call(self._failed, generation, str(error))
            return
        self._call(self._finished, generation, list(session.notices))

    def _call(self, callback: Any, *arguments: Any) -> None:
        with contextlib.suppress(RuntimeError):  # the app closed meanwhile
            self.app.call_from_thread(callback, *arguments)

    def live(self, generation: int) -> bool:
        """Whether a report from the weighing of `generation` is still for this screen: not an older
        seat's, and the screen still on the app's stack (once popped, its widgets are being removed,
        so drawing could find them gone)."""
        return generation == self.generation and not self.closed and self in self.app.screen_stack

    def _weighed(self, generation: int, reviews: list[DecisionReview], progress: tuple[int, int] | None) -> None:
        if not self.live(generation):
            return
        for review in reviews:
            self.reviews[review.index] = review
        if progress is not None:
            self.progress = progress
        self.redraw()

    def _finished(self, generation: int, notices: list[str]) -> None:
        if not self.live(generation):
            return
        self.progress = None
        for notice in notices:
            self.notify(notice[0].upper() + notice[1:] + ".", severity="warning", timeout=8, markup=False)
        self.redraw()

    def _failed(self, generation: int, problem: str) -> None:
        if not self.live(generation):
            return
        self.progress = None
        self.problem = problem
        self.notify(f"The review stopped: {problem}.", severity="error", timeout=8, markup=False)
        self.redraw()

    # -- drawing ---------------------------------------------------------------------------------
    def redraw(self) -> None:
        state = self.match.state_at(self.position)
        view = self.match.game.view(state, self.seat)
        review = self.reviews.get(self.position) if self.is_seat_decision(self.position) else None
        self.draw_status(view)
        self.draw_board(view, review)
        self.query_one("#review-text", Static).update(self.describe(state, review))
        self.draw_strip()
        self.draw_hand(view, review)
        self.refresh_keys()

    def refresh_keys(self) -> None:
        """Grey out the keys that cannot act here, rebuilding the footer only when that changes."""
        keys = (
            ("step", (-1,)),
            ("step", (1,)),
            ("decision", (-1,)),
            ("decision", (1,)),
            ("play_from_here", ()),
            ("next_seat", ()),
        )
        state = tuple(self.check_action(action, parameters) for action, parameters in keys)
        if state != self._keys_state:
            self._keys_state = state
            self.refresh_bindings()

    def draw_status(self, view: Any) -> None:
        name = self.names[self.seat]
        first = Text(f"Review of {possessive(name)} play · ", style="bold")
        facts = status_facts(self.match.game_name, view) if view.round else ["before the first deal"]
        first.append(" · ".join(facts))
        first.append(f" · event {min(self.position + 1, self.end)} of {self.end}", style="dim")
        self.query_one("#status", Static).update(first + Text("\n") + self.summary_line())

    def summary_line(self) -> Text:
        if self.progress is not None:
            done, total = self.progress
            return Text(f"Weighing {possessive(self.names[self.seat])} decisions: {done} of {total}…", style="italic")
        if self.problem is not None:
            return Text(f"The review stopped: {self.problem}", style="red")
        mine = [self.reviews[p] for p in self.seat_decisions() if p in self.reviews]
        if self.session is None:
            return Text("Opening the review…", style="italic")
        if self.in_play is not None and not self.end:
            return Text(f"No {self.round_word} is over yet: nothing to review.", style="italic")
        if not self.seat_decisions():
            return Text(f"{possessive(self.names[self.seat], start=True)} decisions: none in the match so far.")
        if not mine:  # not "0 decisions · every one the best move found" before any is weighed
            return Text(f"Weighing {possessive(self.names[self.seat])} decisions…", style="italic")
        summary = summarise(self.seat, mine)
        text = Text(f"{plural(summary.decisions, 'decision')} · mean loss {summary.mean_loss:.2f} · ")
        flawed = [(verdict, count) for verdict, count in summary.verdicts.items() if verdict != "best" and count]
        if not flawed:
            text.append("every one the best move found", style=VERDICT_STYLES["best"])
        for number, (verdict, count) in enumerate(flawed):
            if number:
                text.append(" · ")
            text.append(f"{verdict} {count}", style=VERDICT_STYLES[verdict])
        return text

    def draw_board(self, view: Any, review: DecisionReview | None) -> None:
        name = self.match.game_name
        if board_kind(name) != "layout":
            self.query_one(TrickView).show(view, self.names)
            return
        best = review.best if review is not None and type(review.best) is Play else None
        marks = board_marks(name, view, (best,) if best is not None else (), best.tile if best is not None else None)
        empty = "Nothing is played yet this round." if view.round else "The tiles are not dealt yet."
        self.query_one(BoardTree).show(view.board, marks, line_namer(name), empty)

    def draw_hand(self, view: Any, review: DecisionReview | None) -> None:
        labels: dict[Tile, Text] = {}
        if review is not None:
            made, best = placed_tile(review.move), placed_tile(review.best)
            if review.verdict != "best" and best is not None:
                labels[best] = Text("best", style=VERDICT_STYLES["best"])
            if made is not None:
                word, style = ("best", VERDICT_STYLES["best"]) if review.verdict == "best" else ("you", "bold")
                if review.alternatives == 1:
                    word, style = "only", "dim"  # nothing to choose: the only legal move
                labels[made] = Text(word, style=style)
        self.query_one(ReviewHand).show(self.names[self.seat], view.hand, labels)

    def draw_strip(self) -> None:
        number = self.round_of(self.position)
        mine = [p for p in self.seat_decisions() if self.round_of(p) == number]
        cells = []
        for position in mine:
            review = self.reviews.get(position)
            mark = verdict_mark(review.verdict if review else None, review is not None and review.alternatives == 1)
            cells.append(StripCell(position, mark))
        word = "Hand" if self.match.game_name == "moon" else "Round"
        self.query_one(VerdictStrip).show(f"{word} {number}:", cells, self.position)

    def describe(self, state: Any, review: DecisionReview | None) -> Text:
        """The side panel: the event at this position, its verdict and reason, the hands if shown."""
        match, position = self.match, self.position
        text = Text()
        if position >= self.end:
            text.append(self.ending(state), style="bold")
            if state.round and (state.chance or state.over):
                text.append("\n" + self.points(state))
        else:
            event = match.events[position]
            text.append(f"Event {position + 1} of {self.end}\n", style="dim")
            if type(event) is Deal:
                if position:
                    text.append(self.round_over_line(state) + "\n", style="bold")
                    text.append(self.points(state) + "\n")
                word = self.round_word
                text.append(f"Next: {word} {self.round_of(position + 1)} is dealt.")
            else:
                text.append(match.game.describe_move(state, event, self.names) + ".", style="bold")
                text.append_text(self.judgement(review, position))
        hands = self.other_hands(state)
        if hands:
            text.append("\n\n")
            text.append_text(hands)
        return text

    def judgement(self, review: DecisionReview | None, position: int) -> Text:
        text = Text("\n")
        if not self.is_seat_decision(position):
            other = self.names[self.deciders[position]]
            text.append(f"s: review {possessive(other)} decisions instead.", style="dim")
            return text
        if review is None:
            text.append("Weighing this decision…" if self.problem is None else "Not weighed.", style="italic")
            return text
        if review.alternatives == 1:
            text.append("The only legal move. ", style="dim")
            text.append(review.reason)
            return text
        text.append_text(verdict_text(review.verdict))
        if review.verdict != "best":
            text.append(f": {loss_words(self.match.game_name, review)}.")
            better = "Perhaps better" if review.verdict == "unclear" else "Better"
            text.append(f"\n{better}: {review.reason}")
        else:
            text.append(f". {review.reason}")
        text.append(f"\n({plural(review.deals, 'sampled deal')})", style="dim")
        text.append("\nEnter: play from here", style="dim")
        return text

    def round_over_line(self, state: Any) -> str:
        """What ended the round just before this position, in the round-over dialog's words."""
        return round_headline(self.match.game_name, self.names, self.match.game.view(state, self.seat)).plain + "."

    def points(self, state: Any) -> str:
        """The points of the round just over, and the totals."""
        view = self.match.game.view(state, self.seat)
        scored = view.round_scores[-1] if view.round_scores else (0,) * self.match.players
        names = self.names
        return (
            "Points: " + ", ".join(f"{names[s]} {p}" for s, p in enumerate(scored)) + "\n"
            "Totals: " + ", ".join(f"{names[s]} {p}" for s, p in enumerate(view.scores))
        )

    def ending(self, state: Any) -> str:
        if state.over:
            winners = [self.names[seat] for seat in state.winners]
            return "Game over: " + " and ".join(winners) + (" win." if len(winners) > 1 else " wins.")
        over = f"{self.round_over_line(state)} " if state.chance and state.round else ""
        if self.in_play is not None:
            return over + self.in_play[0].upper() + self.in_play[1:] + "."
        if state.chance:  # the next deal is the table's: the round-over dialog offers it
            return over + f"The match goes on: the next {self.round_word} is dealt when you go on."
        return over + "The match goes on from here."

    @property
    def round_word(self) -> str:
        """What the game calls a round: Moon's are hands."""
        return "hand" if self.match.game_name == "moon" else "round"

    def other_hands(self, state: Any) -> Text | None:
        """Every other hand, once the round is over (never while it is in play)."""
        if self.position > self.revealed_until or not state.round:
            return None
        if not any(hand for seat, hand in enumerate(state.hands) if seat != self.seat):
            return None  # every other tile is played: no hand to show
        text = Text(
            f"Every hand, as the {self.round_word} went:\n" if self.position < self.end else "Every hand:\n",
            style="dim",
        )
        for seat, hand in enumerate(state.hands):
            if seat == self.seat:
                continue
            text.append(f"{self.names[seat]}: ", style="bold")
            text.append_text(Text(" ").join(tile_text(tile) for tile in hand) if hand else Text("none", style="dim"))
            text.append("\n")
        return text

    # -- keys ------------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "step":
            target = self.position + int(parameters[0])  # type: ignore[call-overload]
            return True if 0 <= target <= self.end else None
        if action == "decision":
            return True if self._next_decision(int(parameters[0])) is not None else None  # type: ignore[call-overload]
        if action == "play_from_here":
            return True if self.is_seat_decision(self.position) else None
        if action == "next_seat":
            return self.session is not None and self.match.players > 1
        return True

    def _next_decision(self, step: int) -> int | None:
        mine = self.seat_decisions()
        later = [p for p in mine if p > self.position] if step > 0 else [p for p in mine if p < self.position]
        if not later:
            return None
        return later[0] if step > 0 else later[-1]

    def go(self, position: int) -> None:
        self.position = max(0, min(position, self.end))
        self.query_one("#review-side", VerticalScroll).scroll_home(animate=False)
        self.redraw()

    def action_step(self, step: int) -> None:
        self.go(self.position + step)

    def action_decision(self, step: int) -> None:
        target = self._next_decision(step)
        if target is not None:
            self.go(target)

    def action_jump(self, where: int) -> None:
        self.go(self.end if where < 0 else where)

    @on(VerdictStrip.Chosen)
    def _strip_chosen(self, event: VerdictStrip.Chosen) -> None:
        self.go(event.position)

    def action_next_seat(self) -> None:
        if self.session is None:
            return  # still opening: a moment
        self.seat = (self.seat + 1) % self.match.players
        self.generation += 1
        self.progress = None
        self.problem = None
        self.notify(f"Reviewing {possessive(self.names[self.seat])} decisions.", timeout=3, markup=False)
        if self.is_seat_decision(self.position):
            self.redraw()
        else:
            following = [p for p in self.seat_decisions() if p >= self.position]
            self.go(following[0] if following else self.position)
        self.session.cancel()
        self.session.set_seats([self.seat])
        self.think(self.generation, self.session)
        self.pass_to_seat()

    def action_play_from_here(self) -> None:
        if not self.is_seat_decision(self.position):
            return
        name = self.names[self.seat]
        new = branch(self.match, self.position, self.seat)
        host(self).play_from(new)
        self.app.notify(
            f"A new match from event {self.position + 1}, with {name} to play: the reviewed match is unchanged.",
            timeout=6,
            markup=False,  # a name is the player's own text
        )

    def action_close(self) -> None:
        self.dismiss()


def placed_tile(move: Move) -> Tile | None:
    """The tile a move puts somewhere (a play, Moon's discard), if any."""
    return move.tile if type(move) in (Play, Discard) else None  # type: ignore[attr-defined]
