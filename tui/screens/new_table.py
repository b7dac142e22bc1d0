"""Opening a table: the new-match form, where a seat is yours, open for whoever joins, or a bot's.

The table is a `dominoes host` process of its own (it goes on when its maker leaves); once it is
up, its maker joins it at the first seat. A seed (the same deals again, for practice) is offered
only while every other seat is a bot's: once a seat is open for another player, the table deals
from a secret its process draws, which its maker never sees. Its maker also says whether people
may watch it from the lobby (seeing what every seat sees, never a hand).
"""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.containers import Horizontal
from textual.widgets import Input, Label, Select, Static

from core.bots import BOT_LEVELS
from tui.preferences import MAX_SEATS
from tui.screens.new_match import NewMatchScreen

OPEN = "human"  # at a table, a seat for a person is open until someone joins it
WATCHERS = [("Anyone may watch", True), ("Closed to watchers", False)]


class NewTableScreen(NewMatchScreen):
    def __init__(self, player_name: str, game_name: str | None = None) -> None:
        super().__init__(game_name)
        self.player_name = player_name
        self.sub_title = "New table"
        self.starting = False

    def seat_choices(self) -> list[tuple[str, str]]:
        return [("Open seat", OPEN)] + [(f"Bot: {level}", f"bot:{level}") for level in BOT_LEVELS]

    def on_mount(self) -> None:
        """After the form is composed; the new-match screen's own on_mount runs too (Textual calls
        every class's handler), building the rule options."""
        you = self.query_one("#name-0", Input)
        you.value = self.player_name
        you.disabled = True
        kind = self.query_one("#kind-0", Select)
        kind.value = OPEN
        kind.display = False  # the first seat is the table's maker's
        kind.parent.mount(Label("(you)", classes="seat-you"))  # type: ignore[union-attr]
        for seat in range(1, MAX_SEATS):
            # An open seat takes the name of whoever joins it; a bot keeps the name given here.
            self.query_one(f"#name-{seat}", Input).placeholder = "joiner's name"
        self.query_one("#start").label = "Open the table"  # type: ignore[attr-defined]
        watchers = Horizontal(
            Label("Watchers", classes="form-label"),
            Select(WATCHERS, value=True, allow_blank=False, compact=True, id="watchers"),
            classes="form-row",
            id="watchers-row",
        )
        self.query_one("#new-form").mount(watchers, before=self.query_one("#seed-row"))
        self._show_seed()

    def seed_allowed(self) -> bool:
        """No seed once any seat is open for another player: nobody may know the deals there."""
        kinds = [self.query_one(f"#kind-{seat}", Select).value for seat in range(1, self.players)]
        return OPEN not in kinds

    @on(Select.Changed)
    def _show_seed(self) -> None:
        self.query_one("#seed-row").display = self.seed_allowed()

    def action_start(self) -> None:
        if self.starting:
            return
        try:
            settings = self.read_settings()
        except ValueError as error:
            self.show_error(str(error))
            return
        self.starting = True
        self.show_error("Opening the table…", error=False)
        self.open_table(settings)

    def show_error(self, text: str, error: bool = True) -> None:
        notice = self.query_one("#new-error", Static)
        notice.update(Text(text, style="bold" if error else ""))
        notice.set_class(error, "error")

    @property
    def watchable(self) -> bool:
        return self.query_one("#watchers", Select).value is not False

    @work(thread=True, exclusive=True, group="open-table")
    def open_table(self, settings: object) -> None:
        from net.tables import TableError, TableSeat, create_table

        seats = []
        for index, seat in enumerate(settings.seats):  # type: ignore[attr-defined]
            if seat.is_bot:
                seats.append(TableSeat("bot", seat.name, seat.level))
            elif index == 0:
                seats.append(TableSeat("human", self.player_name))
            else:
                seats.append(TableSeat("open"))
        try:
            table = create_table(
                settings.game,  # type: ignore[attr-defined]
                seats,
                settings.options,  # type: ignore[attr-defined]
                self.player_name,
                settings.seed,  # type: ignore[attr-defined]
                limits=getattr(self.app, "limits", None),
                watchable=self.watchable,
            )
        except TableError as error:
            self.app.call_from_thread(self._failed, str(error))
            return
        self.app.call_from_thread(self.app.join, str(table.socket), 0)  # type: ignore[attr-defined]

    def _failed(self, reason: str) -> None:
        self.starting = False
        self.show_error(reason[0].upper() + reason[1:])
