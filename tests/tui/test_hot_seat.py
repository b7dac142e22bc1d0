"""Hot seat: with two humans at one keyboard no hand ever shows before its player's pass screen (at
the start, at each turn change, on resume and on load), and an undo that would take back the other
human's move asks them first, behind their pass screen."""

from __future__ import annotations

import pytest

from cli.play_commands import resume_save
from tests.tui.conftest import human_turn, match_of, quick_app, quick_settings, table, take_a_turn, wait_until
from tui.app import DominoesApp
from tui.preferences import Preferences
from tui.screens.load import LoadScreen
from tui.screens.pass_device import PassScreen
from tui.screens.round_over import RoundOverScreen
from tui.screens.undo_dialog import UndoDialog
from tui.widgets.hand_view import HandView

HOT_SEAT = quick_settings(kinds=("human", "human", "bot:easy"), names=("Ana", "Ben", "Cy"), seed=5)


class Watcher:
    """Records whose tiles the hand shows and whom the table is passed to, in order."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.holder: str | None = None  # the player the table was last passed to
        self.shown: list[str] = []
        self.leaks: list[str] = []
        show, ready = HandView.show, PassScreen.action_ready
        watcher = self

        def watched_show(hand: HandView, owner: str, tiles, legal, keep=None) -> None:
            if tiles:
                watcher.shown.append(owner)
                if owner != watcher.holder:
                    watcher.leaks.append(f"{owner}'s hand shown while {watcher.holder} has the table")
            show(hand, owner, tiles, legal, keep)

        def watched_ready(screen: PassScreen) -> None:
            watcher.holder = screen.player
            ready(screen)

        monkeypatch.setattr(HandView, "show", watched_show)
        monkeypatch.setattr(PassScreen, "action_ready", watched_ready)

    def reopened(self) -> None:
        self.holder = None  # a new app: nobody has been passed the table yet


async def play_turns(pilot, turns: int) -> None:
    """Play `turns` human turns by keys, dismissing pass screens as a player would."""
    app = pilot.app
    played = 0
    while played < turns:
        await wait_until(pilot, lambda: human_turn(app) or isinstance(app.screen, (PassScreen, RoundOverScreen)))
        if isinstance(app.screen, RoundOverScreen):
            return
        if isinstance(app.screen, PassScreen):
            assert not app.screen.query(HandView)  # the pass screen covers the whole table
            await pilot.press("enter")
            continue
        await take_a_turn(pilot)
        played += 1


@pytest.mark.parametrize("seed", [2, 3])  # Ana, the first human, plays first; Cy, the bot, plays first
async def test_no_hand_shows_before_its_pass_screen_at_start_turn_changes_resume_and_load(monkeypatch, seed):
    watcher = Watcher(monkeypatch)
    settings = quick_settings(kinds=("human", "human", "bot:easy"), names=("Ana", "Ben", "Cy"), seed=seed, rounds=2)
    app = quick_app(settings)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, PassScreen))  # before any hand
        assert watcher.shown == []
        await play_turns(pilot, 4)
        assert {"Ana", "Ben"} <= set(watcher.shown)
        # Leave on Ana's turn, her hand in front of her: reopened, it must be hidden again.
        match = match_of(app)
        while True:
            await wait_until(pilot, lambda: human_turn(app) or isinstance(app.screen, PassScreen))
            if isinstance(app.screen, PassScreen):
                await pilot.press("enter")
            elif match.state.to_move == 0:
                break
            else:
                await take_a_turn(pilot)
        await pilot.press("q")
    assert watcher.leaks == []

    watcher.reopened()
    app = DominoesApp(saved=resume_save(""), preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:  # dominoes --resume
        await wait_until(pilot, lambda: isinstance(app.screen, PassScreen))
        shown = len(watcher.shown)
        await play_turns(pilot, 2)
        assert len(watcher.shown) > shown
    assert watcher.leaks == []

    watcher.reopened()
    app = DominoesApp(preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:  # the title screen's Load
        await pilot.press("l")
        await wait_until(pilot, lambda: isinstance(app.screen, LoadScreen))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, PassScreen))
        await play_turns(pilot, 2)
    assert watcher.leaks == []


async def to_the_other_humans_undo(pilot):
    """Play until the human to move would undo the other human's move; (asker, owner, point)."""
    app = pilot.app
    for _ in range(20):
        await wait_until(pilot, lambda: human_turn(app) or isinstance(app.screen, PassScreen))
        if isinstance(app.screen, PassScreen):
            await pilot.press("enter")
            continue
        match = match_of(app)
        point = match.undo_point()
        if point is not None and match.state_at(point).to_move != match.state.to_move:
            return match.state.to_move, match.state_at(point).to_move, point
        await take_a_turn(pilot)
    raise AssertionError("no turn came where undo would take back the other human's move")


async def test_an_undo_of_the_other_humans_move_asks_them_behind_their_pass_screen():
    app = quick_app(HOT_SEAT)
    async with app.run_test(size=(80, 24)) as pilot:
        asker, owner, point = await to_the_other_humans_undo(pilot)
        match = match_of(app)
        names = match.names
        before = match.cursor
        await pilot.press("u")
        await wait_until(pilot, lambda: isinstance(app.screen, PassScreen))
        assert app.screen.player == names[owner] and match.cursor == before  # nothing undone yet
        assert f"{names[asker]} asks to undo your last move." in str(app.screen.query_one("#pass-message").render())
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, UndoDialog))
        # The dialog names exactly what goes back: the owner's move, and whose moves came after it.
        detail = app.screen.detail
        own = match.game.describe_move(match.state_at(point), match.events[point], names, owner)
        assert detail.startswith(f"It takes back your move (you{own.removeprefix(names[owner])})")
        after = [match.state_at(i).to_move for i in range(point + 1, before) if match.events[i].kind != "deal"]
        if after:
            assert f"moves after it, {names[after[0]]}'s" in detail or f"move after it, {names[after[0]]}'s" in detail
        assert names[asker] not in detail.split(";")[0] or asker in after  # the asker's own moves stay
        assert detail.endswith("; then it is your turn again.")
        await pilot.press("y")
        await wait_until(pilot, lambda: human_turn(app))
        screen = table(app)
        assert match.cursor == point and match.state.to_move == owner
        assert screen.viewer == owner and screen.query_one(HandView).owner == names[owner]  # no second pass
        notice = str(screen.query_one("#notice").render())
        assert notice == f"Undone at {names[asker]}'s request: back to your move, {names[owner]}."


async def test_a_declined_undo_changes_nothing_and_passes_the_table_back():
    app = quick_app(HOT_SEAT)
    async with app.run_test(size=(80, 24)) as pilot:
        asker, owner, _ = await to_the_other_humans_undo(pilot)
        match = match_of(app)
        names = match.names
        before = match.cursor
        await pilot.press("u")
        await wait_until(pilot, lambda: isinstance(app.screen, PassScreen))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, UndoDialog))
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, PassScreen))
        assert app.screen.player == names[asker]  # the asker's hand stays hidden from the owner
        await pilot.press("enter")
        await wait_until(pilot, lambda: human_turn(app))
        screen = table(app)
        assert match.cursor == before and screen.viewer == asker
        assert str(screen.query_one("#notice").render()) == f"{names[owner]} declined the undo."


async def test_undo_of_ones_own_move_while_a_bot_thinks_asks_nobody():
    app = quick_app(HOT_SEAT, speed="slow")
    async with app.run_test(size=(80, 24)) as pilot:
        match = match_of(app)
        for _ in range(20):
            await wait_until(pilot, lambda: human_turn(app) or isinstance(app.screen, PassScreen), 20)
            if isinstance(app.screen, PassScreen):
                await pilot.press("enter")
                continue
            mover, decision = match.state.to_move, match.cursor
            await take_a_turn(pilot)
            if match.state.to_move == 2:  # Cy, the bot, thinks now: the move just made is the mover's
                break
        else:
            raise AssertionError("no human move was followed by the bot's turn")
        assert table(app).thinking == 2
        await pilot.press("u")
        await wait_until(pilot, lambda: human_turn(app))
        assert match.cursor == decision and match.state.to_move == mover
        assert not isinstance(app.screen, PassScreen) and table(app).viewer == mover


async def test_undo_never_goes_back_into_a_round_whose_hands_were_shown():
    """With two humans at the keyboard the round-over screen offers no undo, and says why when asked;
    in the next round an undo that would cross that end is refused with the same line."""
    settings = quick_settings(kinds=("human", "human", "bot:easy"), names=("Ana", "Ben", "Cy"), seed=5, rounds=2)
    app = quick_app(settings)
    refusal = "Undo stops at the end of round 1: its hands have been shown to every player, so it is not played again."
    async with app.run_test(size=(80, 24)) as pilot:
        await play_turns(pilot, 200)
        await wait_until(pilot, lambda: isinstance(app.screen, RoundOverScreen))
        match = match_of(app)
        hint = app.screen.query_one("#round-hint")
        assert "u: undo" not in str(hint.render())
        cursor = match.cursor
        await pilot.press("u")
        await pilot.pause()
        assert isinstance(app.screen, RoundOverScreen) and str(hint.render()) == refusal
        assert match.cursor == cursor
        await pilot.press("enter")  # round 2 is dealt
        while not (human_turn(app) and match.state.round == 2):
            await wait_until(pilot, lambda: human_turn(app) or isinstance(app.screen, PassScreen))
            if isinstance(app.screen, PassScreen):
                await pilot.press("enter")
        cursor = match.cursor
        await pilot.press("u")
        await pilot.pause()
        assert match.cursor == cursor and not match.undid_revealed_round
        assert str(table(app).query_one("#notice").render()) == refusal


async def test_against_bots_alone_undo_at_the_round_over_screen_takes_back_the_last_move_and_marks_the_match():
    from saves.listing import format_listing

    app = quick_app(quick_settings(kinds=("human", "bot:easy", "bot:easy"), seed=5, rounds=2))
    async with app.run_test(size=(80, 24)) as pilot:
        await play_turns(pilot, 200)
        await wait_until(pilot, lambda: isinstance(app.screen, RoundOverScreen))
        assert "u: undo the last move" in str(app.screen.query_one("#round-hint").render())
        await pilot.press("u")
        await wait_until(pilot, lambda: human_turn(app))
        match = match_of(app)
        assert match.state.round == 1 and not match.state.chance and match.undid_revealed_round
        assert "practice: an undo went back into a round whose hands had been shown" in format_listing(app.store)


async def test_moons_bid_dialog_says_why_undo_stops_at_the_end_of_the_hand_before():
    from core import Seat
    from tests.core.test_undo_keeps_secrets import play_to_round_two
    from tui.screens.moon_dialogs import MoonDialog

    match = play_to_round_two([Seat("Ana"), Seat("Ben"), Seat("Cy", "bot", "easy")], "moon")
    assert match.state.phase == "bidding"
    app = DominoesApp(match=match, preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, PassScreen))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, MoonDialog))
        await pilot.press("u")
        await pilot.pause()
        note = str(app.screen.query_one("#dialog-note").render())
        assert isinstance(app.screen, MoonDialog)
        assert note.startswith("Undo stops at the end of hand 1: its hands have been shown to every player")
