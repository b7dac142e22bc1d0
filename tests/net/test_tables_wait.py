"""A table waits for its players: stand-ins play only while some human is connected, so a table
everyone has left stops at the next human decision (saved) instead of playing the match out;
--idle-close still closes it; and after a resume, a seat whose player does not come back gets its
stand-in like any away seat."""

from __future__ import annotations

import asyncio
from pathlib import Path

from core.moves import Deal
from net.client import TableClient
from tests.net.helpers import TIMEOUT, ann_and_ben, moon_match, run, seed_where, serving, snapshot_where


async def until(condition: object, what: str) -> None:
    deadline = asyncio.get_running_loop().time() + TIMEOUT
    while not condition():  # type: ignore[operator]
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"never: {what}")
        await asyncio.sleep(0.01)


def test_with_every_human_away_the_stand_ins_wait_and_play_again_once_someone_is_back():
    async def go() -> None:
        async with ann_and_ben(takeover_after=0.05) as (server, ann, ben):
            turn = await snapshot_where(ann, lambda s: bool(s.legal))  # Ann is to move
            ben_token = ben.token
            await ben.close()
            await snapshot_where(ann, lambda s: s.seats[1] == "away")
            await ann.close()
            await until(lambda: server.table.stand_ins == {0, 1}, "both stand-ins due")
            await until(lambda: not server._wake.is_set(), "the driver to look at the table again")
            # With nobody there the stand-in does not take Ann's turn: the table waits, saved.
            assert server.thinking is None and server.match.cursor == turn.cursor
            assert any("plays for Ann" in line for line in server.lines)  # type: ignore[attr-defined]

            back = await TableClient.connect(str(server.address), "Ben", token=ben_token)
            moved = await snapshot_where(back, lambda s: s.cursor > turn.cursor)  # Ann's stand-in plays now
            assert 0 in moved.stand_ins and server.match.state_at(turn.cursor).to_move == 0
            await back.close()

    run(go())


def test_idle_close_still_closes_a_table_that_waits():
    async def go() -> None:
        async with ann_and_ben(takeover_after=0.05, idle_close_after=0.3) as (server, ann, ben):
            await ben.close()
            await ann.close()
            await asyncio.wait_for(server.serve_until_over(), TIMEOUT)
            assert "nobody was at the table for 0.3 seconds" in server.end_reason
            assert not server.match.state.over

    run(go())


def test_after_a_resume_a_seat_whose_player_does_not_come_back_is_played_by_its_stand_in(tmp_path: Path):
    async def go() -> None:
        keys = tmp_path / "keys.json"
        match = moon_match("human,human,easy", seed_where(lambda seat: seat == 0))
        async with serving(match, keys_path=keys) as server:
            ann = await TableClient.connect(str(server.address), "Ann")
            ben = await TableClient.connect(str(server.address), "Ben")
            token = ann.token
            await ann.close()
            await ben.close()
        start = match.cursor
        async with serving(match, keys_path=keys, takeover_after=0.05) as server:
            assert server.table.labels()[:2] == ("away", "away")
            ann = await TableClient.connect(str(server.address), "Ann", token=token)  # Ben never comes back

            def ben_moved() -> bool:
                return any(
                    match.state_at(i).to_move == 1 and type(match.events[i]) is not Deal
                    for i in range(start, match.cursor)
                )

            snapshot = ann.snapshot
            while not ben_moved():
                if snapshot.legal:
                    await ann.send_move(snapshot.legal[0])
                cursor = snapshot.cursor
                snapshot = await snapshot_where(ann, lambda s, cursor=cursor: s.cursor != cursor or bool(s.legal))
            assert 1 in server.table.stand_ins and any("plays for Ben" in line for line in server.lines)  # type: ignore[attr-defined]
            await ann.close()

    run(go())
