"""`dominoes simulate`: bot-only matches, summarised (and saved with --save-dir)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import Any

from cli.saves_command import open_save_dir, save_simulated
from cli.usage import PROG, UsageError, add_option_argument, parse_option_pairs
from core import GAME_NAMES, get_game
from core.bots import BOT_LEVELS
from core.words import plural
from saves.errors import SaveError


def add_parser(commands: Any) -> None:
    simulate = commands.add_parser(
        "simulate", help="play bot-only matches and summarise them", description="Play bot-only matches."
    )
    simulate.add_argument("--game", required=True, help=f"one of: {', '.join(GAME_NAMES)}")
    simulate.add_argument("--players", type=int, help="number of players (default: the game's smallest table)")
    simulate.add_argument("--matches", type=int, default=100, help="how many matches (default 100)")
    simulate.add_argument("--seed", type=int, default=1, help="seed of the whole run (default 1)")
    simulate.add_argument(
        "--bots",
        default="easy",
        help=f"bot level per seat, comma-separated, cycled over the seats (levels: {', '.join(BOT_LEVELS)})",
    )
    add_option_argument(simulate)
    simulate.set_defaults(run=run)
    simulate.add_argument("--save-dir", metavar="DIR", help="write every match as a save file in DIR")
    simulate.add_argument("--json", action="store_true", help="print the summary as JSON")


def run(args: argparse.Namespace) -> int:
    from core.simulation import match_seed, new_summary, simulate_match

    try:
        game = get_game(args.game)
        players = game.min_players if args.players is None else game.check_players(args.players)
        options = game.resolve_options(players, game.parse_options(players, parse_option_pairs(args.option)))
        levels = [level.strip() for level in args.bots.split(",")]
        if args.matches < 1:
            raise ValueError(f"--matches must be at least 1, not {args.matches}")
        summary = new_summary(game.name, players, options, levels, args.seed)
        store = open_save_dir(args.save_dir) if args.save_dir is not None else None
    except ValueError as error:
        raise UsageError(f"{PROG} simulate: {error}") from None
    started = time.perf_counter()
    saving = 0.0  # not counted in matches per second
    for index in range(args.matches):
        match, result = simulate_match(game.name, players, options, levels, match_seed(args.seed, index))
        summary.add(result)
        if store is not None:
            before = time.perf_counter()
            try:
                save_simulated(store, match)
            except SaveError as error:
                print(f"{PROG} simulate: {error}", file=sys.stderr)
                return 1
            saving += time.perf_counter() - before
    seconds = time.perf_counter() - started - saving
    report = summary.as_dict(seconds)
    if store is not None:
        report["save_dir"] = str(store.directory)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(format_summary(report, game.option_specs))
        if store is not None:
            print(f"saved {plural(args.matches, 'match')} in {store.directory}")
    return 0


def format_summary(report: dict[str, Any], specs: Sequence[Any]) -> str:
    game = get_game(report["game"])
    options = ", ".join(f"{spec.name}={spec.format(report['options'][spec.name])}" for spec in specs)
    lines = [
        f"{game.title}: {plural(report['matches'], 'match')}, {report['players']} players, seed {report['seed']}",
        f"options: {options}",
        "",
        f"{'seat':<6}{'bot':<10}{'wins':>6}{'win rate':>10}{'mean score/round':>18}",
    ]
    for seat in report["seats"]:
        lines.append(
            f"{seat['seat']:<6}{seat['bot']:<10}{seat['wins']:>6}{seat['win_rate']:>10.1%}"
            f"{seat['mean_score_per_round']:>18.2f}"
        )
    lines += ["", f"{'bot':<10}{'seats':>6}{'wins':>6}{'win rate':>10}{'mean score/round':>18}"]
    for bot in report["bots"]:
        lines.append(
            f"{bot['bot']:<10}{bot['seats']:>6}{bot['wins']:>6}{bot['win_rate']:>10.1%}"
            f"{bot['mean_score_per_round']:>18.2f}"
        )
    lines += [
        "",
        f"shared wins: {report['shared_wins']}",
        f"mean moves per match: {report['mean_moves_per_match']:.1f}",
        f"matches per second: {report['matches_per_second']:.2f}",
    ]
    return "\n".join(lines)
