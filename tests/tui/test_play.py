"""Pilot tests: whole matches and the learning tools, driven by key presses."""

from __future__ import annotations

from core.moves import Play
from tests.tui.conftest import human_turn, match_of, quick_app, quick_settings, table, take_a_turn, wait_until
from tui.app import DominoesApp
from tui.preferences import Preferences
from tui.screens.game_over import GameOverScreen
from tui.screens.new_match import NewMatchScreen
from tui.screens.pass_device import PassScreen
from tui.screens.round_over import RoundOverScreen
from tui.screens.table import TableScreen
from tui.widgets.hand_view import HandView


def check_reveal(screen: RoundOverScreen) -> None:
    """At the end of a round every hand is shown, tile by tile."""
    match = screen.match
    reveal = screen.query_one("#reveal")
    hands = match.state.hands
    for seat in range(match.players):
        row = reveal.get_row_at(seat)
        assert str(row[0]) == match.names[seat]
        shown = str(row[1])
        assert all(f"{t.low}|{t.high}" in shown for t in hands[seat]) or (not hands[seat] and shown == "out")
        assert str(row[2]).startswith(str(match.state.round_scores[-1][seat]))


async def play_to_the_end(pilot) -> int:
    """Play on (the human by keys) until the game-over screen; returns how many rounds were revealed."""
    app = pilot.app
    reveals = 0
    for _ in range(500):
        await wait_until(
            pilot,
            lambda: human_turn(app) or isinstance(app.screen, (RoundOverScreen, GameOverScreen, PassScreen)),
        )
        if isinstance(app.screen, GameOverScreen):
            return reveals
        if isinstance(app.screen, RoundOverScreen):
            await wait_until(pilot, lambda: app.screen.is_mounted)  # its rows are added on mount
            check_reveal(app.screen)
            reveals += 1
        if isinstance(app.screen, (RoundOverScreen, PassScreen)):
            await pilot.press("enter")
            await pilot.pause()
            continue
        await take_a_turn(pilot)
    raise AssertionError("the match did not end")


async def test_a_whole_match_from_the_title_screen_to_game_over():
    app = DominoesApp(preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("n")
        assert isinstance(app.screen, NewMatchScreen)
        await wait_until(pilot, lambda: app.screen.options_for is not None)  # the form is built
        await pilot.click("#option-rounds")
        await pilot.press("end", "backspace", "backspace", "1")
        await pilot.click("#seed")
        await pilot.press(*"12")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        match = match_of(app)
        assert match.seed == 12 and match.options["rounds"] == 1 and match.players == 4
        assert [seat.kind for seat in match.seats] == ["human", "bot", "bot", "bot"]
        assert await play_to_the_end(pilot) == 1
        screen = app.screen
        assert isinstance(screen, GameOverScreen)
        assert match.state.over and len(match.state.round_scores) == 1
        assert "Seed 12" in str(screen.query_one("#over-seed").render())
        winner = match.names[match.state.winners[0]]
        assert winner in str(screen.query_one("#over-headline").render())
        # Rematch: the same table, a new deal.
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert match_of(app).seed == 13 and match_of(app).seats == match.seats


async def test_undo_and_redo_return_to_the_humans_decisions():
    app = quick_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_until(pilot, lambda: human_turn(app))
        match = match_of(app)
        decision = match.cursor
        state = match.state
        await take_a_turn(pilot)
        await wait_until(pilot, lambda: human_turn(app) or isinstance(app.screen, RoundOverScreen))
        later = match.cursor
        assert later > decision + 1  # the bots moved too
        await pilot.press("u")
        assert match.cursor == decision and match.state is state
        assert table(app).query_one(HandView).tiles == match.view(0).hand
        await pilot.press("r")
        assert match.cursor == later
        # Undo, then a different move: the redo tail is gone.
        first_choice = match.events[decision]
        await pilot.press("u")
        await take_a_turn(pilot, last=True)
        assert match.events[decision] != first_choice and not match.can_redo()


async def test_undo_while_a_bot_thinks_cancels_it():
    app = quick_app(speed="normal")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_until(pilot, lambda: human_turn(app), timeout=30)
        match = match_of(app)
        decision = match.cursor
        await take_a_turn(pilot)
        screen = table(app)
        await wait_until(pilot, lambda: screen.thinking is not None)
        assert "thinking" in str(screen.query_one("#status").render())
        await pilot.press("u")
        assert match.cursor == decision and screen.thinking is None
        await pilot.pause(1.0)  # longer than a bot takes at normal speed: nothing is played behind our back
        assert match.cursor == decision and human_turn(app)


async def test_hint_names_a_legal_move_and_its_reason():
    app = quick_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_until(pilot, lambda: human_turn(app))
        match = match_of(app)
        await pilot.press("h")
        notice_widget = table(app).query_one("#notice")
        await wait_until(pilot, lambda: str(notice_widget.render()) != "Hint: thinking…")
        notice = str(notice_widget.render())
        assert notice.startswith("Hint: ")
        hand = table(app).query_one(HandView)
        legal = match.legal_moves()
        if hand.hint is not None:
            assert hand.selected is hand.hint
            assert any(type(m) is Play and m.tile is hand.hint for m in legal)
            assert f"Play {hand.hint}" in notice
        else:
            assert "draw" in notice or "pass" in notice


async def test_an_illegal_attempt_shows_the_rule_and_changes_nothing():
    app = quick_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_until(pilot, lambda: human_turn(app))
        match = match_of(app)
        screen = table(app)
        hand = screen.query_one(HandView)
        playable = {m.tile for m in match.legal_moves() if type(m) is Play}
        before = match.cursor
        if playable:
            await pilot.press("d")  # drawing while a tile fits breaks CF-7 (opening) or CF-9
            notice = screen.query_one("#notice")
            assert notice.has_class("illegal")
            assert str(notice.render()).startswith(("CF-7: you can play", "CF-9: you can play"))
            assert match.cursor == before
        unplayable = [t for t in hand.tiles if t not in playable]
        assert unplayable, "this seed deals the human a tile that does not fit"
        hand.select(unplayable[0])
        await pilot.press("enter")
        notice = screen.query_one("#notice")
        assert notice.has_class("illegal") and str(notice.render()).startswith("CF-")
        assert match.cursor == before


async def test_hot_seat_hides_each_hand_until_its_player_is_ready():
    settings = quick_settings(kinds=("human", "human", "bot:easy"), names=("Ana", "Ben", "Cy"), seed=5)
    app = quick_app(settings)
    async with app.run_test(size=(100, 32)) as pilot:
        seen = set()
        for _ in range(6):
            await wait_until(pilot, lambda: human_turn(app) or isinstance(app.screen, (PassScreen, RoundOverScreen)))
            if isinstance(app.screen, RoundOverScreen):
                break
            match = match_of(app)
            if isinstance(app.screen, PassScreen):
                seat = match.state.to_move
                assert app.screen.player == match.names[seat]
                assert f"Pass to {match.names[seat]}" in str(app.screen.query_one("#pass-message").render())
                # Nothing of any hand is on the screen in front of the players.
                assert not app.screen.query(HandView)
                await pilot.press("enter")
                await pilot.pause()
                seen.add(seat)
            screen = table(app)
            assert screen.viewer == match.state.to_move
            assert screen.query_one(HandView).tiles == match.view(screen.viewer).hand
            await take_a_turn(pilot)
        assert seen == {0, 1}


async def test_undo_from_the_end_of_a_round_goes_back_into_it():
    from tests.tui.conftest import finished_round

    match = finished_round(seed=4)
    end = match.cursor
    app = DominoesApp(match=match, preferences=Preferences(bot_speed="slow"))
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, RoundOverScreen))
        await pilot.press("u")
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))  # a pause or more, under load
        # No human sits at this table, so undo steps back one bot decision, into the round.
        assert match.cursor == end - 1
        assert not match.state.over and table(app).thinking is not None
