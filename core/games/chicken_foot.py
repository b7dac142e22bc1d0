"""Chicken Foot: rules CF-0..CF-18 of the rules specification.

The layout is a tree (`core.layout`): the centre double, the trains on it, and under every double
played at the end of a line its three toes. Every open end is its own target.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, ClassVar, NamedTuple

from core.determinize import deal_unseen
from core.draw_game import draw_words, seat_name
from core.draw_pile import deal_hands
from core.errors import IllegalMove
from core.game import Game
from core.hands import deal_masks, replace_hand
from core.layout import CENTRE, Layout, PlainLayout, as_plain, board_property, plain_play, plain_start
from core.moves import DRAW, PASS, PLAYS_BY_BIT, Deal, Draw, Move, Pass, Play
from core.options import Options, OptionSpec
from core.places import NamedPlaces
from core.public_log import EMPTY_LOG, PublicLog, entries, from_entries
from core.shuffle import shuffle
from core.state_info import hands_property, info_properties
from core.tiles import CARRYING, DOUBLE_NINE, TILE_BIT, Tile, mask_of, pip_total, tiles_in
from core.words import article, count_word, ends_showing

_new = tuple.__new__  # builds a named tuple without its Python-level constructor (the hot path)

HAND_SIZES = {2: 21, 3: 14, 4: 11, 5: 8, 6: 7, 7: 6, 8: 5}  # CF-2
TOES = 3  # CF-10
MAX_TRAINS = 8  # CF-6: the `centre_trains` option runs up to 8
DOUBLE_BLANK = Tile(0, 0)
ALL_TILES = mask_of(DOUBLE_NINE)

OPTION_SPECS = (
    OptionSpec(
        "rounds",
        "int",
        10,
        "Rounds in the match: round 1 starts on the 9-9, each later round on the next lower double.",
        minimum=1,
        maximum=10,
    ),
    OptionSpec(
        "centre_trains",
        "int",
        lambda players: players,
        "Trains the centre double must carry before tiles may be played anywhere else.",
        minimum=lambda players: players,
        maximum=MAX_TRAINS,
    ),
    OptionSpec(
        "double_blank_50",
        "bool",
        False,
        "A 0-0 left in hand at the end of a round counts 50 points instead of 0.",
    ),
)


def reserve_for(players: int) -> int:
    """CF-13: the last two tiles of the yard stay with 2 players, the last one with more."""
    return 2 if players == 2 else 1


def round_winners(round_score: tuple[int, ...]) -> tuple[int, ...]:
    """CF-16: the lowest round score "wins the round" (shown on the scorepad; it changes no score)."""
    best = min(round_score)
    return tuple(seat for seat, points in enumerate(round_score) if points == best)


def starting_double(round_number: int) -> Tile:
    """CF-4: round 1 starts on the 9-9, round 2 on the 8-8, ..., round 10 on the 0-0."""
    number = 10 - round_number
    return Tile(number, number)


class ChickenFootInfo(NamedTuple):
    """The facts that change only between rounds."""

    players: int
    seed: int | None
    options: Options
    round: int
    chance: bool
    over: bool
    scores: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]  # one entry per finished round
    winners: tuple[int, ...]
    search_start: int | None  # CF-5: the seat where this round's search for the double began
    went_out: int | None  # who went out in the last finished round (None: it was blocked)
    reserve: int  # CF-13: how many tiles of the yard are never drawn


class ChickenFootState(NamedTuple):
    """A Chicken Foot position. Hands are kept as tile bitmasks (`core.tiles`); `hands` reads them.

    A named tuple rather than a dataclass because a state is rebuilt on every move and a tuple is
    built several times faster; it is just as immutable, and compares and hashes by value. It
    carries its own legal moves, so `apply` checks a move with an identity scan instead of
    repeating the rules.
    """

    info: ChickenFootInfo
    to_move: int | None
    hand_masks: tuple[int, ...]
    stock: tuple[Tile, ...]  # the chicken yard, in drawing order
    table: PlainLayout | None  # the layout, in its plain form (`board` reads it as a Layout)
    drawn: Tile | None  # CF-7/CF-9: a tile just drawn that must now be played
    idle: int  # CF-13: consecutive turns that ended without a tile played
    log: PublicLog
    legal: tuple[Move, ...]  # the legal moves, worked out once when the state is built

    game = "chicken-foot"
    players, seed, options, round, chance, over, scores, winners = info_properties()
    round_scores = property(attrgetter("info.round_scores"))

    hands = hands_property()
    board = board_property()

    def history(self) -> tuple[tuple[int, Move], ...]:
        """This round's public events, oldest first."""
        return entries(self.log)


@dataclass(frozen=True, slots=True)
class ChickenFootView:
    """What one seat may know: its own hand, the table, hand sizes; never the yard's order."""

    seat: int
    players: int
    options: Options
    round: int
    chance: bool
    over: bool
    to_move: int | None
    hand: tuple[Tile, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    board: Layout | None
    drawn: Tile | None  # this seat's own drawn tile that it must play, if any
    must_play_drawn: bool  # the seat to move drew a playable tile and must play it (public)
    idle: int
    scores: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    winners: tuple[int, ...]
    search_start: int | None
    went_out: int | None
    history: tuple[tuple[int, Move], ...]
    revealed: tuple[tuple[Tile, ...], ...] | None  # every hand, once the round is over

    game: ClassVar[str] = "chicken-foot"


def targets(board: PlainLayout) -> tuple[int, ...]:
    """The open ends a tile may go on now: the lines, by number (`board`: a Layout or its plain form)."""
    # CF-6 (the opening: only new trains) and CF-10 (an unfinished foot: only its toes). In
    # Chicken Foot at most one empty line is ever open: the next centre train during the
    # opening, or the next toe of the one unfinished foot.
    return board[3] or board[2]  # empty_ends or ends


def known_misses(view: ChickenFootView) -> dict[int, int]:
    """The tiles each other seat is known not to hold, as masks, read from the round's record.

    A player who drew or passed held nothing that fitted the ends open at that moment (CF-7,
    CF-9). A draw starts the count afresh: the drawn tile, if kept, did not fit then either, but it
    was not in hand at the player's earlier misses, so only misses from the last draw on are sure.
    (A player who has just drawn a tile that fits holds that one tile despite the mask, and must
    play it: `determinize` places it separately.)
    """
    board = plain_start(view.board.centre, view.options["centre_trains"])  # type: ignore[union-attr, arg-type]
    forbidden: dict[int, int] = {}
    for seat, move in view.history:
        if type(move) is Play:
            board = plain_play(board, move, TOES)
        elif seat != view.seat:
            fits = playable_mask(board, ALL_TILES)
            forbidden[seat] = fits if type(move) is Draw else forbidden.get(seat, 0) | fits
    return forbidden


def legal_for(board: PlainLayout, held: int, stock_size: int, reserve: int) -> tuple[Move, ...]:
    """The legal moves of a player holding `held` (a mask; just the drawn tile after a draw), with
    the layout `board` (a Layout, or its plain form)."""
    lines = board[1]
    moves = []
    for line_id in board[3] or board[2]:  # `targets`, inlined: this is the hot loop
        # CF-8: any open end, with matching numbers touching.
        matching = held & CARRYING[lines[line_id][2]]
        while matching:
            low = matching & -matching
            moves.append(PLAYS_BY_BIT[low][line_id])
            matching ^= low
    if moves:
        return tuple(moves)
    # CF-7/CF-9: nothing to play, so draw; CF-13: with the yard down to its reserve, pass.
    return (DRAW,) if stock_size > reserve else (PASS,)


def playable_mask(board: PlainLayout, held: int) -> int:
    """The tiles of `held` (a mask) that can be played somewhere now."""
    lines = board[1]
    fits = 0
    for line_id in targets(board):
        fits |= CARRYING[lines[line_id][2]]
    return held & fits


class ChickenFoot(NamedPlaces, Game):
    name = "chicken-foot"
    title = "Chicken Foot"
    rule_prefix = "CF"
    min_players = 2
    max_players = 8
    option_specs = OPTION_SPECS

    # -- setting up ------------------------------------------------------------------------------
    def new_game(
        self, players: int, options: Mapping[str, Any] | None = None, seed: int | None = None
    ) -> ChickenFootState:
        players = self.check_players(players)
        resolved = self.resolve_options(players, options)
        info = ChickenFootInfo(
            players, seed, resolved, 0, True, False, (0,) * players, (), (), None, None, reserve_for(players)
        )
        return ChickenFootState(info, None, (0,) * players, (), None, None, 0, EMPTY_LOG, ())

    def deal(self, state: ChickenFootState, rng: random.Random) -> Deal:
        """CF-5: the search for the starting double, then a fresh shuffle and the hands (CF-2)."""
        info = state.info
        if not info.chance or info.over:
            raise IllegalMove("CF-0", "no deal is due now")
        players = info.players
        double = starting_double(info.round + 1)
        # CF-5: round 1's search begins at a random seat, each later one a seat further left.
        search_start = rng.randrange(players) if info.round == 0 else (info.search_start + 1) % players
        # The players draw one tile each in turn, from search_start on, until one draws the double.
        search = list(DOUBLE_NINE)
        shuffle(search, rng)
        finder = (search_start + search.index(double)) % players
        rest = tuple([tile for tile in DOUBLE_NINE if tile is not double])
        hands, stock = deal_hands(rest, players, HAND_SIZES[players], rng)
        return Deal(hands, stock, finder, search_start)

    # -- the rules -------------------------------------------------------------------------------
    def legal_moves(self, state: ChickenFootState) -> tuple[Move, ...]:
        return state.legal

    def apply(self, state: ChickenFootState, move: Move) -> ChickenFootState:
        legal = state.legal
        for candidate in legal:
            if candidate is move:
                break
        else:
            if type(move) is Deal and state.info.chance:
                return self._apply_deal(state, move)
            if move not in legal:
                raise self._explain(state, move)
            move = legal[legal.index(move)]
        kind = type(move)
        seat: int = state.to_move  # type: ignore[assignment]
        if kind is Play:
            return self._apply_play(state, seat, move)  # type: ignore[arg-type]
        if kind is Draw:
            return self._apply_draw(state, seat)
        return self._end_idle_turn(state, seat, state.hand_masks, state.stock, ((seat, PASS), state.log))

    def _apply_deal(self, state: ChickenFootState, deal: Deal) -> ChickenFootState:
        info = state.info
        players = info.players
        round_number = info.round + 1
        double = starting_double(round_number)
        size = HAND_SIZES[players]
        if len(deal.hands) != players or any(len(hand) != size for hand in deal.hands):
            raise IllegalMove("CF-2", f"with {players} players each hand starts with {size} tiles")
        masks = deal_masks(deal.hands, deal.stock, ALL_TILES ^ TILE_BIT[double])
        if masks is None:
            raise IllegalMove(
                "CF-1", f"a deal must hold every tile of the double-nine set once, except the {double} in the centre"
            )
        if deal.first is None or not 0 <= deal.first < players:
            raise IllegalMove("CF-5", "a deal must say which player found the starting double")
        if round_number == 1:
            if deal.search_start is None or not 0 <= deal.search_start < players:
                raise IllegalMove("CF-5", "the first round's deal must say where the search began")
        elif deal.search_start != (info.search_start + 1) % players:  # type: ignore[operator]
            raise IllegalMove("CF-5", "each round's search begins one seat to the left of the last one's")
        new_info = ChickenFootInfo(
            players,
            info.seed,
            info.options,
            round_number,
            False,
            False,
            info.scores,
            info.round_scores,
            (),
            deal.search_start,
            None,
            info.reserve,
        )
        board = plain_start(double, info.options["centre_trains"])  # type: ignore[arg-type]
        # CF-5: setting the double is not a turn; its finder plays first.
        stock = tuple(deal.stock)
        legal = legal_for(board, masks[deal.first], len(stock), info.reserve)
        return ChickenFootState(new_info, deal.first, masks, stock, board, None, 0, EMPTY_LOG, legal)

    def _apply_play(self, state: ChickenFootState, seat: int, move: Play) -> ChickenFootState:
        held = state.hand_masks[seat] ^ move.bit
        masks = list(state.hand_masks)  # replace_hand, inlined on this hot path
        masks[seat] = held
        masks = tuple(masks)  # type: ignore[assignment]
        board = plain_play(state.table, move, TOES)  # type: ignore[arg-type]
        log = ((seat, move), state.log)
        info = state.info
        if not held:
            # CF-12 (a): the player went out; CF-14: even on a double, leaving its foot unfilled.
            return self._end_round(state, masks, state.stock, board, log, seat)
        next_seat = seat + 1
        if next_seat == info.players:
            next_seat = 0
        legal = legal_for(board, masks[next_seat], len(state.stock), info.reserve)
        return _new(ChickenFootState, (info, next_seat, masks, state.stock, board, None, 0, log, legal))

    def _apply_draw(self, state: ChickenFootState, seat: int) -> ChickenFootState:
        tile = state.stock[0]
        stock = state.stock[1:]
        bit = TILE_BIT[tile]
        masks = replace_hand(state.hand_masks, seat, state.hand_masks[seat] | bit)
        log = ((seat, DRAW), state.log)
        board: PlainLayout = state.table  # type: ignore[assignment]
        if playable_mask(board, bit):
            # CF-7/CF-9: a drawn tile that can be played must be played at once.
            legal = legal_for(board, bit, len(stock), 0)
            return ChickenFootState(state.info, seat, masks, stock, board, tile, state.idle, log, legal)
        return self._end_idle_turn(state, seat, masks, stock, log)

    def _end_idle_turn(
        self, state: ChickenFootState, seat: int, masks: tuple[int, ...], stock: tuple[Tile, ...], log: PublicLog
    ) -> ChickenFootState:
        """A turn ended without a tile played: after an unplayable draw, or a pass."""
        info = state.info
        idle = state.idle + 1
        board: PlainLayout = state.table  # type: ignore[assignment]
        reserve = info.reserve
        if idle >= info.players and len(stock) <= reserve:
            # CF-12 (b), CF-13: the yard is down to its reserve and nobody could play for a full
            # round of turns: the round is blocked.
            return self._end_round(state, masks, stock, board, log, None)
        next_seat = (seat + 1) % info.players
        legal = legal_for(board, masks[next_seat], len(stock), reserve)
        return ChickenFootState(info, next_seat, masks, stock, board, None, idle, log, legal)

    def _end_round(
        self,
        state: ChickenFootState,
        masks: tuple[int, ...],
        stock: tuple[Tile, ...],
        board: PlainLayout,
        log: PublicLog,
        went_out: int | None,
    ) -> ChickenFootState:
        info = state.info
        blank_50 = info.options["double_blank_50"]
        # CF-15, CF-16: every player scores the pips left in hand (the one who went out has none);
        # CF-17: optionally the 0-0 counts 50 instead of 0.
        round_score = tuple(
            pip_total(tiles_in(mask)) + (50 if blank_50 and mask & TILE_BIT[DOUBLE_BLANK] else 0) for mask in masks
        )
        scores = tuple(total + points for total, points in zip(info.scores, round_score, strict=True))
        over = info.round >= info.options["rounds"]  # type: ignore[operator]
        winners: tuple[int, ...] = ()
        if over:
            # CF-18: the lowest total wins; equal lowest totals share the win.
            best = min(scores)
            winners = tuple(seat for seat, total in enumerate(scores) if total == best)
        new_info = ChickenFootInfo(
            info.players,
            info.seed,
            info.options,
            info.round,
            not over,
            over,
            scores,
            info.round_scores + (round_score,),
            winners,
            info.search_start,
            went_out,
            info.reserve,
        )
        return ChickenFootState(new_info, None, masks, stock, board, None, state.idle, log, ())

    # -- explaining what is not allowed ------------------------------------------------------------
    def _explain(self, state: ChickenFootState, move: Move) -> IllegalMove:
        """The rule a move breaks, in words a learner understands."""
        info = state.info
        if info.over:
            return IllegalMove("CF-18", "the match is over")
        if info.chance:
            return IllegalMove("CF-5", "the round is being dealt; wait for the tiles")
        if type(move) is Deal:
            return IllegalMove("CF-0", "tiles are dealt only at the start of a round")
        if not isinstance(move, (Play, Draw, Pass)):
            kind = getattr(move, "kind", type(move).__name__)
            return IllegalMove("CF-0", f"there is no {kind} in Chicken Foot: play a tile, draw or pass")
        seat: int = state.to_move  # type: ignore[assignment]
        board: Layout = state.board  # type: ignore[assignment]
        plays = [m for m in self.legal_moves(state) if type(m) is Play]
        if state.drawn is not None and not (type(move) is Play and move.tile is state.drawn):
            return IllegalMove("CF-9", f"you drew the {state.drawn} and it can be played, so you must play it now")
        if type(move) is Draw:
            if plays:
                return IllegalMove(self._must_play_rule(board), f"{self.can_play(board, plays)}, so you may not draw")
            return IllegalMove("CF-13", "the last tiles of the chicken yard are never drawn, so you must pass")
        if type(move) is Pass:
            if plays:
                return IllegalMove(self._must_play_rule(board), f"{self.can_play(board, plays)}, so you may not pass")
            return IllegalMove("CF-9", "you cannot play, so you must draw from the chicken yard")
        tile = move.tile  # type: ignore[attr-defined]
        target = move.target  # type: ignore[attr-defined]
        if type(tile) is not Tile or not state.hand_masks[seat] & TILE_BIT[tile]:
            return IllegalMove("CF-0", f"the {tile} is not in your hand")
        if target is None:
            return self._explain_anywhere(state, tile, plays)
        if type(target) is not int or not 0 <= target < len(board.lines):
            return IllegalMove("CF-8", "say which open end the tile goes on")
        allowed = targets(board)
        if target not in allowed:
            line_id = allowed[0]
            if board.lines[line_id].parent == CENTRE and not board.lines[line_id].tiles:
                trains = sum(1 for line in board.lines if line.parent == CENTRE)
                return IllegalMove(
                    "CF-6", f"until the {board.centre} carries {trains} trains, every play must start a new train on it"
                )
            if board.empty_ends:
                double = board.base_double(line_id)
                missing = sum(1 for i in board.children(board.lines[line_id].parent) if not board.lines[i].tiles)
                toes = "one more toe" if missing == 1 else f"{count_word(missing)} more toes"
                return IllegalMove("CF-10", f"the chicken foot on the {double} needs {toes} before any other play")
            if board.lines[target].parent == CENTRE and not board.lines[target].tiles:
                return IllegalMove("CF-11", f"the {board.centre} takes no new trains once the opening is over")
            if board.lines[target].open is None:
                return IllegalMove("CF-10", f"{self.line_name(board, target)} ends in a double: play on its toes")
            return IllegalMove("CF-10", "fill a chicken foot's toes one at a time, first to last")
        number = board.lines[target].open
        if board.empty_ends and board.lines[target].parent == CENTRE:
            return IllegalMove("CF-6", f"a new train on the {board.centre} needs a tile with {article(str(number))}")
        if board.empty_ends:
            return IllegalMove("CF-10", f"a toe on the {board.base_double(target)} must carry {article(str(number))}")
        return IllegalMove(
            "CF-8", f"the {tile} does not match the {number} at the end of {self.line_name(board, target)}"
        )

    def _explain_anywhere(self, state: ChickenFootState, tile: Tile, plays: list[Move]) -> IllegalMove:
        """A tile offered without an end (from the hand): why it fits none, against the end that
        tells most (one showing a number the tile carries, where a foot or the opening forbids it)."""
        board: Layout = state.board  # type: ignore[assignment]
        if any(m.tile is tile for m in plays):  # type: ignore[attr-defined]
            return IllegalMove("CF-8", f"the {tile} fits more than one end: say which one it goes on")
        carrying = [end for end in board.ends if board.lines[end].open in tile]
        allowed = targets(board)
        if carrying:
            return self._explain(state, Play(tile, carrying[0]))
        if board.empty_ends:
            return self._explain(state, Play(tile, allowed[0]))
        showing = sorted({board.lines[end].open for end in allowed})  # type: ignore[type-var]
        return IllegalMove("CF-8", f"the {tile} matches no open end: {ends_showing(showing)}")

    def _must_play_rule(self, board: Layout) -> str:
        opening = any(board.lines[i].parent == CENTRE for i in board.empty_ends)
        return "CF-7" if opening else "CF-9"

    # -- words -------------------------------------------------------------------------------------
    def describe_move(
        self, state: ChickenFootState, move: Move, names: tuple[str, ...] | None = None, viewer: int | None = None
    ) -> str:
        if type(move) is Deal:
            double = starting_double(state.info.round + 1)
            who = seat_name(names, move.first)  # type: ignore[arg-type]
            return f"Round {state.info.round + 1}: {who} found the {double}, to play first"
        who = seat_name(names, state.to_move)  # type: ignore[arg-type]
        if type(move) is Play:
            return f"{who} played {move.tile} on {self.line_name(state.board, move.target)}"  # type: ignore[arg-type]
        if type(move) is Draw and state.stock:
            tile = state.stock[0]
            fits = bool(playable_mask(state.board, TILE_BIT[tile]))  # type: ignore[arg-type]
            return draw_words(who, tile, viewer == state.to_move, fits)
        if type(move) is Pass:
            return f"{who} passed"
        return f"{who}: {move}"

    # -- what a seat may see -----------------------------------------------------------------------
    def view(self, state: ChickenFootState, seat: int) -> ChickenFootView:
        info = state.info
        if type(seat) is not int or not 0 <= seat < info.players:
            raise ValueError(f"there is no seat {seat!r} at {article(str(info.players))}-player table")
        hands = state.hands
        round_over = (info.chance or info.over) and info.round > 0
        return ChickenFootView(
            seat,
            info.players,
            info.options,
            info.round,
            info.chance,
            info.over,
            state.to_move,
            hands[seat],
            tuple(len(hand) for hand in hands),
            len(state.stock),
            state.board,
            state.drawn if state.to_move == seat else None,
            state.drawn is not None,
            state.idle,
            info.scores,
            info.round_scores,
            info.winners,
            info.search_start,
            info.went_out,
            entries(state.log),
            hands if round_over else None,
        )

    def determinize(self, view: ChickenFootView, rng: random.Random) -> ChickenFootState:
        """A full state that gives `view` to its seat: the unseen tiles placed at random among the
        other hands and the yard, never in a hand known not to hold them (`known_misses`)."""
        info = ChickenFootInfo(
            view.players,
            None,
            view.options,
            view.round,
            view.chance,
            view.over,
            view.scores,
            view.round_scores,
            view.winners,
            view.search_start,
            view.went_out,
            reserve_for(view.players),
        )
        if view.board is None:
            return ChickenFootState(info, None, (0,) * view.players, (), None, None, 0, EMPTY_LOG, ())
        drawn = view.drawn
        if view.revealed is not None:  # the round is over: every hand is known
            masks = [mask_of(hand) for hand in view.revealed]
            seen = {tile for hand in view.revealed for tile in hand} | set(view.board.tiles())
            stock = [tile for tile in DOUBLE_NINE if tile not in seen]
            shuffle(stock, rng)
        else:
            seen = set(view.hand) | set(view.board.tiles())
            unseen = [tile for tile in DOUBLE_NINE if tile not in seen]
            forbidden = known_misses(view)
            sizes = {seat: size for seat, size in enumerate(view.hand_sizes) if seat != view.seat}
            if view.must_play_drawn and drawn is None:
                # The player to move drew a tile they can play: it fits an open end now.
                fitting = [tile for tile in unseen if playable_mask(view.board, TILE_BIT[tile])]
                drawn = fitting[rng.randrange(len(fitting))]
                unseen.remove(drawn)
                sizes[view.to_move] -= 1  # type: ignore[index]
            hands, stock = deal_unseen(unseen, sizes, forbidden, rng)
            if drawn is not None and view.to_move != view.seat:
                hands[view.to_move].append(drawn)  # type: ignore[index]
            hands[view.seat] = list(view.hand)
            masks = [mask_of(hands[seat]) for seat in range(view.players)]
        unseen = stock
        log = from_entries(view.history)
        legal: tuple[Move, ...] = ()
        if view.to_move is not None:
            held = masks[view.to_move] if drawn is None else TILE_BIT[drawn]
            legal = legal_for(view.board, held, len(unseen), reserve_for(view.players))
        return ChickenFootState(
            info, view.to_move, tuple(masks), tuple(unseen), as_plain(view.board), drawn, view.idle, log, legal
        )


GAME = ChickenFoot()
