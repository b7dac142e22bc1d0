"""Damaged and hostile files: each one raises SaveError with one sentence, and nothing else.

Together these tests feed the loader well over 2,000 bad files: every single-bit flip and every
truncation of a small save (about 3,000 and 400), random bytes, valid msgpack of the wrong shape,
enormous declared lengths, deep nesting, extension types, and valid envelopes around illegal events.
"""

from __future__ import annotations

import random
import struct
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import GAME_NAMES, IllegalMove, get_game
from core.moves import Move
from saves.codec import decode, encode
from saves.errors import SaveError
from saves.format import MAGIC, MAX_DEPTH, MAX_EVENTS, MAX_FILE_SIZE, pack_body, wrap
from saves.migrations import FORMAT_VERSION
from tests.saves.builders import body_dict, file_with_body, random_match, record_of, small_match

SMALL = encode(record_of(small_match()))
CHECKSUM_MISMATCH = "the file is damaged (checksum mismatch)"
HOSTILE = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def refused(data: bytes) -> SaveError:
    """Load `data`, which must fail with a one-line SaveError from a check (not the last-resort catch)."""
    with pytest.raises(SaveError) as caught:
        decode(data)
    error = caught.value
    assert "\n" not in str(error) and error.reason
    assert "could not be read" not in error.reason, f"no check caught this file: {error.reason}"
    return error


def test_the_small_save_loads():
    assert decode(SMALL).match == small_match()
    assert len(SMALL) < 600  # small enough that every bit and every length below is tried


def test_every_single_bit_flip_is_refused():
    for position in range(len(SMALL)):
        for bit in range(8):
            damaged = bytearray(SMALL)
            damaged[position] ^= 1 << bit
            reason = refused(bytes(damaged)).reason
            if position < len(MAGIC):
                assert "not a dominoes save file" in reason
            else:
                assert reason == CHECKSUM_MISMATCH


def test_every_truncation_is_refused():
    for length in range(len(SMALL)):
        reason = refused(SMALL[:length]).reason
        assert reason in ("the file is empty", "the file is damaged (cut short)", CHECKSUM_MISMATCH)


@HOSTILE
@given(st.binary(max_size=2000))
def test_random_bytes_are_refused(data):
    refused(data)


@HOSTILE
@given(st.binary(max_size=2000))
def test_random_bytes_after_the_magic_are_refused(tail):
    refused(MAGIC + tail)


@HOSTILE
@given(st.binary(max_size=2000))
def test_a_valid_envelope_around_random_bytes_is_refused(body):
    refused(wrap(body, FORMAT_VERSION))


plain = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=30,
)


@HOSTILE
@given(plain)
def test_valid_msgpack_of_the_wrong_shape_is_refused(value):
    refused(file_with_body(value))


@HOSTILE
@given(st.sampled_from(sorted(body_dict(small_match()))), plain)
def test_any_field_replaced_by_any_value_loads_or_is_refused(field, value):
    """Some replacements are valid (another seed, another id, no options: the defaults); the rest
    must be refused with a SaveError, never another exception."""
    body = body_dict(small_match())
    body[field] = value
    data = file_with_body(body)
    try:
        record = decode(data)
    except SaveError:
        refused(data)
        return
    assert encode(record) == file_with_body(
        body_dict(record.match, record.match_id)
        | {
            "created": record.created,
            "updated": record.updated,
        }
    )


WRONG_FIELDS: list[tuple[str, Any, str]] = [
    ("match", "Has Capitals", "not a match id"),
    ("match", "", "not a match id"),
    ("game", "mahjong", "names no game"),
    ("game", ["chicken-foot"], "names no game"),
    ("players", 1, "must list 1 seat, one per player"),
    ("players", 99, "whole number from 1 to 64"),
    ("players", True, "'players'"),
    ("seed", "7", "'seed'"),
    ("options", {"rounds": 11}, "option rounds"),
    ("options", {"speed": 3}, "unknown option 'speed'"),
    ("options", [1, 2], "'options'"),
    ("seats", [["Ana", "human", None]], "must list 2 seats"),
    ("seats", [["Ana", "human", None], ["Bo", "alien", None]], "neither 'human' nor 'bot'"),
    ("seats", [["Ana", "human", None], ["Bo", "bot", "genius"]], "level this version does not know"),
    ("seats", [["Ana", "human", "easy"], ["Bo", "human", None]], "a human with a bot level"),
    ("seats", [["Ana\x1b[2J", "human", None], ["Bo", "human", None]], "printable characters"),
    ("seats", [["", "human", None], ["Bo", "human", None]], "printable characters"),
    ("seats", [["A" * 65, "human", None], ["Bo", "human", None]], "printable characters"),
    ("seats", [["Ana", "human"], ["Bo", "human", None]], "[name, kind, level]"),
    ("events", {"0": ["draw"]}, "'events' field is not a list"),
    ("cursor", -1, "'cursor'"),
    ("cursor", 10_000, "'cursor'"),
    ("created", -5, "'created'"),
    ("updated", 2**40, "'updated'"),
]


@pytest.mark.parametrize(("field", "value", "fragment"), WRONG_FIELDS)
def test_a_wrong_field_is_named(field, value, fragment):
    body = body_dict(small_match())
    body[field] = value
    assert fragment in refused(file_with_body(body)).reason


def test_a_player_count_the_game_does_not_take_is_named():
    body = body_dict(small_match())
    body["players"], body["seats"] = 1, body["seats"][:1]
    assert refused(file_with_body(body)).reason == (
        "the file's match settings are not valid: Chicken Foot takes 2 to 8 players, not 1"
    )


def test_missing_and_unknown_fields_are_named():
    body = body_dict(small_match())
    del body["seats"]
    assert refused(file_with_body(body)).reason == "the file's body has no 'seats' field"
    body = body_dict(small_match())
    body["cheat"] = True
    assert refused(file_with_body(body)).reason == "the file's body has an unknown field 'cheat'"


HUGE = [
    b"\xdd\xff\xff\xff\xff",  # array 32 declaring 4 billion items
    b"\xdc\xff\xff",  # array 16, 65535 items, none present
    b"\xdf\xff\xff\xff\xff",  # map 32
    b"\xde\xff\xff",  # map 16
    b"\xdb\xff\xff\xff\xff",  # str 32
    b"\xda\xff\xff",  # str 16
    b"\xd9\xff",  # str 8
    b"\xc6\xff\xff\xff\xff",  # bin 32
    b"\xc5\xff\xff",  # bin 16
    b"\xc4\xff",  # bin 8
    b"\xc9\xff\xff\xff\xff\x01",  # ext 32
    b"\xc8\xff\xff\x01",  # ext 16
    b"\xc7\xff\x01",  # ext 8
]


@pytest.mark.parametrize("declared", HUGE)
@pytest.mark.parametrize("where", ["body", "events", "event", "seat name"])
def test_enormous_declared_lengths_are_refused_at_once(declared, where):
    # Each declared length sits where the decoder meets it first; nothing after it is present.
    prefix = {
        "body": b"",
        "events": b"\x81\xa6events",
        "event": b"\x81\xa6events\x91",
        "seat name": b"\x81\xa5seats\x91\x93",
    }[where]
    refused(file_with_body_bytes(prefix + declared))
    refused(file_with_body_bytes(prefix + declared + b"\x00" * 64))


def test_more_events_than_the_limit_are_refused():
    body = b"\x81\xa6events\xdd" + struct.pack(">I", MAX_EVENTS + 1) + b"\x91\xa4draw" * (MAX_EVENTS + 1)
    assert len(body) < MAX_FILE_SIZE
    assert "exceeds max_array_len" in refused(file_with_body_bytes(body)).reason


def test_a_file_over_the_size_cap_is_refused_before_anything_else():
    assert "too large" in refused(SMALL + b"\x00" * MAX_FILE_SIZE).reason
    assert "too large" in refused(b"\x00" * (MAX_FILE_SIZE + 1)).reason


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 50, 1000, 5000, 100_000, 1_000_000])
@pytest.mark.parametrize("opener", [b"\x91", b"\x81\xa1k", b"\xdc\x00\x01"])
def test_deep_nesting_is_refused_without_exhausting_the_stack(depth, opener):
    refused(file_with_body_bytes(opener * depth + b"\xc0"))


def test_nesting_as_deep_as_a_save_goes_is_only_refused_for_its_shape():
    reason = refused(file_with_body_bytes(b"\x91" * MAX_DEPTH + b"\xc0")).reason
    assert reason == "the file's body is a list, not a map"


EXTENSIONS = [
    b"\xd4\x05\x00",  # fixext 1
    b"\xd5\x05\x00\x00",  # fixext 2
    b"\xd6\x05" + b"\x00" * 4,  # fixext 4
    b"\xd7\x05" + b"\x00" * 8,  # fixext 8
    b"\xd8\x05" + b"\x00" * 16,  # fixext 16
    b"\xc7\x03\x05abc",  # ext 8
    b"\xd6\xff" + b"\x00" * 4,  # the timestamp extension, 32-bit
    b"\xd7\xff" + b"\x00" * 8,  # timestamp 64
    b"\xc7\x0c\xff" + b"\x00" * 12,  # timestamp 96
    b"\xcb" + struct.pack(">d", 1.5),  # a float: no field of a save is one
    b"\xca" + struct.pack(">f", 1.5),  # a 32-bit float
    b"\xc4\x03abc",  # a binary string
    b"\xc1",  # the one byte msgpack never uses
]


@pytest.mark.parametrize("value", EXTENSIONS)
@pytest.mark.parametrize("where", ["body", "events", "event", "option", "map key"])
def test_extension_types_floats_and_binary_are_refused(value, where):
    prefix = {
        "body": b"",
        "events": b"\x81\xa6events\x91",
        "event": b"\x81\xa6events\x91\x92\xa4play",
        "option": b"\x81\xa7options\x81\xa6rounds",
        "map key": b"\x81",
    }[where]
    suffix = b"\xc0" if where == "map key" else b""
    refused(file_with_body_bytes(prefix + value + suffix))


def test_integer_map_keys_and_bad_utf8_are_refused():
    assert "not allowed for map key" in refused(file_with_body_bytes(b"\x81\x01\x02")).reason
    assert "UTF-8" in refused(file_with_body_bytes(b"\x81\xa1\xff\x02")).reason
    assert refused(file_with_body_bytes(msgpack.packb({}) + b"\xc0")).reason.endswith("(extra bytes after the body)")


def file_with_body_bytes(body: bytes) -> bytes:
    return wrap(body, FORMAT_VERSION)


# -- valid envelopes around events the rules forbid --------------------------------------------------


def candidate_events(rng: random.Random) -> list[Any]:
    """Plain-data events of every kind, most of them illegal wherever they land."""
    tile = 10 * rng.randint(0, 9) + rng.randint(0, 9)
    return [
        ["play", tile, rng.choice([None, rng.randint(0, 30)])],
        ["draw"],
        ["pass"],
        ["bid", rng.choice([0, 4, 5, 7, 21, 99])],
        ["discard", tile],
        ["trump", rng.choice([0, 3, 6, "doubles", "none"])],
        ["deal", [[tile]] * rng.randint(1, 8), [], rng.randint(0, 7), None],
    ]


@pytest.mark.parametrize("game_name", GAME_NAMES)
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_an_illegal_event_is_named_with_its_rule(game_name, seed):
    rng = random.Random(seed)
    match = random_match(game_name, rng, max_events=120)
    if not match.events:
        return
    game = get_game(game_name)
    index = rng.randrange(len(match.events))
    state = match.state_at(index)
    for data in rng.sample(candidate_events(rng), 7):
        try:
            game.apply(state, Move.from_data(data))
        except IllegalMove:
            break
    else:
        return  # every candidate happened to be legal here
    body = body_dict(match)
    body["events"][index] = data
    reason = refused(file_with_body(body)).reason
    assert reason.startswith(f"event {index + 1} (")
    assert f") is not legal: {game.rule_prefix}-" in reason


def test_the_example_in_the_issue():
    """A play on a chicken foot's unfinished toes elsewhere is refused with CF-10, by event number."""
    match = small_match(decisions=0)
    state = match.state
    legal = match.legal_moves()
    body = body_dict(match)
    # A tile of the player to move, played on the centre's first train: at the opening only the next
    # new train is open, so anything aimed at the wrong end is named by its rule.
    held = state.hands[state.to_move]
    wrong = next(t for t in held if all(move.tile is not t for move in legal if hasattr(move, "tile")))
    body["events"].append(["play", wrong.to_data(), 0])
    reason = refused(file_with_body(body)).reason
    assert reason.startswith(f"event 2 (Seat {state.to_move + 1} played {wrong} on train 1) is not legal: CF-")


def test_events_that_are_not_moves_are_named():
    match = small_match()
    for bad, fragment in [
        (["fly"], "unknown move kind 'fly'"),
        ([], "a move is a list"),
        (5, "a move is a list"),
        (["play"], "has 2 field(s)"),
        (["play", 100, 0], "a tile is a number from 0 to 99"),
        (["play", 55, -1], "end number"),
        (["deal", [], [], None, None], "one entry per seat"),
    ]:
        body = body_dict(match)
        body["events"].insert(1, bad)
        reason = refused(file_with_body(body)).reason
        assert reason.startswith("event 2 is not a move: ") and fragment in reason


@pytest.mark.parametrize("game_name", GAME_NAMES)
def test_events_after_the_end_of_the_match_are_refused(game_name):
    match = random_match(game_name, random.Random(3), max_events=100_000, finish=True)
    match.cursor = len(match.events)
    assert match.state.over
    body = body_dict(match)
    body["events"].append(body["events"][-1])
    reason = refused(file_with_body(body)).reason
    assert reason.startswith(f"event {len(match.events) + 1} (") and "is not legal" in reason


def test_a_deal_that_breaks_the_rules_is_refused():
    match = small_match(decisions=0)
    body = body_dict(match)
    deal = body["events"][0]
    deal[1][0][0], deal[1][1][0] = deal[1][1][0], deal[1][1][0]  # one tile twice, another gone
    assert "is not legal: CF-1" in refused(file_with_body(body)).reason


def test_an_unknown_game_in_a_valid_body_names_it():
    body = body_dict(small_match())
    body["game"] = "\x1b[31mred"
    reason = refused(file_with_body(body)).reason
    assert "\x1b" not in reason  # a hostile string is shown escaped, never sent to the terminal raw


def test_checks_run_in_order():
    """A file with several defects is refused for the first check it fails."""
    body = body_dict(small_match())
    body["events"].append(["fly"])
    newer = file_with_body(body, version=FORMAT_VERSION + 2)
    assert refused(newer).reason.startswith("written by a newer version")
    assert refused(newer[:-1] + bytes([newer[-1] ^ 1])).reason == "the file is damaged (checksum mismatch)"
    assert "too large" in refused(newer + b"\x00" * MAX_FILE_SIZE).reason
    assert "not a dominoes save" in refused(b"X" + newer[1:]).reason


def test_pack_body_is_what_the_loader_reads():
    body = body_dict(small_match())
    assert decode(wrap(pack_body(body), FORMAT_VERSION)).match == small_match()
