"""`serve-web --open`: a browser with no session chooses a name, kept in the room's book beside the
SSH door's, and goes on to the lobby as it; its owner gets a one-time link code on the key page,
which ties the key that types it over `serve-ssh --open` to that name; a ban ends its sessions
within a second and refuses its cookie from then on, across restarts; bad input, a flood and
another site's form each get one line and change nothing."""

from __future__ import annotations

import asyncio
import html
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp
import asyncssh
import pytest
from yarl import URL

from cli.main import main
from net.accounts import ACCOUNTS, RoomBook, SignUpLimits
from net.link_codes import MAX_PER_NAME
from net.ssh_server import SSHFrontDoor
from net.web_auth import Session
from net.web_forms import new_check
from net.web_room import RoomView
from net.web_server import COOKIE, WebFrontDoor
from net.web_sign_up import CODES_BURST, ssh_command
from tests.net.ssh_client import TIMEOUT, connect, open_terminal, with_launcher
from tests.net.test_web_server import run, until
from tests.net.web_client import browser, open_screen, running_web_door, signed_in

SAME_SITE = {"Sec-Fetch-Site": "same-origin"}


@asynccontextmanager
async def open_web_door(
    home: Path, notes: list[str] | None = None, ssh_address: str = "", **limits: object
) -> AsyncIterator[WebFrontDoor]:
    room = RoomBook(home, limits=SignUpLimits(**limits))  # type: ignore[arg-type]
    on_note = notes.append if notes is not None else None
    async with running_web_door(home, room=room, on_note=on_note, ssh_address=ssh_address) as door:
        yield door


def cookie(session: aiohttp.ClientSession, door: WebFrontDoor) -> str | None:
    found = session.cookie_jar.filter_cookies(URL(f"http://127.0.0.1:{door.port}/")).get(COOKIE)
    return found.value if found is not None else None


def refused_lines(page: str) -> list[str]:
    """The lines that say what was refused, as the browser shows them."""
    return [html.unescape(line) for line in re.findall(r'<p class="refused" role="alert">([^<]*)</p>', page)]


async def the_form(session: aiohttp.ClientSession, path: str = "/") -> str:
    """The page's form, as a browser is given it; its check."""
    async with session.get(path) as response:
        page = await response.text()
        assert response.status == 200, page
        assert "form-action 'self'" in response.headers["Content-Security-Policy"]
    (check,) = re.findall(r'name="check" value="([^"]+)"', page)
    return check


async def post(
    session: aiohttp.ClientSession, door: WebFrontDoor, path: str, fields: dict[str, str], **headers: str
) -> tuple[int, str]:
    """A form's POST as this site's page sends it (its Origin; `headers` may say otherwise)."""
    sent = {"Origin": f"http://127.0.0.1:{door.port}", **SAME_SITE, **headers}
    async with session.post(path, data=fields, headers=sent, allow_redirects=False) as response:
        return response.status, await response.text()


async def sign_up(session: aiohttp.ClientSession, door: WebFrontDoor, name: str) -> tuple[int, str]:
    return await post(session, door, "/sign-up", {"check": await the_form(session), "name": name})


def test_a_browser_chooses_a_name_and_goes_on_to_the_lobby_as_it_and_nobody_takes_it_again(home):
    async def go() -> None:
        async with open_web_door(home) as door:
            async with browser(door) as zoe:
                async with zoe.get("/") as response:
                    page = await response.text()
                    assert response.status == 200 and "Choose a name" in page and 'name="name"' in page
                for path in ("/static/page/page.js", "/key", "/ws"):  # nothing else without a session
                    async with zoe.get(path) as response:
                        assert response.status == 401, path
                status, page = await sign_up(zoe, door, "  Zoé ")
                assert status == 303, page
                async with zoe.get("/") as response:
                    assert "<title>Dominoes · Zoé</title>" in await response.text()
                screen = await open_screen(zoe)
                await screen.wait_for("signed in as Zoé")
                chosen = cookie(zoe, door)
            (account,) = RoomBook(home).read().accounts
            assert (account.name, account.keys, account.browser) == ("Zoé", [], True)
            async with browser(door) as other:
                for name in ("ZOÉ", "\uff3a\uff4f\uff45\u0301"):  # another case, full-width: the same name
                    status, page = await sign_up(other, door, name)
                    assert status == 400 and refused_lines(page) == [f"{name} is taken; choose another."]
                    assert cookie(other, door) is None
            assert len(RoomBook(home).read().accounts) == 1
        async with open_web_door(home) as door, browser(door) as again:  # a restarted server
            again.cookie_jar.update_cookies({COOKIE: chosen})
            async with again.get("/") as response:
                assert "<title>Dominoes · Zoé</title>" in await response.text()

    run(go())


def test_bad_input_and_another_sites_form_get_one_line_each_and_change_nothing(home):
    notes: list[str] = []

    async def go() -> None:
        async with open_web_door(home, notes) as door, browser(door) as session:
            assert (await sign_up(session, door, "<b>x</b>"))[0] == 303  # printable: a name, shown as text
            async with session.get("/") as response:
                assert "<title>Dominoes · &lt;b&gt;x&lt;/b&gt;</title>" in await response.text()
            session.cookie_jar.clear(lambda c: c.key == COOKIE)
            book = (home / ACCOUNTS).read_bytes()
            sessions = dict(door.gate.sessions)
            for name, words in (
                ("\x1b[31mred", "A name holds only printable characters (no control characters)."),
                ("a" * 10_000, "A name has at most 20 characters, not 10000."),
                ("\u200fevil", "A name holds only printable characters (no control characters)."),
                ("<B>X</B>", "<B>X</B> is taken; choose another."),
                ("admin", "admin could be taken for the server or a seat; choose another."),
            ):
                status, page = await sign_up(session, door, name)
                assert status == 400 and refused_lines(page) == [words], name
                assert "<B>" not in page and "\x1b" not in page and "\u200f" not in page
            check = await the_form(session)
            forged = (
                {"Origin": "http://attacker.example", "Sec-Fetch-Site": "cross-site"},
                {"Origin": "null"},
                {"Origin": f"http://127.0.0.1:{door.port + 1}"},
            )
            for headers in forged:
                status, page = await post(session, door, "/sign-up", {"check": check, "name": "Eve"}, **headers)
                assert status == 403 and "This sign-up was not started here" in page, headers
            status, page = await post(session, door, "/sign-up", {"check": "made-up", "name": "Eve"})
            assert status == 403 and "not started here" in page
            status, page = await post(session, door, "/sign-up", {"check": check, "name": "x" * 100_000})
            assert status == 413 and refused_lines(page)[0].startswith("That is far longer than a name: 1 to 20")
            assert (home / ACCOUNTS).read_bytes() == book
            assert door.gate.sessions == sessions and cookie(session, door) is None
            for said in ("refused a new name (not sent from this site's page)", "(a name not allowed, or taken)"):
                await until(lambda said=said: any(said in line for line in notes), f"the notes say {said!r}")
        assert all("Eve" not in line and "\x1b" not in line for line in notes)  # what strangers typed stays out

    run(go())


def test_a_sign_up_flood_from_one_address_gets_one_line_at_the_fourth(home):
    notes: list[str] = []

    async def go() -> None:
        async with open_web_door(home, notes) as door:
            for number in range(3):
                async with browser(door) as session:
                    assert (await sign_up(session, door, f"flood {number}"))[0] == 303
            async with browser(door) as session:
                status, page = await sign_up(session, door, "flood 3")
                assert status == 429 and cookie(session, door) is None
                assert "At most 3 new names an hour may come from one address; try again later." in page
                assert 'name="name"' not in page  # no form to try again with: it is the hour, not the name
            assert len(RoomBook(home).read().accounts) == 3
            expected = "refused a new name (at most 3 new names an hour may come from one address)"
            await until(lambda: any(expected in line for line in notes), "the note")

    run(go())


async def link_code(session: aiohttp.ClientSession) -> tuple[str, str]:
    """The key page's code, and the page as the browser reads it."""
    async with session.get("/key") as response:
        page = await response.text()
        assert response.status == 200 and response.headers["Cache-Control"] == "no-store", page
    (code,) = re.findall(r'<p class="code">(link-[a-z0-9-]+)</p>', page)
    return code, html.unescape(page)


def test_the_owner_of_a_browser_name_gets_a_link_code_that_ties_the_key_which_types_it_over_ssh(home, keys):
    fingerprint = asyncssh.read_private_key(keys.stranger).get_fingerprint("sha256")
    public = asyncssh.read_private_key(keys.stranger).export_public_key().decode()

    async def go() -> None:
        async with open_web_door(home, ssh_address="games.example:2222") as door, browser(door) as zoe:
            assert (await sign_up(zoe, door, "Zoé"))[0] == 303
            code, page = await link_code(zoe)
            assert "(ssh -p 2222 games.example), and on its welcome screen type this code instead of a name" in page
            assert "It works once, for 10 minutes" in page
            assert code not in (home / ACCOUNTS).read_text()  # only its digest is kept
            check = new_check()
            fields = {"check": check, "key": public}
            status, _ = await post(zoe, door, "/key", fields)
            assert status == 405  # a public key pasted proves nothing: nothing takes one any more
            assert RoomBook(home).name_of_key(fingerprint) is None
            async with browser(door) as ann:
                await signed_in(ann, door, "Ann")  # an invited name: its keys are the owner's to give
                async with ann.get("/key") as response:
                    words = "Only a name chosen on this site takes a key here"
                    assert response.status == 403 and words in await response.text()
            async with browser(door) as nobody, nobody.get("/key") as response:
                assert response.status == 401

        room = RoomBook(home)
        ssh = SSHFrontDoor(keys.authorized, home / "ssh_host_ed25519_key", room=room, **with_launcher({}))
        await ssh.start("127.0.0.1", 0)
        try:
            async with await connect(ssh, keys.stranger, username="whoever") as connection:
                channel, screen = await open_terminal(connection)
                await screen.wait_for("Choose the name you will play under")
                channel.write(code.encode() + b"\r")
                await screen.wait_for("signed in as Zoé")
            assert RoomBook(home).name_of_key(fingerprint) == "Zoé"
            async with await connect(ssh, keys.stranger, username="whoever") as connection:
                _, screen = await open_terminal(connection)
                await screen.wait_for("signed in as Zoé")  # straight in, no sign-up
                assert "Choose the name" not in screen.text()
        finally:
            await ssh.close()

    run(go())


def test_a_browser_gets_a_few_link_codes_at_once_then_one_line(home):
    notes: list[str] = []

    async def go() -> None:
        async with open_web_door(home, notes) as door, browser(door) as zoe:
            assert (await sign_up(zoe, door, "Zoé"))[0] == 303
            codes = set()
            for _ in range(CODES_BURST):
                code, page = await link_code(zoe)
                codes.add(code)
            assert "Log in to this server's SSH door with the key you want to tie" in page  # no address given
            assert len(codes) == CODES_BURST
            async with zoe.get("/key") as response:
                page = html.unescape(await response.text())
                assert response.status == 429 and "You asked for several link codes just now" in page
                assert "link-" not in page
            assert len(RoomBook(home).read().links) == MAX_PER_NAME  # the newest, for the name
            await until(lambda: any("refused a link code" in line for line in notes), "the note")

    run(go())


def test_a_ban_ends_a_chosen_names_session_within_a_second_and_its_cookie_is_refused_across_restarts(home, capsys):
    async def go() -> None:
        async with open_web_door(home) as door, browser(door) as mallet:
            assert (await sign_up(mallet, door, "Mallet"))[0] == 303
            screen = await open_screen(mallet)
            await screen.wait_for("signed in as Mallet")
            banned_at = time.monotonic()
            assert await asyncio.to_thread(main, ["admin", "--data", str(home), "ban", "MALLET"]) == 0
            await screen.wait_closed()
            assert time.monotonic() - banned_at < 1.5  # within a second, and the time to say it
            assert "the keeper of this server has banned you" in screen.text()
            async with mallet.get("/") as response:
                assert response.status == 403 and "The keeper of this server has banned you." in await response.text()
            kept = cookie(mallet, door)
            async with browser(door) as other:
                status, page = await sign_up(other, door, "mallet")
                assert status == 400 and refused_lines(page) == ["mallet is taken; choose another."]
        async with open_web_door(home) as door, browser(door) as again:  # a restarted server
            again.cookie_jar.update_cookies({COOKIE: kept})
            async with again.get("/") as response:
                assert response.status == 403 and "banned you" in await response.text()

    run(go())
    assert "banned Mallet" in capsys.readouterr().out


def test_a_ban_in_the_book_alone_ends_an_invited_players_session_on_a_server_that_is_not_open(home):
    async def go() -> None:
        async with running_web_door(home) as door, browser(door) as ann:
            await signed_in(ann, door, "Ann")
            screen = await open_screen(ann)
            await screen.wait_for("signed in as Ann")
            RoomBook(home).ban("ann")  # no invitation revoked: the door reads the ban itself
            await screen.wait_closed()
            assert "the keeper of this server has banned you" in screen.text()
            async with ann.get("/") as response:
                assert response.status == 403
            async with ann.get("/sign-up") as response:
                assert response.status == 403  # no sign-up page on a server that is not open

    run(go())


def test_a_browser_whose_chosen_name_is_let_go_is_signed_out_and_offered_the_form_again(home):
    async def go() -> None:
        async with open_web_door(home) as door, browser(door) as zoe:
            assert (await sign_up(zoe, door, "zoé"))[0] == 303
            screen = await open_screen(zoe)
            await screen.wait_for("signed in as zoé")

            def let_go(found) -> str:
                found.accounts.clear()
                return ""

            RoomBook(home).change(let_go)
            await screen.wait_closed()
            assert "the name zoé is no longer yours" in screen.text()
            async with zoe.get("/") as response:
                page = await response.text()
                assert response.status == 200 and 'name="name"' in page
                assert refused_lines(page) == [
                    "The name zoé is no longer yours (a name that finishes no match in 30 days is let go)."
                ]

    run(go())


def test_a_chosen_names_session_lasts_only_as_long_as_the_book_keeps_that_name_as_chosen(home):
    now = [1_800_000_000.0]
    book = RoomBook(home, clock=lambda: now[0])
    book.sign_up_browser("Zoé", "10.0.0.1")
    view = RoomView(book)
    chosen = Session("Zoé", now[0] + 1, signed_up=True)
    invited = Session("Zoé", now[0] - 100)  # an invitation's: not tied to the book's entry
    assert view.refusal(chosen) is None and view.refusal(invited) is None

    def let_go(found) -> str:
        found.accounts.clear()
        return ""

    book.change(let_go)
    assert "the name Zoé is no longer yours" in (view.refusal(chosen) or "")
    now[0] += 60
    book.sign_up_browser("zoé", "10.0.0.2")  # someone else's now, chosen after the session began
    assert "no longer yours" in (view.refusal(chosen) or "")
    assert view.refusal(invited) is None
    (home / ACCOUNTS).write_text("{damaged")  # a book that cannot be read changes nobody's standing
    assert "no longer yours" in (view.refusal(chosen) or "")


def test_serve_web_open_says_so_at_start_in_lines_that_fit_80_columns(home):
    process = subprocess.Popen(
        [sys.executable, "-m", "cli", "serve-web", "--port", "0", "--open", "--sign-ups-per-address", "5"],
        env={**os.environ, "DOMINOES_HOME": str(home)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline() for _ in range(6)]
        assert lines[3] == "dominoes serve-web: open: any browser may choose a name and come in\n"
        assert lines[4] == "  (new names: 5 an hour from one address, 60 from all,\n"
        assert all(len(line) <= 81 for line in lines), lines
        process.send_signal(signal.SIGTERM)
        assert process.wait(TIMEOUT) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_the_ssh_address_the_key_page_gives_is_a_host_and_port_or_one_line(home, capsys):
    assert ssh_command("games.example") == "ssh games.example"
    assert ssh_command("games.example:2222") == "ssh -p 2222 games.example"
    assert ssh_command("[2001:db8::1]:2222") == "ssh -p 2222 2001:db8::1"
    for bad in ("-oProxyCommand=sh", "host name", "games.example:0", "games.example:99999", "<b>x</b>", ""):
        with pytest.raises(ValueError, match="an SSH address is HOST or HOST:PORT"):
            ssh_command(bad)
        assert main(["serve-web", "--open", f"--ssh-address={bad}"]) == 2
        (line,) = capsys.readouterr().err.strip().splitlines()
        assert line.startswith("dominoes serve-web: --ssh-address: an SSH address is HOST or HOST:PORT")
    assert main(["serve-web", "--ssh-address", "games.example"]) == 2
    assert "--ssh-address is for --open" in capsys.readouterr().err


def test_a_key_page_whose_book_cannot_be_read_says_so_in_one_line_and_makes_no_code(home):
    async def go() -> None:
        async with open_web_door(home) as door, browser(door) as zoe:
            assert (await sign_up(zoe, door, "Zoé"))[0] == 303
            async with zoe.get("/") as response:
                assert response.status == 200  # the door has read the book as it was
            (home / ACCOUNTS).write_text("{damaged")  # a book that cannot be read changes nobody's standing
            async with zoe.get("/key") as response:
                page = html.unescape(await response.text())
                assert response.status == 503 and "The server cannot keep link codes just now" in page
                assert "link-" not in page

    run(go())
