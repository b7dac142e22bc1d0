"""What a session forked from a warm process runs: `dominoes ARGS` (`warm_sessions.zygote` is told
"cli.session_entry:run_session"). Importing this module imports every command's, so a zygote that
prepares itself with it leaves its sessions nothing to import for their command line."""

from __future__ import annotations

from collections.abc import Sequence

from cli.main import main
from cli.parser import command_modules

SESSION_ENTRY = f"{__name__}:run_session"

command_modules()


def run_session(arguments: Sequence[str]) -> int:
    return main(list(arguments))
