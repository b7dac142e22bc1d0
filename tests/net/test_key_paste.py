"""A public key pasted into a page: its fingerprint is the one the SSH door knows its logins by, and
anything else (a private key, several lines, a certificate, too long, damaged) is one line that
never quotes what was pasted."""

from __future__ import annotations

import asyncssh
import pytest

from net.ssh_keys import MAX_PUBLIC_KEY, public_key_fingerprint

KEY = asyncssh.generate_private_key("ssh-ed25519", comment="me@home")
LINE = KEY.export_public_key().decode()


def test_a_pasted_line_gives_the_fingerprint_the_ssh_door_sees():
    expected = KEY.get_fingerprint("sha256")
    rsa = asyncssh.generate_private_key("ssh-rsa", key_size=2048)
    assert public_key_fingerprint(rsa.export_public_key().decode()) == rsa.get_fingerprint("sha256")
    line = LINE.strip()
    for pasted in (LINE, line, f"\r\n  {line}  \r\n", line + " José ☺", LINE.replace(" ", "\t")):
        assert public_key_fingerprint(pasted) == expected, pasted


CERTIFICATE = asyncssh.generate_private_key("ssh-ed25519").generate_user_certificate(KEY, "me")


@pytest.mark.parametrize(
    "pasted, words",
    [
        (KEY.export_private_key().decode(), "that is a private key: keep it to yourself"),
        (LINE + LINE, "that is 2 lines"),
        ("", "paste the one line of your public key's file"),
        ("x" * 10_000, r"longer than any public key \(10000 characters\)"),
        ("ssh-ed25519 AAAA", "not a public key's line"),
        ('from="10.0.0.1" ' + LINE, "not a public key's line"),  # an authorized_keys line's options
        ("\u200f" + LINE, "not a public key's line"),
        ("\x1b[31m" + LINE, "not a public key's line"),
        (CERTIFICATE.export_certificate().decode(), "not a public key's line"),
        (KEY.export_public_key("rfc4716").decode(), "lines"),
    ],
    ids=["private", "two", "empty", "long", "damaged", "options", "rtl", "escape", "certificate", "rfc4716"],
)
def test_anything_else_is_one_line_that_quotes_nothing(pasted, words):
    with pytest.raises(ValueError, match=words) as refused:
        public_key_fingerprint(pasted)
    line = str(refused.value)
    assert "\n" not in line and len(line) < 200
    assert "AAAA" not in line.replace("AAAA...", "") and "x" * 20 not in line


def test_a_paste_is_bounded_before_it_is_read():
    assert len(LINE) < MAX_PUBLIC_KEY
    with pytest.raises(ValueError, match="longer than any public key"):
        public_key_fingerprint(LINE + " " * MAX_PUBLIC_KEY)
