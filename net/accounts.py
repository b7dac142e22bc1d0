"""The names of an open server's room: who signed up with which SSH key, who is banned.

`dominoes serve-ssh --open` lets in any key; a key that no file lists signs up by choosing a name,
and that name is bound to the key's SHA-256 fingerprint in `accounts.json` in the server's data
folder (0600, written atomically under a lock, so two sign-ups at once lose nothing). The same key
comes back as the same name; no other key can take it. `dominoes serve-web --open` keeps the names
browsers choose in the same book, as browser names (no key yet: the browser's session is their
credential); the owner of one may tie an SSH key to it later with a one-time code
(`net.link_codes`: `RoomBook.new_link_code` in the browser, `RoomBook.link_key` over SSH). Names are
compared as `canonical` makes them (Unicode NFKC, then case folding), so a look-alike (full-width
letters, another case) is the same name; the owner's names (the keys the owner lists, the names
invited to the web door), the bot levels' names and names that pass for the server (`admin`,
`server-1`, `Seat 2`), and names shaped like a link code, are refused.

A public room needs limits: at most `per_address` new names an hour from one address (an IPv6
address counted by its /64, as the doors count strangers; SSH and browser sign-ups together) and
`per_hour` from all, at most `max_accounts` names, and a name that has not finished a match within
`expire_days` of its sign-up is let go (someone else may take it). Bans are kept by name in the same
file: `dominoes admin` writes them, the door reads them (`RoomBook.bans`) and ends the sessions. So
are the link codes (their digests alone) and the last hour's wrong codes (`net.link_codes`).

The file is read within a size bound and checked entry by entry: anything malformed is skipped, so
a damaged file lets fewer people in, never more (a damaged ban list is the exception: it is kept as
it reads).
"""

from __future__ import annotations

import contextlib
import os
import re
import time
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from core.bots import BOT_LEVELS
from core.seats import MAX_NAME, check_name
from net.door_guard import address_key
from net.file_lock import exclusive
from net.link_codes import (
    FINGERPRINT,
    LIFETIME,
    MAX_ADDRESS,
    TOO_MANY,
    Failure,
    LinkCode,
    LinkRefused,
    code_digest,
    live_codes,
    looks_like_code,
    new_code,
    parse_codes,
    parse_failures,
    recent_failures,
    redeemable,
    too_many_failures,
    with_code,
)
from net.player_sessions import PLAYERS, safe_folder_name
from net.web_auth import invited_names
from saves.json_file import load_json_file, private_directory, write_json_file

T = TypeVar("T")
UNREADABLE = "the server cannot read its names"
ACCOUNTS = "accounts.json"
LOCK = ".accounts.lock"
MAX_FILE = 8 * 1024 * 1024  # some 40,000 names: far above any cap a room would set
MAX_KEYS = 8  # keys one name may have
HOUR = 3600.0
DAY = 24 * HOUR
# Names that would pass for the server or its keeper, or for a seat the tables name: refused whole,
# or as the start of a name (after dropping everything but letters), or as `seat` and a number.
RESERVED_WORDS = frozenset(
    {"root", "mod", "mods", "host", "owner", "system", "support", "staff", "bot", "bots", "nobody", "you", "guest"}
)
RESERVED_STARTS = ("admin", "server", "sysop", "moderator", "operator", "dominoes", "official")
SEAT_NAME = re.compile(r"seat\d*")
BANNED = "the keeper of this server has banned you"


def canonical(name: str) -> str:
    """The form two names are compared in: NFKC (compatibility forms, such as full-width letters and
    ligatures, as their plain letters), then case folded."""
    return unicodedata.normalize("NFKC", name.strip()).casefold()


def reserved_reason(name: str, owner_names: Iterable[str] = ()) -> str | None:
    """Why `name` cannot be signed up for (one line), if it is reserved."""
    form = canonical(name)
    if form in {canonical(owner) for owner in owner_names}:
        return f"{name} is taken"
    letters = "".join(c for c in form if c.isalnum())
    if form in BOT_LEVELS or letters in BOT_LEVELS:
        return f"{name} is the name of a bot level"
    only_letters = "".join(c for c in letters if c.isalpha())
    if letters in RESERVED_WORDS or only_letters.startswith(RESERVED_STARTS) or SEAT_NAME.fullmatch(letters):
        return f"{name} could be taken for the server or a seat; choose another"
    if looks_like_code(name):
        return f"{name} could be taken for a link code; choose another"
    return None


class SignUpRefused(Exception):
    """A name that cannot be signed up for, or no room for another one now: one line for the person.
    `limit`: refused by a limit on new names (not for the name itself)."""

    def __init__(self, message: str, limit: bool = False) -> None:
        super().__init__(message)
        self.limit = limit


class AccountError(Exception):
    """An admin's request that cannot be carried out (no such name, a name taken): one line."""


@dataclass(frozen=True)
class SignUpLimits:
    per_address: int = 3  # new names an hour from one address
    per_hour: int = 60  # ...and from all
    max_accounts: int = 10_000
    expire_days: float = 30.0  # a name with no finished match by then is let go

    def check(self) -> None:
        """ValueError (one line, naming the option) for a limit that makes no sense."""
        for option, value in (
            ("--sign-ups-per-address", self.per_address),
            ("--sign-ups-per-hour", self.per_hour),
            ("--max-accounts", self.max_accounts),
        ):
            if not 1 <= value <= 1_000_000:
                raise ValueError(f"{option} must be from 1 to 1000000, not {value}")
        if not 1 <= self.expire_days <= 3650:
            raise ValueError(f"--expire-days must be from 1 to 3650, not {self.expire_days:g}")

    def to_text(self) -> str:
        """For the sign-up in a session (`from_text`)."""
        return f"{self.per_address},{self.per_hour},{self.max_accounts},{self.expire_days:g}"

    @classmethod
    def from_text(cls, text: str | None) -> SignUpLimits:
        """The limits `to_text` wrote; the defaults for anything else."""
        try:
            per_address, per_hour, most, days = (text or "").split(",")
            limits = cls(int(per_address), int(per_hour), int(most), float(days))
            limits.check()
        except ValueError:
            return cls()
        return limits


@dataclass
class Account:
    name: str
    keys: list[str]
    created: float
    kept: bool = False  # has finished a match: never let go
    browser: bool = False  # chosen in a browser: kept with no key (its sessions are its credential)

    def as_data(self) -> dict[str, Any]:
        data = {"name": self.name, "keys": self.keys, "created": self.created, "kept": self.kept}
        if self.browser:  # written only when set: a book of key names reads as it always did
            data["browser"] = True
        return data


@dataclass
class Book:
    """What `accounts.json` holds, checked."""

    accounts: list[Account] = field(default_factory=list)
    bans: set[str] = field(default_factory=set)  # canonical names
    owners: set[str] = field(default_factory=set)  # canonical: the names the owner's files list (reserved)
    sign_ups: list[tuple[str, float]] = field(default_factory=list)  # (address, when), the last hour's
    links: list[LinkCode] = field(default_factory=list)  # one-time codes that tie a key to a browser name
    link_failures: list[Failure] = field(default_factory=list)  # wrong codes typed, the last hour's

    @classmethod
    def parse(cls, data: Any) -> Book:
        book = cls()
        if not isinstance(data, dict):
            return book
        seen: set[str] = set()
        taken_keys: set[str] = set()
        for entry in data.get("accounts", []) if isinstance(data.get("accounts"), list) else []:
            account = _account(entry)
            if account is None or canonical(account.name) in seen:
                continue
            account.keys = [key for key in account.keys if key not in taken_keys]
            if not account.keys and not account.browser:
                continue
            seen.add(canonical(account.name))
            taken_keys.update(account.keys)
            book.accounts.append(account)
        bans = data.get("bans", [])
        if isinstance(bans, list):
            book.bans = {ban for ban in bans if isinstance(ban, str) and 0 < len(ban) <= 4 * MAX_NAME}
        owners = data.get("owners", [])
        if isinstance(owners, list):
            book.owners = {owner for owner in owners if isinstance(owner, str) and 0 < len(owner) <= 4 * MAX_NAME}
        sign_ups = data.get("sign_ups", [])
        if isinstance(sign_ups, list):
            for entry in sign_ups:
                if (
                    isinstance(entry, list)
                    and len(entry) == 2
                    and isinstance(entry[0], str)
                    and len(entry[0]) <= MAX_ADDRESS
                    and type(entry[1]) in (int, float)
                ):
                    book.sign_ups.append((entry[0], float(entry[1])))
        book.links = parse_codes(data.get("links"))
        book.link_failures = parse_failures(data.get("link_failures"))
        return book

    def as_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": 1,
            "accounts": [account.as_data() for account in self.accounts],
            "bans": sorted(self.bans),
            "owners": sorted(self.owners),
            "sign_ups": [[address, when] for address, when in self.sign_ups],
        }
        if self.links:
            data["links"] = [code.as_data() for code in self.links]
        if self.link_failures:
            data["link_failures"] = [list(failure) for failure in self.link_failures]
        return data

    def find(self, name: str) -> Account | None:
        form = canonical(name)
        return next((account for account in self.accounts if canonical(account.name) == form), None)

    def of_key(self, fingerprint: str) -> Account | None:
        return next((account for account in self.accounts if fingerprint in account.keys), None)


def _account(entry: Any) -> Account | None:
    if not isinstance(entry, dict):
        return None
    name, keys, created = entry.get("name"), entry.get("keys"), entry.get("created")
    try:
        name = check_name(name)
    except ValueError:
        return None
    if not isinstance(keys, list) or type(created) not in (int, float):
        return None
    keys = [key for key in keys[:MAX_KEYS] if isinstance(key, str) and FINGERPRINT.fullmatch(key)]
    kept, browser = entry.get("kept") is True, entry.get("browser") is True
    return Account(name, list(dict.fromkeys(keys)), float(created), kept, browser)


def address_of(address: str) -> str:
    """Where a sign-up came from, as the limits count it: the address as the doors count strangers."""
    return address_key(address)[:MAX_ADDRESS]


def has_finished_match(home: Path, most: int = 200) -> bool:
    """Whether the player's folder holds a finished match (looking at `most` saves at most)."""
    from saves.errors import SaveError
    from saves.store import SaveStore

    store = SaveStore(home / "saves")
    try:
        ids = store.ids()[:most]
    except (OSError, SaveError):
        return False
    for match_id in ids:
        try:
            if store.load(match_id).record.match.state.over:
                return True
        except (OSError, SaveError, ValueError):
            continue
    return False


class RoomBook:
    """The room's names in the server's data folder `data`. `owner_names`: the names the owner's
    files give (reserved)."""

    def __init__(
        self,
        data: Path,
        owner_names: Iterable[str] = (),
        limits: SignUpLimits | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.data = data
        self.path = data / ACCOUNTS
        self.owner_names = tuple(owner_names)
        self.limits = limits or SignUpLimits()
        self.clock = clock

    def home_of(self, name: str) -> Path:
        """A player's folder (`net.player_sessions.player_home`), made or not."""
        return self.data / PLAYERS / safe_folder_name(name)

    def mark(self) -> tuple[int, int, int] | None:
        """What tells whether the book's file changed since it was last looked at (its inode, time
        and size), without reading it; None while there is none."""
        try:
            found = os.stat(self.path)
        except OSError:
            return None
        return (found.st_ino, found.st_mtime_ns, found.st_size)

    def read(self) -> Book:
        """The book as the file has it (empty if there is none). OSError if it cannot be read;
        ValueError if it is too large or not JSON."""
        try:
            return Book.parse(load_json_file(self.path, MAX_FILE))
        except FileNotFoundError:
            return Book()

    def name_of_key(self, fingerprint: str) -> str | None:
        """The name bound to this key, if any (None too if the book cannot be read)."""
        try:
            account = self.read().of_key(fingerprint)
        except (OSError, ValueError):
            return None
        return account.name if account is not None else None

    def bans(self) -> set[str]:
        """The canonical names banned (none if the book cannot be read)."""
        try:
            return self.read().bans
        except (OSError, ValueError):
            return set()

    def is_banned(self, name: str) -> bool:
        return canonical(name) in self.bans()

    def room_for(self, address: str) -> str | None:
        """Why no new name can be signed up for from `address` now (one line), or None."""
        try:
            book = self.read()
        except (OSError, ValueError) as error:
            return f"{UNREADABLE} ({error}); tell the server's keeper"
        return self._no_room(book, address_of(address))

    def _no_room(self, book: Book, where: str) -> str | None:
        now = self.clock()
        recent = [(there, when) for there, when in book.sign_ups if now - HOUR < when <= now]
        if sum(1 for there, _ in recent if there == where) >= self.limits.per_address:
            return f"at most {self.limits.per_address} new names an hour may come from one address; try again later"
        if len(recent) >= self.limits.per_hour:
            return "the server has taken as many new names as it takes in an hour; try again later"
        if len(book.accounts) >= self.limits.max_accounts:
            return "the server has as many names as it keeps; try again another day"
        return None

    def reserved(self, book: Book) -> tuple[str, ...]:
        """The names nobody may sign up for: the owner's (their key files', and those invited to the
        web door, whose folders are theirs)."""
        return (*self.owner_names, *book.owners, *invited_names(self.data))

    def sign_up(self, name: str, fingerprint: str, address: str) -> str:
        """Bind `name` (checked) to the key; the name as it is kept. SignUpRefused (one line) if the
        name is not free or there is no room now; OSError if the book cannot be written."""
        if not FINGERPRINT.fullmatch(fingerprint):
            raise SignUpRefused("this key cannot be read")
        return self._sign_up(name, address, fingerprint)

    def sign_up_browser(self, name: str, address: str) -> str:
        """Keep `name` (checked) as a browser's, with no key; the name as it is kept. SignUpRefused
        (one line) if the name is not free or there is no room now; OSError if the book cannot be
        written. The same limits as a key's sign-up, counted together."""
        return self._sign_up(name, address, None)

    @contextlib.contextmanager
    def _locked(self, refused: type[Exception]) -> Iterator[Book]:
        """The book, read under its lock (held until the block ends, which writes what it changes);
        `refused` (one line) if it cannot be read."""
        private_directory(self.data)
        with exclusive(self.data / LOCK):
            try:
                book = self.read()
            except ValueError as error:
                raise refused(f"{UNREADABLE} ({error}); tell the server's keeper") from None
            yield book

    def _sign_up(self, name: str, address: str, fingerprint: str | None) -> str:
        try:
            name = check_name(name)
        except ValueError as error:
            raise SignUpRefused(f"{str(error)[:1].upper()}{str(error)[1:]}") from None
        where = address_of(address)
        with self._locked(SignUpRefused) as book:
            reason = reserved_reason(name, self.reserved(book))
            if reason is not None:
                raise SignUpRefused(reason)
            now = self.clock()
            self._let_go(book, now)
            already = book.of_key(fingerprint) if fingerprint is not None else None
            if already is not None:
                return already.name  # signed up meanwhile, from another session of the same key
            if book.find(name) is not None or canonical(name) in book.bans:
                raise SignUpRefused(f"{name} is taken; choose another")
            no_room = self._no_room(book, where)
            if no_room is not None:
                raise SignUpRefused(no_room, limit=True)
            keys = [fingerprint] if fingerprint is not None else []
            book.accounts.append(Account(name, keys, now, browser=fingerprint is None))
            book.sign_ups = [(there, when) for there, when in book.sign_ups if now - HOUR < when <= now]
            book.sign_ups.append((where, now))
            write_json_file(self.path, book.as_data())
        return name

    def new_link_code(self, name: str) -> str:
        """A new one-time code (`net.link_codes`) that ties the key that types it over SSH to the
        browser name `name`, at its owner's asking (the door checks who asks); only its digest is
        kept. AccountError (one line) if the name is no browser name here, is banned or has as many
        keys as it may; OSError or ValueError if the book cannot be read or written."""
        code = new_code()
        digest = code_digest(code)
        assert digest is not None

        def edit(book: Book) -> str:
            account = book.find(name)
            if account is None or not account.browser:
                raise AccountError(f"{name} is not a name chosen in a browser here")
            if canonical(account.name) in book.bans:
                raise AccountError(BANNED)
            if len(account.keys) >= MAX_KEYS:
                raise AccountError(f"{account.name} has {MAX_KEYS} keys already, the most a name may have")
            now = self.clock()
            made = LinkCode(digest, account.name, account.created, now + LIFETIME)
            book.links = with_code(live_codes(book.links, now), made, lambda a, b: canonical(a) == canonical(b))
            return code

        return self.change(edit)

    def link_key(self, typed: str, fingerprint: str, address: str) -> str:
        """Tie the key (its SHA-256 fingerprint, proven by its login's signature) to the browser name
        whose one-time code was `typed`, and spend the code; that name. LinkRefused (one line) for a
        key that has a name already, a code wrong, spent or expired (counted: after a few in an hour
        from the key or the address, nothing more is tried), a name since banned, let go or renamed,
        or one with as many keys as it may have; OSError if the book cannot be written."""
        if not FINGERPRINT.fullmatch(fingerprint):
            raise LinkRefused("this key cannot be read")
        where = address_of(address)
        with self._locked(LinkRefused) as book:
            now = self.clock()
            book.link_failures = recent_failures(book.link_failures, now)
            if too_many_failures(book.link_failures, fingerprint, where):
                raise LinkRefused(TOO_MANY)
            held = book.of_key(fingerprint)
            if held is not None:
                raise LinkRefused(f"this key is {held.name}'s already: log in again to come in as {held.name}")
            book.links = live_codes(book.links, now)
            try:
                name = self._redeem(book, typed, fingerprint, now)
            except LinkRefused as refused:
                if refused.counted:
                    book.link_failures.append((fingerprint, where, now))
                write_json_file(self.path, book.as_data())
                raise
            write_json_file(self.path, book.as_data())
        return name

    def _redeem(self, book: Book, typed: str, fingerprint: str, now: float) -> str:
        """Spend the code and tie the key to its name, in `book`; LinkRefused as `link_key` says."""
        code = redeemable(book.links, typed, now)
        code.used = True  # spent, whatever follows: a code ties one key, once
        self._let_go(book, now)
        account = book.find(code.name)
        if account is None or not account.browser or account.created != code.chosen:
            raise LinkRefused(f"the name {code.name} is no longer kept here (let go or renamed); choose a name instead")
        if canonical(account.name) in book.bans:
            raise LinkRefused(f"the keeper of this server has banned {account.name}")
        if len(account.keys) >= MAX_KEYS:
            raise LinkRefused(f"{account.name} has {MAX_KEYS} keys already, the most a name may have")
        account.keys.append(fingerprint)
        return account.name

    def _let_go(self, book: Book, now: float) -> None:
        """Drop the names that finished no match within the limit of their sign-up (not the banned)."""
        expiry = now - self.limits.expire_days * DAY
        kept = []
        for account in book.accounts:
            if account.kept or account.created > expiry or canonical(account.name) in book.bans:
                kept.append(account)
            elif has_finished_match(self.home_of(account.name)):
                account.kept = True
                kept.append(account)
        book.accounts = kept

    def change(self, edit: Callable[[Book], str]) -> str:
        """Apply `edit` to the book under the lock and write it; what `edit` says it did. AccountError
        (one line) from `edit`; OSError or ValueError if the book cannot be read or written."""
        private_directory(self.data)
        with exclusive(self.data / LOCK):
            book = self.read()
            said = edit(book)
            write_json_file(self.path, book.as_data())
        return said

    def unless_taken(self, name: str, action: Callable[[], T]) -> T:
        """`action()` (an invitation to the web door for `name`), unless the book holds `name`: its
        player's folder would be the invitee's too. Under the book's lock, under which sign-ups read
        the invitations, so that one or the other has the name. AccountError (one line) if it is
        taken or the book damaged; OSError if the book cannot be read."""
        private_directory(self.data)
        with exclusive(self.data / LOCK):
            try:
                account = self.read().find(name)
            except ValueError as error:
                raise AccountError(f"the open room's names cannot be read ({error}); nothing was made") from None
            if account is not None:
                raise AccountError(
                    f"{account.name} is a name of this server's open room, whose folder is that player's; "
                    "invite another name"
                )
            return action()

    def set_owners(self, names: Iterable[str]) -> None:
        """Keep the owner's names (the server's, at its start) where sign-ups see them: reserved."""

        def edit(book: Book) -> str:
            book.owners = {canonical(name) for name in names}
            return ""

        self.change(edit)

    def ban(self, name: str) -> str:
        def edit(book: Book) -> str:
            account = book.find(name)
            shown = account.name if account is not None else name
            if canonical(name) in book.bans:
                raise AccountError(f"{shown} is banned already")
            book.bans.add(canonical(name))
            return f"banned {shown}: their sessions end and their keys and browsers are refused"

        return self.change(edit)

    def unban(self, name: str) -> str:
        def edit(book: Book) -> str:
            if canonical(name) not in book.bans:
                raise AccountError(f"{name} is not banned")
            book.bans.discard(canonical(name))
            return f"{name} may come in again"

        return self.change(edit)

    def rename(self, old: str, new: str) -> str:
        try:
            new = check_name(new)
        except ValueError as error:
            raise AccountError(f"the new name: {error}") from None

        def edit(book: Book) -> str:
            account = book.find(old)
            if account is None:
                raise AccountError(f"no one here signed up as {old}")
            other = book.find(new)
            if other is not None and other is not account:
                raise AccountError(f"{new} is taken")
            reason = reserved_reason(new, (*self.owner_names, *book.owners))
            if reason is not None:
                raise AccountError(reason)
            if canonical(account.name) in book.bans:
                book.bans.discard(canonical(account.name))
                book.bans.add(canonical(new))
            was, account.name = account.name, new
            moved = self._move_folder(was, new)
            return f"renamed {was} to {new}" + ("" if moved else f" (their folder stays under {was})")

        return self.change(edit)

    def _move_folder(self, old: str, new: str) -> bool:
        """The player's saves and preferences follow the name; False if they could not."""
        source, target = self.home_of(old), self.home_of(new)
        if source == target or not source.exists():
            return True
        if target.exists():
            return False
        try:
            source.rename(target)
        except OSError:
            return False
        return True
