"""The review's sidecar: kept beside the save, reused, invalidated decision by decision when the
match changes, and refused (then made again) when it is damaged or hostile."""

from __future__ import annotations

import json
import os

import pytest

from core import Match
from core.moves import Deal
from core.review import ReviewSettings, Weighing, decisions
from saves.record import SavedMatch
from saves.review_sidecar import MAX_BYTES, digests, load_review, save_review
from saves.store import SaveStore
from tests.core.test_review import easy_match
from tui.review_session import ReviewSession
from workers import review_pool

SETTINGS = ReviewSettings(seed=1, worlds=4)


def fake_weighings(match: Match) -> dict[int, Weighing]:
    """A weighing for every decision, with made-up values (one per legal move)."""
    found = {}
    for decision in decisions(match):
        legal = match.game.legal_moves(match.state_at(decision.index))
        found[decision.index] = Weighing(tuple(float(i) for i in range(len(legal))), 4, 0.25)
    return found


@pytest.fixture
def match() -> Match:
    return easy_match("doubles", 2, seed=3, events=40)


def test_a_review_written_is_read_back_whole(tmp_path, match):
    path = tmp_path / "m.review.json"
    weighings = fake_weighings(match)
    save_review(path, match, SETTINGS, weighings)
    assert load_review(path, match, SETTINGS) == (weighings, None)
    assert load_review(tmp_path / "none.review.json", match, SETTINGS) == ({}, None)


def test_a_review_with_other_settings_or_by_another_version_is_made_again_without_complaint(tmp_path, match):
    path = tmp_path / "m.review.json"
    save_review(path, match, SETTINGS, fake_weighings(match))
    assert load_review(path, match, ReviewSettings(seed=2, worlds=4)) == ({}, None)
    assert load_review(path, match, ReviewSettings(seed=1, budget=0.2)) == ({}, None)
    data = json.loads(path.read_text())
    data["app"] = "0.0.1"
    path.write_text(json.dumps(data))
    assert load_review(path, match, SETTINGS) == ({}, None)


def test_only_the_decisions_whose_past_changed_are_dropped(tmp_path, match):
    path = tmp_path / "m.review.json"
    weighings = fake_weighings(match)
    save_review(path, match, SETTINGS, weighings)
    # Played on: every decision reviewed so far still stands.
    longer = Match(match.game_name, match.players, dict(match.options), match.seats, match.seed, match.events)
    longer.apply(longer.legal_moves()[0]) if not longer.state.chance else longer.deal()
    assert load_review(path, longer, SETTINGS)[0] == weighings
    # An earlier move played differently: the decisions before it stand, those after are dropped.
    changed_at = next(
        d.index for d in decisions(match) if d.index > 10 and len(match.game.legal_moves(match.state_at(d.index))) > 1
    )
    other = Match(
        match.game_name, match.players, dict(match.options), match.seats, match.seed, match.events[:changed_at]
    )
    other.apply(next(m for m in other.legal_moves() if m != match.events[changed_at]))
    kept, notice = load_review(path, other, SETTINGS)
    assert notice is None
    assert kept == {index: w for index, w in weighings.items() if index < changed_at}


def hostile_payloads(match: Match) -> dict[str, object]:
    first = decisions(match)[0].index
    deal = next(i for i, e in enumerate(match.events) if type(e) is Deal)
    legal = len(match.game.legal_moves(match.state_at(first)))
    chain = digests(match)  # the true digests: the entries are checked, not passed over as out of date
    good = {"event": first, "digest": chain[first], "means": [0.0] * legal, "worlds": 1, "error": 0.0}

    def review(**entry: object) -> dict[str, object]:
        return {
            "format": "dominoes-review",
            "version": 1,
            "app": __import__("core.version", fromlist=["APP_VERSION"]).APP_VERSION,
            "settings": SETTINGS.to_data(),
            "decisions": [{**good, **entry}],
        }

    return {
        "not a review": [1, 2, 3],
        "another format": {**review(), "format": "something else"},
        "a newer version": {**review(), "version": 99},
        "bad settings": {**review(), "settings": {"budget": -1, "seed": 0, "worlds": None}},
        "decisions not a list": {**review(), "decisions": {"0": 1}},
        "an event number past any match": review(event=10**9),
        "a deal as a decision": review(event=deal, digest=chain[deal]),
        "a bad digest": review(digest="<script>"),
        "too few values": review(means=[0.0] * (legal - 1)),
        "a value that is not a number": review(means=["x"] * legal),
        "an infinite value": review(means=[float("inf")] * legal),
        "a huge value": review(means=[1e300] * legal),
        "a negative count": review(worlds=-1),
        "a negative error": review(error=-0.5),
        "an extra field": review(words="Play the 6-6"),
        "the same event twice": {**review(), "decisions": [good, good]},
    }


def test_a_damaged_or_hostile_sidecar_is_refused_with_a_notice(tmp_path, match):
    path = tmp_path / "m.review.json"
    for name, payload in hostile_payloads(match).items():
        path.write_text(json.dumps(payload))
        assert load_review(path, match, SETTINGS)[0] == {}, name
        assert "is damaged" in load_review(path, match, SETTINGS)[1], name
    for raw in (b"\xff\xfe not text", b"{not json", b"NaN", b"[" * 100_000):
        path.write_bytes(raw)
        weighings, notice = load_review(path, match, SETTINGS)
        assert weighings == {} and notice and "so it is made again" in notice
    # An entry for a decision the match no longer has (undone) is out of date, not hostile.
    stale = hostile_payloads(match)["an extra field"]
    stale["decisions"] = [{**fake_entry, "event": match.cursor + 5} for fake_entry in stale["decisions"]]
    for entry in stale["decisions"]:
        del entry["words"]
    path.write_text(json.dumps(stale))
    assert load_review(path, match, SETTINGS) == ({}, None)
    path.write_bytes(b" " * (MAX_BYTES + 1))
    assert "larger than" in load_review(path, match, SETTINGS)[1]
    path.unlink()
    os.mkfifo(path)  # a named pipe where the sidecar should be: refused at once, never waited on
    assert "could not be read" in load_review(path, match, SETTINGS)[1]


def test_deleting_a_match_deletes_its_review(tmp_path, match):
    store = SaveStore(tmp_path)
    store.save(SavedMatch("m1", match, 1, 2))
    save_review(store.review_path("m1"), match, SETTINGS, fake_weighings(match))
    assert store.ids() == ["m1"]  # the sidecar is not a match of its own
    removed = store.delete("m1")
    assert store.review_path("m1") in removed and not store.review_path("m1").exists()


def test_a_session_reuses_the_sidecar_and_weighs_again_what_it_refused(tmp_path, match, monkeypatch):
    path = tmp_path / "m.review.json"
    first = ReviewSession(match, "m", path, SETTINGS, jobs=1)
    assert not first.complete
    first.run()
    assert first.complete and path.exists()
    report = first.report()

    def no_workers(self, match, indexes, settings):
        raise AssertionError(f"weighed again: {list(indexes)}")
        yield  # a generator, as the real one

    with monkeypatch.context() as patch:
        patch.setattr(review_pool.ReviewPool, "weigh", no_workers)
        again = ReviewSession(match, "m", path, SETTINGS, jobs=1)
        assert again.complete and again.notices == []
        again.run()  # nothing to weigh, and the sidecar is not even written again
        assert again.report() == report
    path.write_text('{"format": "dominoes-review", "decisions": "hostile"}')
    refused = ReviewSession(match, "m", path, SETTINGS, jobs=1)
    assert not refused.complete and "is damaged" in refused.notices[0]
    refused.run()
    assert refused.report() == report  # the same seed and deals: the same review, made again
    assert load_review(path, match, SETTINGS) == (refused.weighings, None)
