"""One-time link codes: how the owner of a name chosen in a browser ties an SSH key to it.

Pasting a public key would prove nothing (public keys are public: anyone could tie someone else's to
their own name, and its owner would later log in as the squatter). A code proves both sides: the
browser's key page (`net.web_sign_up`), which only the name's own session can open, makes it; the
player logs in over SSH with the key to tie, which has proven itself by its signature, and types the
code on the welcome screen instead of a name (`tui.screens.sign_up`, `RoomBook.link_key`).

A code is `link-` and three groups of four symbols from an alphabet with no look-alikes (no 0, o, 1,
i or l): 31**12, some 2**59 codes. It lasts LIFETIME seconds and ties one key. The room's book keeps
only its SHA-256, with its name, that name's sign-up time (a name let go and chosen again by someone
else is another name) and its expiry; a spent or expired code is kept a day to say so, then
forgotten. A name has at most MAX_PER_NAME codes (a new one drops its oldest), the book at most
MAX_CODES. Wrong codes are counted in the book (each SSH session runs in a process of its own) by
key and by address: after MAX_FAILURES in an hour from either, no code is tried.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Any

from core.seats import check_name

ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
PREFIX = "link"
GROUPS, GROUP = 3, 4
LIFETIME = 600.0  # seconds a code may be typed in
KEPT = 24 * 3600.0  # seconds a spent or expired code is remembered, to say which it was
MAX_PER_NAME = 3
MAX_CODES = 5000  # ten minutes' worth of codes for a very busy room
MAX_FAILURES = 5  # wrong codes an hour from one key, or from one address
FAILURE_WINDOW = 3600.0
MAX_FAILURE_RECORDS = 5000
DIGEST = re.compile(r"[0-9a-f]{64}")
FINGERPRINT = re.compile(r"SHA256:[A-Za-z0-9+/]{43}")  # a key, as asyncssh gives its SHA-256
MAX_ADDRESS = 64  # characters of an address as the limits count it
# What is typed as a code rather than a name: anything beginning `link-`, `link` and twelve letters
# or digits, or three groups of four. Such names are refused at sign-up (`net.accounts`), so that a
# code mistyped is never taken as the name it spells.
CODE_SHAPES = (
    re.compile(r"link-.*"),
    re.compile(r"link[\s-]*(?:[a-z0-9][\s-]*){11}[a-z0-9]"),
    re.compile(r"[a-z0-9]{4}[\s-]+[a-z0-9]{4}[\s-]+[a-z0-9]{4}"),
)
TOO_MANY = "too many wrong codes from this key or this address in the last hour; try again later"
NOT_A_CODE = "that is not a link code (link- and three groups of four, as the browser's key page shows it)"
UNKNOWN = "that link code is not one of this server's: check it, or make a new one on the browser's key page"
SPENT = "that link code was used already (a code ties one key): make a new one on the browser's key page"
EXPIRED = "that link code has expired (a code lasts 10 minutes): make a new one on the browser's key page"


class LinkRefused(Exception):
    """A code that ties nothing: one line for the player. `counted`: a wrong code, counted against
    the key and the address."""

    def __init__(self, message: str, counted: bool = False) -> None:
        super().__init__(message)
        self.counted = counted


def _typed(text: str) -> str:
    return unicodedata.normalize("NFKC", text.strip()).casefold()


def looks_like_code(text: str) -> bool:
    """Whether `text` was typed as a link code rather than as a name."""
    typed = _typed(text)
    return any(shape.fullmatch(typed) for shape in CODE_SHAPES)


def new_code() -> str:
    """A new code, as it is shown: `link-xxxx-xxxx-xxxx`."""
    body = "".join(secrets.choice(ALPHABET) for _ in range(GROUPS * GROUP))
    return "-".join([PREFIX, *(body[start : start + GROUP] for start in range(0, len(body), GROUP))])


def code_digest(text: str) -> str | None:
    """The SHA-256 a code is kept by, whether typed with or without `link`, in any case, with dashes
    or spaces; None for text that is no well-formed code."""
    typed = _typed(text)
    body = re.sub(r"[\s-]", "", typed.removeprefix(PREFIX))
    if len(body) != GROUPS * GROUP or any(symbol not in ALPHABET for symbol in body):
        return None
    return hashlib.sha256(f"{PREFIX}-{body}".encode()).hexdigest()


@dataclass
class LinkCode:
    digest: str
    name: str
    chosen: float  # when the name was signed up for: the same name chosen again later is another's
    expires: float
    used: bool = False

    def as_data(self) -> dict[str, Any]:
        return {
            "digest": self.digest,
            "name": self.name,
            "chosen": self.chosen,
            "expires": self.expires,
            "used": self.used,
        }

    @classmethod
    def parse(cls, entry: Any) -> LinkCode | None:
        if not isinstance(entry, dict):
            return None
        digest, name, chosen, expires = (entry.get(key) for key in ("digest", "name", "chosen", "expires"))
        if not (isinstance(digest, str) and DIGEST.fullmatch(digest)):
            return None
        if type(chosen) not in (int, float) or type(expires) not in (int, float):
            return None
        try:
            name = check_name(name)
        except ValueError:
            return None
        return cls(digest, name, float(chosen), float(expires), entry.get("used") is not False)


Failure = tuple[str, str, float]  # (key fingerprint, address, when)


def parse_codes(data: Any) -> list[LinkCode]:
    entries = data[-MAX_CODES:] if isinstance(data, list) else []
    codes = [code for code in map(LinkCode.parse, entries) if code is not None]
    return list({code.digest: code for code in codes}.values())


def parse_failures(data: Any) -> list[Failure]:
    failures: list[Failure] = []
    for entry in data[-MAX_FAILURE_RECORDS:] if isinstance(data, list) else []:
        if (
            isinstance(entry, list)
            and len(entry) == 3
            and isinstance(entry[0], str)
            and FINGERPRINT.fullmatch(entry[0])
            and isinstance(entry[1], str)
            and len(entry[1]) <= MAX_ADDRESS
            and type(entry[2]) in (int, float)
        ):
            failures.append((entry[0], entry[1], float(entry[2])))
    return failures


def live_codes(codes: list[LinkCode], now: float) -> list[LinkCode]:
    """The codes still worth keeping: those that may be typed, and a day of spent and expired ones."""
    return [code for code in codes if now - code.expires < KEPT][-MAX_CODES:]


def with_code(codes: list[LinkCode], code: LinkCode, same_name: Any) -> list[LinkCode]:
    """`codes` and a new one; the oldest of its name's beyond MAX_PER_NAME, and of all beyond
    MAX_CODES, dropped. `same_name(a, b)`: whether two names are one."""
    theirs = [old for old in codes if same_name(old.name, code.name)]
    dropped = {old.digest for old in theirs[: max(0, len(theirs) - MAX_PER_NAME + 1)]}
    kept = [old for old in codes if old.digest not in dropped]
    return [*kept, code][-MAX_CODES:]


def recent_failures(failures: list[Failure], now: float) -> list[Failure]:
    return [failure for failure in failures if now - FAILURE_WINDOW < failure[2] <= now][-MAX_FAILURE_RECORDS:]


def too_many_failures(failures: list[Failure], fingerprint: str, address: str) -> bool:
    """Whether this key, or this address, has typed MAX_FAILURES wrong codes (`failures`: the last
    hour's)."""
    by_key = sum(1 for key, _, _ in failures if key == fingerprint)
    by_address = sum(1 for _, where, _ in failures if where == address)
    return by_key >= MAX_FAILURES or by_address >= MAX_FAILURES


def redeemable(codes: list[LinkCode], typed: str, now: float) -> LinkCode:
    """The code `typed` names, if it may still be used; LinkRefused (counted) otherwise."""
    digest = code_digest(typed)
    if digest is None:
        raise LinkRefused(NOT_A_CODE, counted=True)
    code = next((code for code in codes if code.digest == digest), None)
    if code is None:
        raise LinkRefused(UNKNOWN, counted=True)
    if code.used:
        raise LinkRefused(SPENT, counted=True)
    if code.expires <= now:
        raise LinkRefused(EXPIRED, counted=True)
    return code
