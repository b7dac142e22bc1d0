"""Three-player Moon: rules MN-0..MN-20 of the rules specification.

A hand goes: the deal (seven tiles each, one face down: the widow), one round of bidding, the
bidder takes the widow and lays one tile aside (the discard), names trump, and seven tricks are
played. Suits and ranks come from `core.games.moon_suits`. `stock` holds the widow until it is
taken, then nothing, then the discard.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, ClassVar, NamedTuple

from core.determinize import deal_unseen
from core.draw_pile import deal_hands
from core.errors import IllegalMove
from core.game import Game
from core.games.moon_suits import (
    DOUBLES,
    MOON_SET,
    NO_TRUMP,
    TABLES,
    TRUMP,
    TRUMP_CHOICES,
    led_suit,
    suit_name,
    trick_winner,
    trump_name,
)
from core.hands import deal_masks
from core.moves import Bid, Deal, Discard, Move, Play, Trump, TrumpSuit, play
from core.options import Options, OptionSpec
from core.state_info import hands_property, info_properties
from core.tiles import TILE_BIT, Tile, mask_of, per_bit, tiles_in
from core.words import article, listing

_new = tuple.__new__  # builds a named tuple without its Python-level constructor (the hot path)

PLAYERS = 3
HAND_SIZE = 7  # MN-2
TRICKS = 7  # MN-13
BID_AMOUNTS = (4, 5, 6, 7, 21)  # MN-9
MOON = 21  # MN-9: the bid that promises all seven tricks

# Phases of a hand; "deal" while a deal is due (before a hand, after one, after all passed).
DEALING, BIDDING, DISCARDING, NAMING, PLAYING, OVER = "deal", "bidding", "discard", "trump", "play", "over"

OPTION_SPECS = (
    OptionSpec(
        "target",
        "int",
        21,
        "Points that end the game: the first player alone on top with at least this many wins.",
        minimum=1,
        maximum=250,
    ),
    OptionSpec(
        "all_pass",
        "choice",
        "redeal",
        "When all three pass: redeal the tiles, or force the last to speak to bid at least 4.",
        choices=("redeal", "force"),
    ),
    OptionSpec(
        "doubles_trump",
        "bool",
        True,
        "The bidder may name doubles as trump (the seven doubles form the trump suit).",
    ),
)

# Interned moves, so `apply` can check a move against the legal ones by identity.
PASS_BID = Bid(0)
BIDS: dict[int, Bid] = {amount: Bid(amount) for amount in (0, *BID_AMOUNTS)}
TRUMPS: dict[TrumpSuit, Trump] = {choice: Trump(choice) for choice in TRUMP_CHOICES}
PLAY_BY_BIT: dict[int, Play] = {TILE_BIT[tile]: play(tile) for tile in MOON_SET}
DISCARD_BY_BIT: dict[int, Discard] = {TILE_BIT[tile]: Discard(tile) for tile in MOON_SET}
MOON_MASK = mask_of(MOON_SET)


class HandRecord(NamedTuple):
    """One scored hand, for the scorepad."""

    hand: int  # the hand's number (a redeal is not a hand: MN-20)
    bidder: int
    bid: int
    trump: TrumpSuit
    tricks: tuple[int, ...]  # tricks won per seat
    points: tuple[int, ...]  # points scored per seat
    made: bool  # the bidder won the tricks the bid promised


class Trick(NamedTuple):
    """A finished trick: who led, the tiles in the order played, who won it."""

    leader: int
    tiles: tuple[Tile, ...]
    winner: int


class MoonInfo(NamedTuple):
    """The facts that change only between hands."""

    players: int
    seed: int | None
    options: Options
    round: int  # the hand being played (a redeal keeps it)
    chance: bool
    over: bool
    scores: tuple[int, ...]
    records: tuple[HandRecord, ...]
    winners: tuple[int, ...]
    first_bidder: int | None  # MN-8: who spoke first in the latest deal
    redeal: bool  # MN-10: everyone passed; the next deal replays the hand


class MoonState(NamedTuple):
    """A Moon position. Hands are tile bitmasks (`core.tiles`); `hands` reads them. A named tuple,
    built with `tuple.__new__` on the hot path, carrying its legal moves (see ChickenFootState)."""

    info: MoonInfo
    to_move: int | None
    phase: str
    hand_masks: tuple[int, ...]
    stock: tuple[Tile, ...]  # the widow until taken, then nothing, then the discard
    widow: Tile | None  # the tile dealt as the widow (known to the bidder once taken)
    bids: tuple[tuple[int, int], ...]  # (seat, amount) in speaking order; 0 is a pass
    bidder: int | None
    bid: int
    trump: TrumpSuit | None
    leader: int | None  # who led the trick in progress
    trick: tuple[Tile, ...]  # the trick in progress, in the order played
    tricks: tuple[Trick, ...]  # this hand's finished tricks
    taken: tuple[int, ...]  # tricks won per seat this hand
    legal: tuple[Move, ...]

    game = "moon"
    players, seed, options, round, chance, over, scores, winners = info_properties()
    records = property(attrgetter("info.records"))

    hands = hands_property()

    @property
    def round_scores(self) -> tuple[tuple[int, ...], ...]:
        """Points per seat of each scored hand."""
        return tuple(record.points for record in self.info.records)

    @property
    def discard(self) -> Tile | None:
        """MN-11: the bidder's discard, once laid aside (the bidder alone may see it)."""
        return self.stock[0] if self.bidder is not None and self.stock else None


@dataclass(frozen=True, slots=True)
class MoonView:
    """What one seat may know: its own hand, the bidding, the tricks; the widow and the discard
    only for the bidder, once taken; never another seat's tiles."""

    seat: int
    players: int
    options: Options
    round: int
    chance: bool
    over: bool
    phase: str
    to_move: int | None
    hand: tuple[Tile, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int  # the widow or the discard, face down (0 while the bidder holds the widow)
    first_bidder: int | None
    bids: tuple[tuple[int, int], ...]
    bidder: int | None
    bid: int
    trump: TrumpSuit | None
    widow: Tile | None  # the bidder's own view only
    discard: Tile | None  # the bidder's own view only
    leader: int | None
    trick: tuple[Tile, ...]
    tricks: tuple[Trick, ...]
    taken: tuple[int, ...]
    scores: tuple[int, ...]
    records: tuple[HandRecord, ...]
    winners: tuple[int, ...]
    redeal: bool

    game: ClassVar[str] = "moon"

    @property
    def round_scores(self) -> tuple[tuple[int, ...], ...]:
        return tuple(record.points for record in self.records)


# -- legal moves -------------------------------------------------------------------------------------


def bid_moves(bids: tuple[tuple[int, int], ...], all_pass: Any) -> tuple[Move, ...]:
    """MN-9: pass, or bid higher than the highest bid so far; MN-10 (`force`): the last to speak
    after two passes must bid."""
    highest = max((amount for _, amount in bids), default=0)
    raises = tuple(BIDS[amount] for amount in BID_AMOUNTS if amount > highest)
    if all_pass == "force" and len(bids) == PLAYERS - 1 and highest == 0:
        return raises
    return (PASS_BID, *raises)


def trump_moves(options: Options) -> tuple[Move, ...]:
    """MN-12: a number, doubles (if the table allows them) or no trump."""
    if options["doubles_trump"]:
        return tuple(TRUMPS[choice] for choice in TRUMP_CHOICES)
    return tuple(TRUMPS[choice] for choice in TRUMP_CHOICES if choice != DOUBLES)


def follow_moves(held: int, trump: TrumpSuit, trick: tuple[Tile, ...]) -> tuple[Move, ...]:
    """MN-15: follow the suit led if able, else play anything; the lead is free."""
    if not trick:
        return per_bit(held, PLAY_BY_BIT)
    table = TABLES[trump]
    following = held & table.follow[table.led[TILE_BIT[trick[0]]]]
    return per_bit(following or held, PLAY_BY_BIT)


def game_winner(scores: tuple[int, ...], target: int) -> int | None:
    """MN-20: the one player alone on the highest score, if it reaches the target."""
    best = max(scores)
    if best < target or scores.count(best) > 1:
        return None
    return scores.index(best)


class Moon(Game):
    name = "moon"
    title = "Three-player Moon"
    rule_prefix = "MN"
    min_players = PLAYERS
    max_players = PLAYERS
    option_specs = OPTION_SPECS

    # -- setting up ------------------------------------------------------------------------------
    def new_game(self, players: int, options: Mapping[str, Any] | None = None, seed: int | None = None) -> MoonState:
        players = self.check_players(players)
        resolved = self.resolve_options(players, options)
        info = MoonInfo(players, seed, resolved, 0, True, False, (0,) * players, (), (), None, False)
        return MoonState(
            info, None, DEALING, (0,) * players, (), None, (), None, 0, None, None, (), (), (0,) * players, ()
        )

    def deal(self, state: MoonState, rng: random.Random) -> Deal:
        """MN-2: seven tiles each and the widow; MN-8: the first bidder."""
        info = state.info
        if not info.chance or info.over:
            raise IllegalMove("MN-0", "no deal is due now")
        hands, widow = deal_hands(MOON_SET, PLAYERS, HAND_SIZE, rng)  # the one tile left is the widow
        # MN-8: chance picks the first hand's first bidder; each later deal moves one seat left.
        first = rng.randrange(PLAYERS) if info.round == 0 else (info.first_bidder + 1) % PLAYERS  # type: ignore[operator]
        return Deal(hands, widow, first)

    # -- the rules -------------------------------------------------------------------------------
    def legal_moves(self, state: MoonState) -> tuple[Move, ...]:
        return state.legal

    def apply(self, state: MoonState, move: Move) -> MoonState:
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
        if kind is Play:
            return self._apply_play(state, move)  # type: ignore[arg-type]
        if kind is Bid:
            return self._apply_bid(state, move)  # type: ignore[arg-type]
        if kind is Discard:
            return self._apply_discard(state, move)  # type: ignore[arg-type]
        return self._apply_trump(state, move)  # type: ignore[arg-type]

    def _apply_deal(self, state: MoonState, deal: Deal) -> MoonState:
        """A deal may come from a damaged or hostile save: check all of it."""
        info = state.info
        hands = deal.hands
        if (
            not isinstance(hands, tuple)
            or len(hands) != PLAYERS
            or any(not isinstance(hand, tuple) or len(hand) != HAND_SIZE for hand in hands)
        ):
            raise IllegalMove("MN-2", f"each of the {PLAYERS} players is dealt {HAND_SIZE} tiles")
        if not isinstance(deal.stock, tuple) or len(deal.stock) != 1:
            raise IllegalMove("MN-2", "exactly one tile, the widow, is left face down")
        masks = deal_masks(hands, deal.stock, MOON_MASK)
        if masks is None:
            raise IllegalMove("MN-1", "a deal must hold each of the 22 Moon tiles once (no 0-1 to 0-6)")
        first = deal.first
        if type(first) is not int or not 0 <= first < PLAYERS:
            raise IllegalMove("MN-8", "a deal must say who bids first")
        if info.round > 0 and first != (info.first_bidder + 1) % PLAYERS:  # type: ignore[operator]
            raise IllegalMove("MN-8", "the first bidder moves one seat to the left with every deal")
        if deal.search_start is not None:
            raise IllegalMove("MN-8", "a Moon deal has no search for a starting double")
        # MN-10/MN-20: a redeal after all passed replays the same hand; it is not a new one.
        round_number = info.round if info.redeal else info.round + 1
        new_info = MoonInfo(
            info.players,
            info.seed,
            info.options,
            round_number,
            False,
            False,
            info.scores,
            info.records,
            (),
            first,
            False,
        )
        legal = bid_moves((), info.options["all_pass"])
        widow = deal.stock[0]
        return MoonState(
            new_info, first, BIDDING, masks, (widow,), widow, (), None, 0, None, None, (), (), (0,) * PLAYERS, legal
        )

    def _apply_bid(self, state: MoonState, move: Bid) -> MoonState:
        seat: int = state.to_move  # type: ignore[assignment]
        bids = (*state.bids, (seat, move.amount))
        info = state.info
        if move.amount != MOON and len(bids) < PLAYERS:
            next_seat = (seat + 1) % PLAYERS  # MN-8: bidding goes left
            legal = bid_moves(bids, info.options["all_pass"])
            return state._replace(to_move=next_seat, bids=bids, legal=legal)
        # MN-9: the bidding is over (everyone has spoken, or 21 ended it at once).
        bidder, amount = max(bids, key=lambda entry: entry[1])
        if amount == 0:
            # MN-10: all three passed: the tiles are reshuffled and dealt again.
            new_info = info._replace(chance=True, redeal=True)
            return state._replace(info=new_info, to_move=None, phase=DEALING, bids=bids, legal=())
        # MN-11: the bidder takes the widow into hand.
        masks = list(state.hand_masks)
        masks[bidder] |= TILE_BIT[state.widow]  # type: ignore[index]
        legal = per_bit(masks[bidder], DISCARD_BY_BIT)
        return state._replace(
            to_move=bidder, phase=DISCARDING, hand_masks=tuple(masks), stock=(), bids=bids, bidder=bidder, bid=amount,
            legal=legal,
        )  # fmt: skip

    def _apply_discard(self, state: MoonState, move: Discard) -> MoonState:
        # MN-11: one tile laid aside face down, perhaps the widow itself; MN-12: now name trump.
        bidder: int = state.to_move  # type: ignore[assignment]
        masks = list(state.hand_masks)
        masks[bidder] ^= TILE_BIT[move.tile]
        legal = trump_moves(state.info.options)
        return state._replace(phase=NAMING, hand_masks=tuple(masks), stock=(move.tile,), legal=legal)

    def _apply_trump(self, state: MoonState, move: Trump) -> MoonState:
        # MN-13: the bidder leads the first trick.
        bidder: int = state.to_move  # type: ignore[assignment]
        legal = per_bit(state.hand_masks[bidder], PLAY_BY_BIT)
        return state._replace(phase=PLAYING, trump=move.suit, leader=bidder, legal=legal)

    def _apply_play(self, state: MoonState, move: Play) -> MoonState:
        seat: int = state.to_move  # type: ignore[assignment]
        tile = move.tile
        masks = list(state.hand_masks)  # replace_hand, inlined on this hot path
        masks[seat] ^= move.bit
        masks = tuple(masks)  # type: ignore[assignment]
        trick = (*state.trick, tile)
        table = TABLES[state.trump]  # type: ignore[index]
        if len(trick) < PLAYERS:
            next_seat = seat + 1 if seat < PLAYERS - 1 else 0  # MN-13: play goes left
            held = masks[next_seat]
            following = held & table.follow[table.led[TILE_BIT[trick[0]]]]  # MN-15
            legal = per_bit(following or held, PLAY_BY_BIT)
            return _new(
                MoonState,
                (
                    state.info, next_seat, PLAYING, masks, state.stock, state.widow, state.bids, state.bidder,
                    state.bid, state.trump, state.leader, trick, state.tricks, state.taken, legal,
                ),
            )  # fmt: skip
        # MN-16: the highest trump wins, else the highest tile of the suit led.
        strength = table.power[table.led[TILE_BIT[trick[0]]]]
        best, offset = strength[TILE_BIT[trick[0]]], 0
        second = strength[TILE_BIT[trick[1]]]
        if second > best:
            best, offset = second, 1
        if strength[TILE_BIT[tile]] > best:
            offset = 2
        leader: int = state.leader  # type: ignore[assignment]
        winner = (leader + offset) % PLAYERS
        taken = list(state.taken)
        taken[winner] += 1
        taken = tuple(taken)  # type: ignore[assignment]
        tricks = (*state.tricks, _new(Trick, (leader, trick, winner)))
        if len(tricks) == TRICKS:
            return self._end_hand(state, masks, tricks, taken)  # type: ignore[arg-type]
        # MN-13: the winner of a trick leads the next.
        return _new(
            MoonState,
            (
                state.info, winner, PLAYING, masks, state.stock, state.widow, state.bids, state.bidder, state.bid,
                state.trump, winner, (), tricks, taken, per_bit(masks[winner], PLAY_BY_BIT),
            ),
        )  # fmt: skip

    def _end_hand(
        self, state: MoonState, masks: tuple[int, ...], tricks: tuple[Trick, ...], taken: tuple[int, ...]
    ) -> MoonState:
        info = state.info
        bidder: int = state.bidder  # type: ignore[assignment]
        bid = state.bid
        # MN-17: the bidder scores the bid if the tricks it promises were won (21 promises all
        # seven), else loses it; MN-18: the others score a point a trick either way.
        made = taken[bidder] >= (TRICKS if bid == MOON else bid)
        points = tuple((bid if made else -bid) if seat == bidder else taken[seat] for seat in range(PLAYERS))
        scores = tuple(total + gained for total, gained in zip(info.scores, points, strict=True))
        record = HandRecord(info.round, bidder, bid, state.trump, taken, points, made)  # type: ignore[arg-type]
        if bid == MOON and made:
            winner: int | None = bidder  # MN-19: a 21 made wins the game at once
        else:
            winner = game_winner(scores, info.options["target"])  # type: ignore[arg-type]  # MN-20
        over = winner is not None
        new_info = MoonInfo(
            info.players,
            info.seed,
            info.options,
            info.round,
            not over,
            over,
            scores,
            (*info.records, record),
            (winner,) if over else (),  # type: ignore[arg-type]
            info.first_bidder,
            False,
        )
        return MoonState(
            new_info, None, OVER if over else DEALING, masks, state.stock, state.widow, state.bids, bidder, bid,
            state.trump, None, (), tricks, taken, (),
        )  # fmt: skip

    # -- explaining what is not allowed ------------------------------------------------------------
    def _explain(self, state: MoonState, move: Move) -> IllegalMove:
        """The rule a move breaks, in words a learner understands."""
        info = state.info
        if info.over:
            return IllegalMove("MN-20", "the game is over")
        if info.chance:
            if info.redeal:
                return IllegalMove("MN-10", "everyone passed: the tiles are being dealt again")
            return IllegalMove("MN-2", "the tiles are being dealt; wait for the deal")
        if type(move) is Deal:
            return IllegalMove("MN-0", "tiles are dealt only at the start of a hand")
        phase = state.phase
        seat: int = state.to_move  # type: ignore[assignment]
        held = state.hand_masks[seat]
        kind = type(move)
        if phase == BIDDING:
            if kind is not Bid:
                return IllegalMove("MN-0", "it is the bidding: bid 4, 5, 6, 7 or 21, or pass")
            amount = move.amount  # type: ignore[attr-defined]
            if amount == 0:
                return IllegalMove("MN-10", "the other two passed, so you must bid at least 4")
            if amount not in BID_AMOUNTS:
                return IllegalMove("MN-9", "bids are 4, 5, 6 or 7 tricks, or 21 for all seven; 0 passes")
            highest = max((bid for _, bid in state.bids), default=0)
            allowed = ", ".join(str(bid) for bid in BID_AMOUNTS if bid > highest)
            return IllegalMove("MN-9", f"a bid must beat the highest so far, {highest}: bid {allowed}, or pass")
        if kind is Bid:
            return IllegalMove("MN-9", "there is one round of bidding, and it is over")
        if phase == DISCARDING:
            if kind is Discard:
                return IllegalMove("MN-0", f"the {move.tile} is not in your hand")  # type: ignore[attr-defined]
            return IllegalMove("MN-11", "take the widow and lay one tile aside first (it may be the widow)")
        if kind is Discard:
            return IllegalMove("MN-11", "the discard is already laid aside")
        if phase == NAMING:
            if kind is Trump:
                if move.suit == DOUBLES:  # type: ignore[attr-defined]
                    return IllegalMove("MN-12", "doubles may not be trump at this table (option doubles_trump)")
                return IllegalMove("MN-12", "trump is a number from 0 to 6, doubles, or none")
            return IllegalMove("MN-12", "name trump before the first trick")
        if kind is Trump:
            return IllegalMove("MN-12", f"trump is already named: {trump_name(state.trump)}")  # type: ignore[arg-type]
        if kind is not Play:
            return IllegalMove("MN-0", "play a tile into the trick")
        tile = move.tile  # type: ignore[attr-defined]
        if move.target is not None:  # type: ignore[attr-defined]
            return IllegalMove("MN-0", "in Moon a tile goes into the trick, not onto an end of a line")
        if type(tile) is not Tile or not held & TILE_BIT.get(tile, 0):
            return IllegalMove("MN-0", f"the {tile} is not in your hand")
        return self._explain_follow(state, tile, held)

    def _explain_follow(self, state: MoonState, tile: Tile, held: int) -> IllegalMove:
        """MN-15, with what made the tile not a follower (MN-5, MN-14)."""
        trump: TrumpSuit = state.trump  # type: ignore[assignment]
        table = TABLES[trump]
        suit = table.led[TILE_BIT[state.trick[0]]]
        followers = [f"the {t}" for t in tiles_in(held & table.follow[suit])]
        shown = listing(followers) if len(followers) <= 2 else f"{', '.join(followers[:2])} and more"
        if suit == TRUMP:
            return IllegalMove("MN-15", f"a trump was led and you hold {shown}; you must follow with a trump")
        why = ""
        if table.led[TILE_BIT[tile]] == TRUMP and suit in tile:
            why = f" (the {tile} is a trump, not {article(str(suit))})"
        return IllegalMove("MN-15", f"{article(str(suit))} was led and you hold {shown}; you must follow suit{why}")

    # -- words -------------------------------------------------------------------------------------
    def describe_move(
        self, state: MoonState, move: Move, names: tuple[str, ...] | None = None, viewer: int | None = None
    ) -> str:
        if type(move) is Deal:
            first = _name(names, move.first)  # type: ignore[arg-type]
            if state.info.redeal:
                return f"Everyone passed: the tiles are dealt again; {first} to bid first"
            return f"Hand {state.info.round + 1}: {first} to bid first"
        who = _name(names, state.to_move)  # type: ignore[arg-type]
        if type(move) is Bid:
            if move.amount == 0:
                return f"{who} passed"
            return f"{who} bid 21, for all seven tricks" if move.amount == MOON else f"{who} bid {move.amount}"
        if type(move) is Discard:
            return f"{who} took the widow and laid a tile aside"  # the discard stays hidden (MN-11)
        if type(move) is Trump:
            return f"{who} named {trump_name(move.suit)} trump" if move.suit != NO_TRUMP else f"{who} chose no trump"
        if type(move) is Play:
            trump: TrumpSuit = state.trump  # type: ignore[assignment]
            if not state.trick:
                return f"{who} led {move.tile}"
            led = led_suit(state.trick[0], trump)
            shown = move.tile
            if len(state.trick) == PLAYERS - 1:
                offset = trick_winner((*state.trick, move.tile), trump)
                winner = _name(names, (state.leader + offset) % PLAYERS)  # type: ignore[operator]
                return f"{who} played {shown}; {winner} won the trick"
            return f"{who} played {shown} to the {suit_name(led)} lead"
        return f"{who}: {move}"

    # -- what a seat may see -----------------------------------------------------------------------
    def view(self, state: MoonState, seat: int) -> MoonView:
        info = state.info
        if type(seat) is not int or not 0 <= seat < info.players:
            raise ValueError(f"there is no seat {seat!r} at a {info.players}-player table")
        bidder = seat == state.bidder
        return MoonView(
            seat,
            info.players,
            info.options,
            info.round,
            info.chance,
            info.over,
            state.phase,
            state.to_move,
            tiles_in(state.hand_masks[seat]),
            tuple(mask.bit_count() for mask in state.hand_masks),
            len(state.stock),
            info.first_bidder,
            state.bids,
            state.bidder,
            state.bid,
            state.trump,
            state.widow if bidder else None,
            state.discard if bidder else None,
            state.leader,
            state.trick,
            state.tricks,
            state.taken,
            info.scores,
            info.records,
            info.winners,
            info.redeal,
        )

    def determinize(self, view: MoonView, rng: random.Random) -> MoonState:
        """A full state that gives `view` to its seat: the unseen tiles placed at random among the
        other hands and the face-down tile, never in a hand that showed it lacks their suit."""
        info = MoonInfo(
            view.players,
            None,
            view.options,
            view.round,
            view.chance,
            view.over,
            view.scores,
            view.records,
            view.winners,
            view.first_bidder,
            view.redeal,
        )
        if view.round == 0:
            return self.new_game(view.players, view.options)._replace(info=info)
        seen = mask_of(view.hand)
        for trick in view.tricks:
            seen |= mask_of(trick.tiles)
        seen |= mask_of(view.trick)
        known_stock = view.discard is not None
        if known_stock:
            seen |= TILE_BIT[view.discard]  # type: ignore[index]
        sizes = {seat: size for seat, size in enumerate(view.hand_sizes) if seat != view.seat}
        hands, face_down = deal_unseen(tiles_in(MOON_MASK & ~seen), sizes, void_masks(view), rng)
        masks = [mask_of(hands.get(seat, ())) for seat in range(view.players)]
        masks[view.seat] = mask_of(view.hand)
        # What is left is the face-down tile: the widow, or the discard the seat cannot see.
        stock = (view.discard,) if known_stock else tuple(face_down)
        if view.phase == BIDDING or view.bidder is None:
            widow = stock[0] if stock else None
        elif view.widow is not None:
            widow = view.widow
        elif stock:
            widow = stock[0]  # laying the widow itself aside is allowed (MN-11), so this is consistent
        else:
            widow = tiles_in(masks[view.bidder])[0]  # the bidder holds it, among its eight
        legal: tuple[Move, ...] = ()
        if view.to_move is not None:
            held = masks[view.to_move]
            if view.phase == BIDDING:
                legal = bid_moves(view.bids, view.options["all_pass"])
            elif view.phase == DISCARDING:
                legal = per_bit(held, DISCARD_BY_BIT)
            elif view.phase == NAMING:
                legal = trump_moves(view.options)
            else:
                legal = follow_moves(held, view.trump, view.trick)  # type: ignore[arg-type]
        return MoonState(
            info,
            view.to_move,
            view.phase,
            tuple(masks),
            stock,  # type: ignore[arg-type]
            widow,
            view.bids,
            view.bidder,
            view.bid,
            view.trump,
            view.leader,
            view.trick,
            view.tricks,
            view.taken,
            legal,
        )


def void_masks(view: MoonView) -> dict[int, int]:
    """Per seat, the tiles it cannot hold: a player who did not follow the suit led had none of it
    (MN-15), and hands only shrink."""
    voids: dict[int, int] = {}
    if view.trump is None:
        return voids
    table = TABLES[view.trump]
    tricks = [(trick.leader, trick.tiles) for trick in view.tricks]
    if view.trick:
        tricks.append((view.leader, view.trick))  # type: ignore[arg-type]
    for leader, tiles in tricks:
        following = table.follow[table.led[TILE_BIT[tiles[0]]]]
        for offset, tile in enumerate(tiles[1:], start=1):
            if not TILE_BIT[tile] & following:
                seat = (leader + offset) % PLAYERS
                voids[seat] = voids.get(seat, 0) | following
    return voids


def _name(names: tuple[str, ...] | None, seat: int) -> str:
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return f"Seat {seat + 1}"


GAME = Moon()
