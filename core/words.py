"""Small words the games' messages are made of: numbers with their articles, counts, lists."""

from __future__ import annotations

COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def a_number(number: int) -> str:
    """The number with its article, as it is read aloud: "a 5", "an 8"."""
    return f"{'an' if number == 8 else 'a'} {number}"


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
