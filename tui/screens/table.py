"""The table of a match played in this process: dealing, bots, hot-seat passing and saving.

The screen never changes a state itself: it asks the match for the legal moves, applies one
through `Match.apply`, and redraws. After every event (a move, a deal, an undo or redo) it posts
`TableScreen.MatchChanged`, the one place where saving the match plugs in.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass
from typing import Any

from textual import work
from textual.message import Message

from core import Match
from core.bots import get_bot
from core.moves import Deal, Move
from core.words import listing, possessive
from tui.host import host
from tui.preferences import BOT_SPEEDS, SPEED_DELAYS
from tui.screens.pass_device import PassScreen
from tui.screens.round_over import RoundOverScreen
from tui.screens.table_base import BaseTableScreen
from tui.table_model import LocalTable
from tui.widgets.hand_view import HandView
from workers.bot_process import IN_PROCESS_LEVELS, BotError, decision_seed

BOT_BUDGET: float | None = None  # each level's own budget: medium 0.2 s, hard 1 s
# Levels that answer at once (easy: 0.06 ms a decision, measured) think in a thread of the
# interface's process: the bot process would add 0.25 ms a decision and some 0.2 s to start, which
# only slows instant-speed play and the tests, and gives the same moves. Every other level (medium,
# hard, any new one) searches in the bot process, so it can never starve the interface.


class TableScreen(BaseTableScreen):
    @dataclass
    class MatchChanged(Message):
        """An event was applied, or the cursor moved (undo/redo): the match should be saved."""

        match: Match

    def __init__(self, match: Match) -> None:
        self.local = LocalTable(match)
        super().__init__(self.local)
        self.match = match
        self.generation = 0  # bumped on undo/redo so a late bot answer is dropped
        self.asking_process: int | None = None  # the generation whose decision the bot process searches
        # Hot seat: the human the table was last passed to, who has the keyboard now. None at the
        # start, on reopening and after a round's end (everyone looked), so the first human hand
        # to show is always behind its "Pass to" screen.
        self.passed_to: int | None = None

    # -- reading the match ---------------------------------------------------------------------
    def viewer_plays(self) -> bool:
        return bool(self.match.humans)

    @property
    def state(self) -> Any:
        return self.match.state

    # -- the flow of play ------------------------------------------------------------------------
    def advance(self) -> None:
        """Go on until someone must decide: deal when chance is due, start a bot, or wait for a human."""
        match = self.match
        while True:
            state = match.state
            if state.chance and state.round == 0:
                match.deal()
                self.recorded()
                continue
            if state.chance or state.over:
                self.redraw()
                self.waiting = True
                self.app.push_screen(RoundOverScreen(self.local), self._after_round)
                return
            seat = state.to_move
            if match.seats[seat].is_bot:
                self.redraw()
                self.start_bot(seat)
                return
            if self.hot_seat and seat != self.passed_to:
                self.pass_to(seat, self._after_pass)
                return
            self.viewer = seat
            self.redraw()
            self.offer_dialog()
            return

    @property
    def hot_seat(self) -> bool:
        """Several humans share this keyboard: each hand is shown only to its player."""
        return len(self.match.humans) > 1

    def hand_hidden(self) -> bool:
        return self.hot_seat and self.passed_to != self.viewer

    def pass_to(self, seat: int, then: Any, why: str = "") -> None:
        """Hide the table behind a "Pass to" screen until `seat`'s player is at the keyboard."""
        self.viewer = seat
        self.passed_to = None
        self.waiting = True
        self.redraw()  # the hand under the pass screen is hidden already
        self.app.push_screen(PassScreen(self.match.names[seat], why), lambda _: self._passed(seat, then))

    def _passed(self, seat: int, then: Any) -> None:
        self.passed_to = seat
        self.redraw()
        then(None)

    def _after_round(self, choice: str | None) -> None:
        self.waiting = False
        if choice == "undo" and self.match.can_undo():
            self.action_undo()
            return
        if self.match.state.over:
            host(self).show_game_over(self.match)
            return
        self.passed_to = None  # everyone looked at the round's end: pass again before a hand shows
        self.match.deal()
        self.recorded()
        self.set_notice("")
        self.advance()

    def _after_pass(self, _: None) -> None:
        self.waiting = False
        self.redraw()
        self.offer_dialog()

    def moved(self) -> None:
        self.recorded()
        self.advance()

    def recorded(self) -> None:
        """Every event and cursor move ends here: the seam where autosave plugs in."""
        self.post_message(self.MatchChanged(self.match))

    # -- bots ------------------------------------------------------------------------------------
    def start_bot(self, seat: int) -> None:
        self.thinking = seat
        self.redraw_status()
        self.run_bot(self.generation, seat)

    @work(exclusive=True, group="bot")
    async def run_bot(self, generation: int, seat: int) -> None:
        match = self.match
        level = match.seats[seat].level or "easy"
        cursor = match.cursor
        seed = decision_seed(match, seat)  # the same decision again after undo and redo
        started = time.monotonic()
        move: Move | None = None
        if level not in IN_PROCESS_LEVELS:
            process = host(self).bot_process
            request = process.request(match, seat, level, BOT_BUDGET, seed)
            self.asking_process = generation
            try:
                move = await asyncio.get_running_loop().run_in_executor(host(self).bot_thread, process.ask, request)
            except BotError as error:
                if generation != self.generation:
                    return  # cancelled by undo or redo
                self.notify(
                    f"The bot process failed ({error}); the bot thinks here instead.", severity="warning", markup=False
                )
            finally:
                if self.asking_process == generation:
                    self.asking_process = None
        if move is None:
            if generation != self.generation or match.cursor != cursor:
                return
            view = match.view(seat)
            legal = match.legal_moves()
            bot = get_bot(level)
            # A thread keeps the interface answering keys while a quick bot thinks.
            move = await asyncio.get_running_loop().run_in_executor(
                host(self).bot_thread, bot.choose, view, legal, random.Random(seed), BOT_BUDGET
            )
        delay = SPEED_DELAYS[host(self).preferences.bot_speed] - (time.monotonic() - started)
        if delay > 0:
            await asyncio.sleep(delay)
        if (
            generation != self.generation
            or not self.in_play()
            or self.match.cursor != cursor
            or self.state.to_move != seat
        ):
            return  # undone, redone or left while the bot was thinking
        self.thinking = None
        self.play(move)

    def on_unmount(self) -> None:
        self.stop_bot()

    def stop_bot(self) -> None:
        self.generation += 1
        self.workers.cancel_group(self, "bot")
        if self.asking_process is not None:
            host(self).bot_process.cancel()  # stop the search; the next decision starts afresh
            self.asking_process = None
        self.thinking = None

    # -- the keys of a match at this keyboard ------------------------------------------------------
    def action_undo(self) -> None:
        point = self.match.undo_point()
        if point is None or not self.match.can_undo():
            self.set_notice(self.match.undo_refusal() or "Nothing to undo.")
            return
        owner = self.match.state_at(point).to_move
        if self.hot_seat and owner != self.passed_to:
            self.ask_to_undo(owner)
            return
        self.stop_bot()
        self.match.undo()
        self.after_cursor_move("Undone: back to your previous decision.")

    def ask_to_undo(self, owner: int) -> None:
        """Hot seat: an undo that takes back another human's move asks that human first, at the
        keyboard, behind their pass screen; declined, the table goes back to the one who asked."""
        from tui.screens.undo_dialog import UndoDialog

        names = self.match.names
        asker = self.passed_to
        asking = names[asker] if asker is not None else "Someone at the table"
        self.stop_bot()
        detail = undo_words(self.match, self.match.undo_point() or 0, owner)
        why = f"{asking} asks to undo your last move."

        def answered(accept: bool | None) -> None:
            self.waiting = False
            if accept:
                self.match.undo()
                self.after_cursor_move(f"Undone at {asking}'s request: back to your move, {names[owner]}.")
            elif asker is not None and asker != owner:
                self.pass_to(asker, lambda _: self.declined(names[owner]))
            else:
                self.declined(names[owner])

        self.pass_to(owner, lambda _: self.app.push_screen(UndoDialog(asking, detail), answered), why)

    def declined(self, name: str) -> None:
        self.waiting = False
        self.set_notice(f"{name} declined the undo.")
        self.advance()

    def action_redo(self) -> None:
        if not self.match.can_redo():
            self.set_notice("Nothing to redo.")
            return
        self.stop_bot()
        self.match.redo()
        self.after_cursor_move("Redone.")

    def after_cursor_move(self, words: str) -> None:
        self.recorded()
        self.set_notice(words)
        self.query_one(HandView).focus()
        self.advance()

    def action_speed(self) -> None:
        app = host(self)
        speed = BOT_SPEEDS[(BOT_SPEEDS.index(app.preferences.bot_speed) + 1) % len(BOT_SPEEDS)]
        app.set_preferences(bot_speed=speed)
        self.redraw_status()
        self.set_notice(f"Bots now play at {speed} speed.")

    def action_save_copy(self) -> None:
        match_id = host(self).save_copy()
        if match_id is not None:
            self.set_notice(f"Saved a copy as match {match_id}; play goes on here.")

    def action_leave(self) -> None:
        self.stop_bot()
        host(self).leave_match()


def undo_words(match: Match, point: int, owner: int) -> str:
    """What an undo back to `point` takes back, told to `owner`, whose decision it returns to:
    their move, named, and whose moves after it ("It takes back your move (you played 5-5 on
    train 2) and the 2 moves after it, Cleo's and Dan's; then it is your turn again.")."""
    names = match.names
    state = match.state_at(point)
    own = match.game.describe_move(state, match.events[point], names, owner)
    own = "you" + own.removeprefix(names[owner]) if own.startswith(names[owner]) else own
    later, seats, dealt = 0, [], False
    for index in range(point + 1, match.cursor):
        seat = match.state_at(index).to_move
        if type(match.events[index]) is Deal:
            dealt = True
        elif seat is not None:
            later += 1
            if seat not in seats:
                seats.append(seat)
    words = f"It takes back your move ({own})"
    if later:
        whose = listing([possessive(names[seat]) for seat in seats])
        words += f" and the move after it, {whose}" if later == 1 else f" and the {later} moves after it, {whose}"
    if dealt:
        words += ", and the deal after them"
    return words + "; then it is your turn again."
