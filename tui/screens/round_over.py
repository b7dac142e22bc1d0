"""The end of a round: every hand revealed, with its pips and the round's scores."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from core import Match
from core.words import plural
from tui.host import host
from tui.presentation import high_score_wins
from tui.styles import STYLES
from tui.table_model import TableModel, as_table
from tui.widgets.dominoes import tile_text
from tui.widgets.footer import Footer
from tui.widgets.scorepad import BIDDER_MARK, WINNER_MARK, round_winners


def revealed_hands(view: Any) -> tuple[tuple, ...]:
    """Every hand at the end of the round: the views of a finished round reveal them all."""
    return view.revealed


def round_headline(game_name: str, names: tuple[str, ...], view: Any) -> Text:
    """The round's outcome in a line: plain text (the names are the players' own, never markup)."""
    return Text(_headline(game_name, names, view))


def _headline(game_name: str, names: tuple[str, ...], view: Any) -> str:
    if game_name == "moon":
        record = view.records[-1] if view.records and not view.redeal else None
        if record is None:
            return f"Hand {view.round}: everyone passed"
        outcome = "made it" if record.made else "went set"
        return (
            f"Hand {record.hand} over: {names[record.bidder]} bid {record.bid} and {outcome}"
            f" with {plural(record.tricks[record.bidder], 'trick')}"
        )
    if view.went_out is not None:
        return f"Round {view.round} over: {names[view.went_out]} went out"
    return f"Round {view.round} over: the game is blocked"


class RoundOverScreen(ModalScreen[str]):
    """Dismissed with "next" (go on) or "undo" (take back the last decision)."""

    CSS_PATH: ClassVar = STYLES / "round_over.tcss"

    BINDINGS = [
        Binding("enter", "next", "Continue", id="round.next", priority=True),
        Binding("u", "undo", "Undo", id="round.undo"),
        Binding("v", "review", "Review", id="round.review"),
    ]

    def __init__(self, table: Match | TableModel) -> None:
        super().__init__()
        table = as_table(table)
        self.game_name = table.game_name
        self.names = table.names
        self.view = table.view()  # as the round ended: a remote table may deal the next one meanwhile
        self.match: Match | None = getattr(table, "match", None)  # a local table's whole match
        self.viewer = table.viewer
        self.can_undo = table.can_undo()
        self.undo_refusal = table.undo_refusal()  # a round's end stops undo at a shared table

    def compose(self) -> ComposeResult:
        view = self.view
        with Vertical(id="round-box"):
            yield Static(round_headline(self.game_name, self.names, view), id="round-headline")
            yield DataTable(id="reveal", cursor_type="none", show_cursor=False)
            following = "hand" if self.game_name == "moon" else "round"
            hint = "Enter: the final scores" if view.over else f"Enter: deal the next {following}"
            undo = " · u: undo the last move" if self.can_undo else ""
            yield Static(Text(f"{hint}{undo}", style="dim"), id="round-hint")
        yield Footer()

    def on_mount(self) -> None:
        view = self.view
        table = self.query_one("#reveal", DataTable)
        scores = view.round_scores[-1] if view.round_scores else (0,) * view.players
        if self.game_name == "moon":
            self._moon_rows(table, scores)
            return
        table.add_columns("Player", "Tiles left", "Round", "Total")
        winners = round_winners(scores, high_score_wins(self.game_name))
        for seat, hand in enumerate(revealed_hands(view)):
            tiles = Text(" ").join(tile_text(tile) for tile in hand) if hand else Text("out", style="bold")
            mark = f" {WINNER_MARK}" if seat in winners else ""
            table.add_row(Text(self.names[seat]), tiles, Text(f"{scores[seat]}{mark}"), Text(str(view.scores[seat])))
        table.can_focus = False

    def _moon_rows(self, table: DataTable, scores: tuple[int, ...]) -> None:
        """Moon: every tile was played, so the hand is told by tricks won (MN-17, MN-18)."""
        view = self.view
        table.add_columns("Player", "Tricks", "Hand", "Total")
        bidder = view.records[-1].bidder if view.records else None
        for seat in range(view.players):
            mark = f" {BIDDER_MARK} bid {view.bid}" if seat == bidder else ""
            table.add_row(
                Text(self.names[seat]),
                Text(f"{view.taken[seat]}{mark}"),
                Text(str(scores[seat])),
                Text(str(view.scores[seat])),
            )
        table.can_focus = False

    def action_next(self) -> None:
        self.dismiss("next")

    def action_undo(self) -> None:
        if not self.can_undo:
            why = self.undo_refusal or "Nothing to undo."
            self.query_one("#round-hint", Static).update(Text(why, style="bold"))
            return
        self.dismiss("undo")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "review":
            return self.match is not None  # a table across the network has only this seat's view
        return True

    def action_review(self) -> None:
        if self.match is not None:
            host(self).show_review(self.match, seat=self.viewer, start_round=self.view.round)
