"""How the review shows a verdict: its words, its colour and its mark in the strip of decisions.

The marks differ in shape as well as colour (a dot for a sound move, a question mark for one the
deals cannot judge, a triangle for a flawed one, a cross for a blunder), so the strip reads on a
terminal of few colours too. The words are the verdicts' own names (core/review/verdicts.py),
capitalised, as the command's report and the README's table give them.
"""

from __future__ import annotations

from rich.text import Text

from core.review.verdicts import VERDICTS

VERDICT_WORDS = {verdict: verdict.capitalize() for verdict in VERDICTS}
# Inaccuracy, mistake and blunder go from yellow through orange to red, as chess programs colour
# them; the exact shades keep yellow and orange apart under themes that tint the named colours.
VERDICT_STYLES = {
    "best": "bold green",
    "good": "green",
    "unclear": "bold cyan",
    "inaccuracy": "bold #e6d200",
    "mistake": "bold #ff8700",
    "blunder": "bold red",
}
VERDICT_MARKS = {"best": "●", "good": "●", "unclear": "?", "inaccuracy": "▲", "mistake": "▲", "blunder": "✖"}
FORCED_MARK = "·"  # a decision with one legal move: nothing to judge
PENDING_MARK = "◌"  # not weighed yet


def verdict_text(verdict: str) -> Text:
    return Text(VERDICT_WORDS[verdict], style=VERDICT_STYLES[verdict])


def verdict_mark(verdict: str | None, forced: bool = False) -> Text:
    """The strip's mark for a decision: its verdict's, or forced, or still to be weighed."""
    if verdict is None:
        return Text(PENDING_MARK, style="dim")
    if forced:
        return Text(FORCED_MARK, style="dim")
    return Text(VERDICT_MARKS[verdict], style=VERDICT_STYLES[verdict])
