"""The record in the interface: the game-over screen's rating change and accuracy (the review
weighed in the background), its chart of the totals, the statistics screen (a snapshot at 80x24),
and the leaderboard of a served session."""

from __future__ import annotations

import json
import re

from textual.widgets import DataTable

from net.player_sessions import player_home
from tests.records.helpers import DAY, START, finished_match, save
from tests.tui.conftest import human_turn, quick_settings, take_a_turn, wait_until
from tui.app import DominoesApp
from tui.lobby_app import LobbyApp
from tui.preferences import Preferences
from tui.screens.game_over import GameOverScreen, record_line
from tui.screens.leaderboard import LeaderboardScreen
from tui.screens.round_over import RoundOverScreen
from tui.screens.stats import StatsScreen
from tui.widgets.chart import Chart

OVER = GameOverScreen
ACCURACY = re.compile(r"accuracy this match: (\d+\.\d\d) points a decision")


async def test_game_over_shows_the_rating_change_then_the_accuracy_and_the_record_has_both():
    settings = quick_settings(kinds=("human", "bot:easy", "bot:hard"), seed=None)  # dealt from a secret: rated
    app = DominoesApp(start=settings, preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        while not isinstance(app.screen, GameOverScreen):
            await wait_until(pilot, lambda: human_turn(app) or isinstance(app.screen, (RoundOverScreen, OVER)))
            if isinstance(app.screen, RoundOverScreen):
                await pilot.press("enter")
            elif human_turn(app):
                await take_a_turn(pilot)
        screen = app.screen
        line = screen.query_one("#over-record")
        await wait_until(pilot, lambda: "Rating " in str(line.render()), timeout=60)
        assert re.match(r"Rating \d+ ± \d+ \([+-]\d+\), (about|above|below) \w+", str(line.render()))
        await wait_until(pilot, lambda: ACCURACY.search(str(line.render())) is not None, timeout=120)
        shown = float(ACCURACY.search(str(line.render())).group(1))
        await pilot.press("g")  # the totals round by round, as a chart
        chart = screen.query_one("#over-chart", Chart)
        assert chart.display and [label for label, _, _ in chart.series] == list(app.match.names)
        assert [ys[-1] for _, _, ys in chart.series] == list(app.match.state.scores)
        await pilot.press("q")
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, StatsScreen) and app.screen.loaded)
        accuracy = app.screen.query_one("#stats-accuracy", Chart)
        assert [round(y, 2) for _, _, ys in accuracy.series for y in ys] == [shown]
        assert "1 reviewed" in str(app.screen.query_one("#stats-summary").render())


def test_the_accuracy_line_compares_the_match_with_the_players_average():
    result = {"rated": True, "excluded": None, "mean_loss": 0.42, "average": 0.61}
    result["before"] = {"shown": 1500, "text": "1500 ± 500", "level": "about medium"}
    result["after"] = {"shown": 1560, "text": "1560 ± 460", "level": "about medium"}
    line = record_line("You", result, False, False)
    rating, accuracy = line.split("\n")
    assert rating == "Rating 1560 ± 460 (+60), about medium"
    assert accuracy == "accuracy this match: 0.42 points a decision (your average 0.61)"


def seeded_home(home):
    for number, seed in enumerate((3, 4, 5, 6, 8, 9)):
        levels = ("easy", "hard") if number % 2 else ("easy", "medium")
        save(home / "saves", finished_match("chicken-foot", seed, levels), f"m{number}", START + number * DAY + 43_200)


def test_the_statistics_screen_at_80x24(snap_compare, private_home):
    seeded_home(private_home)
    app = DominoesApp(preferences=Preferences(bot_speed="instant"))

    async def open_stats(pilot):
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, StatsScreen) and app.screen.loaded)
        await pilot.pause()

    assert snap_compare(app, run_before=open_stats, terminal_size=(80, 24))


async def test_the_lobby_leaderboard_lists_who_chose_to_be_and_opens_what_they_made_public(tmp_path, monkeypatch):
    server = tmp_path / "server"
    for day, (name, shown) in enumerate((("ana", "private"), ("bo", "listed"), ("cy", "private"))):
        home = player_home(server, name)
        (home / "preferences.json").write_text(json.dumps({"leaderboard": shown}))
        save(
            home / "saves", finished_match("moon", 3 + day, ("easy", "hard"), name=name), f"{name}-m", START + day * DAY
        )
    monkeypatch.setenv("DOMINOES_HOME", str(server / "players" / "ana"))
    monkeypatch.setenv("DOMINOES_SERVER_HOME", str(server))
    monkeypatch.setenv("DOMINOES_SERVED", "1")
    app = LobbyApp("ana", preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("b")
        await wait_until(pilot, lambda: isinstance(app.screen, LeaderboardScreen))
        while app.screen.game != "moon":
            await pilot.press("right")
        grid = app.screen.query_one("#board-table", DataTable)
        await wait_until(pilot, lambda: grid.row_count == 2)
        rows = [[str(cell) for cell in grid.get_row_at(row)] for row in range(grid.row_count)]
        assert [(row[0], row[1]) for row in rows] == [("1", "bo"), ("-", "ana")]  # cy is private; ana's own line
        await pilot.press("enter")  # bo's record: listed, so his ratings alone
        await wait_until(pilot, lambda: isinstance(app.screen, StatsScreen) and app.screen.loaded)
        summary = str(app.screen.query_one("#stats-summary").render())
        assert summary.splitlines()[-1] == "the rest of this record is not public"
        assert "best match" not in summary and "wins against" not in summary
