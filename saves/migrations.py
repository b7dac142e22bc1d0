"""The version migration chain: bodies of older formats are upgraded one step at a time.

When the body changes, FORMAT_VERSION goes up by one and MIGRATIONS gains the step from the old
version: a function from a body of version n to a body of version n + 1. Loading runs every step
from the file's version to this one; a file from a newer version is refused, never guessed at.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from saves.errors import SaveError

FORMAT_VERSION = 2
FIRST_FORMAT_VERSION = 1

Body = dict[str, Any]
Migration = Callable[[Body], Body]


def secrets_and_marks(body: Body) -> Body:
    """Format 1 to 2: every format 1 match was dealt from its seed (chosen, or a number from 1 to
    999,999 drawn for it), so it keeps its seed, has no secret or commitment, and no undo of it is
    known to have gone back into a shown round."""
    if "seed" not in body:
        raise SaveError("the file's body has no 'seed' field")
    return {**body, "secret": None, "commitment": None, "undid_revealed_round": False}


# MIGRATIONS[n] turns a body of format n into one of format n + 1.
MIGRATIONS: Mapping[int, Migration] = {1: secrets_and_marks}


def migrate(
    body: Body,
    version: int,
    app_version: str = "",
    current: int = FORMAT_VERSION,
    chain: Mapping[int, Migration] = MIGRATIONS,
) -> Body:
    """`body`, written in format `version`, upgraded to format `current`."""
    if version > current:
        writer = f", dominoes {app_version}" if app_version else ""
        first = FIRST_FORMAT_VERSION
        reads = f"format {current}" if current == first else f"formats {first} to {current}"
        raise SaveError(f"written by a newer version (format {version}{writer}); this version reads {reads}")
    if version < FIRST_FORMAT_VERSION:
        raise SaveError(f"the file's header names format {version}, which never existed")
    for step in range(version, current):
        upgrade = chain.get(step)
        if upgrade is None:
            raise SaveError(f"there is no way to upgrade a format {step} save")
        try:
            body = upgrade(body)
        except SaveError:
            raise
        except Exception as error:  # a step meets a body it cannot read: that body is damaged
            raise SaveError(f"the format {step} body could not be upgraded ({error})") from None
    return body
