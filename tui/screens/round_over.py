"""The end of a round: every hand revealed, with its pips and the round's scores."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Footer, Static

from core import Match
from tui.presentation import high_score_wins
from tui.widgets.dominoes import tile_text
from tui.widgets.scorepad import BIDDER_MARK, WINNER_MARK, round_winners


def revealed_hands(match: Match) -> tuple[tuple, ...]:
    """Every hand at the end of the round (the first seat's view reveals them all)."""
    view = match.view(0)
    revealed = getattr(view, "revealed", None)
    return revealed if revealed is not None else tuple(match.state.hands)


def round_headline(match: Match) -> str:
    state = match.state
    if match.game_name == "moon":
        record = state.records[-1] if state.records and not state.info.redeal else None
        if record is None:
            return f"Hand {state.round}: everyone passed"
        outcome = "made it" if record.made else "went set"
        return (
            f"Hand {record.hand} over: {match.names[record.bidder]} bid {record.bid} and {outcome}"
            f" with {record.tricks[record.bidder]} tricks"
        )
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
            following = "hand" if match.game_name == "moon" else "round"
            hint = "Enter: the final scores" if match.state.over else f"Enter: deal the next {following}"
            yield Static(f"[dim]{hint} · u: undo the last move[/dim]", id="round-hint")
        yield Footer()

    def on_mount(self) -> None:
        match = self.match
        table = self.query_one("#reveal", DataTable)
        scores = match.state.round_scores[-1] if match.state.round_scores else (0,) * match.players
        if match.game_name == "moon":
            self._moon_rows(table, scores)
            return
        table.add_columns("Player", "Tiles left", "Round", "Total")
        winners = round_winners(scores, high_score_wins(match.game_name))
        for seat, hand in enumerate(revealed_hands(match)):
            tiles = Text(" ").join(tile_text(tile) for tile in hand) if hand else Text("out", style="bold")
            mark = f" {WINNER_MARK}" if seat in winners else ""
            table.add_row(match.names[seat], tiles, Text(f"{scores[seat]}{mark}"), Text(str(match.state.scores[seat])))
        table.can_focus = False

    def _moon_rows(self, table: DataTable, scores: tuple[int, ...]) -> None:
        """Moon: every tile was played, so the hand is told by tricks won (MN-17, MN-18)."""
        match = self.match
        state = match.state
        table.add_columns("Player", "Tricks", "Hand", "Total")
        bidder = state.records[-1].bidder if state.records else None
        for seat in range(match.players):
            mark = f" {BIDDER_MARK} bid {state.bid}" if seat == bidder else ""
            table.add_row(
                match.names[seat],
                Text(f"{state.taken[seat]}{mark}"),
                Text(str(scores[seat])),
                Text(str(state.scores[seat])),
            )
        table.can_focus = False

    def action_next(self) -> None:
        self.dismiss("next")

    def action_undo(self) -> None:
        self.dismiss("undo")
