"""The `dominoes` entry point: a command line to its command (parsed by `cli.parser`).

`dominoes` alone opens the interface; subcommands run without it (and without importing Textual,
so they start fast). A bad argument prints one line and exits with status 2; a reader that stops
reading (`dominoes saves | head`) ends any command quietly, with the status a shell expects (141).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from cli.output import CLOSED_PIPE_STATUS, discard_output
from cli.usage import PROG, UsageError


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
        if not (sys.argv[1:] if argv is None else argv):
            from cli.interface import run_app  # `dominoes` alone: no parser, no command modules

            return run_app()
        from cli.parser import build_parser

        args = build_parser().parse_args(argv)
        args.own_process = argv is None  # run as the program itself, not called by another one (tests)
        if args.version:
            from tui import __version__

            print(f"{PROG} {__version__}")
            return 0
        if args.resume is not None:
            if args.command is not None:
                raise UsageError(f"{PROG}: --resume opens the interface and takes no command ({args.command})")
            from cli.play_commands import run_resume

            return run_resume(args.resume)
        if args.command is None:
            from cli.interface import run_app

            return run_app()
        return args.run(args)
    except UsageError as error:
        print(error, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
