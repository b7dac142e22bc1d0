"""The random-play harness (in the spirit of OpenSpiel's random_sim_test), for every game.

A seeded match is played to its end with random and rule-based bots. After every event it checks:
tiles are conserved; hand sizes add up; legal moves are non-empty exactly while a player must move,
and every one of them applies cleanly; views show a seat nothing it may not see, and a world
determinized from a view gives back the same view; undo then redo returns the same state; the
match ends within a bound; and a save of the whole match loads back equal.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from core import IllegalMove, Match, Seat, Tile, get_game
from core.bots import get_bot
from core.games.moon_suits import MOON_SET
from core.moves import DRAW, PASS, Bid, Deal, Discard, Move, Play, Trump
from core.tiles import DOUBLE_NINE, DOUBLE_SIX


@dataclass(frozen=True)
class Accounts:
    """Where a game keeps its tiles, for the harness's conservation and visibility checks."""

    full_set: Callable[[Any], tuple[Tile, ...]]  # every tile of the game
    placed: Callable[[Any], Iterable[Tile]]  # every tile outside hands and stock (layout, tricks...)
    visible: Callable[[Any, int], set[Tile]]  # what a seat may see: own hand, the table, ...
    max_events: int  # a match longer than this is a bug


def _cf_visible(state: Any, seat: int) -> set[Tile]:
    seen = set(state.hands[seat])
    if state.board is not None:
        seen.update(state.board.tiles())
    if (state.chance or state.over) and state.round > 0:
        seen.update(t for hand in state.hands for t in hand)  # hands are shown when a round ends
    return seen


def _db_visible(state: Any, seat: int) -> set[Tile]:
    seen = _cf_visible(state, seat)  # the same table and hidden hands as Chicken Foot
    if state.board is None and not state.chance and state.round > 0:
        seen.add(state.legal[0].tile)  # DB-3: who holds the highest double, and which, is announced
    return seen


def _moon_placed(state: Any) -> list[Tile]:
    return [*(t for trick in state.tricks for t in trick.tiles), *state.trick]


def _moon_visible(state: Any, seat: int) -> set[Tile]:
    """Own hand and the tiles played; the widow (once taken) and the discard for the bidder only.
    Moon shows no hands when a hand ends: every tile but the discard has been played by then."""
    seen = set(state.hands[seat]) | set(_moon_placed(state))
    if state.bidder == seat:
        seen.add(state.widow)
        seen.update(state.stock)
    return seen


ACCOUNTS: dict[str, Accounts] = {
    "chicken-foot": Accounts(
        full_set=lambda state: DOUBLE_NINE,
        placed=lambda state: state.board.tiles() if state.board is not None else (),
        visible=_cf_visible,
        max_events=20_000,
    ),
    "doubles": Accounts(
        full_set=lambda state: DOUBLE_SIX,
        placed=lambda state: state.board.tiles() if state.board is not None else (),
        visible=_db_visible,
        max_events=20_000,
    ),
    "moon": Accounts(
        full_set=lambda state: MOON_SET,
        placed=_moon_placed,
        visible=_moon_visible,
        max_events=20_000,
    ),
}


def tiles_inside(value: Any) -> Iterable[Tile]:
    """Every tile anywhere inside a view (its fields, tuples and layouts, recursively)."""
    if isinstance(value, Tile):
        yield value
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from tiles_inside(item)
    elif hasattr(value, "__dataclass_fields__"):
        for name in value.__dataclass_fields__:
            yield from tiles_inside(getattr(value, name))


def check_state(game: Any, accounts: Accounts, state: Any, rng: random.Random) -> None:
    if state.round == 0:
        assert state.chance and game.legal_moves(state) == ()
        return
    # Tiles are conserved: hands, stock and the table hold the whole set, each tile once.
    held = [t for hand in state.hands for t in hand]
    everything = Counter([*held, *state.stock, *accounts.placed(state)])
    assert everything == Counter(accounts.full_set(state)), "tiles not conserved"
    # Legal moves exist exactly while someone must move, and each applies cleanly.
    legal = game.legal_moves(state)
    if state.over or state.chance:
        assert legal == () and state.to_move is None
    else:
        assert legal and len(set(legal)) == len(legal)
        for move in legal:
            game.apply(state, move)
    # Views hide what they must.
    seat = rng.randrange(state.players)
    view = game.view(state, seat)
    assert view.hand == state.hands[seat]
    assert sum(view.hand_sizes) == len(held)
    leaked = set(tiles_inside(view)) - accounts.visible(state, seat)
    assert not leaked, f"seat {seat} sees {sorted(leaked)}"
    world = game.determinize(view, rng)
    assert game.view(world, seat) == view, "a determinized world gives a different view"
    assert Counter([*(t for hand in world.hands for t in hand), *world.stock, *accounts.placed(world)]) == Counter(
        accounts.full_set(world)
    )
    if state.to_move == seat:
        assert game.legal_moves(world) == legal


def play_checked_match(
    game_name: str, players: int, options: dict[str, Any], seed: int, levels: tuple[str, ...], human_seat: bool
) -> Match:
    """Play one match to its end, checking everything after every event."""
    game = get_game(game_name)
    accounts = ACCOUNTS[game_name]
    seats = [Seat(f"bot {i}", "bot", levels[i % len(levels)]) for i in range(players)]
    if human_seat:
        seats[0] = Seat("human", "human")  # played by the random bot, to exercise undo's human stops
    match = Match(game_name, players, options, seats, seed)
    rng = random.Random(seed)
    check_state(game, accounts, match.state, rng)
    events = 0
    while not match.state.over:
        state = match.state
        if state.chance:
            match.deal()
        else:
            seat = state.to_move
            bot = get_bot(seats[seat].level or "random")
            match.apply(bot.choose(game.view(state, seat), game.legal_moves(state), rng))
        check_state(game, accounts, match.state, rng)
        cursor, now = match.cursor, match.state
        if match.undo():
            assert match.redo()
            assert match.cursor == cursor and match.state == now, "undo then redo changed the match"
        events += 1
        assert events <= accounts.max_events, "the match did not end"
    assert match.state.winners
    from saves import SavedMatch, decode, encode  # the one check here that is not of core alone

    loaded = decode(encode(SavedMatch("harness", match, 0, 0))).match
    assert loaded == match and loaded.state == match.state, "save then load changed the match"
    return match


# -- refusals ------------------------------------------------------------------------------------------
BIDS = (0, 1, 3, 4, 5, 6, 7, 8, 21, 22)
TRUMPS = (*range(7), 9, "doubles", "none", "spades")


def attempts(game: Any, state: Any) -> Iterable[Move]:
    """Moves to try at `state`, legal or not: every tile of the game's set on every line of the
    layout (and on none, and on lines that are not there), draws, passes, deals, every bid, discard
    and trump, and some that are no move of any kind a game knows."""
    board = getattr(state, "board", None)
    lines = len(board.lines) if board is not None else 0
    targets = (None, -1, *range(lines), lines, 48)
    for tile in ACCOUNTS[state.game].full_set(state):
        for target in targets:
            yield Play(tile, target)
        yield Discard(tile)
    yield from (DRAW, PASS, *(Bid(amount) for amount in BIDS), *(Trump(suit) for suit in TRUMPS))  # type: ignore[arg-type]
    yield Deal(state.hands, state.stock, 0, 0)
    yield Deal(state.hands, state.stock)
    if state.chance and not state.over:
        deal = game.deal(state, random.Random(0))
        hands = (deal.hands[1][:1] + deal.hands[0][1:], *deal.hands[1:])  # a tile dealt twice, one not at all
        yield Deal(hands, deal.stock, deal.first, deal.search_start)


def refusals(game: Any, state: Any) -> Iterable[IllegalMove]:
    """Every refusal `attempts` provokes at `state` (a move that is legal is skipped)."""
    legal = set(game.legal_moves(state))
    for move in attempts(game, state):
        if move in legal:
            continue
        try:
            game.apply(state, move)
        except IllegalMove as refusal:
            yield refusal
        else:
            raise AssertionError(f"{move} is not among the legal moves, yet it was applied")


def play_out(match: Match, seed: int, level: str = "easy") -> Match:
    """Play `match` to its end in the engine, every seat by the `level` bot from the seat's view,
    deals included; the same match again for the same seed."""
    bot, rng = get_bot(level), random.Random(seed)
    while not match.state.over:
        if match.state.chance:
            match.deal()
        else:
            match.apply(bot.choose(match.view(match.state.to_move), match.legal_moves(), rng))
    return match
