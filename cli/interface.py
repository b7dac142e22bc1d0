"""Opening the interface: `dominoes` alone, and every command that plays (`new`, `--resume`).

It imports only what the check for a terminal needs before Textual, so the title screen's first
frame waits for nothing the commands use (bench/startup.py)."""

from __future__ import annotations

from typing import Any

from cli.terminal import interface_status, require_terminal
from cli.usage import PROG


def run_app(start: Any = None, saved: Any = None, command: str = PROG) -> int:
    """Run the interface until it quits; its exit status. UsageError without a terminal."""
    require_terminal(command, hint=f" (bots play without one in `{PROG} simulate`)")
    from tui.app import DominoesApp  # Textual is imported only when the interface starts

    app = DominoesApp(start=start, saved=saved)
    app.run()
    return interface_status(app)  # an interface that stopped on an error: status 1
