"""`hard` against OpenSpiel's Information-Set MCTS, on our engine, at equal time a decision.

    .venv/bin/pip install -e '.[bench]'   # once: brings OpenSpiel (open_spiel, imported as pyspiel)
    .venv/bin/python bench/ismcts.py --game doubles --matches 200 --budget 0.1
    .venv/bin/python bench/ismcts.py --game moon --matches 201 --budget 1 --jobs 2
    .venv/bin/python bench/ismcts.py --game chicken-foot --matches 200 --seeing   # the bound
    .venv/bin/python bench/ismcts.py --game doubles --budget 1 --record bench/runs/ismcts-doubles-1s.jsonl
    .venv/bin/python bench/ismcts.py --report bench/runs/ismcts-doubles-1s.jsonl

A run of hours can be kept in a file (`--record`): each match is added as it ends, and the same
command run again goes on from the matches the file holds (`bench/ismcts_records.py`). `--report`
reports a file's whole deals without playing.

The reference is OpenSpiel's IS-MCTS through `bench/ismcts_adapter.py` (our rules, our
determinization as its chance model, the same clock). The line-ups are the issue's: Doubles, two
players to 50, `hard` against one IS-MCTS; Moon, one `hard` against two; Chicken Foot, four
players, one `hard` against three. Deals are duplicate: each deal is played once in every rotation
of the line-up, so `hard` holds every seat's tiles in turn (200 matches of Doubles are 100 deals).

Reported, each with a 95% interval: `hard`'s share of the matches won (Doubles, Moon; a shared
win counts as a share), and in Chicken Foot the ratio of `hard`'s mean points a round to the
IS-MCTS players' (lower is better; the interval is a bootstrap over the deals). Also each side's
decision times against the budget, and the simulations IS-MCTS ran a decision.

IS-MCTS imagines the hidden tiles as the engine's `determinize` places them (any placement that
fits what its seat has seen); `--worlds hard` gives it the worlds `hard` imagines instead (fitted
to every draw and pass, or to the bids). Its playouts are random moves, as OpenSpiel's evaluator
plays; `--rollout policy` gives it `hard`'s playout policy instead. Its exploration constant is
OpenSpiel's examples' 2.0 (`--uct-c`), for returns scaled as `hard` scales them (about -1 to 1).

`--seeing` plays a `hard` that is shown every hand (the stock's order stays hidden): the bound on
what reading the others' hands could bring `hard` at the same time (in Doubles and Chicken Foot;
Moon's search draws its worlds its own way and has no such switch).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import ismcts_records
from bench.hidden_hand import SeeingHard
from bench.ismcts_records import Played, RecordsError
from bench.machine import machine
from cli.parallel import map_in_processes
from cli.usage import parse_option_pairs
from core.bots import Bot, get_bot
from core.match import Match
from core.registry import get_game
from core.simulation import match_seed
from core.tournament import GameRecord, Job, mean_interval, play, tally

REFERENCE = "ismcts"


@dataclass(frozen=True)
class Setup:
    players: int
    options: tuple[tuple[str, Any], ...]
    lineup: tuple[str, ...]
    measure: str  # "wins" or "points"
    target: float  # the issue's: at least this share won, or at most this ratio of points


SETUPS: dict[str, Setup] = {
    "doubles": Setup(2, (("target", 50),), ("hard", REFERENCE), "wins", 0.55),
    "moon": Setup(3, (), ("hard", REFERENCE, REFERENCE), "wins", 0.55),
    "chicken-foot": Setup(4, (), ("hard", REFERENCE, REFERENCE, REFERENCE), "points", 0.9),
}


def load_reference() -> Any:
    """The adapter module, or None when OpenSpiel is not installed."""
    try:
        from bench import ismcts_adapter
    except ImportError:
        return None
    return ismcts_adapter


@dataclass(frozen=True)
class Settings:
    rollout: str = "random"
    worlds: str = "engine"
    seeing: bool = False
    uct_c: float = 2.0


def seat_bots_for(settings: Settings, made: list[Any]) -> Callable[[Match, tuple[str, ...]], list[Bot]]:
    """The bots of a match's seats; the IS-MCTS players made are added to `made`."""
    adapter = load_reference()

    def seat_bots(match: Match, levels: tuple[str, ...]) -> list[Bot]:
        bots: list[Bot] = []
        for level in levels:
            if level == REFERENCE:
                made.append(
                    adapter.IsmctsPlayer(rollout=settings.rollout, worlds=settings.worlds, uct_c=settings.uct_c)
                )
                bots.append(made[-1])
            elif level == "hard" and settings.seeing:
                bots.append(SeeingHard(match))
            else:
                bots.append(get_bot(level))
        return bots

    return seat_bots


def game_options(game: str, options: dict[str, Any] | None) -> dict[str, Any]:
    """The setup's options with `options` over them, in name order."""
    return dict(sorted({**dict(SETUPS[game].options), **(options or {})}.items()))


def match_jobs(game: str, matches: int, seed: int, budget: float, options: dict[str, Any] | None = None) -> list[Job]:
    """Duplicate deals: each deal seed in every rotation of the line-up, `matches` in all (whole
    deals: rounded up to a multiple of the players). `options` change the game's from the setup's."""
    setup = SETUPS[game]
    deals = max(1, math.ceil(matches / setup.players))
    budgets = tuple(sorted({"hard": budget, REFERENCE: budget}.items()))
    chosen = tuple(game_options(game, options).items())
    return [
        Job(game, setup.players, chosen, setup.lineup, match_seed(seed, index), rotation, budgets)
        for index in range(deals)
        for rotation in range(setup.players)
    ]


def play_one(job: Job, settings: Settings) -> dict[str, Any]:
    """One match, as data: its record and the simulations IS-MCTS ran at each decision."""
    made: list[Any] = []
    record = play(job, seat_bots_for(settings, made)).to_data()
    return {"record": record, "simulations": [count for player in made for count in player.simulations]}


def points_ratio(records: Sequence[GameRecord], deals_of: Sequence[int], draws: int = 2000) -> dict[str, Any]:
    """`hard`'s mean points a round over the reference's, with a bootstrap interval over deals."""
    by_deal: dict[int, list[tuple[float, float]]] = {}
    for deal, record in zip(deals_of, records, strict=True):
        mine = [score for level, score in zip(record.levels, record.mean_round_scores, strict=True) if level == "hard"]
        theirs = [
            score for level, score in zip(record.levels, record.mean_round_scores, strict=True) if level == REFERENCE
        ]
        by_deal.setdefault(deal, []).append((statistics.fmean(mine), statistics.fmean(theirs)))
    deals = list(by_deal.values())

    def ratio(sample: Sequence[list[tuple[float, float]]]) -> float:
        pairs = [pair for deal in sample for pair in deal]
        return statistics.fmean(p[0] for p in pairs) / statistics.fmean(p[1] for p in pairs)

    rng = random.Random(0)
    estimates = sorted(ratio([deals[rng.randrange(len(deals))] for _ in deals]) for _ in range(draws))
    pairs = [pair for deal in deals for pair in deal]
    return {
        "ratio": ratio(deals),
        "ratio_ci95": (estimates[int(draws * 0.025)], estimates[int(draws * 0.975) - 1]),
        "hard_points_a_round": statistics.fmean(p[0] for p in pairs),
        "hard_points_ci95": mean_interval([p[0] for p in pairs]),
        "reference_points_a_round": statistics.fmean(p[1] for p in pairs),
        "reference_points_ci95": mean_interval([p[1] for p in pairs]),
    }


def quantile(ordered: Sequence[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else 0.0


def decision_report(seconds: Sequence[float], budget: float) -> dict[str, Any]:
    ordered = sorted(seconds)
    p99 = quantile(ordered, 0.99)
    return {
        "decisions": len(ordered),
        "median_s": statistics.median(ordered) if ordered else 0.0,
        "p99_s": p99,
        "max_s": ordered[-1] if ordered else 0.0,
        "p99_over_budget": p99 / budget,
    }


def report(
    game: str, options: dict[str, Any], deals_of: Sequence[int], records: Sequence[GameRecord], budget: float
) -> dict[str, Any]:
    """The figures of a run's matches; `deals_of` gives each record's deal."""
    setup = SETUPS[game]
    entries = tally(records)
    hard = entries["hard"].report()
    out: dict[str, Any] = {
        "game": game,
        "players": setup.players,
        "options": options,
        "lineup": list(setup.lineup),
        "matches": len(records),
        "deals": len(set(deals_of)),
        "budget_s": budget,
        "hard_win_rate": hard["win_rate"],
        "hard_win_rate_ci95": hard["win_rate_ci95"],
        "parity": 1 / setup.players,
        "hard_decisions": decision_report(entries["hard"].decisions, budget),
        "reference_decisions": decision_report(entries[REFERENCE].decisions, budget),
    }
    if setup.measure == "points":
        out.update(points_ratio(records, deals_of))
        out["target"] = f"ratio at most {setup.target}"
        out["met"] = out["ratio_ci95"][1] <= setup.target
    else:
        out["target"] = f"win rate at least {setup.target:.0%}"
        out["met"] = out["hard_win_rate"] >= setup.target
    return out


def print_report(result: dict[str, Any], seeing: bool) -> None:
    who = "hard (seeing every hand)" if seeing else "hard"
    low, high = result["hard_win_rate_ci95"]
    print(
        f"{result['game']}, {result['players']} players {result['options'] or ''}: {who} against OpenSpiel IS-MCTS,"
        f" {result['budget_s']:g} s a decision, {result['matches']} matches ({result['deals']} duplicate deals)"
    )
    print(
        f"  {who} wins {result['hard_win_rate']:.1%} ({low:.1%} to {high:.1%}) of its matches; parity"
        f" {result['parity']:.1%}"
    )
    if "ratio" in result:
        rlow, rhigh = result["ratio_ci95"]
        print(
            f"  points a round: {who} {result['hard_points_a_round']:.2f}, IS-MCTS"
            f" {result['reference_points_a_round']:.2f}: {result['ratio']:.2f}x theirs ({rlow:.2f} to {rhigh:.2f})"
        )
    for side, key in (("hard", "hard_decisions"), ("IS-MCTS", "reference_decisions")):
        d = result[key]
        print(
            f"  {side:8} decisions {d['decisions']:5}: median {d['median_s']:.3f} s, p99 {d['p99_s']:.3f} s"
            f" ({d['p99_over_budget']:.2f}x the budget), longest {d['max_s']:.3f} s"
        )
    if "simulations_median" in result:
        print(f"  IS-MCTS simulations a decision: median {result['simulations_median']:.0f}")
    print(f"  target ({result['target']}): {'met' if result['met'] else 'not met'}")


def progress(game: str, total: int, done: int = 0) -> Callable[[], None]:
    """A line on standard error as matches finish (a full run takes tens of minutes)."""
    started = time.perf_counter()
    count = done

    def report() -> None:
        nonlocal count
        count += 1
        print(f"{game}: {count} of {total} matches, {time.perf_counter() - started:.0f} s", file=sys.stderr)

    return report


def run_of(game: str, options: dict[str, Any], budget: float, seed: int, settings: Settings) -> dict[str, Any]:
    """What names a run in its records file: a run goes on only with all of these the same."""
    run = {"game": game, "players": SETUPS[game].players, "options": options, "budget_s": budget, "seed": seed}
    run |= {"rollout": settings.rollout, "worlds": settings.worlds, "uct_c": settings.uct_c, "seeing": settings.seeing}
    return json.loads(json.dumps(run))  # as it reads back from the file


def whole_deals(matches: Sequence[Played], players: int) -> list[Played]:
    """The matches of the deals played in every rotation (the first of any match played twice)."""
    first: dict[tuple[int, int], Played] = {}
    for played in matches:
        first.setdefault((played.deal, played.rotation), played)
    deals = {deal for deal, _ in first if all((deal, rotation) in first for rotation in range(players))}
    return [played for key, played in sorted(first.items()) if key[0] in deals]


def result_of(run: dict[str, Any], matches: Sequence[Played]) -> dict[str, Any]:
    """The report of a run's matches (whole deals only, so every seat's tiles were `hard`'s)."""
    game, players = run["game"], run["players"]
    kept = whole_deals(matches, players)
    if not kept:
        raise RecordsError("no deal has been played in every rotation yet: nothing to report")
    result = report(
        game,
        game_options(game, run["options"]),
        [played.deal for played in kept],
        [GameRecord.from_data(played.record) for played in kept],
        run["budget_s"],
    )
    result["simulations_median"] = statistics.median(count for played in kept for count in played.simulations)
    for key in ("rollout", "worlds", "uct_c", "seeing"):
        result["reference_worlds" if key == "worlds" else key] = run[key]
    result["matches_not_in_whole_deals"] = len(matches) - len(kept)
    return result


def play_run(
    game: str, options: dict[str, Any], args: argparse.Namespace, settings: Settings
) -> tuple[dict[str, Any], list[Played]]:
    """Play the run's matches, skipping those its records file (`--record`) already holds, and add
    each to the file as it finishes."""
    run = run_of(game, options, args.budget, args.seed, settings)
    jobs = match_jobs(game, args.matches, args.seed, args.budget, options)
    players = SETUPS[game].players
    wanted = {(index // players, job.rotation): job for index, job in enumerate(jobs)}  # by (deal, rotation)
    done: list[Played] = []
    if args.record:
        recorded = ismcts_records.open_run(args.record, run)
        done = [played for played in recorded if (played.deal, played.rotation) in wanted]
        print(f"{args.record}: {len(done)} of these {len(jobs)} matches played before", file=sys.stderr)
    for played in done:
        wanted.pop((played.deal, played.rotation), None)
    todo = list(wanted.items())
    tell = progress(game, len(jobs), len(done))
    played_now: list[Played] = []

    def finished(index: int, data: dict[str, Any]) -> None:
        (deal, rotation), _ = todo[index]
        played_now.append(Played.of(deal, rotation, data["record"], data["simulations"]))
        if args.record:
            ismcts_records.append(args.record, played_now[-1])
        tell()

    map_in_processes(lambda item: play_one(item[1], settings), todo, args.jobs, finished)
    return run, done + played_now


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=[*SETUPS, "all"], default="all")
    parser.add_argument("--matches", type=int, default=200, help="matches per game (whole duplicate deals)")
    parser.add_argument("--budget", type=float, default=0.1, help="seconds a decision, for both sides")
    parser.add_argument("--jobs", type=int, default=2, help="processes (one match each at a time)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rollout", choices=["random", "policy"], default="random", help="IS-MCTS's playouts")
    parser.add_argument(
        "--worlds", choices=["engine", "hard"], default="engine", help="how IS-MCTS imagines the hidden tiles"
    )
    parser.add_argument("--uct-c", type=float, default=2.0, help="IS-MCTS's exploration constant")
    parser.add_argument("--seeing", action="store_true", help="hard is shown every hand: the bound")
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a rule option (repeatable): rounds=2"
    )
    parser.add_argument(
        "--record", type=Path, metavar="FILE", help="keep each match in FILE, and go on from the matches it holds"
    )
    parser.add_argument("--report", type=Path, metavar="FILE", help="report a --record file's whole deals; no play")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.report:
        return report_file(args.report, args.json)
    if load_reference() is None:
        print("OpenSpiel is not installed: .venv/bin/pip install -e '.[bench]'", file=sys.stderr)
        return 2
    if args.matches < 1 or args.budget <= 0 or args.jobs < 1 or args.uct_c < 0:
        print("--matches and --jobs are at least 1, --budget is above 0 and --uct-c not below 0", file=sys.stderr)
        return 2
    games = list(SETUPS) if args.game == "all" else [args.game]
    if args.record and len(games) > 1:
        print("--record keeps one game's run: name it with --game", file=sys.stderr)
        return 2
    try:
        texts = parse_option_pairs(args.option)
        options = {game: get_game(game).parse_options(SETUPS[game].players, texts) for game in games}
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    if args.seeing and "moon" in games:
        if args.game == "moon":
            print("--seeing is for Doubles and Chicken Foot (Moon's search draws its own worlds)", file=sys.stderr)
            return 2
        games.remove("moon")
    settings = Settings(args.rollout, args.worlds, args.seeing, args.uct_c)
    results = []
    if not args.json:
        print(machine())
    for game in games:
        started = time.perf_counter()
        try:
            run, matches = play_run(game, options[game], args, settings)
            result = result_of(run, matches)
        except RecordsError as error:
            print(error, file=sys.stderr)
            return 2
        result["wall_s"] = time.perf_counter() - started
        results.append(result)
        if not args.json:
            print_report(result, args.seeing)
            print(f"  ({result['wall_s']:.0f} s on {args.jobs} processes)")
    if args.json:
        print(json.dumps(results, indent=2))
    return 0


def report_file(path: Path, as_json: bool) -> int:
    """`--report`: the report of the whole deals a records file holds, without playing."""
    try:
        run, matches, _ = ismcts_records.read(path)
        if run.get("game") not in SETUPS:
            raise RecordsError(f"{path} names no game of this bench")
        result = result_of(run, matches)
    except (RecordsError, KeyError, TypeError, ValueError) as error:
        message = error if isinstance(error, RecordsError) else f"{path} does not name a whole run ({error})"
        print(message, file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps([result], indent=2))
    else:
        print_report(result, result["seeing"])
        if left := result["matches_not_in_whole_deals"]:
            print(f"  ({left} more not counted: their deals are not yet in every rotation)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
