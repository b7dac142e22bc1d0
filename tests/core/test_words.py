"""The small points of English every message relies on: counts agree, articles fit the sound, the
player spoken to gets the plain verb."""

from __future__ import annotations

from core.words import article, plural, with_verb


def test_a_count_agrees_with_its_noun():
    assert plural(1, "match") == "1 match" and plural(2, "match") == "2 matches"
    assert plural(1, "session") == "1 session" and plural(0, "session") == "0 sessions"
    assert plural(3, "duplicate set") == "3 duplicate sets" and plural(1, "trick") == "1 trick"


def test_the_article_fits_the_sound():
    assert article("easy") == "an easy" and article("medium") == "a medium"
    assert article("hard") == "a hard" and article("random") == "a random"
    assert article("8") == "an 8" and article("11") == "an 11" and article("5") == "a 5"


def test_the_player_spoken_to_gets_the_plain_verb():
    assert with_verb("Ana", "win") == "Ana wins"
    assert with_verb("Ana", "lead", you=True) == "You lead"
    assert with_verb("You", "win") == "You win"  # the default name of the first seat
