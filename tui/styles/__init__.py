"""The interface's style sheets (Textual CSS), by the screens that use them: `app.tcss` for the
application and the screens of every session (parsed before the first frame), `table.tcss` for the
table and the review, which show the same board and hand, and one file for each screen with looks
of its own."""

from __future__ import annotations

from pathlib import Path

STYLES = Path(__file__).resolve().parent
APP_STYLES = STYLES / "app.tcss"
TABLE_STYLES = STYLES / "table.tcss"
