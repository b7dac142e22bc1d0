"""The manual builds as a site (MkDocs with Material) with nothing broken: a link to a page or an
anchor that is not there, a page left out of the navigation, or a missing snippet fails the build."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config), "--site-dir", str(site)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_manual_builds_strictly_with_every_page(tmp_path):
    done = build(ROOT / "mkdocs.yml", tmp_path / "site")
    assert done.returncode == 0, done.stderr
    pages = {path.relative_to(ROOT / "docs").with_suffix("").as_posix() for path in (ROOT / "docs").glob("*.md")}
    built = {page for page in pages if (tmp_path / "site" / ("" if page == "index" else page) / "index.html").exists()}
    assert built == pages
    # The home page carries the README's quick start, word for word.
    assert "web-invite" in (tmp_path / "site" / "index.html").read_text()


def test_a_broken_link_fails_the_build(tmp_path):
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs)
    with (docs / "saves.md").open("a") as page:
        page.write("\nSee [a page that is not there](no-such-page.md).\n")
    config = tmp_path / "mkdocs.yml"
    config.write_text((ROOT / "mkdocs.yml").read_text().replace("docs_dir: docs", f"docs_dir: {docs}"))
    done = build(config, tmp_path / "site")
    assert done.returncode != 0
    assert "no-such-page.md" in done.stderr
