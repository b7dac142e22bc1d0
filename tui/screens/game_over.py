"""Game over: the standings, the round-by-round table, the seed; rematch or a new match."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from core import Match
from tui.presentation import high_score_wins, scorepad_extras
from tui.widgets.scorepad import Scorepad


def standings(match: Match) -> list[tuple[int, str, int]]:
    """(place, name, total), the best total first (the lowest, or the highest where scores go up);
    equal totals share a place."""
    totals = match.state.scores
    sign = -1 if high_score_wins(match.game_name) else 1
    order = sorted(range(match.players), key=lambda seat: (sign * totals[seat], seat))
    rows = []
    for seat in order:
        place = 1 + sum(1 for other in totals if sign * other < sign * totals[seat])
        rows.append((place, match.names[seat], totals[seat]))
    return rows


class GameOverScreen(Screen[str]):
    """Dismissed with "rematch", "new" or "title"."""

    BINDINGS = [
        Binding("r", "choose('rematch')", "Rematch", id="over.rematch"),
        Binding("n", "choose('new')", "New match", id="over.new"),
        Binding("q", "choose('title')", "Title", id="over.title"),
    ]

    def __init__(self, match: Match) -> None:
        super().__init__()
        self.match = match

    def compose(self) -> ComposeResult:
        match = self.match
        winners = [match.names[seat] for seat in match.state.winners]
        headline = " and ".join(winners) + (" win" if len(winners) > 1 else " wins")
        which = "highest" if high_score_wins(match.game_name) else "lowest"
        with Vertical(id="over-box"):
            yield Static(f"[b]{match.game.title}: game over.[/b] {headline} ({which} total wins)", id="over-headline")
            yield DataTable(id="standings", cursor_type="none", show_cursor=False)
            yield Scorepad(room=76, id="over-scorepad")
            yield Static(f"Seed {match.seed} · r: rematch with a new deal · n: new match", id="over-seed")
        yield Footer()

    def on_mount(self) -> None:
        match = self.match
        table = self.query_one("#standings", DataTable)
        table.add_columns("Place", "Player", "Total")
        for place, name, total in standings(match):
            style = "bold" if place == 1 else ""
            table.add_row(Text(str(place), style=style), Text(name, style=style), Text(str(total), style=style))
        state = match.state
        self.query_one(Scorepad).show(
            match.names, state.round_scores, state.scores, **scorepad_extras(match.game_name, state)
        )

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)
