"""Work spread over forked processes, with results sent back as JSON (never pickled)."""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar

Item = TypeVar("Item")


def _worker(function: Callable[[Any], Any], items: Sequence[Any], offset: int, step: int, out: Connection) -> None:
    for index in range(offset, len(items), step):
        out.send_bytes(json.dumps([index, function(items[index])]).encode())
    out.close()


def map_in_processes(
    function: Callable[[Item], Any],
    items: Sequence[Item],
    processes: int,
    on_result: Callable[[int, Any], None] | None = None,
) -> list[Any]:
    """`[function(item) for item in items]`, computed by `processes` forked workers.

    Forking hands each worker the function and the items without serialising them; each result
    must be JSON data and travels back as JSON text. `on_result(index, result)` is called as each
    arrives, in the order they finish.
    """
    if processes <= 1 or len(items) <= 1:
        results = []
        for index, item in enumerate(items):
            results.append(json.loads(json.dumps(function(item))))
            if on_result:
                on_result(index, results[-1])
        return results
    context = multiprocessing.get_context("fork")
    readers: list[Connection] = []
    workers = []
    for offset in range(min(processes, len(items))):
        reader, writer = context.Pipe(duplex=False)
        worker = context.Process(target=_worker, args=(function, items, offset, processes, writer), daemon=True)
        worker.start()
        writer.close()
        readers.append(reader)
        workers.append(worker)
    results: list[Any] = [None] * len(items)
    received = 0
    while readers:
        for reader in wait(readers):
            try:
                index, value = json.loads(reader.recv_bytes())
            except EOFError:
                readers.remove(reader)  # type: ignore[arg-type]
                continue
            results[index] = value
            received += 1
            if on_result:
                on_result(index, value)
    for worker in workers:
        worker.join()
    if received != len(items):
        raise RuntimeError(f"a worker process stopped early ({received} of {len(items)} results)")
    return results
