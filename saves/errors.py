"""The one exception the save code raises for a file it cannot read or write."""

from __future__ import annotations


class SaveError(Exception):
    """A save that cannot be loaded or written, with one sentence saying what is wrong and where.

    `reason` is that sentence ("event 57 (Ana played 5-5 on train 3) is not legal: CF-10: ...");
    `path` is the file, when there is one; `str()` joins them.
    """

    def __init__(self, reason: str, path: str | None = None) -> None:
        self.reason = reason
        self.path = path
        super().__init__(reason)

    def at(self, path: object) -> SaveError:
        """The same error, naming the file it came from."""
        return SaveError(self.reason, str(path))

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}" if self.path else self.reason


def as_sentence(text: str) -> str:
    """A reason or notice from the save code ("match 3f9a is open in ...") as a sentence to show on
    its own: capitalised, with a full stop."""
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
