"""An open server's names: bound to a key, compared after NFKC and case folding, some reserved,
limited per address, per hour and in all, let go after 30 days without a finished match; bans and
renames by `dominoes admin`. Bad input is one line and changes nothing."""

from __future__ import annotations

import json

import pytest

from cli.main import main
from net.accounts import DAY, HOUR, RoomBook, SignUpLimits, SignUpRefused, canonical
from net.player_sessions import player_home
from tests.records.helpers import finished_match, save

KEY_A = "SHA256:" + "A" * 43
KEY_B = "SHA256:" + "B" * 43
KEY_C = "SHA256:" + "C" * 43


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def room(tmp_path, clock=None, **limits) -> RoomBook:
    return RoomBook(tmp_path, owner_names=("Alice",), limits=SignUpLimits(**limits), clock=clock or Clock())


def key(number: int) -> str:
    return "SHA256:" + f"{number:043d}"


def test_a_name_is_bound_to_its_key_and_no_other_key_takes_it_in_any_form(tmp_path):
    book = room(tmp_path)
    assert book.sign_up("  José ", KEY_A, "10.0.0.1") == "José"
    assert book.name_of_key(KEY_A) == "José" and book.name_of_key(KEY_B) is None
    for look_alike in ("josé", "JOSÉ", "Jose\u0301", "\uff2a\uff2f\uff33\uff25\u0301"):  # case, decomposed, full-width
        assert canonical(look_alike) == canonical("José")
        with pytest.raises(SignUpRefused, match="is taken; choose another"):
            book.sign_up(look_alike, KEY_B, "10.0.0.2")
    assert book.sign_up("Someone else", KEY_A, "10.0.0.1") == "José"  # the key has its name already
    assert [account.name for account in book.read().accounts] == ["José"]
    assert RoomBook(tmp_path).name_of_key(KEY_A) == "José"  # kept in the file, for the next start


@pytest.mark.parametrize(
    "name, words",
    [
        ("alice", "alice is taken"),  # the owner lists her key
        ("\uff21\uff2c\uff29\uff23\uff25", "is taken"),  # full-width
        ("Hard", "the name of a bot level"),
        ("random", "the name of a bot level"),
        ("admin", "could be taken for the server"),
        ("Admin2", "could be taken for the server"),
        ("server-1", "could be taken for the server"),
        ("Moderator", "could be taken for the server"),
        ("root", "could be taken for the server"),
        ("Seat 2", "could be taken for the server or a seat"),
        ("link-4k7m", "could be taken for a link code"),  # typed as a code on the welcome screen
        ("LINK 4K7M 9PQR 2XYZ", "could be taken for a link code"),
        ("abcd-efgh-2345", "could be taken for a link code"),
    ],
)
def test_the_owners_names_bot_levels_and_the_servers_names_are_reserved(tmp_path, name, words):
    with pytest.raises(SignUpRefused, match=words):
        room(tmp_path).sign_up(name, KEY_A, "10.0.0.1")
    assert not (tmp_path / "accounts.json").exists()


@pytest.mark.parametrize(
    "name, words",
    [
        ("\x1b[31mred", "only printable characters"),
        ("a" * 10_000, "at most 20 characters, not 10000"),
        ("\u200fevil", "only printable characters"),  # a right-to-left mark
        ("\u202eevil", "only printable characters"),  # a direction override
        ("   ", "cannot be empty"),
    ],
)
def test_a_hostile_name_gets_one_line_and_nothing_is_kept(tmp_path, name, words):
    book = room(tmp_path)
    book.sign_up("first", KEY_B, "10.0.0.9")
    before = (tmp_path / "accounts.json").read_bytes()
    with pytest.raises(SignUpRefused, match=words) as refused:
        book.sign_up(name, KEY_A, "10.0.0.1")
    assert "\n" not in str(refused.value) and len(str(refused.value)) < 120
    assert (tmp_path / "accounts.json").read_bytes() == before


def test_new_names_are_limited_per_address_per_hour_and_in_all(tmp_path):
    clock = Clock()
    book = room(tmp_path, clock, per_address=3, per_hour=5, max_accounts=7)
    for number in range(3):
        book.sign_up(f"p{number}", key(number), "10.0.0.1")
    assert book.room_for("10.0.0.1") is not None
    with pytest.raises(SignUpRefused, match="at most 3 new names an hour may come from one address"):
        book.sign_up("p3", key(3), "10.0.0.1")
    book.sign_up("q0", key(10), "10.0.0.2")
    book.sign_up("q1", key(11), "10.0.0.3")
    with pytest.raises(SignUpRefused, match="as many new names as it takes in an hour"):
        book.sign_up("q2", key(12), "10.0.0.4")
    clock.now += HOUR + 1
    assert book.room_for("10.0.0.1") is None
    book.sign_up("p3", key(3), "10.0.0.1")
    book.sign_up("p4", key(4), "10.0.0.1")
    with pytest.raises(SignUpRefused, match="as many names as it keeps"):
        book.sign_up("p5", key(5), "10.0.0.5")
    assert len(book.read().accounts) == 7
    assert len(book.read().sign_ups) == 2  # only the last hour's are kept


def test_a_name_without_a_finished_match_is_let_go_after_30_days(tmp_path):
    clock = Clock()
    book = room(tmp_path, clock)
    book.sign_up("idle", KEY_A, "10.0.0.1")
    book.sign_up("player", KEY_B, "10.0.0.2")
    match = finished_match("chicken-foot", 1, ("easy",), name="player")
    save(player_home(tmp_path, "player") / "saves", match, "20260101-0900", int(clock.now))
    clock.now += 29 * DAY
    with pytest.raises(SignUpRefused, match="idle is taken"):
        book.sign_up("idle", KEY_C, "10.0.0.3")
    clock.now += 2 * DAY
    assert book.sign_up("idle", KEY_C, "10.0.0.3") == "idle"  # the old one finished nothing: let go
    found = book.read()
    assert found.of_key(KEY_A) is None and found.of_key(KEY_C).name == "idle"
    assert found.of_key(KEY_B).name == "player" and found.of_key(KEY_B).kept


def test_a_damaged_or_hostile_book_lets_fewer_in_never_more(tmp_path):
    path = tmp_path / "accounts.json"
    path.write_text("{not json")
    with pytest.raises(SignUpRefused, match="cannot read its names"):
        room(tmp_path).sign_up("bob", KEY_A, "10.0.0.1")
    assert path.read_text() == "{not json"
    assert room(tmp_path).name_of_key(KEY_A) is None
    entries = [
        {"name": "\x1b[2Jx", "keys": [KEY_A], "created": 1},  # not a name
        {"name": "ok", "keys": ["SHA256:short", 5], "created": 1},  # no key that reads
        {"name": "first", "keys": [KEY_B], "created": 1},
        {"name": "FIRST", "keys": [KEY_C], "created": 1},  # the same name again
        {"name": "thief", "keys": [KEY_B], "created": 1},  # a key that is another's
        "junk",
    ]
    path.write_text(json.dumps({"accounts": entries, "bans": [7, "x" * 500], "sign_ups": [[1, 2], "x"]}))
    found = room(tmp_path).read()
    assert [(account.name, account.keys) for account in found.accounts] == [("first", [KEY_B])]
    assert found.bans == set() and found.sign_ups == []
    path.write_bytes(b" " * (8 * 1024 * 1024 + 1))
    with pytest.raises(ValueError, match="larger than"):
        room(tmp_path).read()


def test_admin_bans_unbans_renames_and_lists(tmp_path, capsys):
    book = room(tmp_path)
    book.sign_up("bob", KEY_A, "10.0.0.1")
    book.sign_up("carol", KEY_B, "10.0.0.2")
    (player_home(tmp_path, "bob") / "preferences.json").write_text("{}")
    data = ["admin", "--data", str(tmp_path)]
    assert main([*data, "ban", "BOB"]) == 0
    assert "banned bob" in capsys.readouterr().out
    assert book.is_banned("Bob") and not book.is_banned("carol")
    assert main([*data, "ban", "bob"]) == 1
    assert capsys.readouterr().err.strip() == "dominoes admin: bob is banned already"
    with pytest.raises(SignUpRefused, match="taken"):
        book.sign_up("bob", KEY_C, "10.0.0.3")  # a banned name is not free for another key either
    assert main([*data, "list"]) == 0
    listed = capsys.readouterr().out
    assert "bob" in listed and "banned" in listed and "carol" in listed and KEY_A[7:19] in listed
    assert main([*data, "unban", "bob"]) == 0
    assert not book.is_banned("bob")
    assert main([*data, "rename", "bob", "carol"]) == 1
    assert capsys.readouterr().err.strip().endswith("carol is taken")
    assert main([*data, "rename", "bob", "admin"]) == 1
    capsys.readouterr()
    assert main([*data, "rename", "bob", "Robert"]) == 0
    assert "renamed bob to Robert" in capsys.readouterr().out
    assert book.name_of_key(KEY_A) == "Robert"
    assert (player_home(tmp_path, "Robert") / "preferences.json").exists()  # the folder follows the name
    assert main([*data, "rename", "nobody", "x"]) == 1
    assert "no one here signed up as nobody" in capsys.readouterr().err
    assert main([*data, "ban", "\x1b[31m"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_a_browser_name_is_kept_without_a_key_and_neither_door_takes_it_twice(tmp_path):
    book = room(tmp_path)
    assert book.sign_up_browser("  Zoé ", "10.0.0.1") == "Zoé"
    found = book.read()
    assert [(a.name, a.keys, a.browser) for a in found.accounts] == [("Zoé", [], True)]
    assert RoomBook(tmp_path).read().find("zoé").browser  # kept in the file, for the next start
    with pytest.raises(SignUpRefused, match="ZOÉ is taken; choose another"):
        book.sign_up("ZOÉ", KEY_A, "10.0.0.2")  # not by a key
    with pytest.raises(SignUpRefused, match="is taken; choose another"):
        book.sign_up_browser("\uff3a\uff4f\uff45\u0301", "10.0.0.3")  # nor by another browser, full-width
    book.sign_up("Ken", KEY_A, "10.0.0.2")
    with pytest.raises(SignUpRefused, match="ken is taken"):
        book.sign_up_browser("ken", "10.0.0.4")  # and a key's name is not a browser's to take
    for name in ("alice", "Hard", "admin"):  # the owner's, a bot level's, the server's
        with pytest.raises(SignUpRefused):
            book.sign_up_browser(name, "10.0.0.5")
    assert len(book.read().accounts) == 2


def test_the_names_invited_to_the_web_door_are_not_free_to_sign_up_for(tmp_path):
    from net.web_auth import InviteBook

    InviteBook(tmp_path).invite("Ann", "http://127.0.0.1:8000")
    book = room(tmp_path)
    with pytest.raises(SignUpRefused, match="ANN is taken"):
        book.sign_up_browser("ANN", "10.0.0.1")  # her folder is hers
    with pytest.raises(SignUpRefused, match="ann is taken"):
        book.sign_up("ann", KEY_A, "10.0.0.1")
    InviteBook(tmp_path).revoke("Ann")
    assert book.sign_up_browser("Ann", "10.0.0.1") == "Ann"


def test_a_book_written_before_browser_names_reads_as_it_did_and_a_keyless_key_name_is_still_dropped(tmp_path):
    old = {"format": 1, "accounts": [{"name": "bob", "keys": [KEY_A], "created": 5, "kept": False}]}
    entries = [
        *old["accounts"],
        {"name": "nokey", "keys": [], "created": 5},  # a key name that lost its keys: dropped, as before
        {"name": "web", "keys": [], "created": 5, "browser": True},
        {"name": "thief", "keys": [KEY_A], "created": 5, "browser": True},  # bob's key: not theirs
        {"name": "odd", "keys": [], "created": 5, "browser": "yes"},  # only true is true
    ]
    (tmp_path / "accounts.json").write_text(json.dumps({**old, "accounts": entries}))
    found = room(tmp_path).read()
    assert [(a.name, a.keys, a.browser) for a in found.accounts] == [
        ("bob", [KEY_A], False),
        ("web", [], True),
        ("thief", [], True),
    ]
    assert found.as_data()["accounts"][0] == old["accounts"][0]  # a key's entry is written as before


def test_browser_and_key_sign_ups_share_the_limits_and_an_ipv6_address_counts_by_its_64(tmp_path):
    book = room(tmp_path, per_address=3)
    book.sign_up("k1", KEY_A, "10.0.0.1")
    book.sign_up_browser("b1", "10.0.0.1")
    book.sign_up_browser("b2", "10.0.0.1")
    with pytest.raises(SignUpRefused, match="at most 3 new names an hour may come from one address") as refused:
        book.sign_up_browser("b3", "10.0.0.1")
    assert refused.value.limit
    with pytest.raises(SignUpRefused) as refused:
        book.sign_up_browser("admin", "10.0.0.9")
    assert not refused.value.limit  # the name itself, not a limit
    for number, address in enumerate(("2001:db8::1", "2001:db8::2", "2001:db8::ffff:1")):
        book.sign_up_browser(f"v6 {number}", address)
    with pytest.raises(SignUpRefused, match="from one address"):
        book.sign_up_browser("v6 3", "2001:db8:0:0:abcd::9")  # the same /64
    assert book.sign_up_browser("v6 4", "2001:db8:0:1::1") == "v6 4"  # another /64
