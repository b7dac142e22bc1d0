"""Table talk: a few fixed phrases a seated player may send to the table, and nothing else.

A public room has no one to read free text, so the wire carries only a phrase's number: the server
checks it against this list and tells every client (seats and watchers) which seat said which
phrase, and each client shows its own copy of the words. Nothing anyone types reaches another
screen. A seat may say at most `TALK_BURST` phrases at once, then one every `TALK_EVERY` seconds.
"""

from __future__ import annotations

PHRASES = ("Hello", "Good game", "Well played", "Thinking…", "Back in a minute")
TALK_EVERY = 5.0  # seconds between phrases from one seat, once its burst is spent
TALK_BURST = 3


def phrase_text(number: int) -> str | None:
    """The words of phrase `number` (None for a number this version does not know)."""
    return PHRASES[number] if type(number) is int and 0 <= number < len(PHRASES) else None


def talk_line(name: str, number: int) -> str:
    """How a phrase reads in the move log: `Ann: “Good game”`."""
    return f"{name}: “{phrase_text(number) or '…'}”"
