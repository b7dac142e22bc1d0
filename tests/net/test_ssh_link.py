"""Over `serve-ssh --open`, end to end: a key with no name types the link code of a name chosen in a
browser on the welcome screen, and goes on to the lobby as that name, then and every time after. A
code spent, expired or wrong ties nothing and says so in one line; wrong codes beyond a few an hour
are not tried at all; a key that has a name meanwhile is told so."""

from __future__ import annotations

import asyncio
import time

import asyncssh

from net.accounts import RoomBook
from net.link_codes import MAX_FAILURES
from net.player_sessions import PLAYERS, safe_folder_name
from tests.net.ssh_client import connect, make_key, open_terminal
from tests.net.test_ssh_open import open_door, sign_up, wait_for_new

SPENT = "that link code was used already"
EXPIRED = "that link code has expired"
UNKNOWN = "that link code is not one of this"
TOO_MANY = "too many wrong codes from this key or this address"


def browser_name(home, name: str = "Zoé", clock=time.time) -> str:
    """A name chosen in a browser, and a code of its key page's (made `clock()` seconds after 1970)."""
    book = RoomBook(home, clock=clock)
    book.sign_up_browser(name, "10.0.0.1")
    return book.new_link_code(name)


async def retype(channel, screen, text: str, words: str) -> None:
    """Clear the input (a refused entry stays in it, to edit), type `text`, and wait for `words`."""
    mark = len(screen.received)
    channel.write(b"\x15")  # Ctrl+U
    await wait_for_new(screen, mark, "your name, or a link code")  # the empty input's placeholder
    mark = len(screen.received)
    channel.write(text.encode() + b"\r")
    await wait_for_new(screen, mark, words)


def test_a_code_typed_on_the_welcome_screen_ties_the_key_and_it_comes_back_as_that_name(home, keys):
    async def run() -> None:
        code = browser_name(home)
        async with open_door(home, keys) as door:
            connection = await connect(door, keys.stranger, username="newcomer")
            channel, screen = await open_terminal(connection)
            await screen.wait_for("Chose a name in a browser already? Type the link code")  # a code goes here too
            channel.write(code.upper().encode() + b"\r")
            await screen.wait_for("signed in as Zoé")
            assert (home / PLAYERS / safe_folder_name("Zoé")).is_dir()  # the session is in Zoé's folder
            connection.close()
            fingerprint = asyncssh.read_private_key(keys.stranger).get_fingerprint("sha256")
            assert RoomBook(home).read().find("Zoé").keys == [fingerprint]
            async with await connect(door, keys.stranger, username="anything") as again:
                _, screen = await open_terminal(again)
                await screen.wait_for("signed in as Zoé")  # straight in, by the key
                assert "link code" not in screen.text()
            other = home / "other_key"
            make_key(other)
            connection, channel, screen = await sign_up(door, other, code)
            await screen.wait_for(SPENT)  # a code ties one key, once
            await retype(channel, screen, "Ana", "signed in as Ana")  # and the key may still choose a name
            connection.close()

    asyncio.run(run())


def test_an_expired_code_ties_nothing_and_the_key_may_try_a_new_one(home, keys):
    async def run() -> None:
        late = browser_name(home, clock=lambda: time.time() - 601)  # made eleven minutes ago
        async with open_door(home, keys) as door:
            _, channel, screen = await sign_up(door, keys.stranger, late)
            await screen.wait_for(EXPIRED)
            assert RoomBook(home).read().find("Zoé").keys == []
            fresh = RoomBook(home).new_link_code("Zoé")
            await retype(channel, screen, fresh, "signed in as Zoé")

    asyncio.run(run())


def test_a_flood_of_wrong_codes_is_refused_and_even_a_good_code_is_not_tried_after_it(home, keys):
    async def run() -> None:
        code = browser_name(home)
        async with open_door(home, keys) as door:
            # Each wrong code on a screen of its own: on one screen the same refusal, still shown,
            # may be drawn again after the next code is typed and pass for its answer.
            for number in range(MAX_FAILURES):
                connection, _, screen = await sign_up(door, keys.stranger, f"link-2345-6789-{number + 2}bcd")
                await screen.wait_for(UNKNOWN)
                connection.close()
            connection, _, screen = await sign_up(door, keys.stranger, code)
            await screen.wait_for(TOO_MANY)
            other = home / "other_key"
            make_key(other)  # another key from the same address fares no better
            _, _, screen = await sign_up(door, other, code)
            await screen.wait_for(TOO_MANY)
            book = RoomBook(home).read()
            assert book.find("Zoé").keys == [] and len(book.link_failures) == MAX_FAILURES

    asyncio.run(run())


def test_a_key_that_took_a_name_in_another_session_is_told_so_and_the_code_stays_good(home, keys):
    async def run() -> None:
        code = browser_name(home)
        async with open_door(home, keys) as door:
            first = await connect(door, keys.stranger, username="newcomer")
            first_channel, first_screen = await open_terminal(first)
            await first_screen.wait_for("Choose the name you will play under")
            _, _, screen = await sign_up(door, keys.stranger, "Ken")
            await screen.wait_for("signed in as Ken")
            first_channel.write(code.encode() + b"\r")
            await first_screen.wait_for("this key is Ken's already")
            book = RoomBook(home).read()
            assert book.find("Zoé").keys == [] and book.find("Ken").keys
            assert not book.links[0].used  # still good for its owner's key
            first.close()

    asyncio.run(run())
