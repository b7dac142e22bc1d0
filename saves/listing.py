"""`dominoes saves`: every saved match in a few words; a damaged one says why, and the rest still list."""

from __future__ import annotations

from dataclasses import dataclass

from saves.errors import SaveError
from saves.ids import ID_RULE, is_match_id
from saves.store import Loaded, SaveStore
from saves.summary import round_text, scores_text, status_text, timestamp


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


def format_entry(entry: Entry) -> list[str]:
    if entry.loaded is None:
        reason = entry.error.reason if entry.error is not None else "unknown"
        return [f"{entry.match_id}  damaged: {reason}"]
    record = entry.loaded.record
    match = record.match
    state = match.state
    lines = [
        f"{entry.match_id}  {match.game.title}  {round_text(match)}  {status_text(match)}"
        f"  last played {timestamp(record.updated)}",
        f"    {scores_text(match, state.scores, kinds=True)}",
    ]
    if entry.loaded.notice:
        lines.append(f"    note: {entry.loaded.notice}")
    return lines


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
