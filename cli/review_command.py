"""`dominoes review MATCH`: every decision of a saved match weighed against its alternatives.

Bad arguments raise UsageError (status 2); a save that cannot be read, or a review whose worker
processes fail, prints one line and gives status 1; Ctrl+C stops it cleanly (status 130), the
decisions weighed so far kept in the sidecar for the next run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import IO, Any

from cli.usage import PROG, UsageError

BAR_WIDTH = 24


def add_parser(commands: Any) -> None:
    review = commands.add_parser(
        "review",
        help="weigh every decision of a saved match against its alternatives",
        description="Weigh every decision of a saved match against every legal alternative, from what the "
        "deciding seat could see, and say how much each cost and why.",
    )
    review.add_argument("match", metavar="MATCH", help="a match id, or the start of one")
    review.add_argument("--dir", metavar="DIR", help="the save directory (default: the one the game uses)")
    review.add_argument("--seat", type=int, metavar="N", help="review seat N only (1-based; default: every seat)")
    review.add_argument(
        "--budget", type=float, default=0.2, metavar="SECONDS", help="thinking time per decision (default 0.2)"
    )
    review.add_argument(
        "--worlds",
        type=int,
        metavar="N",
        help="sample exactly N deals per decision instead of a time budget: the same review on any machine",
    )
    review.add_argument("--seed", type=int, default=0, help="seed of the sampled deals (default 0)")
    review.add_argument("--jobs", type=int, metavar="N", help="processes to think in (default: the cores)")
    review.add_argument("--json", action="store_true", help="print the review as JSON")
    review.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from core.review import ReviewSettings
    from saves.errors import SaveError
    from saves.store import SaveStore
    from tui.review_session import ReviewSession
    from workers.review_pool import ReviewError

    command = f"{PROG} review"
    if not args.budget > 0 or args.budget > 3600:
        raise UsageError(f"{command}: --budget must be a number of seconds above 0 (at most 3600), not {args.budget}")
    if args.worlds is not None and not 1 <= args.worlds <= 100_000:
        raise UsageError(f"{command}: --worlds must be from 1 to 100000, not {args.worlds}")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"{command}: --jobs must be at least 1, not {args.jobs}")
    store = SaveStore(Path(args.dir).expanduser() if args.dir is not None else None)
    try:
        match_id = store.resolve(args.match)
        loaded = store.load(match_id)
    except ValueError as error:
        raise UsageError(f"{command}: {error}") from None
    except SaveError as error:
        print(f"{command}: {error}", file=sys.stderr)
        return 1
    match = loaded.record.match
    if args.seat is not None and not 1 <= args.seat <= match.players:
        raise UsageError(f"{command}: --seat must be from 1 to {match.players} for this match, not {args.seat}")
    if loaded.notice:
        print(f"{command}: note: {loaded.notice}", file=sys.stderr)
    settings = ReviewSettings(args.budget, args.seed, args.worlds)
    seats = None if args.seat is None else [args.seat - 1]
    session = ReviewSession(match, match_id, store.review_path(match_id), settings, seats, args.jobs)
    bar = ProgressBar(sys.stderr) if not args.json and sys.stderr.isatty() else None
    try:
        session.run(bar.update if bar is not None else None)
    except KeyboardInterrupt:
        if bar is not None:
            bar.clear()
        weighed = len(session.decisions) - len(session.missing)
        print(
            f"{command}: stopped; {weighed} of {len(session.decisions)} decisions are weighed and kept for next time",
            file=sys.stderr,
        )
        return 130
    except ReviewError as error:
        if bar is not None:
            bar.clear()
        print(f"{command}: {error}", file=sys.stderr)
        return 1
    if bar is not None:
        bar.clear()
    for notice in session.notices:
        print(f"{command}: note: {notice}", file=sys.stderr)
    report = session.report()
    print(json.dumps(report, indent=2) if args.json else format_review(report, settings))
    return 0


class ProgressBar:
    """One line on a terminal, redrawn in place: how many decisions are weighed, and the time left."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.started = time.monotonic()

    def update(self, index: int, done: int, total: int) -> None:
        filled = BAR_WIDTH * done // max(1, total)
        elapsed = time.monotonic() - self.started
        left = elapsed / done * (total - done) if done else 0.0
        self.stream.write(
            f"\rreviewing [{'#' * filled}{'-' * (BAR_WIDTH - filled)}] {done}/{total} decisions, {left:.0f} s left  "
        )
        self.stream.flush()

    def clear(self) -> None:
        self.stream.write("\r" + " " * (BAR_WIDTH + 50) + "\r")
        self.stream.flush()


def format_review(report: dict[str, Any], settings: Any) -> str:
    from core import get_game
    from core.review.verdicts import VERDICTS, unit

    game = get_game(report["game"])
    points = unit(game.name)
    effort = f"{settings.worlds} sampled deals a decision" if settings.worlds else f"{settings.budget:g} s a decision"
    lines = [f"Review of match {report['match']}: {game.title} ({effort}, seed {settings.seed}; losses in {points})"]
    for seat in report["seats"]:
        counts = " · ".join(f"{verdict} {seat['verdicts'][verdict]}" for verdict in VERDICTS)
        lines += [
            "",
            f"Seat {seat['seat']}, {seat['name']}: {seat['decisions']} decisions, mean loss {seat['mean_loss']:.2f}",
            f"  {counts}",
        ]
        for worst in seat["worst"]:
            where = f"event {worst['event']}, round {worst['round']}"
            lines.append(f"  worst: {decision_line(worst, where)}")
    current = None
    for decision in report["decisions"]:
        if decision["round"] != current:
            current = decision["round"]
            word = "Hand" if game.name == "moon" else "Round"
            lines += ["", f"{word} {current}"]
        where = f"{decision['event']:>4}. {decision['name']}"
        lines.append(f"  {decision_line(decision, where)}")
        if decision["verdict"] != "best" or decision["alternatives"] > 1:
            lines.append(f"        {decision['reason']}")
    if report.get("in_play"):
        note = report["in_play"]
        lines += ["", note[0].upper() + note[1:] + "."]
    return "\n".join(lines)


def decision_line(decision: dict[str, Any], where: str) -> str:
    """ "WHERE: Play 5-3 on train 2 · mistake, 4.20 (better: Play 5-5 on train 1)"."""
    line = f"{where}: {decision['move']} · {decision['verdict']}"
    if decision["verdict"] != "best":
        line += f", {decision['loss']:.2f} (better: {decision['best']})"
    elif decision["alternatives"] == 1:
        line += " (the only move)"
    return line
