"""An open web door's own pages (`serve-web --open`): a browser with no session chooses a name, and
the owner of a name chosen so may tie an SSH key to it.

- `/` without a session, and `/sign-up`, offer "Choose a name": a form whose POST only this site's
  page can send (`net.web_forms`, as for an invite's confirmation). The name is checked as every
  door checks names and kept in the room's book as a browser name (`RoomBook.sign_up_browser`: the
  book, the reserved names and the limits of `serve-ssh --open`, counted by the address the door
  counts strangers by); the browser is then signed in as it, as an invite signs in, and goes on to
  the lobby.
- `/key`, for a session that began by choosing its name here: a one-time link code
  (`net.link_codes`, `RoomBook.new_link_code`) and what to do with it: log in over `serve-ssh
  --open` on the same data folder with the key to tie, and type the code on the welcome screen
  instead of a name. A key proves itself by its login and the name by its session: a public key
  pasted here would have proven nothing, since anyone may have anyone's public key. A browser may
  ask for a few codes at once, then one a minute.

Whatever is refused is one line on a page (the form again where trying again helps) and one count in
the door's notes; what a browser sent is shown again only if it is a valid name, and escaped.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from aiohttp import web

from core.seats import MAX_NAME, check_name
from net.accounts import AccountError, SignUpRefused, canonical
from net.link_codes import LIFETIME
from net.rate import TokenBucket
from net.web_forms import from_this_page, give_check, new_check, read_form
from net.web_server import COOKIE, SESSION, peer_host, sentence, to_the_lobby
from saves.os_errors import os_error_text

SIGN_UP_COOKIE = "dominoes_sign_up"  # the check of the sign-up form (`net.web_forms`)
SIGN_UP = ("/sign-up", SIGN_UP_COOKIE)  # a form's path, and its check's cookie
KEY = "/key"
CODES_BURST, CODES_RATE = 5, 1 / 60  # link codes one name may ask for at once, then one a minute
MAX_PACED = 1000  # names whose pace of codes is remembered
SSH_ADDRESS = re.compile(
    r"(?P<host>[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::(?P<port>\d{1,5}))?"
)
WELCOME = (
    "Welcome. Choose the name you will play under: it stays yours, and this browser stays signed in as "
    "it while it comes back within 30 days. To come in from a terminal as well, tie an SSH key to it at /key."
)
NAME_RULES = f"1 to {MAX_NAME} letters, digits, spaces or signs (the same whatever their case)"
NOT_FROM_HERE = "It was not sent from this site's own page: open this site's address yourself and use its form."


def ssh_command(address: str) -> str:
    """The command that logs in at the SSH door `address` (`HOST`, `HOST:PORT` or `[IPV6]:PORT`), as
    the key page shows it; ValueError (one line) for anything else."""
    found = SSH_ADDRESS.fullmatch(address.strip())
    port = int(found["port"]) if found is not None and found["port"] else 22
    if found is None or not 1 <= port <= 65535:
        raise ValueError(f"an SSH address is HOST or HOST:PORT, not {address[:60]!r}")
    host = found["host"].strip("[]")
    return f"ssh {host}" if port == 22 else f"ssh -p {port} {host}"


def shown_again(name: str) -> str:
    """A refused name, to edit in the form: only one that is a valid name (else nothing)."""
    try:
        return check_name(name)
    except ValueError:
        return ""


def limit_words(refused: SignUpRefused) -> str:
    """What the door's notes say of a refused sign-up: never the name a stranger typed."""
    return str(refused).split(";")[0] if refused.limit else "a name not allowed, or taken"


class OpenRoomPages:
    """The pages, on the door (`net.web_server.WebFrontDoor`): its room, sign-ins, notes, pages."""

    def __init__(self, door: Any) -> None:
        self.door = door
        self._codes_paced: dict[str, TokenBucket] = {}  # canonical name -> the pace of its codes

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get(SIGN_UP[0], self._sign_up_form)
        app.router.add_post(SIGN_UP[0], self._sign_up)
        app.router.add_get(KEY, self._key_page)

    # -- choosing a name ---------------------------------------------------------------------------
    def sign_up_page(self, request: web.Request, status: int = 200, line: str = "", name: str = "") -> web.Response:
        # A browser's maxlength counts UTF-16 units: room for MAX_NAME characters of any kind.
        field = {"name": "name", "label": f"Your name ({NAME_RULES})", "value": name, "size": 2 * MAX_NAME}
        return self._form_page(request, status, ("Choose a name", WELCOME, line), SIGN_UP, "Take this name", field)

    async def _sign_up_form(self, request: web.Request) -> web.StreamResponse:
        if request[SESSION] is not None:
            return to_the_lobby()
        return self.sign_up_page(request)

    async def _sign_up(self, request: web.Request) -> web.Response:
        form = await read_form(request)
        if form is None:
            self.door.notes.note("refused a new name (a form too large)")
            return self.sign_up_page(request, 413, f"That is far longer than a name: {NAME_RULES}.")
        if not from_this_page(request, form, SIGN_UP_COOKIE, self.door.base_url):
            self.door.notes.note("refused a new name (not sent from this site's page)")
            return self.door.notice(403, "This sign-up was not started here", NOT_FROM_HERE)
        name = form.get("name")
        name = name if isinstance(name, str) else ""
        address = peer_host(request.transport)
        try:
            taken = await asyncio.to_thread(self.door.room.book.sign_up_browser, name, address)
        except SignUpRefused as refused:
            self.door.notes.note(f"refused a new name ({limit_words(refused)})")
            if refused.limit:
                return self.door.notice(429, "Not just now", sentence(str(refused)))
            return self.sign_up_page(request, 400, sentence(str(refused), name.strip()), shown_again(name))
        except OSError as error:
            reason = f"the server cannot keep names just now ({os_error_text(error)}); tell its keeper"
            return self.door.notice(503, "Not just now", sentence(reason))
        cookie = self.door.gate.sign_in(taken, replacing=request.cookies.get(COOKIE), signed_up=True)
        response = self.door.to_the_lobby_as(request, cookie)
        response.del_cookie(SIGN_UP_COOKIE, path=SIGN_UP[0])
        return response

    # -- tying a key -------------------------------------------------------------------------------
    def _not_for_keys(self, request: web.Request) -> web.Response | None:
        """The page for a session that cannot tie keys here: only a name chosen on this site can."""
        session = request[SESSION]
        if session.signed_up:
            return None
        advice = f"Only a name chosen on this site takes a key here; {session.player}'s keys are the keeper's to give."
        return self.door.notice(403, "No keys here", advice, back="Back to the lobby")

    def _too_fast(self, player: str) -> bool:
        """Whether this name has asked for codes faster than it may."""
        form = canonical(player)
        pace = self._codes_paced.pop(form, None) or TokenBucket(CODES_RATE, CODES_BURST)
        self._codes_paced[form] = pace  # the most recent last: the first are dropped beyond MAX_PACED
        while len(self._codes_paced) > MAX_PACED:
            del self._codes_paced[next(iter(self._codes_paced))]
        return not pace.take()

    async def _key_page(self, request: web.Request) -> web.Response:
        """A new link code for the session's own name, and what to do with it."""
        refused = self._not_for_keys(request)
        if refused is not None:
            return refused
        player = request[SESSION].player
        if self._too_fast(player):
            self.door.notes.note("refused a link code (asked for too many just now)")
            advice = "You asked for several link codes just now: use the last one, or ask again in a minute."
            return self.door.notice(429, "Not just now", advice, back="Back to the lobby")
        try:
            code = await asyncio.to_thread(self.door.room.book.new_link_code, player)
        except AccountError as error:
            return self.door.notice(403, "No key can be tied now", sentence(str(error)), back="Back to the lobby")
        except (OSError, ValueError) as error:
            why = os_error_text(error) if isinstance(error, OSError) else str(error)
            reason = f"the server cannot keep link codes just now ({why}); tell its keeper"
            return self.door.notice(503, "Not just now", sentence(reason), back="Back to the lobby")
        if self.door.ssh_address:
            where = f"Log in over SSH with the key you want to tie ({ssh_command(self.door.ssh_address)}),"
        else:
            where = "Log in to this server's SSH door with the key you want to tie (its keeper has its address),"
        advice = f"To come in as {player} from a terminal too: {where} and on its welcome screen type this code"
        advice += " instead of a name:"
        minutes = round(LIFETIME / 60)
        after = (
            f"It works once, for {minutes} minutes; from then on that key brings you in as {player}. "
            f"Keep it to yourself: whoever types it first ties their key to {player}. Opening this page again "
            "gives a new code."
        )
        return self.door.notice(
            200, f"Tie an SSH key to {player}", advice, code=code, after=after, back="Back to the lobby"
        )

    # -- both --------------------------------------------------------------------------------------
    def _form_page(
        self,
        request: web.Request,
        status: int,
        words: tuple[str, str, str],
        page: tuple[str, str],
        button: str,
        field: dict[str, Any],
    ) -> web.Response:
        """A form (`words`: its title, advice and the line that says what was refused) with one field,
        posted to its `page` (path, and the cookie of its check: one only this page has)."""
        title, advice, line = words
        action, cookie = page
        check = new_check()
        form = {"action": action, "check": check, "button": button, "stay": "", "field": field}
        response = self.door.notice(status, title, advice, form=form, line=line)
        give_check(response, request, cookie, action, check)
        return response
