"""A revocation always bites: a revoked player's session ends within a second or so, whatever else
reaches the server meanwhile. Every request reads the invites file when it changes; none of them
may use the change up so that the watcher that ends sessions never sees it."""

from __future__ import annotations

import asyncio
import contextlib

from net.web_auth import InviteBook
from tests.net.test_web_server import run, until
from tests.net.web_client import browser, open_screen, running_web_door, signed_in


def test_a_revocation_read_first_by_a_request_still_ends_the_session(home):
    async def go() -> None:
        async with running_web_door(home) as door, browser(door) as ann, browser(door) as ben:
            await signed_in(ann, door, "Ann")
            await signed_in(ben, door, "Ben")
            screen = await open_screen(ann)
            await screen.wait_for("signed in as Ann")
            InviteBook(door.data).revoke("Ann")
            async with ben.get("/") as response:  # Ben's page load reads the changed file first
                assert response.status == 200
            assert door.gate.refresh() is False  # the change is read: nothing new to see here
            await screen.wait_closed()
            assert "your invitation was withdrawn" in screen.text()
            await until(lambda: not door.active, "Ann's session released")

    run(go())


def test_a_revocation_bites_while_other_requests_keep_coming(home):
    async def go() -> None:
        async with running_web_door(home) as door, browser(door) as ann, browser(door) as ben:
            await signed_in(ann, door, "Ann")
            await signed_in(ben, door, "Ben")
            ann_screen, ben_screen = await open_screen(ann), await open_screen(ben)
            await ann_screen.wait_for("signed in as Ann")
            await ben_screen.wait_for("signed in as Ben")
            requests = 0

            async def keep_asking() -> None:  # Ben's browser, and a stranger's, all the while
                nonlocal requests
                while True:
                    for path in ("/", "/join/" + "A" * 43, "/favicon.svg"):
                        async with ben.get(path) as response:
                            await response.read()
                        requests += 1

            busy = asyncio.get_running_loop().create_task(keep_asking())
            try:
                while requests < 10:
                    await asyncio.sleep(0.01)
                InviteBook(door.data).revoke("Ann")
                await ann_screen.wait_closed()
            finally:
                busy.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await busy
            assert "your invitation was withdrawn" in ann_screen.text()
            await until(lambda: [s.player for s in door.active] == ["Ben"], "only Ben's session left")
            assert not ben_screen.closed.is_set()
            async with ann.get("/") as response:
                assert response.status == 401  # and Ann's browser is signed out

    run(go())
