"""Game over: who won and by which rule, the standings, every round's scores (a table, or a chart of
the totals round by round), where the deals came from (the secret, shown now the match is over, or
the seed; at a joined table, the check of its deals against the commitment it sent at the start);
the rating change and the accuracy of the match once the record has them (`show_record`); rematch or
a new match."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from core import Match
from core.chance import SHORT_COMMITMENT
from tui.fair_check import FairCheck
from tui.host import host
from tui.outcome import Outcome, Standing, outcome
from tui.presentation import scorepad_extras
from tui.styles import STYLES
from tui.table_model import TableModel, as_table
from tui.widgets.footer import Footer
from tui.widgets.scorepad import ScoreSheet, ScoreTable

POINTS = "points a decision"


def standings(source: Match | TableModel) -> list[tuple[int, str, int]]:
    """(place, name, total), the winners first, then the others by their totals (see tui.outcome)."""
    table = as_table(source)
    return [(row.place, row.name, row.total) for row in match_outcome(table).standings]


def match_outcome(table: TableModel) -> Outcome:
    """The outcome seen from this screen: "you" is the viewer when one player alone sits here."""
    view = table.view()
    match: Match | None = getattr(table, "match", None)
    alone = match is None or len(match.humans) == 1  # a joined table is its player's own screen
    if getattr(table, "watching", False):
        alone = False  # a watcher's screen: nobody here played
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

    CSS_PATH: ClassVar = STYLES / "game_over.tcss"

    BINDINGS = [
        Binding("r", "choose('rematch')", "Rematch", id="over.rematch"),
        Binding("n", "choose('new')", "New match", id="over.new"),
        Binding("q", "choose('title')", "Title", id="over.title"),
        Binding("v", "review", "Review", id="over.review"),
        Binding("g", "chart", "Chart", tooltip="The totals round by round, as a chart (or the table)", id="over.chart"),
    ]

    @dataclass
    class CopyKept(Message):
        """A joined table's finished match was kept in this player's saves as `match_id` (`seat` is
        theirs): the app puts it into the player's record, and shows the rating change here."""

        screen: GameOverScreen
        match_id: str
        seat: int

    def __init__(self, table: Match | TableModel) -> None:
        super().__init__()
        self._copy_told = False
        self.table = as_table(table)
        self.view = self.table.view()
        self.match: Match | None = getattr(self.table, "match", None)  # a rematch needs the whole match
        self.outcome = match_outcome(self.table)
        self.charted = False

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
            yield Static("", id="over-record")
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
        self.query_one("#over-record", Static).display = False
        rounds = self.query_one("#score-rounds", VerticalScroll)
        rounds.focus()  # End, PageUp and the arrows scroll the rounds at once
        self.call_after_refresh(self._show_the_last_rounds)
        if self.match is None and self.fair_check() is None and getattr(self.table, "commitment", None) is not None:
            self._waiting = self.set_interval(REVEAL_POLL, self._look_for_reveal)
        else:
            self._tell_of_copy()

    def _look_for_reveal(self) -> None:
        """The table reveals the match just after its last move: show its check when it comes."""
        if self.fair_check() is not None:
            self._waiting.stop()
            self._refresh_footnote()
            self._tell_of_copy()

    def _tell_of_copy(self) -> None:
        """Once, when a joined table's match has been kept in this player's saves: `CopyKept`."""
        check = self.fair_check()
        if check is None or check.match_id is None or self._copy_told:
            return
        self._copy_told = True
        self.post_message(self.CopyKept(self, check.match_id, self.table.viewer))

    # The two below run after a refresh, when the screen may have let go of its widgets: a watched
    # match's screen is dismissed by itself, and on a busy machine that may come first.
    def _refresh_footnote(self) -> None:
        rounds = self.query_one_optional("#score-rounds", VerticalScroll)
        footnote = self.query_one_optional("#over-seed", Static)
        if rounds is not None and footnote is not None:
            footnote.update(self.footnote(scrolls=rounds.max_scroll_y > 0))

    def _show_the_last_rounds(self) -> None:
        """The hand that decided the match is the last: start there, just above the totals."""
        rounds = self.query_one_optional("#score-rounds", VerticalScroll)
        if rounds is not None and rounds.max_scroll_y > 0:
            rounds.scroll_end(animate=False, immediate=True)
            self._refresh_footnote()

    # -- the record -------------------------------------------------------------------------------
    def show_record(self, results: list[tuple[str, dict[str, Any]]], weighing: bool = False) -> None:
        """The rating change and accuracy of each person here, from the record (`records.summary.
        match_result`); `weighing`: the match's review is being weighed in the background."""
        if not self.is_mounted:
            return
        lines = [record_line(name, result, len(results) > 1, weighing) for name, result in results[:2]]
        line = self.query_one("#over-record", Static)
        line.update(Text("\n".join(lines)))
        line.display = bool(lines)

    # -- the chart ----------------------------------------------------------------------------------
    def action_chart(self) -> None:
        """Swap the table of rounds for a chart of the totals after each round, and back."""
        from tui.widgets.chart import Chart

        self.charted = not self.charted
        scores = self.query_one("#over-scores", ScoreTable)
        scores.display = not self.charted
        if self.charted and not self.query("#over-chart"):
            chart = Chart("totals after each round", "line", id="over-chart")
            self.query_one("#over-box").mount(chart, after=scores)
            chart.show_lines(total_series(self.table.names, self.view.round_scores))
        for chart in self.query("#over-chart"):
            chart.display = self.charted

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


def total_series(names: list[str] | tuple[str, ...], round_scores: Any) -> list[tuple[str, list[int], list[int]]]:
    """Each player's running total after each round (0 before the first)."""
    series = []
    for seat, name in enumerate(names):
        totals, total = [0], 0
        for scores in round_scores:
            total += scores[seat]
            totals.append(total)
        series.append((name, list(range(len(totals))), totals))
    return series


def record_line(name: str, result: dict[str, Any], named: bool, weighing: bool) -> str:
    """ "Rating 1624 ± 210 (+38), about medium", and under it "accuracy this match: 0.42 points a
    decision (your average 0.61)"; with `named` (more than one person played here), one line each,
    the player's name first."""
    if result["rated"]:
        before, after = result["before"], result["after"]
        change = after["shown"] - before["shown"]
        rating = f"Rating {after['text']} ({change:+d}), {after['level']}"
    else:
        rating = f"Not rated ({result['excluded'] or 'not counted'})"
    if result["mean_loss"] is not None:
        average = (
            f" (your average {result['average']:.2f})" if result["average"] is not None else " (your first reviewed)"
        )
        accuracy = f"accuracy this match: {result['mean_loss']:.2f} {POINTS}{average}"
    elif weighing:
        accuracy = "accuracy this match: being weighed..."
    else:
        accuracy = ""
    if named:
        return f"{name}: {rating}" + (f" · {accuracy.removeprefix('accuracy this match: ')}" if accuracy else "")
    return f"{rating}\n{accuracy}" if accuracy else rating
