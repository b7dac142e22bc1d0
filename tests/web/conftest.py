"""The browser tests' set-up: the real `dominoes serve-web` in a process of its own, and the
system's Chromium driven headless by Playwright (never a browser Playwright would download).

Everything waits for a condition on the page with a generous timeout, never for a fixed time: a
loaded two-core machine may take many seconds to open a table."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from net.tables import list_tables, process_alive

ROOT = Path(__file__).resolve().parent.parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT = 90_000  # milliseconds: the most any one step may take on a busy machine
START_TIMEOUT = 60.0
WINDOW = {"width": 1000, "height": 640}

# The page's terminal, as text: window.dominoesTerminal is xterm's Terminal (see page.js). The tests
# read it through the browser's devtools protocol, so the page keeps its own content policy.
SCREEN = """() => {
  const terminal = window.dominoesTerminal;
  if (!terminal || !document.body.classList.contains("-first-byte")) return "";
  const buffer = terminal.buffer.active;
  const lines = [];
  for (let row = 0; row < terminal.rows; row++) {
    const line = buffer.getLine(buffer.viewportY + row);
    lines.push(line ? line.translateToString(true) : "");
  }
  return lines.join("\\n");
}"""


@dataclass
class WebServer:
    home: Path
    process: subprocess.Popen[str]
    url: str

    def environment(self) -> dict[str, str]:
        return {**os.environ, "DOMINOES_HOME": str(self.home)}

    def invite(self, name: str) -> str:
        """A link from `dominoes web-invite NAME`, exactly as a host would make it."""
        done = subprocess.run(
            [sys.executable, "-m", "cli", "web-invite", name],
            env=self.environment(),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=START_TIMEOUT,
            check=True,
        )
        (line,) = done.stdout.splitlines()
        return line


def start_web_server(home: Path, options: list[str]) -> WebServer:
    """`dominoes serve-web --port 0 OPTIONS...` with `home` as its data directory, once it is up."""
    process = subprocess.Popen(
        [sys.executable, "-m", "cli", "serve-web", "--port", "0", *options],
        env={**os.environ, "DOMINOES_HOME": str(home)},
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    first = process.stdout.readline()  # blocks until the server says where it is (or dies)
    found = re.search(r"serving on (http://127\.0\.0\.1:\d+)", first)
    if found is None:
        process.kill()
        raise AssertionError(f"serve-web did not start: {first!r}")
    return WebServer(home, process, found.group(1))


@pytest.fixture
def server(request: pytest.FixtureRequest) -> Iterator[WebServer]:
    """`dominoes serve-web` on a free port, with a data directory of its own; a test may add
    options with `@pytest.mark.parametrize("server", [[OPTIONS]], indirect=True)`."""
    home = Path(tempfile.mkdtemp(prefix="dm-web-"))
    try:
        started = start_web_server(home, getattr(request, "param", []))
    except AssertionError:
        shutil.rmtree(home, ignore_errors=True)
        raise
    try:
        yield started
    finally:
        started.process.terminate()
        try:
            started.process.wait(START_TIMEOUT)
        except subprocess.TimeoutExpired:
            started.process.kill()
            started.process.wait()
        close_tables(home / "tables")
        shutil.rmtree(home, ignore_errors=True)


def close_tables(directory: Path) -> None:
    """End the lobby tables the test opened (each a `dominoes host` process of its own)."""
    tables = list_tables(directory)
    for table in tables:
        with contextlib.suppress(OSError):
            os.kill(table.pid, signal.SIGTERM)
    deadline = time.monotonic() + START_TIMEOUT
    while any(process_alive(table.pid, table.socket) for table in tables) and time.monotonic() < deadline:
        time.sleep(0.05)


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    """The system's Chromium, headless, with a fresh profile of its own (Playwright's launch makes a
    new user-data-dir for each browser and removes it after)."""
    if not os.access(CHROMIUM, os.X_OK):
        raise AssertionError(f"the browser tests need the system's Chromium at {CHROMIUM}: apt-get install chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def new_browser(chromium: Browser) -> Iterator[object]:
    """Makes browsers of their own (no shared cookies), as two people on two machines would have."""
    contexts: list[BrowserContext] = []

    def make() -> Page:
        context = chromium.new_context(viewport=WINDOW)
        context.set_default_timeout(WAIT)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        page.console_errors = errors  # type: ignore[attr-defined]
        return page

    yield make
    for context in contexts:
        context.close()


def screen(page: Page) -> str:
    return page.evaluate(SCREEN)


def wait_until(page: Page, check: Callable[[str], bool], what: str, frames: int = 1) -> str:
    """Until `check(screen)` holds, looking again every `frames` frames the browser draws; the screen then."""
    deadline = time.monotonic() + WAIT / 1000
    while True:
        text = screen(page)
        if check(text):
            return text
        if time.monotonic() > deadline:
            raise AssertionError(f"never {what}; the screen:\n{text}")
        for _ in range(frames):
            page.evaluate("() => new Promise(requestAnimationFrame)")


def settled_screen(page: Page, frames: int = 3) -> str:
    """The screen once it has stopped changing: two reads `frames` frames apart that agree. A form
    laid out anew arrives over several writes; a click aimed from a read halfway through them can
    land on the row something had before."""
    last_read = [""]

    def unchanged(text: str) -> bool:
        same = text == last_read[0]
        last_read[0] = text
        return same

    return wait_until(page, unchanged, "a settled screen", frames)


def wait_for_screen(page: Page, words: str) -> str:
    """Until the page's terminal shows `words`; the screen then."""
    return wait_until(page, lambda text: words in text, f"{words!r} on the screen")
