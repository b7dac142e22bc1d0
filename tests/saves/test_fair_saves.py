"""Saves of format 2 keep a match's secret, its commitment and the mark of an undo into a shown round;
a save of format 1 still loads and replays exactly; `dominoes verify` (and `saves verify`) check a
finished match's deals, and catch a tampered deal or secret; `saves` and `saves show` show the
commitment, the secret once the match is over, and the mark."""

from __future__ import annotations

import struct
import zlib

import msgpack
import pytest

from cli.main import main
from core import Match, Seat
from core.chance import commitment
from core.moves import Deal
from saves.codec import decode, encode
from saves.errors import SaveError
from saves.store import SaveStore
from saves.summary import status_text
from tests.core.harness import play_out
from tests.saves.builders import body_dict, file_with_body, record_of

SECRET = bytes(range(100, 132))


def finished(secret: bytes | None = SECRET, seed: int | None = None, game: str = "doubles") -> Match:
    """A whole match of Ana and an easy bot (Doubles to 20 points), dealt from `secret` or `seed`."""
    seats = [Seat("Ana"), Seat("Bot", "bot", "easy")]
    options = {"target": 20} if game == "doubles" else {"rounds": 1}
    match = Match(game, 2, options, seats, seed, secret=secret) if secret else Match(game, 2, options, seats, seed)
    return play_out(match, 4)


def run(capsys, *argv):
    status = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return status, out, err


def rewritten(data: bytes, change) -> bytes:
    """The save file with its body changed by `change` (and a checksum that fits again)."""
    length = data[10]
    head, body = data[: 11 + length], msgpack.unpackb(data[11 + length : -4], raw=False)
    change(body)
    whole = head + msgpack.packb(body, use_bin_type=True)
    return whole + struct.pack(">I", zlib.crc32(whole))


# -- the format ---------------------------------------------------------------------------------------
def test_a_secret_its_commitment_and_the_mark_round_trip():
    match = finished()
    match.undid_revealed_round = True
    loaded = decode(encode(record_of(match))).match
    assert loaded == match
    assert (loaded.secret, loaded.commitment, loaded.undid_revealed_round) == (SECRET, commitment(SECRET), True)
    assert loaded.seed is None and not loaded.seed_chosen
    body = body_dict(match)
    assert body["secret"] == SECRET.hex() and body["seed"] is None and body["undid_revealed_round"] is True


def test_a_save_of_format_1_loads_and_replays_identically():
    """Written as format 1 was: no secret, commitment or mark; its seed deals as it always did."""
    match = finished(secret=None, seed=123_456)
    body = body_dict(match)
    for key in ("secret", "commitment", "undid_revealed_round"):
        del body[key]
    old = decode(file_with_body(body, version=1)).match
    assert old == match and old.seed == 123_456 and old.seed_chosen and not old.undid_revealed_round
    replayed = Match("doubles", 2, match.options, match.seats, 123_456)
    while not replayed.state.over:  # the same deals from the seed, and the same moves
        if replayed.state.chance:
            replayed.deal()
        else:
            replayed.apply(match.events[replayed.cursor])
    assert replayed.events == old.events
    assert decode(encode(record_of(old))).match == old  # written again as format 2


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"secret": "ab" * 31}, "'secret' field must be 64 lowercase hex digits"),
        ({"secret": SECRET.hex().upper()}, "'secret' field must be 64 lowercase hex digits"),
        ({"secret": None, "commitment": None}, "must hold a 'seed' or a 'secret'"),
        ({"seed": 5}, "must hold a 'seed' or a 'secret', one of them and not both"),
        ({"commitment": None}, "'commitment' field goes with its 'secret'"),
        ({"undid_revealed_round": 1}, "'undid_revealed_round' field must be true or false"),
    ],
)
def test_a_damaged_secret_or_mark_is_refused_with_one_line(change, words):
    body = {**body_dict(finished()), **change}
    with pytest.raises(SaveError, match=words):
        decode(file_with_body(body))


# -- dominoes verify ----------------------------------------------------------------------------------
@pytest.fixture
def saved(tmp_path):
    store = SaveStore(tmp_path)
    store.save(record_of(finished(), "fair"))
    return store


def test_verify_checks_the_commitment_and_every_deal_of_a_finished_match(capsys, saved):
    match = saved.load("fair").record.match
    deals = sum(1 for event in match.events if type(event) is Deal)
    status, out, err = run(capsys, "verify", "fair", "--dir", saved.directory)
    assert status == 0 and err == ""
    assert out.splitlines() == [
        f"Match fair (Doubles, {status_text(match)}): the deals are fair.",
        f"  Commitment: {commitment(SECRET)} (shown at the start as {commitment(SECRET)[:16]})",
        f"  Secret:     {SECRET.hex()}",
        f"  The secret gives the commitment, and every deal ({deals}) is the one it gives.",
    ]
    assert run(capsys, "saves", "verify", "fair", "--dir", saved.directory)[1] == out
    status, out, _ = run(capsys, "verify", "fair", "--dir", saved.directory, "--shown", commitment(SECRET)[:16].upper())
    assert status == 0 and "begins with the digits you were shown" in out
    status, out, _ = run(capsys, "verify", "fair", "--dir", saved.directory, "--shown", "0123456789abcdef")
    assert status == 1 and "does not begin with the digits you were shown" in out and "do NOT check" in out
    status, out, err = run(capsys, "verify", "fair", "--dir", saved.directory, "--shown", "xyz")
    assert status == 2 and out == "" and err.count("\n") == 1 and "--shown takes the hex digits" in err


def test_verify_catches_a_tampered_deal(capsys, saved):
    path = saved.path("fair")

    def swap_undrawn_tiles(body):
        """The last two tiles of the first deal's boneyard are never drawn (DB-9): swapped, every
        event stays legal, but the deal is not the secret's."""
        deal = body["events"][0]
        deal[2][-1], deal[2][-2] = deal[2][-2], deal[2][-1]

    path.write_bytes(rewritten(path.read_bytes(), swap_undrawn_tiles))
    status, out, _ = run(capsys, "verify", "fair", "--dir", saved.directory)
    assert status == 1
    assert "the deals do NOT check" in out and "Deal 1 (event 1, round 1) is not the one the secret gives." in out


def test_verify_catches_a_tampered_secret(capsys, saved):
    path = saved.path("fair")
    other = bytes(32)

    def another_secret(body):
        body["secret"] = other.hex()

    path.write_bytes(rewritten(path.read_bytes(), another_secret))
    status, out, _ = run(capsys, "verify", "fair", "--dir", saved.directory)
    assert status == 1 and "The secret does not give the commitment shown at the start" in out

    def and_its_commitment(body):
        body["commitment"] = commitment(other)

    path.write_bytes(rewritten(path.read_bytes(), and_its_commitment))
    status, out, _ = run(capsys, "verify", "fair", "--dir", saved.directory)
    assert status == 1 and "Deal 1 (event 1, round 1) is not the one the secret gives." in out


def test_verify_of_a_save_of_format_1_checks_its_seed(capsys, tmp_path):
    body = body_dict(finished(secret=None, seed=77), "old")
    for key in ("secret", "commitment", "undid_revealed_round"):
        del body[key]
    (tmp_path / "old.dominoes").write_bytes(file_with_body(body, version=1))
    status, out, _ = run(capsys, "verify", "old", "--dir", tmp_path)
    assert status == 0 and "  Seed: 77 (practice: whoever knew it knew every deal)" in out
    assert "is the one the seed 77 gives." in out


def test_verify_waits_for_the_end_of_the_match(capsys, tmp_path):
    store = SaveStore(tmp_path)
    match = Match("moon", 3, {}, None, None, secret=SECRET)
    match.deal()
    store.save(record_of(match, "going"))
    status, out, err = run(capsys, "verify", "going", "--dir", tmp_path)
    assert status == 1 and out == "" and err.count("\n") == 1
    assert "its secret is shown, and its deals can be checked, once it is over" in err
    assert SECRET.hex() not in err


# -- saves and saves show -------------------------------------------------------------------------------
def test_saves_show_gives_the_commitment_and_the_secret_only_once_the_match_is_over(capsys, tmp_path):
    store = SaveStore(tmp_path)
    going = Match("moon", 3, {}, [Seat("Ana"), Seat("Ben"), Seat("Cy", "bot", "easy")], None, secret=SECRET)
    going.deal()
    store.save(record_of(going, "going"))
    store.save(record_of(finished(), "done"))
    _, out, _ = run(capsys, "saves", "show", "going", "--dir", tmp_path)
    assert f"Commitment: {commitment(SECRET)} (shown to the players at the start as {commitment(SECRET)[:16]})" in out
    assert "Secret: shown once the match is over" in out and SECRET.hex() not in out
    _, out, _ = run(capsys, "saves", "show", "done", "--dir", tmp_path)
    assert f"Secret: {SECRET.hex()} (check every deal: dominoes verify done)" in out


def test_a_match_that_undid_into_a_shown_round_is_marked_in_saves_and_saves_show(capsys, tmp_path):
    store = SaveStore(tmp_path)
    marked = finished()
    marked.undid_revealed_round = True
    store.save(record_of(marked, "practice"))
    store.save(record_of(finished(), "clean"))
    _, out, _ = run(capsys, "saves", "--dir", tmp_path)
    assert out.count("practice: an undo went back into a round whose hands had been shown") == 1
    assert out.index("practice: an undo") > out.index("practice  Doubles")
    _, out, _ = run(capsys, "saves", "show", "practice", "--dir", tmp_path)
    assert "Practice: an undo went back into a round whose hands had been shown." in out
    _, out, _ = run(capsys, "saves", "show", "clean", "--dir", tmp_path)
    assert "Practice:" not in out
