"""Every refusal is a whole sentence: over random matches of every game, every illegal move the
harness can think of is tried at many positions, and each `IllegalMove` message is checked for a
rule ID, a finished clause, the right articles and one tile notation (low-high, as the hand shows).
"""

from __future__ import annotations

import re

import pytest

from core import get_game
from core.simulation import simulate_match
from tests.core.harness import refusals

# A sentence never ends on one of these: "so you must", "play on the", "you hold".
UNFINISHED = {
    "a", "an", "the", "to", "of", "and", "or", "but", "so", "must", "may", "can", "cannot", "you",
    "with", "for", "in", "at", "by", "is", "are", "be", "not", "your", "its", "hold", "until", "than",
}  # fmt: skip
WRONG_ARTICLE = re.compile(r"\ba 8|\ba [aeiou]|\ban (?!8)\d|\ban [b-df-hj-np-tv-z]", re.IGNORECASE)
TILE = re.compile(r"\b(\d)-(\d)\b")
MATCHES = {
    "chicken-foot": [(players, {"rounds": 2}, seed) for players in (2, 4, 8) for seed in range(3)],
    "doubles": [(players, {"target": 30}, seed) for players in (2, 3, 4) for seed in range(3)],
    "moon": [(3, {"target": 3, "all_pass": all_pass}, seed) for all_pass in ("redeal", "force") for seed in range(4)],
}
# The rules whose refusals these matches must reach (a sign that the attempts cover the rules).
REACHED = {
    "chicken-foot": {"CF-0", "CF-1", "CF-2", "CF-6", "CF-7", "CF-8", "CF-9", "CF-10", "CF-13", "CF-18"},
    "doubles": {"DB-0", "DB-2", "DB-3", "DB-5", "DB-7", "DB-8", "DB-9", "DB-13"},
    "moon": {"MN-0", "MN-2", "MN-9", "MN-10", "MN-11", "MN-12", "MN-15", "MN-20"},
}


def faults(message: str, rule: str) -> list[str]:
    """What is wrong with a refusal's message (nothing, for a whole sentence)."""
    found = []
    prefix = f"{rule}: "
    if not re.fullmatch(r"(CF|DB|MN)-\d+", rule) or not message.startswith(prefix):
        found.append("does not start with its rule ID")
    words = message.removeprefix(prefix)
    last = re.sub(r"[^\w-]+$", "", words).rsplit(" ", 1)[-1].lower()
    if not words or last in UNFINISHED or re.search(r"[,;:(]\s*$", words):
        found.append(f"ends mid-sentence ({last!r})")
    if words.count("(") != words.count(")"):
        found.append("leaves a bracket open")
    if WRONG_ARTICLE.search(words):
        found.append(f"has a wrong article ({WRONG_ARTICLE.search(words).group()!r})")  # type: ignore[union-attr]
    if re.search(r"\s[,;:.]|\s\s|None|Tile\(", words):
        found.append("has a gap or a raw value")
    if any(int(low) > int(high) for low, high in TILE.findall(words) if low != high):
        found.append("writes a tile high-low")
    return found


@pytest.mark.parametrize("game_name", sorted(MATCHES))
def test_no_refusal_ends_mid_sentence(game_name):
    game = get_game(game_name)
    seen: dict[str, str] = {}  # each distinct message once
    for players, options, seed in MATCHES[game_name]:
        match, _ = simulate_match(game_name, players, options, ("random", "easy"), 500 + seed)
        for index in range(0, match.cursor + 1, 1 if game_name == "moon" else 2):
            for refusal in refusals(game, match.state_at(index)):
                seen.setdefault(refusal.message, refusal.rule)
    bad = {message: faults(message, rule) for message, rule in seen.items() if faults(message, rule)}
    assert not bad, "\n".join(f"{message}: {', '.join(why)}" for message, why in sorted(bad.items()))
    assert REACHED[game_name] <= set(seen.values()), sorted(REACHED[game_name] - set(seen.values()))
    assert len(seen) > 50  # many positions, many different refusals


def test_the_checks_catch_what_the_issue_saw():
    assert faults("CF-7: you can play (1-9 on train 2), so you must", "CF-7")
    assert faults("CF-10: a toe on the 8-8 must carry a 8", "CF-10")
    assert faults("MN-15: a 5 was led and you hold 5-1; you must follow suit", "MN-15")
    assert faults("DB-8: you can play (", "DB-8")
    assert not faults("CF-10: a toe on the 8-8 must carry an 8", "CF-10")
    assert not faults("CF-9: you can play a tile (the 1-9 on train 2, for one), so you may not pass", "CF-9")
