"""What every command shares: the program name, the one-line usage error and `--option` pairs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

PROG = "dominoes"


class UsageError(Exception):
    """A bad command-line argument: reported in one line, exit status 2."""


def parse_option_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """`--option NAME=VALUE` arguments as a dict of texts; ValueError (one line) for a malformed one."""
    texts: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--option takes NAME=VALUE, not {pair!r}")
        texts[name.strip()] = value
    return texts


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a rule option; repeatable")
