"""One name for every place on a draw game's layout.

A place is one line of play (`core.layout`): a train or a toe in Chicken Foot, an arm of a spinner
in Doubles. Its name is the same everywhere a player reads it: on the board, in a hint, in the move
log and in a refusal. The full name says which double the line grows from ("toe 2 of the 5-5",
"arm 2 of the centre 5-5"); Chicken Foot's trains are named by number alone ("train 3"), since
only the centre carries trains. The board, which draws the tree of doubles, may shorten a name to
its first part ("toe 2") when the width runs out.
"""

from __future__ import annotations

from typing import NamedTuple

from core.layout import CENTRE, Layout
from core.moves import Play


class Place(NamedTuple):
    word: str  # "train", "toe" or "arm"
    number: int  # counted from 1 among the lines of its double
    of: str  # the double it grows from ("the 5-5", "the centre 5-5"), or "" for a train

    def __str__(self) -> str:
        return f"{self.short} of {self.of}" if self.of else self.short

    @property
    def short(self) -> str:
        return f"{self.word} {self.number}"


# What each draw game calls a line on the centre double and a line on any other double.
WORDS = {"chicken-foot": ("train", "toe"), "doubles": ("arm", "arm")}


def place_of(game_name: str, board: Layout, line_id: int) -> Place:
    """The place of line `line_id` in a layout of `game_name`. When a game's lines on the centre
    have the same word as the others ("arm"), the centre's say so ("of the centre 6-6")."""
    centre_word, branch_word = WORDS[game_name]
    parent = board.lines[line_id].parent
    number = board.children(parent).index(line_id) + 1
    if parent == CENTRE:
        if centre_word != branch_word:
            return Place(centre_word, number, "")
        return Place(centre_word, number, f"the centre {board.centre}")
    return Place(branch_word, number, f"the {board.base_double(line_id)}")


class NamedPlaces:
    """The naming methods of a draw game (mixed into its `Game`), for the interface and hints."""

    name: str  # the game's name, a key of WORDS

    def place(self, board: Layout, line_id: int) -> Place:
        """The place of a line: "train 2", "toe 1 of the 5-5", "arm 2 of the 3-3"."""
        return place_of(self.name, board, line_id)

    def line_name(self, board: Layout, line_id: int) -> str:
        return str(self.place(board, line_id))

    def can_play(self, board: Layout, plays: list[Play]) -> str:
        """Why a player who can play may not draw or pass: "you can play the 1-9 on train 2" (the
        one play), or "you can play a tile (the 1-9 on train 2, for one)"."""
        example = f"the {plays[0].tile} on {self.line_name(board, plays[0].target)}"  # type: ignore[arg-type]
        return f"you can play {example}" if len(plays) == 1 else f"you can play a tile ({example}, for one)"
