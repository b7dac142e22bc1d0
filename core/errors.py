"""The one exception the engine raises for a move the rules do not allow."""

from __future__ import annotations


class IllegalMove(Exception):
    """A move the rules forbid. `rule` is the rule ID; `message` starts with it and says why.

    Example: IllegalMove("CF-10", "the chicken foot on 5-5 needs two more toes before any other play")
    has the message "CF-10: the chicken foot on 5-5 needs two more toes before any other play".
    """

    def __init__(self, rule: str, explanation: str) -> None:
        self.rule = rule
        self.message = f"{rule}: {explanation}"
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message
