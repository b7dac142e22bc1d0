"""A finished review kept beside its save (`SaveStore.review_path`: `<id>.review.json`), so opening it again is instant.

The file holds, for each weighed decision, the numbers the review found (each legal move's mean
value, the deals sampled, the standard error), never words: the verdicts, better moves and reasons
are worked out again from the match, so nothing the file says is shown as it stands. Each decision
carries a digest of the match up to and including it (the game, players, options, seed and every
event before), so a decision whose past changed (the save was played on from an undo, or edited)
is weighed again while the rest are kept; a review made with other settings or by another version
is made again whole. The file is read within a size bound and checked entry by entry: a damaged or
hostile one is refused, said so, and replaced.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from core.match import Match
from core.moves import Deal
from core.review import ReviewSettings, Weighing
from core.version import APP_VERSION
from saves.json_file import load_json_file

FORMAT = "dominoes-review"
VERSION = 1
MAX_BYTES = 8 * 1024 * 1024  # some 20,000 decisions: far beyond the longest match
DIGEST_CHARS = 32
MAX_VALUE = 1e6  # a round value beyond this is no round's
MAX_DECISIONS = 100_000
MAX_MOVES = 1_000  # legal moves at one decision: far more than any game has


def digests(match: Match) -> list[str]:
    """For each event up to the cursor, a digest of the match's settings and events up to it."""
    header = json.dumps([match.game_name, match.players, sorted(match.options.items()), match.seed])
    chain = hashlib.sha256(header.encode()).digest()
    found = []
    for event in match.events[: match.cursor]:
        chain = hashlib.sha256(chain + json.dumps(event.to_data()).encode()).digest()
        found.append(chain.hex()[:DIGEST_CHARS])
    return found


def load_review(path: Path, match: Match, settings: ReviewSettings) -> tuple[dict[int, Weighing], str | None]:
    """The weighings a sidecar holds that still fit `match` and `settings`, by event index, and a
    notice if the file had to be refused (damaged, or not a review of this program's)."""
    try:
        data = load_json_file(path, MAX_BYTES)
    except FileNotFoundError:
        return {}, None
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        return {}, f"the saved review {path.name} could not be read ({reason}), so it is made again"
    try:
        return _weighings(data, match, settings), None
    except ValueError as error:
        return {}, f"the saved review {path.name} is damaged ({error}), so it is made again"


def _weighings(data: Any, match: Match, settings: ReviewSettings) -> dict[int, Weighing]:
    if not isinstance(data, dict) or set(data) != {"format", "version", "app", "settings", "decisions"}:
        raise ValueError("it is not a review")
    if data["format"] != FORMAT or data["version"] != VERSION:
        raise ValueError("it is not a review in a format this version reads")
    if data["app"] != APP_VERSION or ReviewSettings.from_data(data["settings"]) != settings:
        return {}  # made by another version or with other settings: made again, nothing wrong
    entries = data["decisions"]
    if not isinstance(entries, list) or len(entries) > MAX_DECISIONS:
        raise ValueError("its decisions are not a list of decisions")
    chain = digests(match)
    found: dict[int, Weighing] = {}
    seen: set[int] = set()
    for entry in entries:
        index, digest, weighing = _entry(entry)
        if index in seen:
            raise ValueError(f"event {index + 1} is there twice")
        seen.add(index)
        if index >= len(chain) or digest != chain[index]:
            continue  # the match is not what it was up to this decision (undone, played otherwise)
        legal = match.game.legal_moves(match.state_at(index))
        if type(match.events[index]) is Deal or len(weighing.means) != len(legal):
            raise ValueError(f"event {index + 1} does not have one value per legal move")
        found[index] = weighing
    return found


def _entry(entry: Any) -> tuple[int, str, Weighing]:
    if not isinstance(entry, dict) or set(entry) != {"event", "digest", "means", "worlds", "error"}:
        raise ValueError("a decision is not event, digest, means, worlds and error")
    index, digest, means, worlds, error = (entry[key] for key in ("event", "digest", "means", "worlds", "error"))
    if type(index) is not int or not 0 <= index < MAX_DECISIONS:
        raise ValueError(f"{index!r} is not an event number")
    if not isinstance(digest, str) or len(digest) != DIGEST_CHARS or not set(digest) <= set("0123456789abcdef"):
        raise ValueError(f"event {index + 1} has no valid digest")
    if not isinstance(means, list) or not 1 <= len(means) <= MAX_MOVES or not all(_value(mean) for mean in means):
        raise ValueError(f"event {index + 1} does not have a value for each legal move")
    if type(worlds) is not int or not 0 <= worlds <= 1_000_000 or not _value(error) or error < 0:
        raise ValueError(f"event {index + 1} has no valid count of deals or standard error")
    return index, digest, Weighing(tuple(float(mean) for mean in means), worlds, float(error))


def _value(number: Any) -> bool:
    return type(number) in (int, float) and math.isfinite(number) and abs(number) <= MAX_VALUE


def save_review(path: Path, match: Match, settings: ReviewSettings, weighings: Mapping[int, Weighing]) -> None:
    """Write the sidecar atomically (a temporary file, then a rename); OSError if it cannot be."""
    chain = digests(match)
    data = {
        "format": FORMAT,
        "version": VERSION,
        "app": APP_VERSION,
        "settings": settings.to_data(),
        "decisions": [
            {
                "event": index,
                "digest": chain[index],
                "means": list(weighing.means),
                "worlds": weighing.worlds,
                "error": weighing.error,
            }
            for index, weighing in sorted(weighings.items())
            if index < len(chain)
        ],
    }
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump(data, handle, separators=(",", ":"))
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
