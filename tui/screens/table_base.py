"""The table as drawn and played, for any table model: the hand, the board, the scorepad, the status
line, the move log and the notice, and the player's keys.

Everything shown comes from the viewer's `View` and the legal moves the model offers, so a table
held in this process (tui/screens/table.py) and one held by a server (tui/screens/remote_table.py)
look and play the same. How play goes on after a move (dealing, bots, hot seat, or waiting for the
server) is the subclass's.
"""

from __future__ import annotations

import contextlib
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from core import IllegalMove
from core.bots.hint import hint
from core.moves import DRAW, PASS, Discard, Draw, Move, Pass, Play
from core.tiles import Tile
from tui.presentation import (
    board_kind,
    board_marks,
    empty_board_words,
    hand_sizes_line,
    hand_tiles,
    line_namer,
    scorepad_extras,
    status_extra,
    status_facts,
    targets_for,
    tile_moves,
    turn_advice,
)
from tui.screens.rules import RulesScreen
from tui.styles import TABLE_STYLES
from tui.table_model import TableModel
from tui.widgets.board_tree import BoardTree
from tui.widgets.footer import Footer
from tui.widgets.hand_view import HandView
from tui.widgets.move_log import MoveLog
from tui.widgets.scorepad import Scorepad, ScoreSheet
from tui.widgets.trick_view import TrickView

DIALOG_PHASES = {"bidding": "bid", "trump": "name trump"}  # Moon's decisions made in a dialog
LOG_LINES = 300


class BaseTableScreen(Screen[None]):
    CSS_PATH: ClassVar = [TABLE_STYLES]
    # Every key of every kind of table, in one order (the footer's); a table greys or hides the
    # ones it has no use for in check_action.
    AUTO_FOCUS = "#hand"  # the hand takes the keys from the first frame (and its keys are in the footer)
    BINDINGS = [
        Binding("d", "draw", "Draw", id="table.draw"),
        Binding("p", "pass_turn", "Pass", id="table.pass"),
        Binding("b", "decide", "Bid/trump", id="table.decide"),
        Binding("e", "next_end", "Next end", id="table.next_end"),
        Binding("h", "hint", "Hint", id="table.hint"),
        Binding("u", "undo", "Undo", id="table.undo"),
        Binding("r", "redo", "Redo", id="table.redo"),
        Binding("m", "talk", "Say", tooltip="Say something to the table (a few set phrases)", id="table.talk"),
        Binding("s", "speed", "Speed", show=False, id="table.speed"),
        Binding("w", "save_copy", "Save a copy", show=False, id="table.save_copy"),
        Binding("question_mark", "rules", "Rules", key_display="?", id="table.rules"),
        Binding("escape", "focus_hand", "Hand", show=False, id="table.hand"),
        Binding("q", "leave", "Leave", id="table.leave"),
        # A key greyed out in the footer still answers, with the reason it cannot act now: these
        # come after the keys' own bindings, which Textual skips while check_action refuses them.
        Binding("d", "why_not('draw')", show=False, id="table.draw_refused"),
        Binding("p", "why_not('pass_turn')", show=False, id="table.pass_refused"),
        Binding("h", "why_not('hint')", show=False, id="table.hint_refused"),
        Binding("u", "why_not('undo')", show=False, id="table.undo_refused"),
        Binding("r", "why_not('redo')", show=False, id="table.redo_refused"),
        Binding("e", "why_not('next_end')", show=False, id="table.next_end_refused"),
    ]

    def __init__(self, table: TableModel) -> None:
        super().__init__()
        self.table = table
        self.thinking: int | None = None  # the bot seat that is choosing a move
        self.waiting = False  # a dialog or another screen is up over the table
        self._keys_state: tuple[bool, ...] = ()
        self._board_drawn: tuple[object, ...] = ()  # what the board was last drawn for
        self.hinted: tuple[int, Move] | None = None  # (cursor, move) of the last hint shown
        self.put_off: int | None = None  # the decision whose dialog the player closed: not pushed on them again
        self.sub_title = table.game.title

    @property
    def viewer(self) -> int:
        """The seat whose hand is shown."""
        return self.table.viewer

    @viewer.setter
    def viewer(self, seat: int) -> None:
        self.table.viewer = seat

    @property
    def game_name(self) -> str:
        return self.table.game_name

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
        if board_kind(self.game_name) == "layout":
            yield BoardTree(id="board")
        else:
            yield TrickView(id="board", addressed=self.viewer_plays())

    def viewer_plays(self) -> bool:
        """Whether the seat shown is the player's own, so the table says "you" to them (a table of
        bots only is watched from its first seat, whose moves are the bots' own)."""
        return True

    def on_mount(self) -> None:
        self.call_after_refresh(self.advance)  # once every widget of the table is in place

    def advance(self) -> None:
        """Go on until this player must decide (the subclass's flow of play)."""
        raise NotImplementedError

    # -- reading the table ---------------------------------------------------------------------
    def human_to_move(self) -> bool:
        return not self.waiting and self.table.human_to_move()

    def legal_for_viewer(self) -> tuple[Move, ...]:
        if self.human_to_move() and self.table.view().to_move == self.viewer:
            return self.table.legal_moves()
        return ()

    # -- Moon's dialogs --------------------------------------------------------------------------
    def dialog_due(self) -> bool:
        """Moon: the human to move must bid or name trump, which is done in a dialog."""
        return (
            board_kind(self.game_name) == "tricks" and self.human_to_move() and self.table.view().phase in DIALOG_PHASES
        )

    def decision(self) -> int:
        """What tells one decision from the next: the table's cursor, which moves with every move."""
        return self.table.cursor

    def held_back(self, asked: bool) -> bool:
        """Whether a due dialog waits for b: the player put off this very decision and has not asked."""
        if self.put_off != self.decision():
            self.put_off = None  # play has moved on (or gone back and forth) since it was put off
        return not asked and self.put_off is not None

    def offer_dialog(self, asked: bool = False) -> None:
        """Open the bid or trump dialog if one is due; one the player put off waits for b (`asked`)."""
        if not self.dialog_due() or self.held_back(asked):
            return
        from tui.screens.moon_dialogs import bid_dialog, trump_dialog

        view = self.table.view()
        legal = self.table.legal_moves()
        make = bid_dialog if view.phase == "bidding" else trump_dialog
        self.waiting = True
        self.app.push_screen(make(view, legal, lambda: hint(view, legal), self.table), self._after_dialog)

    def _after_dialog(self, move: Move | str | None) -> None:
        self.waiting = False
        self.put_off = None
        if move == "undo":  # the table's own keys, pressed in the dialog
            self.action_undo()
            return
        if move == "redo":
            self.action_redo()
            return
        if move is None:
            self.put_off = self.decision()
            self.set_notice(f"Press b when you are ready to {DIALOG_PHASES[self.table.view().phase]}.")
            self.refresh_keys()
            return
        self.play(move)

    def action_decide(self) -> None:
        self.offer_dialog(asked=True)

    # -- moving ----------------------------------------------------------------------------------
    def play(self, move: Move) -> bool:
        """Apply `move`; an illegal one shows its rule and changes nothing."""
        try:
            self.table.apply(move)
        except IllegalMove as error:
            self.refused(error.message)
            return False
        self.set_notice("")
        self.moved()
        return True

    def refused(self, message: str) -> None:
        """An illegal move: the rule and its reason, and a bell."""
        self.set_notice(message, "illegal")
        self.app.bell()

    def moved(self) -> None:
        """After a move was taken: the subclass goes on with play."""

    # -- drawing ---------------------------------------------------------------------------------
    def redraw(self) -> None:
        table = self.table
        view = table.view()
        legal = self.legal_for_viewer()
        hand = self.query_one(HandView)
        if self.hand_hidden():
            hand.conceal(self.hidden_hand_words())
        else:
            hand.show(table.names[self.viewer], view.hand, hand_tiles(legal), keep=hand.selected)
        self.redraw_board(view, legal, hand.selected)
        extras = scorepad_extras(self.game_name, view)
        sheet = ScoreSheet(table.names, view.round_scores, view.scores, view.round or None, **extras)
        self.query_one(Scorepad).show(sheet)
        self.redraw_status()
        self.redraw_log()
        self.refresh_keys()

    def hand_hidden(self) -> bool:
        """Whether the viewer's hand must stay hidden now (hot seat: until it is passed to them)."""
        return False

    def hidden_hand_words(self) -> str:
        return "Hidden until it is passed to its player."

    def can_talk(self) -> bool:
        """Whether the player can send quick messages here (a shared table)."""
        return False

    def refresh_keys(self) -> None:
        """Grey out the keys that do nothing now; only when that changes (the footer is rebuilt)."""
        key = (
            self.human_to_move(),
            self.dialog_due(),
            self.table.can_undo(),
            self.table.can_redo(),
            self.ends_to_choose(),
        )
        if key != self._keys_state:
            self._keys_state = key
            self.refresh_bindings()

    def redraw_board(self, view: Any, legal: tuple[Move, ...], selected: Tile | None) -> None:
        self._board_drawn = (self.table.cursor, selected, self.waiting)
        name = self.game_name
        if board_kind(name) != "layout":
            self.query_one(TrickView).show(view, self.table.names)
            return
        board = self.query_one(BoardTree)
        words = empty_board_words(name, view, self.table.names)
        board.show(view.board, board_marks(name, view, legal, selected), line_namer(name), words)

    def status_notes(self, names: tuple[str, ...]) -> list[str]:
        """Facts a kind of table adds to the status line after whose turn it is (plain text)."""
        return []

    def redraw_status(self) -> None:
        """Built as Text, never markup: the names are the players' own and may hold anything."""
        table = self.table
        names = table.names
        view = table.view()
        parts: list[Text | str] = list(status_facts(self.game_name, view))
        if view.over:
            parts.append("game over")
        elif view.chance:
            parts.append("hand over" if board_kind(self.game_name) == "tricks" else "round over")
        elif self.thinking is not None:
            parts.append(Text(f"{names[self.thinking]} is thinking…", style="bold"))
        elif view.to_move is not None:
            if view.to_move == self.viewer and self.viewer_plays():
                you = "" if table.names[view.to_move] == "You" else f", {names[view.to_move]}"
                parts.append(Text(f"your turn{you}", style="bold"))
                advice = turn_advice(self.game_name, view, self.legal_for_viewer())
                if advice:
                    parts.append(Text(advice, style="bold"))
            else:
                parts.append(Text.assemble((names[view.to_move], "bold"), " to play"))
        parts += self.status_notes(names)
        extra = status_extra(self.game_name, view)
        line = Text(" · ").join(Text(part) if isinstance(part, str) else part for part in parts)
        status = self.query_one("#status", Static)
        width = status.content_region.width or self.app.size.width - 2  # before the first layout: the padding
        line.append("\n" + hand_sizes_line(names, view.hand_sizes, extra, width))
        status.update(line)
        status.set_class(self.thinking is not None, "thinking")

    def redraw_log(self) -> None:
        self.query_one(MoveLog).show(self.table.log_lines(LOG_LINES))

    def set_notice(self, text: str, kind: str = "") -> None:
        notice = self.query_one("#notice", Static)
        notice.update(Text(text))
        notice.set_class(kind == "illegal", "illegal")
        notice.set_class(kind == "hint", "hint")
        notice.display = bool(text)

    # -- the player's input ------------------------------------------------------------------------
    @on(HandView.Highlighted)
    def _tile_highlighted(self, event: HandView.Highlighted) -> None:
        if board_kind(self.game_name) != "layout":
            return
        view = self.table.view()
        if view.board is None or self._board_drawn == (self.table.cursor, event.tile, self.waiting):
            return
        self.redraw_board(view, self.legal_for_viewer(), event.tile)
        self.refresh_keys()

    @on(HandView.Chosen)
    def _tile_chosen(self, event: HandView.Chosen) -> None:
        if not self.human_to_move():
            self.set_notice(self.wait_words())
            return
        legal = self.table.legal_moves()
        if board_kind(self.game_name) == "tricks":
            if self.dialog_due():
                self.offer_dialog(asked=True)  # a tile chosen: the player is ready to decide
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
            hinted = self.hinted_play(event.tile, ends)
            board.focus_target(hinted if hinted is not None else ends[0])
            if hinted is not None:  # the board opens where the hint said: Enter plays it there
                place = self.table.game.line_name(self.table.view().board, hinted)
                self.set_notice(
                    f"The hint's end for the {event.tile}, {place}, is under the cursor: Enter plays it there."
                )
            else:
                self.set_notice(
                    f"The {event.tile} fits {len(ends)} ends: e or ↑ ↓ to pick one, Enter to play, Esc: hand."
                )
        else:
            # No end named: the engine says why the tile fits none (a locked number, a foot...).
            self.play(Play(event.tile, None))

    @on(BoardTree.TargetChosen)
    def _target_chosen(self, event: BoardTree.TargetChosen) -> None:
        tile = self.query_one(HandView).selected
        if not self.human_to_move() or tile is None:
            return
        if self.play(Play(tile, event.line_id)):
            self.query_one(HandView).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("draw", "pass_turn") and board_kind(self.game_name) == "tricks":
            return False  # Moon has no drawing and no passing a turn
        if action == "next_end":
            return self.ends_to_choose()  # shown only while the picked tile fits several ends
        if action == "decide":
            return self.dialog_due()  # shown only while a bid or trump is due
        if action == "talk":
            return self.can_talk()
        if action in ("draw", "pass_turn", "hint"):
            return True if self.human_to_move() else None
        if action == "undo":
            return True if self.table.can_undo() else None
        if action == "redo":
            return True if self.table.can_redo() else None
        return True

    def ends_to_choose(self) -> bool:
        """The picked tile fits more than one end: the player chooses where on the board."""
        if board_kind(self.game_name) != "layout" or not self.human_to_move() or not self.is_mounted:
            return False
        return len(targets_for(self.legal_for_viewer(), self.query_one(HandView).selected)) > 1

    def action_next_end(self) -> None:
        """Jump to the next end where the picked tile fits (the board takes the keys: Enter plays)."""
        board = self.query_one(BoardTree)
        if board.next_target():
            board.focus()

    def action_why_not(self, action: str) -> None:
        """A key whose action cannot run now (greyed out in the footer) says why in the notice."""
        if action == "undo":
            self.set_notice(self.table.undo_refusal() or "Nothing to undo.")
        elif action == "redo":
            self.set_notice("Nothing to redo.")
        elif action in ("draw", "pass_turn") and board_kind(self.game_name) == "tricks":
            self.set_notice("Moon has no drawing and no passing a turn: every tile is dealt (MN-2).")
        elif action == "next_end" and (board_kind(self.game_name) == "tricks" or self.human_to_move()):
            self.set_notice(self.no_ends_words())
        else:
            self.set_notice(self.wait_words())

    def no_ends_words(self) -> str:
        """Why `e` has no ends to go between: Moon has none, or the picked tile fits one or none."""
        if board_kind(self.game_name) == "tricks":
            return "In Moon a tile goes into the trick: there are no ends to choose between."
        tile = self.query_one(HandView).selected
        if tile is None:
            return "Pick a tile first: e goes between the ends where it fits."
        if targets_for(self.legal_for_viewer(), tile):
            return f"The {tile} fits one end only: press Enter to play it there."
        return f"The {tile} fits no open end now: press Enter to be told why."

    def wait_words(self) -> str:
        """Why the player cannot move now."""
        names = self.table.names
        view = self.table.view()
        if self.thinking is not None:
            return f"Wait: {names[self.thinking]} is thinking."
        if view.over:
            return "The match is over."
        if view.chance:
            following = "hand" if board_kind(self.game_name) == "tricks" else "round"
            return f"Wait: the next {following} is about to be dealt."
        if view.to_move == self.viewer:
            return "Wait: your move is on its way to the table."
        if view.to_move is not None:
            return f"Wait: it is {names[view.to_move]}'s turn."
        return "Wait: nobody can move just now."

    def action_talk(self) -> None:
        """A shared table offers quick messages."""

    def action_undo(self) -> None:
        """Each kind of table undoes its own way (the match's cursor, or a request to the others)."""

    def action_redo(self) -> None:
        """A table that keeps a redo history goes forward in it."""

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
        self.find_hint(self.table.cursor, self.table.view(), self.table.legal_moves())

    @work(thread=True, exclusive=True, group="hint")
    def find_hint(self, cursor: int, view: Any, legal: tuple[Move, ...]) -> None:
        """The hint samples deals for a fraction of a second: a thread keeps the keys answering."""
        move, reason = hint(view, legal)
        with contextlib.suppress(RuntimeError):  # the app closed meanwhile
            self.app.call_from_thread(self.show_hint, cursor, move, reason)

    def hinted_play(self, tile: Tile, ends: tuple[int, ...]) -> int | None:
        """The end the hint named for `tile`, if the hint was for this position and this tile."""
        if self.hinted is None:
            return None
        cursor, move = self.hinted
        if cursor != self.table.cursor or type(move) is not Play or move.tile is not tile:  # type: ignore[attr-defined]
            return None
        return move.target if move.target in ends else None  # type: ignore[attr-defined]

    def show_hint(self, cursor: int, move: Move, reason: str) -> None:
        if cursor != self.table.cursor or not self.in_play() or not self.human_to_move():
            return  # the position changed while the hint was found
        self.hinted = (cursor, move)
        hand = self.query_one(HandView)
        if type(move) in (Play, Discard):
            hand.mark_hint(move.tile)  # type: ignore[attr-defined]
            if board_kind(self.game_name) == "layout" and move.target is not None:  # type: ignore[attr-defined]
                self.query_one(BoardTree).focus_target(move.target)  # type: ignore[attr-defined]
        elif type(move) in (Draw, Pass):
            hand.mark_hint(None)
        self.set_notice(f"Hint: {reason}", "hint")

    def in_play(self) -> bool:
        """False once the screen is closing (the player left, the app quits)."""
        return self.is_attached and self.is_running and bool(self.query("#notice"))

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen(self.game_name, self.table.view().options))  # this match's options

    def action_focus_hand(self) -> None:
        self.query_one(HandView).focus()
