"""Hot code, packed together in the warm session server before it forks.

CPython writes into a function's code object as it runs it (3.11 and newer specialize the bytecode
in place, counting as they go), so a session forked from the zygote copies every page holding code
it runs. After importing, those code objects are scattered among everything else the import made:
a session running about two thousand of them copied over a thousand pages. `pack` makes a new copy
of each code object a session runs, one after the other, and gives it to the functions that ran the
old one: the same code, now on a few hundred pages of their own. (The old ones are kept, so that no
hole opens where they were.)

Which code a session runs is the list `hot_code.txt` beside this module, one `module:qualname` a
line in the order a session first runs them: `python -m warm_sessions.hot_code --write` makes it anew by
running the lobby watching bots play at instant speed (as `bench/session_memory.py` does) and
noting every function that runs, as Android's zygote is given the list of classes to preload.
Names the list has that the code no longer has are passed over; a test says when too many are.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import re
import shutil
import sys
import tempfile
import types
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

LIST_NAME = "hot_code.txt"
MAX_LIST_BYTES = 1 << 20  # the list is some 100 KiB: refuse to read anything much larger
NAME = re.compile(r"^[\w.]+:[\w.<>]+$")  # module:qualname
RECORD_SECONDS = 8.0  # of bots watched while the list is made: rounds and matches of each game

_replaced: list[types.CodeType] = []  # the code objects `pack` made copies of: kept, so no hole opens


@dataclass(frozen=True)
class Packed:
    named: int  # names in the list
    found: int  # of those, names of code there is
    copied: int  # code objects made anew (those named, and those holding them)


def hot_names() -> list[str]:
    """The names in the package's list (none if it cannot be read)."""
    try:
        with resources.files("warm_sessions").joinpath(LIST_NAME).open("rb") as listed:
            data = listed.read(MAX_LIST_BYTES + 1)
    except OSError:
        return []
    if len(data) > MAX_LIST_BYTES:
        return []
    lines = data.decode("utf-8", "replace").splitlines()
    return [line for line in (line.strip() for line in lines) if NAME.match(line)]


def code_by_name() -> dict[str, list[types.CodeType]]:
    """Every function's code, and the code nested in it (inner functions, lambdas, comprehensions,
    classes), by `module:qualname`."""
    found: dict[str, list[types.CodeType]] = {}
    seen: set[int] = set()
    for function in gc.get_objects():
        if not isinstance(function, types.FunctionType):
            continue
        module = function.__module__ or "?"
        todo = [function.__code__]
        while todo:
            code = todo.pop()
            if id(code) in seen:
                continue
            seen.add(id(code))
            found.setdefault(f"{module}:{code.co_qualname}", []).append(code)
            todo += (constant for constant in code.co_consts if isinstance(constant, types.CodeType))
    return found


def pack(names: Iterable[str]) -> Packed:
    """Copy the code named (and every code object holding one) one after the other, and give the
    copies to the functions that ran the old ones; see the module's doc."""
    names = list(names)
    by_name = code_by_name()
    hot = [code for name in names for code in by_name.get(name, ())]
    holders: dict[int, list[types.CodeType]] = {}
    for codes in by_name.values():
        for code in codes:
            for constant in code.co_consts:
                if isinstance(constant, types.CodeType):
                    holders.setdefault(id(constant), []).append(code)
    renewed = {id(code) for code in hot}  # the hot code, and what holds it (the copies must hold the copies)
    todo = list(hot)
    while todo:
        for holder in holders.get(id(todo.pop()), ()):
            if id(holder) not in renewed:
                renewed.add(id(holder))
                todo.append(holder)
    copies: dict[int, types.CodeType] = {}

    def copy(code: types.CodeType) -> types.CodeType:
        if id(code) not in copies:
            constants = tuple(
                copy(constant) if isinstance(constant, types.CodeType) and id(constant) in renewed else constant
                for constant in code.co_consts
            )
            copies[id(code)] = code.replace(co_consts=constants)
            _replaced.append(code)
        return copies[id(code)]

    for code in hot:  # in the order a session first runs them: the hot ones side by side
        copy(code)
    for codes in by_name.values():
        for code in codes:
            if id(code) in renewed:
                copy(code)
    for function in gc.get_objects():
        if isinstance(function, types.FunctionType) and id(function.__code__) in copies:
            function.__code__ = copies[id(function.__code__)]
    return Packed(len(names), sum(1 for name in names if name in by_name), len(copies))


# -- making the list ---------------------------------------------------------------------------------
def record(seconds: float = RECORD_SECONDS) -> list[str]:
    """The names of the code a session runs, in the order it first runs it: the lobby at 80x24, w
    pressed, bots watched at instant speed for `seconds`, in a folder of nobody's."""
    from warm_sessions.zygote import preload

    preload()
    names = {id(code): name for name, codes in code_by_name().items() for code in codes}
    first_run: dict[str, None] = {}

    def note(frame: types.FrameType, event: str, argument: object) -> None:
        if event == "call":
            name = names.get(id(frame.f_code))
            if name is not None and not name.startswith(f"{__name__}:"):  # not this recording's own
                first_run.setdefault(name)

    with nobody_s_folders():
        sys.setprofile(note)
        try:
            asyncio.run(_watch_bots(seconds))
        finally:
            sys.setprofile(None)
    return list(first_run)


@contextlib.contextmanager
def nobody_s_folders() -> Iterator[None]:
    """The player's and the server's data in a temporary folder; the environment put back after."""
    from net.paths import SERVER_HOME_VARIABLE
    from saves.store import HOME_VARIABLE

    saved = {name: os.environ.get(name) for name in (HOME_VARIABLE, SERVER_HOME_VARIABLE)}
    folder = tempfile.mkdtemp(prefix="dominoes-hot-code-")
    try:
        os.environ.update(dict.fromkeys(saved, folder))
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        shutil.rmtree(folder, ignore_errors=True)


async def _watch_bots(seconds: float) -> None:
    import random

    from textual.drivers.headless_driver import HeadlessDriver

    from tui.lobby_app import LobbyApp
    from tui.preferences import Preferences

    class RenderedNowhere(HeadlessDriver):
        """Frames rendered as for a terminal (a headless driver renders none), written nowhere."""

        @property
        def is_headless(self) -> bool:
            return False

    app = LobbyApp("hot-code", preferences=Preferences(bot_speed="instant"))
    app.driver_class = RenderedNowhere
    app.rng = random.Random(1)  # the matches watched are nobody's: the same ones each time

    async def watch(pilot: object) -> None:
        await pilot.pause()  # type: ignore[attr-defined]
        await pilot.press("w")  # type: ignore[attr-defined]
        await asyncio.sleep(seconds)
        app.exit()

    await app.run_async(size=(80, 24), auto_pilot=watch)  # type: ignore[arg-type]


def lines(names: Iterable[str]) -> Iterator[str]:
    yield from (f"{name}\n" for name in names)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m warm_sessions.hot_code", description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"write the list to cli/{LIST_NAME}, not to the output")
    parser.add_argument("--seconds", type=float, default=RECORD_SECONDS, help="of bots watched (default %(default)g)")
    args = parser.parse_args(argv)
    names = record(args.seconds)
    if args.write:
        Path(__file__).with_name(LIST_NAME).write_text("".join(lines(names)), encoding="utf-8")
        print(f"{len(names)} names written to cli/{LIST_NAME}")
    else:
        sys.stdout.writelines(lines(names))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
