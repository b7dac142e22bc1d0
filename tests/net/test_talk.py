"""Table talk: a seated player sends one of a few fixed phrases, by number; everyone at the table,
watchers too, is told who said which; anything else is refused with one line and changes nothing."""

from __future__ import annotations

import pytest

from net.client import TableClient
from net.messages import Closed, Refused, Said
from net.server import TALK_REFUSAL, WATCHER_REFUSAL
from net.talk import PHRASES, TALK_BURST, phrase_text, talk_line
from tests.net.helpers import ann_and_ben, event_of, run


def test_a_phrase_reaches_every_seat_and_every_watcher_with_the_cursor_it_came_at():
    async def scenario():
        async with ann_and_ben() as (server, ann, ben):
            watcher = await TableClient.watch(str(server.address))
            await ann.say(PHRASES.index("Good game"))
            heard = [await event_of(client, Said) for client in (ann, ben, watcher)]
            assert all(said == Said(0, PHRASES.index("Good game"), server.match.cursor) for said in heard)
            assert server.lines[-1] == "Ann: “Good game”"
            await watcher.close()

    run(scenario())


def test_a_watcher_cannot_talk():
    async def scenario():
        async with ann_and_ben() as (server, ann, _ben):
            watcher = await TableClient.watch(str(server.address))
            await watcher.say(0)
            assert (await event_of(watcher, Refused)).reason == WATCHER_REFUSAL
            await ann.say(1)  # the next thing Ann hears is her own phrase: the watcher's never went out
            assert (await event_of(ann, Said)).seat == 0
            await watcher.close()

    run(scenario())


def test_phrases_beyond_the_burst_are_refused_until_the_seat_waits():
    async def scenario():
        async with ann_and_ben() as (_server, ann, ben):
            for _ in range(TALK_BURST):
                await ann.say(0)
            await ann.say(0)
            assert (await event_of(ann, Refused)).reason == TALK_REFUSAL
            said = []
            while len(said) < TALK_BURST:
                said.append(await event_of(ben, Said))
            return said

    assert len(run(scenario())) == TALK_BURST


@pytest.mark.parametrize("phrase", [-1, len(PHRASES), 2**40])
def test_a_phrase_the_table_does_not_know_is_refused(phrase):
    async def scenario():
        async with ann_and_ben() as (server, ann, ben):
            before = (server.match.cursor, list(server.lines))
            await ann._send({"type": "say", "phrase": phrase})
            reason = (await event_of(ann, Refused)).reason
            await ann.say(0)  # Ben hears this one, and nothing before it
            assert (await event_of(ben, Said)).phrase == 0
            return reason, before, server

    reason, (cursor, lines), server = run(scenario())
    assert reason == "this table does not know that message"
    assert server.match.cursor == cursor and server.lines[len(lines)] == "Ann: “Hello”"


def test_a_phrase_sent_as_text_ends_only_that_connection():
    async def scenario():
        async with ann_and_ben() as (server, ann, ben):
            await ann._send({"type": "say", "phrase": "\x1b[2J you have been hacked"})
            closed = await event_of(ann, Closed)
            await ben.say(1)
            assert (await event_of(ben, Said)).seat == 1
            return closed.reason, server.lines

    reason, lines = run(scenario())
    assert "phrase" in reason
    assert not any("hacked" in line for line in lines)


def test_the_words_are_the_clients_own():
    assert phrase_text(PHRASES.index("Well played")) == "Well played"
    assert phrase_text(len(PHRASES)) is None and phrase_text(True) is None
    assert talk_line("Ann", 0) == "Ann: “Hello”"
