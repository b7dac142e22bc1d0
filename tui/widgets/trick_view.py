"""TrickView: the middle of a Moon table. The bidding while it lasts, then the bidder's widow and
trump, then the trick in play by seat with the suit led and trump, and the tricks each seat won."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.widget import Widget

from core.games.moon_suits import NO_TRUMP, TRUMP, led_suit, suit_name, trick_winner, trump_name
from core.tiles import Tile
from core.words import possessive, with_verb
from tui.widgets.dominoes import domino, tile_text

WINNING_MARK = "◀ winning"
TRICKS = 7  # MN-13: seven tricks a hand


def trick_word(count: int) -> str:
    return "trick" if count == 1 else "tricks"


def suited(tile: Tile, suit: int | None) -> Text:
    """A tile with the number of `suit` first, so the suit it plays to reads first."""
    if suit is not None and suit != TRUMP and suit in tile:
        return domino(suit, tile.other(suit), "bold")
    return tile_text(tile, "bold")


def bid_words(amount: int) -> str:
    return "passed" if amount == 0 else "bid 21, all seven tricks" if amount == 21 else f"bid {amount}"


class TrickView(Widget):
    """Shows a `MoonView` for the seat `viewer`; redrawn by `show` after every event. At a table it
    speaks to the viewer ("You lead", "press Enter"); `addressed=False` (the review, which steps
    through a seat's play) names the seat instead and gives no instructions, since its keys do
    other things there."""

    def __init__(self, *, id: str | None = None, classes: str | None = None, addressed: bool = True) -> None:
        super().__init__(id=id, classes=classes)
        self.addressed = addressed
        self.border_title = "Trick"
        self.view: Any = None
        self.names: Sequence[str] = ()

    def show(self, view: Any, names: Sequence[str]) -> None:
        self.view = view
        self.names = tuple(names)
        self.border_title = {"bidding": "Bidding", "discard": "Widow", "trump": "Trump"}.get(view.phase, "Trick")
        self.refresh(layout=True)

    # -- drawing -----------------------------------------------------------------------------------
    def render(self) -> Text:
        view = self.view
        if view is None:
            return Text("")
        if view.phase == "deal" and (view.redeal or not view.tricks):
            return self._between_hands()
        lines: list[Text] = [self._headline()]
        if view.phase == "bidding":
            lines.extend(self._bidding())
        elif view.phase in ("discard", "trump"):
            lines.extend(self._widow())
        elif view.phase in ("deal", "over"):
            lines.append(Text("The hand is over: all seven tricks are played.", style="dim"))
        else:
            lines.extend(self._trick())
        if view.phase in ("play", "over", "deal") or view.tricks:
            lines.append(Text(""))
            lines.append(self._taken())
            if view.tricks:
                lines.append(self._last_trick())
        return Text("\n").join(lines)

    def _who(self, seat: int) -> str:
        return self.names[seat] if seat < len(self.names) else f"Seat {seat + 1}"

    def _headline(self) -> Text:
        view = self.view
        text = Text(f"Hand {view.round}", style="bold")
        if view.bidder is not None:
            text.append(f" · {self._who(view.bidder)} bid {view.bid}")
        if view.trump is not None:
            text.append(" · " if view.trump == NO_TRUMP else " · trump ")
            text.append(trump_name(view.trump), style="bold reverse")
        return text

    def _between_hands(self) -> Text:
        view = self.view
        if view.redeal:
            return Text("Everyone passed: the tiles are dealt again (MN-10).", style="dim")
        return Text("The tiles are being dealt.", style="dim")

    def _bidding(self) -> list[Text]:
        view = self.view
        spoken = dict(view.bids)
        first = view.first_bidder or 0
        lines = []
        for step in range(view.players):
            seat = (first + step) % view.players
            row = Text(f"  {self._who(seat):<10} ")
            if seat in spoken:
                row.append(bid_words(spoken[seat]), style="bold" if spoken[seat] else "dim")
            elif seat == view.to_move:
                row.append("to speak…", style="italic")
            else:
                row.append("waits", style="dim")
            lines.append(row)
        highest = max((amount for _, amount in view.bids), default=0)
        lines.append(Text(""))
        lines.append(
            Text(
                f"Highest bid so far: {highest}." if highest else "No bid yet: 4 to 7 tricks, or 21.",
                style="dim",
            )
        )
        lines.append(Text("The highest bidder takes the widow.", style="dim"))
        return lines

    def _widow(self) -> list[Text]:
        view = self.view
        bidder = self._who(view.bidder)
        lines = []
        if view.widow is not None and not self.addressed:  # the review: told of the bidder, by name
            lines.extend(self._widow_told(bidder))
        elif view.widow is not None and view.phase == "discard":  # the bidder's own view (MN-11)
            row = Text("The widow ")
            row.append_text(tile_text(view.widow, "bold"))
            row.append(" is in your hand now.")
            lines.append(row)
            lines.append(Text("Pick a tile to lay aside face down", style="bold"))
            lines.append(Text("(it may be the widow) and press Enter.", style="bold"))
        elif view.widow is not None:  # laid aside: the widow itself, or another tile
            row = Text("You laid the widow " if view.discard == view.widow else "The widow ")
            row.append_text(tile_text(view.widow, "bold"))
            if view.discard == view.widow:
                row.append(" aside.")
            else:
                row.append(" is in your hand; you laid ")
                row.append_text(tile_text(view.discard, "bold"))
                row.append(" aside.")
            lines.append(row)
            lines.append(Text("Now name trump.", style="bold"))
        elif view.phase == "discard":
            lines.append(Text(f"{bidder} takes the widow and lays one tile aside."))
        else:
            lines.append(Text(f"{bidder} laid a tile aside and is naming trump."))
        return lines

    def _widow_told(self, bidder: str) -> list[Text]:
        """The bidder's widow and discard, in the third person (the name "You" still reads "you")."""
        view = self.view
        row = Text("The widow ")
        row.append_text(tile_text(view.widow, "bold"))
        if view.phase == "discard":
            row.append(f" went to {possessive(bidder)} hand.")
            return [row, Text(f"{with_verb(bidder, 'lay')} one tile aside face down.")]
        if view.discard == view.widow:
            row = Text(f"{bidder} laid the widow ")
            row.append_text(tile_text(view.widow, "bold"))
            row.append(" aside.")
        else:
            row.append(f" is in {possessive(bidder)} hand; laid aside: ")
            row.append_text(tile_text(view.discard, "bold"))
            row.append(".")
        return [row, Text(f"{with_verb(bidder, 'name')} trump next.")]

    def _trick(self) -> list[Text]:
        view = self.view
        lines = []
        trump = view.trump
        leader = view.leader
        suit = led_suit(view.trick[0], trump) if view.trick else None
        if suit is None:
            seat = view.to_move
            you = seat == view.seat and self.addressed
            lead = f"{with_verb(self._who(seat), 'lead', you)}." if seat is not None else ""
            lines.append(Text(f"Nothing led yet. {lead}".strip(), style="dim"))
        else:
            row = Text("Suit led: ")
            row.append("trumps" if suit == TRUMP else f"{suit_name(suit)}s", style="bold")
            lines.append(row)
        winning = (leader + trick_winner(view.trick, trump)) % view.players if view.trick else None
        for seat in range(view.players):
            row = Text(f"  {self._who(seat):<10} ")
            position = (seat - leader) % view.players if leader is not None else None
            if position is not None and position < len(view.trick):
                row.append_text(suited(view.trick[position], suit))
                if position == 0:
                    row.append(" led", style="dim")
                if seat == winning:
                    row.append(f" {WINNING_MARK}", style="bold green")
            elif seat == view.to_move:
                row.append("to play…", style="italic")
            else:
                row.append("·", style="dim")
            lines.append(row)
        return lines

    def _taken(self) -> Text:
        view = self.view
        text = Text("Tricks won: ")
        text.append(" · ".join(f"{self._who(seat)} {won}" for seat, won in enumerate(view.taken)))
        if view.bidder is not None and view.phase == "play":
            promised = 7 if view.bid == 21 else view.bid
            short = promised - view.taken[view.bidder]
            left = TRICKS - len(view.tricks)  # the trick in play among them
            if short <= 0:
                text.append(" (the bid is made)", style="dim")
            elif short > left:  # MN-17: it can no longer be made
                text.append(f" (the bid is lost: {short} more needed, {left} {trick_word(left)} left)", style="dim")
            else:
                text.append(f" (the bid needs {short} more)", style="dim")
        return text

    def _last_trick(self) -> Text:
        view = self.view
        last = view.tricks[-1]
        suit = led_suit(last.tiles[0], view.trump)
        text = Text("Last trick: ", style="dim")
        for position, tile in enumerate(last.tiles):
            if position:
                text.append(" ")
            text.append_text(suited(tile, suit))
        text.append(f" → {self._who(last.winner)}", style="dim")
        return text
