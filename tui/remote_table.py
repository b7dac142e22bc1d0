"""A table held by a table server (net/server.py), seen from this client's seat.

All it knows is the latest `Snapshot`: its own seat's view, its legal moves when it is to move,
the seats, the recent move lines. A move or an undo request is sent to the server and the answer
comes back later as an event (a new snapshot, a refusal, an undo result), which the remote table
screen reads from `client.events()`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from core import get_game
from core.game import Game
from core.moves import Move
from net.client import TableClient
from net.messages import Said, Snapshot
from net.talk import talk_line
from tui.fair_check import FairCheck, fair_check

TALK_KEPT = 50  # quick messages kept for the log


class RemoteTable:
    """The `TableModel` of a table across the network. There is no redo: the server keeps none. A
    watcher's table (`watching`) is drawn from the seat whose view the server built for everyone,
    holding no hand."""

    def __init__(self, client: TableClient) -> None:
        assert client.snapshot is not None, "a connected client has its first snapshot"
        self.client = client
        self.watching = client.watching
        self.viewer = client.seat if client.seat is not None else client.snapshot.view.seat
        self.snapshot: Snapshot = client.snapshot
        self.talk: list[tuple[int, str]] = []  # (the cursor it came at, its line): quick messages heard
        self.changes = 0  # snapshots taken in: the change counter the screen compares
        self.closed: str | None = None  # why the connection ended, once it has
        self.sent = False  # a move is on its way: no second one until the server answers
        self._game = get_game(client.game)
        self._sending: set[asyncio.Task[None]] = set()
        # This seat's hand at each cursor it was shown (an undo drops the later ones): checked
        # against the match the table reveals at its end.
        self.seen: dict[int, tuple[Any, ...]] = {}
        self._seen(self.snapshot)
        self._check: FairCheck | None = None

    # -- reading -------------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        return self._game

    @property
    def game_name(self) -> str:
        return self._game.name

    @property
    def names(self) -> tuple[str, ...]:
        return self.snapshot.names

    @property
    def players(self) -> int:
        return self.client.players

    @property
    def seats(self) -> tuple[str, ...]:
        return self.snapshot.seats

    @property
    def cursor(self) -> int:
        return self.changes

    def view(self) -> Any:
        return self.snapshot.view

    def legal_moves(self) -> tuple[Move, ...]:
        return self.snapshot.legal if self.closed is None else ()

    def human_to_move(self) -> bool:
        """This seat is to decide: the server sends legal moves only then (and not while an undo
        request waits for answers)."""
        return self.closed is None and not self.sent and bool(self.snapshot.legal)

    def log_lines(self, limit: int) -> list[str]:
        """The recent moves, with the quick messages heard among them, each after the move it came after."""
        snapshot = self.snapshot
        first = snapshot.cursor - len(snapshot.log)  # the event the first line tells of
        lines = [(first + index + 1, 0, line) for index, line in enumerate(snapshot.log)]
        lines += [(cursor, 1, line) for cursor, line in self.talk if cursor > first]
        return [line for _, _, line in sorted(lines, key=lambda item: item[:2])][-limit:]

    def heard(self, said: Said) -> None:
        """A quick message from seat `said.seat`: its words are this client's own (`net.talk`)."""
        self.talk = [*self.talk[-(TALK_KEPT - 1) :], (said.cursor, talk_line(self.names[said.seat], said.phrase))]

    def can_talk(self) -> bool:
        return self.closed is None and not self.watching

    def can_undo(self) -> bool:
        return self.closed is None and self.snapshot.can_undo

    def can_redo(self) -> bool:
        return False

    # -- changes from the server -----------------------------------------------------------------
    def update(self, snapshot: Snapshot) -> None:
        self.snapshot = snapshot
        self.changes += 1
        self.sent = False
        if self.watching:
            self.viewer = snapshot.view.seat  # the seat the server drew everyone's view from
        self._seen(snapshot)

    def _seen(self, snapshot: Snapshot) -> None:
        if self.watching:
            return  # a watcher is shown no hand
        for cursor in [cursor for cursor in self.seen if cursor > snapshot.cursor]:
            del self.seen[cursor]  # undone: that history is no more
        self.seen[snapshot.cursor] = tuple(snapshot.view.hand)

    # -- fair deals ------------------------------------------------------------------------------
    @property
    def commitment(self) -> str | None:
        """The commitment to the match's secret the table sent at the start (None: dealt from a seed)."""
        return self.client.commitment

    def undo_refusal(self) -> str | None:
        return self.snapshot.undo_refusal or None

    def fair_check(self) -> FairCheck | None:
        """Once the table has revealed the finished match: the check of its deals (a copy is kept in
        this player's saves, once). None until then."""
        revealed = self.client.revealed
        if revealed is None:
            return None
        if self._check is None:
            client = self.client
            self._check = fair_check(
                client.game,
                client.players,
                client.options,
                self.snapshot.names,
                self.snapshot.seats,
                self.viewer,
                revealed,
                client.commitment,
                self.seen,
                client.match_id,
                keep=not self.watching,  # a match watched is not the watcher's: not in their saves or record
            )
        return self._check

    # -- asking the server -----------------------------------------------------------------------
    def say(self, phrase: int) -> None:
        """Send quick message `phrase` to the table; everyone there is told (this player too)."""
        self._send(self.client.say(phrase))

    def apply(self, move: Move) -> None:
        """Send `move`; the server answers with a snapshot, or a refusal naming the rule."""
        self.sent = True
        self._send(self.client.send_move(move))

    def undo(self) -> None:
        """Ask the other players to agree to undo (every human at the table must)."""
        self._send(self.client.request_undo())

    def redo(self) -> None:
        """The server keeps no redo history: nothing to do."""

    def answer_undo(self, accept: bool) -> None:
        self._send(self.client.answer_undo(accept))

    def withdraw_undo(self) -> None:
        """Take back this player's undo request while it waits."""
        self._send(self.client.withdraw_undo())

    def _send(self, sending: Coroutine[Any, Any, None]) -> None:
        if self.closed is not None:
            sending.close()
            return
        task = asyncio.get_running_loop().create_task(sending)
        self._sending.add(task)
        task.add_done_callback(self._sent)

    def _sent(self, task: asyncio.Task[None]) -> None:
        self._sending.discard(task)
        if not task.cancelled():
            task.exception()  # a broken connection also ends the event stream with Closed: said there

    async def close(self) -> None:
        """Leave the table; the seat stays this player's to come back to."""
        if self.closed is None:
            self.closed = "you left the table"
        await self.client.close()
