"""Make docs/web-table.png, the picture of the README and the manual of a table in the browser: `dominoes serve-web`,
an invited player in headless Chromium opening a Doubles table against a bot, a few turns in.

Run from the repository root: `.venv/bin/python docs/web_screenshot.py` (needs the system's
Chromium, as the browser tests do).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS, WAIT, close_tables, start_web_server, wait_until  # noqa: E402
from tests.web.test_browser import hand, open_doubles_table, sign_in  # noqa: E402

SEED = 5
TURNS = 7
CHOOSE = "to pick one, Enter to play"
WINDOW = {"width": 1040, "height": 660}


def main() -> None:
    home = Path(tempfile.mkdtemp(prefix="dm-shot-"))
    server = start_web_server(home, [])
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_context(viewport=WINDOW).new_page()
            page.set_default_timeout(WAIT)
            sign_in(page, server, "Ann")
            open_doubles_table(page, "bot", seed=SEED)
            for _ in range(TURNS):
                text = wait_until(page, lambda text: "your turn, Ann" in text and hand(text, "Ann"), "Ann's turn")
                lines = text.split("\n")
                marks = lines[next(i for i, line in enumerate(lines) if "Ann's tiles" in line) + 2]
                count = len(hand(text, "Ann"))
                page.keyboard.press("Enter" if "▲" in marks else "d")  # play the tile offered, or draw
                text = wait_until(
                    page, lambda text, count=count: 0 < len(hand(text, "Ann")) != count or CHOOSE in text, "Ann's move"
                )
                if CHOOSE in text:  # a tile that fits two ends: the end offered first
                    page.keyboard.press("Enter")
                    wait_until(page, lambda text, count=count: 0 < len(hand(text, "Ann")) != count, "Ann's play")
            wait_until(page, lambda text: "your turn, Ann" in text, "Ann's turn")
            page.screenshot(path=str(ROOT / "docs" / "web-table.png"))
            browser.close()
    finally:
        server.process.terminate()
        server.process.wait()
        close_tables(home / "tables")
        shutil.rmtree(home, ignore_errors=True)
    subprocess.run(["ls", "-l", str(ROOT / "docs" / "web-table.png")], check=False)


if __name__ == "__main__":
    main()
