"""`dominoes tournament`: duplicate matches between bot levels, with confidence intervals."""

from __future__ import annotations

import argparse
import json
import time
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
    tournament.add_argument("--budget", type=float, help="seconds per decision for searching bots (default: theirs)")
    add_option_argument(tournament)
    tournament.set_defaults(run=run)
    tournament.add_argument("--json", action="store_true", help="print the report as JSON")


def run(args: argparse.Namespace) -> int:
    from cli.parallel import map_in_processes
    from core.tournament import GameRecord, jobs, play_data, tally

    try:
        game = get_game(args.game)
        players = game.min_players if args.players is None else game.check_players(args.players)
        options = game.resolve_options(players, game.parse_options(players, parse_option_pairs(args.option)))
        if args.matches < 1:
            raise ValueError(f"--matches must be at least 1, not {args.matches}")
        if args.jobs < 1:
            raise ValueError(f"--jobs must be at least 1, not {args.jobs}")
        if args.budget is not None and not args.budget > 0:
            raise ValueError(f"--budget must be a positive number of seconds, not {args.budget}")
        work = jobs(
            game.name,
            players,
            dict(options),
            [b.strip() for b in args.bots.split(",")],
            args.matches,
            args.seed,
            args.budget,
        )
    except ValueError as error:
        raise UsageError(f"{PROG} tournament: {error}") from None
    started = time.perf_counter()
    records = [GameRecord.from_data(data) for data in map_in_processes(play_data, work, args.jobs)]
    seconds = time.perf_counter() - started
    report = {
        "game": game.name,
        "players": players,
        "matches": args.matches,
        "games": len(records),
        "seed": args.seed,
        "budget": args.budget,
        "options": dict(options),
        "seconds": seconds,
        "bots": [entry.report() for entry in tally(records).values()],
    }
    print(json.dumps(report, indent=2) if args.json else format_tournament(report))
    return 0


def format_tournament(report: dict[str, Any]) -> str:
    game = get_game(report["game"])
    lines = [
        f"{game.title}: {plural(report['matches'], 'duplicate set')} ({plural(report['games'], 'game')}), "
        f"{report['players']} players, "
        f"seed {report['seed']}",
        "",
        f"{'bot':<8}{'win rate':>10}{'95% interval':>18}{'mean score':>12}{'95% interval':>18}"
        f"{'decision median':>17}{'p95':>9}",
    ]
    for bot in report["bots"]:
        low, high = bot["win_rate_ci95"]
        score_low, score_high = bot["mean_score_ci95"]
        lines.append(
            f"{bot['bot']:<8}{bot['win_rate']:>10.1%}{f'{low:.1%} to {high:.1%}':>18}{bot['mean_score']:>12.2f}"
            f"{f'{score_low:.2f} to {score_high:.2f}':>18}{bot['decision_median_s'] * 1000:>14.1f} ms"
            f"{bot['decision_p95_s'] * 1000:>6.0f} ms"
        )
    lines += ["", f"{report['seconds']:.1f} s"]
    return "\n".join(lines)
