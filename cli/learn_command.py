"""`dominoes learn GAME`: a guided first game, on a stacked deal, then free play at the same table."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from cli.terminal import interface_status, require_terminal
from cli.usage import PROG, UsageError
from core import GAME_NAMES


def add_parser(commands: Any) -> None:
    learn = commands.add_parser(
        "learn",
        help="a guided first game of one of the games",
        description="Play a first round step by step: each move is explained beside the table, with the rules it "
        "shows. After the lesson the match goes on as an ordinary one, and it is saved like any match.",
    )
    learn.add_argument("game", help=f"one of: {', '.join(GAME_NAMES)}")
    learn.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tui.lessons import LessonError, load_lesson  # no Textual yet: a bad argument fails fast

    if args.game not in GAME_NAMES:
        raise UsageError(f"{PROG} learn: there is no lesson for {args.game!r} (games: {', '.join(GAME_NAMES)})")
    try:
        lesson = load_lesson(args.game)
    except LessonError as error:
        print(f"{PROG} learn: {error}", file=sys.stderr)
        return 1
    require_terminal(f"{PROG} learn")
    from tui.app import DominoesApp

    app = DominoesApp(match=lesson.new_match())
    app.run()
    return interface_status(app)
