"""The scorepad keeps the totals in sight: the oldest rounds fold into subtotals when the rounds do
not fit, a table too wide for the side column turns on its side, and no column is ever cut."""

from __future__ import annotations

from tests.tui.conftest import human_turn, wait_until
from tests.tui.positions import chicken_foot_last_round
from tui.app import DominoesApp
from tui.preferences import Preferences
from tui.widgets.scorepad import BidRecord, Scorepad, ScoreSheet

NAMES = ("You", "Seat 2", "Seat 3", "Seat 4")
ROUNDS = [(36, 18, 0, 17), (29, 30, 42, 40), (15, 26, 23, 31), (18, 16, 16, 23), (13, 6, 14, 30)]
ROUNDS += [(14, 22, 10, 29), (0, 13, 10, 9), (42, 36, 70, 54), (20, 5, 27, 0)]
TOTALS = tuple(sum(scores[seat] for scores in ROUNDS) for seat in range(4))


def lines(layout) -> list[str]:
    return [layout.head.plain, *(row.plain for row in layout.rounds), layout.total.plain]


def test_every_round_shows_when_there_is_room():
    sheet = ScoreSheet(NAMES, ROUNDS, TOTALS, 10)
    shown = lines(sheet.upright(30))
    assert shown[0].split() == ["Rd", "You", "Seat", "2", "Seat", "3", "Seat", "4"]
    assert [line.split()[0] for line in shown[1:-1]] == [str(n) for n in range(1, 11)]
    assert shown[1].split()[1:] == ["36", "18", "0★", "17"]  # CF-16: the lowest score wins the round
    assert shown[-2].split()[1:] == ["…"] * 4  # round 10, in play
    assert shown[-1].split() == ["Σ", *map(str, TOTALS)]
    assert max(len(line) for line in shown) <= 30


def test_the_oldest_rounds_fold_into_subtotals_and_the_totals_stay_last():
    sheet = ScoreSheet(NAMES, ROUNDS, TOTALS, 10)
    shown = lines(sheet.upright(30, height=10))
    assert len(shown) == 10
    folded = shown[1].split()
    assert folded[0] == "1-3" and folded[1:] == [str(sum(r[seat] for r in ROUNDS[:3])) for seat in range(4)]
    assert [line.split()[0] for line in shown[2:-1]] == [str(n) for n in range(4, 11)]
    assert shown[-1].split() == ["Σ", *map(str, TOTALS)]


def test_a_table_too_wide_for_the_column_turns_on_its_side_with_every_player():
    names = ("You", *(f"Seat {seat}" for seat in range(2, 9)))
    rounds = [tuple((seat * 7 + number * 3) % 60 for seat in range(8)) for number in range(9)]
    totals = tuple(sum(scores[seat] for scores in rounds) for seat in range(8))
    sheet = ScoreSheet(names, rounds, totals, 10)
    assert sheet.upright(31) is None  # eight columns of scores do not fit 31 columns
    layout = sheet.sideways(31)
    shown = [layout.head.plain, *(row.plain for row in layout.rounds)]
    assert max(len(line) for line in shown) <= 31
    assert shown[0].split()[-1] == "Σ" and shown[0].split()[-2] == "10"
    for seat, line in enumerate(shown[1:]):
        assert line.split()[-1] == str(totals[seat])  # every player, with the total last
    assert shown[1].startswith("You") and shown[8].startswith("Seat 8")


def test_no_name_is_cut_to_two_letters_that_read_as_another_word():
    names = ("You", *(f"Seat {seat}" for seat in range(2, 9)))
    sheet = ScoreSheet(names, [], (0,) * 8, 1)  # the first round of eight players
    assert sheet.upright(30) is None  # upright, "You" would have to be "Yo"
    shown = [row.plain for row in sheet.sideways(30).rounds]
    assert shown[0].startswith("You ") and shown[1].startswith("Seat 2")
    four = ScoreSheet(("You", "Ben", "Cleo", "Dan"), [], (0,) * 4, 1)
    assert lines(four.upright(30))[0].split() == ["Rd", "You", "Ben", "Cleo", "Dan"]


def test_moon_marks_the_bidder_and_the_bid():
    bids = [BidRecord(1, 5, True), BidRecord(0, 6, False), BidRecord(2, 21, None)]
    sheet = ScoreSheet(("You", "easy 1", "easy 2"), [(1, 5, 0), (-6, 2, 1)], (-5, 7, 1), 3, high=True, bids=bids)
    shown = lines(sheet.upright(30))
    assert shown[0].split()[:2] == ["Rd", "Bid"]
    assert shown[1].split() == ["1", "5✓", "1", "5◆", "0"]
    assert shown[2].split() == ["2", "6✗", "-6◆", "2", "1"]
    assert shown[3].split() == ["3", "21", "…", "…", "…◆"]  # the hand in play: easy 2 bid 21
    assert shown[-1].split() == ["Σ", "-5", "7", "1"]


async def test_round_10_of_chicken_foot_fits_the_side_column_at_80x24():
    app = DominoesApp(match=chicken_foot_last_round(), preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: human_turn(app))
        pad = app.screen.query_one(Scorepad)
        match = app.match
        shown = pad.text().splitlines()
        assert len(shown) == pad.content_size.height  # no line hidden below, nothing to scroll
        assert not pad.show_vertical_scrollbar and not pad.show_horizontal_scrollbar
        assert max(len(line) for line in shown) <= pad.content_size.width  # no column cut
        assert shown[-1].split() == ["Σ", *map(str, match.state.scores)]
        assert shown[-2].split() == ["10", "…", "…", "…", "…"]
        assert shown[1].startswith("1-")  # the oldest rounds folded into one line


async def test_eight_players_keep_every_column_at_80x24():
    app = DominoesApp(match=chicken_foot_last_round(players=8), preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: human_turn(app))
        pad = app.screen.query_one(Scorepad)
        shown = pad.text().splitlines()
        assert len(shown) == 9 == pad.content_size.height  # the names' line and a line per player
        assert max(len(line) for line in shown) <= pad.content_size.width
        assert [line.split()[-1] for line in shown[1:]] == [str(total) for total in app.match.state.scores]
