"""The result cache: exact canonical keys, shared across notations, bounded, observable.

A single-hand answer is kept twice in the one cache: under its canonical
question (shared by every notation) and under its exact request body (see
``app.api.replay``), so each new single-hand request adds two entries.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from api_helpers import started
from fastapi.testclient import TestClient

from app.api.cache import ResultCache
from app.api.questions import ask_one
from app.api.schemas.common import HandRequest
from app.settings import Settings

MPSZ = {"hand": "123456789m1111z"}
SAME_HAND_IN_OTHER_NOTATIONS = [
    {"hand": "一二三四五六七八九万 东东东东"},
    {"hand": "🀇🀈🀉🀊🀋🀌🀍🀎🀏🀀🀀🀀🀀"},
    {"hand": [27, 0, 1, 2, 3, 4, 5, 6, 7, 8, 27, 27, 27]},
    {"hand": "1111z 987654321m", "rules": {"preset": "riichi"}, "visible": []},
]


def _stats(client: TestClient) -> dict[str, int]:
    """The entry counters; the byte counters are checked for consistency and left out."""
    response = client.get("/cache/stats")
    assert response.status_code == 200
    stats = response.json()
    used, budget = stats.pop("bytes"), stats.pop("max_bytes")
    assert budget == Settings().cache_bytes and 0 <= used <= budget
    assert (used == 0) == (stats["size"] == 0)  # every stored answer is some JSON
    return stats


def test_two_notations_of_one_hand_hit_the_same_entry(fresh_client: TestClient) -> None:
    first = fresh_client.post("/shanten", json=MPSZ).json()
    assert _stats(fresh_client) == {"hits": 0, "misses": 1, "size": 1, "max_size": 4096}
    for number, body in enumerate(SAME_HAND_IN_OTHER_NOTATIONS, start=1):
        assert fresh_client.post("/shanten", json=body).json() == first
        # A canonical hit: a repeated question, so its body is remembered too.
        assert _stats(fresh_client) == {"hits": number, "misses": 1, "size": 1 + number, "max_size": 4096}


def test_meld_order_and_notation_do_not_change_the_key(fresh_client: TestClient) -> None:
    melds = [{"kind": "pon", "tiles": "111z"}, {"kind": "chi", "tiles": "345p"}]
    reordered = [{"kind": "chi", "tiles": "五四三筒"}, {"kind": "pon", "tiles": [27, 27, 27]}]
    first = fresh_client.post("/ting", json={"hand": "123m78s99s", "melds": melds, "rules": "qiqihar"})
    second = fresh_client.post("/ting", json={"hand": "123m78s99s", "melds": reordered, "rules": "qiqihar"})
    assert first.status_code == 200 and first.json()["tenpai"] is True
    assert second.json() == first.json()
    assert _stats(fresh_client)["hits"] == 1 and _stats(fresh_client)["size"] == 2


def test_different_questions_get_different_entries(fresh_client: TestClient) -> None:
    bodies = [
        ("/shanten", MPSZ),
        ("/ting", MPSZ),  # another endpoint
        ("/shanten", {**MPSZ, "visible": "5p"}),  # other tiles seen
        ("/shanten", {**MPSZ, "rules": "chinese"}),  # other rules
        ("/shanten", {**MPSZ, "rules": {"preset": "riichi", "thirteen_orphans": False}}),  # an override
    ]
    for path, body in bodies:
        assert fresh_client.post(path, json=body).status_code == 200
    assert _stats(fresh_client) == {"hits": 0, "misses": 5, "size": 5, "max_size": 4096}


def test_a_cached_answer_equals_a_fresh_one(fresh_client: TestClient) -> None:
    bodies = [
        ("/win", {"hand": "123m456p78s99s7z", "melds": [{"kind": "pon", "tiles": "111z"}], "rules": "qiqihar"}),
        ("/ting", {"hand": "1112345678999m", "visible": "5m"}),
        ("/shanten", MPSZ),
    ]
    cached = []
    for path, body in bodies:
        computed = fresh_client.post(path, json=body)
        again = fresh_client.post(path, json=body)
        assert again.content == computed.content
        cached.append(again.content)
    assert _stats(fresh_client)["hits"] == len(bodies)

    uncached = started(Settings(cache_size=0))
    try:
        for (path, body), answer in zip(bodies, cached, strict=True):
            assert uncached.post(path, json=body).content == answer
        assert _stats(uncached) == {"hits": 0, "misses": 3, "size": 0, "max_size": 0}
    finally:
        uncached.__exit__(None, None, None)


def test_batches_share_entries_with_single_questions(fresh_client: TestClient) -> None:
    fresh_client.post("/shanten", json=MPSZ)
    answer = fresh_client.post("/shanten/batch", json={"hands": ["一二三四五六七八九万东东东东", "1112345678999m"]})
    assert answer.status_code == 200
    # The batch hand in other notation hits the single question's canonical entry.
    assert _stats(fresh_client) == {"hits": 1, "misses": 2, "size": 2, "max_size": 4096}


def test_errors_are_not_cached(fresh_client: TestClient) -> None:
    assert fresh_client.post("/win", json=MPSZ).status_code == 422
    assert _stats(fresh_client)["size"] == 0


def test_clear_empties_the_cache(fresh_client: TestClient) -> None:
    fresh_client.post("/shanten", json=MPSZ)
    fresh_client.post("/shanten", json=MPSZ)
    response = fresh_client.post("/cache/clear")
    assert response.status_code == 200
    assert response.json() == {
        "hits": 0, "misses": 0, "size": 0, "max_size": 4096, "bytes": 0, "max_bytes": Settings().cache_bytes,
    }  # fmt: skip
    fresh_client.post("/shanten", json=MPSZ)
    assert _stats(fresh_client)["misses"] == 1


@pytest.fixture
def tiny_client() -> Iterator[TestClient]:
    client = started(Settings(cache_size=2))
    yield client
    client.__exit__(None, None, None)


def test_the_cache_is_bounded_by_settings(tiny_client: TestClient) -> None:
    for hand in ("1m", "2m", "3m", "4m"):
        tiny_client.post("/shanten", json={"hand": hand})
    assert _stats(tiny_client) == {"hits": 0, "misses": 4, "size": 2, "max_size": 2}
    tiny_client.post("/shanten", json={"hand": "4m"})  # most recent: still there
    tiny_client.post("/shanten", json={"hand": "1m"})  # least recent: evicted
    assert _stats(tiny_client)["hits"] == 1


def test_ready_shows_the_cache(fresh_client: TestClient) -> None:
    fresh_client.post("/shanten", json=MPSZ)
    assert fresh_client.get("/ready").json()["cache"]["size"] == 1


def test_a_repeated_request_is_answered_by_its_body(fresh_client: TestClient) -> None:
    first = fresh_client.post("/ting", json={"hand": "1112345678999m"})
    again = fresh_client.post("/ting", json={"hand": "1112345678999m"})
    assert again.status_code == 200 and again.content == first.content
    assert again.headers["content-type"] == "application/json"
    # Asked once, a body is not kept under its bytes; asked again (a canonical hit), it is.
    assert _stats(fresh_client) == {"hits": 1, "misses": 1, "size": 2, "max_size": 4096}
    third = fresh_client.post("/ting", json={"hand": "1112345678999m"})
    assert third.content == first.content
    assert _stats(fresh_client) == {"hits": 2, "misses": 1, "size": 2, "max_size": 4096}


def test_a_refused_request_is_not_remembered_by_its_body(fresh_client: TestClient) -> None:
    for _ in range(2):
        answer = fresh_client.post("/shanten", json={"hand": "11111m"})
        assert answer.status_code == 422 and answer.json()["detail"][0]["type"] == "too_many_copies"
    assert _stats(fresh_client) == {"hits": 0, "misses": 0, "size": 0, "max_size": 4096}


# --- the cache object itself --------------------------------------------------------


def test_keys_with_equal_hashes_stay_apart() -> None:
    assert hash((-1,)) == hash((-2,))  # CPython: hash(-1) == hash(-2)
    cache = ResultCache(8)
    assert cache.get_or_compute((-1,), lambda: "minus one") == "minus one"
    assert cache.get_or_compute((-2,), lambda: "minus two") == "minus two"
    assert cache.get_or_compute((-1,), lambda: "wrong") == "minus one"


def test_question_keys_are_canonical() -> None:
    melds = [{"kind": "pon", "tiles": "111z"}, {"kind": "chi", "tiles": "345p"}]
    one = ask_one("ting", HandRequest(hand="123m78s99s", melds=melds, rules="qiqihar"))
    other = ask_one(
        "ting",
        HandRequest(hand="99s87s321m", melds=list(reversed(melds)), rules={"preset": "qiqihar"}, visible=""),
    )
    key = one.questions[0].key("ting")
    assert key == other.questions[0].key("ting")
    assert key[0] == "ting" and key[1].name == "qiqihar"
    assert isinstance(key[2], bytes) and isinstance(key[4], bytes)
    hash(key)


def test_a_failed_computation_stores_nothing() -> None:
    cache = ResultCache(4)

    def fail() -> bytes:
        raise ValueError("no")

    with pytest.raises(ValueError):
        cache.get_or_compute("k", fail)
    assert cache.stats().size == 0 and cache.get_or_compute("k", lambda: b"1") == b"1"


def test_counters_stay_consistent_across_threads() -> None:
    cache = ResultCache(16)
    calls_per_thread, threads = 500, 8

    def work(offset: int) -> None:
        for number in range(calls_per_thread):
            key = (number + offset) % 32
            assert cache.get_or_compute(key, lambda k=key: b"%d" % (k * 2)) == b"%d" % (key * 2)

    workers = [threading.Thread(target=work, args=(offset,)) for offset in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    stats = cache.stats()
    assert stats.hits + stats.misses == calls_per_thread * threads
    assert stats.size <= 16


# --- bounded in bytes as well as entries ---------------------------------------------


def test_the_byte_budget_evicts_the_least_recently_used() -> None:
    cache = ResultCache(100, max_bytes=1600)  # answers of up to 100 bytes are kept
    for key in range(20):
        cache.store(key, bytes(80))
    stats = cache.stats()
    assert (stats.size, stats.bytes, stats.max_bytes) == (20, 1600, 1600)
    assert cache.peek(0) is not None  # 0 is now the most recent
    cache.store("new", bytes(80))
    assert cache.peek(1) is None and cache.peek(0) is not None  # 1 was the least recent
    assert cache.stats().bytes == 1600


def test_the_entry_count_bounds_too() -> None:
    cache = ResultCache(3, max_bytes=10_000)
    for key in range(5):
        cache.store(key, b"{}")
    assert cache.stats().size == 3 and cache.stats().bytes == 6
    assert [cache.peek(key) for key in range(5)] == [None, None, b"{}", b"{}", b"{}"]


def test_an_answer_over_its_share_of_the_budget_is_served_but_not_kept() -> None:
    cache = ResultCache(10, max_bytes=1600)
    assert cache.get_or_compute("big", lambda: bytes(101)) == bytes(101)  # over 1600 / 16
    assert cache.stats().size == 0 and cache.stats().misses == 1
    assert cache.get_or_compute("fits", lambda: bytes(100)) == bytes(100)
    assert cache.stats().size == 1


def test_a_zero_byte_budget_disables_the_cache() -> None:
    cache = ResultCache(10, max_bytes=0)
    assert cache.get_or_compute("k", lambda: b"1") == b"1" and cache.get_or_compute("k", lambda: b"2") == b"2"
    assert cache.stats().size == 0


def test_the_app_cache_takes_its_byte_budget_from_the_settings() -> None:
    client = started(Settings(cache_bytes=16384))
    try:
        client.post("/win", json={"hand": "11122233344455m"})
        stats = client.get("/cache/stats").json()
        assert stats["max_bytes"] == 16384 and 0 < stats["bytes"] <= 16384
    finally:
        client.__exit__(None, None, None)
