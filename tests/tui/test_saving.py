"""Saving in the interface: autosave after every event, resuming, the load screen, `--resume`."""

from __future__ import annotations

import time

import pytest

from cli.main import main
from cli.play_commands import resume_save
from saves import Autosave, SaveStore
from tests.tui.conftest import (
    finished_round,
    human_turn,
    match_of,
    quick_app,
    quick_settings,
    record_notices,
    table,
    take_a_turn,
    wait_until,
)
from tui.app import DominoesApp
from tui.preferences import Preferences
from tui.screens.load import LoadScreen
from tui.screens.round_over import RoundOverScreen
from tui.screens.table import TableScreen
from tui.screens.title import TitleScreen
from tui.widgets.hand_view import HandView

PLAYED = 1_764_424_800  # 2025-11-29 14:00 UTC: fixed, so the load screen's snapshot is stable


def title_app() -> DominoesApp:
    return DominoesApp(preferences=Preferences(bot_speed="instant"))


async def offered(pilot, looks: int = 1) -> TitleScreen:
    """The title screen, once it has read the saves `looks` times to find a match to resume."""
    app = pilot.app
    await wait_until(pilot, lambda: isinstance(app.screen, TitleScreen) and app.screen.looks >= looks)
    await pilot.pause()
    return app.screen


async def test_saves_read_as_the_title_closes_offer_nothing_and_break_nothing():
    """The title reads the saves in a thread; a match begun meanwhile takes the title's menu away
    before the offer comes (seen in CI as a crash of the app)."""
    app = title_app()
    async with app.run_test(size=(80, 24)) as pilot:
        title = await offered(pilot)
        await title.query_one("#title-menu").remove()
        title.offer(None)
        await pilot.pause()
        assert app.is_running and title.looks == 2


async def test_quit_mid_match_then_resume_the_same_position_and_undo_history():
    app = quick_app(quick_settings(seed=7))
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_until(pilot, lambda: human_turn(app))
        first = match_of(app).cursor
        await take_a_turn(pilot)
        await wait_until(pilot, lambda: human_turn(app))
        second = match_of(app).cursor
        await take_a_turn(pilot)
        await wait_until(pilot, lambda: human_turn(app) or isinstance(app.screen, RoundOverScreen))
        await pilot.press("u")  # back to the second decision, the later moves kept to redo
        before = match_of(app)
        assert before.cursor == second and before.can_redo()
        events, hand = before.events, table(app).query_one(HandView).tiles
        match_id = app.autosave.match_id
        await pilot.press("ctrl+q")  # quit at once: nothing is asked, nothing is lost
    assert not app.is_running

    again = title_app()
    async with again.run_test(size=(100, 32)) as pilot:
        title = await offered(pilot)
        assert title.latest is not None and title.latest.record.match_id == match_id
        await pilot.press("enter")  # the offer to resume is highlighted first
        await wait_until(pilot, lambda: human_turn(again))
        resumed = match_of(again)
        assert resumed is not before and resumed == before  # the same events, cursor and seats
        assert resumed.events == events and resumed.cursor == second
        assert table(again).query_one(HandView).tiles == hand
        assert again.autosave.match_id == match_id  # saving goes on in the same file
        await pilot.press("r")  # the undone moves are still there to redo
        assert resumed.cursor > second
        await pilot.press("u", "u")
        assert resumed.cursor == first
    assert SaveStore().load(match_id).record.match.cursor == first  # the undo was saved too


async def test_a_finished_match_is_not_offered_and_the_title_offers_nothing_without_saves():
    store = SaveStore()
    Autosave(store, finished_round(seed=4), match_id="finished")()
    async with title_app().run_test(size=(100, 32)) as pilot:
        title = await offered(pilot)
        assert title.latest is None
        offers = [option.id for option in title.query_one("#title-menu").options]
        assert offers == ["new", "learn", "load", "stats", "rules", "quit"]


def damaged_store() -> SaveStore:
    """Three saves: one whole, one damaged (its backup damaged too), and one whose save is damaged
    but whose backup loads, with a notice."""
    store = SaveStore()
    good = quick_settings(seed=7).new_match()
    good.deal()
    Autosave(store, good, match_id="a1", created=PLAYED, clock=lambda: PLAYED + 600)()
    for match_id, created in (("b2", PLAYED - 7200), ("c3", PLAYED - 3600)):
        match = quick_settings(seed=5).new_match()
        match.deal()
        autosave = Autosave(store, match, match_id=match_id, created=created, clock=lambda c=created: c + 60)
        autosave()
        autosave()  # the second save keeps the first as the backup
    for path in (store.path("b2"), store.backup_path("b2"), store.path("c3")):
        data = bytearray(path.read_bytes())
        data[40] ^= 0xFF
        path.write_bytes(bytes(data))
    return store


async def test_the_load_screen_lists_saves_a_damaged_one_with_its_reason_and_cannot_open_it():
    damaged_store()
    app = title_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await offered(pilot)
        await pilot.press("l")
        screen = app.screen
        assert isinstance(screen, LoadScreen)
        menu = screen.query_one("#load-list")
        shown = {option.id: (str(option.prompt), option.disabled) for option in menu.options}
        assert set(shown) == {"a1", "b2", "c3"}
        text, disabled = shown["b2"]
        assert disabled and "damaged: the file is damaged (checksum mismatch), and its backup is damaged too" in text
        text, disabled = shown["a1"]
        assert not disabled and "Chicken Foot" in text and "round 1 of 1" in text and "in progress" in text
        assert "You" in text and "(easy bot)" in text and "last played" in text
        text, disabled = shown["c3"]
        assert not disabled and "note: the save of match c3 cannot be loaded" in text
        # The damaged match cannot be chosen: the cursor passes over it.
        assert [option.id for option in menu.options] == ["a1", "c3", "b2"]  # the latest first
        await pilot.press("end")
        assert menu.highlighted_option.id == "c3"
        await pilot.press("home", "enter")
        assert isinstance(app.screen, TableScreen) and app.autosave.match_id == "a1"


async def test_opening_a_backup_says_so():
    damaged_store()
    app = title_app()
    notices = record_notices(app)
    async with app.run_test(size=(100, 32)) as pilot:
        await offered(pilot)
        await pilot.press("l", "end", "enter")
        assert isinstance(app.screen, TableScreen) and app.autosave.match_id == "c3"
        assert any(message.startswith("The save of match c3 cannot be loaded") for _, message in notices)


async def test_save_a_copy_under_a_new_id_and_play_on_in_the_original():
    app = quick_app(quick_settings(seed=7))
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_until(pilot, lambda: human_turn(app))
        original = app.autosave.match_id
        await pilot.press("w")
        store = SaveStore()
        ids = store.ids()
        assert len(ids) == 2 and original in ids
        (copy,) = [match_id for match_id in ids if match_id != original]
        assert store.load(copy).record.match == match_of(app)
        await take_a_turn(pilot)
        await wait_until(pilot, lambda: human_turn(app) or isinstance(app.screen, RoundOverScreen))
        assert store.load(original).record.match == match_of(app)
        assert store.load(copy).record.match != match_of(app)


def test_resume_from_the_command_line():
    store = SaveStore()
    match = quick_settings(seed=7).new_match()
    match.deal()
    Autosave(store, match, match_id="3f9a2c1b7e40", clock=lambda: time.time() - 60)()
    Autosave(store, finished_round(seed=4), match_id="3f00")()  # newer, but finished
    assert resume_save("").match_id == "3f9a2c1b7e40"  # the latest unfinished
    assert resume_save("3f9").match_id == "3f9a2c1b7e40"  # a prefix of one id


@pytest.mark.parametrize(
    ("argv", "status", "fragment"),
    [
        (["--resume", "nothing"], 2, "there is no saved match 'nothing'"),
        (["--resume", "3f"], 2, "names more than one saved match"),
        (["--resume", "x", "saves"], 2, "takes no command"),
        (["--resume"], 1, "there is no unfinished match to resume"),
        (["--resume", "3f00"], 1, "the file is damaged (checksum mismatch)"),
    ],
)
def test_resume_refuses_with_one_line(capsys, argv, status, fragment):
    store = SaveStore()
    for match_id in ("3f00", "3f01"):
        Autosave(store, finished_round(seed=4), match_id=match_id)()
    data = bytearray(store.path("3f00").read_bytes())
    data[-1] ^= 0xFF
    store.path("3f00").write_bytes(bytes(data))
    assert main(argv) == status
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and fragment in err


async def test_a_match_that_cannot_be_saved_says_so_once_and_play_goes_on(private_home, monkeypatch):
    blocked = private_home / "not-a-directory"
    blocked.write_text("")
    monkeypatch.setenv("DOMINOES_HOME", str(blocked))  # saves/ cannot be made inside a file
    app = quick_app(quick_settings(seed=7))
    notices = record_notices(app)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_until(pilot, lambda: human_turn(app))
        await take_a_turn(pilot)
        await wait_until(pilot, lambda: human_turn(app) or isinstance(app.screen, RoundOverScreen))
        errors = [message for severity, message in notices if severity == "error"]
        assert len(errors) == 1 and errors[0].startswith("The match is not being saved: ")
        assert "could not be saved" in errors[0]


async def test_leaving_the_table_offers_that_match_on_the_title_screen():
    app = DominoesApp(preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(100, 32)) as pilot:
        title = await offered(pilot)
        assert title.latest is None
        app.start_match(quick_settings(seed=7))
        await wait_until(pilot, lambda: human_turn(app))
        match_id, cursor = app.autosave.match_id, match_of(app).cursor
        await pilot.press("q")
        title = await offered(pilot, looks=2)
        assert title.latest is not None and title.latest.record.match_id == match_id
        assert str(title.query_one("#title-menu").get_option_at_index(0).prompt).startswith("Resume: Chicken Foot")
        await pilot.press("c")
        await wait_until(pilot, lambda: human_turn(app))
        assert app.autosave.match_id == match_id and match_of(app).cursor == cursor
