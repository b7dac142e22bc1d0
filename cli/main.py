"""The `dominoes` entry point: the parser of every command, and the dispatch to its module.

`dominoes` alone opens the interface; subcommands run without it (and without importing Textual,
so they start fast). A bad argument prints one line and exits with status 2; a reader that stops
reading (`dominoes saves | head`) ends any command quietly, with the status a shell expects (141).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from cli import (
    host_command,
    join_command,
    learn_command,
    play_commands,
    rate_bots_command,
    review_command,
    saves_command,
    serve_web_command,
    simulate_command,
    ssh_commands,
    stats_command,
    tournament_command,
    verify_command,
    web_invite_command,
)
from cli.output import CLOSED_PIPE_STATUS, discard_output
from cli.usage import PROG, ArgumentParser, UsageError

# Every command module: `add_parser(commands)` adds its parser(s), `run(args)` runs it.
COMMANDS = (
    saves_command,
    verify_command,
    review_command,
    stats_command,
    simulate_command,
    tournament_command,
    rate_bots_command,
    play_commands,
    learn_command,
    host_command,
    join_command,
    ssh_commands,
    serve_web_command,
    web_invite_command,
)


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
    for module in COMMANDS:
        module.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        try:
            return run_command(argv)
        finally:
            sys.stdout.flush()  # here, where a closed pipe is caught, rather than at exit (--help too)
    except BrokenPipeError:
        discard_output()
        return CLOSED_PIPE_STATUS


def run_command(argv: Sequence[str] | None) -> int:
    try:
        args = build_parser().parse_args(argv)
        args.own_process = argv is None  # run as the program itself, not called by another one (tests)
        if args.version:
            from tui import __version__

            print(f"{PROG} {__version__}")
            return 0
        if args.resume is not None:
            if args.command is not None:
                raise UsageError(f"{PROG}: --resume opens the interface and takes no command ({args.command})")
            return play_commands.run_resume(args.resume)
        if args.command is None:
            return play_commands.run_app()
        return args.run(args)
    except UsageError as error:
        print(error, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
