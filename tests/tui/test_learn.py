"""Pilot tests of the lessons: each followed to its end by keys at 80x24, a move off the lesson
taken back with its reason, free play after it, the title screen's "Learn a game", and a lesson
saved and resumed where it stood."""

from __future__ import annotations

import pytest

from core import GAME_NAMES, Match
from core.moves import DRAW, PASS, Bid, Play, Trump
from core.seats import Seat
from core.tiles import Tile
from tests.tui.conftest import press_a_turn, wait_until
from tui.app import DominoesApp
from tui.lessons import Lesson, load_lesson
from tui.preferences import Preferences
from tui.screens.lesson_table import LessonTableScreen
from tui.screens.load import LoadScreen
from tui.screens.moon_dialogs import MoonDialog
from tui.screens.round_over import RoundOverScreen
from tui.screens.table import TableScreen
from tui.widgets.board_tree import BoardTree
from tui.widgets.hand_view import HandView
from tui.widgets.lesson_panel import LessonPanel


def lesson_app(game: str) -> DominoesApp:
    return DominoesApp(match=load_lesson(game).new_match(), preferences=Preferences(bot_speed="instant"))


def lesson_screen(app: DominoesApp) -> LessonTableScreen:
    for screen in app.screen_stack:
        if isinstance(screen, LessonTableScreen):
            return screen
    raise AssertionError(f"no lesson table in {app.screen_stack}")


def panel_words(screen: LessonTableScreen) -> str:
    panel = screen.query_one(LessonPanel)
    parts = [str(panel.border_title)]
    for part in ("#lesson-heading", "#lesson-text", "#lesson-prefers", "#lesson-note", "#lesson-action"):
        widget = panel.query_one(part)
        if widget.display:
            parts.append(str(widget.render()))
    return "\n".join(parts)


def settled(app: DominoesApp) -> bool:
    """The lesson waits for the learner: a move, a dialog's choice, or Enter on a step."""
    screen = lesson_screen(app)
    if isinstance(app.screen, (MoonDialog, RoundOverScreen)):
        return True
    return app.screen is screen and (screen.read_due() or (screen.human_to_move() and screen.thinking is None))


async def press_the_lessons_move(pilot, screen: LessonTableScreen) -> None:
    """The keys a learner presses for the move the panel asks for."""
    app = pilot.app
    move = screen.expected_move()
    if move is DRAW:
        await pilot.press("d")
    elif move is PASS:
        await pilot.press("p")
    elif type(move) in (Bid, Trump):
        await wait_until(pilot, lambda: isinstance(app.screen, MoonDialog))
        dialog = app.screen
        # The dialog opens on the lesson's choice.
        await wait_until(pilot, lambda: dialog.moves[dialog.query_one("OptionList").highlighted] == move)
        await pilot.press("enter")
    else:
        hand = screen.query_one(HandView)
        assert hand.selected is move.tile and hand.hint is move.tile  # the lesson's tile is marked
        await pilot.press("enter")
        if type(move) is Play and any(board.has_focus for board in screen.query(BoardTree)):
            # It fits several ends: the board opens on the lesson's one.
            assert screen.query_one(BoardTree).cursor_node.data == move.target
            await pilot.press("enter")


async def why_fits(pilot, screen: LessonTableScreen, number: int) -> None:
    """Another legal move taken back: the step's reason shows in the panel, and fits it."""
    match = screen.match
    expected = screen.expected_move()
    other = next(move for move in match.legal_moves() if move != expected)
    cursor = match.cursor
    screen.take_back(other, expected)
    await pilot.pause()
    assert match.cursor == cursor and screen.step_now().why.split(":")[0] in panel_words(screen)
    assert screen.query_one(LessonPanel).max_scroll_y == 0, f"step {number}'s why does not fit the panel"


async def follow_the_lesson(pilot, lesson: Lesson) -> int:
    """Follow the lesson by keys to its closing step; every step fits its panel. Returns how many
    steps were shown."""
    app = pilot.app
    screen = lesson_screen(app)
    match = screen.match
    seen = set()
    while True:
        await wait_until(pilot, lambda: settled(app))
        if isinstance(app.screen, RoundOverScreen):
            return len(seen)
        step = screen.step_now()
        if step is not None:  # beside the table, or beside a Moon dialog
            seen.add(step.number)
            words = panel_words(screen)
            assert f"step {step.number} of {len(lesson.steps)}" in words and step.title in words
            panel = screen.query_one(LessonPanel)
            assert panel.max_scroll_y == 0, f"step {step.number} does not fit the panel: {words}"
        if screen.read_due():
            assert "Press Enter" in panel_words(screen)
            await pilot.press("enter")
            continue
        if step is not None and step.why and app.screen is screen:
            await why_fits(pilot, screen, step.number)
        before = match.cursor
        await press_the_lessons_move(pilot, screen)
        await wait_until(pilot, lambda: match.cursor > before)  # noqa: B023 (awaited at once)
        assert match.events[: match.cursor] == lesson.script[: match.cursor]


@pytest.mark.parametrize("game", GAME_NAMES)
async def test_a_lesson_followed_by_keys_to_its_end_then_free_play(game):
    lesson = load_lesson(game)
    app = lesson_app(game)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = lesson_screen(app)
        assert await follow_the_lesson(pilot, lesson) == len(lesson.steps)
        match = screen.match
        assert match.events == lesson.script and match.cursor == len(lesson.script)
        # The round's scores, then the next round at the same table, played by the bots themselves.
        await pilot.press("enter")
        await wait_until(
            pilot, lambda: match.state.round == 2 and isinstance(app.screen, (LessonTableScreen, MoonDialog))
        )
        assert not screen.in_lesson() and not screen.query_one(LessonPanel).display
        assert screen.query_one("#scorepad").display
        assert match.seats == lesson.seats and match.options == lesson.new_match().options
        await play_on(pilot, screen)
        assert app.match is match  # saved as it goes, like any match


def bot_moved_since(match: Match, start: int) -> bool:
    for index in range(start, match.cursor):
        seat = match.state_at(index).to_move
        if seat is not None and match.seats[seat].is_bot:
            return True
    return False


async def play_on(pilot, screen: LessonTableScreen) -> None:
    """Free play after the lesson: the learner's turn by keys, then the bots at their own level."""
    app = pilot.app
    match = screen.match
    await wait_until(pilot, lambda: isinstance(app.screen, MoonDialog) or screen.human_to_move())
    start = match.cursor
    assert screen.scripted() is None and screen.expected_move() is None
    if isinstance(app.screen, MoonDialog):
        options = app.screen.query_one("OptionList")
        await wait_until(pilot, lambda: options.highlighted is not None)
        await pilot.press("enter")
    else:
        await press_a_turn(pilot, screen, match.legal_moves())
    await wait_until(pilot, lambda: match.cursor > start and bot_moved_since(match, start))


async def at_the_second_step(pilot, lesson: Lesson) -> LessonTableScreen:
    """Enter on the first step's tile; the lesson's table once the second step waits for the learner."""
    screen = lesson_screen(pilot.app)
    await wait_until(pilot, lambda: screen.human_to_move())
    await pilot.press("enter")
    await wait_until(pilot, lambda: screen.human_to_move() and screen.step_now() is lesson.steps[1])
    return screen


async def test_a_move_off_the_lesson_is_taken_back_with_the_reason():
    lesson = load_lesson("doubles")
    app = lesson_app("doubles")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await at_the_second_step(pilot, lesson)  # the 5-5 in the centre
        match = screen.match
        cursor, state = match.cursor, match.state
        hand = screen.query_one(HandView)
        # A legal move, but not the lesson's: the 2-5 on the 5-5's free side.
        hand.select(next(tile for tile in hand.tiles if str(tile) == "2-5"))
        await pilot.press("enter")
        assert match.cursor == cursor and match.state is state  # nothing was played
        words = panel_words(screen)
        assert "Taken back: the 2-5 on arm 4 of the centre 5-5" in words
        assert lesson.steps[1].why.split(".")[0] in words
        assert "Taken back" in str(screen.query_one("#notice").render())
        # An illegal one: the 0-3 fits no end; the rule says why (only a locked 3 could take it).
        hand.select(next(tile for tile in hand.tiles if str(tile) == "0-3"))
        await pilot.press("enter")
        assert match.cursor == cursor
        assert "Not allowed by DB-7: threes are locked until the 3-3 is played." in panel_words(screen)
        assert "DB-7" in str(screen.query_one("#notice").render())
        # Drawing while a tile fits breaks DB-8.
        await pilot.press("d")
        assert match.cursor == cursor and "Not allowed by DB-8" in panel_words(screen)
        # The lesson's move goes through, and the reason goes with the step.
        hand.select(next(tile for tile in hand.tiles if str(tile) == "3-3"))
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.step_now() is lesson.steps[2] and screen.human_to_move())
        assert "Taken back" not in panel_words(screen) and lesson.steps[2].title in panel_words(screen)


async def test_a_bid_off_the_lesson_is_taken_back_and_the_dialog_offered_again():
    app = lesson_app("moon")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = lesson_screen(app)
        match = screen.match
        await wait_until(pilot, lambda: isinstance(app.screen, MoonDialog))
        cursor = match.cursor
        dialog = app.screen
        await wait_until(pilot, lambda: dialog.moves[dialog.query_one("OptionList").highlighted] == Bid(5))
        await pilot.press("up", "enter")  # pass instead of bidding 5
        await wait_until(pilot, lambda: isinstance(app.screen, MoonDialog) and app.screen is not dialog)
        assert match.cursor == cursor
        assert "Taken back: pass. To win the bid you must beat Ben's 4" in panel_words(screen)
        await pilot.press("enter")  # the dialog opens on the lesson's bid again
        await wait_until(pilot, lambda: match.cursor > cursor)
        assert match.events[cursor] == Bid(5)


async def test_undo_goes_back_a_step_and_the_lesson_follows():
    lesson = load_lesson("chicken-foot")
    app = lesson_app("chicken-foot")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await at_the_second_step(pilot, lesson)
        match = screen.match
        await pilot.press("u")
        await wait_until(pilot, lambda: screen.human_to_move())
        assert screen.step_now() is lesson.steps[0] and match.cursor == 1
        assert "step 1 of" in panel_words(screen)
        await pilot.press("r")
        await wait_until(pilot, lambda: screen.human_to_move() and screen.step_now() is lesson.steps[1])


async def test_the_hint_key_points_at_the_lessons_move():
    app = lesson_app("chicken-foot")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = lesson_screen(app)
        await wait_until(pilot, lambda: screen.human_to_move())
        hand = screen.query_one(HandView)
        await pilot.press("home", "h")
        assert str(hand.selected) == "6-9" and str(hand.hint) == "6-9"
        assert "Lesson: Your move: the 6-9 on train 1" in str(screen.query_one("#notice").render())


async def test_learn_a_game_from_the_title_screen():
    from tui.screens.learn_menu import LearnScreen

    app = DominoesApp(preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g")
        await wait_until(pilot, lambda: isinstance(app.screen, LearnScreen))
        menu = app.screen.query_one("OptionList")
        assert [option.id for option in menu.options] == list(GAME_NAMES)
        assert "Doubles" in str(menu.get_option_at_index(1).prompt)
        await pilot.press("down", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, LessonTableScreen))
        screen = app.screen
        assert screen.lesson.game == "doubles" and screen.step_now() is screen.lesson.steps[0]
        assert "The highest double opens" in panel_words(screen)
        # Escape leaves the menu without starting anything.
        await pilot.press("q")
        await wait_until(pilot, lambda: len(app.screen_stack) == 1)
        await pilot.press("g")
        await wait_until(pilot, lambda: isinstance(app.screen, LearnScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, LearnScreen))
        assert len(app.screen_stack) == 1


async def test_a_lesson_left_half_way_resumes_as_a_lesson_where_it_stood():
    from saves import SaveStore
    from saves.listing import entries, latest_unfinished

    lesson = load_lesson("moon")
    app = lesson_app("moon")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = lesson_screen(app)
        await wait_until(pilot, lambda: isinstance(app.screen, MoonDialog))
        await pilot.press("enter")  # bid 5
        await wait_until(pilot, lambda: screen.human_to_move() and screen.step_now() is lesson.steps[1])
        cursor = screen.match.cursor
        await pilot.press("q")
        await wait_until(pilot, lambda: len(app.screen_stack) == 1)
    saved = latest_unfinished(entries(SaveStore()))
    assert saved is not None and saved.loaded.record.match.cursor == cursor
    again = DominoesApp(saved=saved.loaded, preferences=Preferences(bot_speed="instant"))
    async with again.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(again.screen, LessonTableScreen))
        screen = again.screen
        await wait_until(pilot, lambda: screen.human_to_move())
        assert screen.step_now() is lesson.steps[1] and "The widow" in panel_words(screen)
    # The title screen and the load screen name it a lesson, and where it stands.
    title = DominoesApp(preferences=Preferences(bot_speed="instant"))
    async with title.run_test(size=(80, 24)) as pilot:
        menu = title.screen.query_one("#title-menu")
        await wait_until(pilot, lambda: menu.get_option_at_index(0).id == "resume")
        assert str(menu.get_option_at_index(0).prompt) == "Resume: Three-player Moon lesson, step 2"
        await pilot.press("l")
        await wait_until(pilot, lambda: isinstance(title.screen, LoadScreen))
        listed = str(title.screen.query_one("#load-list").get_option_at_index(0).prompt)
        assert "Three-player Moon lesson, step 2 of 11  in progress" in listed


async def test_an_ordinary_match_opens_the_ordinary_table():
    seats = (Seat("You"), Seat("Bot 2", "bot", "easy"))
    app = DominoesApp(match=Match("doubles", 2, seats=seats), preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        assert not isinstance(app.screen, LessonTableScreen)


async def test_a_move_taken_back_from_the_board_gives_the_keys_back_to_the_hand():
    lesson = load_lesson("chicken-foot")
    step = next(step for step in lesson.steps if step.title == "Your own chicken foot")
    expected = lesson.script[step.index]
    match = Match(lesson.game, lesson.players, lesson.options, lesson.seats, lesson.seed, lesson.script[: step.index])
    app = DominoesApp(match=match, preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = lesson_screen(app)
        await wait_until(pilot, lambda: screen.human_to_move() and screen.step_now() is step)
        hand = screen.query_one(HandView)
        hand.select(expected.tile)
        await pilot.press("enter")  # the 7-7 fits several ends: the board opens on the lesson's
        board = screen.query_one(BoardTree)
        await wait_until(pilot, lambda: board.has_focus and board.cursor_node.data == expected.target)
        await pilot.press("e", "enter")  # another end: legal, but not the lesson's
        await wait_until(pilot, lambda: "Taken back: the 7-7 on" in panel_words(screen))
        assert match.cursor == step.index
        await wait_until(pilot, lambda: hand.has_focus and not board.has_focus)
        await pilot.press("enter")  # Enter opens the board on the lesson's end again, not the refused one
        await wait_until(pilot, lambda: board.has_focus and board.cursor_node.data == expected.target)
        await pilot.press("enter")
        await wait_until(pilot, lambda: match.cursor > step.index)
        assert match.events[step.index] == expected


async def test_while_the_others_play_the_panel_keeps_the_step_just_done():
    """The next step tells what the others did: it shows once they have done it, never while they
    are still playing the moves it describes."""
    lesson = load_lesson("doubles")
    app = DominoesApp(match=lesson.new_match(), preferences=Preferences(bot_speed="normal"))
    first, second = lesson.steps[0], lesson.steps[1]
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: settled(app))
        screen = lesson_screen(app)
        match = screen.match
        await press_the_lessons_move(pilot, screen)
        seen: dict[int, str] = {}
        while match.cursor < second.index:  # the bots' moves of the second step's `before`
            seen.setdefault(match.cursor, panel_words(screen))
            await pilot.pause(0.05)
        await wait_until(pilot, lambda: settled(app))
        # Their moves only (on a busy machine a poll may miss one).
        assert seen and set(seen) <= set(range(first.index + 1, second.index))
        for words in seen.values():
            assert first.title in words and "Done. The others play now…" in words and second.title not in words
        assert second.title in panel_words(screen) and "Your move:" in panel_words(screen)


async def test_the_move_the_review_prefers_taken_back_is_owned_up_to_beside_the_reason():
    lesson = load_lesson("doubles")
    step = next(step for step in lesson.steps if step.prefers)
    app = DominoesApp(
        match=Match(
            lesson.game, lesson.players, lesson.options, lesson.seats, lesson.seed, events=lesson.script[: step.index]
        ),
        preferences=Preferences(bot_speed="instant"),
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: settled(app))
        screen = lesson_screen(app)
        preferred = Play(Tile(2, 5), 3)  # the review's move here, which the step's `prefers` names
        assert str(preferred.tile) in step.prefers and preferred in screen.match.legal_moves()
        screen.play(preferred)
        await pilot.pause()
        words = " ".join(panel_words(screen).split())
        assert "Taken back: the 2-5" in words and " ".join(step.prefers.split()) in words
        assert screen.query_one(LessonPanel).max_scroll_y == 0  # the reason and the owning up fit
