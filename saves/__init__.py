"""Save files: the msgpack format, its validation, and the atomic store (see DESIGN.md, "saves",
and docs/save-format.md).

    store = SaveStore()                       # $DOMINOES_HOME/saves, or the user data directory's
    autosave = Autosave(store, match)         # a new match gets a fresh id
    autosave()                                # after every event: writes atomically, keeps a .bak
    loaded = store.load(autosave.match_id)    # SaveError (one sentence) if it cannot be loaded
    loaded.record.match, loaded.notice        # the notice says when the backup had to be used
    autosave = Autosave.resume(store, loaded) # go on saving to the same file

Modules: format (the envelope and bounded decode), migrations (the version chain), body (the
fields), replay (events through the rules), codec (all of a load, in order), store (the directory,
atomic writes, the backup), autosave, ids, listing and describe (the `dominoes saves` commands).
"""

from saves.autosave import Autosave
from saves.codec import decode, encode
from saves.errors import SaveError
from saves.record import SavedMatch
from saves.store import Loaded, SaveStore, default_save_dir

__all__ = ["Autosave", "Loaded", "SaveError", "SaveStore", "SavedMatch", "decode", "default_save_dir", "encode"]
