"""The lobby: what the player can go on with, then the tables open on this server, to join or to
open; or a match alone against bots, or bots watched playing on their own.

The first row offers the player's latest unfinished match (Enter resumes it, exactly where it
was, even after a lost connection); then come the tables where the player has a seat (shown as
"you", away or not: Enter takes the seat back); then every other table. The cursor starts on the
first row, what the player can go on with, and stays there as the rows come in (the match to
resume is found a moment after the tables), until the player moves it.

`w` watches the table under the cursor, from no seat (its Watch column counts who watches now, or
shows "closed" where its maker closed it to watchers); on the row of a match to resume, or with no
table, it watches bots play, as `W` always does.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Static

from core import GAME_TITLES
from tui.host import host
from tui.widgets.footer import Footer

if TYPE_CHECKING:
    from saves import Loaded

REFRESH_EVERY = 2.0  # seconds between looks at the tables directory
LOBBY_TITLE = "Dominoes lobby"
GAME_WIDTH = 19  # "▶ Three-player Moon"
WATCH_WIDTH = 6  # "closed"
LOBBY_FRAME = 2 + 10 + 1  # the screen's padding, each column's padding, the scrollbar
RESUME_ROW = "resume"


def age_text(seconds: float) -> str:
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{int(seconds // 60)} min"
    return f"{int(seconds // 3600)} h"


@dataclass(frozen=True)
class Row:
    """One line of the lobby: the match to resume, or a table (and the player's seat there)."""

    key: str
    table: Any = None
    seat: int | None = None


class LobbyScreen(Screen[None]):
    BINDINGS = [
        Binding("enter", "join", "Join", id="lobby.join"),
        Binding("c", "resume", "Resume", id="lobby.resume"),
        Binding("n", "new_table", "New table", id="lobby.new"),
        # Short words: with Resume too, the keys and the palette's just fit in 80 columns.
        Binding("a", "alone", "Solo", tooltip="Play alone against bots", id="lobby.alone"),
        Binding("l", "load", "Load", id="lobby.load"),
        Binding("w", "watch_table", "Watch", tooltip="Watch the table under the cursor", id="lobby.watch_table"),
        Binding("w", "watch", "Watch", tooltip="Watch bots play", id="lobby.watch"),
        Binding("W", "watch('bots')", "Watch bots", show=False, tooltip="Watch bots play", id="lobby.watch_bots"),
        Binding("b", "leaderboard", "Leaders", tooltip="Leaderboard: the top players by rating", id="lobby.board"),
        Binding("s", "stats", "Statistics", show=False, id="lobby.stats"),
        Binding("r", "refresh", "Refresh", show=False, id="lobby.refresh"),
        Binding("question_mark", "rules", "Rules", key_display="?", show=False, id="lobby.rules"),
        Binding("q", "app.quit", "Quit", id="lobby.quit"),
    ]

    def __init__(self, player_name: str, notice: str | None = None) -> None:
        super().__init__()
        self.player_name = player_name
        self.tables: list[Any] = []
        self.latest: Loaded | None = None  # the player's latest unfinished match, offered first
        self.rows: list[Row] = []
        self._shown: object = None  # what the list shows (every 2 s the same, mostly: then nothing is redrawn)
        self.first_notice = notice
        self.sub_title = "Lobby"
        self._placed: str | None = None  # the row the lobby put the cursor on (not the player)

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby-box"):
            heading = Text.assemble((LOBBY_TITLE, "bold"), " · signed in as ", (self.player_name, "bold"))
            yield Static(heading, id="lobby-heading")
            yield DataTable(id="lobby-tables", cursor_type="row", zebra_stripes=True)
            yield Static("", id="lobby-empty")
            yield Static("", id="lobby-notice")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#lobby-tables", DataTable)
        table.add_column("Game", key="game", width=GAME_WIDTH)
        table.add_column("Seats", key="seats", width=self.seats_width())
        table.add_column("Open", key="open", width=4)
        table.add_column("Watch", key="watch", width=WATCH_WIDTH)
        table.add_column("Opened", key="age", width=8)
        if self.first_notice:
            self.set_notice(self.first_notice, error=True)
        self.action_refresh()
        self.set_interval(REFRESH_EVERY, self.action_refresh)

    def seats_width(self) -> int:
        """What the other columns leave of the screen: the seats wrap in it, never cut."""
        return max(20, self.app.size.width - GAME_WIDTH - 4 - WATCH_WIDTH - 8 - LOBBY_FRAME)

    def on_screen_resume(self) -> None:
        self.call_after_refresh(self.find_latest)  # back from a match: it may be over, or another one newer

    def set_notice(self, text: str, error: bool = False) -> None:
        notice = self.query_one("#lobby-notice", Static)
        notice.update(Text(text))
        notice.set_class(error, "error")

    # -- what there is ---------------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="latest")
    def find_latest(self) -> None:
        """The player's latest unfinished match, read in a thread (loading replays every save)."""
        from saves.listing import match_to_resume

        self.app.call_from_thread(self.offer, match_to_resume(host(self).store))

    def offer(self, loaded: Loaded | None) -> None:
        self.latest = loaded
        self.show_tables(self.tables)

    @work(thread=True, exclusive=True, group="tables")
    def action_refresh(self) -> None:
        from net.tables import list_tables

        tables = list_tables()
        self.app.call_from_thread(self.show_tables, tables)

    def show_tables(self, tables: list[Any]) -> None:
        self.tables = tables
        grid = self.query_one("#lobby-tables", DataTable)
        chosen = self.chosen_row()
        rows = [Row(RESUME_ROW)] if self.latest is not None else []
        seated = [(table, table.seat_of(self.player_name)) for table in tables]
        rows += [Row(table.table_id, table, seat) for table, seat in seated if seat is not None]
        rows += [Row(table.table_id, table) for table, seat in seated if seat is None]
        self.rows = rows
        now = time.time()
        cells = [self._cells(row, now) for row in rows]
        texts = [[(cell.plain, str(cell.style)) for cell in line] for line in cells]
        shown = ([row.key for row in rows], texts)
        if shown == self._shown:
            return  # as it is on the screen already
        self._shown = shown
        grid.clear()
        for row, line in zip(rows, cells, strict=True):
            grid.add_row(*line, key=row.key, height=None)  # as many lines as the seats take
        keys = [row.key for row in rows]
        if chosen is not None and chosen.key != self._placed and chosen.key in keys:
            grid.move_cursor(row=keys.index(chosen.key))  # where the player put it
        elif rows:
            grid.move_cursor(row=0)  # what the player can go on with comes first
            self._placed = keys[0]
        empty = self.query_one("#lobby-empty", Static)
        empty.display = not rows
        empty.update("No tables yet. n: open one · a: play alone against bots · w: watch bots play")
        self.refresh_bindings()

    def _cells(self, row: Row, now: float) -> tuple[Text, ...]:
        """A row's cells, all plain Text: names (and anything from a sidecar or a save) are never markup."""
        if row.key == RESUME_ROW:
            from saves.summary import round_text

            assert self.latest is not None
            record = self.latest.record
            match = record.match
            return (
                Text(f"▶ {match.game.title}", style="bold"),
                Text(f"resume your match: {round_text(match)}"),
                Text(""),
                Text(""),
                Text(age_text(now - record.updated)),
            )
        table = row.table
        title = GAME_TITLES.get(table.game, table.game)
        return (
            Text(f"▶ {title}", style="bold") if row.seat is not None else Text(title),
            Text(", ".join(table.seat_texts(self.player_name))),
            Text(str(table.open_seats)),
            Text(str(table.watching) if table.watchable else "closed", style="" if table.watchable else "dim"),
            Text(age_text(now - table.created)),
        )

    def chosen_row(self) -> Row | None:
        grid = self.query_one("#lobby-tables", DataTable)
        if not self.rows or grid.row_count == 0:
            return None
        index = grid.cursor_row
        return self.rows[index] if 0 <= index < len(self.rows) else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "join":
            return bool(self.rows)
        if action == "resume":
            return self.latest is not None
        if action == "watch_table":
            return self.table_chosen()  # `w` on a table watches it; elsewhere bots
        if action == "watch":
            return not self.table_chosen() or parameters == ("bots",)
        return True

    def table_chosen(self) -> bool:
        row = self.chosen_row() if self.is_mounted else None
        return row is not None and row.table is not None

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_join()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.refresh_bindings()  # `w` watches the table under the cursor, or bots

    # -- actions ---------------------------------------------------------------------------------
    def action_join(self) -> None:
        """Go on with the row under the cursor: resume the match, take the player's seat back, or
        take an open seat."""
        row = self.chosen_row()
        if row is None:
            return
        if row.key == RESUME_ROW:
            self.action_resume()
            return
        table = row.table
        if row.seat is not None:
            self.app.join(str(table.socket), row.seat)  # type: ignore[attr-defined]
            return
        if table.open_seats == 0:
            self.set_notice("That table has no open seat.", error=True)
            return
        self.app.join(str(table.socket))  # type: ignore[attr-defined]

    def action_resume(self) -> None:
        if self.latest is not None:
            latest, self.latest = self.latest, None
            self.set_notice("")
            host(self).resume(latest)

    def action_load(self) -> None:
        self.set_notice("")
        host(self).show_load()

    def action_new_table(self) -> None:
        from tui.screens.new_table import NewTableScreen

        self.app.push_screen(NewTableScreen(self.player_name))

    def action_alone(self) -> None:
        from tui.screens.new_match import NewMatchScreen

        self.app.push_screen(NewMatchScreen())

    def action_watch(self, _always: str = "") -> None:
        self.app.watch()  # type: ignore[attr-defined]

    def action_watch_table(self) -> None:
        """Watch the table under the cursor from no seat: what every seat sees, never a hand."""
        row = self.chosen_row()
        if row is None or row.table is None:
            return
        if not row.table.watchable:
            self.set_notice("That table's maker has closed it to watchers.", error=True)
            return
        self.app.join(str(row.table.socket), watch=True)  # type: ignore[attr-defined]

    def action_leaderboard(self) -> None:
        from tui.screens.leaderboard import LeaderboardScreen

        self.app.push_screen(LeaderboardScreen(self.player_name))

    def action_stats(self) -> None:
        host(self).show_stats()

    def action_rules(self) -> None:
        from tui.screens.rules import RulesScreen

        self.app.push_screen(RulesScreen(self.app.last_game, every_game=True))  # type: ignore[attr-defined]
