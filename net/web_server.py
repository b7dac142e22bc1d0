"""`dominoes serve-web`: the web front door, where every browser session gets its own lobby.

Built on textual-serve's parts: its page terminal (textual.js, which holds xterm.js and speaks
textual-serve's browser protocol), its stylesheet and its font, served from the installed package,
around a page of our own (nothing on it comes from another host). textual-serve's own server runs
one Textual app per connection through Textual's web driver on pipes; a player's lobby session is
a chain of apps and `dominoes join` children in one terminal, and checks that it has one, so here
each session runs in a pseudo-terminal exactly as an SSH session does (`net.web_session`), forked
from the same kind of warm process (`net.session_fork`; `spawn=True` starts each afresh).

Nobody gets in without an invitation (`net.web_auth`): every page, asset and the terminal socket
answer 401 without a valid session cookie and start nothing; `/join/TOKEN` with a live invite sets
the cookie and sends the browser to `/`. The socket also refuses a page from another site (its
Origin), and sessions are counted under the server's cap.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jinja2
import textual_serve
from aiohttp import web

from net.limits import ServerLimits
from net.player_sessions import DoorSessions, SessionCaps, lobby_session
from net.pty_session import DEFAULT_SIZE, PtyProcess
from net.session_fork import WarmSessions
from net.web_auth import Gatekeeper, Session, digest
from net.web_session import BrowserSession, size_from_query

COOKIE = "dominoes_session"
COOKIE_MAX_AGE = 30 * 24 * 3600
HEARTBEAT = 20.0  # seconds between pings on a terminal socket; a browser gone silent is closed
WATCH_INVITES = 1.0  # seconds between looks at the invites file (a revocation ends sessions in play)
PAGE = Path(__file__).resolve().parent / "web_page"
TEXTUAL_STATIC = Path(textual_serve.__file__).resolve().parent / "static"
PUBLIC = ("/join/", "/favicon.svg")
ANY_ADDRESS = ("", "0.0.0.0", "::")
STATIC_CACHE = "private, max-age=3600"  # the page's scripts, styles and font: only a signed-in browser keeps them
PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
)
NOTICE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'"
SESSION_ENVIRONMENT = {"TERM": "xterm-256color", "COLORTERM": "truecolor"}
PRESTART_WAIT = 15.0  # seconds a session started with its page waits for the page's socket
MAX_KNOWN_SIZES = 1000  # browsers whose last window size is remembered (to start their next session at it)

SESSION = web.RequestKey("session", Session)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def over_https(request: web.Request) -> bool:
    """Served over https, directly or behind a proxy that says so (X-Forwarded-Proto or Forwarded)."""
    if request.secure or request.headers.get("X-Forwarded-Proto", "").strip().lower() == "https":
        return True
    return "proto=https" in request.headers.get("Forwarded", "").replace(" ", "").lower()


def same_origin(request: web.Request) -> bool:
    """A browser's request from a page of this server (or from no page at all: not a browser's)."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    host = request.headers.get("X-Forwarded-Host", "").split(",")[0] or request.host
    return urlsplit(origin).netloc.lower() == host.strip().lower()


class WebFrontDoor:
    """The web server. `start()` binds (port 0 picks a free one: see `.port`); `close()` ends every
    session and its child. `data` is the server's data directory: invites, sessions, players."""

    def __init__(
        self,
        data: Path,
        *,
        limits: ServerLimits | None = None,
        environment: Mapping[str, str] | None = None,
        spawn: bool = False,
    ) -> None:
        self.data = data
        self.gate = Gatekeeper(data)
        self.limits = limits or ServerLimits()
        self.caps = SessionCaps(data, self.limits)
        self.environment = {**(os.environ if environment is None else environment), **SESSION_ENVIRONMENT}
        self.warm = WarmSessions(self.environment, spawn=spawn)  # sessions forked warm, or (spawn) started afresh
        self.prestart = not spawn  # start a session with its page, not when its socket comes (--spawn: as before)
        self._prestarted: dict[str, tuple[BrowserSession, asyncio.Task[bool], asyncio.TimerHandle]] = {}
        self._sizes: dict[str, tuple[int, int]] = {}  # a signed-in browser's last window size
        self.sessions = DoorSessions(self.caps, "web")
        self.active: set[BrowserSession] = self.sessions.active
        self.port = 0
        self.base_url = ""
        self._runner: web.AppRunner | None = None
        self._closed = asyncio.Event()
        self._watcher: asyncio.Task[None] | None = None
        self._sessions: set[asyncio.Task[Any]] = set()
        self._templates = jinja2.Environment(
            loader=jinja2.FileSystemLoader(PAGE), autoescape=True, undefined=jinja2.StrictUndefined
        )

    # -- sessions --------------------------------------------------------------------------------
    def command_for(self, player: str) -> tuple[list[str], dict[str, str]]:
        """The child to run for `player`'s session (their lobby session, exactly as over SSH), and
        its environment. OSError if the player's folder cannot be made."""
        return lobby_session(player, self.data, self.limits, base=self.environment)

    def launch(
        self, argv: Sequence[str], environment: Mapping[str, str], size: tuple[int, int, int, int]
    ) -> Awaitable[tuple[int, PtyProcess]]:
        """Start a session's child in a pty of its own (`net.session_fork`)."""
        return self.warm.launch(argv, environment, size)

    def take_session(self, session: BrowserSession) -> str | None:
        """Count one more session of its player, under the caps every door shares; the reason in one
        line if there is no room."""
        return self.sessions.take(session)

    def release_session(self, session: BrowserSession) -> None:
        self.sessions.release(session)

    # -- the web application ---------------------------------------------------------------------
    def application(self) -> web.Application:
        app = web.Application(middlewares=[self._guard], client_max_size=64 * 1024)
        app.router.add_get("/", self._index)
        app.router.add_get("/join/{token}", self._join)
        app.router.add_get("/ws", self._socket)
        app.router.add_get("/favicon.svg", self._favicon)
        app.router.add_static("/static/textual/", TEXTUAL_STATIC, follow_symlinks=False)
        app.router.add_static("/static/page/", PAGE / "static", follow_symlinks=False)
        return app

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Everything but an invite link and the icon needs a signed-in browser."""
        response: web.StreamResponse
        session = None
        if not request.path.startswith(PUBLIC):
            self.gate.changed()
            session = self.gate.session(request.cookies.get(COOKIE))
        if session is None and not request.path.startswith(PUBLIC):
            response = self._notice(401, "This table is by invitation", "Open the invite link you were given.")
        else:
            request[SESSION] = session
            try:
                response = await handler(request)
            except web.HTTPException as error:
                response = web.Response(status=error.status, text=error.reason)
        if not response.prepared:
            response.headers.setdefault("Content-Security-Policy", PAGE_POLICY)
            response.headers["X-Content-Type-Options"] = "nosniff"
            response.headers["Referrer-Policy"] = "no-referrer"
            response.headers["X-Frame-Options"] = "DENY"
            cache = STATIC_CACHE if request.path.startswith("/static/") and response.status == 200 else "no-store"
            response.headers.setdefault("Cache-Control", cache)
        return response

    def _notice(self, status: int, title: str, advice: str, go_to: str | None = None) -> web.Response:
        html = self._templates.get_template("notice.html").render(title=title, advice=advice, go_to=go_to)
        response = web.Response(status=status, text=html, content_type="text/html")
        response.headers["Content-Security-Policy"] = NOTICE_POLICY
        return response

    async def _index(self, request: web.Request) -> web.Response:
        html = self._templates.get_template("index.html").render(player=request[SESSION].player)
        self._start_with_page(request.cookies.get(COOKIE, ""), request[SESSION])
        return web.Response(text=html, content_type="text/html")

    # -- a session started with its page ---------------------------------------------------------
    def _start_with_page(self, cookie: str, signed_in: Session | None) -> None:
        """Start the browser's session while its page loads (its scripts take longer than the lobby
        to start): the page's socket attaches to it. One at a time for a signed-in browser, counted
        under the caps like any session; ended if no socket comes within PRESTART_WAIT. (Not from
        the invite link's answer: a chat's link preview fetches that, and would hold a session.)"""
        key = digest(cookie)
        if not self.prestart or signed_in is None or key in self._prestarted:
            return
        session = BrowserSession(self, signed_in.player, signed_in.began, None)
        loop = asyncio.get_running_loop()
        task = loop.create_task(session.prepare(self._sizes.get(key, DEFAULT_SIZE)))
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

    async def _join(self, request: web.Request) -> web.Response:
        redeemed = self.gate.redeem(request.match_info["token"])
        if redeemed is None:
            return self._notice(
                403, "This invite link does not work", "It was mistyped or withdrawn: ask for a new one."
            )
        cookie, player = redeemed
        # A page that moves on to / by itself, not a 303: after a link followed from another site
        # (a chat, a mail), the browser would not send a SameSite=Strict cookie along the redirect.
        response = self._notice(200, f"Welcome, {player}", "Opening the lobby…", go_to="/")
        response.set_cookie(
            COOKIE,
            cookie,
            max_age=COOKIE_MAX_AGE,
            path="/",
            httponly=True,
            samesite="Strict",
            secure=over_https(request),
        )
        return response

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        if not same_origin(request):
            return self._notice(403, "Not from this page", "Open the game from its own address.")
        session = request[SESSION]
        websocket = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=64 * 1024, compress=False)
        await websocket.prepare(request)
        key = digest(request.cookies.get(COOKIE, ""))
        size = size_from_query(request.query)
        self._sizes.pop(key, None)
        self._sizes[key] = size
        while len(self._sizes) > MAX_KNOWN_SIZES:
            del self._sizes[next(iter(self._sizes))]
        browser = await self._claim(key, websocket) or BrowserSession(self, session.player, session.began, websocket)
        task = asyncio.current_task()
        if task is not None:
            self._sessions.add(task)
        try:
            await browser.run(size)
        finally:
            if task is not None:
                self._sessions.discard(task)
        return websocket

    # -- running ---------------------------------------------------------------------------------
    async def start(self, host: str = "127.0.0.1", port: int = 0, base_url: str | None = None) -> None:
        """Bind and serve. OSError if the address cannot be bound or the data directory written."""
        self._runner = web.AppRunner(self.application(), access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        try:
            await site.start()
        except BaseException:
            await self._runner.cleanup()
            raise
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        if host in ANY_ADDRESS:
            host = socket.gethostname()  # links to 0.0.0.0 would lead nowhere: this machine's name is a better guess
        shown = f"[{host}]" if ":" in host else host
        self.base_url = base_url or f"http://{shown}:{self.port}"
        self.gate.open(self.base_url)
        await self.warm.start()
        self._watcher = asyncio.get_running_loop().create_task(self._watch_invites())

    async def _watch_invites(self) -> None:
        """End the sessions in play of a player whose invitations were revoked."""
        while True:
            await asyncio.sleep(WATCH_INVITES)
            if self.gate.changed():
                for session in list(self.active):
                    if self.gate.invites.revoked_since(session.player, session.began):
                        session.end("your invitation was withdrawn")

    async def serve_forever(self) -> None:
        await self._closed.wait()

    async def close(self) -> None:
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
        await self.warm.close()
        self._closed.set()
