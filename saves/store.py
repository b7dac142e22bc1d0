"""The save directory: one file per match, written atomically, the previous good save kept as `.bak`.

A write goes to a temporary file in the same directory, which is flushed and fsynced and then
renamed over the save (`os.replace`), and the directory is fsynced: a crash at any moment leaves the
old file or the new one, whole. Before the rename, the save being replaced becomes the backup if its
checksum is intact; loading falls back to the backup, with a notice, when the save is damaged.
"""

from __future__ import annotations

import os
import stat
import tempfile
import time
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from saves.codec import decode, encode
from saves.errors import SaveError
from saves.format import MAX_FILE_SIZE, intact
from saves.ids import ID_RULE, is_match_id
from saves.lock import MatchLock
from saves.os_errors import os_error_text
from saves.record import SavedMatch

HOME_VARIABLE = "DOMINOES_HOME"
SUFFIX = ".dominoes"
BACKUP_SUFFIX = SUFFIX + ".bak"
REVIEW_SUFFIX = ".review.json"  # a finished review of the match (saves/review_sidecar.py)
TEMP_SUFFIX = ".tmp"
STALE_TEMP_SECONDS = 3600  # a temporary file this old was left by a process that died mid-write


def default_save_dir() -> Path:
    """`$DOMINOES_HOME/saves` if the variable is set, else `saves` in the user data directory."""
    home = os.environ.get(HOME_VARIABLE)
    base = Path(home).expanduser() if home else Path(platformdirs.user_data_dir("dominoes", appauthor=False))
    return base / "saves"


@dataclass(frozen=True)
class Loaded:
    """A loaded save: the record, the file it came from, and a notice if that was the backup."""

    record: SavedMatch
    path: Path
    notice: str | None = None


class SaveStore:
    """The saves in one directory. `durable=False` skips the fsyncs (benchmarks only)."""

    def __init__(self, directory: Path | str | None = None, durable: bool = True) -> None:
        self.directory = Path(directory) if directory is not None else default_save_dir()
        self.durable = durable
        self._cleaned: set[str] = set()

    def path(self, match_id: str) -> Path:
        return self.directory / f"{match_id}{SUFFIX}"

    def backup_path(self, match_id: str) -> Path:
        return self.directory / f"{match_id}{BACKUP_SUFFIX}"

    def review_path(self, match_id: str) -> Path:
        return self.directory / f"{match_id}{REVIEW_SUFFIX}"

    # -- finding ---------------------------------------------------------------------------------
    def ids(self) -> list[str]:
        """The id of every saved match (also one whose only file left is its backup), sorted."""
        try:
            names = os.listdir(self.directory)
        except FileNotFoundError:
            return []
        except OSError as error:
            reason = f"the save directory cannot be read ({error.strerror or error})"
            raise SaveError(reason, str(self.directory)) from None
        ids = set()
        for name in names:
            if name.startswith("."):
                continue
            if name.endswith(BACKUP_SUFFIX):
                ids.add(name[: -len(BACKUP_SUFFIX)])
            elif name.endswith(SUFFIX):
                ids.add(name[: -len(SUFFIX)])
        return sorted(ids)

    def resolve(self, text: str) -> str:
        """The id that `text` names: an id, or a prefix of exactly one; ValueError otherwise."""
        ids = self.ids()
        if text in ids:
            return text
        matches = [match_id for match_id in ids if text and match_id.startswith(text)]
        if len(matches) == 1:
            return matches[0]
        if matches:
            shown = ", ".join(matches[:5]) + (", ..." if len(matches) > 5 else "")
            raise ValueError(f"{text!r} names more than one saved match ({shown}); give more of the id")
        raise ValueError(f"there is no saved match {text!r} in {self.directory}")

    # -- writing ---------------------------------------------------------------------------------
    def save(self, record: SavedMatch) -> Path:
        """Write `record` atomically, keeping the save it replaces as the backup if that one is intact."""
        match_id = record.match_id
        if not is_match_id(match_id):
            raise SaveError(f"{match_id!r} is not a match id ({ID_RULE})")
        data = encode(record)
        main = self.path(match_id)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            if match_id not in self._cleaned:
                self._remove_stale_temporaries(match_id)
                self._cleaned.add(match_id)
            previous = _read_regular(main) if main.exists() else None
            temporary = self._write_temporary(main.name, data)
            try:
                if previous is not None and intact(previous):
                    self._keep_as_backup(main, previous)
                os.replace(temporary, main)
            except BaseException:
                with suppress(OSError):
                    os.unlink(temporary)
                raise
            if self.durable:
                _fsync_directory(self.directory)
        except (OSError, SaveError) as error:
            reason = error.reason if isinstance(error, SaveError) else os_error_text(error)
            raise SaveError(f"match {match_id} could not be saved ({reason})", str(main)) from None
        return main

    def _write_temporary(self, name: str, data: bytes) -> str:
        descriptor, temporary = tempfile.mkstemp(dir=self.directory, prefix=f".{name}.", suffix=TEMP_SUFFIX)
        try:
            with os.fdopen(descriptor, "wb") as file:
                file.write(data)
                file.flush()
                if self.durable:
                    os.fsync(file.fileno())
        except BaseException:
            with suppress(OSError):
                os.unlink(temporary)
            raise
        return temporary

    def _keep_as_backup(self, main: Path, previous: bytes) -> None:
        """Make the current save the backup without a moment when either file is missing or partial."""
        backup = main.with_name(main.name[: -len(SUFFIX)] + BACKUP_SUFFIX)
        link = main.with_name(f".{main.name}.{os.getpid()}.bak{TEMP_SUFFIX}")
        with suppress(FileNotFoundError):
            os.unlink(link)
        try:
            os.link(main, link)  # a second name for the file already on disk: nothing to copy or sync
        except OSError:  # a file system without hard links: copy the bytes instead
            os.replace(self._write_temporary(main.name, previous), backup)
            return
        os.replace(link, backup)

    def _remove_stale_temporaries(self, match_id: str) -> None:
        prefix = f".{match_id}{SUFFIX}."
        cutoff = time.time() - STALE_TEMP_SECONDS
        for name in os.listdir(self.directory):
            if name.startswith(prefix) and name.endswith(TEMP_SUFFIX):
                path = self.directory / name
                with suppress(OSError):
                    if path.stat().st_mtime < cutoff:
                        path.unlink()

    def delete(self, match_id: str) -> list[Path]:
        """Remove a match's save, its backup and its review; the files removed. MatchInUse if a
        process has the match open."""
        removed = []
        with MatchLock.acquire(self.directory, match_id):
            for path in (self.path(match_id), self.backup_path(match_id), self.review_path(match_id)):
                try:
                    path.unlink()
                except FileNotFoundError:
                    continue
                except OSError as error:
                    raise SaveError(f"the file could not be deleted ({error.strerror or error})", str(path)) from None
                removed.append(path)
        if removed and self.durable:
            with suppress(OSError):
                _fsync_directory(self.directory)
        return removed

    # -- reading ---------------------------------------------------------------------------------
    def load(self, match_id: str) -> Loaded:
        """The saved match; its backup, with a notice, if the save is damaged or missing."""
        main, backup = self.path(match_id), self.backup_path(match_id)
        try:
            return Loaded(self.read(main, match_id), main)
        except SaveError as error:
            damage = error
        if not backup.exists():
            raise damage
        try:
            record = self.read(backup, match_id)
        except SaveError:
            raise SaveError(f"{damage.reason}, and its backup is damaged too", damage.path) from None
        problem = damage.reason if main.exists() else "the file is missing"
        notice = (
            f"the save of match {match_id} cannot be loaded: {problem}; "
            "its backup was loaded instead, so the last move may be missing"
        )
        return Loaded(record, backup, notice)

    def read(self, path: Path, match_id: str | None = None) -> SavedMatch:
        """The match in one file, which must hold `match_id` if given."""
        try:
            data = _read_regular(path)
        except FileNotFoundError:
            raise SaveError("there is no such file", str(path)) from None
        except OSError as error:
            raise SaveError(f"the file could not be read ({error.strerror or error})", str(path)) from None
        try:
            record = decode(data)
        except SaveError as error:
            raise error.at(path) from None
        if match_id is not None and record.match_id != match_id:
            reason = f"the file holds match {record.match_id}, not the match {match_id} its name says"
            raise SaveError(reason, str(path))
        return record


def _read_regular(path: Path) -> bytes:
    """The bytes of a regular file, at most one past the size cap (the cap is checked on decoding)."""
    # O_NONBLOCK: opening a named pipe left where a save should be must not wait for a writer.
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with os.fdopen(descriptor, "rb") as file:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise OSError(0, "not a regular file")
        return file.read(MAX_FILE_SIZE + 1)


def _fsync_directory(directory: Path) -> None:
    """Make the renames in `directory` durable (POSIX; elsewhere the rename is all there is)."""
    if os.name != "posix":
        return
    descriptor = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
