"""The `dominoes` command line.

`dominoes` alone opens the interface; subcommands run without it (and without importing Textual,
so they start fast). A bad argument prints one line and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import Any, NoReturn

from core import GAME_NAMES, get_game
from core.bots import BOT_LEVELS, get_bot
from core.simulation import match_seed, new_summary, simulate_match

PROG = "dominoes"


class UsageError(Exception):
    """A bad command-line argument: reported in one line, exit status 2."""


class ArgumentParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(prog=PROG, description="Chicken Foot, Doubles and Three-player Moon in the terminal.")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

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
    simulate.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a rule option; repeatable"
    )
    simulate.add_argument("--json", action="store_true", help="print the summary as JSON")

    new = commands.add_parser("new", help="start a match at once", description="Start a match at once.")
    new.add_argument("game", help=f"one of: {', '.join(GAME_NAMES)}")
    new.add_argument("--players", type=int, help="number of players (default: the game's smallest table)")
    new.add_argument("--seats", help="human or bot per seat, comma-separated (default: seat 1 human, the others bots)")
    new.add_argument(
        "--bots",
        default="easy",
        help=f"level of each bot seat in turn, comma-separated, cycled (levels: {', '.join(BOT_LEVELS)})",
    )
    new.add_argument("--names", default="", help="player names, comma-separated")
    new.add_argument("--seed", type=int, help="seed of the deals (default: a random one, shown at the end)")
    new.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a rule option; repeatable")
    return parser


def parse_option_pairs(pairs: Sequence[str]) -> dict[str, str]:
    texts: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"{PROG}: --option takes NAME=VALUE, not {pair!r}")
        texts[name.strip()] = value
    return texts


def run_simulate(args: argparse.Namespace) -> int:
    try:
        game = get_game(args.game)
        players = game.min_players if args.players is None else game.check_players(args.players)
        options = game.resolve_options(players, game.parse_options(players, parse_option_pairs(args.option)))
        levels = [level.strip() for level in args.bots.split(",")]
        if args.matches < 1:
            raise ValueError(f"--matches must be at least 1, not {args.matches}")
        summary = new_summary(game.name, players, options, levels, args.seed)
    except ValueError as error:
        raise UsageError(f"{PROG} simulate: {error}") from None
    started = time.perf_counter()
    for index in range(args.matches):
        _, result = simulate_match(game.name, players, options, levels, match_seed(args.seed, index))
        summary.add(result)
    seconds = time.perf_counter() - started
    report = summary.as_dict(seconds)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(format_summary(report, game.option_specs))
    return 0


def format_summary(report: dict[str, Any], specs: Sequence[Any]) -> str:
    game = get_game(report["game"])
    options = ", ".join(f"{spec.name}={spec.format(report['options'][spec.name])}" for spec in specs)
    lines = [
        f"{game.title}: {report['matches']} matches, {report['players']} players, seed {report['seed']}",
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


def new_match_settings(args: argparse.Namespace) -> Any:
    """The settings `dominoes new` asks for; UsageError (one line) for anything wrong."""
    from tui.settings import build_settings  # no Textual here: a bad argument fails fast

    try:
        game = get_game(args.game)
        players = game.min_players if args.players is None else game.check_players(args.players)
        kinds = [word.strip() for word in args.seats.split(",")] if args.seats else ["human"] + ["bot"] * (players - 1)
        if len(kinds) != players:
            raise ValueError(f"--seats names {len(kinds)} seats for {players} players")
        levels = [level.strip() for level in args.bots.split(",") if level.strip()] or ["easy"]
        for level in levels:
            get_bot(level)  # ValueError naming the levels there are
        bot_seats = [i for i, kind in enumerate(kinds) if kind.lower() == "bot"]
        for n, seat in enumerate(bot_seats):
            kinds[seat] = f"bot:{levels[n % len(levels)]}"
        names = [name.strip() for name in args.names.split(",")] if args.names else []
        if len(names) > players:
            raise ValueError(f"--names gives {len(names)} names for {players} players")
        options = game.parse_options(players, parse_option_pairs(args.option))
        return build_settings(game.name, players, kinds, names, options, args.seed)
    except ValueError as error:
        raise UsageError(f"{PROG} new: {error}") from None


def run_app(args: argparse.Namespace, start: Any = None) -> int:
    from tui.app import DominoesApp  # Textual is imported only when the interface starts

    DominoesApp(start=start).run()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        if args.version:
            from tui import __version__

            print(f"{PROG} {__version__}")
            return 0
        if args.command == "simulate":
            return run_simulate(args)
        if args.command == "new":
            return run_app(args, new_match_settings(args))
        return run_app(args)
    except UsageError as error:
        print(error, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
