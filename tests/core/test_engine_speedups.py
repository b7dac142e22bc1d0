"""The engine's fast paths give exactly what the plain ways give: the shuffle, the deal check, the
plain layout behind `state.board`, and the tile facts a play carries; and states stay immutable."""

from __future__ import annotations

import random

import pytest

from core import GAME_NAMES, get_game
from core.games.doubles import ends_after, legal_at, open_ends
from core.hands import deal_masks
from core.layout import Layout, as_layout, as_plain, plain_play, plain_start
from core.moves import DRAW, Play, play
from core.shuffle import shuffle
from core.tiles import DOUBLE_NINE, DOUBLE_SIX, TILE_BIT, Tile, mask_of, pip_total, pips_in


@pytest.mark.parametrize("length", [0, 1, 2, 3, 22, 28, 54, 55, 64, 65, 100])
def test_shuffle_gives_the_generators_own_order(length):
    for seed in range(40):
        ours, theirs = list(range(length)), list(range(length))
        mine, reference = random.Random(seed), random.Random(seed)
        shuffle(ours, mine)
        reference.shuffle(theirs)
        assert ours == theirs
        assert mine.random() == reference.random()  # the same bits were drawn, no more


def test_shuffle_leaves_other_generators_to_their_own_shuffle():
    class Counting(random.Random):
        calls = 0

        def shuffle(self, x):  # type: ignore[override]
            Counting.calls += 1
            super().shuffle(x)

    items = list(range(10))
    shuffle(items, Counting(3))
    assert Counting.calls == 1 and sorted(items) == list(range(10))


def test_deal_masks_accepts_a_whole_set_and_refuses_anything_else():
    tiles = list(DOUBLE_SIX)
    random.Random(1).shuffle(tiles)
    hands = (tuple(tiles[:6]), tuple(tiles[6:12]))
    stock = tuple(tiles[12:])
    full = mask_of(DOUBLE_SIX)
    assert deal_masks(hands, stock, full) == (mask_of(hands[0]), mask_of(hands[1]))
    doubled = (hands[0][:5] + (hands[1][0],), hands[1])  # one tile twice, one missing
    assert deal_masks(doubled, stock, full) is None
    assert deal_masks(hands, stock[1:], full) is None  # a tile short
    assert deal_masks(hands, (*stock, Tile(7, 7)), full) is None  # a tile from another set
    plain = ((tuple(hands[0][0]), *hands[0][1:]), hands[1])  # a pair of numbers, not a tile
    assert deal_masks(plain, stock, full) is None


def test_every_play_carries_its_tiles_numbers_and_bit_outside_its_value():
    for tile in DOUBLE_NINE:
        for move in (play(tile), play(tile, 3), Play(tile, 60)):
            assert (move.low, move.high, move.bit) == (tile[0], tile[1], TILE_BIT[tile])
        assert Play(tile, 3) == play(tile, 3) and hash(Play(tile, 3)) == hash(play(tile, 3))
        assert repr(play(tile, 3)) == f"Play(tile={tile!r}, target=3)"
        assert play(tile, 3).to_data() == ["play", tile.to_data(), 3]
    assert Play("5-5", 0).bit == 0  # type: ignore[arg-type]  # a move from outside: apply refuses it


def random_layouts(branches: int, seed: int):
    """(layout, move) pairs from plays at random open ends, as a draw game might make them."""
    rng = random.Random(seed)
    tiles = list(DOUBLE_NINE)
    rng.shuffle(tiles)
    centre = Tile(9, 9)
    tiles.remove(centre)
    layout = Layout.start(centre, branches)
    for _ in range(200):
        ends = layout.empty_ends or layout.ends
        choices = [(end, t) for end in ends for t in tiles if layout.lines[end].open in t]
        if not choices:
            return
        end, tile = choices[rng.randrange(len(choices))]
        move = play(tile, end)
        yield layout, move
        tiles.remove(tile)
        layout = layout.play(end, tile, 3)


@pytest.mark.parametrize("branches", [3, 4, 8])
def test_the_plain_layout_is_the_layout_in_plain_tuples(branches):
    for seed in range(5):
        plain = plain_start(Tile(9, 9), branches)
        assert as_layout(plain) == Layout.start(Tile(9, 9), branches) == plain
        for layout, move in random_layouts(branches, seed):
            assert as_plain(layout) == plain == layout and hash(plain) == hash(layout)
            assert type(plain) is tuple and all(type(line) is tuple for line in plain[1])
            plain = plain_play(plain, move, 3)
            named = as_layout(plain)
            assert type(named) is Layout and all(type(line).__name__ == "Line" for line in named.lines)
            assert named == layout.play(move.target, move.tile, 3)  # type: ignore[arg-type]


def test_chicken_foots_board_is_read_from_its_plain_layout():
    game = get_game("chicken-foot")
    rng = random.Random(4)
    state = game.new_game(4, {}, 4)
    state = game.apply(state, game.deal(state, rng))
    seen = 0
    while not state.chance:
        if state.table is not None:
            assert type(state.table) is tuple
            assert type(state.board) is Layout and state.board == state.table
            assert game.view(state, 0).board == state.board
            seen += 1
        legal = game.legal_moves(state)
        state = game.apply(state, legal[rng.randrange(len(legal))])
    assert seen > 10


def test_doubles_keeps_the_open_ends_of_the_layout_its_placed_tiles_make():
    """A Doubles state keeps the plays placed and the open ends with what each shows; after every
    move they agree with the layout built play by play, and so do the legal moves."""
    game = get_game("doubles")
    seen = 0
    for seed in range(8):
        rng = random.Random(seed)
        state = game.new_game(4, {}, seed)
        state = game.apply(state, game.deal(state, rng))
        built = None
        while not state.chance:
            if built is None:
                assert state.board is None and state.placed == () and state.ends == b"" and not state.empty
            else:
                assert type(state.board) is Layout and state.board == built
                assert open_ends(built) == (state.ends, state.empty)
                assert game.view(state, 0).board == built
                assert (
                    legal_at(built, state.hand_masks, state.to_move, state.drawn, state.unlocked, len(state.stock))
                    == state.legal
                )
                seen += 1
            legal = game.legal_moves(state)
            move = legal[rng.randrange(len(legal))]
            after = game.apply(state, move)
            if type(move) is Play:
                built = Layout.start(move.tile, 4) if built is None else built.play(move.target, move.tile, 3)  # type: ignore[arg-type]
                if not after.chance:  # apply works the ends out itself: `ends_after` (which the inference uses) agrees
                    assert ends_after(state.ends, state.empty, state.unlocked, move) == (after.ends, after.empty)
            state = after
    assert seen > 100


@pytest.mark.parametrize("name", GAME_NAMES)
def test_states_stay_immutable_and_equal_states_hash_alike(name):
    """Every move returns a new state; the old one keeps its value; replaying the same moves from
    the same deal gives an equal state with an equal hash, however the layout was held."""
    game = get_game(name)
    rng = random.Random(9)
    state = game.new_game(game.max_players if name != "chicken-foot" else 4, {}, 9)
    events = []
    states = []
    while not state.over and len(events) < 300:
        move = game.deal(state, rng) if state.chance else random.Random(len(events)).choice(game.legal_moves(state))
        before = (state, hash(state), state.legal, state.hands)
        after = game.apply(state, move)
        assert after is not state
        assert (state, hash(state), state.legal, state.hands) == before
        events.append(move)
        states.append(after)
        state = after
    replay = game.new_game(state.players, {}, 9)
    for move, expected in zip(events, states, strict=True):
        replay = game.apply(replay, move)
        assert replay == expected and hash(replay) == hash(expected)
    world = game.determinize(game.view(state, 0), random.Random(2))
    if name == "chicken-foot":
        assert world.table is None or type(world.table) is tuple
    if name == "doubles":
        assert world.board == state.board and (world.placed, world.ends, world.empty) == (
            state.placed,
            state.ends,
            state.empty,
        )


def test_a_determinized_world_plays_on_like_the_real_state():
    """Worlds take the view's layout into the form the state keeps: play goes on in them as in the state."""
    game = get_game("doubles")
    rng = random.Random(11)
    state = game.new_game(2, {}, 11)
    state = game.apply(state, game.deal(state, rng))
    for _ in range(6):
        legal = game.legal_moves(state)
        state = game.apply(state, legal[-1])
    world = game.determinize(game.view(state, state.to_move), random.Random(3))
    assert world.legal == state.legal
    for move in world.legal:
        if move is not DRAW:
            assert game.apply(world, move).board == game.apply(state, move).board


def test_pips_in_counts_a_masks_pips_as_its_tiles_do():
    rng = random.Random(5)
    for _ in range(300):
        tiles = rng.sample(DOUBLE_NINE, rng.randrange(12))
        assert pips_in(mask_of(tiles)) == pip_total(tiles)
    assert pips_in(0) == 0
