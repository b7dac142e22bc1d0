"""Undo requests at a hosted table are polite: a request names the moves it takes back and whose
decision play returns to; a declined (or withdrawn, or lapsed) request is not asked again for a
while; an unanswered one lapses; and its asker can withdraw it."""

from __future__ import annotations

import pytest

from net import server as server_module
from net.messages import Refused, UndoAsked, UndoPending, UndoResult
from tests.net.helpers import ann_and_ben, event_of, run, snapshot_where


async def ann_moved(server: object, ann: object) -> int:
    """Ann plays her first decision; the cursor an undo would go back to."""
    turn = await snapshot_where(ann, lambda s: bool(s.legal))  # type: ignore[arg-type]
    await ann.send_move(turn.legal[0])  # type: ignore[attr-defined]
    await snapshot_where(ann, lambda s: s.cursor > turn.cursor and s.can_undo and s.thinking is None)  # type: ignore[arg-type]
    return turn.cursor


def test_a_request_names_the_moves_it_takes_back_and_whose_decision_it_returns_to():
    async def go() -> None:
        async with ann_and_ben() as (server, ann, ben):
            point = await ann_moved(server, ann)
            match = server.match
            await ann.request_undo()
            asked = await event_of(ben, UndoAsked)
            pending = await event_of(ann, UndoPending)
            for seat, words in ((1, asked.moves), (0, pending.moves)):
                expected = tuple(
                    match.game.describe_move(match.state_at(i), match.events[i], match.names, seat)
                    for i in range(point, match.cursor)
                )
                assert words == expected and words[0].startswith("Ann ")
            assert asked.by == 0 and asked.back_to == pending.back_to == "Ann"
            assert asked.expires == pending.expires == 60 and pending.waiting == (1,)
            await ben.answer_undo(True)
            assert (await event_of(ann, UndoResult)).accepted and match.cursor == point

    run(go())


def test_a_declined_request_is_not_asked_again_for_ten_seconds(monkeypatch):
    assert server_module.UNDO_AGAIN_AFTER == 10.0

    async def go() -> None:
        async with ann_and_ben() as (server, ann, ben):
            await ann_moved(server, ann)
            await ann.request_undo()
            await event_of(ben, UndoAsked)
            await ben.answer_undo(False)
            assert await event_of(ann, UndoResult) == UndoResult(False, 0, 1)
            for _ in range(3):  # asked again at once, over and over: refused each time, nobody asked
                await ann.request_undo()
                refused = await event_of(ann, Refused)
                assert refused.reason.startswith("Ben declined your undo; you can ask again in ")
                assert refused.reason.endswith((" 10 s", " 9 s"))
            assert server._undo is None
            monkeypatch.setattr(server_module, "UNDO_AGAIN_AFTER", 0.0)  # ten seconds later
            await ann.request_undo()
            assert (await event_of(ben, UndoAsked)).by == 0

    run(go())


def test_an_unanswered_request_lapses_and_its_asker_waits_before_asking_again(monkeypatch):
    assert server_module.UNDO_EXPIRES == 60.0
    monkeypatch.setattr(server_module, "UNDO_EXPIRES", 0.2)

    async def go() -> None:
        async with ann_and_ben() as (server, ann, ben):
            await ann_moved(server, ann)
            cursor = server.match.cursor
            await ann.request_undo()
            await event_of(ben, UndoAsked)  # ...and Ben never answers
            for client in (ann, ben):
                result = await event_of(client, UndoResult)
                assert result == UndoResult(False, 0, None, "nobody answered within 0.2 seconds")
            assert server.match.cursor == cursor and server._undo is None
            await ann.request_undo()
            assert "lapsed (nobody answered within 0.2 seconds)" in (await event_of(ann, Refused)).reason
            await ben.answer_undo(True)  # too late: nothing waits for it
            assert "no undo request" in (await event_of(ben, Refused)).reason

    run(go())


@pytest.mark.parametrize("who", ["asker", "another"])
def test_only_the_asker_withdraws_a_request(who):
    async def go() -> None:
        async with ann_and_ben() as (server, ann, ben):
            cursor = await ann_moved(server, ann)
            moved = server.match.cursor
            await ann.request_undo()
            await event_of(ben, UndoAsked)
            if who == "another":
                await ben.withdraw_undo()
                assert "no undo request waiting to withdraw" in (await event_of(ben, Refused)).reason
                assert server._undo is not None
                await ben.answer_undo(True)
                assert (await event_of(ann, UndoResult)).accepted and server.match.cursor == cursor
                return
            await ann.withdraw_undo()
            for client in (ann, ben):
                assert await event_of(client, UndoResult) == UndoResult(False, 0, None, "Ann withdrew the request")
            assert server.match.cursor == moved and server._undo is None
            after = await snapshot_where(ben, lambda s: True)
            assert after.cursor == moved  # play goes on where it was
            await ann.request_undo()
            assert "you can ask again in" in (await event_of(ann, Refused)).reason

    run(go())
