"""The code stays `ruff check` and `ruff format` clean."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def ruff(*args: str) -> subprocess.CompletedProcess[str]:
    executable = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    return subprocess.run([executable, *args], cwd=ROOT, capture_output=True, text=True, check=False)


@pytest.mark.parametrize("command", [("check", "."), ("format", "--check", ".")])
def test_ruff(command):
    result = ruff(*command)
    assert result.returncode == 0, result.stdout + result.stderr
