"""`dominoes tournament`: duplicate matches between bot levels, with confidence intervals."""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from cli.usage import PROG, UsageError, add_option_argument, parse_option_pairs
from core import GAME_NAMES, get_game
from core.words import plural


def add_parser(commands: Any) -> None:
    tournament = commands.add_parser(
        "tournament",
        help="duplicate matches between bot levels, with confidence intervals",
        description="Duplicate matches: every deal is replayed with the line-up rotated through the seats.",
    )
    tournament.add_argument("--game", required=True, help=f"one of: {', '.join(GAME_NAMES)}")
    tournament.add_argument("--players", type=int, help="number of players (default: the game's smallest table)")
    tournament.add_argument("--bots", required=True, help="bot level per seat, comma-separated, cycled over the seats")
    tournament.add_argument(
        "--matches", type=int, default=100, help="duplicate sets (deal seeds) to play (default 100)"
    )
    tournament.add_argument("--seed", type=int, default=1, help="seed of the whole run (default 1)")
    tournament.add_argument("--jobs", type=int, default=1, help="processes to run in parallel (default 1)")
    tournament.add_argument(
        "--budget",
        action="append",
        default=[],
        metavar="[LEVEL=]SECONDS",
        help="seconds per decision: LEVEL=SECONDS for one level (repeatable), SECONDS for every level "
        "(default: each level's own)",
    )
    tournament.add_argument(
        "--worlds",
        action="append",
        default=[],
        metavar="[LEVEL=]N",
        help="at most N imagined deals per decision for a searching level (repeatable), N for every one",
    )
    add_option_argument(tournament)
    tournament.set_defaults(run=run)
    tournament.add_argument("--json", action="store_true", help="print the report as JSON")


def per_level(
    flag: str, texts: Sequence[str], levels: Sequence[str], read: Callable[[str], float | int], which: str, unit: str
) -> dict[str, Any]:
    """`--budget`/`--worlds` arguments as a value per level of the line-up: `LEVEL=VALUE` sets one
    level, a bare `VALUE` every level (later arguments win). ValueError in one line otherwise."""
    values: dict[str, Any] = {}
    for text in texts:
        level, sep, number = text.rpartition("=")
        level = level.strip()
        if sep and level not in levels:
            known = ", ".join(dict.fromkeys(levels))
            raise ValueError(f"{flag} {text!r}: {level or '(nothing)'} is not one of the {which} ({known})")
        try:
            value = read(number.strip())
        except ValueError:
            raise ValueError(f"{flag} takes [LEVEL=]{unit}, not {text!r}") from None
        for name in [level] if sep else levels:
            values[name] = value
    return values


def _seconds(text: str) -> float:
    value = float(text)
    if not (math.isfinite(value) and value > 0):
        raise ValueError(text)
    return value


def _count(text: str) -> int:
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


def run(args: argparse.Namespace) -> int:
    from cli.parallel import map_in_processes
    from core.bots import SEARCHING_LEVELS, get_bot
    from core.tournament import GameRecord, jobs, lineup, play_data, tally

    try:
        game = get_game(args.game)
        players = game.min_players if args.players is None else game.check_players(args.players)
        options = game.resolve_options(players, game.parse_options(players, parse_option_pairs(args.option)))
        if args.matches < 1:
            raise ValueError(f"--matches must be at least 1, not {args.matches}")
        if args.jobs < 1:
            raise ValueError(f"--jobs must be at least 1, not {args.jobs}")
        seats = lineup([b.strip() for b in args.bots.split(",")], players)
        levels = list(dict.fromkeys(seats))
        budgets = per_level("--budget", args.budget, levels, _seconds, "levels playing", "SECONDS (more than 0)")
        searching = [level for level in levels if level in SEARCHING_LEVELS]
        if args.worlds and not searching:
            raise ValueError("--worlds is for the searching levels (medium, hard), and none is playing")
        worlds = per_level(
            "--worlds", args.worlds, searching, _count, "searching levels playing", "N (a whole number from 1)"
        )
        work = jobs(game.name, players, dict(options), seats, args.matches, args.seed, budgets, worlds)
    except ValueError as error:
        raise UsageError(f"{PROG} tournament: {error}") from None
    started = time.perf_counter()
    records = [GameRecord.from_data(data) for data in map_in_processes(play_data, work, args.jobs)]
    seconds = time.perf_counter() - started
    bots = []
    for entry in tally(records).values():
        row = entry.report()
        searches = entry.level in SEARCHING_LEVELS
        row["budget_s"] = budgets.get(entry.level, get_bot(entry.level).default_budget) if searches else None
        row["worlds"] = worlds.get(entry.level) if searches else None
        bots.append(row)
    report = {
        "game": game.name,
        "players": players,
        "matches": args.matches,
        "games": len(records),
        "seed": args.seed,
        "options": dict(options),
        "seconds": seconds,
        "bots": bots,
    }
    print(json.dumps(report, indent=2) if args.json else format_tournament(report))
    return 0


def format_tournament(report: dict[str, Any]) -> str:
    """The report as two tables that fit 80 columns: results, then each level's decision times."""
    game = get_game(report["game"])
    lines = [
        f"{game.title}: {plural(report['matches'], 'duplicate set')} ({plural(report['games'], 'game')}), "
        f"{report['players']} players, seed {report['seed']}",
        "",
        f"{'bot':<8}{'win rate':>9}{'95% interval':>17}{'mean score':>12}{'95% interval':>18}",
    ]
    for bot in report["bots"]:
        low, high = bot["win_rate_ci95"]
        score_low, score_high = bot["mean_score_ci95"]
        lines.append(
            f"{bot['bot']:<8}{bot['win_rate']:>9.1%}{f'{low:.1%} to {high:.1%}':>17}"
            f"{bot['mean_score']:>12.2f}{f'{score_low:.2f} to {score_high:.2f}':>18}"
        )
    lines += ["", f"{'decisions':<10}{'budget':>10}{'worlds':>8}{'median':>11}{'p95':>11}{'count':>9}"]
    for bot in report["bots"]:
        budget = "-" if bot["budget_s"] is None else f"{bot['budget_s']:g} s"
        worlds = "-" if bot["worlds"] is None else str(bot["worlds"])
        lines.append(
            f"{bot['bot']:<10}{budget:>10}{worlds:>8}{bot['decision_median_s'] * 1000:>8.1f} ms"
            f"{bot['decision_p95_s'] * 1000:>8.1f} ms{bot['decisions']:>9,}"
        )
    lines += ["", f"{report['seconds']:.1f} s"]
    return "\n".join(lines)
