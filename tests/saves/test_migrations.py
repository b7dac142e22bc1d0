"""The version migration chain: older bodies are upgraded step by step; newer ones are refused."""

from __future__ import annotations

import pytest

from saves.codec import decode
from saves.errors import SaveError
from saves.migrations import FORMAT_VERSION, migrate
from tests.saves.builders import body_dict, file_with_body, small_match


def test_a_file_from_a_newer_version_is_refused_with_both_formats_named():
    data = file_with_body(body_dict(small_match()), version=FORMAT_VERSION + 2)
    with pytest.raises(SaveError) as caught:
        decode(data)
    assert caught.value.reason == (
        f"written by a newer version (format {FORMAT_VERSION + 2}, dominoes 0.1.0); "
        f"this version reads formats 1 to {FORMAT_VERSION}"
    )


def test_format_zero_never_existed():
    with pytest.raises(SaveError, match="format 0, which never existed"):
        decode(file_with_body(body_dict(small_match()), version=0))


def test_the_current_format_needs_no_step():
    body = body_dict(small_match())
    assert migrate(dict(body), FORMAT_VERSION) == body


# The chain as it will be once the format changes: each step upgrades one version, in order.
def rename(old: str, new: str, **added: object):
    def step(body: dict) -> dict:
        upgraded = {key: value for key, value in body.items() if key != old}
        return {**upgraded, new: body[old], **added}

    return step


CHAIN = {1: rename("events", "history"), 2: rename("history", "moves", format2=True)}


def test_every_step_runs_in_order_from_the_files_version():
    assert migrate({"events": [1]}, 1, current=3, chain=CHAIN) == {"moves": [1], "format2": True}
    assert migrate({"history": [2]}, 2, current=3, chain=CHAIN) == {"moves": [2], "format2": True}
    with pytest.raises(SaveError, match=r"this version reads formats 1 to 3"):
        migrate({}, 4, current=3, chain=CHAIN)


def test_a_step_that_cannot_read_the_body_is_a_save_error():
    with pytest.raises(SaveError, match=r"the format 1 body could not be upgraded \(.*'events'"):
        migrate({"no events": []}, 1, current=3, chain=CHAIN)


def test_a_gap_in_the_chain_is_a_save_error():
    with pytest.raises(SaveError, match="no way to upgrade a format 2 save"):
        migrate({"events": []}, 1, current=3, chain={1: CHAIN[1]})
