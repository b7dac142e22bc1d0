"""A saved match: the match itself and what the file records about it."""

from __future__ import annotations

from dataclasses import dataclass

from core.match import Match
from core.version import APP_VERSION


@dataclass
class SavedMatch:
    """`created` and `updated` are whole seconds since the Unix epoch (UTC); `app_version` is the
    version of dominoes that wrote the file."""

    match_id: str
    match: Match
    created: int
    updated: int
    app_version: str = APP_VERSION
