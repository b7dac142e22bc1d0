"""`dominoes serve-web` in a real browser: headless Chromium, the page's own terminal read back from
xterm's buffer, keys and clicks as a player gives them."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page

from net.web_window import window_in_cells
from tests.processes import children
from tests.web.conftest import WebServer, settled_screen, wait_for_screen, wait_until
from warm_sessions.session_fork import is_zygote

SEED_WHERE_ANN_OPENS = 5  # Doubles, Ann and a bot: Ann holds the 6-6 and opens the round with it
TILE = re.compile(r"\[\d\|\d\]")


def server_children(server: WebServer) -> list[int]:
    """The server's child processes but its warm session server (its zygote), and that one's:
    the sessions it has started."""
    found = []
    for pid in children(server.process.pid):
        found += children(pid) if is_zygote(pid) else [pid]
    return found


def click_on(page: Page, words: str) -> None:
    """Click the middle of the first cell of `words` on the page's terminal, as a player would,
    aimed from a whole screen (not one read while a new layout is still arriving)."""
    lines = settled_screen(page).split("\n")
    row = next(i for i, line in enumerate(lines) if words in line)
    column = lines[row].index(words)
    box = page.locator(".xterm-screen").bounding_box()
    assert box is not None
    columns, rows = page.evaluate("[window.dominoesTerminal.cols, window.dominoesTerminal.rows]")
    width, height = box["width"] / columns, box["height"] / rows
    page.mouse.click(box["x"] + (column + 0.5) * width, box["y"] + (row + 0.5) * height)


def hand(text: str, name: str) -> list[str]:
    """The tiles in the hand box titled "NAME's tiles" on a screen (none if it is not there). A
    screen may be read halfway through a frame: wait for what a whole frame shows."""
    lines = text.split("\n")
    title = next((i for i, line in enumerate(lines) if f"{name}'s tiles" in line), len(lines))
    return TILE.findall(lines[title + 1]) if title + 1 < len(lines) else []


def sign_in(page: Page, server: WebServer, name: str) -> None:
    page.goto(server.invite(name))
    page.wait_for_url(f"{server.url}/")
    wait_for_screen(page, f"signed in as {name}")


def form_shows(page: Page, pattern: str) -> None:
    found = re.compile(pattern)
    wait_until(page, lambda text: any(found.search(line) for line in text.split("\n")), f"a line like {pattern!r}")


def open_doubles_table(page: Page, second_seat: str, seed: int | None = None) -> None:
    """From the lobby: a Doubles table for two, the second seat `second_seat` ("open" or "bot")."""
    page.keyboard.press("n")
    wait_for_screen(page, "Open the table")
    page.keyboard.press("Enter")  # the game list
    wait_for_screen(page, "Three-player Moon")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    form_shows(page, r"Game\s+Doubles\s+▼")
    page.keyboard.press("Tab")  # the number of players
    page.keyboard.press("Enter")
    form_shows(page, r"Players\s+\d\s+▲")
    page.keyboard.press("Home")
    page.keyboard.press("Enter")
    form_shows(page, r"Players\s+2\s+▼")
    # Laid out anew, its rule options last: a click aimed at the seed before they are in lands on the
    # row they then take (seen on a busy machine, the 5 typed into the target, which became 5100).
    wait_until(page, lambda text: "Seat 3" not in text and "blocked_tie" in text and "Seed" in text, "the form for two")
    if second_seat == "open":
        page.keyboard.press("Tab")  # the second seat's name
        page.keyboard.press("Tab")  # the second seat's kind
        page.keyboard.press("Enter")
        wait_for_screen(page, "Bot: hard")
        page.keyboard.press("Home")
        page.keyboard.press("Enter")
        form_shows(page, r"Seat 2\s+.*Open seat\s+▼")
    if seed is not None:
        click_on(page, "random")  # the seed field, with the mouse
        page.keyboard.type(str(seed))
        form_shows(page, rf"Seed\s+{seed}\b")
    page.keyboard.press("Control+s")


def test_an_uninvited_visit_is_refused_and_starts_nothing(server, new_browser):
    page = new_browser()
    response = page.goto(server.url)
    assert response is not None and response.status == 401
    assert "This table is by invitation" in page.content()
    response = page.goto(f"{server.url}/join/{'A' * 43}")  # a made-up link
    assert response is not None and response.status == 403
    assert "does not work" in page.content()
    assert not server_children(server)


OPENED_SOCKETS = """(() => {
  window.socketsOpened = [];
  const Native = window.WebSocket;
  window.sizesSent = [];
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      window.socketsOpened.push(document.readyState);
      const size = new URL(args[0]).searchParams;
      window.sizesSent.push({ width: Number(size.get("width")), height: Number(size.get("height")) });
    }
    send(data) {
      if (typeof data === "string" && data.startsWith('["resize"')) window.sizesSent.push(JSON.parse(data)[1]);
      return super.send(data);
    }
  };
  window.contextsAsked = [];
  const getContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
    window.contextsAsked.push(kind);
    return getContext.call(this, kind, ...rest);
  };
})();"""


def test_an_invite_link_opens_the_lobby_in_a_page_that_fits_the_window(server, new_browser):
    page = new_browser()
    page.add_init_script(OPENED_SOCKETS)
    sign_in(page, server, "Ann")
    # One socket, opened while the page was still loading (its session had started with the page),
    # and handed to the terminal once its scripts had run.
    assert page.evaluate("window.socketsOpened") == ["loading"]
    # The page worked its window out in the terminal's cells before the terminal was made (early.js),
    # as the terminal measures them: its session started at the terminal's size, and drew its lobby
    # once (the socket's address gave the size; no other was sent before the terminal's own).
    terminal = page.evaluate("({width: window.dominoesTerminal.cols, height: window.dominoesTerminal.rows})")
    assert set(map(str, page.evaluate("window.sizesSent"))) == {str(terminal)}
    # and the server, from the window's client hints, works it out the same (net.web_window)
    window = page.evaluate("[window.innerWidth, window.innerHeight, window.devicePixelRatio]")
    assert window_in_cells(*window) == (terminal["width"], terminal["height"])
    # The terminal draws on 2D canvases (xterm's canvas renderer), never asking for WebGL.
    contexts = page.evaluate("window.contextsAsked")
    assert "2d" in contexts and not any(kind.startswith(("webgl", "experimental-webgl")) for kind in contexts)
    # The session's first output is parsed as it comes, not in a later task (so the first frame the
    # browser draws has the lobby): a message is on the terminal's screen before the handler returns.
    parsed_at_once = page.evaluate(
        """() => {
          const bytes = new TextEncoder().encode("\\x1b[1;1HParsed at once");
          window.dominoesSocket.dispatchEvent(new MessageEvent("message", { data: bytes.buffer }));
          return window.dominoesTerminal.buffer.active.getLine(0).translateToString(true);
        }"""
    )
    assert parsed_at_once.startswith("Parsed at once")
    # Shown whole as its first output comes, not faded in over the next fifth of a second.
    style = "element => [getComputedStyle(element).opacity, getComputedStyle(element).transitionDuration]"
    assert page.locator("#terminal").evaluate(style) == ["1", "0s"]
    assert page.title() == "Dominoes · Ann"
    assert page.locator("link[rel=icon]").get_attribute("href") == "/favicon.svg"
    assert page.context.cookies()[0]["httpOnly"]

    # The terminal fills the window and follows it: the lobby's footer ends at its right edge.
    def footer_at_the_edge(text: str) -> bool:
        columns = page.evaluate("window.dominoesTerminal.cols")
        footer = [line.rstrip() for line in text.split("\n") if "palette" in line]
        return bool(footer) and columns - 3 <= len(footer[0]) <= columns

    wait_until(page, footer_at_the_edge, "a footer across the window")
    columns = page.evaluate("window.dominoesTerminal.cols")
    assert columns > 100
    page.set_viewport_size({"width": 900, "height": 560})
    wait_until(page, lambda _: page.evaluate("window.dominoesTerminal.cols") < columns, "fewer columns")
    wait_until(page, footer_at_the_edge, "a footer across the smaller window")

    # The mouse works too: a click on the footer's New table key opens the form.
    click_on(page, "New table")
    wait_for_screen(page, "Open the table")
    assert not page.console_errors, "the page runs within its own content policy, with no error"


def test_a_doubles_match_against_a_bot_where_a_tile_is_played_with_the_keyboard(server, new_browser):
    page = new_browser()
    sign_in(page, server, "Ann")
    open_doubles_table(page, "bot", seed=SEED_WHERE_ANN_OPENS)
    table = wait_until(page, lambda text: "your turn, Ann" in text and len(hand(text, "Ann")) == 8, "Ann's hand")
    assert "[6|6]" in hand(table, "Ann")
    page.keyboard.press("Enter")  # Ann's only play: the 6-6 in the centre
    played = wait_until(
        page, lambda text: "centre [6|6]" in text and len(hand(text, "Ann")) == 7, "the 6-6 in the centre"
    )
    assert "[6|6]" not in hand(played, "Ann") and "Ann: 7" in played
    wait_for_screen(page, "Ann opened the round with the 6-6")


def test_two_browsers_at_one_table_each_see_only_their_own_hand(server, new_browser):
    ann, ben = new_browser(), new_browser()
    sign_in(ann, server, "Ann")
    sign_in(ben, server, "Ben")
    open_doubles_table(ann, "open")
    wait_for_screen(ann, "Ann's tiles")
    wait_for_screen(ben, "Doubles")  # the lobby lists Ann's table
    ben.keyboard.press("Enter")
    ben_screen = wait_until(ben, lambda text: len(hand(text, "Ben")) >= 7, "Ben's hand")
    ann_screen = wait_until(ann, lambda text: "Ben" in text and len(hand(text, "Ann")) >= 7, "Ben at Ann's table")

    ann_tiles, ben_tiles = hand(ann_screen, "Ann"), hand(ben_screen, "Ben")
    assert len(ann_tiles) >= 7 and len(ben_tiles) >= 7
    assert "Ben's tiles" not in ann_screen and "Ann's tiles" not in ben_screen
    for tile in ben_tiles:
        assert tile not in ann_screen, f"Ben's {tile} shows on Ann's page"
    for tile in ann_tiles:
        assert tile not in ben_screen, f"Ann's {tile} shows on Ben's page"


@pytest.mark.parametrize("server", [["--takeover", "3600"]], indirect=True)  # no bot plays for Ann meanwhile
def test_a_reload_or_a_lost_connection_comes_back_to_the_same_seat(server, new_browser):
    page = new_browser()
    sign_in(page, server, "Ann")
    open_doubles_table(page, "bot", seed=SEED_WHERE_ANN_OPENS)
    wait_for_screen(page, "your turn, Ann")
    page.keyboard.press("Enter")
    seated = wait_until(page, lambda text: len(hand(text, "Ann")) == 7, "Ann's first play")
    tiles = hand(seated, "Ann")

    def back_at_the_table() -> None:
        """From a new lobby: Ann's table comes first, marked hers; Enter takes her seat back."""
        wait_for_screen(page, "signed in as Ann")
        wait_for_screen(page, "▶ Doubles")
        page.keyboard.press("Enter")
        wait_until(page, lambda text: "Ann's tiles" in text and hand(text, "Ann") == tiles, "Ann's own hand again")

    page.reload()
    back_at_the_table()

    # The connection drops: the page says so and offers to reconnect.
    page.evaluate("window.dominoesSocket.close()")
    notice = page.locator("#closed")
    notice.wait_for(state="visible")
    assert "The connection was lost." in notice.inner_text()
    assert "seat is kept" in notice.inner_text()
    page.get_by_role("button", name="Reconnect").click()
    page.locator("#connecting").wait_for(state="hidden")
    back_at_the_table()


def test_a_long_paste_goes_in_pieces_under_the_message_cap_and_the_session_goes_on(server, new_browser):
    page = new_browser()
    sign_in(page, server, "Ann")
    page.evaluate(
        """() => {
          const native = window.WebSocket.prototype;
          const send = native.send;
          window.sentSizes = [];
          native.send = function (data) { window.sentSizes.push(new Blob([data]).size); return send.call(this, data); };
        }"""
    )
    page.evaluate("text => window.dominoesTerminal.paste(text)", "é" * 70_000)  # 140,000 bytes as UTF-8
    sizes = page.evaluate("window.sentSizes")
    assert len(sizes) >= 17 and max(sizes) < 64 * 1024  # in pieces, each under the server's cap
    page.keyboard.press("?")  # the session is still there, and takes keys
    wait_for_screen(page, "CF-1 ")
    assert page.evaluate("window.dominoesSocket.readyState") == 1


def test_a_link_opened_from_another_page_asks_and_a_forged_sign_in_is_refused(server, new_browser):
    link = server.invite("Ann")
    attacker = new_browser()
    attacker.set_content(
        f'<form method="post" action="{link}"><input name="check" value="guess"></form>'
        "<script>document.forms[0].submit()</script>"
    )  # a page elsewhere that signs its visitor in as its own player, unasked
    attacker.wait_for_load_state()
    wait_for_text = "This sign-in was not started here"
    attacker.wait_for_function(f"document.body && document.body.innerText.includes({wait_for_text!r})")
    assert not [c for c in attacker.context.cookies() if c["name"] == "dominoes_session"]

    page = new_browser()
    page.set_content(f'<a id="invite" href="{link}">your invitation</a>')  # a chat, a mail in a web page
    page.click("#invite")
    page.wait_for_url(link)
    assert "Sign in as Ann?" in page.content()
    assert not [c for c in page.context.cookies() if c["name"] == "dominoes_session"]
    assert page.inner_text("button") == "Sign in as Ann"
    page.click("button")  # the player's own click on this site's button
    page.wait_for_url(f"{server.url}/")
    wait_for_screen(page, "signed in as Ann")
