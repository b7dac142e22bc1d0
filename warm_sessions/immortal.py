"""Immortal objects in a process that forks (CPython 3.12 and newer), so its children share its pages.

CPython writes an object's reference count whenever a reference to it is taken or dropped, so a
forked child copies every page holding an object it so much as reads: a class it instantiates, a
function it calls, a constant it loads. From 3.12 (PEP 683) an object whose count has the immortal
value is never counted: CPython skips the write, and never frees it. `immortalize()` gives that
value to every object the process can reach (what the collector tracks and everything those hold:
modules, classes, functions, code and its constants, strings, numbers), which is what PEP 683
describes for a process that prepares itself and then forks. It is for a process that has done
all its importing and will never need those objects freed: the warm session server, just before it
freezes the collector and starts forking.

Where objects cannot be made immortal (CPython 3.11, a free-threaded or debug build, another
Python) it changes nothing and says why. It tries the immortal count on an object of its own first
and goes on only if CPython then leaves that object's count alone.
"""

from __future__ import annotations

import ctypes
import gc
import sys
import sysconfig
import types
from dataclasses import dataclass


@dataclass(frozen=True)
class Immortalized:
    objects: int  # objects made immortal (0 where it could not be done)
    why_not: str = ""  # why nothing was done, if it was not


def immortal_count() -> tuple[int, str]:
    """The reference count of an immortal object in this Python, or (0, why not)."""
    if sys.implementation.name != "cpython" or sys.version_info < (3, 12):
        return 0, "objects are immortal only from CPython 3.12"
    if sysconfig.get_config_var("Py_GIL_DISABLED") or hasattr(sys, "getobjects"):
        return 0, "a free-threaded or debug build counts references otherwise"
    count = sys.getrefcount(None)  # None is immortal from 3.12, with the count every immortal has
    if count < 2**30:
        return 0, f"None's reference count ({count}) is not an immortal one"
    probe = [object()]
    cell = ctypes.c_ssize_t.from_address(id(probe))
    if cell.value != sys.getrefcount(probe) - 1:  # getrefcount's own argument is one more
        return 0, "the reference count is not where this Python keeps it"
    cell.value = count
    held = [probe] * 100
    counted = sys.getrefcount(probe) != count
    del held
    if counted or sys.getrefcount(probe) != count:
        return 0, "an object given the immortal count was still counted"
    return count, ""


def reachable() -> dict[int, object]:
    """Every object reachable from what the collector tracks and the loaded modules, by id."""
    found: dict[int, object] = {}
    todo: list[object] = [*gc.get_objects(), *sys.modules.values()]
    found[id(found)] = found[id(todo)] = None  # the walk's own, never to be immortal
    while todo:
        thing = todo.pop()
        if id(thing) in found:
            continue
        found[id(thing)] = thing
        if isinstance(thing, types.CodeType):  # not tracked, and the collector does not look inside it
            todo += (thing.co_consts, thing.co_names, thing.co_name, thing.co_qualname, thing.co_filename)
        elif isinstance(thing, type):
            todo += gc.get_referents(thing.__dict__)  # a built-in type's dictionary is not tracked either
        todo += gc.get_referents(thing)
    del found[id(found)], found[id(todo)]
    return found


def immortalize(found: dict[int, object] | None = None) -> Immortalized:
    """Make every reachable object immortal (those `found` by `reachable()`, if given); see the
    module's doc."""
    count, why_not = immortal_count()
    if not count:
        return Immortalized(0, why_not)
    found = reachable() if found is None else found
    made = 0
    for address, thing in found.items():
        if sys.getrefcount(thing) < count:
            ctypes.c_ssize_t.from_address(address).value = count
            made += 1
    return Immortalized(made)
