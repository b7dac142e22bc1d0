"""The load runs of the front doors (bench/ssh_load.py, bench/web_load.py), warm and --spawn side by
side: a tiny one by default (a login and 2 sessions idle and watching for a few seconds on each); the
full one (6 logins, 12 idle, 20 watching for a minute) when DOMINOES_SSH_LOAD=1 or DOMINOES_WEB_LOAD=1.
And the memory a forked session makes its own (bench/session_memory.py), once, briefly."""

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
def test_every_session_of_the_load_run_keeps_playing_warm_and_spawned(bench, full):
    big = os.environ.get(full) == "1"
    logins, idle, sessions, seconds = (6, 12, 20, 60) if big else (1, 2, 2, 4)
    every, stall = (5, 15) if big else (1, 3)
    command = [sys.executable, str(ROOT / "bench" / bench), "--logins", str(logins), "--idle", str(idle)]
    command += ["--sessions", str(sessions), "--seconds", str(seconds), "--every", str(every), "--stall", str(stall)]
    command += ["--json"] + (["--no-browser"] if bench == "web_load.py" and not big else [])
    result = subprocess.run(command, capture_output=True, text=True, timeout=2 * seconds + 300, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert len(report["cold_lobby_seconds"]) == logins
    for door in ("warm", "spawn"):
        figures = report["doors"][door]
        assert len(figures["login_seconds"]) == logins and all(value > 0 for value in figures["login_seconds"])
        assert figures["idle"]["measured_sessions"] == idle  # a session's processes for each player in the lobby
        assert figures["idle"]["tree_pss_mib_per_session"] > 0
        watched = figures["watch"]
        assert watched["alive"] == sessions and watched["failed"] == []
        assert watched["measured_sessions"] == sessions  # one lobby process per session, each measured
        assert all(rss > 0 for rss in watched["session_rss_mib"])
        assert all(rate > 0 for rate in watched["writes_per_s"])  # every terminal kept receiving frames
    assert report["doors"]["warm"]["idle"]["zygote_pss_mib"] > 0  # the warm server has its zygote
    assert report["doors"]["spawn"]["idle"]["zygote_pss_mib"] == 0  # --spawn has none


def test_the_memory_of_a_forked_session_is_measured_against_a_bare_apps():
    command = [sys.executable, str(ROOT / "bench" / "session_memory.py"), "--forks", "1", "--seconds", "1", "--json"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["zygote_private_mib"] > report["bare_private_mib"] > 0
    assert report["watching_private_mib"] > report["bare_private_mib"]  # bots and their table draw far more


def test_a_crowd_watching_one_table_leaves_the_seated_players_keys_answering():
    """bench/watchers.py, tiny: 3 watchers for a few seconds (DOMINOES_WATCHERS_LOAD=1: 200 for a minute)."""
    big = os.environ.get("DOMINOES_WATCHERS_LOAD") == "1"
    watchers, seconds = (200, 60) if big else (3, 6)
    command = [sys.executable, str(ROOT / "bench" / "watchers.py"), "--watchers", str(watchers)]
    command += ["--seconds", str(seconds), "--sign-ups", "1", "--think", "0.3", "--json"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=4 * seconds + 400, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["watchers_alive"] == report["watchers_drawing"] == watchers  # every watcher saw the table move
    assert report["table_updates"] > 0 and report["moves_played"] > 0
    assert report["keys_measured"] > 0 and report["key_to_frame_ms"]["p90"] > 0
    assert report["sessions_measured"] == watchers + 2 and report["session_pss_mib_median"] > 0
    assert len(report["sign_up_screen_s"]) == len(report["name_to_lobby_s"]) == 1
