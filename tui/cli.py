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
from saves.errors import SaveError
from tui.host_command import add_host_parser, run_host
from tui.join_command import JoinUsageError, add_join_parser, run_join
from tui.saves_commands import add_saves_parser, open_save_dir, run_saves, save_simulated
from tui.ssh_commands import add_ssh_parsers, run_lobby, run_serve_ssh

# What a command needs beyond this is imported when the command runs: `dominoes` alone must show
# its first frame fast (bench/startup.py).

PROG = "dominoes"


class UsageError(Exception):
    """A bad command-line argument: reported in one line, exit status 2."""


class ArgumentParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(prog=PROG, description="Chicken Foot, Doubles and Three-player Moon in the terminal.")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    parser.add_argument(
        "--resume",
        nargs="?",
        const="",
        metavar="MATCH",
        help="go on with a saved match (an id or the start of one; default: the latest unfinished match)",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    add_saves_parser(commands)

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
    simulate.add_argument("--save-dir", metavar="DIR", help="write every match as a save file in DIR")
    simulate.add_argument("--json", action="store_true", help="print the summary as JSON")

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
    tournament.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a rule option; repeatable"
    )
    tournament.add_argument("--json", action="store_true", help="print the report as JSON")

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
    add_host_parser(commands)
    add_join_parser(commands)
    add_ssh_parsers(commands)
    return parser


def parse_option_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """`--option NAME=VALUE` arguments as a dict of texts; ValueError (one line) for a malformed one."""
    texts: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--option takes NAME=VALUE, not {pair!r}")
        texts[name.strip()] = value
    return texts


def run_simulate(args: argparse.Namespace) -> int:
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
            print(f"saved {args.matches} match{'es' if args.matches != 1 else ''} in {store.directory}")
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


def run_tournament(args: argparse.Namespace) -> int:
    from core.tournament import GameRecord, jobs, play_data, tally
    from tui.parallel import map_in_processes

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
        f"{game.title}: {report['matches']} duplicate sets ({report['games']} games), {report['players']} players, "
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


def resume_save(text: str) -> Any:
    """The save `--resume` names (the latest unfinished match for ""), loaded before Textual starts.
    UsageError for an id that names no match; SaveError for a match that cannot be loaded."""
    from saves.listing import entries, latest_unfinished
    from saves.store import SaveStore

    store = SaveStore()
    if not text:
        entry = latest_unfinished(entries(store))
        if entry is None:
            raise SaveError(f"there is no unfinished match to resume in {store.directory}")
        return entry.loaded
    try:
        match_id = store.resolve(text)
    except ValueError as error:
        raise UsageError(f"{PROG} --resume: {error}") from None
    return store.load(match_id)


def run_app(args: argparse.Namespace, start: Any = None, saved: Any = None) -> int:
    from tui.app import DominoesApp  # Textual is imported only when the interface starts

    DominoesApp(start=start, saved=saved).run()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        if args.version:
            from tui import __version__

            print(f"{PROG} {__version__}")
            return 0
        if args.resume is not None:
            if args.command is not None:
                raise UsageError(f"{PROG}: --resume opens the interface and takes no command ({args.command})")
            try:
                saved = resume_save(args.resume)
            except SaveError as error:
                print(f"{PROG} --resume: {error}", file=sys.stderr)
                return 1
            return run_app(args, saved=saved)
        if args.command == "saves":
            try:
                return run_saves(args)
            except ValueError as error:
                raise UsageError(str(error)) from None
        if args.command == "simulate":
            return run_simulate(args)
        if args.command == "tournament":
            return run_tournament(args)
        if args.command == "new":
            return run_app(args, new_match_settings(args))
        if args.command == "host":
            try:
                return run_host(args)
            except ValueError as error:
                raise UsageError(f"{PROG} host: {error}") from None
        if args.command == "join":
            try:
                return run_join(args)
            except JoinUsageError as error:
                raise UsageError(str(error)) from None
        if args.command == "serve-ssh":
            return run_serve_ssh(args, UsageError)
        if args.command == "lobby":
            return run_lobby(args, UsageError)
        return run_app(args)
    except UsageError as error:
        print(error, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
