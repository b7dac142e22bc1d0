"""Every fact a lesson states is true of the position: each lesson's texts read against the engine at
their step, and each lesson's move judged by the review.

A sentence that counts, ranks or rules out ("you hold four of the six", "the lowest 4", "nobody
else holds one", "Ben 48") must be covered by a claim below, and every claim is checked against the
state of the lesson's script at that step (before the step's move; the closing step: the round's
end), or against the moves of the step. A sentence that restates a rule is checked where the engine
can show it (the legal moves at the step), and otherwise is tied to a rule the step cites. A new
sentence with a number or an "only" fails the test until a claim covers it.

A lesson's move is one the review judges best or good, weighed at a generous fixed number of deals;
where the review prefers another move, the step's `prefers` names it and says why the lesson asks
for its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from core import GAME_NAMES, get_game
from core.games.moon_suits import MEMBERS, MOON_SET, TRUMP, is_trump, power, rank_in, trick_winner
from core.moves import Bid, Discard, Draw, Pass, Play, Trump
from core.review import Decision, ReviewSettings, review_decision, weigh_decision
from core.tiles import Tile
from tests.tui.test_lesson_files import Event, replay
from tui.lessons import Lesson, Step, load_lesson

# A sentence with one of these states a fact that can be wrong: it needs a claim.
RISKY = re.compile(
    r"\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|twice|both|only|never|every|all|no one|nobody|none|no"
    r"|last|highest|lowest|top|heaviest|lightest|smallest|biggest)\b",
    re.IGNORECASE,
)
TILE = re.compile(r"\b\d-\d\b")
RULE = re.compile(r"\b(?:CF|DB|MN)-\d+\b")
REVIEW = ReviewSettings(seed=0, worlds=128)  # generous: the verdicts no longer move


def t(text: str) -> Tile:
    return Tile(int(text[0]), int(text[2]))


def tiles(text: str) -> set[Tile]:
    return {t(word) for word in text.split()}


@dataclass(frozen=True)
class At:
    """A lesson's step, in its script: the state before its move, the moves before it, the end."""

    lesson: Lesson
    step: Step
    trace: list[Event]

    @property
    def game(self) -> Any:
        return get_game(self.lesson.game)

    @property
    def state(self) -> Any:
        index = self.step.index
        return self.trace[index].before if index < len(self.trace) else self.trace[-1].after

    @property
    def end(self) -> Any:
        return self.trace[-1].after

    @property
    def move(self) -> Any:
        return self.trace[self.step.index].move

    @property
    def after(self) -> Any:
        return self.trace[self.step.index].after

    def seat(self, name: str) -> int:
        return self.lesson.seats.index(next(seat for seat in self.lesson.seats if seat.name == name))

    def hand(self, name: str = "You") -> set[Tile]:
        return set(self.state.hands[self.seat(name)])

    def before(self) -> list[Event]:
        """The events between the previous step's move and this step's (the others' moves)."""
        earlier = [step.index for step in self.lesson.steps if step.index < self.step.index]
        start = earlier[-1] + 1 if earlier else 1
        return self.trace[start : self.step.index]

    def did(self, name: str, *kinds: type) -> list[Event]:
        return [e for e in self.before() if e.seat == self.seat(name) and (not kinds or type(e.move) in kinds)]

    def legal(self) -> tuple[Any, ...]:
        return self.game.legal_moves(self.state)

    def place(self, line: int, state: Any | None = None) -> str:
        return self.game.line_name((state or self.state).board, line)

    def cites(self, rule: str) -> bool:
        return rule in self.step.rules


Check = Callable[[At], bool]


# -- Moon ----------------------------------------------------------------------------------------
def moon_suit_count(tiles_held: set[Tile], number: int) -> int:
    return sum(1 for tile in tiles_held if number in tile)


def lowest_of(tile: Tile, suit: int, trump: Any, pool: Any = MOON_SET) -> bool:
    """Whether `tile` ranks lowest in `suit` among the tiles of `pool` that belong to it."""
    ranks = [rank_in(other, suit, trump) for other in pool]
    mine = rank_in(tile, suit, trump)
    return mine is not None and mine == min(rank for rank in ranks if rank is not None)


def out_of_hand(at: At, trump: Any) -> set[Tile]:
    """The trumps still held by the others at this step."""
    return {
        tile
        for seat, hand in enumerate(at.state.hands)
        if seat != at.seat("You")
        for tile in hand
        if is_trump(tile, trump)
    }


def tricks_won(state: Any, name_seat: int) -> int:
    return state.taken[name_seat] if state.tricks or state.taken else 0


MOON: dict[int, list[tuple[str, Check]]] = {
    1: [
        ("One tile, the widow, lies face down", lambda at: len(at.state.stock) == 1),
        (
            "Ben spoke first and bid 4",
            lambda at: at.before()[0].seat == at.seat("Ben") and at.before()[0].move == Bid(4),
        ),
        ("he promises 4 of the 7 tricks", lambda at: at.cites("MN-9")),
        (
            "Cleo passed (had all three passed, the tiles would be dealt again)",
            lambda at: at.did("Cleo")[0].move == Bid(0) and at.cites("MN-10"),
        ),
        (
            "With sixes as trump, your 6-6, 5-6, 4-6, 2-6 and 5-5 should take five tricks",
            lambda at: tiles("6-6 5-6 4-6 2-6 5-5") <= at.hand() and at.end.records[-1].tricks[at.seat("You")] == 5,
        ),
        ("bid 5", lambda at: at.move == Bid(5)),
        ("To win the bid you must beat Ben's 4", lambda at: Bid(4) not in at.legal() and Bid(5) in at.legal()),
        ("A 6 or a 7 promises tricks you cannot count on", lambda at: at.end.records[-1].tricks[at.seat("You")] < 6),
        ("pass, and Ben plays for his 4", lambda at: Bid(0) in at.legal()),
    ],
    2: [
        ("Now lay one tile aside face down", lambda at: len(at.hand()) == 8 and at.cites("MN-11")),
        ("it takes no part in the hand", lambda at: at.cites("MN-11")),
        (
            "The 1-2 is the lowest tile of both its suits, the 1s and the 2s",
            lambda at: lowest_of(t("1-2"), 1, "none") and lowest_of(t("1-2"), 2, "none") and at.move.tile == t("1-2"),
        ),
        ("Never lay aside a trump or the 5-5", lambda at: t("5-5") in at.hand()),
    ],
    3: [
        ("Name trump, the suit that beats every other", lambda at: at.cites("MN-12")),
        (
            "sixes, as you hold four of the six (there is no 0-6)",
            lambda at: (
                moon_suit_count(at.hand(), 6) == 4
                and moon_suit_count(set(MOON_SET), 6) == 6
                and t("0-6") not in MOON_SET
            ),
        ),
        (
            "Every tile with a 6 is then a trump only: your 5-6 is no longer a 5",
            lambda at: at.cites("MN-5") and not rank_in(t("5-6"), 5, 6),
        ),
        (
            "Name the suit you hold most of, with its top tile",
            lambda at: all(moon_suit_count(at.hand(), n) < 4 for n in range(6)) and t("6-6") in at.hand(),
        ),
        ("four sixes, and the 6-6 is the highest", lambda at: MEMBERS[6][TRUMP][0] == t("6-6")),
        ("No trump would do a little better", lambda at: best_by_review(at) == Trump("none")),
        (
            "your top three sixes win anyway",
            lambda at: MEMBERS["none"][6][:3] == (t("6-6"), t("5-6"), t("4-6")) and tiles("6-6 5-6 4-6") <= at.hand(),
        ),
    ],
    4: [
        ("Lead the 6-6, the highest trump", lambda at: MEMBERS[6][TRUMP][0] == t("6-6") == at.move.tile),
        (
            "The others must follow with a trump if they hold one, so it draws their trumps out",
            lambda at: at.cites("MN-15"),
        ),
        (
            "The top trump first takes the others' trumps away, so your smaller trumps win later",
            lambda at: not out_of_hand_after_trick(at),
        ),
    ],
    5: [
        (
            "Ben and Cleo had to follow with their only trumps, so every other trump is gone",
            lambda at: not out_of_hand(at, 6) and all(is_trump(e.move.tile, 6) for e in at.before()),
        ),
        (
            "Your 1-4 is the lowest 4",
            lambda at: lowest_of(t("1-4"), 4, 6, [x for x in MOON_SET if x not in played(at)]),
        ),
        (
            "Your trumps win whenever you play them, now that no one else holds one, and the 5-5 is the top 5",
            lambda at: not out_of_hand(at, 6) and MEMBERS[6][5][0] == t("5-5"),
        ),
    ],
    6: [
        ("a double is the highest of its suit", lambda at: last_trick_won_by(at, "Cleo", "4-4") and at.cites("MN-4")),
        (
            "You must follow suit if you can, and your 5-6 is a trump, not a 5",
            lambda at: {m.tile for m in at.legal()} == {t("5-5")},
        ),
        ("play the 5-5, the top 5", lambda at: MEMBERS[6][5][0] == t("5-5") == at.move.tile),
    ],
    7: [("Give away your last loser, the 2-3", lambda at: {x for x in at.hand() if not is_trump(x, 6)} == {t("2-3")})],
    8: [
        (
            "You hold no 4 that is not a trump, so you may play anything, and any trump beats every tile of another"
            " suit",
            lambda at: not any(4 in x and not is_trump(x, 6) for x in at.hand()) and len(at.legal()) == len(at.hand()),
        ),
        ("Your smallest, the 2-6, will do", lambda at: min(at.hand(), key=lambda x: power(x, TRUMP, 6)) == t("2-6")),
        ("Any trump wins here, as nobody else has one left", lambda at: not out_of_hand(at, 6)),
    ],
    9: [
        ("Three tricks are yours", lambda at: at.state.taken[at.seat("You")] == 3),
        (
            "Only trumps are left in your hand, and nobody else holds one",
            lambda at: all(is_trump(x, 6) for x in at.hand()) and not out_of_hand(at, 6),
        ),
        ("Both trumps win", lambda at: len(at.hand()) == 2),
    ],
    10: [
        ("Four tricks", lambda at: at.state.taken[at.seat("You")] == 4),
        (
            "Your last tile, the 4-6, makes the fifth",
            lambda at: at.hand() == {t("4-6")} and at.end.records[-1].tricks[at.seat("You")] == 5,
        ),
        ("exactly the 5 you bid", lambda at: at.state.bid == 5),
    ],
    11: [
        ("You bid 5 and won 5 tricks", lambda at: at.end.records[-1].bid == 5 and at.end.records[-1].tricks[0] == 5),
        ("you score 5", lambda at: at.end.records[-1].points[0] == 5),
        ("fewer would have cost you 5", lambda at: at.cites("MN-17")),
        (
            "Cleo scores a point for each of her 2 tricks, Ben none",
            lambda at: (
                at.end.records[-1].points[2] == at.end.records[-1].tricks[2] == 2 and at.end.records[-1].points[1] == 0
            ),
        ),
        ("The game ends when one player alone has 21 or more", lambda at: at.state.options["target"] == 21),
    ],
}


def played(at: At) -> set[Tile]:
    state = at.state
    return {tile for trick in state.tricks for tile in trick.tiles} | set(state.trick)


def out_of_hand_after_trick(at: At) -> set[Tile]:
    """The trumps the others still hold once the trick the step leads is over."""
    after = at.trace[at.step.index + 2].after
    return {tile for seat, hand in enumerate(after.hands) if seat != 0 for tile in hand if is_trump(tile, 6)}


def last_trick_won_by(at: At, name: str, tile: str) -> bool:
    """The last finished trick was won by `name`'s `tile`."""
    trick = at.state.tricks[-1]
    winner = (trick.leader + trick_winner(trick.tiles, at.state.trump)) % 3
    return trick.winner == winner == at.seat(name) and t(tile) in trick.tiles


def best_by_review(at: At) -> Any:
    review = judged(at)
    return review.best


def judged(at: At) -> Any:
    state, move = at.state, at.move
    decision = Decision(at.step.index, state.to_move, state.round)
    return review_decision(at.game, state, move, decision, weigh_decision(at.game, state, move, at.step.index, REVIEW))


# -- Chicken Foot ---------------------------------------------------------------------------------
def with_number(held: set[Tile], number: int) -> set[Tile]:
    return {tile for tile in held if number in tile}


def pips(tile: str) -> int:
    return t(tile).pips


def plays_by(at: At, name: str) -> list[str]:
    """Where `name`'s plays before the step went, by their place names."""
    return [at.place(e.move.target, e.before) for e in at.did(name, Play)]


def drew_without(at: At, name: str, number: int) -> bool:
    """`name` drew, holding no tile with `number` then."""
    draws = at.did(name, Draw)
    return bool(draws) and all(not with_number(set(e.before.hands[e.seat]), number) for e in draws)


def targets(at: At, tile: str) -> set[str]:
    return {at.place(m.target) for m in at.legal() if type(m) is Play and m.tile == t(tile)}


def ends_showing(at: At, number: int) -> set[str]:
    board = at.state.board
    return {at.place(line) for line in board.ends if board.lines[line].open == number}


def no_foot_to_fill(at: At) -> bool:
    board = at.state.board
    return all(board.lines[line].parent < 0 for line in board.empty_ends)


CHICKEN_FOOT: dict[int, list[tuple[str, Check]]] = {
    1: [
        (
            "Until it carries four trains, one per player, every tile must start a new train with a 9 against it",
            lambda at: (
                at.state.options["centre_trains"] == 4 == at.lesson.players
                and all(m.target == 0 and 9 in m.tile for m in at.legal())
            ),
        ),
        ("You hold two 9s", lambda at: len(with_number(at.hand(), 9)) == 2),
        ("Either 9 would do about as well here", lambda at: judged(at).verdict in ("best", "good")),
        (
            "The 6-9 is the heavier of your two 9s, and your 5-6 and 6-7 can follow its 6 later",
            lambda at: (
                pips("6-9") > pips("1-9")
                and with_number(at.hand(), 9) == tiles("6-9 1-9")
                and tiles("5-6 6-7") <= at.hand()
            ),
        ),
    ],
    2: [
        (
            "Ben and Cleo started trains 2 and 3",
            lambda at: plays_by(at, "Ben") == ["train 2"] and plays_by(at, "Cleo") == ["train 3"],
        ),
        ("Dan had no 9, so he drew a tile", lambda at: drew_without(at, "Dan", 9)),
        (
            "no 9 either, so his turn ended",
            lambda at: (
                9 not in at.did("Dan", Draw)[0].before.stock[0]
                and at.did("Dan", Draw)[0].after.to_move != at.seat("Dan")
            ),
        ),
        (
            "The centre still needs a fourth train, and you hold a 9",
            lambda at: not at.state.board.lines[3].tiles and with_number(at.hand(), 9),
        ),
        (
            "you must start it, though your 6-7 would fit train 1",
            lambda at: at.legal() == (Play(t("1-9"), 3),) and at.state.board.lines[0].open in t("6-7"),
        ),
    ],
    3: [
        (
            "Four trains are out, so any open end takes a tile now",
            lambda at: all(at.state.board.lines[i].tiles for i in range(4)),
        ),
        (
            "a double at the end of a line needs three toes, each with a 6, before anything else",
            lambda at: (
                at.cites("CF-10")
                and at.state.board.lines[0].tiles[-1] == t("6-6")
                and len(at.state.board.children(0)) == 3
            ),
        ),
        (
            "Cleo and Dan laid two",
            lambda at: plays_by(at, "Cleo") == ["toe 1 of the 6-6"] and plays_by(at, "Dan") == ["toe 2 of the 6-6"],
        ),
        (
            "The 6-7 is heavier, and its 7 suits your 7-7 and 7-8 later",
            lambda at: pips("6-7") > pips("5-6") and tiles("7-7 7-8") <= at.hand(),
        ),
    ],
    4: [
        (
            "Ben played the 5-5 on his train 2, and Cleo and Dan gave it two toes",
            lambda at: (
                plays_by(at, "Ben") == ["train 2"]
                and at.did("Ben")[0].move.tile == t("5-5")
                and plays_by(at, "Cleo") + plays_by(at, "Dan") == ["toe 1 of the 5-5", "toe 2 of the 5-5"]
            ),
        ),
        (
            "Nothing else may be played until its third toe is down, and your 5-6 is the one tile you hold that fits",
            lambda at: at.legal() == (Play(t("5-6"), 9),) and at.place(9) == "toe 3 of the 5-5",
        ),
    ],
    5: [
        (
            "Then Dan played the 8-8 on train 3",
            lambda at: plays_by(at, "Dan") == ["train 3"] and at.did("Dan")[0].move.tile == t("8-8"),
        ),
        (
            "Its foot comes first, and your 7-8 is your only 8",
            lambda at: (
                with_number(at.hand(), 8) == {t("7-8")}
                and targets(at, "7-8") == {"toe 1 of the 8-8"}
                and len(at.legal()) == 1
            ),
        ),
    ],
    6: [
        ("Cleo had no 8 and drew", lambda at: drew_without(at, "Cleo", 8)),
        ("Every end is open now", no_foot_to_fill),
        (
            "Put your 7-7 on the 7 of your 6-7",
            lambda at: at.state.board.lines[at.move.target].tiles[-1] == t("6-7") and at.move.tile == t("7-7"),
        ),
        ("the others must find three 7s for its toes before anything else", lambda at: at.cites("CF-10")),
        ("a double fits only an end showing its own number", lambda at: targets(at, "7-7") == ends_showing(at, 7)),
        (
            "You hold no other 7, so the others must fill this foot, or draw",
            lambda at: with_number(at.hand(), 7) == {t("7-7")},
        ),
        ("Any of the three 7s would do", lambda at: len(targets(at, "7-7")) == 3),
    ],
    7: [
        ("Ben had no 7", lambda at: drew_without(at, "Ben", 7)),
        (
            "Cleo and Dan filled two toes of your 7-7",
            lambda at: plays_by(at, "Cleo") + plays_by(at, "Dan") == ["toe 1 of the 7-7", "toe 2 of the 7-7"],
        ),
        (
            "The third toe needs a 7 and you hold none, so you must draw one tile from the chicken yard",
            lambda at: not with_number(at.hand(), 7) and [type(m) for m in at.legal()] == [Draw],
        ),
    ],
    8: [("put it on the last toe of your 7-7", lambda at: at.place(at.move.target) == "toe 3 of the 7-7")],
    9: [
        (
            "Cleo and Dan added two toes, and your 0-2 is the 2 that finishes it",
            lambda at: (
                plays_by(at, "Cleo") + plays_by(at, "Dan") == ["toe 1 of the 2-2", "toe 2 of the 2-2"]
                and with_number(at.hand(), 2) == {t("0-2")}
                and at.place(at.move.target) == "toe 3 of the 2-2"
            ),
        ),
    ],
    10: [
        (
            "Your 3-4 and 1-3 both fit its second toe",
            lambda at: {m.tile for m in at.legal()} == tiles("3-4 1-3") and targets(at, "3-4") == {"toe 2 of the 3-3"},
        ),
        ("When the round ends, every pip left in your hand counts against you", lambda at: at.cites("CF-15")),
        ("shed the heavier one", lambda at: at.move.tile == t("3-4") and pips("3-4") > pips("1-3")),
        (
            "The 1-3 would do, but it is worth 4 pips and the 3-4 is worth 7",
            lambda at: (pips("1-3"), pips("3-4")) == (4, 7),
        ),
        (
            "The 1-3 can fill the last toe",
            lambda at: at.lesson.script[at.lesson.steps[at.step.number].index] == Play(t("1-3"), 21),
        ),
    ],
    11: [
        ("Nobody else held a 3", lambda at: all(drew_without(at, name, 3) for name in ("Ben", "Cleo", "Dan"))),
        (
            "Two tiles are left in the chicken yard, and with four players the last one is never drawn",
            lambda at: len(at.state.stock) == 2 and at.state.info.reserve == 1 and at.cites("CF-13"),
        ),
    ],
    12: [
        (
            "Its foot needs three 4s, and your 1-4 is one of them",
            lambda at: (
                [at.place(i) for i in at.state.board.children(20)]
                == ["toe 1 of the 4-4", "toe 2 of the 4-4", "toe 3 of the 4-4"]
                and t("1-4") in at.hand()
            ),
        )
    ],
    13: [
        (
            "Ben drew the yard's last tile but one, and the last is never drawn",
            lambda at: len(at.did("Ben", Draw)[0].before.stock) == 2 and len(at.state.stock) == 1,
        ),
        (
            "Cleo, with no 4, had to pass",
            lambda at: [type(e.move) for e in at.did("Cleo")] == [Pass] and not with_number(at.hand("Cleo"), 4),
        ),
        (
            "The foot still needs a 4, and your 1-1 does not fit",
            lambda at: not at.state.board.lines[24].tiles and at.legal() == (Pass(),),
        ),
    ],
    14: [
        ("Your 1-1 fits any end showing a 1", lambda at: targets(at, "1-1") == ends_showing(at, 1)),
        ("the round ends at once, and nobody has to fill its foot", lambda at: at.after.chance),
        ("Any end showing a 1 takes it and ends the round", lambda at: at.hand() == {t("1-1")}),
        (
            "the lesson puts it on your own train 4",
            lambda at: at.place(at.move.target) == "train 4" and at.state.board.lines[3].tiles[0] == t("1-9"),
        ),
    ],
    15: [
        ("You went out, so you score 0", lambda at: at.end.round_scores[-1][0] == 0 and not at.end.hands[0]),
        ("Ben 48, Cleo 24, Dan 34", lambda at: at.end.round_scores[-1][1:] == (48, 24, 34)),
        (
            "after ten rounds, from the 9-9 down to the 0-0, the lowest total wins",
            lambda at: at.state.options["rounds"] == 10 and at.cites("CF-18"),
        ),
    ],
}


# -- Doubles ----------------------------------------------------------------------------------------
def locked(at: At) -> set[int]:
    unlocked = at.state.unlocked
    return {n for n in range(7) if not unlocked >> n & 1}


def open_numbers(at: At) -> set[int]:
    board = at.state.board
    return {board.lines[line].open for line in board.ends}


def heaviest(at: At, tile: str) -> bool:
    return max(at.hand(), key=lambda x: x.pips) == t(tile) and sum(1 for x in at.hand() if x.pips == t(tile).pips) == 1


DOUBLES: dict[int, list[tuple[str, Check]]] = {
    1: [
        ("Each of you holds 6 tiles", lambda at: all(len(hand) == 6 for hand in at.state.hands)),
        ("the other 4 lie face down in the boneyard", lambda at: len(at.state.stock) == 4),
        ("Whoever holds the highest double opens the round with it", lambda at: at.cites("DB-3")),
        (
            "Nobody was dealt the 6-6, so your 5-5 is the highest",
            lambda at: t("6-6") in at.state.stock and at.legal() == (Play(t("5-5"), None),),
        ),
    ],
    2: [
        (
            "Ben, Cleo and Dan each put a 5 on your 5-5",
            lambda at: all(5 in e.move.tile for e in at.before()) and len(at.before()) == 3,
        ),
        ("its arms show 3, 1 and 6", lambda at: [at.state.board.lines[i].open for i in range(3)] == [3, 1, 6]),
        (
            "only the 3-3 may go on the 3",
            lambda at: 3 in locked(at) and targets(at, "3-3") == {"arm 1 of the centre 5-5"},
        ),
        (
            "Play it: it unlocks threes",
            lambda at: len(at.after.board.children(0)) == 3 and at.after.unlocked >> 3 & 1 == 1,
        ),
        (
            "ones are locked, and only it fits the 1",
            lambda at: (
                1 in locked(at)
                and {m.tile for m in at.legal() if at.place(m.target) == "arm 2 of the centre 5-5"} == {t("1-1")}
            ),
        ),
        (
            "The 2-5 first would score better",
            lambda at: heaviest(at, "2-5") and best_by_review(at) == Play(t("2-5"), 3),
        ),
        ("no one else can take the locked 3", lambda at: 3 in locked(at) and t("3-3") in at.hand()),
    ],
    3: [
        (
            "Put your 2-5, your heaviest tile, on the 5-5's last free side",
            lambda at: heaviest(at, "2-5") and at.place(at.move.target) == "arm 4 of the centre 5-5",
        ),
        ("The 2-5 is worth 7", lambda at: pips("2-5") == 7),
    ],
    4: [
        (
            "Two tiles are left in the boneyard, and the last two are never drawn",
            lambda at: len(at.state.stock) == 2 and at.cites("DB-9"),
        ),
        (
            "Take the 3-3's last free side with your 0-3",
            lambda at: at.place(at.move.target) == "arm 3 of the 3-3" and not at.state.board.lines[6].tiles,
        ),
        (
            "only a double goes on a locked 0 or 1, and both are yours",
            lambda at: {0, 1} <= locked(at) and tiles("0-0 1-1") <= at.hand(),
        ),
        ("The 3-3's free side is open to anyone with a 3", lambda at: 3 not in locked(at)),
    ],
    5: [
        ("Every open end shows a locked number", lambda at: open_numbers(at) <= locked(at)),
        ("0, 2, 6 or 1", lambda at: open_numbers(at) == {0, 1, 2, 6}),
        (
            "Cleo holds no double to unlock one, and the boneyard is down to the two tiles that are never drawn",
            lambda at: (
                not any(x.is_double for x in at.hand("Cleo")) and len(at.state.stock) == 2 and at.legal() == (Pass(),)
            ),
        ),
    ],
    6: [
        (
            "Your 0-0 and 1-1 are the only tiles that fit the 0s and the 1",
            lambda at: {m.tile for m in at.legal()} == tiles("0-0 1-1"),
        ),
        ("both numbers are locked, and both doubles are yours", lambda at: {0, 1} <= locked(at)),
        (
            "no one else can take the 1, so it will take you out",
            lambda at: (
                at.lesson.script[at.lesson.steps[at.step.number].index] == Play(t("1-1"), 1) and at.end.hands[0] == ()
            ),
        ),
        (
            "Each double fits only its own locked number",
            lambda at: all(at.state.board.lines[m.target].open in m.tile for m in at.legal()),
        ),
        (
            "tiles with a 0 are lighter than those with a 1 (0-5 against 1-5)",
            lambda at: all(pips(f"0-{n}") < pips(f"1-{n}") for n in range(2, 7)) and judged(at).verdict == "best",
        ),
    ],
    7: [
        (
            "Your last tile, the 1-1, is still the only tile that fits the 1",
            lambda at: at.hand() == {t("1-1")} and 1 in locked(at),
        )
    ],
    8: [
        (
            "You went out, so you score every pip left in the others' hands",
            lambda at: at.end.round_scores[-1][0] == sum(x.pips for hand in at.end.hands[1:] for x in hand),
        ),
        (
            "Ben's 4-5 (9), Cleo's five tiles (22) and Dan's 1-3 (4)",
            lambda at: (
                set(at.end.hands[1]) == {t("4-5")}
                and len(at.end.hands[2]) == 5
                and sum(x.pips for x in at.end.hands[2]) == 22
                and set(at.end.hands[3]) == {t("1-3")}
            ),
        ),
        ("35 points", lambda at: at.end.round_scores[-1][0] == 35),
        ("Nobody else scores this round", lambda at: at.end.round_scores[-1][1:] == (0, 0, 0)),
        ("The first to reach 100 wins", lambda at: at.state.options["target"] == 100),
    ],
}

CLAIMS: dict[str, dict[int, list[tuple[str, Check]]]] = {"moon": MOON, "chicken-foot": CHICKEN_FOOT, "doubles": DOUBLES}


# -- the tests -------------------------------------------------------------------------------------
def sentences(step: Step) -> list[tuple[str, str]]:
    found = []
    for field in ("text", "why", "prefers"):
        words = " ".join(getattr(step, field).split())
        found += [(field, sentence) for sentence in re.split(r"(?<=[.:;!?])\s+", words) if sentence]
    return found


@pytest.fixture(params=GAME_NAMES)
def lesson(request) -> Lesson:
    return load_lesson(request.param)


def test_every_counting_or_ruling_out_sentence_is_a_checked_claim(lesson):
    trace = replay(lesson)
    claims = CLAIMS.get(lesson.game, {})
    for step in lesson.steps:
        at = At(lesson, step, trace)
        mine = claims.get(step.number, [])
        texts = " ".join(" ".join(getattr(step, field).split()) for field in ("text", "why", "prefers"))
        for fragment, check in mine:
            assert fragment in texts, f"step {step.number}: the claim {fragment!r} is no longer in the text"
            assert check(at), f"step {step.number} says {fragment!r}, which is not true of the position"
        for field, sentence in sentences(step):
            if RISKY.search(RULE.sub("", TILE.sub("", sentence))):
                assert any(fragment in sentence or sentence.rstrip(".:;") in fragment for fragment, _ in mine), (
                    f"step {step.number} ({field}) states {sentence!r}: add a claim that checks it"
                )


def named(move: Any, words: str) -> bool:
    """Whether `words` name `move`: its tile, its bid or its trump."""
    if type(move) in (Play, Discard):
        return str(move.tile) in words
    if type(move) is Trump:
        return (
            "No trump" if move.suit == "none" else f"{move.suit}s" if move.suit != "doubles" else "doubles"
        ) in words
    if type(move) is Bid:
        return ("pass" if move.amount == 0 else f"bid {move.amount}") in words.lower()
    return type(move).__name__.lower() in words.lower()


def test_each_lessons_move_is_judged_best_or_good_or_the_lesson_says_why_it_prefers_it(lesson):
    trace = replay(lesson)
    game = get_game(lesson.game)
    for step in lesson.steps[:-1]:
        at = At(lesson, step, trace)
        if lesson.seats[at.state.to_move].is_bot or len(game.legal_moves(at.state)) == 1:
            continue
        review = judged(at)
        if review.verdict in ("best", "good"):
            continue
        assert step.prefers, (
            f"step {step.number}: the review calls {review.move_words} {review.verdict}"
            f" ({review.loss:.2f} lost; better: {review.best_words}), and the lesson does not say why it asks for it"
        )
        assert named(review.best, step.prefers), f"step {step.number}'s prefers does not name {review.best_words}"
