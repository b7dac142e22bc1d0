"""`dominoes serve-web` over HTTP and textual-serve's socket protocol: aiohttp clients on loopback
against the real server, whose sessions run the real lobby in a pseudo-terminal of their own."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import re
import stat
import struct

import aiohttp
import pytest
from yarl import URL

from net import web_window
from net.limits import ServerLimits
from net.web_auth import InviteBook
from net.web_server import COOKIE, PAGE, STATIC_CACHE, TERMINAL, TERMINAL_PARTS, TEXTUAL_STATIC
from tests.net.ssh_client import TIMEOUT
from tests.net.test_ssh_server import window_size
from tests.net.web_client import TYPED, browser, invite, open_screen, running_web_door, signed_in


def run(coroutine: object) -> None:
    asyncio.run(asyncio.wait_for(coroutine, 120))  # type: ignore[arg-type]


def my_children() -> set[int]:
    found: set[int] = set()
    for task in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{task}/children") as handle:
            found |= {int(word) for word in handle.read().split()}
    return found


async def until(condition: object, what: str) -> None:
    for _ in range(int(TIMEOUT / 0.05)):
        if condition():  # type: ignore[operator]
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never: {what}")


def test_without_a_session_every_page_asset_and_the_socket_answer_401_and_start_nothing(home):
    async def go() -> None:
        async with running_web_door(home) as door, browser(door) as session:
            before = my_children()
            assets = ("/static/terminal/terminal.js", "/static/terminal/xterm.css", "/static/page/page.js")
            for path in ("/", *assets, "/anything", "/ws"):
                async with session.get(path) as response:
                    assert response.status == 401, path
                    assert "by invitation" in await response.text()
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await session.ws_connect("/ws")
            assert refused.value.status == 401
            session.cookie_jar.update_cookies({COOKIE: "A" * 43})  # a cookie of the right shape, made up
            async with session.get("/") as response:
                assert response.status == 401
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await session.ws_connect("/ws")
            assert not door.active
            assert my_children() == before  # no lobby was started for anyone
            async with session.get("/favicon.svg") as response:
                assert response.status == 200  # the icon of the refusal page itself

    run(go())


def test_a_forged_mistyped_or_revoked_link_is_refused_and_signs_nobody_in(home):
    async def go() -> None:
        async with running_web_door(home) as door, browser(door) as session:
            link = invite(door, "Ann")
            forged = link[: -len("xyz")] + ("abc" if not link.endswith("abc") else "abd")
            for path in (forged, "/join/short", "/join/" + "A" * 43, "/join/" + "%00" * 20):
                async with session.get(path) as response:
                    assert response.status == 403, path
                    assert "does not work" in await response.text()
            assert not session.cookie_jar.filter_cookies(URL(f"http://127.0.0.1:{door.port}/"))

            await signed_in(session, door, "Ann")  # the good link works...
            async with session.get("/") as response:
                assert response.status == 200
            assert InviteBook(door.data).revoke("ann") == 2  # ...until revoked (any case), with every session
            async with session.get("/") as response:
                assert response.status == 401
            async with session.get(link) as response:
                assert response.status == 403

            await signed_in(session, door, "Ann")  # a new invitation after the revocation works
            async with session.get("/") as response:
                assert response.status == 200

    run(go())


def test_an_invite_link_sets_a_strict_http_only_cookie_and_goes_on_to_the_lobby_page(home):
    async def go() -> None:
        async with running_web_door(home) as door, browser(door) as session:
            link = invite(door, "Ann")
            token = link.rsplit("/", 1)[1]
            assert len(token) == 43  # 256 bits, URL-safe base64
            async with session.get(link, headers=TYPED, allow_redirects=False) as response:
                assert response.status == 303 and response.headers["Location"] == "/"  # on to the lobby at once
                # asking for the window's size with it (net.web_window)
                assert response.headers["Accept-CH"] == "Sec-CH-Viewport-Width, Sec-CH-Viewport-Height, Sec-CH-DPR"
                cookie = response.headers["Set-Cookie"]
                assert response.headers["Referrer-Policy"] == "no-referrer"
            assert cookie.startswith(f"{COOKIE}=")
            assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
            assert "Secure" not in cookie  # plain http on loopback: a Secure cookie would never come back

            async with session.get("/") as response:
                page = await response.text()
                assert response.status == 200
                assert "default-src 'self'" in response.headers["Content-Security-Policy"]
            assert "<title>Dominoes · Ann</title>" in page
            assert 'rel="icon"' in page and "Connecting…" in page
            for own in ("/static/page/page.js", "/static/page/page.css", "/static/terminal/xterm.css"):
                async with session.get(own) as response:
                    assert response.status == 200, own
                    assert response.headers["Cache-Control"] == STATIC_CACHE, own
                    if own.startswith("/static/page/"):
                        page += await response.text()
            script = "/static/terminal/terminal.js"
            async with session.get(script) as response:
                assert response.status == 200
                assert response.headers["Cache-Control"] == STATIC_CACHE
                assert response.content_type == "application/javascript"
                text = await response.text()
            # The terminal's scripts as published, one after the other, without the lines naming
            # source maps that are not served.
            at = 0
            for part in TERMINAL_PARTS:
                code = (TERMINAL / part).read_text(encoding="utf-8").split("\n//# sourceMappingURL=")[0]
                assert len(code) > 1000 and text.index(code, at) >= at, part
                at = text.index(code, at) + len(code)
            assert "sourceMappingURL" not in text
            async with session.get(script, headers={"If-None-Match": response.headers["ETag"]}) as again:
                assert again.status == 304 and not await again.read()  # kept by the browser: not sent again
                assert again.headers["Cache-Control"] == STATIC_CACHE
            assert not re.search(r"(https?:)?//[a-z]", page.replace("location.host", "")), "nothing from elsewhere"

            # Behind a proxy that says the browser came over https, the cookie is Secure.
            behind_proxy = {"X-Forwarded-Proto": "https", **TYPED}
            async with session.get(invite(door, "Ben"), headers=behind_proxy, allow_redirects=False) as response:
                assert "Secure" in response.headers["Set-Cookie"]

            # Only hashes are kept, in files only the server's account can read.
            web = door.data / "web"
            assert stat.S_IMODE(web.stat().st_mode) == 0o700
            for path in web.iterdir():
                if path.is_file():
                    assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
                    kept = path.read_text()
                    assert token not in kept
                    assert cookie.split(";")[0].split("=", 1)[1] not in kept

    run(go())


def test_a_signed_in_browser_gets_its_own_lobby_in_a_pty_that_follows_the_window_within_bounds(home):
    async def go() -> None:
        async with running_web_door(home) as door, browser(door) as session:
            await signed_in(session, door, "Ann")
            screen = await open_screen(session, (80, 24))
            await screen.wait_for("Dominoes lobby")
            assert "signed in as Ann" in screen.text()
            (browser_session,) = door.active
            master = browser_session.child.master
            assert window_size(master) == (80, 24)

            await screen.send("resize", {"width": 100, "height": 30})
            await until(lambda: window_size(master) == (100, 30), "the pty follows the window")
            await screen.send("resize", {"width": 20000, "height": 20000})
            await until(lambda: window_size(master) == (500, 200), "a huge window is clamped")

            # Whatever else a browser sends is dropped, and the session goes on.
            for hostile in ("not json", "[[[[", '{"a": 1}', '["stdin", 5]', '["resize", {"width": "x"}]', '["x", 1]'):
                await screen.websocket.send_str(hostile)
            await screen.send("ping", "123")
            await until(lambda: json.dumps(["pong", "123"]) in screen.texts, "a pong")
            assert window_size(master) == (500, 200)
            await screen.send("resize", {"width": 80, "height": 24})
            before = len(screen.received)
            await screen.keys("?")  # the lobby's rules key: the session still takes keys
            await screen.wait_for("CF-1 ")
            await until(lambda: len(screen.received) > before and window_size(master) == (80, 24), "a redraw")
            before = len(screen.received)
            await screen.keys("\x1b")
            await screen.wait_for("signed in as Ann", since=before)  # back in the lobby

            await screen.keys("q")  # leaving the lobby ends the session and closes the socket
            await screen.wait_closed()
            assert screen.websocket.close_code == 1000
            await until(lambda: not door.active, "the session released")

    run(go())


def test_a_page_from_another_site_cannot_open_the_terminal_socket(home):
    async def go() -> None:
        async with running_web_door(home) as door, browser(door) as session:
            await signed_in(session, door, "Ann")
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await session.ws_connect("/ws", headers={"Origin": "http://elsewhere.example"})
            assert refused.value.status == 403
            assert not door.active
            screen = await open_screen(session, headers={"Origin": f"http://127.0.0.1:{door.port}"})
            await screen.wait_for("Dominoes lobby")

    run(go())


def test_revoking_a_player_ends_their_session_in_play_and_no_one_elses(home):
    async def go() -> None:
        async with running_web_door(home) as door, browser(door) as ann, browser(door) as ben:
            await signed_in(ann, door, "Ann")
            await signed_in(ben, door, "Ben")
            ann_screen, ben_screen = await open_screen(ann), await open_screen(ben)
            await ann_screen.wait_for("signed in as Ann")
            await ben_screen.wait_for("signed in as Ben")
            (ann_child,) = [s.child for s in door.active if s.player == "Ann"]

            InviteBook(door.data).revoke("Ann")
            await ann_screen.wait_closed()
            assert "your invitation was withdrawn" in ann_screen.text()
            await until(lambda: ann_child.process.returncode is not None, "Ann's lobby ended")
            # the door lets go of her session once its handler has seen the end, a moment later
            await until(lambda: [s.player for s in door.active] == ["Ben"], "only Ben's session left")
            assert not ben_screen.closed.is_set()

    run(go())


def test_sessions_are_capped_in_all_and_per_player(home):
    async def go() -> None:
        async with (
            running_web_door(home, limits=ServerLimits(max_sessions=2, max_player_sessions=1)) as door,
            browser(door) as ann,
            browser(door) as ben,
            browser(door) as cy,
        ):
            for client, name in ((ann, "Ann"), (ben, "Ben"), (cy, "Cy")):
                await signed_in(client, door, name)
            first = await open_screen(ann)
            await first.wait_for("signed in as Ann")
            second = await open_screen(ann)
            await second.wait_closed()
            assert "the most one player may have" in second.text()
            await (await open_screen(ben)).wait_for("signed in as Ben")
            third = await open_screen(cy)
            await third.wait_closed()
            assert "the server is full (2 sessions in play)" in third.text()
            assert sorted(s.player for s in door.active) == ["Ann", "Ben"]

    run(go())


def test_the_pages_terminal_is_xterm_as_published_every_file_as_its_digest_says():
    # The terminal's files are copied unchanged from their npm packages (net/web_page/terminal/README.md).
    listed = {}
    for line in (TERMINAL / "SHA256SUMS").read_text(encoding="utf-8").splitlines():
        digest, name = line.split("  ")
        listed[name] = digest
    assert set(TERMINAL_PARTS) | {"xterm.css"} == set(listed)
    for name, digest in listed.items():
        assert hashlib.sha256((TERMINAL / name).read_bytes()).hexdigest() == digest, name
    assert "The xterm.js authors" in (TERMINAL / "LICENSE").read_text(encoding="utf-8")  # shipped with its license


def test_the_font_metrics_the_page_works_its_size_out_from_are_the_fonts_own():
    # early.js and the server (net.web_window) work the window out in the terminal's cells before
    # the font is in, from the font's units to the em, advance, ascent and descent: they must be
    # the served font's (its head, hhea and hmtx tables; a monospaced font has one advance).
    font = (TEXTUAL_STATIC / "fonts" / "RobotoMono-VariableFont_wght.ttf").read_bytes()
    count = struct.unpack(">H", font[4:6])[0]
    tables = {}
    for entry in range(count):
        tag, _, offset, _ = struct.unpack(">4sIII", font[12 + 16 * entry : 28 + 16 * entry])
        tables[tag.decode()] = offset
    units = struct.unpack(">H", font[tables["head"] + 18 : tables["head"] + 20])[0]
    ascent, descent = struct.unpack(">hh", font[tables["hhea"] + 4 : tables["hhea"] + 8])
    advances = struct.unpack(">H", font[tables["hhea"] + 34 : tables["hhea"] + 36])[0]
    advance = struct.unpack(">H", font[tables["hmtx"] : tables["hmtx"] + 2])[0]
    early = (PAGE / "static" / "early.js").read_text(encoding="utf-8")
    assert advances == 1  # one advance for every glyph
    server = (web_window.UNITS_PER_EM, web_window.ADVANCE, web_window.ASCENT, web_window.DESCENT)
    assert server == (units, advance, ascent, -descent)
    assert f"const em = 16 / {units};" in early
    assert f"Math.floor({advance} * em * ratio)" in early
    assert f"Math.round({ascent} * em) + Math.round({-descent} * em)" in early
