"""The table of a lesson: the usual table of a match at this keyboard, with the lesson beside it.

While the match follows the lesson's script, the bots play their scripted moves, the panel says
what to do and why, and a move off the lesson is taken back with the reason (the lesson's `why`, or
the rule that forbids it). A step about a bot's move, and the closing step, wait for Enter. Once
the script is played out, the panel goes and the table is an ordinary match: the bots play at
their own level. Undo steps back into the lesson as into any match.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any, ClassVar

from textual import on, work
from textual.binding import Binding

from core import IllegalMove, Match
from core.games.moon_suits import NO_TRUMP, trump_name
from core.moves import DRAW, PASS, Bid, Discard, Move, Play, Trump
from tui.host import host
from tui.lessons import Lesson, Step, lesson_for
from tui.preferences import SPEED_DELAYS
from tui.presentation import board_kind, targets_for
from tui.screens.table import TableScreen
from tui.styles import STYLES, TABLE_STYLES
from tui.widgets.board_tree import BoardTree
from tui.widgets.hand_view import HandView
from tui.widgets.lesson_panel import LessonPanel, PanelStep


def table_screen(match: Match) -> TableScreen:
    """The table for `match`: a lesson's table if it is a lesson's match (a saved lesson resumes as
    one), else the ordinary table."""
    lesson = lesson_for(match)
    return LessonTableScreen(match, lesson) if lesson is not None else TableScreen(match)


def place_name(game: Any, board: Any, line_id: int) -> str:
    """An open end by its one name, as the board, the messages and the move log give it: "toe 3 of
    the 6-6", "arm 4 of the centre 5-5"."""
    return str(game.line_name(board, line_id))


class LessonTableScreen(TableScreen):
    CSS_PATH: ClassVar = [TABLE_STYLES, STYLES / "lesson.tcss"]
    BINDINGS = [Binding("enter", "go_on", "Go on", priority=True, id="lesson.go_on")]
    SHORT = 30  # rows: below this, the lesson panel has the side column to itself (lesson.tcss)

    def __init__(self, match: Match, lesson: Lesson) -> None:
        super().__init__(match)
        self.lesson = lesson
        self.read: set[int] = set()  # the steps about a bot's move (or the closing one) read so far
        self.note = ("", "")  # (kind, words) after a move off the lesson, until the next change
        self._lesson_keys: tuple[bool, ...] = ()

    def on_mount(self) -> None:
        # Beside the table, above the move log; the table screen's own on_mount runs after this.
        self.query_one("#side").mount(LessonPanel(id="lesson-panel"), before="#scorepad")

    def on_resize(self) -> None:
        self.set_class(self.size.height < self.SHORT, "short")

    # -- where the lesson stands ---------------------------------------------------------------------
    def in_lesson(self) -> bool:
        return self.lesson.follows(self.match)

    def step_now(self) -> Step | None:
        """The step about the next event, if the lesson is on and has one there."""
        return self.lesson.step_at(self.match.cursor) if self.in_lesson() else None

    def scripted(self) -> Move | None:
        """The script's next event, while the lesson is on."""
        return self.lesson.expected(self.match.cursor) if self.in_lesson() else None

    def expected_move(self) -> Move | None:
        """The move the lesson asks of the learner now; None when it asks for none."""
        state = self.match.state
        if state.chance or state.over or self.match.seats[state.to_move].is_bot:
            return None
        return self.scripted()

    def read_due(self) -> bool:
        """A step waits for Enter: one about a bot's move, or the closing one."""
        step = self.step_now()
        if step is None or step.index in self.read or self.waiting:
            return False
        state = self.match.state
        return state.chance or state.over or self.match.seats[state.to_move].is_bot

    # -- the flow of play ------------------------------------------------------------------------------
    def advance(self) -> None:
        if self.read_due():
            self.redraw()
            return
        super().advance()

    def start_bot(self, seat: int) -> None:
        move = self.scripted()
        if move is None:
            super().start_bot(seat)  # free play: the bot thinks at its own level
            return
        self.thinking = seat
        self.redraw_status()
        self.play_scripted(self.generation, seat, move)

    @work(exclusive=True, group="bot")
    async def play_scripted(self, generation: int, seat: int, move: Move) -> None:
        delay = SPEED_DELAYS[host(self).preferences.bot_speed]
        if delay > 0:
            await asyncio.sleep(delay)
        if generation != self.generation or not self.in_play() or self.match.state.to_move != seat:
            return  # undone, redone or left meanwhile
        self.thinking = None
        self.play(move)

    def action_go_on(self) -> None:
        step = self.step_now()
        if step is not None and self.read_due():
            self.read.add(step.index)
            self.advance()

    def play(self, move: Move) -> bool:
        expected = self.expected_move()
        if expected is None or move == expected:
            self.note = ("", "")
            return super().play(move)
        self.take_back(move, expected)
        return False

    def take_back(self, move: Move, expected: Move) -> None:
        """A move off the lesson: nothing is played; the panel says why the lesson wants another."""
        try:
            self.match.game.apply(self.match.state, move)
        except IllegalMove as error:
            reason = error.message.removeprefix(f"{error.rule}: ")
            self.note = ("illegal", f"Not allowed by {error.rule}: {reason}.")
            self.refused(error.message)
        else:
            step = self.step_now()
            why = step.why if step is not None and step.why else "This lesson's deal is built around its own move."
            self.note = ("off", f"Taken back: {self.move_words(move)}. {why}")
            self.set_notice("Taken back: not the lesson's move. The lesson beside the board says why.")
        self.query_one(HandView).focus()  # a move made from the board: Enter must not make it again
        self.show_lesson()
        if type(expected) in (Bid, Trump):
            self.call_after_refresh(self.offer_dialog, True)  # the dialog again, the reason beside it

    def after_cursor_move(self, words: str) -> None:
        cursor = self.match.cursor
        self.read = {index for index in self.read if index < cursor}
        self.note = ("", "")
        super().after_cursor_move(words)

    # -- drawing ---------------------------------------------------------------------------------------
    def redraw(self) -> None:
        super().redraw()
        self.show_lesson()

    def show_lesson(self) -> None:
        """The panel for the step at hand (hidden once the lesson is over), and the lesson's tile
        marked in the hand."""
        on = self.in_lesson()
        self.set_class(on, "in-lesson")
        panels = self.query(LessonPanel)
        if not on or not panels:
            return
        cursor = self.match.cursor
        past = [step for step in self.lesson.steps if step.index <= cursor]
        if past:
            step = past[-1]
            done = step.index < cursor
            action = "Done. The others play now…" if done else self.step_action(step)
            total = len(self.lesson.steps)
            shown = PanelStep(step.number, total, step.title, step.rules, step.text, action, done, prefers=step.prefers)
        else:  # the others move before the first step (Moon's bidding may start with them)
            shown = PanelStep(1, len(self.lesson.steps), self.lesson.title, (), "", "The others move first…", True)
        panels.first().show(replace(shown, note=self.note[1], note_kind=self.note[0]))
        expected = self.expected_move()
        if type(expected) in (Play, Discard) and self.human_to_move():
            self.query_one(HandView).mark_hint(expected.tile)  # type: ignore[attr-defined]

    def refresh_keys(self) -> None:
        key = (self.read_due(),)
        if key != self._lesson_keys:
            self._lesson_keys = key
            self.refresh_bindings()
        super().refresh_keys()

    # -- words -----------------------------------------------------------------------------------------
    def step_action(self, step: Step) -> str:
        """What to do now, with its key."""
        if step.index >= len(self.lesson.script):
            return f"Press Enter for the {'hand' if self.game_name == 'moon' else 'round'}'s scores, then play on."
        state = self.match.state
        seat = state.to_move
        if self.match.seats[seat].is_bot:
            return f"Press Enter to watch {self.match.names[seat]}'s move."
        return self.action_words(self.lesson.script[step.index])

    def action_words(self, move: Move) -> str:
        """The lesson's move for the learner, as an instruction with its key."""
        if type(move) in (Play, Discard):
            return f"Your move: {self.move_words(move)} (Enter)"
        if move is DRAW:
            return "Your move: draw a tile (d)"
        if move is PASS:
            return "Your move: pass (p)"
        return f"Your move: {self.move_words(move)}, in the dialog (b)"

    def move_words(self, move: Move) -> str:
        """A move in a few words: "the 6-9 on train 1", "bid 5", "name 6s as trump"."""
        kind = type(move)
        if kind is Play:
            tile, target = move.tile, move.target  # type: ignore[attr-defined]
            if target is None:
                return f"the {tile}" + (" in the centre" if board_kind(self.game_name) == "layout" else "")
            return f"the {tile} on {place_name(self.match.game, self.match.state.board, target)}"
        if kind is Bid:
            return "pass" if move.amount == 0 else f"bid {move.amount}"  # type: ignore[attr-defined]
        if kind is Trump:
            suit = move.suit  # type: ignore[attr-defined]
            return "choose no trump" if suit == NO_TRUMP else f"name {trump_name(suit)} as trump"
        if kind is Discard:
            return f"lay the {move.tile} aside"  # type: ignore[attr-defined]
        return "draw a tile" if move is DRAW else "pass"

    # -- the learner's keys ----------------------------------------------------------------------------
    @on(HandView.Chosen)
    def _lesson_tile_chosen(self, event: HandView.Chosen) -> None:
        """The lesson's tile, where it fits several ends: the board opens on the lesson's end."""
        expected = self.expected_move()
        if type(expected) is not Play or expected.tile is not event.tile or not self.human_to_move():
            return
        ends = targets_for(self.match.legal_moves(), event.tile)
        if len(ends) < 2:
            return
        event.prevent_default()  # the table's own handler would open the board on the first end
        board = self.query_one(BoardTree)
        board.focus()
        board.focus_target(expected.target)  # type: ignore[arg-type]
        # Again once the tree has laid out its lines: a board just redrawn scrolls to stale lines.
        self.call_after_refresh(board.focus_target, expected.target)
        place = place_name(self.match.game, self.match.state.board, expected.target)  # type: ignore[arg-type]
        self.set_notice(f"The {event.tile} fits {len(ends)} ends: the lesson's is {place}, under the cursor. Enter.")

    def action_hint(self) -> None:
        expected = self.expected_move()
        if expected is None or not self.human_to_move():
            super().action_hint()
            return
        if type(expected) in (Play, Discard):
            self.query_one(HandView).mark_hint(expected.tile)  # type: ignore[attr-defined]
        self.set_notice(f"Lesson: {self.action_words(expected)}.", "hint")

    def offer_dialog(self, asked: bool = False) -> None:
        """Moon's bid and trump: the dialog opens beside the lesson, on the lesson's choice."""
        expected = self.expected_move()
        if expected is None or not self.dialog_due() or self.held_back(asked):
            super().offer_dialog(asked)
            return
        from tui.screens.moon_dialogs import bid_dialog, trump_dialog

        view = self.match.view(self.viewer)
        legal = self.match.legal_moves()
        make = bid_dialog if view.phase == "bidding" else trump_dialog
        dialog = make(view, legal, lambda: (expected, f"the lesson's choice, {self.move_words(expected)}; Enter"))
        dialog.add_class("beside-lesson")
        self.waiting = True
        mounted = self.app.push_screen(dialog, self._after_dialog)

        async def point_at_the_lessons_choice() -> None:
            await mounted
            dialog.action_hint()

        self.run_worker(point_at_the_lessons_choice(), group="lesson-dialog")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "go_on":
            return self.read_due()
        return super().check_action(action, parameters)
