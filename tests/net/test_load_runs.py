"""The load runs of the front doors (bench/ssh_load.py, bench/web_load.py): a tiny one by default (2
sessions for a few seconds); the full one (20 sessions for a minute) when DOMINOES_SSH_LOAD=1 or
DOMINOES_WEB_LOAD=1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.mark.parametrize(
    ("bench", "full"), [("ssh_load.py", "DOMINOES_SSH_LOAD"), ("web_load.py", "DOMINOES_WEB_LOAD")]
)
def test_every_session_of_the_load_run_keeps_playing(bench, full):
    sessions, seconds = (20, 60) if os.environ.get(full) == "1" else (2, 4)
    every, stall = (5, 15) if sessions == 20 else (1, 3)
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / bench), "--sessions", str(sessions), "--seconds", str(seconds)]
        + ["--every", str(every), "--stall", str(stall), "--json"],
        capture_output=True,
        text=True,
        timeout=seconds + 120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["alive"] == sessions and report["failed"] == []
    assert report["measured_sessions"] == sessions  # one lobby process per session, each measured
    assert all(rss > 0 for rss in report["session_rss_mib"])
    assert all(rate > 0 for rate in report["writes_per_s"])  # every terminal kept receiving frames
