"""The table server: one match, its seats, and a connection per human player (see docs/protocol.md).

Everything that changes the match happens on the event loop, in one place at a time: a client's
move (checked by `Match.apply`: an illegal one is refused with the rule's message and changes
nothing), an agreed undo, or the driver task, which deals when chance is due (at once for the first
deal, after `deal_delay` seconds between rounds, so no player's key press is needed) and plays the
bot seats. A quick bot thinks in a worker thread on a copy of what it may see (its view and legal
moves); a searching one in the bot process (`workers.bot_process`), which the thread only waits on,
so the loop keeps serving clients; a result that arrives after the match has changed (an undo, or
the seat's player coming back) is dropped. After every change the match is autosaved and each
client is sent a snapshot of its own seat's view, never another seat's.

A table waits for its players: a stand-in (`takeover_after`) plays for an away seat only while at
least one human is connected, so with nobody there the match stops at the next human seat's
decision, saved, until someone comes back (or `idle_close_after` closes the table). The takeover
clock of a seat kept for a player who is not there runs from the table's start too, as after
`host --resume`.

The match's secret stays in this process (and its save) until the match is over: players are sent
its commitment in their welcome, and the secret with every event (`reveal`) only once the match is
over, so each can check the deals. Undo at a table of several humans never goes back into a round
whose hands have been shown (`Match.undo_refusal` says why).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.bots import get_bot
from core.errors import IllegalMove
from core.match import Match
from core.moves import Move
from core.seats import check_name
from core.watching import watcher_view
from core.words import article
from net.address import Address, start_server
from net.limits import DEFAULT_MAX_WATCHERS
from net.messages import LOG_LINES, Snapshot, snapshot_message
from net.protocol import ConnectionClosed, ProtocolError, encode_frame, field, read_frame
from net.rate import TokenBucket
from net.seat_keys import MAX_TOKEN, load_seat_keys, new_nonce, save_seat_keys
from net.seats import AWAY, SeatRefused, SeatTable
from net.talk import TALK_BURST, TALK_EVERY, phrase_text, talk_line
from workers.bot_process import IN_PROCESS_LEVELS, BotProcess, decision_seed

HELLO_TIMEOUT = 5.0  # a connection that has not said hello (and answered its challenge) by then is dropped
# Connections still to say hello, in all and from one address: beyond these the oldest waiting one
# is dropped, so idle connections never keep a player out (seated players are at most one a seat).
MAX_WAITING = 64
MAX_WAITING_PER_ADDRESS = 8
MAX_QUEUED = 256  # frames waiting for a slow client; beyond this it is dropped
RATE = 20.0  # messages per second a client may send on average...
BURST = 60.0  # ...and at once
CLOSE_TIMEOUT = 2.0
UNDO_EXPIRES = 60.0  # seconds an undo request waits for answers before it lapses
UNDO_AGAIN_AFTER = 10.0  # seconds before a player whose request was declined (or withdrawn, or lapsed) asks again
UNDO_LINES = 8  # the moves an undo request names, at most (then how many more)
OLD_CLIENT_KEY = (
    "this table takes a seat back only from a client that proves its key without sending it; "
    "update dominoes to come back to your seat"
)
REVEAL_EVENTS = 2048  # events in one `reveal` message: well under the protocol's list limit
WATCHER_REFUSAL = "you are watching this table: a watcher cannot play or ask for anything"
CLOSED_TO_WATCHERS = "this table is closed to watchers"
WATCHERS_TOLD_EVERY = 1.0  # seconds: the seats hear of watchers coming and going at most this often
TALK_REFUSAL = f"one quick message every {TALK_EVERY:g} seconds, please"


class Leaving(Exception):
    """The client said bye."""


class Connection:
    """One client: its socket, its outgoing queue (written by a task of its own), its seat."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.seat: int | None = None
        self.watching = False
        self.talk = TokenBucket(1 / TALK_EVERY, TALK_BURST)
        self.peer = _peer_host(writer)
        self.closing = False
        self._queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._task = asyncio.get_running_loop().create_task(self._write_loop())
        self._tokens = BURST
        self._last = time.monotonic()

    def send(self, message: dict[str, Any]) -> None:
        if not self.closing:
            self.send_frame(encode_frame(message))

    def send_frame(self, frame: bytes) -> None:
        """Queue an encoded frame (one frame may go to many watchers: it is encoded once)."""
        if self.closing:
            return
        if self._queue.qsize() >= MAX_QUEUED:
            self.closing = True
            self.writer.close()  # the reader sees the end and the connection is cleaned up there
            return
        self._queue.put_nowait(frame)

    def bye(self, reason: str) -> None:
        """Send `bye {reason}` and close once it is written."""
        if not self.closing:
            self._queue.put_nowait(encode_frame({"type": "bye", "reason": reason}))
            self.closing = True
            self._queue.put_nowait(None)

    def spend(self) -> None:
        """One message received: ProtocolError if the client sends faster than RATE allows."""
        now = time.monotonic()
        self._tokens = min(BURST, self._tokens + (now - self._last) * RATE)
        self._last = now
        self._tokens -= 1
        if self._tokens < 0:
            raise ProtocolError(f"too many messages (more than {RATE:g} a second)")

    async def _write_loop(self) -> None:
        try:
            while True:
                frame = await self._queue.get()
                if frame is None:
                    break
                self.writer.write(frame)
                await self.writer.drain()
        except OSError:
            pass
        finally:
            self.writer.close()

    async def close(self) -> None:
        self.closing = True
        self._queue.put_nowait(None)
        try:
            await asyncio.wait_for(asyncio.shield(self._task), CLOSE_TIMEOUT)
        except (TimeoutError, asyncio.CancelledError):
            self._task.cancel()
        self.writer.close()
        with contextlib.suppress(OSError, TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(self.writer.wait_closed(), CLOSE_TIMEOUT)


def _peer_host(writer: asyncio.StreamWriter) -> str:
    """Where a connection comes from: the peer's host for TCP, "local" for a Unix socket."""
    peer = writer.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple) and peer else "local"


class PendingUndo:
    """An undo request waiting for answers: who asked, who must still agree, when it lapses."""

    def __init__(self, by: int, waiting: set[int], expiry: asyncio.TimerHandle | None = None) -> None:
        self.by = by
        self.waiting = waiting
        self.expiry = expiry


class TableServer:
    """Hosts `match` at an address. `takeover_after`: seconds after which a bot of `takeover_level`
    plays for a dropped player until they return (None: never). `bot_budget`: seconds per bot
    decision (None: each bot's own). `on_event` receives one line per notable event; `on_seats` the
    names and seat labels whenever they change. `idle_close_after`: seconds with no player connected
    after which the table closes, the match saved (None: never). `keys_path`: the file that keeps
    the hashes of the seats' keys (None: kept in memory only). `max_watchers`: how many may watch
    at once (0: the table is closed to watchers); `on_watchers` receives their count when it changes."""

    def __init__(
        self,
        match: Match,
        *,
        autosave: Any | None = None,
        takeover_after: float | None = None,
        bot_budget: float | None = None,
        takeover_level: str = "easy",
        deal_delay: float = 0.0,
        on_event: Callable[[str], None] | None = None,
        on_seats: Callable[[tuple[str, ...], tuple[str, ...]], None] | None = None,
        idle_close_after: float | None = None,
        keys_path: Path | None = None,
        max_watchers: int = DEFAULT_MAX_WATCHERS,
        on_watchers: Callable[[int], None] | None = None,
    ) -> None:
        get_bot(takeover_level)  # ValueError for an unknown level, before anything starts
        self.match = match
        self.autosave = autosave
        self.takeover_after = takeover_after
        self.bot_budget = bot_budget
        self.takeover_level = takeover_level
        self.deal_delay = deal_delay
        self.on_event = on_event or (lambda line: None)
        self.on_seats = on_seats
        self.idle_close_after = idle_close_after
        self.end_reason = "the match is over"
        self._seats_told: tuple[tuple[str, ...], tuple[str, ...]] | None = None
        self._idle_timer: asyncio.TimerHandle | None = None
        self._bots: BotProcess | None = None
        self.table = SeatTable(match.seats)
        self.keys_path = keys_path
        self.table.set_keys(load_seat_keys(keys_path, match.players))
        self._save_failing: str | None = None  # why saving fails, once the players have been told
        self.address: Address | None = None
        self.thinking: int | None = None
        self.match_id: str = getattr(autosave, "match_id", "unsaved")
        # What seat keys are proved for, and players file them by: the match, whatever the address.
        self.table_id = self.match_id if self.match_id != "unsaved" else f"unsaved-{secrets.token_hex(8)}"
        self._by_seat: dict[int, Connection] = {}
        self.max_watchers = max_watchers
        self.on_watchers = on_watchers
        self._watchers: set[Connection] = set()
        self._watchers_told: asyncio.TimerHandle | None = None  # the seats' next word of the count
        self._count_told = 0
        self._connections: set[Connection] = set()
        self._waiting: dict[Connection, str] = {}  # connections yet to say hello (oldest first): their peer
        self._undo: PendingUndo | None = None
        self._undo_refused: dict[int, tuple[float, str]] = {}  # asker -> when their last request failed, and how
        self._generation = 0  # bumped whenever a bot's decision in progress may no longer fit
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._paused_at: tuple[int, int] | None = None
        self._server: asyncio.Server | None = None
        self._driver: asyncio.Task[None] | None = None
        self._wake: asyncio.Event | None = None
        self._interrupt: asyncio.Event | None = None
        self._over: asyncio.Event | None = None
        self._closed = False

    # -- life cycle -------------------------------------------------------------------------------------
    async def start(self, address: Address) -> None:
        """Listen at `address` (port 0 picks a free port: `self.address` is the bound one) and start
        playing: the first deal is made at once, and bots move as soon as it is their turn."""
        self._wake, self._interrupt, self._over = asyncio.Event(), asyncio.Event(), asyncio.Event()
        self._server, self.address = await start_server(self._handle, address)
        self._save()
        self._tell_seats()
        self._watch_idle()
        for seat, status in enumerate(self.table.status):
            if status == AWAY:  # kept for a player who has not come back (yet)
                self._start_takeover_clock(seat)
        self._driver = asyncio.get_running_loop().create_task(self._drive())

    async def serve_until_over(self) -> None:
        """Play until the match is over (or the table stood idle too long: see `end_reason`), then
        say goodbye to every client and stop."""
        assert self._over is not None, "start() first"
        await self._over.wait()
        await self.close(self.end_reason)

    async def serve_forever(self) -> None:
        assert self._server is not None, "start() first"
        with contextlib.suppress(asyncio.CancelledError):
            await self._server.serve_forever()

    async def close(self, reason: str = "the host closed the table") -> None:
        """Stop listening, say bye to every client, stop the driver; the match is saved as it is."""
        if self._closed:
            return
        self._closed = True
        for timer in self._timers.values():
            timer.cancel()
        if self._watchers_told is not None:
            self._watchers_told.cancel()
        if self._idle_timer is not None:
            self._idle_timer.cancel()
        if self._server is not None:
            self._server.close()
        if self._driver is not None:
            self._driver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._driver
        connections = list(self._connections)
        for connection in connections:
            connection.bye(reason)
        await asyncio.gather(*(connection.close() for connection in connections))
        if self._server is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._server.wait_closed(), CLOSE_TIMEOUT)
        self._save()
        if self._bots is not None:
            self._bots.close()
        if self.address is not None and self.address.is_unix:
            with contextlib.suppress(OSError):
                import os

                os.unlink(self.address.path)  # type: ignore[arg-type]

    # -- connections ------------------------------------------------------------------------------------
    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connection = Connection(reader, writer)
        if self._closed:
            connection.bye("the table is closing")
            await connection.close()
            return
        self._wait_for_hello(connection)
        self._connections.add(connection)
        try:
            try:
                hello, keyed = await asyncio.wait_for(self._greet(connection), HELLO_TIMEOUT)
            except TimeoutError:
                raise ProtocolError(f"no hello within {HELLO_TIMEOUT:g} seconds") from None
            finally:
                self._waiting.pop(connection, None)
            if connection.closing:
                return  # dropped while it waited: too many others from its address came after it
            if hello.get("watch") is True:
                self._hello_watcher(connection)
            else:
                self._hello(connection, hello, keyed)
            while True:
                message = await read_frame(reader)
                connection.spend()
                self._dispatch(connection, message)
        except (ConnectionClosed, Leaving, OSError):
            pass
        except ProtocolError as error:
            self.on_event(f"dropped a client: {error.reason}")
            connection.bye(error.reason)
        finally:
            self._connections.discard(connection)
            self._detach(connection)
            await connection.close()

    def _wait_for_hello(self, connection: Connection) -> None:
        """Count a new connection among those yet to say hello; drop the oldest waiting one from
        its address (or at all) if there are too many."""
        same = [other for other, peer in self._waiting.items() if peer == connection.peer]
        if len(same) >= MAX_WAITING_PER_ADDRESS:
            oldest: Connection | None = same[0]
        else:
            oldest = next(iter(self._waiting)) if len(self._waiting) >= MAX_WAITING else None
        if oldest is not None:
            del self._waiting[oldest]
            oldest.bye("too many connections are waiting to say hello; this one waited longest")
        self._waiting[connection] = connection.peer

    async def _greet(self, connection: Connection) -> tuple[dict[str, Any], int | None]:
        """The hello, and the seat whose key the client proved it holds (None: no key, or none
        that opens a seat here). A client that asks for a challenge gets a fresh nonce and answers
        with a proof (`net.seat_keys.seat_proof`), never the key; one that sends the key itself (an
        older client) is told to update, since a key that travels can be stolen."""
        hello = await read_frame(connection.reader)
        if hello["type"] != "hello":
            raise ProtocolError(f"the first message must be hello, not {hello['type']!r}")
        if "token" in hello:
            raise ProtocolError(OLD_CLIENT_KEY)
        if hello.get("challenge") is not True:
            return hello, None
        nonce = new_nonce()
        connection.send({"type": "challenge", "nonce": nonce, "match": self.table_id})
        answer = await read_frame(connection.reader)
        if answer["type"] != "proof":
            raise ProtocolError(f"a challenge is answered with proof, not {answer['type']!r}")
        proof = field(answer, "proof", str, optional=True)
        if proof is not None and not 0 < len(proof) <= MAX_TOKEN:
            raise ProtocolError(f"a proof has 1 to {MAX_TOKEN} characters")
        return hello, self.table.prover(proof, nonce, self.table_id)

    def _hello(self, connection: Connection, message: dict[str, Any], keyed: int | None = None) -> None:
        try:
            name = check_name(field(message, "name", str))
        except ValueError as error:
            raise ProtocolError(str(error)) from None
        wanted = field(message, "seat", int, optional=True)
        if wanted is not None and wanted < 0:
            raise ProtocolError(f"the seat field counts from 0 (0 is seat 1), so {wanted} names no seat")
        try:
            seat = self.table.choose(name, wanted, keyed)
        except SeatRefused as error:
            raise ProtocolError(str(error)) from None
        proven = keyed == seat
        if proven:
            name = self.match.names[seat]  # the seat keeps its name, whatever case it was typed in
        elsewhere = self._by_seat.get(seat)
        if elsewhere is not None:  # its player, back with the key before the old connection ended
            self._detach(elsewhere)
            elsewhere.bye("you took your seat at this table from another connection")
        returning = self.table.status[seat] == "away"
        given = self.table.key(seat, proven)
        if given is not None:
            self._save_keys()
        if self.table.take(seat, name):
            self.match.seats = self.table.seats
            self._save()
        timer = self._timers.pop(seat, None)
        if timer is not None:
            timer.cancel()
        if self.thinking == seat:
            self._bump()  # the player is back: the stand-in's decision is theirs to make now
        connection.seat = seat
        self._by_seat[seat] = connection
        self._watch_idle()
        self.on_event(f"{name} {'is back' if returning else 'joined'} at seat {seat + 1}")
        connection.send(self._welcome(seat, given))
        self._broadcast()  # the newcomer's first snapshot comes right after its welcome
        if self.match.state.over:
            self._reveal(connection)
        if self._save_failing is not None:
            connection.send({"type": "notice", "text": self._save_failing})
        self._kick()

    def _hello_watcher(self, connection: Connection) -> None:
        """Someone at no seat, to be sent what every seat sees, and to change nothing."""
        if self.max_watchers <= 0:
            raise ProtocolError(CLOSED_TO_WATCHERS)
        if len(self._watchers) >= self.max_watchers:
            raise ProtocolError(f"this table has as many watchers as it takes ({self.max_watchers}); try again later")
        connection.watching = True
        self._watchers.add(connection)
        self.match.watched = True  # from now on undo never plays again a round whose hands they saw
        connection.send({**self._welcome(None, None), "watching": True})
        connection.send(snapshot_message(self.watcher_snapshot()))
        if self.match.state.over:
            self._reveal(connection)
        self._tell_watchers()

    def _welcome(self, seat: int | None, token: str | None) -> dict[str, Any]:
        """The table as a newcomer at `seat` (None: a watcher) first learns of it; `token`: a new
        seat's key."""
        match = self.match
        return {
            "type": "welcome",
            "seat": seat,
            "game": match.game_name,
            "players": match.players,
            "names": list(match.names),
            "seats": list(self.table.labels()),
            "options": dict(match.options),
            "match_id": self.match_id,
            "token": token,
            "commitment": match.commitment if match.secret is not None else None,
        }

    @property
    def watchers(self) -> int:
        return len(self._watchers)

    def _tell_watchers(self) -> None:
        """The count goes to the seats and the host within WATCHERS_TOLD_EVERY: a crowd coming in
        costs the players one snapshot, and the host one write of its status, not one each."""
        if self._watchers_told is None and not self._closed:
            self._watchers_told = asyncio.get_running_loop().call_later(WATCHERS_TOLD_EVERY, self._tell_count)

    def _tell_count(self) -> None:
        self._watchers_told = None
        count = len(self._watchers)
        if count == self._count_told:
            return
        self._count_told = count
        if self.on_watchers is not None:
            self.on_watchers(count)
        self._send_seats_their_snapshots()

    def _detach(self, connection: Connection) -> None:
        if connection in self._watchers:
            self._watchers.discard(connection)
            self._tell_watchers()
            return
        seat = connection.seat
        if seat is None or self._by_seat.get(seat) is not connection:
            return
        del self._by_seat[seat]
        self.table.leave(seat)
        self._watch_idle()
        name = self.match.names[seat]
        kept = "the seat is kept for them"
        if self._start_takeover_clock(seat):
            kept += f"; {article(self.takeover_level)} bot plays for them after {self.takeover_after:g} s"
            kept += " while someone is at the table"
        self.on_event(f"{name} left seat {seat + 1} ({kept})")
        if not self._by_seat and self.thinking is not None and self._bot_level(self.thinking) is None:
            self._bump()  # a stand-in's decision with nobody left to see it: the table waits instead
        undo = self._undo
        if undo is not None:
            if undo.by == seat:
                self._finish_undo(False, reason=f"{name} left the table")
            else:
                undo.waiting.discard(seat)
                self._check_undo()
        if not self._closed:
            self._broadcast()

    def _start_takeover_clock(self, seat: int) -> bool:
        """After `takeover_after` seconds, a stand-in for `seat`'s away player; whether it will."""
        if self.takeover_after is None or self._closed:
            return False
        timer = self._timers.pop(seat, None)
        if timer is not None:
            timer.cancel()
        self._timers[seat] = asyncio.get_running_loop().call_later(self.takeover_after, self._take_over, seat)
        return True

    def _take_over(self, seat: int) -> None:
        self._timers.pop(seat, None)
        if self._closed or self.table.status[seat] != "away":
            return
        self.table.stand_ins.add(seat)
        self.on_event(f"{article(self.takeover_level)} bot plays for {self.match.names[seat]} until they return")
        self._broadcast()
        self._kick()

    # -- messages ---------------------------------------------------------------------------------------
    def _dispatch(self, connection: Connection, message: dict[str, Any]) -> None:
        kind = message["type"]
        if connection.watching and kind in ("move", "undo_request", "undo_answer", "undo_withdraw", "say"):
            self._refuse(connection, WATCHER_REFUSAL)
        elif kind == "say":
            self._on_say(connection, field(message, "phrase", int))
        elif kind == "move":
            self._on_move(connection, message)
        elif kind == "undo_request":
            self._on_undo_request(connection)
        elif kind == "undo_answer":
            self._on_undo_answer(connection, field(message, "accept", bool))
        elif kind == "undo_withdraw":
            self._on_undo_withdraw(connection)
        elif kind == "bye":
            raise Leaving()
        elif kind == "hello":
            raise ProtocolError("one hello per connection")
        else:
            raise ProtocolError(f"unknown message type {kind!r}")

    def _refuse(self, connection: Connection, reason: str, rule: str | None = None) -> None:
        message: dict[str, Any] = {"type": "refused", "reason": reason}
        if rule is not None:
            message["rule"] = rule
        connection.send(message)

    def _on_say(self, connection: Connection, phrase: int) -> None:
        """A seated player's quick message: one of the fixed phrases, to everyone at the table."""
        seat = connection.seat
        assert seat is not None
        if phrase_text(phrase) is None:
            self._refuse(connection, "this table does not know that message")
            return
        if not connection.talk.take():
            self._refuse(connection, TALK_REFUSAL)
            return
        self.on_event(talk_line(self.match.names[seat], phrase))
        frame = encode_frame({"type": "said", "seat": seat, "phrase": phrase, "cursor": self.match.cursor})
        for other in [*self._by_seat.values(), *self._watchers]:
            other.send_frame(frame)

    def _on_move(self, connection: Connection, message: dict[str, Any]) -> None:
        try:
            move = Move.from_data(field(message, "move", list))
        except ValueError as error:
            self._refuse(connection, f"that is not a move: {error}")
            return
        seat = connection.seat
        state = self.match.state
        if self._undo is not None:
            self._refuse(connection, "an undo request is waiting for answers; moves wait until it is settled")
            return
        if state.over:
            self._refuse(connection, "the match is over")
            return
        if state.chance or state.to_move != seat:
            who = "the deal" if state.chance else self.match.names[state.to_move]
            self._refuse(connection, f"it is not your turn: waiting for {who}")
            return
        before = self.match.state
        try:
            self.match.apply(move)
        except IllegalMove as error:
            self.on_event(f"refused {self.match.names[seat]}'s move: {error.message}")
            self._refuse(connection, error.message, error.rule)
            return
        self._recorded(before, move)

    def _undo_point(self) -> int | None:
        """Where an agreed undo goes back to (None: nothing to undo)."""
        return self.match.undo_point()

    def undo_lines(self, seat: int) -> tuple[list[str], str]:
        """The moves an undo would take back, in words as `seat` may read them (at most UNDO_LINES,
        then how many more), and whose decision play goes back to."""
        match = self.match
        point = self._undo_point()
        if point is None:
            return [], ""
        lines = [
            match.game.describe_move(match.state_at(i), match.events[i], match.names, seat)
            for i in range(point, match.cursor)
        ]
        if len(lines) > UNDO_LINES:
            more = len(lines) - UNDO_LINES + 1
            lines = lines[: UNDO_LINES - 1] + [f"and {more} more moves"]
        to_move = match.state_at(point).to_move
        return lines, match.names[to_move] if to_move is not None else ""

    def _on_undo_request(self, connection: Connection) -> None:
        seat = connection.seat
        assert seat is not None
        if self._undo is not None:
            self._refuse(connection, "an undo request is already waiting for answers")
            return
        if not self.match.can_undo():
            self._refuse(connection, self._no_undo())
            return
        refused = self._undo_refused.get(seat)
        if refused is not None:
            wait = refused[0] + UNDO_AGAIN_AFTER - time.monotonic()
            if wait > 0:
                self._refuse(connection, f"{refused[1]}; you can ask again in {math.ceil(wait)} s")
                return
            del self._undo_refused[seat]
        others = {other for other in self.table.connected() if other != seat}
        self._undo = PendingUndo(seat, others)
        self._bump()
        if others:
            waiting = ", ".join(self.match.names[other] for other in sorted(others))
            self.on_event(f"{self.match.names[seat]} asks to undo; waiting for {waiting}")
            loop = asyncio.get_running_loop()
            self._undo.expiry = loop.call_later(UNDO_EXPIRES, self._undo_expired, self._undo)
            for other in others:
                moves, back_to = self.undo_lines(other)
                asked = {"type": "undo_asked", "by": seat, "moves": moves, "back_to": back_to}
                self._by_seat[other].send({**asked, "expires": math.ceil(UNDO_EXPIRES)})
            moves, back_to = self.undo_lines(seat)
            connection.send(
                {
                    "type": "undo_pending",
                    "waiting": sorted(others),
                    "moves": moves,
                    "back_to": back_to,
                    "expires": math.ceil(UNDO_EXPIRES),
                }
            )
            self._broadcast()
        self._check_undo()

    def _on_undo_answer(self, connection: Connection, accept: bool) -> None:
        seat = connection.seat
        undo = self._undo
        if undo is None or seat not in undo.waiting:
            self._refuse(connection, "no undo request is waiting for your answer")
            return
        if not accept:
            self._finish_undo(False, declined_by=seat)
            return
        undo.waiting.discard(seat)
        self._check_undo()

    def _on_undo_withdraw(self, connection: Connection) -> None:
        undo = self._undo
        if undo is None or undo.by != connection.seat:
            self._refuse(connection, "you have no undo request waiting to withdraw")
            return
        self._finish_undo(False, reason=f"{self.match.names[undo.by]} withdrew the request")

    def _undo_expired(self, undo: PendingUndo) -> None:
        if self._undo is undo:
            self._finish_undo(False, reason=f"nobody answered within {UNDO_EXPIRES:g} seconds")

    def _no_undo(self) -> str:
        """Why there is no undo now: a round's end stops it at this table, or nothing to undo."""
        refusal = self.match.undo_refusal()
        return refusal[0].lower() + refusal[1:].rstrip(".") if refusal else "there is nothing to undo"

    def _check_undo(self) -> None:
        if self._undo is not None and not self._undo.waiting:
            self._finish_undo(True)

    def _finish_undo(self, accepted: bool, declined_by: int | None = None, reason: str = "") -> None:
        undo = self._undo
        assert undo is not None
        self._undo = None
        if undo.expiry is not None:
            undo.expiry.cancel()
        by = self.match.names[undo.by]
        if accepted and not self.match.undo():
            accepted, reason = False, self._no_undo()
        if accepted:
            self._bump()
            self._save()
            self.on_event(f"undone at {by}'s request")
        elif declined_by is not None:
            self.on_event(f"{self.match.names[declined_by]} declined {by}'s undo")
            self._undo_refused[undo.by] = (time.monotonic(), f"{self.match.names[declined_by]} declined your undo")
        else:
            self.on_event(f"{by}'s undo request lapsed: {reason}")
            if undo.waiting:  # withdrawn, or unanswered: not asked again at once either
                self._undo_refused[undo.by] = (time.monotonic(), f"your last undo request lapsed ({reason})")
        result: dict[str, Any] = {"type": "undo_result", "accepted": accepted, "by": undo.by}
        if declined_by is not None:
            result["declined_by"] = declined_by
        if reason:
            result["reason"] = reason
        for connection in self._by_seat.values():
            connection.send(result)
        self._broadcast()
        self._kick()

    # -- recording a change -----------------------------------------------------------------------------
    def _recorded(self, before: Any, move: Move) -> None:
        """After an event: note it, save, tell everyone, let the driver go on."""
        state = self.match.state
        self.on_event(self.match.game.describe_move(before, move, self.match.names))
        if (state.chance or state.over) and state.round > 0:
            scores = ", ".join(f"{name} {score}" for name, score in zip(self.match.names, state.scores, strict=True))
            if state.over:
                winners = " and ".join(self.match.names[seat] for seat in state.winners)
                self.on_event(f"the match is over: {winners} won ({scores})")
                self.on_event("the players were sent the match's secret and every event, to check the deals")
            elif not getattr(state.info, "redeal", False):
                self.on_event(f"round {state.round} is over: {scores}")
        self._save()
        self._broadcast()
        if state.over:
            for connection in [*self._by_seat.values(), *self._watchers]:
                self._reveal(connection)
        self._kick()

    def _reveal(self, connection: Connection) -> None:
        """Once the match is over: its secret (or chosen seed) and every event, in `reveal` messages
        of at most REVEAL_EVENTS events, so the player can check every deal (`dominoes verify`)."""
        match = self.match
        events = [event.to_data() for event in match.events[: match.cursor]]
        secret = match.secret.hex() if match.secret is not None else None
        for first in range(0, max(1, len(events)), REVEAL_EVENTS):
            connection.send(
                {
                    "type": "reveal",
                    "secret": secret,
                    "seed": match.seed,
                    "first": first,
                    "total": len(events),
                    "events": events[first : first + REVEAL_EVENTS],
                }
            )

    def _save(self) -> None:
        """Save the match; when that fails, say so once to the host and to every player (and once
        more when it works again), and play on."""
        if self.autosave is None:
            return
        try:
            self.autosave()
        except Exception as error:  # SaveError: one line; the match goes on
            self.on_event(f"the match could not be saved: {error}")
            if self._save_failing is None:
                self._save_failing = f"the match is not being saved: {getattr(error, 'reason', error)}"
                self._tell_everyone(self._save_failing)
            return
        if self._save_failing is not None:
            self._save_failing = None
            self.on_event("the match is being saved again")
            self._tell_everyone("the match is being saved again")

    def _tell_everyone(self, text: str) -> None:
        for connection in self._by_seat.values():
            connection.send({"type": "notice", "text": text})

    def _save_keys(self) -> None:
        if self.keys_path is None:
            return
        try:
            save_seat_keys(self.keys_path, self.table.keys)
        except OSError as error:
            self.on_event(f"the seats' keys could not be kept in {self.keys_path}: {error.strerror or error}")

    def _bump(self) -> None:
        self._generation += 1
        if self._interrupt is not None:
            self._interrupt.set()

    def _kick(self) -> None:
        if self._wake is not None:
            self._wake.set()

    # -- snapshots --------------------------------------------------------------------------------------
    def snapshot(self, seat: int) -> Snapshot:
        """What `seat`'s client is shown now: its own view and nothing of any other seat's hand."""
        match = self.match
        state = match.state
        mine = (
            not state.chance
            and not state.over
            and state.to_move == seat
            and seat not in self.table.stand_ins
            and self._undo is None
        )
        return Snapshot(
            match.view(seat),
            match.legal_moves() if mine else (),
            match.names,
            self.table.labels(),
            self.log_lines(seat),
            match.cursor,
            match.can_undo(),
            state.to_move,
            self.thinking,
            tuple(sorted(self.table.stand_ins)),
            match.undo_refusal() or "",
            len(self._watchers),
        )

    def watcher_snapshot(self) -> Snapshot:
        """What a watcher is shown: what every seat sees (`core.watching`), the log as every seat
        reads it, no legal moves and no undo."""
        match = self.match
        return Snapshot(
            watcher_view(match.game, match.state),
            (),
            match.names,
            self.table.labels(),
            self.log_lines(None),
            match.cursor,
            False,
            match.state.to_move,
            self.thinking,
            tuple(sorted(self.table.stand_ins)),
            "",
            len(self._watchers),
        )

    def log_lines(self, seat: int | None = None) -> tuple[str, ...]:
        """The recent events in words, as `seat` may read them (the tiles it drew itself are named;
        with no seat, only what every seat saw)."""
        match = self.match
        describe = match.game.describe_move
        events = match.events
        start = max(0, match.cursor - LOG_LINES)
        return tuple(describe(match.state_at(i), events[i], match.names, seat) for i in range(start, match.cursor))

    def _send_seats_their_snapshots(self) -> None:
        for seat, connection in list(self._by_seat.items()):
            connection.send(snapshot_message(self.snapshot(seat)))

    def _broadcast(self) -> None:
        self._send_seats_their_snapshots()
        if self._watchers:
            frame = encode_frame(snapshot_message(self.watcher_snapshot()))
            for watcher in list(self._watchers):
                watcher.send_frame(frame)
        self._tell_seats()

    def _tell_seats(self) -> None:
        seats = (self.match.names, self.table.labels())
        if self.on_seats is not None and seats != self._seats_told:
            self._seats_told = seats
            self.on_seats(*seats)

    def _watch_idle(self) -> None:
        """Start the idle clock when the last player leaves (or nobody has come yet); stop it when
        someone is at the table."""
        if self._idle_timer is not None:
            self._idle_timer.cancel()
            self._idle_timer = None
        if self.idle_close_after is None or self._by_seat or self._closed:
            return
        self._idle_timer = asyncio.get_running_loop().call_later(self.idle_close_after, self._close_idle)

    def _close_idle(self) -> None:
        self._idle_timer = None
        if self._closed or self._by_seat or self._over is None:
            return
        self.end_reason = f"nobody was at the table for {self.idle_close_after:g} seconds"
        self.on_event(f"closing: {self.end_reason}")
        self._over.set()

    # -- the driver: deals and bots ---------------------------------------------------------------------
    def _bot_process(self) -> BotProcess:
        if self._bots is None:
            self._bots = BotProcess()
        return self._bots

    def _bot_level(self, seat: int) -> str | None:
        if self.table.is_bot(seat):
            return self.match.seats[seat].level
        if seat in self.table.stand_ins and self._by_seat:  # a stand-in plays only while someone is here
            return self.takeover_level
        return None

    async def _drive(self) -> None:
        assert self._wake is not None and self._over is not None
        while True:
            self._wake.clear()
            state = self.match.state
            if state.over:
                self._over.set()
            elif self._undo is None and state.chance:
                key = (self._generation, self.match.cursor)
                if state.round > 0 and self.deal_delay > 0 and self._paused_at != key:
                    self._paused_at = key
                    await self._pause(self.deal_delay)
                    continue
                before = self.match.state
                self.match.deal()
                self._recorded(before, self.match.events[self.match.cursor - 1])
                continue
            elif self._undo is None and state.to_move is not None:
                level = self._bot_level(state.to_move)
                if level is not None:
                    await self._bot_turn(state.to_move, level)
                    continue
            await self._wake.wait()

    async def _pause(self, seconds: float) -> None:
        assert self._interrupt is not None
        self._interrupt.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._interrupt.wait(), seconds)

    async def _bot_turn(self, seat: int, level: str) -> None:
        assert self._interrupt is not None
        match = self.match
        generation = self._generation
        view, legal = match.view(seat), match.legal_moves()
        seed = decision_seed(match, seat)
        self.thinking = seat
        self._broadcast()
        self._interrupt.clear()
        if level in IN_PROCESS_LEVELS:
            bot = get_bot(level)
            decide = asyncio.to_thread(bot.choose, view, legal, random.Random(seed), self.bot_budget)
        else:
            # A search runs in the bot process, so it never holds this loop's interpreter; the
            # thread only waits on the pipe. The request is built here, where the match lives.
            bots = self._bot_process()
            decide = asyncio.to_thread(bots.ask, bots.request(match, seat, level, self.bot_budget, seed))
        thinking = asyncio.ensure_future(decide)
        interrupted = asyncio.ensure_future(self._interrupt.wait())
        try:
            await asyncio.wait({thinking, interrupted}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            interrupted.cancel()
            self.thinking = None
        if not thinking.done() or generation != self._generation or self._undo is not None:
            if not thinking.done() and self._bots is not None and level not in IN_PROCESS_LEVELS:
                self._bots.cancel()  # stop the search: the position it was for is gone
            thinking.add_done_callback(_ignore_result)  # a decision for a position that is gone
            self._broadcast()
            return
        try:
            move = thinking.result()
        except Exception as error:
            self.on_event(f"the {level} bot at seat {seat + 1} failed ({error}); it plays its first legal move")
            move = legal[0]
        before = match.state
        try:
            match.apply(move)
        except IllegalMove as error:
            self.on_event(f"the {level} bot at seat {seat + 1} chose an illegal move ({error.message})")
            move = legal[0]
            match.apply(move)
        self._recorded(before, move)


def _ignore_result(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()
