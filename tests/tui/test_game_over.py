"""Game over says who won and by which rule, orders the standings to agree, and lets every round be
seen with the totals in sight, for each game."""

from __future__ import annotations

from types import SimpleNamespace

from textual.containers import VerticalScroll

from core import Match
from core.seats import Seat
from tests.tui.conftest import finished_round, wait_until
from tests.tui.positions import MOON_SEATS, moon_hand, moon_made_from_behind, moon_many_hands, played_by_easy_bots
from tui.app import DominoesApp
from tui.outcome import outcome
from tui.preferences import Preferences
from tui.screens.game_over import GameOverScreen
from tui.screens.round_over import RoundOverScreen


def finished(game: str, players: int, options: dict, seed: int, seats=None) -> Match:
    return played_by_easy_bots(Match(game, players, options, seats, seed=seed), seed)


def places(result) -> list[tuple[int, int]]:
    return [(row.place, row.seat) for row in result.standings]


def test_mn19_a_made_21_wins_from_behind_and_heads_the_standings():
    match = moon_made_from_behind()
    result = outcome("moon", match.view(0), match.names, you=0)
    assert match.state.scores == (0, 28, 21)
    assert result.headline == "easy 2 wins"
    assert result.reason.startswith("easy 2 bid 21 and took all seven tricks") and "(MN-19)" in result.reason
    assert places(result) == [(1, 2), (2, 1), (3, 0)]  # the winner first, then by total


def test_mn20_the_first_alone_on_the_highest_total_wins():
    match = Match("moon", 3, {}, MOON_SEATS, seed=0)
    for _ in range(3):
        moon_hand(match, 0, 7)  # 7, 14, 21: the target, alone on top
    assert match.state.over and match.state.winners == (0,)
    result = outcome("moon", match.view(0), match.names, you=0)
    assert result.headline == "You win"  # spoken to, never "You wins"
    assert "(MN-20)" in result.reason and "21" in result.reason
    assert places(result) == [(1, 0), (2, 1), (2, 2)]  # the others share a place on equal totals


def test_cf18_the_lowest_total_wins_after_the_last_round():
    match = finished_round(seed=4)
    result = outcome("chicken-foot", match.view(0), match.names)
    totals = match.state.scores
    assert result.reason == "The lowest total after 1 round wins (CF-18)."
    assert [row.seat for row in result.standings] == sorted(range(4), key=lambda seat: (totals[seat], seat))
    assert result.standings[0].seat in match.state.winners


def test_cf18_equal_lowest_totals_share_the_win():
    view = SimpleNamespace(winners=(0, 2), scores=(40, 55, 40), round_scores=((20, 25, 20), (20, 30, 20)))
    result = outcome("chicken-foot", view, ("Ana", "Ben", "You"), you=2)
    assert result.headline == "Ana and you share the win"
    assert result.reason == "Equal lowest totals after 2 rounds share the win (CF-18)."
    assert places(result) == [(1, 0), (1, 2), (3, 1)]


def test_db13_the_first_to_the_target_wins():
    match = finished("doubles", 2, {"target": 20}, 5, (Seat("Ana"), Seat("Ben", "bot", "easy")))
    result = outcome("doubles", match.view(0), match.names)
    winner = match.state.winners[0]
    assert result.headline == f"{match.names[winner]} wins"
    assert result.standings[0].seat == winner and result.standings[0].total >= 20
    crossed = [total for total in match.state.scores if total >= 20]
    assert result.reason == (
        "The first to reach 20 wins (DB-13)."
        if len(crossed) == 1
        else f"{' and '.join(match.names)} both reached 20 in the same round, and the higher total wins (DB-13)."
    )


def test_db13_when_two_cross_the_target_in_one_round_the_higher_total_wins():
    view = SimpleNamespace(winners=(1,), scores=(104, 112, 30), options={"target": 100})
    result = outcome("doubles", view, ("Ana", "Ben", "Cy"))
    assert result.headline == "Ben wins"
    assert result.reason == "Ana and Ben both reached 100 in the same round, and the higher total wins (DB-13)."
    assert places(result) == [(1, 1), (2, 0), (3, 2)]


async def to_game_over(pilot) -> GameOverScreen:
    app = pilot.app
    await wait_until(pilot, lambda: isinstance(app.screen, (RoundOverScreen, GameOverScreen)))
    if isinstance(app.screen, RoundOverScreen):
        await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
    return app.screen


async def test_the_game_over_screen_shows_the_reason_and_the_standings_in_its_order():
    app = DominoesApp(match=moon_made_from_behind(), preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await to_game_over(pilot)
        assert str(screen.query_one("#over-headline").render()).endswith("easy 2 wins.")
        assert "(MN-19)" in str(screen.query_one("#over-reason").render())
        rows = str(screen.query_one("#standings").render()).splitlines()[1:]
        assert [row.split()[:3] for row in rows] == [["1", "easy", "2"], ["2", "easy", "1"], ["3", "You", "0"]]


async def test_every_hand_of_a_long_moon_game_can_be_scrolled_with_the_totals_in_sight():
    match = moon_many_hands(15)
    app = DominoesApp(match=match, preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await to_game_over(pilot)
        rounds = screen.query_one("#score-rounds", VerticalScroll)
        total = screen.query_one(".score-total")
        await pilot.pause()
        assert rounds.has_focus and rounds.max_scroll_y > 0  # sixteen hands do not fit at 80x24
        # Σ is on screen whatever is scrolled, right under the rounds.
        assert total.region.bottom <= app.size.height - 1 and str(total.render()).split()[0] == "Σ"
        assert rounds.scroll_y == rounds.max_scroll_y  # it opens on the last hands, the deciding one
        await pilot.press("home")
        await wait_until(pilot, lambda: rounds.scroll_y == 0)
        await pilot.press("pagedown")
        await wait_until(pilot, lambda: rounds.scroll_y > 0)
        await pilot.press("end")
        await wait_until(pilot, lambda: rounds.scroll_y == rounds.max_scroll_y)
        body = str(rounds.query_one("Static").render()).splitlines()
        assert [line.split()[0] for line in body] == [str(hand) for hand in range(1, 17)]
        assert total.region.bottom <= app.size.height - 1
        assert "every round" in str(screen.query_one("#over-seed").render())


async def test_a_game_over_screen_dismissed_before_its_first_refresh_lets_it_pass():
    # Watching bots, the lobby dismisses a finished match's screen by itself; on a busy machine that
    # came before the refresh the screen had asked for to show its last rounds, which then looked
    # for rounds no longer there and ended the session with a traceback.
    app = DominoesApp(match=moon_many_hands(15), preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await to_game_over(pilot)
        app.pop_screen()
        await wait_until(pilot, lambda: not screen.children)  # let go of everything it showed
        screen._show_the_last_rounds()  # the refresh it asked for, coming late
        screen._refresh_footnote()
        await pilot.pause()
        assert app.is_running
