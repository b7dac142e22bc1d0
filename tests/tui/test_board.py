"""The board follows the action and fits its width: labels that give way in order (names, then
tiles, then marks) and are never cut mid-word, runs of free sides folded, the ends where the picked
tile fits and an unfinished chicken foot scrolled into view without a key press, the ends out of
view counted on the border, and `e` to jump between the ends a tile fits."""

from __future__ import annotations

import pytest
from rich.text import Text

from core import get_game
from core.layout import Layout
from core.moves import DRAW, PASS, Play
from core.tiles import Tile
from tests.tui.board_positions import doubles_with_a_locked_tile, doubles_with_nested_spinners, late_chicken_foot
from tests.tui.conftest import human_turn, match_of, table, wait_until
from tui.app import DominoesApp
from tui.commands import ScreenActions
from tui.preferences import Preferences
from tui.widgets.board_labels import LineLabel, fit
from tui.widgets.board_tree import BoardTree, Marks, rows_of
from tui.widgets.hand_view import HandView

LONG = LineLabel(
    name="toe 2 of the 5-5",
    short="toe 2",
    pairs=((5, 9), (9, 4), (4, 4), (4, 1), (1, 7), (7, 8)),
    open=8,
    target=True,
    last=True,
)
FOOT = LineLabel(name="train 3", short="train 3", pairs=((9, 2), (2, 2)), foot=(2, 3))


# -- labels ----------------------------------------------------------------------------------------
def test_a_label_gives_way_name_first_then_tiles_then_marks_and_never_overflows():
    assert fit(LONG, 80).plain == "toe 2 of the 5-5: [5|9] [9|4] [4|4] [4|1] [1|7] [7|8] ◀8  play here "
    assert fit(LONG, 60).plain == "toe 2: [5|9] [9|4] [4|4] [4|1] [1|7] [7|8] ◀8  play here "
    # Tiles go from the middle, one at a time: the first stays, and the last ones by the open end.
    assert fit(LONG, 54).plain == "toe 2: [5|9] … [4|4] [4|1] [1|7] [7|8] ◀8  play here "
    assert fit(LONG, 36).plain == "toe 2: [5|9] … [7|8] ◀8  play here "
    assert fit(LONG, 34).plain == "toe 2: … [7|8] ◀8  play here "  # the first tile goes last of all
    assert fit(FOOT, 60).plain == "train 3: [9|2] [2|2]  chicken foot: 2 of 3 toes to go "
    assert fit(FOOT, 44).plain == "train 3: [9|2] [2|2]  chicken foot: 2 to go "
    assert fit(FOOT, 40).plain == "train 3: … [2|2]  chicken foot: 2 to go "
    for width in range(12, 90):
        for label in (LONG, FOOT):
            text = fit(label, width)
            assert text.cell_len <= width, (width, text.plain)
            if width >= 34:
                assert "play here" in text.plain or not label.target
                assert "chicken foot: 2" in text.plain or label.foot is None


def test_siblings_share_one_kind_of_name_and_the_last_tile_is_marked():
    text = fit(LONG, 80, short_name=True)
    assert text.plain.startswith("toe 2: [5|9]")
    last = text.plain.index("[7|8]")
    assert any(span.start <= last < span.end and "reverse yellow" in str(span.style) for span in text.spans)
    assert isinstance(fit(LineLabel("arms 2 and 3", "arms 2 and 3"), 40), Text)


def test_free_sides_and_trains_still_to_start_fold_into_one_line():
    opening = Layout.start(Tile(9, 9), 8)
    rows = rows_of(opening)
    assert [row.lines for row in rows] == [tuple(range(8))]  # trains 1 to 8, train 1 the open end
    spinner = Layout.start(Tile(6, 6), 4).play(0, Tile(6, 3), 3).play(0, Tile(3, 3), 3)
    # The open end and the free sides after it share one line: never one marked and one not.
    assert [row.lines for row in rows_of(spinner)] == [(0,), (4, 5, 6), (1, 2, 3)]


async def test_an_open_end_shares_its_line_with_the_free_sides_beside_it():
    app = DominoesApp(preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        board = BoardTree()
        board.styles.width = 60
        await app.screen.mount(board)
        await wait_until(pilot, lambda: board.content_region.width > 50)
        spinner = Layout.start(Tile(6, 6), 4).play(0, Tile(6, 3), 3).play(0, Tile(3, 3), 3)
        board.show(spinner, Marks(targets=(4,)), get_game("doubles").place)
        labels = {" ".join(str(node.label).split()) for node in board._line_nodes.values() if node is not board.root}
        assert "arms 1 to 3 of the 3-3: empty ◀3 play here" in labels
        assert "arms 2 to 4 of the centre 6-6: empty ◀6" in labels
        assert not any(label.startswith(("arm 2:", "arm 3:", "arm 4:")) for label in labels)


def test_a_narrow_line_keeps_its_name_and_its_open_end():
    label = LineLabel("arm 1 of the 2-2", "arm 1", pairs=((2, 0),), open=0, target=True)
    assert fit(label, 40).plain == "arm 1 of the 2-2: [2|0] ◀0  play here "
    assert fit(label, 12).plain == "arm 1: … ◀0"  # the tile goes before the name does
    assert fit(label, 8).plain == "arm 1:…"  # the board's narrowest line


# -- the board at the table ---------------------------------------------------------------------------
def board_of(app: DominoesApp) -> BoardTree:
    return table(app).query_one(BoardTree)


def in_view(board: BoardTree, line_ids) -> bool:
    top, height = round(board.scroll_y), board.scrollable_content_region.height
    return all(top <= board._line_of(board._line_nodes[line]) < top + height for line in line_ids)


def check_labels_fit(board: BoardTree) -> None:
    """No label runs past the board's edge, so there is nothing to scroll sideways."""
    width = board.scrollable_content_region.width
    for line in board._tree_lines:
        used = line._get_guide_width(board.guide_depth, board.show_root) + board.get_label_width(line.node)
        assert used <= width, (used, width, str(line.node.label))
    assert not board.show_horizontal_scrollbar


async def play_by_keys(pilot, move) -> None:
    """The human's move by keys: the tile picked with → in the hand, Enter, and on the board `e`
    until the cursor is on the move's end, then Enter."""
    screen = table(pilot.app)
    if move in (DRAW, PASS):
        await pilot.press("d" if move == DRAW else "p")
        return
    hand = screen.query_one(HandView)
    while hand.selected is not move.tile:
        await pilot.press("right")
    await pilot.press("enter")
    board = screen.query_one(BoardTree)
    if board.has_focus:
        while board.cursor_node.data != move.target:
            await pilot.press("e")
        await pilot.press("enter")


async def test_after_a_bots_double_the_foot_is_on_screen_without_a_key_press():
    match = late_chicken_foot()
    final = match.cursor
    foot = match.state.board.lines[match.state.board.empty_ends[0]].parent
    assert match.undo()  # back to the human's decision before the bots' turns that end in the double
    decision = match.events[match.cursor]
    app = DominoesApp(match=match, preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: human_turn(app))
        await play_by_keys(pilot, decision)
        await wait_until(pilot, lambda: human_turn(app) and match_of(app).cursor == final)
        await pilot.pause()
        board = board_of(app)
        toes = board.board.children(foot)
        assert in_view(board, [foot, *toes])  # CF-10: the foot and its toes, no key pressed
        assert board.scroll_y > 0  # the foot is below the first screenful: the board scrolled to it
        label = str(board._line_nodes[foot].label)
        assert "chicken foot: 3" in label and "to go" in label
        check_labels_fit(board)
        above = str(board.border_title)
        assert "▲" in above and "more end" in above  # the ends out of view are counted


async def test_every_end_the_picked_tile_fits_is_in_view_and_e_jumps_between_them():
    match = doubles_with_nested_spinners()
    app = DominoesApp(match=match, preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: human_turn(app))
        screen = table(app)
        hand = screen.query_one(HandView)
        legal = match_of(app).legal_moves()
        tile = next(t for t in hand.tiles if len({m.target for m in legal if type(m) is Play and m.tile is t}) >= 2)
        while hand.selected is not tile:
            await pilot.press("right")
        await pilot.pause()
        board = board_of(app)
        targets = [m.target for m in legal if type(m) is Play and m.tile is tile]
        assert in_view(board, targets)
        assert all("play here" in str(board._line_nodes[end].label) for end in targets)
        check_labels_fit(board)
        assert "Next end" in {title for title, _, _ in ScreenActions(screen)._commands()}
        # e takes the keys to the board and walks the ends the tile fits, round to the first.
        visited = []
        for _ in range(len(targets) + 1):
            await pilot.press("e")
            assert board.has_focus
            visited.append(board.cursor_node.data)
        assert sorted(set(visited)) == sorted(set(targets)) and visited[0] == visited[-1]
        footer_fits(app)  # the footer is whole while an end is chosen ("q Leave", not "q Lea")
        before = match.cursor
        await pilot.press("enter")
        assert match.events[before] == Play(tile, visited[-1])


def footer_fits(app: DominoesApp) -> None:
    from textual.widgets import Footer
    from textual.widgets._footer import FooterKey

    footer = app.screen.query_one(Footer)
    keys = list(footer.query(FooterKey))
    assert any(key.description == "Leave" for key in keys)
    for key in keys:
        assert key.region.right <= app.size.width and key.region.width >= key.get_content_width(app.size, app.size)


async def test_enter_on_a_tile_only_a_locked_end_could_take_says_it_is_locked():
    app = DominoesApp(match=doubles_with_a_locked_tile(), preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: human_turn(app))
        screen = table(app)
        status = str(screen.query_one("#status").render())
        assert "no tile fits: press d to draw" in status  # CF-9/DB-8, said where the player looks
        hand = screen.query_one(HandView)
        while hand.selected != Tile(0, 2):
            await pilot.press("right")
        before = match_of(app).cursor
        await pilot.press("enter")
        notice = str(screen.query_one("#notice").render())
        assert notice == "DB-7: blanks are locked until the 0-0 is played"
        assert match_of(app).cursor == before
        drawn = match_of(app).state.stock[0]
        await pilot.press("d")
        await pilot.pause()
        log = " ".join(screen.query_one("#move-log").lines)
        assert f"You drew the {drawn}" in log  # the viewer is told the tile they drew


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (120, 40), (160, 50)])
async def test_labels_fit_at_every_width(size):
    app = DominoesApp(match=late_chicken_foot(), preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: human_turn(app))
        await pilot.pause()
        board = board_of(app)
        check_labels_fit(board)
        names = [str(node.label) for node in board._line_nodes.values() if node is not board.root]
        if size[0] >= 120:  # the room is used: every name whole, with its double
            assert any(" of the " in name for name in names)


def test_places_are_named_as_the_log_names_them():
    match = late_chicken_foot()
    line = match.events[-1].target
    place = match.game.line_name(match.state_at(match.cursor - 1).board, line)
    assert f"on {place}" in match.game.describe_move(match.state_at(match.cursor - 1), match.events[-1], match.names)


def test_the_hand_sizes_line_fits_eight_players_in_80_columns():
    from tui.presentation import hand_sizes_line

    names = ("You", *(f"Seat {n}" for n in range(2, 9)))
    line = hand_sizes_line(names, (5,) * 8, "", 78)
    assert len(line) <= 78 and line.startswith("Tiles in hand: You: 5 · S2: 5") and line.endswith("S8: 5")
    # A name and its count never run together ("Seat 2 7" read "Seat 27").
    assert hand_sizes_line(names[:4], (8, 7, 7, 7), "unlocked 5", 78) == (
        "Tiles in hand: You: 8 · Seat 2: 7 · Seat 3: 7 · Seat 4: 7 · unlocked 5"
    )
