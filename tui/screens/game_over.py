"""Game over: who won and by which rule, the standings, every round's scores, where the deals came
from (the secret, shown now the match is over, or the seed; at a joined table, the check of its
deals against the commitment it sent at the start); rematch or a new match."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from core import Match
from core.chance import SHORT_COMMITMENT
from tui.fair_check import FairCheck
from tui.host import host
from tui.outcome import Outcome, Standing, outcome
from tui.presentation import scorepad_extras
from tui.table_model import TableModel, as_table
from tui.widgets.footer import Footer
from tui.widgets.scorepad import ScoreSheet, ScoreTable


def standings(source: Match | TableModel) -> list[tuple[int, str, int]]:
    """(place, name, total), the winners first, then the others by their totals (see tui.outcome)."""
    table = as_table(source)
    return [(row.place, row.name, row.total) for row in match_outcome(table).standings]


def match_outcome(table: TableModel) -> Outcome:
    """The outcome seen from this screen: "you" is the viewer when one player alone sits here."""
    view = table.view()
    match: Match | None = getattr(table, "match", None)
    alone = match is None or len(match.humans) == 1  # a joined table is its player's own screen
    return outcome(table.game_name, view, table.names, table.viewer if alone else None)


def standings_text(rows: list[Standing]) -> Text:
    width = max(len("Player"), *(len(row.name) for row in rows))
    text = Text(f"{'Place':<6} {'Player':<{width}} {'Total':>5}", style="bold")
    for row in rows:
        line = Text(f"\n{row.place:<6} ", style="bold" if row.place == 1 else "")
        line.append(row.name)  # a player's own name: plain text, never markup
        line.append(" " * (width - len(row.name)) + f" {row.total:>5}")
        text.append_text(line)
    return text


REVEAL_POLL = 0.2  # seconds between looks for a joined table's revealed match


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
        self.outcome = match_outcome(self.table)

    def compose(self) -> ComposeResult:
        table = self.table
        view = self.view
        result = self.outcome
        headline = Text(f"{table.game.title}: game over. ", style="bold")
        headline.append(result.headline + ".", style="bold")  # names are plain text, never markup
        extras = scorepad_extras(table.game_name, view)
        sheet = ScoreSheet(table.names, view.round_scores, view.scores, winners=view.winners, **extras)
        with Vertical(id="over-box"):
            yield Static(headline, id="over-headline")
            yield Static(Text(result.reason), id="over-reason")
            yield Static(standings_text(result.standings), id="standings")
            yield ScoreTable(sheet, max(30, self.app.size.width - 2), id="over-scores")
            yield Static(self.footnote(), id="over-seed")
        yield Footer()

    def footnote(self, scrolls: bool = False) -> str:
        """Where the deals came from (the secret, now the match is over, or the seed; at a joined
        table, the check of its deals), the rematch key, and the scroll keys."""
        lines: list[str] = []
        parts: list[str] = []
        match = self.match
        if match is not None:
            if match.secret is not None:
                lines.append(f"Secret {match.secret.hex()}")
                parts.append(f"Commitment {(match.commitment or '')[:SHORT_COMMITMENT]}")
            elif match.seed is not None:
                parts.append(f"Seed {match.seed}")
            parts.append("r: a rematch with a new deal")
        else:
            check = self.fair_check()
            if check is not None:
                lines += check.lines
            elif getattr(self.table, "commitment", None) is not None:
                lines.append("Waiting for the table's secret, to check the deals…")
        if scrolls:
            parts.append("↑ ↓ PgUp PgDn: every round")
        if parts:
            lines.append(" · ".join(parts))
        return "\n".join(lines)

    def fair_check(self) -> FairCheck | None:
        """A joined table's check of its deals, once it has revealed the match."""
        check = getattr(self.table, "fair_check", None)
        return check() if callable(check) else None

    def on_mount(self) -> None:
        rounds = self.query_one("#score-rounds", VerticalScroll)
        rounds.focus()  # End, PageUp and the arrows scroll the rounds at once
        self.call_after_refresh(self._show_the_last_rounds)
        if self.match is None and self.fair_check() is None and getattr(self.table, "commitment", None) is not None:
            self._waiting = self.set_interval(REVEAL_POLL, self._look_for_reveal)

    def _look_for_reveal(self) -> None:
        """The table reveals the match just after its last move: show its check when it comes."""
        if self.fair_check() is not None:
            self._waiting.stop()
            self._refresh_footnote()

    def _refresh_footnote(self) -> None:
        rounds = self.query_one("#score-rounds", VerticalScroll)
        self.query_one("#over-seed", Static).update(self.footnote(scrolls=rounds.max_scroll_y > 0))

    def _show_the_last_rounds(self) -> None:
        """The hand that decided the match is the last: start there, just above the totals."""
        rounds = self.query_one("#score-rounds", VerticalScroll)
        if rounds.max_scroll_y > 0:
            rounds.scroll_end(animate=False, immediate=True)
            self._refresh_footnote()

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
