"""One-time link codes: a browser name's owner makes one, a key that types it over SSH becomes that
name. Only a digest is kept; a code ties one key, for ten minutes; a key with a name, a name banned
or let go, and wrong codes beyond a few an hour from one key or address are refused in one line."""

from __future__ import annotations

import json
import math
import re

import pytest

from cli.main import main
from net.accounts import DAY, MAX_KEYS, AccountError, RoomBook, SignUpLimits, reserved_reason
from net.link_codes import (
    ALPHABET,
    EXPIRED,
    MAX_FAILURES,
    MAX_PER_NAME,
    NOT_A_CODE,
    SPENT,
    TOO_MANY,
    UNKNOWN,
    LinkRefused,
    code_digest,
    looks_like_code,
    new_code,
)

KEY_A = "SHA256:" + "A" * 43
KEY_B = "SHA256:" + "B" * 43
KEY_C = "SHA256:" + "C" * 43
CODE = re.compile(rf"link-[{ALPHABET}]{{4}}-[{ALPHABET}]{{4}}-[{ALPHABET}]{{4}}")


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def room(tmp_path, clock=None) -> RoomBook:
    return RoomBook(tmp_path, limits=SignUpLimits(), clock=clock or Clock())


def key(number: int) -> str:
    return "SHA256:" + f"{number:043d}"


def refused(book: RoomBook, typed: str, fingerprint: str, address: str = "10.0.0.9") -> LinkRefused:
    with pytest.raises(LinkRefused) as caught:
        book.link_key(typed, fingerprint, address)
    assert "\n" not in str(caught.value)
    return caught.value


def test_a_code_is_easy_to_type_hard_to_guess_and_read_however_it_is_typed():
    codes = {new_code() for _ in range(200)}
    assert len(codes) == 200 and all(CODE.fullmatch(code) for code in codes)
    assert math.log2(len(ALPHABET)) * 12 >= 58  # far beyond the 40 bits asked for
    assert not set("01ilo") & set(ALPHABET)  # nothing read one way and typed another
    code = new_code()
    body = code.removeprefix("link-")
    digest = code_digest(code)
    for typed in (code.upper(), f"  {code} ", body, body.replace("-", " "), "LINK " + body.replace("-", "")):
        assert code_digest(typed) == digest, typed
        assert looks_like_code(typed), typed
    assert not looks_like_code(body.replace("-", ""))  # twelve letters alone may be a name (johnsmith123)
    for wrong in ("link-", "link-abcd-efgh-jkm", "link-abcd-efgh-jkmn-p", "link-0000-1111-oooo", "link-abcd-éfgh-jkmn"):
        assert code_digest(wrong) is None, wrong
        assert looks_like_code(wrong), wrong  # a code mistyped: never a name
    for name in ("José", "Link", "Link Lee", "linker", "abcd efgh", "ab-cd-ef", "Zoé 2024"):
        assert not looks_like_code(name), name
        assert reserved_reason(name) is None, name


def test_the_owner_of_a_browser_name_makes_a_code_and_the_key_that_types_it_is_that_name(tmp_path, capsys):
    book = room(tmp_path)
    book.sign_up_browser("Zoé", "10.0.0.1")
    code = book.new_link_code("zoé")
    assert CODE.fullmatch(code)
    kept = (tmp_path / "accounts.json").read_text()
    assert code not in kept and code.removeprefix("link-") not in kept  # only its digest
    assert code_digest(code) in kept
    assert book.link_key(code.upper().replace("-", " "), KEY_A, "10.0.0.2") == "Zoé"
    assert book.name_of_key(KEY_A) == "Zoé" and RoomBook(tmp_path).name_of_key(KEY_A) == "Zoé"
    assert book.sign_up("anything", KEY_A, "10.0.0.3") == "Zoé"  # the SSH door's newcomer path finds it
    assert refused(book, code, KEY_B).args[0] == SPENT  # it tied one key, once
    assert book.name_of_key(KEY_B) is None
    assert main(["admin", "--data", str(tmp_path), "list"]) == 0
    assert re.search(rf"Zoé .* new +browser, key {KEY_A[7:19]}…", capsys.readouterr().out)


def test_only_a_browser_names_owner_makes_codes_and_never_for_a_banned_name_or_one_with_every_key(tmp_path):
    book = room(tmp_path)
    book.sign_up("Ken", KEY_B, "10.0.0.2")
    book.sign_up_browser("Zoé", "10.0.0.1")
    for name in ("Ken", "nobody"):  # a key's name takes its keys by SSH alone
        with pytest.raises(AccountError, match=f"{name} is not a name chosen in a browser here"):
            book.new_link_code(name)
    for number in range(MAX_KEYS):
        assert book.link_key(book.new_link_code("Zoé"), key(number), f"10.1.0.{number}") == "Zoé"
    with pytest.raises(AccountError, match=f"Zoé has {MAX_KEYS} keys already"):
        book.new_link_code("Zoé")
    book.sign_up_browser("Yan", "10.0.0.3")
    book.ban("yan")
    with pytest.raises(AccountError, match="banned"):
        book.new_link_code("Yan")


def test_an_expired_a_spent_and_an_unknown_code_each_get_one_line_and_tie_nothing(tmp_path):
    clock = Clock()
    book = room(tmp_path, clock)
    book.sign_up_browser("Zoé", "10.0.0.1")
    late = book.new_link_code("Zoé")
    clock.now += 10 * 60
    assert refused(book, late, KEY_A).args[0] == EXPIRED
    assert refused(book, "link-2345-6789-abcd", KEY_A).args[0] == UNKNOWN
    assert refused(book, "link-2345-6789", KEY_A).args[0] == NOT_A_CODE
    assert book.name_of_key(KEY_A) is None
    clock.now += DAY  # a day on, a spent or expired code is forgotten: unknown
    assert refused(book, late, KEY_B).args[0] == UNKNOWN
    assert refused(book, late, KEY_C).counted


def test_a_key_that_has_a_name_is_refused_and_the_code_stays_good_for_its_owner(tmp_path):
    book = room(tmp_path)
    book.sign_up_browser("Zoé", "10.0.0.1")
    book.sign_up("Ken", KEY_B, "10.0.0.2")
    code = book.new_link_code("Zoé")
    error = refused(book, code, KEY_B)
    assert str(error) == "this key is Ken's already: log in again to come in as Ken" and not error.counted
    assert book.name_of_key(KEY_B) == "Ken"
    assert book.link_key(code, KEY_A, "10.0.0.3") == "Zoé"


def test_a_name_banned_let_go_or_renamed_since_its_code_was_made_takes_no_key(tmp_path):
    clock = Clock()
    book = room(tmp_path, clock)
    for name in ("Ann", "Ben", "Cy"):
        book.sign_up_browser(name, "10.0.0.1" if name != "Cy" else "10.0.0.2")
    codes = {name: book.new_link_code(name) for name in ("Ann", "Ben", "Cy")}
    book.ban("ann")
    assert str(refused(book, codes["Ann"], KEY_A)) == "the keeper of this server has banned Ann"
    book.rename("Ben", "Benno")
    assert "the name Ben is no longer kept here" in str(refused(book, codes["Ben"], KEY_A))

    def let_go(found) -> str:  # as 30 days without a finished match would
        found.accounts = [account for account in found.accounts if account.name != "Cy"]
        return ""

    book.change(let_go)
    clock.now += 1
    book.sign_up_browser("cy", "10.0.0.3")  # someone else's now
    assert "the name Cy is no longer kept here" in str(refused(book, codes["Cy"], KEY_A))
    assert book.read().accounts and all(not account.keys for account in book.read().accounts)


def test_a_name_keeps_its_few_newest_codes(tmp_path):
    book = room(tmp_path)
    book.sign_up_browser("Zoé", "10.0.0.1")
    book.sign_up_browser("Yan", "10.0.0.1")
    yans = book.new_link_code("Yan")
    codes = [book.new_link_code("Zoé") for _ in range(MAX_PER_NAME + 1)]
    assert refused(book, codes[0], KEY_A).args[0] == UNKNOWN  # the oldest, dropped
    assert book.link_key(codes[-1], KEY_A, "10.0.0.2") == "Zoé"
    assert book.link_key(yans, KEY_B, "10.0.0.3") == "Yan"  # another name's are its own
    assert len(book.read().links) == MAX_PER_NAME + 1


def test_wrong_codes_are_counted_by_key_and_by_address_and_a_flood_is_refused_for_an_hour(tmp_path):
    clock = Clock()
    book = room(tmp_path, clock)
    book.sign_up_browser("Zoé", "10.0.0.1")
    code = book.new_link_code("Zoé")
    for number in range(MAX_FAILURES):
        assert refused(book, f"link-2345-6789-{ALPHABET[number] * 4}", KEY_A, "10.0.0.9").counted
    assert str(refused(book, code, KEY_A, "10.0.0.9")) == TOO_MANY  # a good code is not tried either
    assert str(refused(book, code, KEY_A, "10.0.0.10")) == TOO_MANY  # the key, from elsewhere
    assert str(refused(book, code, KEY_B, "10.0.0.9")) == TOO_MANY  # the address, with another key
    assert book.name_of_key(KEY_A) is None and book.name_of_key(KEY_B) is None
    assert len(book.read().link_failures) == MAX_FAILURES  # refusals at the limit are not written
    clock.now += 3601
    assert book.link_key(book.new_link_code("Zoé"), KEY_A, "10.0.0.9") == "Zoé"
    assert book.read().link_failures == []  # older than an hour: forgotten


def test_a_book_without_codes_reads_as_before_and_damaged_codes_tie_nothing(tmp_path):
    path = tmp_path / "accounts.json"
    old = {"format": 1, "accounts": [{"name": "web", "keys": [], "created": 5, "browser": True}], "bans": []}
    path.write_text(json.dumps(old))
    book = room(tmp_path)
    found = book.read()
    assert found.links == [] and found.link_failures == []
    assert "links" not in found.as_data() and "link_failures" not in found.as_data()
    code = "link-2345-6789-abcd"
    digest = code_digest(code)
    far = 1_800_000_000.0 + 600
    damaged = [
        {"digest": digest, "name": "web", "chosen": 5, "expires": far, "used": "no"},  # only false is unused
        {"digest": "x" * 64, "name": "web", "chosen": 5, "expires": far, "used": False},
        {"digest": digest.upper(), "name": "web", "chosen": 5, "expires": far, "used": False},
        {"digest": digest, "name": "\x1b[2J", "chosen": 5, "expires": far, "used": False},
        "junk",
    ]
    failures = [["SHA256:short", "10.0.0.1", 1], [KEY_A, "x" * 100, 1], [KEY_A, "10.0.0.1"], 7]
    path.write_text(json.dumps({**old, "links": damaged, "link_failures": failures}))
    found = book.read()
    assert len(found.links) == 1 and found.links[0].used and found.link_failures == []
    assert refused(book, code, KEY_A).args[0] == SPENT
