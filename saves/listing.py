"""`dominoes saves`: every saved match in a few words; a damaged one says why, and the rest still list."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from saves.errors import SaveError
from saves.ids import ID_RULE, is_match_id
from saves.store import Loaded, SaveStore
from saves.summary import round_text, round_word, scores_text, status_text, timestamp

NO_BREAK = "\u00a0"


@dataclass(frozen=True)
class Entry:
    """One saved match: loaded (perhaps from its backup), or the reason it cannot be."""

    match_id: str
    loaded: Loaded | None = None
    error: SaveError | None = None


def entries(store: SaveStore) -> list[Entry]:
    """Every match in `store`, the most recently played first, then the damaged ones."""
    good: list[Entry] = []
    damaged: list[Entry] = []
    for match_id in store.ids():
        if not is_match_id(match_id):
            # Not a file this program wrote; its name may hold anything, so show it escaped.
            name = match_id if match_id.isprintable() else ascii(match_id)
            damaged.append(Entry(name, error=SaveError(f"its name is not a match id ({ID_RULE})")))
            continue
        try:
            good.append(Entry(match_id, store.load(match_id)))
        except SaveError as error:
            damaged.append(Entry(match_id, error=error))
    good.sort(key=lambda entry: (-entry.loaded.record.updated, entry.match_id))  # type: ignore[union-attr]
    return good + damaged


def format_listing(store: SaveStore) -> str:
    found = entries(store)
    if not found:
        return f"No saved matches in {store.directory}."
    lines = [f"Saved matches in {store.directory}:"]
    for entry in found:
        lines.append("")
        lines.extend(format_entry(entry))
    return "\n".join(lines)


def format_entry(entry: Entry, width: int | None = None) -> list[str]:
    """The lines for one match; with `width`, no line is longer (the date moves to a line of its
    own, and the players wrap under their indent), so nothing wraps mid-phrase."""
    if entry.loaded is None:
        reason = entry.error.reason if entry.error is not None else "unknown"
        return _fitted([f"{entry.match_id}  damaged: {reason}"], width)
    record = entry.loaded.record
    match = record.match
    state = match.state
    first = f"{entry.match_id}  {match.game.title}  {round_text(match)}  {status_text(match)}"
    played = f"last played {timestamp(record.updated)}"
    if width is None or len(first) + 2 + len(played) <= width:
        lines = [f"{first}  {played}"]
    else:
        lines = [first, f"    {played}"]
    scores = scores_text(match, state.scores, kinds=True)
    if width is not None:  # wrap between the players, never inside one's name and score
        scores = ", ".join(part.replace(" ", NO_BREAK) for part in scores.split(", "))
    lines.append(f"    {scores}")
    if match.undid_revealed_round:
        lines.append(f"    practice: an undo went back into a {round_word(match)} whose hands had been shown")
    if entry.loaded.notice:
        lines.append(f"    note: {entry.loaded.notice}")
    return _fitted(lines, width)


def _fitted(lines: list[str], width: int | None) -> list[str]:
    if width is None:
        return lines
    fitted = []
    for line in lines:
        indent = " " * (len(line) - len(line.lstrip()))
        fitted += textwrap.wrap(line, width, subsequent_indent=indent or "    ") or [line]
    return [line.replace(NO_BREAK, " ") for line in fitted]


def latest_unfinished(found: list[Entry]) -> Entry | None:
    """The most recently played match that is not over (what `dominoes --resume` opens), if any."""
    for entry in found:
        if entry.loaded is not None and not entry.loaded.record.match.state.over:
            return entry
    return None


def match_to_resume(store: SaveStore) -> Loaded | None:
    """The latest unfinished match in `store`, loaded, to offer first; None if there is none or the
    save directory cannot be read (there is then simply nothing to offer)."""
    try:
        entry = latest_unfinished(entries(store))
    except SaveError:
        return None
    return entry.loaded if entry is not None else None
