"""Save files: the msgpack format, its validation, and the atomic store (see DESIGN.md, "saves",
and docs/save-format.md).

    store = SaveStore()                       # $DOMINOES_HOME/saves, or the user data directory's
    autosave = Autosave(store, match)         # a new match gets a fresh id
    autosave()                                # after every event: writes atomically, keeps a .bak
    loaded = store.load(autosave.match_id)    # SaveError (one sentence) if it cannot be loaded
    loaded.record.match, loaded.notice        # the notice says when the backup had to be used
    autosave = Autosave.resume(store, loaded) # go on saving to the same file
    autosave = Autosave.open(store, match_id) # the same, the match locked first (MatchInUse if
    autosave.close()                          # another process has it open) until close()

Modules: format (the envelope and bounded decode), migrations (the version chain), body (the
fields), replay (events through the rules), codec (all of a load, in order), store (the directory,
atomic writes, the backup), lock (one process per match), autosave, ids, listing and describe (the
`dominoes saves` commands).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

# Each name is imported from its module on first use, so `from saves.errors import SaveError` (or
# naming the package at all) does not load the whole save machinery at start-up.
_WHERE = {
    "Autosave": "saves.autosave",
    "decode": "saves.codec",
    "encode": "saves.codec",
    "SaveError": "saves.errors",
    "SavedMatch": "saves.record",
    "Loaded": "saves.store",
    "MatchChangedElsewhere": "saves.autosave",
    "MatchInUse": "saves.lock",
    "SaveStore": "saves.store",
    "default_save_dir": "saves.store",
}
__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'saves' has no attribute {name!r}")
    return getattr(import_module(module), name)
