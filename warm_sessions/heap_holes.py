"""The free places in a prepared process's heap, taken up before it forks, so a child allocates afresh.

Importing leaves holes: blocks freed inside pages that stay in use. A forked child that allocates
an object into such a hole writes to a page it shares with its parent, and the kernel copies the
whole page for it. `fill()` takes up every free block of CPython's small-object allocator (the
blocks of 48 to 512 bytes its pools have free) and every free chunk of the C library's heap (glibc),
with blocks that are never used and never freed, so that a child's allocations land on pages of its
own from the start. Where the allocator is another (not CPython's, not glibc) it fills what it can
read and leaves the rest. It is for the warm session server, just before it starts forking.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import sys
import tempfile
from dataclasses import dataclass

ROUNDS = 4  # a round's own blocks can leave a few free blocks more: go again, a few times at most
BYTES_HEADER = sys.getsizeof(b"")  # a bytes object of n bytes asks the allocator for this plus n
SMALL_CLASS_ROW = re.compile(r"^\s+\d+\s+(\d+)\s+\d+\s+\d+\s+(\d+)\s*$", re.M)  # class, size, pools, in use, free
FREE_CHUNKS = re.compile(r'<size from="(\d+)" to="\d+" total="(\d+)" count="(\d+)"/>')

_kept: list[object] = []  # the filling: alive for good, and touched by no one


@dataclass(frozen=True)
class Filled:
    small_blocks: int  # free blocks of the small-object allocator taken up
    heap_chunks: int  # free chunks of the C library's heap taken up


def free_small_blocks() -> dict[int, int]:
    """The free blocks of CPython's small-object allocator, by size class (its own statistics)."""
    if not hasattr(sys, "_debugmallocstats"):
        return {}
    with tempfile.TemporaryFile() as report:
        saved = os.dup(2)
        try:
            os.dup2(report.fileno(), 2)  # it writes to the C library's standard error
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        report.seek(0)
        text = report.read(1 << 20).decode("ascii", "replace")
    return {int(size): int(free) for size, free in SMALL_CLASS_ROW.findall(text) if int(free)}


def fill_small_blocks() -> int:
    if BYTES_HEADER > 48:
        return 0
    taken = 0
    for _ in range(ROUNDS):
        free = {size: count for size, count in free_small_blocks().items() if size >= BYTES_HEADER}
        if not free:
            break
        blocks: list[object] = [None] * sum(free.values())  # made before the blocks, so it opens no hole of its own
        index = 0
        for size, count in free.items():
            for _ in range(count):
                blocks[index] = bytes(size - BYTES_HEADER)
                index += 1
        _kept.append(blocks)
        taken += index
    return taken


def _libc() -> ctypes.CDLL | None:
    """The C library this process runs on, if it is glibc."""
    with contextlib.suppress(OSError):
        libc = ctypes.CDLL(None)
        if all(hasattr(libc, symbol) for symbol in ("malloc_info", "open_memstream", "gnu_get_libc_version")):
            return libc
    return None


def free_heap_chunks(libc: ctypes.CDLL) -> list[tuple[int, int]]:
    """(size, count) of the free chunks in glibc's main heap, from its own report (malloc_info)."""
    buffer, length = ctypes.c_char_p(), ctypes.c_size_t()
    libc.open_memstream.restype = ctypes.c_void_p
    stream = libc.open_memstream(ctypes.byref(buffer), ctypes.byref(length))
    if not stream:
        return []
    libc.malloc_info(0, ctypes.c_void_p(stream))
    libc.fclose(ctypes.c_void_p(stream))
    try:
        text = ctypes.string_at(buffer, min(length.value, 1 << 20)).decode("ascii", "replace")
    finally:
        libc.free(buffer)
    main_heap = text.split('<heap nr="1">')[0]
    return [(int(total) // int(count), int(count)) for _, total, count in FREE_CHUNKS.findall(main_heap) if int(count)]


def fill_heap_chunks() -> int:
    libc = _libc()
    if libc is None:
        return 0
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = [ctypes.c_size_t]
    taken = 0
    for _ in range(ROUNDS):
        chunks = free_heap_chunks(libc)
        if not chunks:
            break
        pointers: list[object] = [None] * sum(count for _, count in chunks)
        index = 0
        for size, count in chunks:
            request = max(24, (size & ~15) - 8)  # a chunk of `size` holds this much: its header is 8 bytes
            for _ in range(count):
                pointers[index] = libc.malloc(request)
                index += 1
        _kept.append(pointers)
        taken += index
    return taken


def fill() -> Filled:
    """Take up the free places of both allocators; see the module's doc. The C library's first: what
    records its blocks takes small blocks, which are then taken up too."""
    chunks = fill_heap_chunks()
    return Filled(fill_small_blocks(), chunks)
