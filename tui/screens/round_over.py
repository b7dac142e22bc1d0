"""The end of a round: every hand revealed, with its pips and the round's scores."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Footer, Static

from core import Match
from tui.widgets.dominoes import tile_text
from tui.widgets.scorepad import WINNER_MARK, round_winners


def revealed_hands(match: Match) -> tuple[tuple, ...]:
    """Every hand at the end of the round (the first seat's view reveals them all)."""
    view = match.view(0)
    revealed = getattr(view, "revealed", None)
    return revealed if revealed is not None else tuple(match.state.hands)


def round_headline(match: Match) -> str:
    state = match.state
    went_out = getattr(match.view(0), "went_out", None)
    names = match.names
    if went_out is not None:
        return f"Round {state.round} over: {names[went_out]} went out"
    return f"Round {state.round} over: the game is blocked"


class RoundOverScreen(ModalScreen[str]):
    """Dismissed with "next" (go on) or "undo" (take back the last decision)."""

    BINDINGS = [
        Binding("enter", "next", "Continue", id="round.next", priority=True),
        Binding("u", "undo", "Undo", id="round.undo"),
    ]

    def __init__(self, match: Match) -> None:
        super().__init__()
        self.match = match

    def compose(self) -> ComposeResult:
        match = self.match
        with Vertical(id="round-box"):
            yield Static(round_headline(match), id="round-headline")
            yield DataTable(id="reveal", cursor_type="none", show_cursor=False)
            hint = "Enter: the final scores" if match.state.over else "Enter: deal the next round"
            yield Static(f"[dim]{hint} · u: undo the last move[/dim]", id="round-hint")
        yield Footer()

    def on_mount(self) -> None:
        match = self.match
        table = self.query_one("#reveal", DataTable)
        table.add_columns("Player", "Tiles left", "Round", "Total")
        scores = match.state.round_scores[-1] if match.state.round_scores else (0,) * match.players
        winners = round_winners(scores)
        for seat, hand in enumerate(revealed_hands(match)):
            tiles = Text(" ").join(tile_text(tile) for tile in hand) if hand else Text("out", style="bold")
            mark = f" {WINNER_MARK}" if seat in winners else ""
            table.add_row(match.names[seat], tiles, Text(f"{scores[seat]}{mark}"), Text(str(match.state.scores[seat])))
        table.can_focus = False

    def action_next(self) -> None:
        self.dismiss("next")

    def action_undo(self) -> None:
        self.dismiss("undo")
