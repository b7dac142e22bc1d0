"""Game over: the standings, the round-by-round table, the seed; rematch or a new match."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from core import Match
from tui.host import host
from tui.presentation import high_score_wins, scorepad_extras
from tui.table_model import TableModel, as_table
from tui.widgets.scorepad import Scorepad


def standings(source: Match | TableModel) -> list[tuple[int, str, int]]:
    """(place, name, total), the best total first (the lowest, or the highest where scores go up);
    equal totals share a place."""
    table = as_table(source)
    totals = table.view().scores
    sign = -1 if high_score_wins(table.game_name) else 1
    order = sorted(range(table.players), key=lambda seat: (sign * totals[seat], seat))
    rows = []
    for seat in order:
        place = 1 + sum(1 for other in totals if sign * other < sign * totals[seat])
        rows.append((place, table.names[seat], totals[seat]))
    return rows


class GameOverScreen(Screen[str]):
    """Dismissed with "rematch", "new" or "title"."""

    BINDINGS = [
        Binding("r", "choose('rematch')", "Rematch", id="over.rematch"),
        Binding("n", "choose('new')", "New match", id="over.new"),
        Binding("q", "choose('title')", "Title", id="over.title"),
        Binding("v", "review", "Review", id="over.review"),
    ]

    def __init__(self, table: Match | TableModel) -> None:
        super().__init__()
        self.table = as_table(table)
        self.view = self.table.view()
        self.match: Match | None = getattr(self.table, "match", None)  # a rematch needs the whole match

    def compose(self) -> ComposeResult:
        table = self.table
        view = self.view
        winners = [table.names[seat] for seat in view.winners]
        headline = " and ".join(winners) + (" win" if len(winners) > 1 else " wins")
        which = "highest" if high_score_wins(table.game_name) else "lowest"
        if self.match is not None:
            footnote = f"Seed {self.match.seed} · r: rematch with a new deal · n: new match"
        else:
            footnote = "n: new match · q: leave"
        with Vertical(id="over-box"):
            yield Static(
                Text.assemble((f"{table.game.title}: game over.", "bold"), f" {headline} ({which} total wins)"),
                id="over-headline",
            )
            yield DataTable(id="standings", cursor_type="none", show_cursor=False)
            yield Scorepad(room=76, id="over-scorepad")
            yield Static(Text(footnote), id="over-seed")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#standings", DataTable)
        table.add_columns("Place", "Player", "Total")
        for place, name, total in standings(self.table):
            style = "bold" if place == 1 else ""
            table.add_row(Text(str(place), style=style), Text(name, style=style), Text(str(total), style=style))
        view = self.view
        self.query_one(Scorepad).show(
            self.table.names, view.round_scores, view.scores, **scorepad_extras(self.table.game_name, view)
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose" and parameters == ("rematch",):
            return self.match is not None  # a table across the network is the host's to restart
        if action == "review":
            return self.match is not None  # a table across the network has only this seat's view
        return True

    def action_review(self) -> None:
        if self.match is not None:
            host(self).show_review(self.match)

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)
