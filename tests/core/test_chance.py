"""Where a match's chance comes from: a chosen seed replays exactly as earlier versions dealt, a
secret deals unpredictably and the same every time, and core derives from a secret but never draws
one (it is passed in)."""

from __future__ import annotations

import ast
import hashlib
import random
from collections import Counter
from pathlib import Path

import pytest

from core import GAME_NAMES, Match, get_game
from core.chance import SECRET_BYTES, StreamRandom, commitment, deal_rng, decision_seed, derive
from core.moves import Deal

CORE = Path(__file__).resolve().parents[2] / "core"


def first_deal(match: Match) -> Deal:
    match.deal()
    return match.events[-1]


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("seed", [0, 7, -3, 999_999, 2**63 - 1, 2**100])
def test_a_chosen_seed_deals_and_seeds_bots_exactly_as_before(game, seed):
    """Deal n from random.Random(f"{seed}:deal:{n}"), a bot's decision from the SHA-256 of
    f"{seed}:bot:{seat}:{cursor}": any whole number replays the matches it always gave."""
    players = get_game(game).min_players
    match = Match(game, players, {}, None, seed)
    old = get_game(game).deal(match.state, random.Random(f"{seed}:deal:0"))
    assert first_deal(match) == old
    digest = hashlib.sha256(f"{seed}:bot:1:{match.cursor}".encode()).digest()
    assert match.decision_seed(1) == int.from_bytes(digest[:8], "big")
    assert match.seed_chosen and match.secret is None and match.commitment is None


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_secret_deals_the_same_every_time_and_another_secret_deals_otherwise(game):
    players = get_game(game).min_players
    one, two = bytes(range(32)), bytes(range(1, 33))
    deal = first_deal(Match(game, players, {}, None, None, secret=one))
    assert first_deal(Match(game, players, {}, None, None, secret=one)) == deal
    assert first_deal(Match(game, players, {}, None, None, secret=two)) != deal
    match = Match(game, players, {}, None, None, secret=one)
    assert not match.seed_chosen and match.seed is None and match.state.seed is None
    assert match.commitment == hashlib.sha256(one).hexdigest() == commitment(one)
    assert match.decision_seed(0) != match.decision_seed(1)


def test_a_secret_is_32_bytes_and_comes_instead_of_a_seed():
    with pytest.raises(ValueError, match="32 bytes"):
        Match("doubles", 2, secret=b"short")
    with pytest.raises(ValueError, match="32 bytes"):
        Match("doubles", 2, secret="0" * 32)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="a seed or from a secret, not both"):
        Match("doubles", 2, {}, None, 5, secret=bytes(32))
    with pytest.raises(ValueError, match="whole number"):
        Match("doubles", 2, {}, None, 1.5)  # type: ignore[arg-type]


def test_a_copy_without_seed_or_secret_replays_but_cannot_deal():
    """What a worker process gets: the events, never the secret."""
    dealt = Match("moon", 3, {}, None, None, secret=bytes(32))
    dealt.deal()
    blind = Match("moon", 3, {}, None, None, dealt.events)
    assert blind.state == dealt.state and blind.view(0) == dealt.view(0)
    with pytest.raises(ValueError, match="does not hold the secret"):
        blind.deal()
    with pytest.raises(ValueError, match="does not hold the secret"):
        blind.decision_seed(0)


def test_each_stream_is_its_own_and_the_same_from_its_key():
    secret = bytes(32)
    assert derive(secret, "deal:0") != derive(secret, "deal:1") != derive(secret, "bot:0:1")
    assert deal_rng(None, secret, 3).getrandbits(64) == deal_rng(None, secret, 3).getrandbits(64)
    assert deal_rng(None, secret, 3).getrandbits(64) != deal_rng(None, secret, 4).getrandbits(64)
    assert decision_seed(None, secret, 0, 5) != decision_seed(None, secret, 0, 6)


def test_a_stream_gives_bits_across_its_blocks_and_fair_shuffles():
    stream = StreamRandom(b"key")
    assert stream.getrandbits(0) == 0
    assert all(0 <= stream.getrandbits(300) < 2**300 for _ in range(20))  # more than one block at once
    assert all(0.0 <= stream.random() < 1.0 for _ in range(100))
    # Every order of three items, about equally often: the shuffle draws through getrandbits.
    orders = Counter()
    for n in range(6000):
        items = [1, 2, 3]
        StreamRandom(n.to_bytes(4, "big")).shuffle(items)
        orders[tuple(items)] += 1
    assert len(orders) == 6 and min(orders.values()) > 850
    with pytest.raises(NotImplementedError):
        stream.getstate()


def test_core_never_draws_randomness_of_its_own():
    """The secret is passed in: no module of core reads the operating system's random source."""
    for path in CORE.rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert not {alias.name for alias in node.names} & {"secrets", "os"}, path
            elif isinstance(node, ast.ImportFrom):
                assert node.module not in ("secrets", "os"), path
            elif isinstance(node, ast.Attribute):
                assert node.attr not in ("SystemRandom", "urandom", "token_bytes"), path
    assert SECRET_BYTES * 8 >= 128
