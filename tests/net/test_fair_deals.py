"""Hidden tiles stay hidden at a hosted table, and its deals can be checked: a seat cannot find the
others' hands from its own (neither among the 20-bit seeds of earlier versions nor by deriving from
what it was sent), nothing sent before the end carries the secret, the players are sent its
commitment at the start and the secret with every event at the end, which check (and a table that
cheats is caught); undo stops at a round's end when another human plays; a chosen seed is refused
where more than one human plays, and never goes on a command line."""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cli.main import main
from core import Match, Seat, get_game
from core.chance import commitment, deal_rng
from core.moves import Deal
from core.shuffle import shuffle
from core.tiles import DOUBLE_SIX
from net.client import TableClient
from net.messages import Closed, Refused, Snapshot, UndoResult
from net.tables import TableError, TableSeat, create_table, host_argv
from saves.store import SaveStore
from tests.net.helpers import TIMEOUT, RawClient, event_of, run, serving, snapshot_where, strings_in
from tui.remote_table import RemoteTable
from tui.settings import build_settings

ROOT = Path(__file__).resolve().parents[2]
OLD_SEEDS = range(1, 1_000_000)  # what `SystemRandom().randrange(1, 1_000_000)` gave a match before


def doubles_table(kinds: tuple[str, ...], secret: int | None = None, **options: Any) -> Match:
    """A Doubles match as `dominoes host` makes one without --seed: dealt from a secret drawn here
    from the operating system, or (`secret`, for a match that plays the same every time) that
    number's 32 bytes."""
    names = ("Ann", "Ben", "Cy")[: len(kinds)]
    settings = build_settings("doubles", len(kinds), kinds, names, options)
    if secret is None:
        return settings.new_match()
    return Match("doubles", len(kinds), settings.options, settings.seats, None, secret=secret.to_bytes(32, "big"))


def test_a_seat_cannot_recover_the_other_hands_from_its_own():
    async def go() -> None:
        match = doubles_table(("human", "human", "bot:easy"))
        assert match.secret is not None and not match.seed_chosen
        async with serving(match) as server:
            ben = await RawClient.connect(server.address, "Ben")  # every frame he is sent, raw
            ann = await TableClient.connect(str(server.address), "Ann")
            seen = await snapshot_where(ann, lambda s: s.view.round == 1 and not s.view.chance)
            welcome = ben.welcome
            frames = [welcome]
            while not (frames[-1]["type"] == "update" and frames[-1]["seats"][:2] == ["human", "human"]):
                frames.append(await ben.receive())  # up to the news that Ann sat down
            dealt_at = max(i for i in range(seen.cursor) if type(match.events[i]) is Deal)
            deal, deals_before = match.events[dealt_at], sum(1 for e in match.events[:dealt_at] if type(e) is Deal)
            own = frozenset(seen.view.hand)
            assert frozenset(deal.hands[ann.seat]) == own
            secret = match.secret.hex()
            # What the players were sent: the commitment, never the secret.
            assert welcome["commitment"] == ann.commitment == hashlib.sha256(match.secret).hexdigest()
            assert not any(secret in text for frame in frames for text in strings_in(frame))
            await ann.close()
            await ben.close()
        # Every seed of the old range, dealt the old way: none gives Ann's hand and the others'.
        size = 6
        tiles = list(DOUBLE_SIX)
        start = ann.seat * size
        others = [(seat * size, frozenset(deal.hands[seat])) for seat in range(3) if seat != ann.seat]
        label = f":deal:{deals_before}"
        candidates = 0
        for seed in OLD_SEEDS:
            order = tiles.copy()
            shuffle(order, random.Random(f"{seed}{label}"))
            if frozenset(order[start : start + size]) == own:
                candidates += 1
                assert not all(frozenset(order[at : at + size]) == hand for at, hand in others), f"seed {seed}"
        # Deriving from what Ann holds and was sent (her hand, the commitment, the match id, her
        # key), as a secret or as a seed: nothing gives the others' hands either.
        material = [
            bytes(tile.to_data() for tile in sorted(own)),
            ann.commitment.encode(),
            bytes.fromhex(ann.commitment),
            ann.match_id.encode(),
            (ann.token or "").encode(),
        ]
        state = get_game("doubles").new_game(3, match.options, None)
        for item in material:
            for key in (hashlib.sha256(item).digest(), item.ljust(32, b"\0")[:32]):
                tried = get_game("doubles").deal(state, deal_rng(None, key, deals_before))
                assert tried.hands != deal.hands
            as_seed = int.from_bytes(hashlib.sha256(item).digest()[:8], "big")
            assert get_game("doubles").deal(state, deal_rng(as_seed, None, deals_before)).hands != deal.hands
        assert candidates < 20  # about 1,000,000 / C(28, 6) = 2.7 give her hand by chance, and no more

    run(go())


async def play(client: TableClient, rng: random.Random, table: RemoteTable | None = None) -> str:
    """Play random legal moves for this client's seat until the table closes; its reason."""
    acted = -1
    async for event in client.events():
        if isinstance(event, Snapshot):
            if table is not None and event is not table.snapshot:
                table.update(event)
            if event.legal and event.cursor != acted:
                acted = event.cursor
                await client.send_move(rng.choice(event.legal))
        elif isinstance(event, Closed):
            return event.reason
    raise AssertionError("the events ended without Closed")


def test_the_players_check_the_deals_with_the_secret_revealed_at_the_end(monkeypatch, tmp_path):
    monkeypatch.setenv("DOMINOES_HOME", str(tmp_path / "players"))

    async def go() -> tuple[Match, tuple[RemoteTable, RemoteTable]]:
        # Three rounds, some 30 moves a player: within the rate a client may send at (net.server).
        match = doubles_table(("human", "human"), secret=13, target=10)
        async with serving(match) as server:
            ann = await TableClient.connect(str(server.address), "Ann")
            ben = await TableClient.connect(str(server.address), "Ben")
            assert ann.commitment == ben.commitment == commitment(match.secret)
            tables = RemoteTable(ann), RemoteTable(ben)
            assert tables[0].fair_check() is None  # nothing revealed while the match is played
            reasons = await asyncio.gather(
                play(ann, random.Random(1), tables[0]),
                play(ben, random.Random(2), tables[1]),
                server.serve_until_over(),
            )
        assert reasons[:2] == ["the match is over"] * 2
        assert ann.revealed is not None and ann.revealed.secret == match.secret
        assert ann.revealed.events == match.events and match.state.over
        return match, tables

    match, tables = run(go())
    short = match.commitment[:16]
    for table in tables:
        check = table.fair_check()
        assert check.fair, check.lines
        assert check.lines[:3] == (
            f"Secret {match.secret.hex()}",
            f"✓ Fair deals: the secret gives the commitment {short},",
            "  every deal and every hand you were shown",
        )
    kept = tables[0].fair_check().match_id  # the table kept no save, so each copy has an id of its own
    assert tables[0].fair_check().lines[3] == f"Saved as {kept}: dominoes verify {kept}"
    copy = SaveStore().load(kept).record.match
    assert copy.events == match.events and copy.secret == match.secret and copy.commitment == match.commitment
    assert main(["verify", kept, "--shown", short]) == 0


@pytest.mark.parametrize("cheat", ["another commitment", "a stacked deal"])
def test_a_table_that_did_not_deal_from_its_commitment_is_caught(monkeypatch, tmp_path, cheat):
    monkeypatch.setenv("DOMINOES_HOME", str(tmp_path / "players"))

    async def go() -> tuple[bool, tuple[str, ...]]:
        honest = doubles_table(("human", "human"), secret=1, target=1)
        if cheat == "another commitment":
            match = Match("doubles", 2, honest.options, honest.seats, None, secret=honest.secret, commitment="0" * 64)
        else:
            match = honest
            stacked = itertools.count(1000)
            match.deal_rng = lambda: random.Random(next(stacked))  # type: ignore[method-assign]  # the host stacks the deck
        async with serving(match) as server:
            ann = await TableClient.connect(str(server.address), "Ann")
            ben = await TableClient.connect(str(server.address), "Ben")
            table = RemoteTable(ann)
            await asyncio.gather(
                play(ann, random.Random(1), table), play(ben, random.Random(2)), server.serve_until_over()
            )
        check = table.fair_check()
        return check.fair, check.lines

    fair, lines = run(go())
    assert not fair
    assert lines[1] == "✗ The deals do NOT check:"
    if cheat == "another commitment":
        assert lines[2] == "  the secret does not give the commitment shown at the start: it is not the one dealt from"
    else:
        assert lines[2] == "  deal 1 (event 1, round 1) is not the one the secret gives"


async def to_the_second_round(ann: TableClient, ben: TableClient | None) -> Snapshot:
    """Play random moves for both until a human is to move in round 2: that human's snapshot."""
    rngs = {ann: random.Random(3), ben: random.Random(4)}
    humans = {client.seat for client in (ann, ben) if client is not None}

    async def seat(client: TableClient) -> Snapshot | None:
        acted = -1
        while True:
            event = await client.next_event(TIMEOUT)
            if not isinstance(event, Snapshot):
                continue
            if event.view.round == 2 and not event.view.chance and event.legal:
                return event
            if event.view.round == 2 and event.to_move in humans - {client.seat}:
                return None  # the other human moves first in round 2
            if event.legal and event.cursor != acted:
                acted = event.cursor
                await client.send_move(rngs[client].choice(event.legal))

    found = await asyncio.gather(*(seat(client) for client in (ann, ben) if client is not None))
    return next(snapshot for snapshot in found if snapshot is not None)


def test_undo_at_a_hosted_table_stops_at_the_reveal_of_the_round_before():
    async def go() -> None:
        async with serving(doubles_table(("human", "human"), secret=2)) as server:
            ann = await TableClient.connect(str(server.address), "Ann")
            ben = await TableClient.connect(str(server.address), "Ben")
            turn = await to_the_second_round(ann, ben)
            asker = ann if turn.to_move == ann.seat else ben
            refusal = (
                "undo stops at the end of round 1: its hands have been shown to every player, so it is not played again"
            )
            assert not turn.can_undo and turn.undo_refusal == refusal[0].upper() + refusal[1:] + "."
            cursor = server.match.cursor
            await asker.request_undo()
            refused = await event_of(asker, Refused)
            assert refused.reason == refusal
            assert server.match.cursor == cursor and not server.match.undid_revealed_round
            await ann.close()
            await ben.close()

    run(go())


def test_undo_against_bots_alone_at_a_hosted_table_may_go_back_and_marks_the_match():
    async def go() -> None:
        async with serving(doubles_table(("human", "bot:easy"), secret=2)) as server:
            ann = await TableClient.connect(str(server.address), "Ann")
            turn = await to_the_second_round(ann, None)
            assert turn.can_undo and turn.undo_refusal == ""
            await ann.request_undo()
            assert (await event_of(ann, UndoResult)).accepted
            back = await snapshot_where(ann, lambda s: s.view.round == 1)
            assert back.legal and server.match.undid_revealed_round
            await ann.close()

    run(go())


# -- chosen seeds -----------------------------------------------------------------------------------------
def test_host_refuses_a_seed_at_a_table_of_several_humans(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("DOMINOES_HOME", str(tmp_path))
    assert main(["host", "--game", "doubles", "--seats", "human,human", "--seed", "4"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith("dominoes host: --seed is for practice with one human and bots: at a table of 2 humans")


def test_a_lobby_table_with_an_open_seat_refuses_a_seed_and_starts_nothing(tmp_path):
    seats = (TableSeat("human", "ann"), TableSeat("open"))
    with pytest.raises(TableError, match="a chosen seed is for practice with one human and bots"):
        create_table("doubles", seats, {}, "ann", seed=3, directory=tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_a_practice_seed_goes_to_the_table_through_a_pipe_never_on_its_command_line(tmp_path):
    argv = host_argv(
        "doubles", (TableSeat("human", "ann"), TableSeat("bot", "Bot", "easy")), {}, tmp_path / "t.sock", 4321
    )
    assert argv[argv.index("--seed") + 1] == "-" and "4321" not in argv
    socket = tmp_path / "t.sock"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DOMINOES_HOME": str(tmp_path)}
    host = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cli",
            "host",
            "--game",
            "doubles",
            "--seats",
            "human,easy",
            "--seed",
            "-",
            "--socket",
            str(socket),
        ],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        host.stdin.write("4321\n")  # type: ignore[union-attr]
        host.stdin.close()  # type: ignore[union-attr]
        host.stdin = None  # written and closed: nothing more for communicate() to send
        lines = []
        while not any(line.startswith("join with:") for line in lines):
            line = host.stdout.readline()  # type: ignore[union-attr]
            assert line, host.stderr.read()  # type: ignore[union-attr]
            lines.append(line)
        assert b"4321" not in Path(f"/proc/{host.pid}/cmdline").read_bytes()

        async def first_hand() -> tuple:
            client = await TableClient.connect(str(socket), "Ann")
            seen = await snapshot_where(client, lambda s: s.view.round == 1)
            await client.close()
            return seen.view.hand

        expected = Match("doubles", 2, {}, [Seat("Ann"), Seat("Seat 2", "bot", "easy")], 4321)
        expected.deal()
        assert run(first_hand()) == expected.state.hands[0]
    finally:
        host.send_signal(signal.SIGTERM)
        host.communicate(timeout=30)


def test_the_secret_is_in_no_command_line_log_or_status_file_of_a_hosted_table(tmp_path):
    socket, status = tmp_path / "t.sock", tmp_path / "t.seats"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DOMINOES_HOME": str(tmp_path)}
    command = ["host", "--game", "doubles", "--seats", "human,human", "--socket", str(socket), "--status", str(status)]
    host = subprocess.Popen(
        [sys.executable, "-m", "cli", *command],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        lines = []
        while not any(line.startswith("join with:") for line in lines) or not any("committed" in x for x in lines):
            line = host.stdout.readline()  # type: ignore[union-attr]
            assert line, host.stderr.read()  # type: ignore[union-attr]
            lines.append(line)

        async def two_join() -> None:
            ann = await TableClient.connect(str(socket), "Ann")
            ben = await TableClient.connect(str(socket), "Ben")
            await snapshot_where(ann, lambda s: s.seats == ("human", "human"))
            await ann.close()
            await ben.close()

        run(two_join())
        cmdline = Path(f"/proc/{host.pid}/cmdline").read_bytes()
        seats = status.read_text()  # what a lobby reads: who sits where
    finally:
        host.send_signal(signal.SIGTERM)
        out, err = host.communicate(timeout=30)
    store = SaveStore(tmp_path / "saves")
    match = store.load(store.ids()[0]).record.match
    secret = match.secret.hex()
    said = "".join(lines) + out + err
    assert f"deals committed to {match.commitment[:16]}" in said
    assert secret not in said and secret.encode() not in cmdline and match.secret not in cmdline
    assert "Ann" in seats and secret not in seats and match.commitment not in seats


def test_hosting_again_a_shared_match_dealt_from_a_seed_says_its_deals_can_be_found(capsys, tmp_path, monkeypatch):
    from cli import host_command
    from cli.parser import build_parser
    from saves.record import SavedMatch

    monkeypatch.setenv("DOMINOES_HOME", str(tmp_path))
    seeded = Match("doubles", 2, {}, [Seat("Ann"), Seat("Ben")], 123_456)  # as a save of format 1 holds
    seeded.deal()
    SaveStore().save(SavedMatch("old", seeded, 1, 1))
    plan = host_command.plan(build_parser().parse_args(["host", "--resume", "old"]))
    plan.autosave.close()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("dominoes host: note: match old is dealt from a seed")
