"""Decoding msgpack from outside (save files, network frames): msgpack's own bounds, no binary or
extension types, only plain data no deeper than a limit, and a readable reason for any refusal."""

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


class NotPlainData(ValueError):
    """Bytes refused by `unpack_plain`; the message ends a sentence about them ("is not valid
    msgpack (...)"). `decoded`: msgpack read them, but what they hold is not plain data."""

    def __init__(self, reason: str, decoded: bool) -> None:
        super().__init__(reason)
        self.decoded = decoded


def unpack_plain(data: bytes, *, whole: str, max_string: int, max_array: int, max_map: int, max_depth: int) -> Any:
    """Decode `data` (called `whole` in reasons) within the bounds given; NotPlainData otherwise."""
    try:
        value = msgpack.unpackb(
            data,
            raw=False,
            use_list=True,
            strict_map_key=True,
            max_str_len=max_string,
            max_bin_len=0,  # nothing read from outside holds binary strings
            max_ext_len=0,  # nor extension types (timestamps included)
            max_array_len=max_array,
            max_map_len=max_map,
        )
    except Exception as error:  # msgpack reports bad input with several exception types
        raise NotPlainData(f"is not valid msgpack ({msgpack_error_reason(error, whole)})", decoded=False) from None
    problem = plain_data_problem(value, max_depth)
    if problem is not None:
        raise NotPlainData(problem, decoded=True)
    return value
