"""The matches of a `bench/ismcts.py` run, kept as JSON lines so that a run of hours can stop and
go on later (in another session, on another day) and be reported again from the file alone.

The first line names the run: the game, its options, the budget, the seed of its deals and the
reference's settings. A run goes on only in a file that names the same run. Each further line is
one match: its deal, its rotation, its record and the simulations IS-MCTS ran at each decision.
A line cut short by a stopped run is dropped when the run goes on.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FORMAT = "dominoes-ismcts-run"
VERSION = 1
MOST_BYTES = 64 * 2**20  # a full 200-match Chicken Foot run is under 2 MiB


class RecordsError(Exception):
    """A records file that cannot be used, in one line."""


@dataclass(frozen=True)
class Played:
    deal: int
    rotation: int
    record: dict[str, Any]
    simulations: list[int]

    @staticmethod
    def of(deal: int, rotation: int, record: dict[str, Any], simulations: list[int]) -> Played:
        """A match just played, its times as the file keeps them (so a run reports the same
        figures as it plays and when read back): four decimals of a second keep a long run's file
        small."""
        seconds = [[level, round(seconds, 4)] for level, seconds in record["decision_seconds"]]
        return Played(deal, rotation, {**record, "decision_seconds": seconds}, simulations)

    def to_data(self) -> dict[str, Any]:
        return {"deal": self.deal, "rotation": self.rotation, "record": self.record, "simulations": self.simulations}


def _played(data: Any, players: int) -> Played:
    if not isinstance(data, dict):
        raise ValueError("a match is not an object")
    deal, rotation, record, simulations = (data.get(key) for key in ("deal", "rotation", "record", "simulations"))
    if not (isinstance(deal, int) and deal >= 0 and isinstance(rotation, int) and 0 <= rotation < players):
        raise ValueError("a match has no deal or rotation")
    if not isinstance(record, dict) or not isinstance(simulations, list):
        raise ValueError("a match has no record")
    if not all(isinstance(count, int) for count in simulations):
        raise ValueError("a match's simulations are not counts")
    levels, winners, scores, seconds = (
        record.get(key) for key in ("levels", "winners", "mean_round_scores", "decision_seconds")
    )
    if not (isinstance(levels, list) and len(levels) == players and all(isinstance(x, str) for x in levels)):
        raise ValueError("a match's levels are not one a seat")
    if not (isinstance(winners, list) and all(isinstance(x, int) and 0 <= x < players for x in winners)):
        raise ValueError("a match's winners are not seats")
    if not (isinstance(scores, list) and len(scores) == players and all(isinstance(x, int | float) for x in scores)):
        raise ValueError("a match's scores are not one a seat")
    if not (
        isinstance(seconds, list)
        and all(
            isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str) and isinstance(pair[1], int | float)
            for pair in seconds
        )
    ):
        raise ValueError("a match's decision times are not (level, seconds) pairs")
    return Played(deal, rotation, record, simulations)


def read(path: Path) -> tuple[dict[str, Any], list[Played], int]:
    """The run a file names, its matches in the order played, and the length of its whole lines
    (a line cut short at the end is not counted). Raises RecordsError, in one line."""
    try:
        size = path.stat().st_size
        if size > MOST_BYTES:
            raise RecordsError(f"{path} is {size} bytes, more than a run's records ({MOST_BYTES})")
        with path.open("rb") as file:
            text = file.read(MOST_BYTES + 1)
    except OSError as error:
        raise RecordsError(f"{path} cannot be read: {error.strerror or error}") from None
    whole = text[: text.rfind(b"\n") + 1]
    lines = whole.decode("utf-8", errors="replace").splitlines()
    try:
        header = json.loads(lines[0]) if lines else None
    except ValueError:
        header = None
    if not (isinstance(header, dict) and header.get("format") == FORMAT and isinstance(header.get("run"), dict)):
        raise RecordsError(f"{path} is not the records of a bench/ismcts.py run")
    if header.get("version") != VERSION:
        raise RecordsError(f"{path} is records of version {header.get('version')!r}; this bench reads {VERSION}")
    run = header["run"]
    players = run.get("players")
    if not isinstance(players, int) or not 2 <= players <= 8:
        raise RecordsError(f"{path} names no number of players")
    matches = []
    for number, line in enumerate(lines[1:], start=2):
        try:
            matches.append(_played(json.loads(line), players))
        except ValueError as error:
            raise RecordsError(f"{path}, line {number}: {error}") from None
    return run, matches, len(whole)


def differs(recorded: dict[str, Any], run: dict[str, Any]) -> str | None:
    """The first setting in which a recorded run is not this one, in words, or None."""
    for key in sorted(set(recorded) | set(run)):
        if recorded.get(key) != run.get(key):
            return f"{key} {recorded.get(key)!r}, not {run.get(key)!r}"
    return None


def open_run(path: Path, run: dict[str, Any]) -> list[Played]:
    """The matches already played of `run` in its file, which is begun when it does not exist.
    Raises RecordsError when the file is another run's, or damaged."""
    if not path.exists():
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("x", encoding="utf-8") as file:
                file.write(json.dumps({"format": FORMAT, "version": VERSION, "run": run}) + "\n")
        except OSError as error:
            raise RecordsError(f"{path} cannot be written: {error.strerror or error}") from None
        return []
    recorded, matches, whole = read(path)
    difference = differs(recorded, run)
    if difference is not None:
        raise RecordsError(f"{path} holds another run ({difference}): name a new file to begin this one")
    try:
        if path.stat().st_size != whole:
            os.truncate(path, whole)  # the line a stopped run was writing, cut short
    except OSError as error:
        raise RecordsError(f"{path} cannot be written: {error.strerror or error}") from None
    return matches


def append(path: Path, played: Played) -> None:
    """One more match, as one line written at once (a stop mid-line loses that match only)."""
    with path.open("a", encoding="utf-8") as file:
        file.write(json.dumps(played.to_data()) + "\n")
