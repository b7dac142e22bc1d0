"""Pilot tests of Moon at the table: a whole game by key presses, the dialogs, the widow, the trick."""

from __future__ import annotations

from textual.widgets import OptionList, Select

from core.games.moon_suits import DOUBLES
from core.moves import Bid, Discard, Play, Trump
from tests.tui.conftest import match_of, quick_app, table, wait_until
from tui.app import DominoesApp
from tui.preferences import Preferences
from tui.screens.game_over import GameOverScreen
from tui.screens.moon_dialogs import MoonDialog
from tui.screens.new_match import NewMatchScreen
from tui.screens.round_over import RoundOverScreen
from tui.screens.table import TableScreen
from tui.settings import build_settings
from tui.widgets.hand_view import HandView
from tui.widgets.trick_view import TrickView


def moon_settings(seed: int = 3, target: int = 5, **options: object):
    return build_settings("moon", 3, ["human", "bot:easy", "bot:easy"], [], {"target": target, **options}, seed)


def ready(app: DominoesApp) -> bool:
    """The human must act: a dialog is up, or a tile is wanted from the hand."""
    screen = app.screen
    if isinstance(screen, (MoonDialog, RoundOverScreen, GameOverScreen)):
        return True
    return isinstance(screen, TableScreen) and screen.human_to_move() and screen.thinking is None


def table_below(app: DominoesApp) -> TableScreen:
    """The table, also while a dialog is above it."""
    return next(screen for screen in reversed(app.screen_stack) if isinstance(screen, TableScreen))


def dialog_moves(app: DominoesApp) -> tuple:
    screen = app.screen
    assert isinstance(screen, MoonDialog)
    return screen.moves


async def take_a_moon_turn(pilot, seen: set[str]) -> None:
    """Bid the lowest raise there is (the second line of the dialog), name the first trump
    offered, lay aside and play the tile under the hand's cursor, all by keys."""
    app = pilot.app
    match = match_of(app)
    before = match.cursor
    phase = match.state.phase
    legal = match.legal_moves()
    if isinstance(app.screen, MoonDialog):
        assert dialog_moves(app) == legal  # MN-9, MN-12: the dialog offers exactly the legal moves
        seen.add(phase)
        await pilot.press("down" if phase == "bidding" else "up", "enter")
    else:
        hand = table(app).query_one(HandView)
        kinds = {type(move) for move in legal}
        assert kinds <= {Play, Discard}
        # The hand marks exactly the tiles the engine allows (MN-11: any tile; MN-15: followers).
        assert hand.legal == frozenset(move.tile for move in legal)
        assert hand.selected in hand.legal
        seen.add(phase)
        await pilot.press("enter")
    await pilot.pause()
    assert match.cursor > before, str(table(app).query_one("#notice").render())


async def test_a_whole_moon_game_from_the_new_match_screen_to_game_over():
    app = DominoesApp(preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("n")
        form = app.screen
        assert isinstance(form, NewMatchScreen)
        form.query_one("#game", Select).focus()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("down", "down", "enter")  # chicken-foot, doubles, moon
        await pilot.pause()
        assert form.query_one("#game", Select).value == "moon"
        await wait_until(pilot, lambda: form.options_for == ("moon", 3))  # the options rebuilt for Moon
        await pilot.click("#option-target")
        await pilot.press("end", "backspace", "backspace", "4")
        await pilot.click("#seed")
        await pilot.press(*"3")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, (TableScreen, MoonDialog))
        match = match_of(app)
        assert match.game_name == "moon" and match.options["target"] == 4 and match.players == 3
        seen: set[str] = set()
        hands = 0
        for _ in range(400):
            await wait_until(pilot, lambda: ready(app))
            if isinstance(app.screen, GameOverScreen):
                break
            if isinstance(app.screen, RoundOverScreen):
                record = match.state.records[-1]
                headline = str(app.screen.query_one("#round-headline").render())
                assert f"bid {record.bid}" in headline and match.names[record.bidder] in headline
                hands += 1
                await pilot.press("enter")
                await pilot.pause()
                continue
            await take_a_moon_turn(pilot, seen)
        else:
            raise AssertionError("the game did not end")
        assert match.state.over and hands == len(match.state.records) >= 1
        assert max(match.state.scores) >= 4
        # The human bid, took the widow, named trump and played tricks at some point.
        assert seen == {"bidding", "discard", "trump", "play"}, seen
        reason = str(app.screen.query_one("#over-reason").render())
        assert "(MN-19)" in reason if match.state.records[-1].bid == 21 else "(MN-20)" in reason


async def test_the_widow_is_shown_to_the_bidder_and_the_discard_comes_from_the_hand():
    app = quick_app(moon_settings(seed=3))
    async with app.run_test(size=(100, 32)) as pilot:
        for _ in range(20):
            await wait_until(pilot, lambda: ready(app))
            if match_of(app).state.phase == "discard":
                break
            await take_a_moon_turn(pilot, set())
        match = match_of(app)
        assert match.state.phase == "discard" and match.state.bidder == 0, "seed 3: the human wins the bidding"
        view = match.view(0)
        trick_view = table(app).query_one(TrickView)
        text = str(trick_view.render())
        assert f"The widow [{view.widow.low}|{view.widow.high}] is in your hand" in text
        hand = table(app).query_one(HandView)
        assert len(hand.tiles) == 8 and view.widow in hand.tiles
        hand.select(view.widow)
        await pilot.press("enter")
        await pilot.pause()
        assert match.state.discard is view.widow and view.widow not in table_below(app).query_one(HandView).tiles
        assert isinstance(app.screen, MoonDialog)  # MN-12: now the bidder names trump


async def test_the_trump_dialog_respects_the_doubles_option():
    app = quick_app(moon_settings(seed=3, doubles_trump=False))
    async with app.run_test(size=(100, 32)) as pilot:
        for _ in range(20):
            await wait_until(pilot, lambda: ready(app))
            if isinstance(app.screen, MoonDialog) and match_of(app).state.phase == "trump":
                break
            await take_a_moon_turn(pilot, set())
        moves = dialog_moves(app)
        assert Trump(DOUBLES) not in moves and len(moves) == 8  # 0..6 and no trump (MN-12)
        labels = [str(option.prompt) for option in app.screen.query_one(OptionList).options]
        assert not any("Doubles:" in label for label in labels)
        assert "Doubles may not be trump" in str(app.screen.query_one("#dialog-note").render())


async def test_an_illegal_tile_shows_the_follow_suit_rule_and_changes_nothing():
    app = quick_app(moon_settings(seed=3))
    async with app.run_test(size=(100, 32)) as pilot:
        match = match_of(app)
        for _ in range(200):
            await wait_until(pilot, lambda: ready(app))
            state = match.state
            hand = table(app).query_one(HandView) if isinstance(app.screen, TableScreen) else None
            if (
                hand is not None
                and state.phase == "play"
                and state.trick
                and any(tile not in hand.legal for tile in hand.tiles)
            ):
                break
            await take_a_moon_turn(pilot, set())
        else:
            raise AssertionError("no trick found where the human must follow suit")
        before = match.cursor
        hand.select(next(tile for tile in hand.tiles if tile not in hand.legal))
        await pilot.press("enter")
        notice = table(app).query_one("#notice")
        assert notice.has_class("illegal") and str(notice.render()).startswith("MN-15: ")
        assert match.cursor == before


async def test_escape_leaves_the_bid_for_later_and_b_brings_it_back_with_a_hint():
    app = quick_app(moon_settings(seed=3))
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MoonDialog))
        before = match_of(app).cursor
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen) and match_of(app).cursor == before
        assert "Press b" in str(table(app).query_one("#notice").render())
        table(app).advance()  # the table goes over the same decision again: the put-off bid stays put off
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        await pilot.press("b")
        assert isinstance(app.screen, MoonDialog)
        await pilot.press("h")
        note = str(app.screen.query_one("#dialog-note").render())
        assert note.startswith("Hint: ")
        suggested = app.screen.moves[app.screen.query_one(OptionList).highlighted]
        assert type(suggested) is Bid
        await pilot.press("enter")
        await pilot.pause()
        assert match_of(app).events[before] == suggested


async def test_the_hint_marks_the_discard_and_the_tile_to_play():
    app = quick_app(moon_settings(seed=3))
    async with app.run_test(size=(100, 32)) as pilot:
        match = match_of(app)
        hinted = set()
        for _ in range(60):
            await wait_until(pilot, lambda: ready(app))
            phase = match.state.phase
            if isinstance(app.screen, TableScreen) and phase in ("discard", "play") and phase not in hinted:
                await pilot.press("h")
                hand = table(app).query_one(HandView)
                # The hint is found in a thread: wait for it (on a busy machine it takes a while).
                await wait_until(pilot, lambda hand=hand: hand.hint is not None, timeout=30)
                notice = str(table(app).query_one("#notice").render())
                assert hand.hint is not None and hand.selected is hand.hint and hand.hint in hand.legal
                words = "Hint: Lay aside" if phase == "discard" else ("Hint: Play", "Hint: Lead")
                assert notice.startswith(words) and str(hand.hint) in notice
                hinted.add(phase)
                before = match.cursor
                await pilot.press("enter")  # the hinted tile is under the cursor: Enter takes the hint
                await wait_until(pilot, lambda before=before: match.cursor > before)
                continue
            if hinted == {"discard", "play"}:
                break
            await take_a_moon_turn(pilot, set())
        assert hinted == {"discard", "play"}


async def test_undo_from_the_trick_goes_back_to_the_humans_last_decision_and_its_dialog():
    app = quick_app(moon_settings(seed=3))
    async with app.run_test(size=(100, 32)) as pilot:
        match = match_of(app)
        for _ in range(40):
            await wait_until(pilot, lambda: ready(app))
            if match.state.phase == "play" and isinstance(app.screen, TableScreen):
                break
            await take_a_moon_turn(pilot, set())
        # The human named trump and must lead now: undo goes back to naming trump, and its dialog.
        assert match.state.to_move == 0 and not match.state.trick
        await pilot.press("u")
        await pilot.pause()
        assert match.state.phase == "trump" and isinstance(app.screen, MoonDialog)
        assert app.screen.moves == match.legal_moves()


async def test_hot_seat_moon_opens_the_bid_only_after_the_pass_screen():
    from tui.screens.pass_device import PassScreen

    settings = build_settings("moon", 3, ["human", "human", "bot:easy"], ["Ana", "Ben", "Cy"], {"target": 4}, 3)
    app = quick_app(settings)
    async with app.run_test(size=(100, 32)) as pilot:
        match = match_of(app)
        passes = 0
        for _ in range(12):
            await wait_until(pilot, lambda: ready(app) or isinstance(app.screen, PassScreen))
            if isinstance(app.screen, PassScreen):
                assert not app.screen.query(HandView)
                passes += 1
                await pilot.press("enter")
                await pilot.pause()
                if match.state.phase == "bidding":
                    assert isinstance(app.screen, MoonDialog)
                    assert table_below(app).viewer == match.state.to_move
                continue
            if match.state.phase == "play":
                break
            await take_a_moon_turn(pilot, set())
        assert passes >= 1
