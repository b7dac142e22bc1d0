"""Dependencies point one way: cli -> tui -> net -> records -> saves -> core, with the bot processes (workers) used
by the interface and the table server and using only the engine. Save code never imports the
interface, and the engine never imports save code."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def imported_packages(package: str) -> set[str]:
    found = set()
    for path in (ROOT / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [
        ("tui", {"cli"}),
        ("net", {"tui", "textual", "cli"}),
        ("workers", {"tui", "net", "saves", "textual"}),
        ("records", {"tui", "net", "workers", "textual", "cli"}),
        ("saves", {"tui", "net", "workers", "textual", "records"}),
        ("core", {"saves", "tui", "net", "workers", "records"}),
    ],
)
def test_dependencies_point_one_way(package, forbidden):
    imported = imported_packages(package)
    assert "core" in imported or package == "core"
    assert not imported & forbidden
