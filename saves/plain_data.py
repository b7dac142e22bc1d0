"""Checks shared by everything that decodes msgpack from outside (save files, network frames):
only plain data, not too deep, and a readable reason when msgpack itself refuses the bytes."""

from __future__ import annotations

from typing import Any

import msgpack

_SCALARS = (int, str, bool, type(None))


def kind_name(value: Any) -> str:
    return {
        dict: "map",
        list: "list",
        int: "number",
        str: "string",
        bool: "boolean",
        float: "floating-point number",
        bytes: "binary string",
        type(None): "nil",
    }.get(type(value), type(value).__name__)


def plain_data_problem(value: Any, max_depth: int) -> str | None:
    """None if `value` holds only maps with string keys, lists, ints, strings, booleans and nil, no
    deeper than `max_depth`; otherwise what is wrong, to end a sentence ("has a map key that is not
    a string"). Level by level, so no input can exhaust the interpreter's stack."""
    level = [value]
    depth = 0
    while level:
        depth += 1
        deeper: list[Any] = []
        for item in level:
            kind = type(item)
            if kind is dict:
                if any(type(key) is not str for key in item):
                    return "has a map key that is not a string"
                children = item.values()
            elif kind is list:
                children = item
            elif kind in _SCALARS:
                continue
            else:
                return f"holds a {kind_name(item)}"
            if depth > max_depth:
                return f"nests lists or maps deeper than {max_depth} levels"
            for child in children:
                if type(child) is not int:  # tiles and numbers are most of the data: skip them quickly
                    deeper.append(child)
        level = deeper
    return None


def msgpack_error_reason(error: Exception, whole: str) -> str:
    """Why msgpack refused the bytes, in a few words; `whole` names what was being read."""
    if isinstance(error, msgpack.ExtraData):
        return f"extra bytes after the {whole}"
    if isinstance(error, msgpack.StackError):
        return "nested too deeply"
    if isinstance(error, UnicodeDecodeError):
        return "a string is not valid UTF-8"
    text = str(error).strip()
    if not text or isinstance(error, msgpack.FormatError):
        return "a byte that starts no msgpack value"
    if text == "Unpack failed: incomplete input":
        return "it ends in the middle of a value"
    return text if len(text) <= 80 else text[:77] + "..."
