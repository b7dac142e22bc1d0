"""Reading a lesson file: TOML (the standard library's reader), bounded and checked throughout.

The file names the table (seats, options, the seed of later deals), the rules it promises to show,
the stacked deal, and its steps in order. Each step may list the moves played before it (the bots'),
then names the move it is about (`move`) with its text; the last step has no move: it closes the
lesson once the round is over. Moves are written as `play 5-9 @2` (a tile on the open end of line
2), `play 6-6` (no end: Moon's trick, the opening double of Doubles), `draw`, `pass`, `bid 5`,
`bid pass`, `discard 2-3`, `trump 5`, `trump doubles`, `trump none`.

The whole script is replayed through the engine when a lesson is read, so a lesson whose moves are
not legal is refused in one line, naming the step, instead of stopping half way.
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from importlib import resources
from typing import Any

from core import IllegalMove, Match, Tile, get_game
from core.bots import BOT_LEVELS
from core.moves import DRAW, PASS, Bid, Deal, Discard, Move, Trump, play
from core.seats import Seat
from tui.lessons.model import Lesson, Step

MAX_FILE = 64 * 1024  # bytes: a lesson is a few kilobytes of text
MAX_STEPS = 80
MAX_BEFORE = 60  # moves before one step
MAX_TEXT = 1200  # characters of one step's text
MAX_SHORT = 80  # characters of a title, a name, a move
MAX_NAME = 20
RULE_ID = re.compile(r"(CF|DB|MN)-\d{1,2}")


class LessonError(ValueError):
    """A lesson that cannot be used: one line saying which file and what is wrong."""


@cache
def load_lesson(game: str) -> Lesson:
    """The lesson of `game`, read from the package's data. ValueError for an unknown game;
    LessonError for a damaged lesson file."""
    get_game(game)  # ValueError naming the games there are
    source = f"{game}.toml"
    try:
        with resources.files("tui.lessons").joinpath(source).open("rb") as file:
            data = file.read(MAX_FILE + 1)
    except OSError as error:
        raise LessonError(f"the lesson {source} cannot be read: {error.strerror or error}") from None
    if len(data) > MAX_FILE:
        raise LessonError(f"the lesson {source} is larger than {MAX_FILE // 1024} KiB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise LessonError(f"the lesson {source} is not UTF-8 text") from None
    return parse_lesson(text, source, game)


def lesson_for(match: Match) -> Lesson | None:
    """The lesson `match` was started from, if it is a lesson's match."""
    if not match.events:
        return None
    try:
        lesson = load_lesson(match.game_name)
    except ValueError:
        return None
    return lesson if lesson.began(match) else None


def parse_lesson(text: str, source: str = "lesson", game: str | None = None) -> Lesson:
    """A lesson from its TOML text; LessonError (naming `source`) for anything wrong."""
    try:
        return _Reader(source).lesson(tomllib.loads(text), game)
    except tomllib.TOMLDecodeError as error:
        raise LessonError(f"{source}: not valid TOML: {error}") from None
    except (ValueError, TypeError) as error:
        raise LessonError(f"{source}: {error}") from None


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source
        self.prefix = ""
        self.owners = [1]  # the step each event of the script belongs to (the deal: the first)

    def lesson(self, data: dict[str, Any], expected_game: str | None) -> Lesson:
        known = {"game", "title", "summary", "seed", "options", "rules", "seats", "deal", "steps"}
        self.no_other_keys(data, known, "the lesson")
        game = get_game(self.text(data, "game", MAX_SHORT))
        if expected_game is not None and game.name != expected_game:
            raise ValueError(f"this is the lesson of {game.name}, not {expected_game}")
        self.prefix = game.rule_prefix
        seats = self.seats(data.get("seats"))
        options = self.table(data.get("options", {}), "options")
        game.resolve_options(len(seats), options)  # ValueError for an unknown option or bad value
        seed = data.get("seed")
        if type(seed) is not int or not 0 <= seed < 2**31:
            raise ValueError("the seed is a whole number from 0 up")
        script: list[Move] = [self.deal(self.table(data.get("deal"), "deal"))]
        steps = self.steps(data.get("steps"), script)
        lesson = Lesson(
            game.name,
            self.text(data, "title", MAX_SHORT),
            self.text(data, "summary", MAX_SHORT),
            seats,
            options,
            seed,
            tuple(script),
            steps,
            self.rules(data.get("rules"), "rules"),
        )
        self.replay(lesson)
        return lesson

    # -- the parts ---------------------------------------------------------------------------------
    def seats(self, data: Any) -> tuple[Seat, ...]:
        if not isinstance(data, list) or not 2 <= len(data) <= 8:
            raise ValueError("seats is a list of 2 to 8 [[seats]] tables")
        seats = []
        for entry in data:
            entry = self.table(entry, "a seat")
            self.no_other_keys(entry, {"name", "level"}, "a seat")
            name = self.text(entry, "name", MAX_NAME)
            level = entry.get("level")
            if level is None:
                seats.append(Seat(name))
            elif level in BOT_LEVELS:
                seats.append(Seat(name, "bot", level))
            else:
                raise ValueError(f"a seat's level is one of {', '.join(BOT_LEVELS)}, not {level!r}")
        if sum(1 for seat in seats if not seat.is_bot) != 1:
            raise ValueError("a lesson has one learner: exactly one seat without a level")
        if len({seat.name for seat in seats}) != len(seats):
            raise ValueError("every seat needs a different name")
        return tuple(seats)

    def deal(self, data: dict[str, Any]) -> Deal:
        self.no_other_keys(data, {"hands", "stock", "first", "search_start"}, "the deal")
        hands = data.get("hands")
        if not isinstance(hands, list) or not 2 <= len(hands) <= 8:
            raise ValueError("the deal's hands are a list of one string of tiles per seat")
        stock = data.get("stock", "")
        seats = [data.get(key) for key in ("first", "search_start")]
        for seat in seats:
            if seat is not None and (type(seat) is not int or not 0 <= seat < len(hands)):
                raise ValueError(f"the deal's first and search_start are seats from 0 to {len(hands) - 1}")
        return Deal(
            tuple(self.tiles(hand, "a hand") for hand in hands), self.tiles(stock, "the stock"), seats[0], seats[1]
        )

    def steps(self, data: Any, script: list[Move]) -> tuple[Step, ...]:
        if not isinstance(data, list) or not 1 <= len(data) <= MAX_STEPS:
            raise ValueError(f"steps is a list of 1 to {MAX_STEPS} [[steps]] tables")
        steps = []
        for number, entry in enumerate(data, 1):
            where = f"step {number}"
            entry = self.table(entry, where)
            self.no_other_keys(entry, {"before", "move", "title", "text", "rules", "why", "prefers"}, where)
            before = entry.get("before", [])
            if not isinstance(before, list) or len(before) > MAX_BEFORE:
                raise ValueError(f"{where}: before is a list of at most {MAX_BEFORE} moves")
            script.extend(self.move(move, where) for move in before)
            index = len(script)
            self.owners += [number] * (index - len(self.owners))
            last = number == len(data)
            if "move" in entry:
                if last:
                    raise ValueError(f"{where}: the last step closes the lesson and names no move")
                script.append(self.move(entry["move"], where))
                self.owners.append(number)
            elif not last:
                raise ValueError(f"{where}: every step but the last names its move")
            steps.append(
                Step(
                    index,
                    number,
                    self.text(entry, "title", MAX_SHORT, where),
                    self.paragraphs(self.text(entry, "text", MAX_TEXT, where)),
                    self.rules(entry.get("rules", []), f"{where}: rules"),
                    self.paragraphs(self.text(entry, "why", MAX_TEXT, where, required=False)),
                    self.paragraphs(self.text(entry, "prefers", MAX_TEXT, where, required=False)),
                )
            )
        return tuple(steps)

    def replay(self, lesson: Lesson) -> None:
        """Every event of the script through the engine, a step at each of the learner's decisions,
        and the round over at the script's end."""
        match = Match(lesson.game, lesson.players, lesson.options, lesson.seats, lesson.seed)
        stepped = {step.index for step in lesson.steps}
        for index, event in enumerate(lesson.script):
            where = f"step {self.owners[index]}"
            state = match.state
            if index > 0 and state.chance:
                raise ValueError(f"{where}: the round is over before the script is")
            if index > 0 and not lesson.seats[state.to_move].is_bot and index not in stepped:
                raise ValueError(f"{where}: the learner's move ({event}) is listed before the step; make it the move")
            try:
                match.apply(event)
            except IllegalMove as error:
                raise ValueError(f"{where}: {event} is not legal: {error}") from None
        if not match.state.chance and not match.state.over:
            raise ValueError("the script ends before the round does; the closing step needs the round over")

    # -- values ------------------------------------------------------------------------------------
    def move(self, data: Any, where: str) -> Move:
        if not isinstance(data, str) or len(data) > MAX_SHORT:
            raise ValueError(f"{where}: a move is a short string, not {data!r}")
        words = data.split()
        kind, rest = (words[0], words[1:]) if words else ("", [])
        if kind in ("draw", "pass") and not rest:
            return DRAW if kind == "draw" else PASS
        if kind == "play" and len(rest) in (1, 2):
            target = None
            if len(rest) == 2:
                if not re.fullmatch(r"@\d{1,3}", rest[1]):
                    raise ValueError(f"{where}: a play's end is written @N, not {rest[1]!r}")
                target = int(rest[1][1:])
            return play(self.tile(rest[0], where), target)
        if kind == "bid" and len(rest) == 1:
            if rest[0] == "pass":
                return Bid(0)
            if rest[0].isdigit() and len(rest[0]) <= 2:
                return Bid(int(rest[0]))
        if kind == "discard" and len(rest) == 1:
            return Discard(self.tile(rest[0], where))
        if kind == "trump" and len(rest) == 1:
            word = rest[0]
            if word in ("doubles", "none"):
                return Trump(word)
            if word.isdigit() and len(word) == 1:
                return Trump(int(word))
        raise ValueError(f"{where}: {data!r} is not a move (play 5-9 @2, draw, pass, bid 5, discard 2-3, trump 5)")

    def tiles(self, data: Any, what: str) -> tuple[Tile, ...]:
        if not isinstance(data, str) or len(data) > 400:
            raise ValueError(f"{what} is a string of tiles such as '5-9 0-3'")
        return tuple(self.tile(word, what) for word in data.split())

    def tile(self, word: str, where: str) -> Tile:
        if not re.fullmatch(r"\d-\d", word):
            raise ValueError(f"{where}: a tile is written like 5-9, not {word!r}")
        return Tile(int(word[0]), int(word[2]))

    def rules(self, data: Any, what: str) -> tuple[str, ...]:
        if not isinstance(data, list) or len(data) > 30:
            raise ValueError(f"{what} is a list of rule IDs such as ['{self.prefix}-6']")
        for rule in data:
            if not isinstance(rule, str) or not RULE_ID.fullmatch(rule) or not rule.startswith(self.prefix + "-"):
                raise ValueError(f"{what}: {rule!r} is not a rule ID of this game ({self.prefix}-n)")
        return tuple(data)

    def text(self, data: dict[str, Any], key: str, limit: int, where: str = "", required: bool = True) -> str:
        value = data.get(key, None if required else "")
        what = f"{where}: {key}" if where else key
        if not isinstance(value, str) or (required and not value.strip()):
            raise ValueError(f"{what} is missing or not text")
        if len(value) > limit:
            raise ValueError(f"{what} is longer than {limit} characters")
        return value

    @staticmethod
    def paragraphs(text: str) -> str:
        """The text with its lines joined into paragraphs (a blank line separates two)."""
        return "\n".join(" ".join(part.split()) for part in re.split(r"\n\s*\n", text.strip()) if part.strip())

    @staticmethod
    def table(data: Any, what: str) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise ValueError(f"{what} must be a table")
        return data

    @staticmethod
    def no_other_keys(data: dict[str, Any], known: set[str], what: str) -> None:
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"{what} has an unknown entry {unknown[0]!r}")
