"""The architecture as a contract ([tool.importlinter] in pyproject.toml): the front ends above warm
sessions, the interface, the network and the record, above the bot workers and saves, above the
engine; and the engine imports no Textual, event loop, database or file module. A change that
breaks a layer fails here, with the chain of imports that broke it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def lint(*arguments: str, cwd: Path = ROOT, path: Path | None = None) -> subprocess.CompletedProcess[str]:
    environment = {"PATH": str(LINT_IMPORTS.parent)}
    if path is not None:
        environment["PYTHONPATH"] = str(path)
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", *arguments], cwd=cwd, env=environment, capture_output=True, text=True
    )


def test_the_packages_keep_their_layers_and_the_engine_stays_pure():
    result = lint()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 kept, 0 broken" in result.stdout


def test_an_import_across_a_layer_is_named_by_the_check(tmp_path: Path):
    """The same kind of contract over two packages, the lower one importing the upper: broken, and
    the line says which import did it."""
    (tmp_path / "upper").mkdir()
    (tmp_path / "upper" / "__init__.py").write_text("")
    (tmp_path / "lower").mkdir()
    (tmp_path / "lower" / "__init__.py").write_text("")
    (tmp_path / "lower" / "rules.py").write_text("import upper\n")
    (tmp_path / ".importlinter").write_text(
        "[importlinter]\nroot_packages =\n    upper\n    lower\n\n"
        "[importlinter:contract:layers]\nname = upper above lower\ntype = layers\nlayers =\n    upper\n    lower\n"
    )
    result = lint(cwd=tmp_path, path=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "upper above lower BROKEN" in result.stdout
    assert "lower.rules -> upper" in result.stdout
