"""What CPython fills into an object on its first use, filled in before the warm server forks.

An object can be written to long after it is made, by CPython itself and not by any code that
changes it: a string stores its hash the first time it is hashed (a dictionary lookup by it, say),
a class gets its version tag (which the method cache and the specializing interpreter key on)
the first time one of its attributes is looked up that way, and a module's globals get the version
of their keys the first time the specializing interpreter looks a global up in them. A forked
session doing any of these to an object it shares with the zygote copies the page the object is
on; in a session watching bots, some four hundred pages. `settle()` does all three, for every
object it is given, in the zygote.
"""

from __future__ import annotations

import ctypes
import types
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Settled:
    hashed: int  # strings, bytes and frozensets whose hash is now stored
    tagged: int  # classes that now have a version tag
    versioned: int  # modules whose globals' keys now have a version


def _look_up_a_global() -> None:
    # Looked up, never called (a module may have a `len` of its own), eight times: the specializing
    # interpreter versions the keys from the second. A built-in, so both the globals' and the
    # built-ins' keys are versioned.
    for _ in (0, 1, 2, 3, 4, 5, 6, 7):
        len  # noqa: B018


def _version_globals(namespace: dict[str, object]) -> None:
    """Run a global lookup in `namespace` as its globals, writing nothing to it: a fresh copy of the
    code each time, so each copy specializes for its own namespace."""
    code = _look_up_a_global.__code__.replace()
    types.FunctionType(code, namespace)()


def _tagger() -> ctypes._CFuncPtr | None:
    """CPython's `PyUnstable_Type_AssignVersionTag` (3.12 and newer), or None."""
    try:
        assign = ctypes.pythonapi.PyUnstable_Type_AssignVersionTag
    except AttributeError:
        return None
    assign.argtypes = [ctypes.py_object]
    assign.restype = ctypes.c_int
    return assign


def settle(objects: Iterable[object]) -> Settled:
    """Store the hash of every string, bytes and frozenset among `objects`, tag every class, and
    version the keys of every module's globals."""
    assign = _tagger()
    hashed = tagged = versioned = 0
    for thing in objects:
        kind = type(thing)
        if kind is str or kind is bytes or kind is frozenset:
            try:
                hash(thing)
            except TypeError:  # a frozenset of something unhashable cannot be made, but be sure
                continue
            hashed += 1
        elif kind is types.ModuleType and type(namespace := vars(thing)) is dict:
            _version_globals(namespace)
            versioned += 1
        elif assign is not None and isinstance(thing, type) and assign(thing):
            tagged += 1
    return Settled(hashed, tagged, versioned)
