"""Where a table is: `HOST:PORT` (TCP) or the path of a Unix socket, and how to listen or connect there."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Address:
    """A TCP address (`host`, `port`) or a Unix socket (`path`)."""

    host: str | None = None
    port: int | None = None
    path: str | None = None

    @property
    def is_unix(self) -> bool:
        return self.path is not None

    def __str__(self) -> str:
        if self.path is not None:
            return self.path
        host = f"[{self.host}]" if self.host and ":" in self.host else self.host
        return f"{host}:{self.port}"


def tcp(host: str, port: int) -> Address:
    if not 0 <= port <= 65535:
        raise ValueError(f"a port is a number from 0 to 65535, not {port}")
    return Address(host=host, port=port)


def unix(path: str) -> Address:
    if not path or "\0" in path:
        raise ValueError(f"{path!r} is not a socket path")
    return Address(path=path)


def parse_address(text: str) -> Address:
    """`HOST:PORT`, `[IPv6]:PORT`, or a path with a `/` in it (a Unix socket); ValueError otherwise."""
    text = text.strip()
    if "/" in text:
        return unix(text)
    host, sep, port = text.rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if sep and host and port.isdigit() and port.isascii():
        return tcp(host, int(port))
    raise ValueError(f"an address is HOST:PORT or the path of a Unix socket (with a /), not {text!r}")


async def open_connection(address: Address) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    if address.path is not None:
        return await asyncio.open_unix_connection(address.path)
    return await asyncio.open_connection(address.host, address.port)


async def start_server(handler: Handler, address: Address) -> tuple[asyncio.Server, Address]:
    """Listen at `address`; the server and the address really bound (port 0 gets a free port).
    OSError (EADDRINUSE) for a Unix socket where a server answers: asyncio would quietly take the
    path from it (a socket file nobody answers at is taken over)."""
    if address.path is not None:
        if await _answers(address.path):
            raise OSError(errno.EADDRINUSE, "another server is listening there")
        server = await asyncio.start_unix_server(handler, address.path)
        return server, address
    server = await asyncio.start_server(handler, address.host, address.port)
    port = server.sockets[0].getsockname()[1]
    return server, Address(host=address.host, port=port)


async def _answers(path: str) -> bool:
    """Whether a server accepts connections on the Unix socket at `path`."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.setblocking(False)
    try:
        await asyncio.wait_for(asyncio.get_running_loop().sock_connect(probe, path), 2.0)
    except TimeoutError:
        return True  # a server too busy to take one more connection at once is there all the same
    except OSError:
        return False
    finally:
        with contextlib.suppress(OSError):
            probe.close()
    return True
