"""The process in which a review weighs decisions (see `workers.review_pool`).

It reads frames (as the bot worker does: a 4-byte length, then a msgpack map) from standard input:
first the match as plain data (game, players, options, seed, events) with the review's settings,
then one decision at a time, `{"index": N}` for event N. For each it answers with the weighing of
that decision (every legal move's mean value over the sampled deals) or an error sentence. The
match is rebuilt by replaying its events through the rules, so a request can never describe a
position that could not happen, and each decision is weighed from its seat's view alone.
"""

from __future__ import annotations

import sys
from typing import Any

import msgpack

from core import IllegalMove, Match
from core.moves import Deal, Move
from core.review import ReviewSettings, weigh_decision
from workers.bot_worker import lower_priority, read_frame, serve, write_frame


def rebuild(request: dict[str, Any]) -> tuple[Match, ReviewSettings]:
    """The match and settings a review's first frame describes; ValueError if they make no sense."""
    try:
        match = Match(request["game"], request["players"], request["options"], None, request["seed"])
        for data in request["events"]:
            match.apply(Move.from_data(data))
        return match, ReviewSettings.from_data(request["settings"])
    except (IllegalMove, KeyError, TypeError) as error:
        raise ValueError(f"the match to review is not valid: {error}") from None


def weigh_event(match: Match, settings: ReviewSettings, request: Any) -> dict[str, Any]:
    index = request.get("index") if isinstance(request, dict) else None
    if type(index) is not int or not 0 <= index < match.cursor or type(match.events[index]) is Deal:
        return {"index": index, "error": f"event {index!r} is not a decision of this match"}
    weighing = weigh_decision(match.game, match.state_at(index), match.events[index], index, settings)
    return {"index": index, "means": list(weighing.means), "worlds": weighing.worlds, "error_se": weighing.error}


def main() -> int:
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    try:
        first = read_frame(stdin)
        if first is None:
            return 0
        if not isinstance(first, dict):
            raise ValueError("the first frame must describe the match")
        lower_priority(int(first.get("nice", 0)))
        match, settings = rebuild(first)
    except (ValueError, msgpack.UnpackException) as error:
        write_frame(stdout, {"error": f"bad request: {error}"})
        return 1
    return serve(lambda request: weigh_event(match, settings, request))


if __name__ == "__main__":
    sys.exit(main())
