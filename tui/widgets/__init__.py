"""The widgets of the table: the hand, the board tree, the scorepad."""

from tui.widgets.board_tree import BoardTree
from tui.widgets.hand_view import HandView
from tui.widgets.move_log import MoveLog
from tui.widgets.scorepad import Scorepad

__all__ = ["BoardTree", "HandView", "MoveLog", "Scorepad"]
