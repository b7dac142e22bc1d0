"""Pilot tests of Doubles at the table: a whole match by key presses; locked numbers; the opening."""

from __future__ import annotations

from textual.widgets import Select

from core.moves import Play
from tests.tui.conftest import human_turn, match_of, quick_app, table, take_a_turn, wait_until
from tui.app import DominoesApp
from tui.preferences import Preferences
from tui.screens.game_over import GameOverScreen, standings
from tui.screens.new_match import NewMatchScreen
from tui.screens.round_over import RoundOverScreen
from tui.screens.table import TableScreen
from tui.settings import build_settings
from tui.widgets.board_tree import BoardTree
from tui.widgets.hand_view import HandView
from tui.widgets.scorepad import Scorepad


def doubles_settings(seed: int = 8, target: int = 10):
    return build_settings("doubles", 3, ["human", "bot:easy", "bot:easy"], [], {"target": target}, seed)


async def test_a_whole_doubles_match_from_the_new_match_screen_to_game_over():
    app = DominoesApp(preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("n")
        form = app.screen
        assert isinstance(form, NewMatchScreen)
        form.query_one("#game", Select).focus()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("down", "enter")  # chicken-foot, then doubles
        await pilot.pause()
        assert form.query_one("#game", Select).value == "doubles"
        form.query_one("#players", Select).value = 3
        await wait_until(pilot, lambda: form.options_for == ("doubles", 3))  # the options rebuilt for 3
        await pilot.click("#option-target")
        await pilot.press("end", "backspace", "backspace", "backspace", "1", "0")
        await pilot.click("#seed")
        await pilot.press(*"8")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        match = match_of(app)
        assert match.game_name == "doubles" and match.options["target"] == 10 and match.players == 3
        rounds = 0
        for _ in range(600):
            await wait_until(
                pilot, lambda: human_turn(app) or isinstance(app.screen, (RoundOverScreen, GameOverScreen))
            )
            if isinstance(app.screen, GameOverScreen):
                break
            if isinstance(app.screen, RoundOverScreen):
                rounds += 1
                await pilot.press("enter")
                await pilot.pause()
                continue
            await take_a_turn(pilot)
        else:
            raise AssertionError("the match did not end")
        state = match.state
        assert state.over and rounds == len(state.round_scores)
        # DB-3: the human opened a round with the highest double, from the hand, by Enter.
        openings = [
            index
            for index, event in enumerate(match.events)
            if type(event) is Play and event.target is None and match.state_at(index).to_move == 0
        ]
        assert openings, "seed 8: the human holds the highest double in the first round"
        # DB-13: scores go up and the highest total wins; the standings say so.
        winner = state.winners[0]
        assert state.scores[winner] == max(state.scores) >= 10
        assert standings(match)[0][1] == match.names[winner]
        assert "(DB-13)" in str(app.screen.query_one("#over-reason").render())


async def test_locked_numbers_are_marked_on_the_board_and_named_in_the_status():
    app = quick_app(doubles_settings())
    async with app.run_test(size=(100, 32)) as pilot:
        match = match_of(app)
        for _ in range(60):
            await wait_until(pilot, lambda: human_turn(app) or isinstance(app.screen, RoundOverScreen))
            view = match.view(0)
            board = view.board
            locked_ends = [end for end in board.ends if not view.unlocked >> board.lines[end].open & 1] if board else []
            if locked_ends:
                break
            await take_a_turn(pilot)
        else:
            raise AssertionError("no end showed a locked number")
        screen = table(app)
        status = str(screen.query_one("#status").render())
        unlocked = " ".join(str(n) for n in range(7) if view.unlocked >> n & 1)
        assert f"unlocked {unlocked}" in status  # DB-6
        tree = screen.query_one(BoardTree)
        for end in locked_ends:
            number = board.lines[end].open
            label = str(tree._line_nodes[end].label)
            assert f"locked: {number}-{number} only" in label  # DB-7
        lines = screen.query_one(Scorepad).text().splitlines()
        assert lines[-2].split()[1:] == ["…"] * match.players  # the round in play
        assert lines[-1].split() == ["Σ", *map(str, view.scores)]


async def test_the_opening_double_is_played_from_the_hand():
    app = quick_app(doubles_settings())
    async with app.run_test(size=(80, 24)) as pilot:
        match = match_of(app)
        for _ in range(200):
            await wait_until(pilot, lambda: human_turn(app) or isinstance(app.screen, RoundOverScreen))
            if isinstance(app.screen, RoundOverScreen):
                await pilot.press("enter")
                continue
            if match.view(0).leading is not None:
                break
            await take_a_turn(pilot)
        else:
            raise AssertionError("the human never opened a round")
        leading = match.view(0).leading
        hand = table(app).query_one(HandView)
        assert hand.legal == {leading} and hand.selected is leading
        # DB-3: the empty board and the status say what to do, whole on an 80x24 screen as drawn.
        board = table(app).query_one(BoardTree)
        words = str(board.root.children[0].label)
        assert words == f"Open the round: Enter plays your {leading}."
        await pilot.pause()
        drawn = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
        assert words in drawn
        assert f"lead the {leading}: press Enter" in drawn
        await pilot.press("enter")
        assert match.state.board is not None and match.state.board.centre is leading  # DB-3


async def test_illegal_attempts_at_the_opening_cite_the_rule_and_change_nothing():
    app = quick_app(doubles_settings())
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_until(pilot, lambda: human_turn(app))
        match = match_of(app)
        screen = table(app)
        before = match.cursor
        await pilot.press("d")  # DB-3: the round opens with the highest double, not a draw
        notice = screen.query_one("#notice")
        assert notice.has_class("illegal") and str(notice.render()).startswith("DB-")
        hand = screen.query_one(HandView)
        other = next(tile for tile in hand.tiles if tile not in hand.legal)
        hand.select(other)
        await pilot.press("enter")
        assert notice.has_class("illegal") and str(notice.render()).startswith("DB-3: ")
        assert match.cursor == before
