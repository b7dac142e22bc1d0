"""The review of a match: every decision of a seat weighed against every legal alternative.

Each decision is judged from the deciding seat's view at that moment and nothing else: deals are
sampled from that view (`game.determinize`), every legal move is tried in the same deals and
played out to the end of the round with the search bots' own evaluation (their playouts and round
values; in Moon's last tricks, the hard bot's exact search), and the move made is compared with
the best of them. The expected shortfall, in the game's own points, gives the verdict.

    decisions(match, seats)             # the decisions to weigh, in order: rounds that are over
    in_play_note(match)                 # "round 10 is still being played: ..." (never judged)
    weigh(game, view, legal, seed, ...) # a Weighing: each move's mean value over common deals
    review_decision(...)                # a DecisionReview: loss, verdict, better move, reason
    build_report(...)                   # the whole review as plain data (the JSON of the CLI)
    branch(match, position, seat)       # a new match from a reviewed position ("play from here")

Everything here is pure: no I/O, and chance only from the seed it is given.
"""

from __future__ import annotations

from core.review.branch import branch
from core.review.decisions import Decision, decisions, in_play_note, reviewed_end, round_in_play
from core.review.report import DecisionReview, SeatSummary, build_report, review_decision, summarise
from core.review.verdicts import VERDICTS, verdict
from core.review.weigh import ReviewSettings, Weighing, weigh, weigh_decision

__all__ = [
    "VERDICTS",
    "Decision",
    "DecisionReview",
    "ReviewSettings",
    "SeatSummary",
    "Weighing",
    "branch",
    "build_report",
    "decisions",
    "in_play_note",
    "review_decision",
    "reviewed_end",
    "round_in_play",
    "summarise",
    "verdict",
    "weigh",
    "weigh_decision",
]
