"""Signing in at the web door is the player's own doing, and no one's sign-ins crowd out another's:
a link opened from another site (or in a browser signed in as someone else) asks first, with a
button only this site's page can send; a player keeps at most a few sign-ins (a new one ends only
their own oldest); a link signs in only so many browsers at a time; the Origin check compares
scheme, host and port; and a browser's pings and messages are paced."""

from __future__ import annotations

import json
import re

import aiohttp
from yarl import URL

from net import web_auth
from net.web_server import COOKIE, JOIN_COOKIE
from net.web_session import PING_BURST
from tests.net.test_web_server import run, until
from tests.net.web_client import TYPED, browser, invite, open_screen, running_web_door, signed_in

CROSS_SITE = {"Sec-Fetch-Site": "cross-site"}


def cookie(session: aiohttp.ClientSession, door: object, name: str = COOKIE) -> str | None:
    found = session.cookie_jar.filter_cookies(URL(f"http://127.0.0.1:{door.port}/join/x")).get(name)  # type: ignore[attr-defined]
    return found.value if found is not None else None


def form_check(page: str) -> str:
    (check,) = re.findall(r'name="check" value="([^"]+)"', page)
    return check


def test_a_link_opened_from_another_site_asks_and_only_this_sites_button_signs_in(home):
    async def go() -> None:
        async with running_web_door(home) as door, browser(door) as victim:
            link = invite(door, "Mallory")  # the attacker's own link, opened in the victim's browser
            async with victim.get(link, headers=CROSS_SITE) as response:
                page = await response.text()
                assert response.status == 200 and "Sign in as Mallory?" in page
                assert "form-action 'self'" in response.headers["Content-Security-Policy"]
                assert response.headers["Referrer-Policy"] == "same-origin"
            assert cookie(victim, door) is None  # not signed in by opening it
            check = form_check(page)
            assert cookie(victim, door, JOIN_COOKIE) == check
            own = f"http://127.0.0.1:{door.port}"
            forged = (
                {"Origin": "http://attacker.example", "Sec-Fetch-Site": "cross-site"},  # a form on the attacker's page
                {"Origin": "null"},  # sent by a page that hides where it is
                {"Sec-Fetch-Site": "same-origin"},  # no Origin at all
                {"Origin": own, "Sec-Fetch-Site": "cross-site"},
            )
            for headers in forged:
                async with victim.post(link, data={"check": check}, headers=headers) as response:
                    assert response.status == 403 and "not started here" in await response.text(), headers
            victim.cookie_jar.clear(lambda c: c.key == JOIN_COOKIE)  # a cross-site POST carries no Strict cookie
            async with victim.post(link, data={"check": check}, headers={"Origin": own}) as response:
                assert response.status == 403
            assert cookie(victim, door) is None and not door.gate.sessions

            async with victim.get(link, headers=CROSS_SITE) as response:  # the player's own click, this time
                check = form_check(await response.text())
            async with victim.post(
                link,
                data={"check": check},
                headers={"Origin": own, "Sec-Fetch-Site": "same-origin"},
                allow_redirects=False,
            ) as response:
                assert response.status == 303 and response.headers["Location"] == "/"
            assert cookie(victim, door) is not None
            async with victim.get("/") as response:
                assert "<title>Dominoes · Mallory</title>" in await response.text()

    run(go())


def test_a_link_for_someone_else_asks_before_switching_and_the_same_players_link_just_goes_on(home):
    async def go() -> None:
        async with running_web_door(home) as door, browser(door) as session:
            await signed_in(session, door, "Ann")
            ann_cookie = cookie(session, door)
            async with session.get(invite(door, "Ann"), headers=TYPED, allow_redirects=False) as response:
                assert response.status == 303 and response.headers["Location"] == "/"
            assert cookie(session, door) == ann_cookie and len(door.gate.sessions) == 1  # no new sign-in

            ben_link = invite(door, "Ben")
            async with session.get(ben_link, headers=TYPED) as response:  # even typed in: it asks
                page = await response.text()
            assert "This browser is signed in as Ann" in page and "Sign in as Ben" in page
            assert "Stay signed in as Ann" in page and cookie(session, door) == ann_cookie
            own = f"http://127.0.0.1:{door.port}"
            async with session.post(
                ben_link, data={"check": form_check(page)}, headers={"Origin": own}, allow_redirects=False
            ) as response:
                assert response.status == 303 and response.headers["Location"] == "/"
            assert cookie(session, door) != ann_cookie
            assert door.gate.session(ann_cookie) is None  # Ann is signed out here
            async with session.get("/") as response:
                assert "<title>Dominoes · Ben</title>" in await response.text()

    run(go())


def test_a_players_sign_ins_are_capped_and_a_new_one_ends_only_their_own_oldest(home):
    async def go() -> None:
        async with running_web_door(home) as door:
            async with browser(door) as ben:
                await signed_in(ben, door, "Ben")
                ben_cookie = cookie(ben, door)
            cookies = []
            for link in (invite(door, "Ann"), invite(door, "Ann")):  # two links: each within its pace
                for _ in range(web_auth.MAX_PLAYER_SIGN_INS // 2 + 1):
                    async with browser(door) as device:
                        async with device.get(link, headers=TYPED, allow_redirects=False) as response:
                            assert response.status == 303
                        cookies.append(cookie(device, door))
            assert len(cookies) == web_auth.MAX_PLAYER_SIGN_INS + 2
            kept = [c for c in cookies if door.gate.session(c) is not None]
            assert kept == cookies[2:]  # Ann's two oldest ended...
            assert door.gate.session(ben_cookie) is not None  # ...and nobody else's

    run(go())


def test_a_link_signs_in_only_so_many_browsers_at_once(home):
    async def go() -> None:
        async with running_web_door(home) as door:
            link = invite(door, "Ann")
            statuses = []
            for _ in range(web_auth.LINK_BURST + 2):
                async with browser(door) as device, device.get(link, headers=TYPED, allow_redirects=False) as response:
                    statuses.append(response.status)
                    text = await response.text()
            assert statuses == [303] * web_auth.LINK_BURST + [429, 429]
            assert "used too often just now; try again in" in text
            async with browser(door) as device:  # another player's link is not held back
                await signed_in(device, door, "Ben")

    run(go())


def test_every_link_together_signs_in_only_so_many_browsers_at_once_and_says_so(home):
    async def go() -> None:
        async with running_web_door(home) as door:
            links = [invite(door, f"Player{number}") for number in range(web_auth.SIGN_IN_BURST + 1)]
            statuses = []
            for link in links:  # each link used once: within its own pace, not within everyone's
                async with browser(door) as device, device.get(link, headers=TYPED, allow_redirects=False) as response:
                    statuses.append(response.status)
                    text = await response.text()
            assert statuses == [303] * web_auth.SIGN_IN_BURST + [429]
            assert "Too many players are signing in just now; try again in 1 s." in text

    run(go())


def test_the_origin_of_the_terminal_socket_must_match_in_scheme_host_and_port(home):
    async def go() -> None:
        async with running_web_door(home) as door, browser(door) as session:
            await signed_in(session, door, "Ann")
            port = door.port
            for origin in (f"https://127.0.0.1:{port}", f"http://127.0.0.1:{port + 1}", "http://127.0.0.1", "null"):
                try:
                    await session.ws_connect("/ws", headers={"Origin": origin})
                except aiohttp.WSServerHandshakeError as refused:
                    assert refused.status == 403, origin
                else:
                    raise AssertionError(f"{origin} opened the socket")
            # Behind a proxy that says the browser came over https, the https origin is this server's.
            screen = await open_screen(
                session, headers={"Origin": f"https://127.0.0.1:{port}", "X-Forwarded-Proto": "https"}
            )
            await screen.wait_for("signed in as Ann")

    run(go())


def test_a_ping_flood_is_answered_only_at_its_pace_and_the_session_goes_on(home):
    async def go() -> None:
        async with running_web_door(home) as door, browser(door) as ann, browser(door) as ben:
            await signed_in(ann, door, "Ann")
            await signed_in(ben, door, "Ben")
            flood, other = await open_screen(ann), await open_screen(ben)
            await flood.wait_for("signed in as Ann")
            await other.wait_for("signed in as Ben")
            for number in range(1000):
                await flood.websocket.send_str(json.dumps(["ping", str(number)]))
            await other.send("ping", "ben")
            await until(lambda: json.dumps(["pong", "ben"]) in other.texts, "Ben's pong")
            before = len(flood.received)
            await flood.keys("?")  # keys still reach Ann's session, after every ping before them
            await flood.wait_for("CF-1 ", since=before)
            pongs = [text for text in flood.texts if text.startswith('["pong"')]
            assert PING_BURST <= len(pongs) < 100  # a burst, then a couple a second: not a thousand
            assert not flood.closed.is_set()

    run(go())


def test_a_browser_that_comes_back_is_given_its_cookie_again_at_most_once_an_hour_and_stays_signed_in(home):
    now = [2_000_000_000.0]

    async def go() -> None:
        async with running_web_door(home) as door, browser(door) as ann:
            door.gate.clock = lambda: now[0]
            await signed_in(ann, door, "Ann")
            given = cookie(ann, door)
            async with ann.get("/") as response:
                assert response.status == 200 and COOKIE not in response.cookies  # not within the hour
            now[0] += 2 * 3600
            async with ann.get("/") as response:
                assert response.status == 200
                renewed = response.cookies[COOKIE]
                assert renewed.value == given and renewed["max-age"] == str(int(web_auth.SESSION_LIFETIME))
                assert renewed["httponly"] and renewed["samesite"] == "Strict"
            now[0] += web_auth.SESSION_LIFETIME - 60  # past thirty days from the sign-in: still in
            async with ann.get("/") as response:
                assert response.status == 200 and "<title>Dominoes · Ann</title>" in await response.text()
            now[0] += web_auth.SESSION_LIFETIME + 1  # thirty days without coming back: out
            async with ann.get("/") as response:
                assert response.status == 401 and COOKIE not in response.cookies

    run(go())
