"""Invites and sessions of the web door, kept as hashes: what lets a browser in, and what never does."""

from __future__ import annotations

import json
import os

import pytest

from net.web_auth import MAX_FILE, RENEW_EVERY, SESSION_LIFETIME, Gatekeeper, InviteBook, digest
from tests.net.ssh_client import remove, short_home


@pytest.fixture
def home():
    directory = short_home()
    yield directory
    remove(directory)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def token_of(link: str) -> str:
    return link.rsplit("/", 1)[1]


def test_a_session_lasts_its_lifetime_and_survives_a_server_restart(home):
    clock = Clock()
    gate = Gatekeeper(home, clock)
    gate.open("http://127.0.0.1:8000")
    cookie, player = gate.redeem(token_of(InviteBook(home).invite("Ann", "http://x")))
    assert player == "Ann" and gate.session(cookie).player == "Ann"

    restarted = Gatekeeper(home, clock)
    restarted.open("http://127.0.0.1:8000")
    assert restarted.session(cookie).player == "Ann"  # kept on disk, as a hash
    assert cookie not in (home / "web" / "sessions.json").read_text()
    assert digest(cookie) in (home / "web" / "sessions.json").read_text()
    clock.now += SESSION_LIFETIME + 1
    assert restarted.session(cookie) is None


@pytest.mark.parametrize(
    "damage",
    [
        b"not json",
        b"[1, 2, 3]",
        b'{"invites": "all"}',
        b'{"invites": [{"player": "[b]Eve\\u0007", "digest": "%s"}]}',
        b'{"invites": [{"player": "Eve", "digest": "nothex"}]}',
        b"[" * 100_000,
        b" " * (MAX_FILE + 1),
    ],
)
def test_a_damaged_invites_file_lets_fewer_in_never_more(home, damage):
    gate = Gatekeeper(home)
    gate.open("http://x")
    token = "A" * 43
    (home / "web" / "invites.json").write_bytes(damage.replace(b"%s", digest(token).encode()))
    assert gate.redeem(token) is None
    assert gate.redeem("../../etc/passwd") is None
    assert InviteBook(home).invite("Ann", "http://x")  # and a new invite still works: the file is written anew


def test_a_named_pipe_in_place_of_the_invites_is_not_waited_on(home):
    gate = Gatekeeper(home)
    gate.open("http://x")
    os.mkfifo(home / "web" / "invites.json")
    assert gate.redeem("A" * 43) is None  # returns at once: a pipe is not a regular file


def test_revocation_is_by_name_in_any_case_and_keeps_others(home):
    book, gate = InviteBook(home), Gatekeeper(home)
    gate.open("http://x")
    ann = gate.redeem(token_of(book.invite("Ann", "http://x")))[0]
    ben = gate.redeem(token_of(book.invite("Ben", "http://x")))[0]
    bens_link = token_of(book.invite("Ben", "http://x"))
    assert book.revoke("aNN") == 1
    gate.refresh()
    assert gate.session(ann) is None
    assert gate.session(ben).player == "Ben"
    assert gate.redeem(bens_link)[1] == "Ben"
    kept = json.loads((home / "web" / "invites.json").read_text())
    assert [entry["player"] for entry in kept["invites"]] == ["Ben", "Ben"]


def test_a_session_in_use_is_renewed_at_most_once_an_hour_and_lasts_its_lifetime_from_its_last_use(home):
    clock = Clock()
    gate = Gatekeeper(home, clock)
    gate.open("http://127.0.0.1:8000")
    began = clock.now
    cookie, _ = gate.redeem(token_of(InviteBook(home).invite("Ann", "http://x")))
    kept = home / "web" / "sessions.json"
    written = kept.read_bytes()
    clock.now += RENEW_EVERY - 1
    assert not gate.renew(cookie) and kept.read_bytes() == written  # not written on every request
    clock.now += 1
    assert gate.renew(cookie) and kept.read_bytes() != written
    assert not gate.renew(cookie)  # once an hour at most
    clock.now = began + RENEW_EVERY + SESSION_LIFETIME - 1  # past the lifetime from its start
    restarted = Gatekeeper(home, clock)
    restarted.open("http://127.0.0.1:8000")
    assert restarted.session(cookie).player == "Ann"  # renewed, and kept so across a restart
    clock.now += 2  # a lifetime since its last use: over
    assert restarted.session(cookie) is None and not restarted.renew(cookie)
    assert not restarted.renew(None) and not restarted.renew("A" * 43)


def test_a_renewal_in_the_sessions_file_never_reaches_ahead_of_now(home):
    clock = Clock()
    gate = Gatekeeper(home, clock)
    gate.open("http://x")
    cookie = gate.sign_in("Zoé", signed_up=True)
    kept = home / "web" / "sessions.json"
    data = json.loads(kept.read_text())
    data["sessions"][0]["renewed"] = 1e30  # a damaged file: it lets fewer in, never more
    kept.write_text(json.dumps(data))
    restarted = Gatekeeper(home, clock)
    restarted.open("http://x")
    clock.now += SESSION_LIFETIME + 1
    assert restarted.session(cookie) is None
