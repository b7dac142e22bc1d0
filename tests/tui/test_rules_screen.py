"""The rules screen: every game's rules from the title screen, in tabs, before a game is chosen;
and from a table, the rules as that match plays them (its own target, its own rounds)."""

from __future__ import annotations

from textual.widgets import Markdown, TabbedContent

from core import GAME_NAMES, get_game
from tests.tui.conftest import human_turn, quick_app, quick_settings, wait_until
from tui.app import DominoesApp
from tui.preferences import Preferences
from tui.rules_page import rules_text
from tui.screens.rules import RulesScreen
from tui.settings import build_settings


def shown_rules(screen: RulesScreen) -> str:
    if screen.every_game:
        pane = screen.query_one(TabbedContent).active_pane
        return pane.query_one(Markdown).source
    return screen.query_one(Markdown).source


async def test_the_title_screen_shows_the_rules_of_every_game_in_tabs():
    app = DominoesApp(preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, RulesScreen))
        screen = app.screen
        tabs = screen.query_one(TabbedContent)
        assert [pane.id for pane in tabs.query("TabPane")] == [f"rules-{name}" for name in GAME_NAMES]
        seen = []
        for _ in GAME_NAMES:  # → from one game's rules to the next, each the whole of its rules
            seen.append(screen.game_name)
            assert shown_rules(screen) == rules_text(screen.game_name)
            assert shown_rules(screen).startswith(f"# {get_game(screen.game_name).title}")
            before = screen.game_name
            await pilot.press("right")
            await wait_until(pilot, lambda before=before: screen.game_name != before)  # the tab changes in a moment
        assert sorted(seen) == sorted(GAME_NAMES) and screen.game_name == seen[0]
        await pilot.press("left")
        await wait_until(pilot, lambda: screen.game_name == seen[-1])
        await pilot.press("escape")
        assert not isinstance(app.screen, RulesScreen)


def test_without_a_match_the_rules_give_each_default_and_the_option_that_changes_it():
    assert "the first to 100 points (option `target`) wins" in rules_text("doubles")
    assert "A match is ten rounds (or fewer, with the `rounds` option)" in rules_text("chicken-foot")
    assert "be first to 21 points (option `target`)" in rules_text("moon")
    for name in GAME_NAMES:
        assert "{" not in rules_text(name) and "## This match" not in rules_text(name)


async def test_a_tables_rules_are_that_matchs_own():
    settings = build_settings("doubles", 2, ["human", "bot:easy"], [], {"target": 30}, 3)
    app = quick_app(settings)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: human_turn(app))
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, RulesScreen))
        text = shown_rules(app.screen)
        assert "the first to 30 points wins" in text and "reaches 30 points" in text
        assert "100" not in text
        assert "## This match" in text and "- `target`: **30**." in text and "- `blocked_tie`: **nobody**." in text
    app = quick_app(quick_settings(rounds=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: human_turn(app))
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, RulesScreen))
        text = shown_rules(app.screen)
        assert "A match is three rounds." in text and "carries four trains" in text
        assert "- `double_blank_50`: **off**." in text
