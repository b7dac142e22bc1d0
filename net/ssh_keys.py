"""The SSH server's keys: its own host key (made on first start, then reused) and the client keys
it lets in. Every failure is a `KeyFileError` with a one-line reason."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import asyncssh

MAX_KEY_FILE = 1024 * 1024  # an authorized-keys or host-key file is a few kilobytes; refuse anything huge
HOST_KEY_ALGORITHM = "ssh-ed25519"


class KeyFileError(Exception):
    """A key file that is missing, unreadable, empty or damaged."""


def _read_bounded(path: Path, what: str) -> bytes:
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_KEY_FILE + 1)
    except FileNotFoundError:
        raise KeyFileError(f"the {what} file {path} does not exist") from None
    except IsADirectoryError:
        raise KeyFileError(f"the {what} file {path} is a directory") from None
    except OSError as error:
        raise KeyFileError(f"the {what} file {path} cannot be read ({error.strerror or error})") from None
    if len(data) > MAX_KEY_FILE:
        raise KeyFileError(f"the {what} file {path} is larger than {MAX_KEY_FILE // 1024} KiB")
    return data


def load_authorized_keys(path: Path) -> asyncssh.SSHAuthorizedKeys:
    """The public keys allowed in, from an OpenSSH authorized_keys file that holds at least one."""
    data = _read_bounded(path, "authorized-keys")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise KeyFileError(f"the authorized-keys file {path} is not text") from None
    if not any(line.strip() and not line.lstrip().startswith("#") for line in text.splitlines()):
        raise KeyFileError(f"the authorized-keys file {path} holds no keys")
    try:
        return asyncssh.import_authorized_keys(text)
    except (ValueError, asyncssh.KeyImportError) as error:
        raise KeyFileError(f"the authorized-keys file {path} cannot be read: {error}") from None


def load_or_create_host_key(path: Path) -> asyncssh.SSHKey:
    """The server's host key: read from `path`, or made (ed25519) and written there, readable by
    the owner only, the first time. Clients remember it, so it must stay the same across starts."""
    if not path.exists():
        _create_host_key(path)
    data = _read_bounded(path, "host key")
    try:
        return asyncssh.import_private_key(data)
    except (ValueError, asyncssh.KeyImportError) as error:
        raise KeyFileError(f"the host key file {path} cannot be read: {error}") from None


def _create_host_key(path: Path) -> None:
    key = asyncssh.generate_private_key(HOST_KEY_ALGORITHM, comment="dominoes host key")
    data = key.export_private_key()
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Created 0600 from the start: the private key is never readable by others, even briefly.
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        # A link, not a rename: if another server made the key meanwhile, its key wins and is used.
        with contextlib.suppress(FileExistsError):
            os.link(temporary, path)
    except OSError as error:
        raise KeyFileError(f"the host key cannot be written to {path} ({error.strerror or error})") from None
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink()
