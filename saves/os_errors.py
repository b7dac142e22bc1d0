"""An operating system error in words, naming a disk problem as one: a full disk is "the disk is
full", whatever the operation that ran into it (writing a save, making a socket, a sidecar)."""

from __future__ import annotations

import errno

DISK_ERRORS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EROFS: "the file system is read-only",
    errno.EIO: "the disk reported an input/output error",
}


def is_disk_error(error: OSError) -> bool:
    return error.errno in DISK_ERRORS


def os_error_text(error: OSError) -> str:
    """The disk's problem in words ("the disk is full"), or the system's own words for anything else."""
    words = DISK_ERRORS.get(error.errno)  # type: ignore[arg-type]
    return words or error.strerror or str(error) or type(error).__name__
