"""Make docs/screenshot.svg, the picture of the README and the manual: a Chicken Foot table in the middle of a round.

Run from the repository root: `python docs/screenshot.py`.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core import Match, Seat  # noqa: E402
from core.bots import get_bot  # noqa: E402
from tui.app import DominoesApp  # noqa: E402
from tui.preferences import Preferences  # noqa: E402
from tui.screens.table import TableScreen  # noqa: E402

SEED = 11
HUMAN_TURNS = 9  # how far into the round the picture is taken


def mid_round() -> Match:
    seats = (Seat("You"), Seat("Ada", "bot", "easy"), Seat("Bea", "bot", "easy"), Seat("Cy", "bot", "random"))
    match = Match("chicken-foot", 4, {"rounds": 3}, seats, SEED)
    bot = get_bot("easy")
    rng = random.Random(SEED)
    turns = 0
    while True:
        state = match.state
        if state.chance:
            match.deal()
            continue
        if state.to_move == 0:
            turns += 1
            if turns > HUMAN_TURNS:
                return match
        match.apply(bot.choose(match.view(state.to_move), match.legal_moves(), rng))


async def main() -> None:
    os.environ["DOMINOES_HOME"] = tempfile.mkdtemp()  # leave the user's preferences alone
    app = DominoesApp(match=mid_round(), preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        while not (isinstance(app.screen, TableScreen) and app.screen.human_to_move()):
            await pilot.pause(0.05)
        await pilot.press("h")
        await pilot.pause(0.2)
        app.save_screenshot("screenshot.svg", str(ROOT / "docs"))


if __name__ == "__main__":
    asyncio.run(main())
