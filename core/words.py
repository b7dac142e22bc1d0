"""Small points of English for messages: a count with its noun, the article before a word, counts
in words, lists."""

from __future__ import annotations

VOWEL_SOUNDS = ("a", "e", "i", "o", "8", "11", "18")  # "an easy bot", "an 8", "an 11"
COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """ "1 match", "2 matches": the count and the noun that agrees with it (`nouns`: an irregular
    plural; by default the noun with "s", or "es" after s, x, ch and sh)."""
    if count == 1:
        return f"{count} {noun}"
    if nouns is None:
        nouns = noun + ("es" if noun.endswith(("s", "x", "ch", "sh")) else "s")
    return f"{count} {nouns}"


def article(word: str) -> str:
    """ "an easy", "a medium", "an 8", "a 5": the word with the indefinite article its sound takes."""
    return f"{'an' if word.lower().startswith(VOWEL_SOUNDS) else 'a'} {word}"


def with_verb(name: str, verb: str, you: bool = False) -> str:
    """ "Ana wins", "You win": a player and a verb (its plain form: "win", "lead") that agrees.
    The player is spoken to when `you` (the one this screen shows the table to) or named "You"."""
    return f"You {verb}" if you or name == "You" else f"{name} {verb}s"


def possessive(name: str, start: bool = False) -> str:
    """ "Ana's", "Charles'", and "your" for the player named "You" ("Your" at the `start` of a
    sentence): a player's name before what is theirs."""
    if name == "You":
        return "Your" if start else "your"
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def count_word(count: int) -> str:
    """A small count in words ("three"), a larger one in digits."""
    return COUNT_WORDS[count] if 0 <= count < len(COUNT_WORDS) else str(count)


def listing(items: list[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def ends_showing(numbers: list[int]) -> str:
    """ "the ends show 3 and 5", or "the one open end shows 5"."""
    if len(numbers) == 1:
        return f"the one open end shows {numbers[0]}"
    return f"the ends show {listing([str(n) for n in numbers])}"
