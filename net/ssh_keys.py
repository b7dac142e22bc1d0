"""The SSH server's keys: its own host key (made on first start, then reused; refused if others
may read it) and the client keys it lets in, each named for its player by the comment of its line
(the comment's first word). Every failure is a `KeyFileError` with a one-line reason."""

from __future__ import annotations

import contextlib
import os
import re
import stat
from pathlib import Path

from core.seats import check_name
from net.ssh_library import asyncssh

MAX_KEY_FILE = 1024 * 1024  # an authorized-keys or host-key file is a few kilobytes; refuse anything huge
HOST_KEY_ALGORITHM = "ssh-ed25519"
# `[options] TYPE BASE64 [comment]`: where the key ends and its comment begins, for a comment that
# asyncssh cannot read (it takes ASCII only, and a player's name may be José).
KEY_AND_COMMENT = re.compile(
    r"(?P<key>(?:^|.*?\s)(?:ssh|ecdsa|sk)-[\x21-\x7e]+\s+[A-Za-z0-9+/]+=*)(?:\s+(?P<comment>.*))?"
)


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


class PlayerKeys:
    """The authorized keys, by player: `keys_for(login)` is what a login under that SSH user name
    may authenticate with (the keys whose line names that player, in any case), and `name_of(login)`
    the player's name as the file writes it."""

    def __init__(self, players: dict[str, tuple[str, list[str]]]) -> None:
        self._lines = players  # casefolded name -> (the name as written, the key lines naming it)
        self._keys: dict[str, asyncssh.SSHAuthorizedKeys] = {}

    def __len__(self) -> int:
        return len(self._lines)

    def names(self) -> list[str]:
        return [name for name, _ in self._lines.values()]

    def name_of(self, login: str) -> str | None:
        found = self._lines.get(login.casefold())
        return found[0] if found is not None else None

    def keys_for(self, login: str) -> asyncssh.SSHAuthorizedKeys | None:
        """None for a login that no key names: every key is then refused, as an unknown one is."""
        key = login.casefold()
        if key not in self._lines:
            return None
        if key not in self._keys:
            self._keys[key] = asyncssh.import_authorized_keys("\n".join(self._lines[key][1]) + "\n")
        return self._keys[key]


def load_authorized_keys(path: Path) -> PlayerKeys:
    """The public keys allowed in, by player, from an OpenSSH authorized_keys file that holds at
    least one. Each key line's comment names its player (its first word, a valid player name):
    `ssh-ed25519 AAAA... alice`. A line without one, or a certificate authority, is refused."""
    data = _read_bounded(path, "authorized-keys")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise KeyFileError(f"the authorized-keys file {path} is not text") from None
    players: dict[str, tuple[str, list[str]]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        where = f"the authorized-keys file {path}, line {number}"
        comment = None
        if not line.isascii():  # the key as asyncssh reads it, and its comment as written
            found = KEY_AND_COMMENT.fullmatch(line.strip())
            if found is not None and found["key"].isascii():
                line, comment = found["key"], found["comment"] or ""
        try:
            entries = asyncssh.import_authorized_keys(line + "\n")
        except (ValueError, asyncssh.KeyImportError) as error:
            raise KeyFileError(f"{where} cannot be read: {error}") from None
        if entries._ca_entries or entries._x509_entries or len(entries._user_entries) != 1:
            raise KeyFileError(f"{where} is not a plain public key (certificate authorities are not taken)")
        if comment is None:
            comment = entries._user_entries[0].key.get_comment() or ""
        words = comment.split()
        try:
            name = check_name(words[0] if words else "")
        except ValueError as error:
            example = "ssh-ed25519 AAAA... alice"
            reason = f"the comment after the key must name its player ({error}): {example}"
            raise KeyFileError(f"{where}: {reason}") from None
        players.setdefault(name.casefold(), (name, []))[1].append(line)
    if not players:
        raise KeyFileError(f"the authorized-keys file {path} holds no keys")
    return PlayerKeys(players)


def load_or_create_host_key(path: Path) -> asyncssh.SSHKey:
    """The server's host key: read from `path`, or made (ed25519) and written there, readable by
    the owner only, the first time. Clients remember it, so it must stay the same across starts."""
    if not path.exists():
        _create_host_key(path)
    _check_private(path)
    data = _read_bounded(path, "host key")
    try:
        return asyncssh.import_private_key(data)
    except (ValueError, asyncssh.KeyImportError) as error:
        raise KeyFileError(f"the host key file {path} cannot be read: {error}") from None


def _check_private(path: Path) -> None:
    """A private key that others may read is no longer private: refuse it, and say how to fix it."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError as error:
        raise KeyFileError(f"the host key file {path} cannot be read ({error.strerror or error})") from None
    if mode & 0o077:
        raise KeyFileError(
            f"the host key file {path} can be read by others (mode {mode:04o}); "
            f"make it private (chmod 600 {path}), or make a new one if it may have been copied"
        )


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
