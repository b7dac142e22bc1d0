"""The doors hold against a crowd: with hundreds of half-open connections held from another address
and the server limited to 256 open files, a real player still signs in to the lobby, over the web
and over SSH, and the server's log stays a few counted lines, never a traceback
(bench/door_flood.py, which also times the sign-ins; the times are its report, not asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.mark.parametrize("door", ["web", "ssh"])
def test_a_player_signs_in_while_hundreds_of_half_open_connections_are_held(door):
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "door_flood.py"), "--door", door, "--connections", "300"]
        + ["--files", "256", "--tries", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    (report,) = json.loads(result.stdout)
    assert report["failures"] == [] and len(report["quiet_s"]) == len(report["flooded_s"]) == 1
    assert report["crowd_closed_by_server"] > 0  # the crowd was there, and crowded out only itself
    assert report["tracebacks"] == 0 and report["log_lines"] < 40  # one counted line a second at most
