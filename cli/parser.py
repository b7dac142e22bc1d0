"""The parser of every command: the program's own options, and each command module's parser.

Its subclass of argparse's parser reports a bad argument as `UsageError` (one line, status 2), for
the subcommands' parsers too, which argparse makes of the same class."""

from __future__ import annotations

import argparse
from importlib import import_module
from types import ModuleType
from typing import NoReturn

from cli.usage import PROG, UsageError


class ArgumentParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


# Every command module: `add_parser(commands)` adds its parser(s), `run(args)` runs it. They are
# imported when a command line is parsed, not for `dominoes` alone, whose first frame waits for none.
COMMANDS = (
    "saves_command",
    "verify_command",
    "review_command",
    "stats_command",
    "simulate_command",
    "tournament_command",
    "rate_bots_command",
    "play_commands",
    "learn_command",
    "host_command",
    "join_command",
    "ssh_commands",
    "serve_web_command",
    "web_invite_command",
    "admin_command",
)


def command_modules() -> list[ModuleType]:
    return [import_module(f"cli.{name}") for name in COMMANDS]


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(prog=PROG, description="Chicken Foot, Doubles and Three-player Moon in the terminal.")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    parser.add_argument(
        "--resume",
        nargs="?",
        const="",
        metavar="MATCH",
        help="go on with a saved match (an id or the start of one; default: the latest unfinished match)",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in command_modules():
        module.add_parser(commands)
    return parser
