"""`dominoes serve-web`: the web front door, where every browser session gets its own lobby.

The page is our own and nothing on it comes from another host: its terminal is xterm.js, as
published (`net/web_page/terminal`, served as one script), made by the page's own script, which
speaks textual-serve's browser protocol; the font is textual-serve's, from the installed package.
textual-serve's own server runs
one Textual app per connection through Textual's web driver on pipes; a player's lobby session is
a chain of apps and `dominoes join` children in one terminal, and checks that it has one, so here
each session runs in a pseudo-terminal exactly as an SSH session does (`net.web_session`), forked
from the same kind of warm process (the launcher its front end gives it; by default each starts afresh).

Nobody gets in without an invitation (`net.web_auth`): every page, asset and the terminal socket
answer 401 without a valid session cookie and start nothing; `/join/TOKEN` with a live invite sets
the cookie and sends the browser to `/`. On an open server (`serve-web --open`) the front page
offers a browser with no session a name to choose instead (`net.web_sign_up`), kept in the room's
book with the SSH door's; whether open or not, a session whose name the book bans is refused, and
ended within a second if it is in play (`net.web_room`). A sign-in must be the browser's own
doing: a link opened from another site (or in a browser signed in as another player) asks first,
with a button whose POST only this site's own page can send (login CSRF, `net.web_forms`). The
socket also refuses a page from another site (its Origin: scheme, host and port), and sessions are
counted under the server's cap.

Strangers are bounded (`net.door_guard`): a connection that has sent no request with a valid
session counts as one until it does, capped in all and per address, and closed if its headers are
not in within 10 seconds; a stranger's connection ends with its answer. A browser's messages are
paced (`net.web_session`).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import os
import socket
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import jinja2
import textual_serve
from aiohttp import web

from net.accounts import BANNED, RoomBook
from net.door_guard import Notes, SignedIn, Strangers, quiet_accept_errors, raise_open_file_limit, stranger_places
from net.limits import ServerLimits
from net.player_sessions import DoorSessions, SessionCaps, lobby_session
from net.pty_session import PtyProcess
from net.session_launch import SessionLauncher
from net.web_auth import SESSION_LIFETIME, Gatekeeper, Session, SignInsTooFast, digest
from net.web_forms import from_this_page, give_check, new_check, over_https, read_form, same_origin
from net.web_room import RoomView
from net.web_session import BrowserSession, size_from_query
from net.web_window import ACCEPT_CH, size_from_hints

COOKIE = "dominoes_session"
COOKIE_MAX_AGE = int(SESSION_LIFETIME)  # as long as the server keeps a session unused
JOIN_COOKIE = "dominoes_join"  # the check a sign-in's button sends back: only this site's page has it
HEARTBEAT = 20.0  # seconds between pings on a terminal socket; a browser gone silent is closed
# Seconds between looks at the invites file and the room's book: a revocation or a ban ends the
# sessions in play within a second. Each look is a stat unless the file changed.
WATCH_SESSIONS = 0.4
KEEPALIVE = 60.0  # seconds a signed-in browser's idle connection is kept open
BACKLOG = 128
PAGE = Path(__file__).resolve().parent / "web_page"
TEXTUAL_STATIC = Path(textual_serve.__file__).resolve().parent / "static"
PUBLIC = ("/join/", "/favicon.svg")
SIGN_UP = "/sign-up"  # public too on an open server (`net.web_sign_up`)
ANY_ADDRESS = ("", "0.0.0.0", "::")
STATIC_CACHE = "private, max-age=3600"  # the page's scripts, styles and font: only a signed-in browser keeps them
PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
)
NOTICE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'"
CONFIRM_POLICY = NOTICE_POLICY + "; form-action 'self'"
TERMINAL = PAGE / "terminal"
TERMINAL_PARTS = ("xterm.js", "addon-fit.js", "addon-canvas.js", "addon-unicode11.js")  # in the order they run
MAX_TERMINAL_SCRIPT = 4 << 20  # bytes in all: they are about 0.4 MB
SOURCE_MAP = b"//# sourceMappingURL="  # a part's last line names a map that is not served
SESSION_ENVIRONMENT = {"TERM": "xterm-256color", "COLORTERM": "truecolor"}
PRESTART_WAIT = 15.0  # seconds a session started with its page waits for the page's socket
MAX_KNOWN_SIZES = 1000  # browsers whose last window size is remembered (to start their next session at it)

SESSION = web.RequestKey("session", Session)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def sentence(line: str, name: str = "") -> str:
    """A one-line reason as a sentence of its own on a page; one that begins with the `name` it
    quotes keeps that name as it was written."""
    line = line.strip().rstrip(".")
    if name and line.startswith(name):
        return f"{line}."
    return f"{line[:1].upper()}{line[1:]}." if line else ""


def peer_host(transport: asyncio.BaseTransport | None) -> str:
    """The address a connection comes from, as the door counts strangers (`net.door_guard`)."""
    peer = transport.get_extra_info("peername") if transport is not None else None
    return str(peer[0]) if isinstance(peer, tuple) and peer else "local"


def to_the_lobby() -> web.Response:
    """On to the lobby's page at once (a 303, where a page moving on by itself took a page more to
    load), asking for the window's size with it (client hints: `net.web_window`)."""
    return web.Response(status=303, headers={"Location": "/", "Accept-CH": ACCEPT_CH})


def give_session_cookie(response: web.StreamResponse, request: web.Request, cookie: str) -> None:
    """The browser keeps its session's cookie as long as the server keeps the session unused."""
    response.set_cookie(
        COOKIE,
        cookie,
        max_age=COOKIE_MAX_AGE,
        path="/",
        httponly=True,
        samesite="Strict",
        secure=over_https(request),
    )


def terminal_script() -> bytes:
    """The page's terminal (xterm.js and the addons it uses) as one script: one request. (Chromium's
    hint to compile all of a script as it downloads, `//# allFunctionsCalledOnLoad`, gained nothing
    once the session drew its lobby as the page loaded: 0.377 s against 0.350 s, 24 logins each.)"""
    parts = []
    left = MAX_TERMINAL_SCRIPT
    for name in TERMINAL_PARTS:
        with (TERMINAL / name).open("rb") as part:
            body = part.read(left + 1)
        left -= len(body)
        if left < 0:
            raise OSError(f"the terminal's scripts in {TERMINAL} are larger than {MAX_TERMINAL_SCRIPT} bytes")
        lines = body.rstrip(b"\n").split(b"\n")
        if lines[-1].startswith(SOURCE_MAP):
            lines.pop()
        parts.append(b"\n".join(lines) + b"\n")
    return b"".join(parts)


class GuardedConnection(asyncio.Protocol):
    """aiohttp's handler of one connection, seen by the door: a stranger from the moment it is
    made until a request of it signs in (`net.door_guard`)."""

    def __init__(self, door: WebFrontDoor, inner: asyncio.Protocol) -> None:
        self.door = door
        self.inner = inner
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.door.connection_made(self, peer_host(transport))
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self.door.connection_lost(self)
        self.inner.connection_lost(exc)

    def abort(self) -> None:
        if self.transport is not None:
            self.transport.abort()


class WebFrontDoor:
    """The web server. `start()` binds (port 0 picks a free one: see `.port`); `close()` ends every
    session and its child. `data` is the server's data directory: invites, sessions, players. With
    `room` (an open server), a browser with no session may choose a name (`net.web_sign_up`); a
    name banned in the room's book is refused whether the server is open or not. `ssh_address`: where
    the open SSH door on the same data directory is reached (HOST[:PORT]), for the key page to say."""

    def __init__(
        self,
        data: Path,
        *,
        limits: ServerLimits | None = None,
        environment: Mapping[str, str] | None = None,
        on_note: Callable[[str], None] | None = None,
        launcher: SessionLauncher | None = None,
        room: RoomBook | None = None,
        ssh_address: str = "",
    ) -> None:
        from net.web_sign_up import OpenRoomPages, ssh_command  # its pages use this module's helpers: here, once whole

        if ssh_address:
            ssh_command(ssh_address)  # ValueError before anything starts
        self.ssh_address = ssh_address
        self.data = data
        self.gate = Gatekeeper(data)
        self.room = RoomView(room if room is not None else RoomBook(data))
        self.pages = OpenRoomPages(self) if room is not None else None  # an open server's own pages
        self.notes = Notes(on_note or (lambda line: None))  # refused and failed connections, counted
        self.strangers = Strangers(self.notes)
        self.signed = SignedIn(self.notes)
        self._guarded: dict[Any, GuardedConnection] = {}  # transport -> its connection
        self.limits = limits or ServerLimits()
        self.caps = SessionCaps(data, self.limits)
        self.environment = {**(os.environ if environment is None else environment), **SESSION_ENVIRONMENT}
        # How sessions start: spawned afresh unless the front end hands the door a warm launcher.
        self.launcher = launcher if launcher is not None else SessionLauncher(self.environment)
        self.prestart = self.launcher.warm  # a session starts with its page, not when its socket comes
        self._prestarted: dict[str, tuple[BrowserSession, asyncio.Task[bool], asyncio.TimerHandle]] = {}
        self._sizes: dict[str, tuple[int, int]] = {}  # a signed-in browser's last window size
        self.sessions = DoorSessions(self.caps, "web")
        self.active: set[BrowserSession] = self.sessions.active
        self.port = 0
        self.base_url = ""
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.Server | None = None
        self._closed = asyncio.Event()
        self._watcher: asyncio.Task[None] | None = None
        self._sessions: set[asyncio.Task[Any]] = set()
        self._templates = jinja2.Environment(
            loader=jinja2.FileSystemLoader(PAGE), autoescape=True, undefined=jinja2.StrictUndefined
        )
        # On a warm server the page opens its socket from a script of its own, inline so that it runs
        # as the page arrives rather than after one more request; the policy allows that script alone.
        self._early_script = (PAGE / "static" / "early.js").read_text(encoding="utf-8") if self.prestart else ""
        self._index_policy = PAGE_POLICY
        self._terminal_js = terminal_script()
        self._terminal_js_tag = '"' + hashlib.sha256(self._terminal_js).hexdigest()[:32] + '"'
        if self._early_script:
            early_hash = base64.b64encode(hashlib.sha256(self._early_script.encode()).digest()).decode()
            self._index_policy = PAGE_POLICY.replace("script-src 'self'", f"script-src 'self' 'sha256-{early_hash}'")

    # -- sessions --------------------------------------------------------------------------------
    def command_for(self, player: str) -> tuple[list[str], dict[str, str]]:
        """The child to run for `player`'s session (their lobby session, exactly as over SSH), and
        its environment. OSError if the player's folder cannot be made."""
        return lobby_session(player, self.data, self.limits, base=self.environment)

    def launch(
        self, argv: Sequence[str], environment: Mapping[str, str], size: tuple[int, int, int, int]
    ) -> Awaitable[tuple[int, PtyProcess]]:
        """Start a session's child in a pty of its own (`self.launcher`)."""
        return self.launcher.launch(argv, environment, size)

    def take_session(self, session: BrowserSession) -> str | None:
        """Count one more session of its player, under the caps every door shares; the reason in one
        line if there is no room."""
        return self.sessions.take(session)

    def release_session(self, session: BrowserSession) -> None:
        self.sessions.release(session)

    # -- connections ------------------------------------------------------------------------------
    def connection_made(self, connection: GuardedConnection, host: str) -> None:
        self._guarded[connection.transport] = connection
        self.strangers.arrive(connection, host, connection.abort)

    def connection_lost(self, connection: GuardedConnection) -> None:
        self._guarded.pop(connection.transport, None)
        self.strangers.left(connection)
        self.signed.left(connection)

    def _connection_of(self, request: web.Request) -> GuardedConnection | None:
        return self._guarded.get(request.transport)

    # -- the web application ---------------------------------------------------------------------
    def application(self) -> web.Application:
        app = web.Application(middlewares=[self._guard], client_max_size=64 * 1024)
        app.router.add_get("/", self._index)
        app.router.add_get("/join/{token}", self._join)
        app.router.add_post("/join/{token}", self._join_confirmed)
        if self.pages is not None:
            self.pages.add_routes(app)
        app.router.add_get("/ws", self._socket)
        app.router.add_get("/favicon.svg", self._favicon)
        app.router.add_get("/static/terminal/terminal.js", self._terminal_script)
        app.router.add_static("/static/terminal/", TERMINAL, follow_symlinks=False)
        app.router.add_static("/static/textual/", TEXTUAL_STATIC, follow_symlinks=False)
        app.router.add_static("/static/page/", PAGE / "static", follow_symlinks=False)
        return app

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Everything but an invite link and the icon needs a signed-in browser. A connection whose
        request is signed in is no stranger any more; a stranger's ends with its answer."""
        response: web.StreamResponse
        self.gate.refresh()
        session, refused = self.session_of(request)
        connection = self._connection_of(request)
        if connection is not None and session is not None:
            self.strangers.signed_in(connection)
            self.signed.add(connection, session.player, connection.abort)
        public = request.path.startswith(PUBLIC) or (self.pages is not None and request.path == SIGN_UP)
        if session is None and not public:
            if self.pages is not None and request.path == "/" and refused != BANNED:
                response = self.pages.sign_up_page(request, line=sentence(refused or ""))
            elif refused is not None:
                response = self.notice(403, "Signed out", sentence(refused))
            else:
                response = self.notice(401, "This table is by invitation", "Open the invite link you were given.")
        else:
            request[SESSION] = session
            try:
                response = await handler(request)
            except web.HTTPException as error:
                response = web.Response(status=error.status, text=error.reason)
            if session is not None:
                self._renew(request, response)
        if not response.prepared:
            if session is None:
                response.force_close()
            response.headers.setdefault("Content-Security-Policy", PAGE_POLICY)
            response.headers["X-Content-Type-Options"] = "nosniff"
            response.headers.setdefault("Referrer-Policy", "no-referrer")
            response.headers["X-Frame-Options"] = "DENY"
            kept = response.status in (200, 304)  # a 304 renews the copy the browser has: keep it as kept
            cache = STATIC_CACHE if request.path.startswith("/static/") and kept else "no-store"
            response.headers.setdefault("Cache-Control", cache)
        return response

    def _renew(self, request: web.Request, response: web.StreamResponse) -> None:
        """A session used begins its lifetime again (at most once an hour: `Gatekeeper.renew`), and
        its cookie with it, on an answer that can still carry the cookie and sets no other."""
        if response.prepared or response.status >= 400 or COOKIE in response.cookies:
            return
        cookie = request.cookies.get(COOKIE)
        if cookie is not None and self.gate.renew(cookie):
            give_session_cookie(response, request, cookie)

    def session_of(self, request: web.Request) -> tuple[Session | None, str | None]:
        """The browser's session, and, for a cookie whose session the room's book no longer allows
        (a banned name, a chosen name let go), None and why (one line)."""
        cookie = request.cookies.get(COOKIE)
        session = self.gate.session(cookie)
        known = session or self.gate.signed_in_as(cookie)  # a ban also revokes: the ban is what to say
        refused = self.room.refusal(known) if known is not None else None
        return (session, None) if refused is None else (None, refused)

    def notice(
        self,
        status: int,
        title: str,
        advice: str,
        form: Mapping[str, Any] | None = None,
        line: str = "",
        back: str = "",
        code: str = "",
        after: str = "",
    ) -> web.Response:
        """A page of its own: a title, a line of advice, and maybe the one line that says what was
        refused, a form, a code to type elsewhere and more advice `after` it, and a link back to the
        lobby (`back`, its words). Everything is escaped."""
        html = self._templates.get_template("notice.html").render(
            title=title, advice=advice, form=form, line=line, back=back, code=code, after=after
        )
        response = web.Response(status=status, text=html, content_type="text/html")
        response.headers["Content-Security-Policy"] = CONFIRM_POLICY if form else NOTICE_POLICY
        if form:
            response.headers["Referrer-Policy"] = "same-origin"  # so the button's POST says where it is from
        return response

    async def _index(self, request: web.Request) -> web.Response:
        html = self._templates.get_template("index.html").render(
            player=request[SESSION].player, early_script=self._early_script
        )
        self._start_with_page(request.cookies.get(COOKIE, ""), request[SESSION], size_from_hints(request.headers))
        response = web.Response(text=html, content_type="text/html")
        response.headers["Content-Security-Policy"] = self._index_policy
        response.headers["Accept-CH"] = ACCEPT_CH
        return response

    # -- a session started with its page ---------------------------------------------------------
    def _start_with_page(self, cookie: str, signed_in: Session | None, hinted: tuple[int, int] | None) -> None:
        """Start the browser's session while its page loads (its scripts take longer than the lobby
        to start), at its window's size as its client hints give it (`net.web_window`), or else as
        it was at the browser's last session: the page's socket attaches to it. One at a time for a
        signed-in browser, counted under the caps like any session; ended if no socket comes within
        PRESTART_WAIT. (Not from the invite link's answer: a chat's link preview fetches that, and
        would hold a session.) Not for a browser whose window's size is not known: a session
        started at another size drew its first screen twice, the second once the page said its
        size, later than a session started then (the page's socket says it as it opens)."""
        key = digest(cookie)
        size = hinted or self._sizes.get(key)
        if not self.prestart or signed_in is None or size is None or key in self._prestarted:
            return
        session = BrowserSession(self, signed_in, None)
        loop = asyncio.get_running_loop()
        task = loop.create_task(session.prepare(size))
        self._prestarted[key] = (session, task, loop.call_later(PRESTART_WAIT, self._unclaimed, key))

    def _unclaimed(self, key: str) -> None:
        prestarted = self._prestarted.pop(key, None)
        if prestarted is not None:
            self._sessions.add(asyncio.get_running_loop().create_task(self._discard(*prestarted[:2])))

    async def _discard(self, session: BrowserSession, task: asyncio.Task[bool]) -> None:
        try:
            if await task:
                await session.discard()
        finally:
            current = asyncio.current_task()
            if current is not None:
                self._sessions.discard(current)

    async def _claim(self, key: str, websocket: web.WebSocketResponse) -> BrowserSession | None:
        """The session started with this browser's page, if one is ready for its socket."""
        prestarted = self._prestarted.pop(key, None)
        if prestarted is None:
            return None
        session, task, timer = prestarted
        timer.cancel()
        if not await task or session.exited or session.ending or session.websocket is not None:
            return None
        session.websocket = websocket
        return session

    async def _favicon(self, request: web.Request) -> web.FileResponse:
        response = web.FileResponse(PAGE / "static" / "favicon.svg")
        response.headers["Cache-Control"] = "max-age=86400"
        return response

    async def _terminal_script(self, request: web.Request) -> web.Response:
        if request.headers.get("If-None-Match") == self._terminal_js_tag:  # the browser has it: as static files answer
            return web.Response(status=304, headers={"ETag": self._terminal_js_tag})
        response = web.Response(body=self._terminal_js, content_type="application/javascript", charset="utf-8")
        response.headers["ETag"] = self._terminal_js_tag
        return response

    def _bad_link(self) -> web.Response:
        return self.notice(403, "This invite link does not work", "It was mistyped or withdrawn: ask for a new one.")

    async def _join(self, request: web.Request) -> web.Response:
        """An invite link opened. It signs in at once only when the browser says the player opened
        it themselves (typed, pasted, or from a mail or chat program: Sec-Fetch-Site "none") and is
        signed in as nobody else; otherwise it asks first, with a button only this page can send."""
        token = request.match_info["token"]
        player = self.gate.player_of(token)
        if player is None:
            return self._bad_link()
        current, _ = self.session_of(request)
        if current is not None and current.player.casefold() == player.casefold():
            return to_the_lobby()
        if current is None and request.headers.get("Sec-Fetch-Site") == "none":
            return self._signed_in(request, token)
        check = new_check()
        if current is not None:
            title = f"This browser is signed in as {current.player}"
            advice = f"Sign in as {player} instead? {current.player} is then signed out here."
            form = {"button": f"Sign in as {player}", "stay": f"Stay signed in as {current.player}"}
        else:
            title = f"Sign in as {player}?"
            advice = "This invite link was opened from another page. Sign in only if it was sent to you."
            form = {"button": f"Sign in as {player}", "stay": ""}
        response = self.notice(200, title, advice, form={**form, "action": f"/join/{token}", "check": check})
        give_check(response, request, JOIN_COOKIE, "/join/", check)
        return response

    async def _join_confirmed(self, request: web.Request) -> web.Response:
        """The button of `_join`'s page: refused unless it came from that page on this site."""
        form = await read_form(request)
        if form is None or not from_this_page(request, form, JOIN_COOKIE, self.base_url):
            return self.notice(
                403, "This sign-in was not started here", "Open your invite link yourself, then use its button."
            )
        if self.gate.player_of(request.match_info["token"]) is None:
            return self._bad_link()
        response = self._signed_in(request, request.match_info["token"])
        response.del_cookie(JOIN_COOKIE, path="/join/")
        return response

    def _signed_in(self, request: web.Request, token: str) -> web.Response:
        try:
            redeemed = self.gate.redeem(token, replacing=request.cookies.get(COOKIE))
        except SignInsTooFast as error:
            return self.notice(429, "Not just now", f"{str(error)[:1].upper()}{str(error)[1:]}.")
        if redeemed is None:
            return self._bad_link()
        cookie, _player = redeemed
        # A redirect carries the new SameSite=Strict cookie on to / because every way here is the
        # browser's own or this site's: a link followed from another site asked first (`_join`).
        return self.to_the_lobby_as(request, cookie)

    def to_the_lobby_as(self, request: web.Request, cookie: str) -> web.Response:
        """On to the lobby, signed in with the session `cookie` (a sign-in's answer)."""
        response = to_the_lobby()
        give_session_cookie(response, request, cookie)
        return response

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        if not same_origin(request, self.base_url):
            return self.notice(403, "Not from this page", "Open the game from its own address.")
        session = request[SESSION]
        websocket = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=64 * 1024, compress=False)
        await websocket.prepare(request)
        connection = self._connection_of(request)
        if connection is not None:
            self.signed.left(connection)  # a session now: counted under the sessions' caps
        key = digest(request.cookies.get(COOKIE, ""))
        # A page that opens its socket before its terminal is drawn (early.js) gives no size: a
        # session started with the page goes on at the size it started at, and any other starts
        # once the page says its size (early.js measures it as soon as the font is in).
        size = size_from_query(request.query) or self._sizes.get(key)
        if size is not None:
            self._remember_size(key, size)
        browser = await self._claim(key, websocket) or BrowserSession(self, session, websocket)
        task = asyncio.current_task()
        if task is not None:
            self._sessions.add(task)
        try:
            await browser.run(size)
        finally:
            self._remember_size(key, browser.size)  # the size its window had last, for its next session
            if task is not None:
                self._sessions.discard(task)
        return websocket

    def _remember_size(self, key: str, size: tuple[int, int]) -> None:
        self._sizes.pop(key, None)
        self._sizes[key] = size
        while len(self._sizes) > MAX_KNOWN_SIZES:
            del self._sizes[next(iter(self._sizes))]

    # -- running ---------------------------------------------------------------------------------
    async def start(self, host: str = "127.0.0.1", port: int = 0, base_url: str | None = None) -> None:
        """Bind and serve. OSError if the address cannot be bound or the data directory written."""
        open_files = raise_open_file_limit()
        self.strangers.most = stranger_places(open_files, self.limits.max_sessions)
        self._runner = web.AppRunner(
            self.application(),
            access_log=None,
            handle_signals=False,
            shutdown_timeout=1.0,
            keepalive_timeout=KEEPALIVE,
        )
        await self._runner.setup()
        handlers = self._runner.server
        assert handlers is not None
        loop = asyncio.get_running_loop()
        try:
            self._listener = await loop.create_server(
                lambda: GuardedConnection(self, handlers()), host, port, backlog=BACKLOG
            )
        except BaseException:
            await self._runner.cleanup()
            raise
        quiet_accept_errors(loop, self.notes)  # kept while the loop runs (see its words)
        self.port = self._listener.sockets[0].getsockname()[1]
        if host in ANY_ADDRESS:
            host = socket.gethostname()  # links to 0.0.0.0 would lead nowhere: this machine's name is a better guess
        shown = f"[{host}]" if ":" in host else host
        self.base_url = base_url or f"http://{shown}:{self.port}"
        self.gate.open(self.base_url)
        await self.launcher.start()
        self._watcher = asyncio.get_running_loop().create_task(self._watch_sessions())

    async def _watch_sessions(self) -> None:
        """End the sessions in play of a player banned, or whose invitations were revoked. Every
        WATCH_SESSIONS, every session is checked against the book and the invites as last read
        (whoever read them): a change is never missed because some other request read it first.
        Bans first: a ban revokes the player's invitations too, and the player is told the ban."""
        while True:
            await asyncio.sleep(WATCH_SESSIONS)
            self.end_refused()
            self.end_revoked()

    def end_refused(self) -> None:
        for session in list(self.active):
            refused = self.room.refusal(session.signed_in)
            if refused is not None and not session.ending:
                self.notes.note("ended (a session the room's book no longer allows: banned, or its name let go)")
                session.end(refused)

    def end_revoked(self) -> None:
        self.gate.refresh()
        for session in list(self.active):
            if self.gate.invites.revoked_since(session.player, session.began):
                session.end("your invitation was withdrawn")

    async def serve_forever(self) -> None:
        await self._closed.wait()

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.close()
        self.strangers.close_all()
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher
        for key in list(self._prestarted):
            self._unclaimed(key)
        for session in list(self.active):
            session.end("the server is stopping")
        for _ in range(100):
            if not self._sessions:
                break
            await asyncio.sleep(0.05)
        for session in list(self.active):
            self.release_session(session)
        if self._runner is not None:
            await self._runner.cleanup()
        if self._listener is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._listener.wait_closed(), 2.0)
        self.notes.close()
        await self.launcher.close()
        self._closed.set()
