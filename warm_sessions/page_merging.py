"""A prepared process's memory offered to the kernel's same-page merging (Linux's KSM), so that the
pages a forked session copies and then leaves as they were can be one copy again.

A session forked from the zygote copies every page it writes to, and on CPython 3.11 reading an
object writes to it: its reference count goes up and, once read, back down. So most of the pages a
session copies while it starts hold, once it is idle, the very bytes of the zygote's page, in every
session alike. Linux can find such pages and share them again, copy-on-write (KSM, "kernel
same-page merging"), but only in memory a process has offered it (`madvise(MADV_MERGEABLE)`) and
only while the machine's administrator has it running (`/sys/kernel/mm/ksm/run`, off by default).

`offer()` offers every private, writable, anonymous mapping of this process (the C heap and the
object allocator's arenas, where the imported objects are) and a fork inherits the offer, so each
session's copies of those pages are offered too. While KSM is off it changes nothing and costs
nothing. It is for the warm session server, just before it starts forking; QEMU offers its guests'
memory the same way by default.
"""

from __future__ import annotations

import ctypes
import sys
from dataclasses import dataclass
from pathlib import Path

MADV_MERGEABLE = 12  # <asm-generic/mman-common.h>, the same on every Linux architecture
KSM_RUN = Path("/sys/kernel/mm/ksm/run")


@dataclass(frozen=True)
class Offered:
    bytes: int  # the size of the mappings offered (0 where nothing could be)
    why_not: str = ""  # why nothing was offered, if it was not


def offer(maps: Path = Path("/proc/self/maps")) -> Offered:
    """Offer this process's private, writable, anonymous mappings to the kernel's same-page merging."""
    if not sys.platform.startswith("linux"):
        return Offered(0, "same-page merging is Linux's")
    try:
        lines = maps.read_text().splitlines()
    except OSError as error:
        return Offered(0, f"cannot read the process's mappings ({error.strerror or error})")
    libc = ctypes.CDLL(None, use_errno=True)  # the C library this process runs on: no ldconfig run to find it
    libc.madvise.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    offered, refused = 0, ""
    for start, end in private_anonymous(lines):
        if libc.madvise(start, end - start, MADV_MERGEABLE) == 0:
            offered += end - start
        else:
            refused = refused or f"the kernel refused ({ctypes.get_errno()}): is it built without KSM?"
    return Offered(offered, "" if offered else refused or "no private anonymous mapping to offer")


def private_anonymous(maps_lines: list[str]) -> list[tuple[int, int]]:
    """The (start, end) of each private, writable, anonymous mapping (the heap's included) that
    /proc/PID/maps lists: not a file's, not a stack's or the kernel's ([stack], [vvar], ...)."""
    found = []
    for line in maps_lines:
        fields = line.split()
        if len(fields) < 5 or fields[1][:2] != "rw" or fields[1][3:4] != "p":
            continue
        name = fields[5] if len(fields) > 5 else ""
        if name in ("", "[heap]"):
            start, end = (int(bound, 16) for bound in fields[0].split("-"))
            found.append((start, end))
    return found


def kernel_merging(run: Path = KSM_RUN) -> str:
    """Whether the kernel merges pages now: "running", "off", or "absent" (no KSM here)."""
    try:
        state = run.read_text().strip()
    except OSError:
        return "absent"
    return "running" if state == "1" else "off"
