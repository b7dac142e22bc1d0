"""Save and load speed, and file size, for a complete ten-round 8-player Chicken Foot match.

    python bench/saves.py              # figures for people
    python bench/saves.py --json
    python bench/saves.py --dir DIR    # write the files in DIR (default: a new temporary directory)

Load: the whole check of a file read from disk (size cap, magic, checksum, bounded msgpack decode,
migrations) and the replay of every event through the engine. Autosave: encoding the match and
writing it atomically (temporary file, rename, backup link), timed without the fsyncs and with
them; the fsync cost depends on the disk and file system. Each figure is the median of many runs,
with the best run beside it (on a busy machine the best is the cost of the code itself).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import machine
from core.simulation import simulate_match
from saves.codec import encode
from saves.format import unpack_body, unwrap
from saves.record import SavedMatch
from saves.store import SaveStore

MATCH_ID = "bench-8-players"
SEED = 2026
TARGETS = {"load_ms": 50.0, "autosave_ms": 5.0, "size_bytes": 8 * 1024}


def timed_ms(action: Callable[[], object], runs: int) -> dict[str, float]:
    """The median and the best of `runs` runs, in milliseconds."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return {"median": statistics.median(times) * 1000, "best": min(times) * 1000}


class FsyncClock:
    """Wraps os.fsync to add up the time spent in it, so a durable save splits into its parts."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.real = os.fsync

    def __enter__(self) -> FsyncClock:
        def fsync(descriptor: int) -> None:
            started = time.perf_counter()
            try:
                self.real(descriptor)
            finally:
                self.seconds += time.perf_counter() - started

        os.fsync = fsync
        return self

    def __exit__(self, *exc: object) -> None:
        os.fsync = self.real


def measure(directory: Path, runs: int) -> dict[str, Any]:
    match, _ = simulate_match("chicken-foot", 8, {}, ["easy"], SEED)
    assert match.state.over and match.state.round == 10
    now = int(time.time())
    record = SavedMatch(MATCH_ID, match, now, now)
    data = encode(record)
    fast = SaveStore(directory, durable=False)
    durable = SaveStore(directory)
    durable.save(record)
    durable.save(record)  # a backup exists from now on, as in play
    assert durable.load(MATCH_ID).record.match == match
    figures = {
        "machine": machine(),
        "events": len(match.events),
        "size_bytes": len(data),
        "load_ms": timed_ms(lambda: durable.load(MATCH_ID), runs),
        "load_checks_ms": timed_ms(lambda: unpack_body(unwrap(data).body), runs),
        "encode_ms": timed_ms(lambda: encode(record), runs),
        "autosave_ms": timed_ms(lambda: fast.save(record), runs),
    }
    with FsyncClock() as fsyncs:
        figures["autosave_fsync_ms"] = timed_ms(lambda: durable.save(record), runs)
    figures["fsyncs_mean_ms"] = fsyncs.seconds / runs * 1000
    figures["targets"] = TARGETS
    return figures


def report(figures: dict[str, Any]) -> str:
    f = figures

    def row(label: str, key: str, target: str = "") -> str:
        return f"  {label:<30}{f[key]['median']:>8.2f} ms  (best {f[key]['best']:.2f} ms){target}"

    return "\n".join(
        [
            f"Saves: a complete ten-round 8-player Chicken Foot match, {f['events']} events ({f['machine']})",
            f"  {'file size':<30}{f['size_bytes']:>8} bytes (target under {TARGETS['size_bytes']})",
            row("load from disk, with replay", "load_ms", f"  target under {TARGETS['load_ms']:.0f} ms"),
            row("  of which checks and decode", "load_checks_ms"),
            row("autosave without the fsyncs", "autosave_ms", f"  target under {TARGETS['autosave_ms']:.0f} ms"),
            row("  of which encoding", "encode_ms"),
            row("autosave with the fsyncs", "autosave_fsync_ms"),
            f"  {'  of which the fsyncs (mean)':<30}{f['fsyncs_mean_ms']:>8.2f} ms",
            "  (median of the runs; best run in brackets)",
        ]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, help="where to write the files (default: a new temporary directory)")
    parser.add_argument("--runs", type=int, default=200, help="runs per figure (default 200)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        directory = args.dir or Path(scratch)
        figures = measure(directory, args.runs)
    print(json.dumps(figures, indent=2) if args.json else report(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
