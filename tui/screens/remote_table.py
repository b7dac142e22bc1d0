"""The table of a match held by a table server: this player's seat, updated by the server.

A worker reads the client's events: each snapshot redraws the table (and opens the round-over
screen or Moon's dialogs when due); a refused move shows the rule's message, as at a local table;
another player's undo request opens a dialog asking for this player's agreement, naming the moves
it takes back and whose they are; this player's own request shows what it waits for, and u again
(or Esc) withdraws it; when the connection ends, one line says why and `q` leads out. What the
table tells every player (the match is not being saved...) shows as a notification.
"""

from __future__ import annotations

import asyncio
import contextlib

from textual import work

from core.chance import SHORT_COMMITMENT
from core.moves import Move
from net.client import TableClient
from net.messages import Closed, Notice, Refused, Revealed, Said, Snapshot, UndoAsked, UndoPending, UndoResult
from net.session_priority import SeatPriority
from tui.host import host
from tui.remote_table import RemoteTable
from tui.screens.moon_dialogs import MoonDialog
from tui.screens.round_over import RoundOverScreen
from tui.screens.table_base import BaseTableScreen
from tui.screens.undo_dialog import UndoDialog
from tui.screens.undo_waiting import UndoWaitingDialog, request_words
from tui.widgets.hand_view import HandView

CLOSE_TIMEOUT = 2.0
SEAT_PRIORITY_EVERY = 2.0  # seconds between looks at the seat's priority (the door may have lowered it)
SERVER_KEYS = frozenset({"speed", "save_copy", "redo"})  # the server's: bot pace, saving; it keeps no redo


class RemoteTableScreen(BaseTableScreen):
    def __init__(self, client: TableClient) -> None:
        self.remote = RemoteTable(client)
        super().__init__(self.remote)
        self.undo_dialog: UndoDialog | None = None
        self.waiting_dialog: UndoWaitingDialog | None = None  # this player's own request, waiting
        self._end_shown: int | None = None  # the snapshot cursor whose round end was shown
        self.priority: SeatPriority | None = None  # a served session's, while its player is seated

    def on_mount(self) -> None:
        self.listen()  # Textual calls the base class's on_mount too (it draws)
        self.hold_the_seats_priority()
        commitment = self.remote.commitment
        if commitment is not None:
            short = commitment[:SHORT_COMMITMENT]
            self.set_notice(f"Deals committed to {short}; the secret comes at the end, to check.")

    # -- events from the server ----------------------------------------------------------------------
    @work(exclusive=True, group="listen")
    async def listen(self) -> None:
        async for event in self.remote.client.events():
            if not self.in_play():
                return
            self.take(event)

    def take(
        self, event: Snapshot | Refused | UndoAsked | UndoPending | UndoResult | Notice | Revealed | Said | Closed
    ) -> None:
        if isinstance(event, Snapshot):
            if event is not self.remote.snapshot:  # the first one came with the welcome
                self.remote.update(event)
            self.advance()
        elif isinstance(event, Refused):
            self.remote.sent = False
            self.refused(event.reason)
            self.refresh_keys()
        elif isinstance(event, UndoAsked):
            self.ask_undo(event)
        elif isinstance(event, UndoPending):
            self.undo_pending(event)
        elif isinstance(event, UndoResult):
            self.undo_settled(event)
        elif isinstance(event, Revealed):
            pass  # kept by the client: the game-over screen checks the deals with it
        elif isinstance(event, Said):
            self.remote.heard(event)
            self.redraw_log()
        elif isinstance(event, Notice):
            text = event.text[:1].upper() + event.text[1:]
            self.app.notify(text, title="From the table", severity="warning", timeout=12, markup=False)
        else:
            self.connection_ended(event.reason)

    def advance(self) -> None:
        """Draw the latest snapshot; open the round-over screen or a dialog if one is due."""
        snapshot = self.remote.snapshot
        self.thinking = snapshot.thinking
        self.redraw()
        view = snapshot.view
        ended = view.over or (view.chance and view.round > 0)
        if ended and not self.waiting and self._end_shown != snapshot.cursor:
            self._end_shown = snapshot.cursor
            self.waiting = True
            self.app.push_screen(RoundOverScreen(self.remote), self._after_round)
            return
        self.offer_dialog()

    def decision(self) -> int:
        return self.remote.snapshot.cursor  # the match's own: news of watchers or talk leaves it be

    def moved(self) -> None:
        self.refresh_keys()  # the move is on its way: the keys wait for the server's answer

    def _after_round(self, choice: str | None) -> None:
        self.waiting = False
        if choice == "undo":
            self.action_undo()
        elif self.remote.view().over:
            host(self).show_game_over(self.remote)
            return
        self.advance()

    def status_notes(self, names: tuple[str, ...]) -> list[str]:
        snapshot = self.remote.snapshot
        notes = [f"{snapshot.watchers} watching"] if snapshot.watchers else []
        for seat, state in enumerate(snapshot.seats):
            if state == "away":
                covered = " (a bot plays for now)" if seat in snapshot.stand_ins else ""
                notes.append(f"{names[seat]} is away{covered}")
            elif state == "open":
                notes.append(f"waiting for {names[seat]}")  # nobody has taken this seat yet
        return notes

    # -- quick messages ------------------------------------------------------------------------------
    def can_talk(self) -> bool:
        return self.remote.can_talk()

    def action_talk(self) -> None:
        from tui.screens.talk_dialog import TalkDialog

        if self.can_talk():
            self.app.push_screen(TalkDialog(), self._said)

    def _said(self, phrase: int | None) -> None:
        if phrase is not None and self.can_talk():
            self.remote.say(phrase)  # it shows in the log when the table says it was said
        self.query_one(HandView).focus()

    # -- undo by agreement ---------------------------------------------------------------------------
    def ask_undo(self, asked: UndoAsked) -> None:
        if self.undo_dialog is not None:
            return
        if asked.moves:
            detail = request_words(asked.moves, asked.back_to, asked.expires, self.remote.names[self.viewer])
        else:
            detail = ""  # an older table names no moves: the dialog's own words
        self.undo_dialog = UndoDialog(self.remote.names[asked.by], detail)
        self.app.push_screen(self.undo_dialog, self._answer_undo)

    def undo_pending(self, pending: UndoPending) -> None:
        """This player's request waits: show what for, with the way to withdraw it."""
        if self.waiting_dialog is not None:
            return
        names = self.remote.names
        waiting = [names[seat] for seat in pending.waiting if 0 <= seat < len(names)]
        detail = request_words(pending.moves, pending.back_to, pending.expires, names[self.viewer])
        self.waiting_dialog = UndoWaitingDialog(waiting, detail)
        self.app.push_screen(self.waiting_dialog, self._withdraw_undo)

    def _withdraw_undo(self, withdraw: bool | None) -> None:
        if self.waiting_dialog is None:
            return  # settled by the table
        self.waiting_dialog = None
        if withdraw:
            self.remote.withdraw_undo()
            self.set_notice("Withdrawing your undo request…")

    def _answer_undo(self, accept: bool | None) -> None:
        if self.undo_dialog is None:
            return  # the request was settled without this player's answer
        self.undo_dialog = None
        self.remote.answer_undo(bool(accept))
        self.set_notice("You agreed to undo; waiting for the others." if accept else "You declined the undo.")

    def undo_settled(self, result: UndoResult) -> None:
        self.close_undo_dialog()  # nobody is waiting for this answer any more
        names = self.remote.names
        mine = result.by == self.viewer
        if result.accepted:
            asked = "" if mine else f" at {names[result.by]}'s request"
            self.set_notice(f"Undone{asked}: back to the previous decision.")
        elif result.declined_by is not None:
            who = "You" if result.declined_by == self.viewer else names[result.declined_by]
            whose = "your" if mine else f"{names[result.by]}'s"
            self.set_notice(f"{who} declined {whose} undo.")
        elif result.reason.endswith("withdrew the request"):
            whose = "You withdrew your" if mine else f"{names[result.by]} withdrew the"
            self.set_notice(f"{whose} undo request.")
        else:
            self.set_notice(f"The undo request lapsed: {result.reason or 'no reason given'}.")
        self.query_one(HandView).focus()

    def close_undo_dialog(self) -> None:
        dialog, self.undo_dialog = self.undo_dialog, None
        if dialog is not None and self.app.screen is dialog:
            dialog.dismiss(False)  # its answer is no longer asked for: the callback sends nothing
        waiting, self.waiting_dialog = self.waiting_dialog, None
        if waiting is not None and self.app.screen is waiting:
            waiting.dismiss(None)  # settled: there is nothing left to withdraw

    def action_undo(self) -> None:
        if not self.remote.can_undo():
            return
        self.remote.undo()
        self.set_notice("Asked the other players to agree to undo…")

    def action_redo(self) -> None:
        """The server keeps no redo history (the key is hidden)."""

    def action_why_not(self, action: str) -> None:
        if action == "redo":
            self.set_notice("There is no redo at a shared table: the host keeps no redo history.")
            return
        super().action_why_not(action)

    # -- the end of the connection -------------------------------------------------------------------
    def connection_ended(self, reason: str) -> None:
        if self.remote.closed is not None:
            return  # this player left
        self.remote.closed = reason
        self.close_undo_dialog()
        top = self.app.screen
        if isinstance(top, MoonDialog):
            top.dismiss(None)  # a bid or trump could no longer be sent
        self.redraw()
        self.set_notice(f"The table has closed: {reason}. Press q to leave.", "illegal")

    def play(self, move: Move) -> bool:
        if self.remote.closed is not None:
            return False  # nobody to send it to: the notice says so already
        return super().play(move)

    def _after_dialog(self, move: Move | None) -> None:
        if self.remote.closed is not None:
            self.waiting = False
            return
        super()._after_dialog(move)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in SERVER_KEYS:
            return False
        return super().check_action(action, parameters)

    async def action_leave(self) -> None:
        await self.close_connection()
        host(self).leave_match()

    async def on_unmount(self) -> None:
        if self.priority is not None:
            self.priority.release()
        await self.close_connection()

    def hold_the_seats_priority(self) -> None:
        """In a served session, the player at this seat answers first (`net.session_priority`)."""
        from net.paths import is_served

        if is_served() and not self.remote.watching:
            self.priority = SeatPriority()
            self.priority.hold()
            self.set_interval(SEAT_PRIORITY_EVERY, self.priority.hold)

    async def close_connection(self) -> None:
        with contextlib.suppress(TimeoutError, OSError, ConnectionError):
            await asyncio.wait_for(self.remote.close(), CLOSE_TIMEOUT)

    def refused(self, message: str) -> None:
        super().refused(message)
        self.query_one(HandView).focus()
