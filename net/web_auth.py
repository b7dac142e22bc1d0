"""Who a browser is, for the web front door: invite links and the sessions they open.

No passwords. `dominoes web-invite NAME` makes a link `BASE/join/TOKEN` (256 random bits); opening
it signs NAME in: the server gives the browser a session cookie (another 256 random bits) and the
browser is that player from then on. The server's data directory keeps, in `web/` (0700, files
0600), only the SHA-256 of each token and of each session, never the secrets themselves:

- `invites.json`, written by `web-invite` (under a lock, so two at once lose nothing): each
  invite's player and digest, and for each player revoked, when. `--revoke NAME` removes the
  player's invites and records the time: every session that player began before it is over, even
  one in play (the server looks at this file every second).
- `sessions.json`, written by the server alone: each session's digest, player and start, when it
  was last renewed, and whether it began with a name chosen on an open server's sign-up page
  (`Gatekeeper.sign_in`), not with an invite: such a session lasts only as long as its name in the
  room's book. A session lasts SESSION_LIFETIME from when it was last used: a browser that comes
  back at least that often stays signed in (a browser name's session is its only credential until
  it ties a key), renewed at most once every RENEW_EVERY, so the file is not written on every
  request. A player
  keeps at most MAX_PLAYER_SIGN_INS sign-ins (a new one ends that player's oldest, nobody else's),
  and one link signs in at most LINK_BURST browsers at once, then one a minute.
- `server.json`, written by the server: the address its links begin with, for `web-invite`.

Every file is read within a size bound and checked entry by entry; anything malformed is skipped,
so a damaged file lets fewer people in, never more.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import os
import re
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.seats import check_name
from net.file_lock import exclusive
from net.rate import TokenBucket
from saves.json_file import load_json_file, private_directory, write_json_file

WEB = "web"
INVITES = "invites.json"
SESSIONS = "sessions.json"
SERVER = "server.json"
TOKEN_BYTES = 32  # 256 bits, for invite tokens and session cookies alike
TOKEN_TEXT = re.compile(r"[A-Za-z0-9_-]{43}")  # secrets.token_urlsafe(TOKEN_BYTES)
MAX_INVITES = 1000
MAX_KEPT_SESSIONS = 2000  # beyond this, the oldest of the player who has the most go first
MAX_PLAYER_SIGN_INS = 10  # sign-ins kept for one player (browsers, devices): a new one ends their own oldest
LINK_BURST, LINK_RATE = 10, 1 / 60  # sign-ins through one link: ten at once, then one a minute
SIGN_IN_BURST, SIGN_IN_RATE = 30, 2.0  # sign-ins through every link together (each one is written down)
SESSION_LIFETIME = 30 * 24 * 3600.0  # seconds a browser stays signed in without coming back
RENEW_EVERY = 3600.0  # seconds between renewals of a session in use (each one writes the sessions file)
MAX_FILE = 1024 * 1024
MAX_BASE_URL = 200


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def check_base_url(url: str) -> str:
    """The start of invite links: http(s)://host[:port][/path], no trailing slash. ValueError."""
    url = url.strip().rstrip("/")
    if len(url) > MAX_BASE_URL or not re.fullmatch(r"https?://[A-Za-z0-9._~\-\[\]:%]+(/[A-Za-z0-9._~\-/%]*)?", url):
        raise ValueError(f"a base URL is http(s)://HOST[:PORT][/PATH], not {url[:60]!r}")
    return url


def web_dir(server_data: Path) -> Path:
    return server_data / WEB


def _read(path: Path) -> dict[str, Any]:
    try:
        data = load_json_file(path, MAX_FILE)
    except FileNotFoundError:
        return {}
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


@dataclass(frozen=True)
class Invites:
    """What `invites.json` says: the digest of each live invite with its player, and when each
    player (by name in any case) was last revoked."""

    players: dict[str, str]  # token digest -> player's name
    revoked: dict[str, float]  # casefolded name -> time

    @classmethod
    def parse(cls, data: dict[str, Any]) -> Invites:
        players: dict[str, str] = {}
        entries = data.get("invites")
        for entry in entries[:MAX_INVITES] if isinstance(entries, list) else []:
            if not isinstance(entry, dict):
                continue
            name, token_digest = entry.get("player"), entry.get("digest")
            if isinstance(name, str) and isinstance(token_digest, str) and re.fullmatch(r"[0-9a-f]{64}", token_digest):
                with contextlib.suppress(ValueError):
                    players[token_digest] = check_name(name)
        revoked: dict[str, float] = {}
        times = data.get("revoked")
        for name, when in list(times.items())[:MAX_INVITES] if isinstance(times, dict) else []:
            if isinstance(name, str) and type(when) in (int, float):
                revoked[name] = float(when)
        return cls(players, revoked)

    def revoked_since(self, player: str, began: float) -> bool:
        """Whether `player` was revoked after a session that began at `began`."""
        return self.revoked.get(player.casefold(), float("-inf")) >= began


def invited_names(server_data: Path) -> list[str]:
    """The names with a live invite link: the owner gave them, so an open room's sign-ups may not take
    them (their folders are theirs)."""
    return sorted(set(Invites.parse(_read(web_dir(server_data) / INVITES)).players.values()))


class InviteBook:
    """`invites.json` for the `web-invite` command: make and revoke links."""

    def __init__(self, server_data: Path) -> None:
        self.folder = web_dir(server_data)

    def invite(self, name: str, base_url: str) -> str:
        """A new link that signs `name` in. ValueError for a bad name (the rules of every door:
        `core.seats.check_name`) or too many invites; OSError if it cannot be kept."""
        name = check_name(name)
        token = new_token()
        private_directory(self.folder)
        with exclusive(self.folder / ".lock"):
            data = _read(self.folder / INVITES)
            invites = [entry for entry in data.get("invites", []) if isinstance(entry, dict)][:MAX_INVITES]
            if len(invites) >= MAX_INVITES:
                raise ValueError(f"there are {MAX_INVITES} invites already; revoke some first")
            invites.append({"player": name, "digest": digest(token), "made": time.time()})
            data["invites"] = invites
            write_json_file(self.folder / INVITES, data)
        return f"{base_url}/join/{token}"

    def revoke(self, name: str) -> int:
        """End `name`'s links and sessions (any case); how many links there were. OSError."""
        name = check_name(name)
        private_directory(self.folder)
        with exclusive(self.folder / ".lock"):
            data = _read(self.folder / INVITES)
            invites = [entry for entry in data.get("invites", []) if isinstance(entry, dict)][:MAX_INVITES]
            kept = [e for e in invites if not (isinstance(e.get("player"), str) and _same(e["player"], name))]
            revoked = data.get("revoked") if isinstance(data.get("revoked"), dict) else {}
            revoked[name.casefold()] = time.time()
            data["invites"], data["revoked"] = kept, dict(list(revoked.items())[-MAX_INVITES:])
            write_json_file(self.folder / INVITES, data)
        return len(invites) - len(kept)

    def base_url(self) -> str | None:
        """The address the running (or last) server said its links begin with."""
        url = _read(self.folder / SERVER).get("base_url")
        try:
            return check_base_url(url) if isinstance(url, str) else None
        except ValueError:
            return None


def _same(a: str, b: str) -> bool:
    return a.strip().casefold() == b.strip().casefold()


@dataclass(frozen=True)
class Session:
    player: str
    began: float
    signed_up: bool = False  # began by choosing its name on an open server, not with an invite
    renewed: float = 0.0  # when it was last used and its lifetime began again (0: never since it began)

    @property
    def lasts_from(self) -> float:
        return max(self.began, self.renewed)


class SignInsTooFast(Exception):
    """A link used too often in a short time: one line for the browser."""


class Gatekeeper:
    """The server's side: turns an invite token into a session, and a session cookie into its
    player, as long as neither has been revoked. Reads `invites.json` again when it changes (see
    `refresh`): every reader sees the same invites, and none uses up a change another needs."""

    def __init__(self, server_data: Path, clock: Any = time.time, ticks: Any = time.monotonic) -> None:
        self.folder = web_dir(server_data)
        self.clock = clock
        self.ticks = ticks  # for the rate of sign-ins (a clock that never goes back)
        self.invites = Invites({}, {})
        self._seen: tuple[int, int, int] | None = None
        self.sessions: dict[str, Session] = {}  # session digest -> session
        self._links: dict[str, TokenBucket] = {}  # invite digest -> its sign-ins' pace
        self._all_links = TokenBucket(SIGN_IN_RATE, SIGN_IN_BURST, ticks)

    def open(self, base_url: str) -> None:
        """Make the folder, read what is kept, and say where links begin. OSError."""
        private_directory(self.folder)
        write_json_file(self.folder / SERVER, {"base_url": base_url})
        self.refresh()
        data = _read(self.folder / SESSIONS).get("sessions")
        for entry in data[-MAX_KEPT_SESSIONS:] if isinstance(data, list) else []:
            if not isinstance(entry, dict):
                continue
            session_digest, player, began = entry.get("digest"), entry.get("player"), entry.get("began")
            if not (isinstance(session_digest, str) and isinstance(player, str) and type(began) in (int, float)):
                continue
            renewed = entry.get("renewed")
            renewed = min(float(renewed), self.clock()) if type(renewed) in (int, float) else 0.0  # never ahead
            with contextlib.suppress(ValueError):
                signed_up = entry.get("signed_up") is True
                self.sessions[session_digest] = Session(check_name(player), float(began), signed_up, renewed)

    def refresh(self) -> bool:
        """Read `invites.json` again if it changed since it was last read; whether it did. The
        invites read are `self.invites`, the same for every caller."""
        try:
            status = os.stat(self.folder / INVITES)
            seen = (status.st_ino, status.st_mtime_ns, status.st_size)
        except OSError:
            seen = None
        if seen == self._seen:
            return False
        self._seen = seen
        self.invites = Invites.parse(_read(self.folder / INVITES))
        return True

    def player_of(self, token: str) -> str | None:
        """The player a live invite token signs in; None for any other text."""
        if not TOKEN_TEXT.fullmatch(token):
            return None
        self.refresh()
        return self.invites.players.get(digest(token))

    def redeem(self, token: str, replacing: str | None = None) -> tuple[str, str] | None:
        """(session cookie, player) for a live invite token; None for any other text. The session
        of the cookie `replacing` (the browser's sign-in so far) ends. SignInsTooFast if the link,
        or every link together, has signed in too many browsers just now."""
        player = self.player_of(token)
        if player is None:
            return None
        link = self._links.setdefault(digest(token), TokenBucket(LINK_RATE, LINK_BURST, self.ticks))
        if len(self._links) > MAX_INVITES:  # links revoked since: their pace is forgotten
            self._links = {key: pace for key, pace in self._links.items() if key in self.invites.players}
        if link.wait() > 0:
            raise SignInsTooFast(f"this link was used too often just now; try again in {max(1, round(link.wait()))} s")
        if not self._all_links.take():
            wait = max(1, round(self._all_links.wait()))
            raise SignInsTooFast(f"too many players are signing in just now; try again in {wait} s")
        link.take()
        return self.sign_in(player, replacing), player

    def sign_in(self, player: str, replacing: str | None = None, signed_up: bool = False) -> str:
        """A new session cookie for `player`, whom the caller has verified (an invite redeemed, or,
        `signed_up`, a name just chosen on an open server). The session of the cookie `replacing`
        (the browser's sign-in so far) ends."""
        if replacing and TOKEN_TEXT.fullmatch(replacing):
            self.sessions.pop(digest(replacing), None)
        cookie = new_token()
        self.sessions[digest(cookie)] = Session(player, self.clock(), signed_up)
        self._drop_old(player)
        self._save()
        return cookie

    def session(self, cookie: str | None) -> Session | None:
        """The session a cookie signs in, or None (no cookie, forged, expired or revoked)."""
        if not cookie or not TOKEN_TEXT.fullmatch(cookie):
            return None
        session = self.sessions.get(digest(cookie))
        if session is None or self.clock() - session.lasts_from > SESSION_LIFETIME:
            return None
        if self.invites.revoked_since(session.player, session.began):
            return None
        return session

    def renew(self, cookie: str | None) -> bool:
        """Begin a live session's lifetime again now that it is used, if it was last renewed (or began)
        RENEW_EVERY ago or more; whether it was (the door then gives the browser its cookie again, for
        as long). It never lasts more than SESSION_LIFETIME from its last use."""
        session = self.session(cookie)
        now = self.clock()
        if session is None or cookie is None or now - session.lasts_from < RENEW_EVERY:
            return False
        self.sessions[digest(cookie)] = dataclasses.replace(session, renewed=now)
        self._save()
        return True

    def signed_in_as(self, cookie: str | None) -> Session | None:
        """The sign-in a cookie was given, live or not (to say why it no longer signs in)."""
        if not cookie or not TOKEN_TEXT.fullmatch(cookie):
            return None
        return self.sessions.get(digest(cookie))

    def _drop_old(self, player: str) -> None:
        """Forget expired and revoked sign-ins; then `player`'s oldest beyond their cap; then, while
        there are too many in all, the oldest of whoever has the most."""
        now = self.clock()
        live = {
            key: session
            for key, session in self.sessions.items()
            if now - session.lasts_from <= SESSION_LIFETIME
            and not self.invites.revoked_since(session.player, session.began)
        }
        theirs = [key for key, session in live.items() if _same(session.player, player)]
        for key in theirs[: max(0, len(theirs) - MAX_PLAYER_SIGN_INS)]:
            del live[key]
        while len(live) > MAX_KEPT_SESSIONS:
            counts: dict[str, int] = {}
            for session in live.values():
                counts[session.player.casefold()] = counts.get(session.player.casefold(), 0) + 1
            most = max(counts, key=lambda name: counts[name])
            del live[next(key for key, session in live.items() if session.player.casefold() == most)]
        self.sessions = live

    def _save(self) -> None:
        entries = [
            {
                "digest": key,
                "player": s.player,
                "began": s.began,
                **({"signed_up": True} if s.signed_up else {}),
                **({"renewed": s.renewed} if s.renewed else {}),
            }
            for key, s in self.sessions.items()
        ]
        with contextlib.suppress(OSError):  # a session not kept on disk only ends with the server
            write_json_file(self.folder / SESSIONS, {"sessions": entries})
