"""Doubles: rules DB-0..DB-13 of the rules specification.

Every double is a spinner. The layout is the shared tree (`core.layout`): the centre double with its
four free sides, and under every later double its three free sides, all open at once. A number can
be built on only once its double is on the table (DB-6, DB-7); the state keeps the numbers unlocked
so far as a mask for the whole table, so "may this tile go on that end?" is one table look-up.

A state keeps of the layout only what play needs: the tiles placed, newest first, and its open ends
with the number each shows. A play changes one end (or adds one), where rebuilding the tree would
copy every line; `state.board` replays the placed tiles into the Layout when it is read.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from operator import add, attrgetter
from typing import Any, ClassVar, NamedTuple

from core.determinize import deal_unseen
from core.draw_game import draw_words, seat_name
from core.draw_pile import deal_hands
from core.errors import IllegalMove
from core.game import Game
from core.hands import deal_masks, replace_hand
from core.layout import Layout, as_layout, plain_play, plain_start
from core.moves import DRAW, PASS, Deal, Draw, Move, Pass, Play, play
from core.options import Options, OptionSpec
from core.places import NamedPlaces
from core.public_log import EMPTY_LOG, PublicLog, entries, from_entries
from core.shuffle import shuffle
from core.state_info import hands_property, info_properties
from core.tiles import BIT_TILE, CARRYING, DOUBLE_SIX, TILE_BIT, Tile, mask_of, pips_in
from core.words import ends_showing

_new = tuple.__new__  # builds a named tuple without its Python-level constructor (the hot path)

HAND_SIZES = {2: 8, 3: 6, 4: 6}  # DB-2
CENTRE_SIDES = 4  # DB-5: the centre double's four free sides
SPINNER_SIDES = 3  # DB-5: a later double uses one side to attach and leaves three
RESERVE = 2  # DB-9: the last two tiles of the boneyard are never drawn
HIGHEST_FIRST = tuple(Tile(n, n) for n in range(6, -1, -1))  # DB-3: who holds the highest double
DOUBLES_MASK = mask_of(HIGHEST_FIRST)
ALL_TILES = mask_of(DOUBLE_SIX)
NUMBER_WORDS = ("blanks", "ones", "twos", "threes", "fours", "fives", "sixes")


def _fits(unlocked: int) -> tuple[int, ...]:
    """For each number n, the tiles that may go on an end showing n while `unlocked` (a mask of
    numbers) holds: DB-7 (a) any tile carrying an unlocked n, (b) only the double n-n otherwise."""
    return tuple(CARRYING[n] if unlocked >> n & 1 else TILE_BIT[Tile(n, n)] for n in range(7))


LINES = CENTRE_SIDES + SPINNER_SIDES * 6  # the most lines a layout has: the centre's sides, three per later double
# A state keeps its open ends as bytes, one an end in the layout's order: the end's line times 7
# plus the number it shows. Reading and replacing a byte is C work, where a tuple of pairs costs
# Python steps on every move.
FITS: tuple[tuple[int, ...], ...] = tuple(_fits(unlocked) * LINES for unlocked in range(1 << 7))
"""FITS[unlocked][end]: the mask of tiles that fit the open end `end` (line·7 + the number it shows;
hands hold double-six tiles only, so CARRYING's higher tiles never match)."""
PLAYS_AT: dict[int, tuple[Play, ...]] = {
    TILE_BIT[tile]: tuple(play(tile, end // 7) for end in range(LINES * 7)) for tile in DOUBLE_SIX
}
"""PLAYS_AT[bit][end]: the interned play of the tile `bit` on the open end `end`."""
BYTE = tuple(bytes((value,)) for value in range(256))
SIDES = tuple((1 << SPINNER_SIDES) - 1 << line_id for line_id in range(LINES + 1))
"""SIDES[line]: the mask of a double's three free sides, numbered from `line`."""

HAS_NEXT_SIDE = tuple(
    line_id < CENTRE_SIDES - 1
    if line_id < CENTRE_SIDES
    else (line_id - CENTRE_SIDES) % SPINNER_SIDES < SPINNER_SIDES - 1
    for line_id in range(LINES)
)
"""HAS_NEXT_SIDE[line]: the line is a free side of a double with another free side after it. Lines
are numbered as they are made: the centre's four sides 0-3, then three for each later double."""

Placed = tuple[Any, ...]  # () or (play, Placed): the tiles on the table, newest first

OPTION_SPECS = (
    OptionSpec(
        "target",
        "int",
        100,
        "Points that win the match: the first player to reach them after a round wins.",
        minimum=1,
        maximum=1000,
    ),
    OptionSpec(
        "blocked_tie",
        "choice",
        "nobody",
        "When a blocked round's lowest hands tie: nobody scores, or the tied players split the others' pips.",
        choices=("nobody", "split"),
    ),
)


class DoublesInfo(NamedTuple):
    """The facts that change only between rounds."""

    players: int
    seed: int | None
    options: Options
    round: int
    chance: bool
    over: bool
    scores: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]  # points each seat scored, one entry per finished round
    round_pips: tuple[tuple[int, ...], ...]  # pips left in each hand, one entry per finished round
    winners: tuple[int, ...]
    went_out: int | None  # who went out in the last finished round (None: it was blocked)
    redeal: bool  # DB-3: the last deal gave nobody a double, so the next deal redeals this round


class DoublesState(NamedTuple):
    """A Doubles position. Hands are kept as tile bitmasks (`core.tiles`); `hands` reads them.

    A named tuple for the reasons given in `core.games.chicken_foot`: rebuilt on every move, and a
    tuple is built several times faster than a dataclass. `legal` holds the legal moves, worked out
    once when the state is built; `apply` checks a move against them by identity.
    """

    info: DoublesInfo
    to_move: int | None
    hand_masks: tuple[int, ...]
    stock: tuple[Tile, ...]  # the boneyard, in drawing order
    placed: Placed  # the plays that made the layout, newest first; () until the opening double (DB-3)
    ends: bytes  # the layout's open ends in its order, each its line·7 + the number it shows (see FITS)
    empty: int  # bit n set: line n is a free side of a double that has no tile yet
    unlocked: int  # DB-6: bit n is set once the double n-n is on the table
    drawn: Tile | None  # DB-8: a tile just drawn that must now be played
    idle: int  # DB-10: consecutive turns that ended without a tile played
    log: PublicLog
    legal: tuple[Move, ...]

    game = "doubles"
    players, seed, options, round, chance, over, scores, winners = info_properties()
    round_scores = property(attrgetter("info.round_scores"))
    round_pips = property(attrgetter("info.round_pips"))

    hands = hands_property()

    @property
    def board(self) -> Layout | None:
        """The layout, replayed from the placed tiles; None until the opening double is played."""
        return layout_of(self.placed)

    def history(self) -> tuple[tuple[int, Move], ...]:
        """This round's public events, oldest first."""
        return entries(self.log)


@dataclass(frozen=True, slots=True)
class DoublesView:
    """What one seat may know: its own hand, the table, hand sizes; never the boneyard's order."""

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
    unlocked: int  # bit n set: the number n is unlocked (DB-6)
    leading: Tile | None  # DB-3: the highest double, which the seat to move must open the round with
    drawn: Tile | None  # this seat's own drawn tile that it must play, if any
    must_play_drawn: bool  # the seat to move drew a playable tile and must play it (public)
    idle: int
    scores: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    round_pips: tuple[tuple[int, ...], ...]
    winners: tuple[int, ...]
    went_out: int | None
    redeal: bool
    history: tuple[tuple[int, Move], ...]
    revealed: tuple[tuple[Tile, ...], ...] | None  # every hand, once the round is over (or misdealt)

    game: ClassVar[str] = "doubles"

    def is_unlocked(self, number: int) -> bool:
        return bool(self.unlocked >> number & 1)


def highest_double(held: int) -> Tile | None:
    """DB-3: the highest double in a hand (a mask), if any."""
    for double in HIGHEST_FIRST:
        if held & TILE_BIT[double]:
            return double
    return None


def legal_for(ends: bytes, held: int, fits: tuple[int, ...], stock_size: int) -> tuple[Move, ...]:
    """The legal moves of a player holding `held` (a mask; just the drawn tile after a draw), with
    the open ends `ends`."""
    moves = []
    for end in ends:  # DB-5: every open end, every free side of every spinner
        # DB-7: a tile carrying the end's number, if unlocked; else only that number's double.
        matching = held & fits[end]
        while matching:
            low = matching & -matching
            moves.append(PLAYS_AT[low][end])
            matching ^= low
    if moves:
        return tuple(moves)
    # DB-8: nothing to play, so draw; DB-9: with the boneyard down to its reserve, pass.
    return (DRAW,) if stock_size > RESERVE else (PASS,)


def legal_at(
    board: Layout | None,
    masks: tuple[int, ...],
    to_move: int | None,
    drawn: Tile | None,
    unlocked: int,
    stock: int,
) -> tuple[Move, ...]:
    """The legal moves of a position given by its parts (the engine's hot paths inline this)."""
    if to_move is None:
        return ()
    if board is None:
        # DB-3: the round opens with the highest double, played in the centre.
        return (play(highest_double(masks[to_move]), None),)  # type: ignore[arg-type]
    held = masks[to_move] if drawn is None else TILE_BIT[drawn]
    return legal_for(open_ends(board)[0], held, FITS[unlocked], stock)


def open_ends(board: Layout) -> tuple[bytes, int]:
    """A layout's open ends and its empty free sides, as a state keeps them."""
    lines = board.lines
    ends = bytes([end * 7 + lines[end].open for end in board.ends])  # type: ignore[operator]
    return ends, sum(1 << line_id for line_id, line in enumerate(lines) if not line.tiles)


def ends_after(ends: bytes, empty: int, unlocked: int, move: Play) -> tuple[bytes, int]:
    """The open ends and the empty free sides once `move` is played, with the numbers `unlocked`
    before it. The caller has checked that the move is legal."""
    low = move.low
    line_id = move.target
    if line_id is None:
        # DB-3, DB-5: the opening double in the centre, four free sides; the first is open.
        return BYTE[low], (1 << CENTRE_SIDES) - 1
    base = line_id * 7
    end = base + low
    if end in ends:  # the end showed the tile's low number: now the high one shows
        now = BYTE[base + move.high]
    else:
        end = base + move.high
        now = BYTE[base + low]
    if low == move.high:
        # DB-5: a double closes its line and opens three free sides, numbered next (the lines so
        # far: the centre's sides and three for each double after it).
        first = CENTRE_SIDES + SPINNER_SIDES * (unlocked.bit_count() - 1)
        return ends.replace(BYTE[end], BYTE[first * 7 + low]), empty | SIDES[first]
    if empty >> line_id & 1:
        # A free side takes its first tile (never a double: the one double carrying the side's
        # number is the side's own); the double's next free side, if any, opens beside it.
        empty ^= 1 << line_id
        if HAS_NEXT_SIDE[line_id]:
            now += BYTE[end + 7]
    return ends.replace(BYTE[end], now), empty


def layout_of(placed: Placed) -> Layout | None:
    """The layout made by the plays `placed` (newest first); None before the opening double."""
    plays = []
    while placed:
        plays.append(placed[0])
        placed = placed[1]
    if not plays:
        return None
    plays.reverse()
    # DB-3: the first play is the centre double; DB-5: later doubles keep three free sides.
    board = plain_start(plays[0].tile, CENTRE_SIDES)
    for move in plays[1:]:
        board = plain_play(board, move, SPINNER_SIDES)
    return as_layout(board)


def placed_of(history: tuple[tuple[int, Move], ...]) -> Placed:
    """The plays of a round's record, newest first, as a state keeps them."""
    placed: Placed = ()
    for _, move in history:
        if type(move) is Play:
            placed = (move, placed)
    return placed


def replay_misses(history: tuple[tuple[int, Move], ...]) -> Iterator[tuple[int, Move, int]]:
    """A round's record, oldest first, as (seat, move, missed): for a draw or a pass, the tiles that
    would have fitted the open ends at that moment, locks included (DB-7, DB-8); 0 for a play."""
    ends = b""
    empty = unlocked = 0
    for seat, move in history:
        missed = 0
        if type(move) is Play:
            ends, empty = ends_after(ends, empty, unlocked, move)
            if move.low == move.high:
                unlocked |= 1 << move.low  # DB-6
        else:
            fits = FITS[unlocked]
            for end in ends:
                missed |= fits[end]
        yield seat, move, missed


def known_misses(view: DoublesView) -> dict[int, int]:
    """The tiles each other seat is known not to hold, as masks, read from the round's record.

    A player who drew or passed held nothing that fitted an open end at that moment (DB-8), locks
    included (DB-7). A draw starts the count afresh, as in Chicken Foot (`chicken_foot.known_misses`).
    """
    forbidden: dict[int, int] = {}
    for seat, move, missed in replay_misses(view.history):
        if missed and seat != view.seat:
            forbidden[seat] = missed if type(move) is Draw else forbidden.get(seat, 0) | missed
    return forbidden


def round_points(pips: tuple[int, ...], went_out: int | None, blocked_tie: str) -> tuple[int, ...]:
    """The points each seat scores for a finished round, given the pips left in each hand."""
    total = sum(pips)
    if went_out is not None:
        # DB-11: the player who went out scores every pip left in the other hands.
        points = [0] * len(pips)
        points[went_out] = total
        return tuple(points)
    # DB-12: blocked; the lowest hand scores the opponents' pips.
    low = min(pips)
    tied = [seat for seat, left in enumerate(pips) if left == low]
    if len(tied) == 1:
        return tuple(total - low if seat == tied[0] else 0 for seat in range(len(pips)))
    if blocked_tie == "split":
        # The tied players share the pips of those not tied, evenly, rounded down.
        share = (total - low * len(tied)) // len(tied)
        return tuple(share if seat in tied else 0 for seat in range(len(pips)))
    return (0,) * len(pips)  # default: a tie for the lowest hand scores nobody


def match_winners(scores: tuple[int, ...], target: int) -> tuple[int, ...]:
    """DB-13: after a round, the winner if any: the highest total at or above the target, alone."""
    if max(scores) < target:
        return ()
    crossed = [total for total in scores if total >= target]
    best = max(crossed)
    top = tuple(seat for seat, total in enumerate(scores) if total == best)
    return top if len(top) == 1 else ()  # an exact tie on top plays another round


class Doubles(NamedPlaces, Game):
    name = "doubles"
    title = "Doubles"
    rule_prefix = "DB"
    min_players = 2
    max_players = 4
    option_specs = OPTION_SPECS

    # -- setting up ------------------------------------------------------------------------------
    def new_game(self, players: int, options: Mapping[str, Any] | None = None, seed: int | None = None) -> DoublesState:
        players = self.check_players(players)
        resolved = self.resolve_options(players, options)
        zeros = (0,) * players
        info = DoublesInfo(players, seed, resolved, 0, True, False, zeros, (), (), (), None, False)
        return DoublesState(info, None, zeros, (), (), b"", 0, 0, None, 0, EMPTY_LOG, ())

    def deal(self, state: DoublesState, rng: random.Random) -> Deal:
        """DB-2: a fresh shuffle and the hands. Chance picks no seat: the hands decide who opens
        (DB-3), and a deal that gives nobody a double is followed by another deal."""
        info = state.info
        if not info.chance or info.over:
            raise IllegalMove("DB-0", "no deal is due now")
        hands, stock = deal_hands(DOUBLE_SIX, info.players, HAND_SIZES[info.players], rng)
        return Deal(hands, stock)

    # -- the rules -------------------------------------------------------------------------------
    def legal_moves(self, state: DoublesState) -> tuple[Move, ...]:
        return state.legal

    def apply(self, state: DoublesState, move: Move) -> DoublesState:
        info, seat, hand_masks, stock, placed, ends, empty, unlocked, _, _, log, legal = state
        for candidate in legal:
            if candidate is move:
                break
        else:
            if type(move) is Deal and info.chance:
                return self._apply_deal(state, move)
            if move not in legal:
                raise self._explain(state, move)
            move = legal[legal.index(move)]
        if type(move) is Play:
            # The play, with `legal_for` inlined: plays are most of the moves of a match.
            masks = list(hand_masks)  # replace_hand, inlined
            held = masks[seat] ^ move.bit
            masks[seat] = held
            masks = tuple(masks)  # type: ignore[assignment]
            placed = (move, placed)
            low = move.low
            line_id = move.target
            if line_id is None:
                ends, empty = ends_after(ends, empty, unlocked, move)  # DB-3: the opening double
                unlocked = 1 << low  # DB-6
            else:
                # `ends_after`, inlined.
                base = line_id * 7
                end = base + low
                if end in ends:
                    now = BYTE[base + move.high]
                else:
                    end = base + move.high
                    now = BYTE[base + low]
                if low == move.high:
                    first = CENTRE_SIDES + SPINNER_SIDES * (unlocked.bit_count() - 1)
                    ends = ends.replace(BYTE[end], BYTE[first * 7 + low])
                    empty |= SIDES[first]
                    unlocked |= 1 << low  # DB-6: unlocked everywhere, for everyone
                else:
                    if empty >> line_id & 1:
                        empty ^= 1 << line_id
                        if HAS_NEXT_SIDE[line_id]:
                            now += BYTE[end + 7]
                    ends = ends.replace(BYTE[end], now)
            log = ((seat, move), log)
            if not held:
                # DB-10: the player went out.
                return self._end_round(state, masks, stock, placed, ends, empty, unlocked, log, seat)  # type: ignore[arg-type]
            # DB-4: play passes to the left.
            seat += 1
            if seat == info[0]:  # info.players, read by index on this hot path
                seat = 0
            held = masks[seat]
            fits = FITS[unlocked]
            moves = []
            for end in ends:  # the open ends
                matching = held & fits[end]  # DB-7, as in `legal_for`
                while matching:
                    low = matching & -matching
                    moves.append(PLAYS_AT[low][end])
                    matching ^= low
            if not moves:
                moves.append(DRAW if len(stock) > RESERVE else PASS)  # DB-8, DB-9
            legal = tuple(moves)
            return _new(DoublesState, (info, seat, masks, stock, placed, ends, empty, unlocked, None, 0, log, legal))
        if type(move) is Draw:
            return self._apply_draw(state, seat)
        return self._end_idle_turn(state, seat, hand_masks, stock, ((seat, PASS), log))

    def _apply_deal(self, state: DoublesState, deal: Deal) -> DoublesState:
        info = state.info
        players = info.players
        size = HAND_SIZES[players]
        if deal.first is not None or deal.search_start is not None:
            raise IllegalMove("DB-3", "chance picks no seat in Doubles: the holder of the highest double opens")
        if len(deal.hands) != players or {*map(len, deal.hands)} != {size}:
            raise IllegalMove("DB-2", f"with {players} players each hand starts with {size} tiles")
        masks = deal_masks(deal.hands, deal.stock, ALL_TILES)
        if masks is None:
            raise IllegalMove("DB-1", "a deal must hold every tile of the double-six set once")
        # DB-3: a redeal (after a deal that gave nobody a double) is the same round again.
        round_number = info.round if info.redeal else info.round + 1
        stock = tuple(deal.stock)
        # DB-3: the holder of the highest double opens. Doubles' bits rise with their number, so
        # the seat whose doubles make the largest mask holds the highest one.
        opener = None
        highest = 0
        for seat, held in enumerate(masks):
            if held & DOUBLES_MASK > highest:
                opener, highest = seat, held & DOUBLES_MASK
        redeal = opener is None
        new_info = _new(
            DoublesInfo,
            (
                players,
                info.seed,
                info.options,
                round_number,
                redeal,  # DB-3: nobody holds a double, so chance deals again
                False,
                info.scores,
                info.round_scores,
                info.round_pips,
                (),
                None,
                redeal,
            ),
        )
        if opener is None:
            return _new(DoublesState, (new_info, None, masks, stock, (), b"", 0, 0, None, 0, EMPTY_LOG, ()))
        # DB-3: the holder of the highest double plays it as the round's first play, on their turn.
        legal = (play(BIT_TILE[1 << (highest.bit_length() - 1)], None),)
        return _new(DoublesState, (new_info, opener, masks, stock, (), b"", 0, 0, None, 0, EMPTY_LOG, legal))

    def _apply_draw(self, state: DoublesState, seat: int) -> DoublesState:
        tile = state.stock[0]
        stock = state.stock[1:]
        bit = TILE_BIT[tile]
        masks = replace_hand(state.hand_masks, seat, state.hand_masks[seat] | bit)
        log = ((seat, DRAW), state.log)
        legal = legal_for(state.ends, bit, FITS[state.unlocked], 0)
        if type(legal[0]) is Play:
            # DB-8: a drawn tile that can be played must be played at once.
            return state._replace(to_move=seat, hand_masks=masks, stock=stock, drawn=tile, log=log, legal=legal)
        return self._end_idle_turn(state, seat, masks, stock, log)

    def _end_idle_turn(
        self, state: DoublesState, seat: int, masks: tuple[int, ...], stock: tuple[Tile, ...], log: PublicLog
    ) -> DoublesState:
        """A turn ended without a tile played: after an unplayable draw, or a pass."""
        info = state.info
        idle = state.idle + 1
        if idle >= info.players and len(stock) <= RESERVE:
            # DB-10: the boneyard is down to its reserve and nobody could play for a full round of
            # turns: the round is blocked.
            return self._end_round(
                state, masks, stock, state.placed, state.ends, state.empty, state.unlocked, log, None
            )
        next_seat = (seat + 1) % info.players
        legal = legal_for(state.ends, masks[next_seat], FITS[state.unlocked], len(stock))
        return state._replace(
            to_move=next_seat, hand_masks=masks, stock=stock, drawn=None, idle=idle, log=log, legal=legal
        )

    def _end_round(
        self,
        state: DoublesState,
        masks: tuple[int, ...],
        stock: tuple[Tile, ...],
        placed: Placed,
        ends: bytes,
        empty: int,
        unlocked: int,
        log: PublicLog,
        went_out: int | None,
    ) -> DoublesState:
        info = state.info
        players, seed, options, round_number, _, _, scores, round_scores, round_pips, _, _, _ = info
        pips = tuple(map(pips_in, masks))
        points = round_points(pips, went_out, options["blocked_tie"])  # type: ignore[arg-type]
        scores = tuple(map(add, scores, points))
        winners = match_winners(scores, options["target"])  # type: ignore[arg-type]
        over = bool(winners)
        new_info = _new(
            DoublesInfo,
            (
                players,
                seed,
                options,
                round_number,
                not over,
                over,
                scores,
                round_scores + (points,),
                round_pips + (pips,),
                winners,
                went_out,
                False,
            ),
        )
        return _new(
            DoublesState, (new_info, None, masks, stock, placed, ends, empty, unlocked, None, state.idle, log, ())
        )

    # -- explaining what is not allowed ------------------------------------------------------------
    def _explain(self, state: DoublesState, move: Move) -> IllegalMove:
        """The rule a move breaks, in words a learner understands."""
        info = state.info
        if info.over:
            return IllegalMove("DB-13", "the match is over")
        if info.chance:
            if info.redeal:
                return IllegalMove("DB-3", "nobody holds a double: the tiles are being dealt again")
            return IllegalMove("DB-2", "the round is being dealt; wait for the tiles")
        if type(move) is Deal:
            return IllegalMove("DB-0", "tiles are dealt only at the start of a round")
        if not isinstance(move, (Play, Draw, Pass)):
            kind = getattr(move, "kind", type(move).__name__)
            return IllegalMove("DB-0", f"there is no {kind} in Doubles: play a tile, draw or pass")
        seat: int = state.to_move  # type: ignore[assignment]
        board = state.board
        if board is None:
            lead: Tile = state.legal[0].tile  # type: ignore[attr-defined]
            return IllegalMove("DB-3", f"you hold the highest double, the {lead}: open the round with it in the centre")
        plays = [m for m in state.legal if type(m) is Play]
        if state.drawn is not None and not (type(move) is Play and move.tile is state.drawn):
            return IllegalMove("DB-8", f"you drew the {state.drawn} and it can be played, so you must play it now")
        if type(move) is Draw:
            if plays:
                return IllegalMove("DB-8", f"{self.can_play(board, plays)}, so you may not draw")
            return IllegalMove("DB-9", "the last two tiles of the boneyard are never drawn, so you must pass")
        if type(move) is Pass:
            if plays:
                return IllegalMove("DB-8", f"{self.can_play(board, plays)}, so you may not pass")
            return IllegalMove("DB-8", "you cannot play, so you must draw from the boneyard")
        tile = move.tile  # type: ignore[attr-defined]
        target = move.target  # type: ignore[attr-defined]
        if type(tile) is not Tile or not state.hand_masks[seat] & TILE_BIT[tile]:
            return IllegalMove("DB-0", f"the {tile} is not in your hand")
        if target is None:
            return self._explain_anywhere(state, tile, plays)
        if type(target) is not int or not 0 <= target < len(board.lines):
            return IllegalMove("DB-5", f"there is no end {target}: say which open end the tile goes on")
        line = board.lines[target]
        if target not in board.ends:
            double = board.base_double(target)
            if line.open is None:
                closing = line.tiles[-1]
                where = self.line_name(board, target)
                return IllegalMove("DB-5", f"{where} ends in the {closing}: play on the free sides of the {closing}")
            if not line.tiles:
                first = next(end for end in board.ends if board.lines[end].parent == line.parent)
                return IllegalMove(
                    "DB-5", f"the free sides of the {double} are all alike: play on {self.line_name(board, first)}"
                )
            return IllegalMove("DB-5", "that end is not open")  # not reached: every non-empty open line is an end
        number: int = line.open  # type: ignore[assignment]
        if number not in tile:
            return IllegalMove(
                "DB-7", f"the {tile} does not match the {number} showing on {self.line_name(board, target)}"
            )
        if not state.unlocked >> number & 1:
            return IllegalMove("DB-7", f"{NUMBER_WORDS[number]} are locked until the {number}-{number} is played")
        return IllegalMove("DB-0", f"the {tile} cannot be played there now")

    def _explain_anywhere(self, state: DoublesState, tile: Tile, plays: list[Move]) -> IllegalMove:
        """A tile offered without an end (from the hand, once the centre is down): why it fits
        none, against an end showing a number it carries (locked, DB-7) if there is one."""
        board: Layout = state.board  # type: ignore[assignment]
        if any(m.tile is tile for m in plays):  # type: ignore[attr-defined]
            return IllegalMove("DB-5", f"the {tile} fits more than one end: say which one it goes on")
        carrying = [end for end in board.ends if board.lines[end].open in tile]
        if carrying:
            return self._explain(state, Play(tile, carrying[0]))
        showing = sorted({board.lines[end].open for end in board.ends})  # type: ignore[type-var]
        return IllegalMove("DB-7", f"the {tile} matches no open end: {ends_showing(showing)}")

    # -- words -------------------------------------------------------------------------------------
    def describe_move(
        self, state: DoublesState, move: Move, names: tuple[str, ...] | None = None, viewer: int | None = None
    ) -> str:
        info = state.info
        if type(move) is Deal:
            round_number = info.round if info.redeal else info.round + 1
            masks = [mask_of(hand) for hand in move.hands]
            for double in HIGHEST_FIRST:
                holder = next((seat for seat, held in enumerate(masks) if held & TILE_BIT[double]), None)
                if holder is not None:
                    who = seat_name(names, holder)
                    return f"Round {round_number}: {who} to open with the {double}, the highest double"
            return f"Round {round_number}: nobody holds a double, so the tiles are shuffled and dealt again"
        who = seat_name(names, state.to_move)  # type: ignore[arg-type]
        if type(move) is Play:
            tile = move.tile
            if move.target is None:
                return f"{who} opened the round with the {tile} in the centre"
            board: Layout = state.board  # type: ignore[assignment]
            if board is None or move.target not in board.ends:
                return f"{who} played {tile}"  # not a legal play: no end to name
            number: int = board.lines[move.target].open  # type: ignore[assignment]
            words = f"{who} played {tile} on {self.line_name(board, move.target)}"
            if tile.is_double:
                words += f", unlocking {NUMBER_WORDS[number]}"
            return words
        if type(move) is Draw and state.stock and state.board is not None:
            tile = state.stock[0]
            fits = type(legal_for(state.ends, TILE_BIT[tile], FITS[state.unlocked], 0)[0]) is Play
            return draw_words(who, tile, viewer == state.to_move, fits)
        if type(move) is Pass:
            return f"{who} passed"
        return f"{who}: {move}"

    # -- what a seat may see -----------------------------------------------------------------------
    def view(self, state: DoublesState, seat: int) -> DoublesView:
        info = state.info
        if type(seat) is not int or not 0 <= seat < info.players:
            raise ValueError(f"there is no seat {seat!r} at a {info.players}-player table")
        hands = state.hands
        round_over = (info.chance or info.over) and info.round > 0
        leading = state.legal[0].tile if not state.placed and state.legal else None  # type: ignore[attr-defined]
        return DoublesView(
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
            state.unlocked,
            leading,
            state.drawn if state.to_move == seat else None,
            state.drawn is not None,
            state.idle,
            info.scores,
            info.round_scores,
            info.round_pips,
            info.winners,
            info.went_out,
            info.redeal,
            entries(state.log),
            hands if round_over else None,
        )

    def determinize(
        self, view: DoublesView, rng: random.Random, forbidden: Mapping[int, int] | None = None
    ) -> DoublesState:
        """A full state that gives `view` to its seat: the unseen tiles placed at random among the
        other hands and the boneyard, never in a hand known not to hold them (`forbidden`, a mask
        of tiles per seat; by default `known_misses`)."""
        info = DoublesInfo(
            view.players,
            None,
            view.options,
            view.round,
            view.chance,
            view.over,
            view.scores,
            view.round_scores,
            view.round_pips,
            view.winners,
            view.went_out,
            view.redeal,
        )
        if view.round == 0:
            zeros = (0,) * view.players
            return DoublesState(info, None, zeros, (), (), b"", 0, 0, None, 0, EMPTY_LOG, ())
        seen = set(view.hand)
        if view.board is not None:
            seen.update(view.board.tiles())
        if view.revealed is not None:
            seen.update(tile for hand in view.revealed for tile in hand)
        unseen = [tile for tile in DOUBLE_SIX if tile not in seen]
        shuffle(unseen, rng)
        given: dict[int, list[Tile]] = {}
        kept_back: list[Tile] = []
        if view.leading is not None:
            # DB-3: the opener holds the highest double, so every higher one is in the boneyard.
            if view.to_move != view.seat:
                given[view.to_move] = [view.leading]  # type: ignore[index]
                unseen.remove(view.leading)
            kept_back = [tile for tile in unseen if tile.is_double and tile > view.leading]
            unseen = [tile for tile in unseen if tile not in kept_back]
        drawn = view.drawn
        if view.must_play_drawn and drawn is None and view.revealed is None:
            # The player to move drew a tile they can play: it must be one that fits an open end.
            fits = FITS[view.unlocked]
            ends = open_ends(view.board)[0]  # type: ignore[arg-type]
            fitting = [t for t in unseen if type(legal_for(ends, TILE_BIT[t], fits, 0)[0]) is Play]
            drawn = fitting[rng.randrange(len(fitting))]
            unseen.remove(drawn)
            given[view.to_move] = [drawn]  # type: ignore[index]
        if view.revealed is not None:
            masks = tuple(mask_of(hand) for hand in view.revealed)
            stock = unseen + kept_back
        else:
            sizes = {
                seat: size - len(given.get(seat, ())) for seat, size in enumerate(view.hand_sizes) if seat != view.seat
            }
            misses = known_misses(view) if forbidden is None else forbidden
            hands, stock = deal_unseen(unseen, sizes, misses, rng)
            for seat, tiles in given.items():
                hands[seat].extend(tiles)
            hands[view.seat] = list(view.hand)
            masks = tuple(mask_of(hands[seat]) for seat in range(view.players))
            stock += kept_back
        if kept_back:
            shuffle(stock, rng)
        legal = (
            ()
            if view.chance or view.over
            else legal_at(view.board, masks, view.to_move, drawn, view.unlocked, len(stock))
        )
        return DoublesState(
            info,
            view.to_move,
            masks,
            tuple(stock),
            placed_of(view.history),
            *((b"", 0) if view.board is None else open_ends(view.board)),
            view.unlocked,
            drawn,
            view.idle,
            from_entries(view.history),
            legal,
        )


GAME = Doubles()
