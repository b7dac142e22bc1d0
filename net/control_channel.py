"""The control channel between a door (`warm_sessions.session_fork`) and its warm session server
(`warm_sessions.zygote`): a Unix socket pair (SOCK_SEQPACKET), one JSON message a packet, descriptors passed
beside it, at most MAX_MESSAGE bytes a message."""

from __future__ import annotations

import contextlib
import json
import os
import socket
from collections.abc import Mapping, Sequence
from typing import Any

MAX_MESSAGE = 128 * 1024  # bytes of one control message (a session's environment is most of it)
ZYGOTE_NAME = "dominoes-zygote"  # the warm session server's process name, as ps and top show it


def send(channel: socket.socket, message: Mapping[str, Any], descriptors: Sequence[int] = ()) -> None:
    """One message, with descriptors passed beside it. OSError if the other end is gone (or, on a
    non-blocking channel, full: BlockingIOError)."""
    data = json.dumps(message, separators=(",", ":")).encode()
    if len(data) > MAX_MESSAGE:
        raise ValueError(f"a control message of {len(data)} bytes (at most {MAX_MESSAGE})")
    socket.send_fds(channel, [data], list(descriptors))


def receive(channel: socket.socket) -> tuple[dict[str, Any] | None, list[int]]:
    """The next message and the descriptors that came with it; None at the end (the other side
    closed). ValueError for a message that is not one (too long, not a JSON object): its
    descriptors are closed."""
    data, descriptors, flags, _ = socket.recv_fds(channel, MAX_MESSAGE, 2, socket.MSG_CMSG_CLOEXEC)
    if not data and not descriptors:
        return None, []
    try:
        if flags & (socket.MSG_TRUNC | socket.MSG_CTRUNC):
            raise ValueError("a control message was cut short")
        message = json.loads(data)
        if not isinstance(message, dict):
            raise ValueError("a control message is not an object")
    except ValueError:
        close_all(descriptors)
        raise
    return message, descriptors


def close_all(descriptors: Sequence[int]) -> None:
    for descriptor in descriptors:
        with contextlib.suppress(OSError):
            os.close(descriptor)
