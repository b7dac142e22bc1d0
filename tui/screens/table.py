"""The table: the hand, the board, the scorepad, the status line and the move log.

The screen never changes a state itself: it asks the match for the legal moves, applies one
through `Match.apply`, and redraws. After every event (a move, a deal, an undo or redo) it posts
`TableScreen.MatchChanged`, the one place where saving the match plugs in.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from dataclasses import dataclass
from typing import Any

from rich.markup import escape
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Static

from core import IllegalMove, Match
from core.bots import get_bot
from core.bots.hint import hint
from core.moves import DRAW, PASS, Discard, Draw, Move, Pass, Play
from core.tiles import Tile
from tui.bot_process import BotError, decision_seed
from tui.host import host
from tui.preferences import BOT_SPEEDS, SPEED_DELAYS
from tui.presentation import (
    board_kind,
    board_marks,
    fallback_target,
    hand_tiles,
    line_namer,
    scorepad_extras,
    status_extra,
    status_facts,
    targets_for,
    tile_moves,
)
from tui.screens.pass_device import PassScreen
from tui.screens.round_over import RoundOverScreen
from tui.screens.rules import RulesScreen
from tui.widgets import BoardTree, HandView, Scorepad
from tui.widgets.move_log import MoveLog
from tui.widgets.trick_view import TrickView

DIALOG_PHASES = {"bidding": "bid", "trump": "name trump"}  # Moon's decisions made in a dialog

BOT_BUDGET: float | None = None  # each level's own budget: medium 0.2 s, hard 1 s
# Levels that answer at once (easy: 0.06 ms a decision, measured) think in a thread of the
# interface's process: the bot process would add 0.25 ms a decision and some 0.2 s to start, which
# only slows instant-speed play and the tests, and gives the same moves. Every other level (medium,
# hard, any new one) searches in the bot process, so it can never starve the interface.
IN_PROCESS_LEVELS = frozenset({"random", "easy"})
LOG_LINES = 300


class TableScreen(Screen[None]):
    BINDINGS = [
        Binding("d", "draw", "Draw", id="table.draw"),
        Binding("p", "pass_turn", "Pass", id="table.pass"),
        Binding("b", "decide", "Bid/trump", id="table.decide"),
        Binding("h", "hint", "Hint", id="table.hint"),
        Binding("u", "undo", "Undo", id="table.undo"),
        Binding("r", "redo", "Redo", id="table.redo"),
        Binding("s", "speed", "Speed", id="table.speed"),
        Binding("w", "save_copy", "Save a copy", show=False, id="table.save_copy"),
        Binding("question_mark", "rules", "Rules", key_display="?", id="table.rules"),
        Binding("escape", "focus_hand", "Hand", show=False, id="table.hand"),
        Binding("q", "leave", "Leave", id="table.leave"),
    ]

    @dataclass
    class MatchChanged(Message):
        """An event was applied, or the cursor moved (undo/redo): the match should be saved."""

        match: Match

    def __init__(self, match: Match) -> None:
        super().__init__()
        self.match = match
        self.viewer = match.humans[0] if match.humans else 0  # the seat whose hand is shown
        self.thinking: int | None = None  # the bot seat that is choosing a move
        self.generation = 0  # bumped on undo/redo so a late bot answer is dropped
        self.asking_process: int | None = None  # the generation whose decision the bot process searches
        self.waiting = False  # a round-over or pass screen is up
        self._described: dict[tuple[int, Move], str] = {}
        self._keys_state: tuple[bool, ...] = ()
        self._board_drawn: tuple[object, ...] = ()  # what the board was last drawn for
        self.sub_title = match.game.title

    # -- layout --------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="table-main"):
            with Vertical(id="board-area"):
                yield from self.compose_board()
            with Vertical(id="side"):
                yield Scorepad(id="scorepad")
                yield MoveLog(id="move-log")
        yield Static(id="notice")
        yield HandView(id="hand")
        yield Footer(compact=True)

    def compose_board(self) -> ComposeResult:
        """The middle of the table: the layout tree for the draw games (a trick view for Moon)."""
        if board_kind(self.match.game_name) == "layout":
            yield BoardTree(id="board")
        else:
            yield TrickView(id="board")

    def on_mount(self) -> None:
        self.query_one(HandView).focus()
        self.call_after_refresh(self.advance)  # once every widget of the table is in place

    # -- reading the match ---------------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self.match.state

    def human_to_move(self) -> bool:
        state = self.state
        return (
            not state.chance
            and not state.over
            and state.to_move is not None
            and not self.match.seats[state.to_move].is_bot
            and not self.waiting
        )

    def legal_for_viewer(self) -> tuple[Move, ...]:
        return self.match.legal_moves() if self.human_to_move() and self.state.to_move == self.viewer else ()

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
                self.app.push_screen(RoundOverScreen(match), self._after_round)
                return
            seat = state.to_move
            if match.seats[seat].is_bot:
                self.redraw()
                self.start_bot(seat)
                return
            if seat != self.viewer and len(match.humans) > 1:
                self.viewer = seat
                self.waiting = True
                self.app.push_screen(PassScreen(match.names[seat]), self._after_pass)
                return
            self.viewer = seat
            self.redraw()
            self.offer_dialog()
            return

    def _after_round(self, choice: str | None) -> None:
        self.waiting = False
        if choice == "undo" and self.match.can_undo():
            self.action_undo()
            return
        if self.match.state.over:
            host(self).show_game_over(self.match)
            return
        self.match.deal()
        self.recorded()
        self.set_notice("")
        self.advance()

    def _after_pass(self, _: None) -> None:
        self.waiting = False
        self.redraw()
        self.offer_dialog()

    # -- Moon's dialogs ------------------------------------------------------------------------------
    def dialog_due(self) -> bool:
        """Moon: the human to move must bid or name trump, which is done in a dialog."""
        return (
            board_kind(self.match.game_name) == "tricks" and self.human_to_move() and self.state.phase in DIALOG_PHASES
        )

    def offer_dialog(self) -> None:
        if not self.dialog_due():
            return
        from tui.screens.moon_dialogs import bid_dialog, trump_dialog

        view = self.match.view(self.viewer)
        legal = self.match.legal_moves()
        make = bid_dialog if self.state.phase == "bidding" else trump_dialog
        self.waiting = True
        self.app.push_screen(make(view, legal, lambda: hint(view, legal)), self._after_dialog)

    def _after_dialog(self, move: Move | None) -> None:
        self.waiting = False
        if move is None:
            self.set_notice(f"Press b when you are ready to {DIALOG_PHASES[self.state.phase]}.")
            self.refresh_keys()
            return
        self.play(move)

    def action_decide(self) -> None:
        self.offer_dialog()

    def play(self, move: Move) -> bool:
        """Apply `move`; an illegal one shows its rule and changes nothing."""
        try:
            self.match.apply(move)
        except IllegalMove as error:
            self.set_notice(error.message, "illegal")
            self.app.bell()
            return False
        self.set_notice("")
        self.recorded()
        self.advance()
        return True

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
                move = await asyncio.to_thread(process.ask, request)
            except BotError as error:
                if generation != self.generation:
                    return  # cancelled by undo or redo
                self.notify(f"The bot process failed ({error}); the bot thinks here instead.", severity="warning")
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
            move = await asyncio.to_thread(bot.choose, view, legal, random.Random(seed), BOT_BUDGET)  # type: ignore[arg-type]
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

    def in_play(self) -> bool:
        """False once the screen is closing (the player left, the app quits)."""
        return self.is_attached and self.is_running and bool(self.query("#notice"))

    def on_unmount(self) -> None:
        self.stop_bot()

    def stop_bot(self) -> None:
        self.generation += 1
        self.workers.cancel_group(self, "bot")
        if self.asking_process is not None:
            host(self).bot_process.cancel()  # stop the search; the next decision starts afresh
            self.asking_process = None
        self.thinking = None

    # -- drawing ---------------------------------------------------------------------------------
    def redraw(self) -> None:
        match = self.match
        view = match.view(self.viewer)
        legal = self.legal_for_viewer()
        hand = self.query_one(HandView)
        playable = hand_tiles(legal)
        hand.show(match.names[self.viewer], view.hand, playable, keep=hand.selected)
        self.redraw_board(view, legal, hand.selected)
        state = self.state
        extras = scorepad_extras(match.game_name, state)
        self.query_one(Scorepad).show(match.names, state.round_scores, state.scores, state.round or None, **extras)
        self.redraw_status()
        self.redraw_log()
        self.refresh_keys()

    def refresh_keys(self) -> None:
        """Grey out the keys that do nothing now; only when that changes (the footer is rebuilt)."""
        key = (self.human_to_move(), self.dialog_due(), self.match.can_undo(), self.match.can_redo())
        if key != self._keys_state:
            self._keys_state = key
            self.refresh_bindings()

    def redraw_board(self, view: Any, legal: tuple[Move, ...], selected: Tile | None) -> None:
        self._board_drawn = (self.match.cursor, selected, self.waiting)
        name = self.match.game_name
        if board_kind(name) != "layout":
            self.query_one(TrickView).show(view, self.match.names)
            return
        board = self.query_one(BoardTree)
        board.show(view.board, board_marks(name, view, legal, selected), line_namer(name))

    def redraw_status(self) -> None:
        match = self.match
        state = self.state
        names = [escape(name) for name in match.names]
        view = match.view(self.viewer)
        parts = status_facts(match.game_name, view)
        if state.over:
            parts.append("game over")
        elif state.chance:
            parts.append("round over")
        elif self.thinking is not None:
            parts.append(f"[b]{names[self.thinking]} is thinking…[/b]")
        elif state.to_move is not None:
            if state.to_move == self.viewer:
                parts.append(f"[b]your turn, {names[state.to_move]}[/b]")
            else:
                parts.append(f"[b]{names[state.to_move]}[/b] to play")
        hands = " · ".join(f"{names[i]} {size}" for i, size in enumerate(view.hand_sizes))
        extra = status_extra(match.game_name, view)
        status = self.query_one("#status", Static)
        status.update(f"{' · '.join(parts)}\nTiles in hand: {hands}" + (f" · {extra}" if extra else ""))
        status.set_class(self.thinking is not None, "thinking")

    def redraw_log(self) -> None:
        match = self.match
        lines = []
        first = max(0, match.cursor - LOG_LINES)
        for index in range(first, match.cursor):
            event = match.events[index]
            key = (index, event)
            line = self._described.get(key)
            if line is None:
                line = match.game.describe_move(match.state_at(index), event, match.names)
                self._described[key] = line
            lines.append(line)
        self.query_one(MoveLog).show(lines)

    def set_notice(self, text: str, kind: str = "") -> None:
        notice = self.query_one("#notice", Static)
        notice.update(Text(text))
        notice.set_class(kind == "illegal", "illegal")
        notice.set_class(kind == "hint", "hint")
        notice.display = bool(text)

    # -- the player's input ------------------------------------------------------------------------
    @on(HandView.Highlighted)
    def _tile_highlighted(self, event: HandView.Highlighted) -> None:
        if board_kind(self.match.game_name) != "layout" or self.match.state.board is None:
            return
        if self._board_drawn == (self.match.cursor, event.tile, self.waiting):
            return
        self.redraw_board(self.match.view(self.viewer), self.legal_for_viewer(), event.tile)

    @on(HandView.Chosen)
    def _tile_chosen(self, event: HandView.Chosen) -> None:
        if not self.human_to_move():
            return
        legal = self.match.legal_moves()
        if board_kind(self.match.game_name) == "tricks":
            if self.dialog_due():
                self.offer_dialog()
                return
            # MN-11 (the discard) or MN-15 (a play); an illegal tile lets the engine say why.
            self.play(next(iter(tile_moves(legal, event.tile)), None) or Play(event.tile))
            return
        ends = targets_for(legal, event.tile)
        if len(ends) == 1:
            self.play(Play(event.tile, ends[0]))
        elif ends:
            board = self.query_one(BoardTree)
            board.focus()
            board.focus_target(ends[0])
            self.set_notice(f"The {event.tile} fits {len(ends)} ends: choose one on the board and press Enter.")
        else:
            # Let the engine say why the tile does not fit (the rule and its reason).
            self.play(Play(event.tile, fallback_target(self.state.board)))

    @on(BoardTree.TargetChosen)
    def _target_chosen(self, event: BoardTree.TargetChosen) -> None:
        tile = self.query_one(HandView).selected
        if not self.human_to_move() or tile is None:
            return
        if self.play(Play(tile, event.line_id)):
            self.query_one(HandView).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("draw", "pass_turn") and board_kind(self.match.game_name) == "tricks":
            return False  # Moon has no drawing and no passing a turn
        if action == "decide":
            return self.dialog_due()  # shown only while a bid or trump is due
        if action in ("draw", "pass_turn", "hint"):
            return True if self.human_to_move() else None
        if action == "undo":
            return True if self.match.can_undo() else None
        if action == "redo":
            return True if self.match.can_redo() else None
        return True

    def action_draw(self) -> None:
        if self.human_to_move():
            self.play(DRAW)

    def action_pass_turn(self) -> None:
        if self.human_to_move():
            self.play(PASS)

    def action_hint(self) -> None:
        if not self.human_to_move():
            return
        self.set_notice("Hint: thinking…", "hint")
        self.find_hint(self.match.cursor, self.match.view(self.state.to_move), self.match.legal_moves())

    @work(thread=True, exclusive=True, group="hint")
    def find_hint(self, cursor: int, view: Any, legal: tuple[Move, ...]) -> None:
        """The hint samples deals for a fraction of a second: a thread keeps the keys answering."""
        move, reason = hint(view, legal)
        with contextlib.suppress(RuntimeError):  # the app closed meanwhile
            self.app.call_from_thread(self.show_hint, cursor, move, reason)

    def show_hint(self, cursor: int, move: Move, reason: str) -> None:
        if cursor != self.match.cursor or not self.in_play() or not self.human_to_move():
            return  # the position changed while the hint was found
        hand = self.query_one(HandView)
        if type(move) in (Play, Discard):
            hand.mark_hint(move.tile)  # type: ignore[attr-defined]
            if board_kind(self.match.game_name) == "layout" and move.target is not None:  # type: ignore[attr-defined]
                self.query_one(BoardTree).focus_target(move.target)  # type: ignore[attr-defined]
        elif type(move) in (Draw, Pass):
            hand.mark_hint(None)
        self.set_notice(f"Hint: {reason}", "hint")

    def action_undo(self) -> None:
        if not self.match.can_undo():
            return
        self.stop_bot()
        self.match.undo()
        self.after_cursor_move("Undone: back to your previous decision.")

    def action_redo(self) -> None:
        if not self.match.can_redo():
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
        self.notify(f"Bots now play at {speed} speed.", timeout=2)

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen(self.match.game_name))

    def action_save_copy(self) -> None:
        match_id = host(self).save_copy()
        if match_id is not None:
            self.notify(f"Saved a copy as match {match_id}; play goes on here.", timeout=4)

    def action_focus_hand(self) -> None:
        self.query_one(HandView).focus()

    def action_leave(self) -> None:
        self.stop_bot()
        host(self).leave_match()
