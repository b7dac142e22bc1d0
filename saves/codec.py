"""A saved match to bytes and back, with every check of a load in its order.

Loading: the size cap, the magic bytes, the checksum (saves/format.py); a bounded msgpack decode
(saves/format.py); the migration chain (saves/migrations.py); the fields (saves/body.py); a replay
of every event (saves/replay.py). Any defect raises SaveError and nothing else; nothing is returned
until every check has passed.
"""

from __future__ import annotations

from core.version import APP_VERSION
from saves.body import body_of, read_header
from saves.errors import SaveError
from saves.format import pack_body, unpack_body, unwrap, wrap
from saves.migrations import FORMAT_VERSION, migrate
from saves.record import SavedMatch
from saves.replay import replay


def encode(record: SavedMatch) -> bytes:
    """The save file of `record`, written by this version."""
    return wrap(pack_body(body_of(record)), FORMAT_VERSION, APP_VERSION)


def decode(data: bytes) -> SavedMatch:
    """The match in a save file; SaveError, with one sentence saying what is wrong, for any defect."""
    try:
        envelope = unwrap(data)
        body = migrate(unpack_body(envelope.body), envelope.format_version, envelope.app_version)
        header = read_header(body)
        match = replay(header, body["events"])
    except SaveError:
        raise
    except Exception as error:  # the checks above leave nothing to reach here; if anything does, still one line
        raise SaveError(f"the file could not be read ({type(error).__name__}: {error})") from None
    return SavedMatch(header.match_id, match, header.created, header.updated, envelope.app_version)
