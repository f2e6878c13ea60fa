"""Issue 14's bounds: answers and cache entries bounded in bytes, tile fields in length, and
cheap requests fast while hostile ones run.

The amplifier is /win with wildcards: a hand of nine wildcard kinds completes in thousands of
ways, so a 20 KB batch of 1,000 such hands once answered 100 MB.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

import httpx
import pytest
from api_helpers import assert_error, started
from fastapi.testclient import TestClient
from test_heavy_requests import HOSTILE, LONG_SIMULATION

from app.api.answer_size import (
    LARGEST_SHANTEN,
    LARGEST_TING,
    AnswerTally,
    decomposition_bytes,
)
from app.api.errors import ApiError
from app.api.schemas.common import HAND_MAX_CHARS, SEEN_MAX_CHARS
from app.api.schemas.hand import DecompositionOut
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand
from app.core.shape.rules import rule_profile
from app.core.shape.tiles import format_chinese, format_mpsz, format_unicode, parse_tiles
from app.main import create_app
from app.settings import Settings

#: Nine wildcard kinds: every honour, 1m and 9m.
NINE_WILDCARDS: dict[str, Any] = {"preset": "riichi", "wildcards": "1234567z19m"}
_WILD_TILES = (0, 8, 27, 28, 29, 30, 31, 32, 33)
ONE_MEGABYTE_HAND = "1m" * 500_000
ROOT = Path(__file__).resolve().parents[2]
CAP = Settings().max_answer_bytes


def wildcard_hands(count: int, seed: int) -> list[str]:
    """14-tile hands drawn from the 36 copies of the nine wildcard kinds: each lists hundreds of decompositions."""
    rng = random.Random(seed)
    pool = [tile for tile in _WILD_TILES for _ in range(4)]
    return [format_mpsz(sorted(rng.sample(pool, 14))) for _ in range(count)]


def random_hands(count: int, seed: int) -> list[list[int]]:
    """Fresh 13-tile hands, so that no answer comes from a cache."""
    rng = random.Random(seed)
    return [sorted(copy // 4 for copy in rng.sample(range(136), 13)) for _ in range(count)]


@pytest.fixture(scope="module")
def bounded() -> Iterator[TestClient]:
    client = started()
    yield client
    client.__exit__(None, None, None)


# --- answers bounded in bytes -----------------------------------------------------------------


def test_the_issue_s_wildcard_batch_is_refused_before_the_work(bounded: TestClient) -> None:
    body = {"hands": wildcard_hands(1000, seed=14), "rules": NINE_WILDCARDS}
    assert 15_000 < len(json.dumps(body)) < 25_000  # the issue's 20 KB
    started_at = time.perf_counter()
    answer = bounded.post("/win/batch", json=body)
    elapsed = time.perf_counter() - started_at
    item = assert_error(answer, 422, ["body", "hands"], "answer_too_large")
    assert elapsed < 0.5, elapsed  # before any decomposition is listed (about 11 ms here)
    assert "TENPAI_MAX_ANSWER_BYTES" in item["msg"] and "1000 hands hold more than 2 wildcards" in item["msg"]
    assert "send at most" in item["msg"] and "decomposition_limit to at most" in item["msg"]
    assert item["ctx"]["max_answer_bytes"] == CAP and item["ctx"]["estimated_bytes"] > CAP


def _advice(message: str, before: str) -> int:
    return int(message.split(before)[1].split()[0].rstrip(";,"))


@pytest.mark.slow
def test_what_the_refusal_advises_is_accepted_and_under_the_cap(bounded: TestClient) -> None:
    hands = wildcard_hands(1000, seed=15)
    refused = bounded.post("/win/batch", json={"hands": hands, "rules": NINE_WILDCARDS})
    message = assert_error(refused, 422, ["body", "hands"], "answer_too_large")["msg"]
    fitting_hands = _advice(message, "send at most ")
    fitting_limit = _advice(message, "decomposition_limit to at most ")
    fewer = bounded.post("/win/batch", json={"hands": hands[:fitting_hands], "rules": NINE_WILDCARDS})
    assert fewer.status_code == 200 and len(fewer.content) <= CAP
    assert len(fewer.json()["results"]) == fitting_hands
    assert len(fewer.content) > CAP // 2  # the bound is not wildly loose: most of the cap is used
    lower = bounded.post(
        "/win/batch", json={"hands": hands, "rules": NINE_WILDCARDS, "decomposition_limit": fitting_limit}
    )
    assert lower.status_code == 200 and len(lower.content) <= CAP
    results = lower.json()["results"]
    assert all(len(result["decompositions"]) <= fitting_limit for result in results)
    assert any(result["truncated"] for result in results)


def test_a_smaller_wildcard_batch_answers_under_the_cap(bounded: TestClient) -> None:
    answer = bounded.post("/win/batch", json={"hands": wildcard_hands(20, seed=16), "rules": NINE_WILDCARDS})
    assert answer.status_code == 200, answer.text[:300]
    assert 1_000_000 < len(answer.content) <= CAP
    assert all(len(result["decompositions"]) == 256 for result in answer.json()["results"])


def test_qiqihar_batches_holding_a_few_wildcards_are_not_refused(bounded: TestClient) -> None:
    # Every hand holds one or two 红中 (7z): answered exactly, never refused on a bound.
    rng = random.Random(17)
    hands = []
    for _ in range(500):
        wilds = rng.choice((1, 2))
        plain = [copy // 4 for copy in rng.sample(range(4 * 33), 14 - wilds)]
        hands.append(format_mpsz(sorted(plain + [33] * wilds)))
    hands += ["1234567m789s22z7z7z", "123m456p789s11z22z7z"] * 250  # complete: decompositions listed
    answer = bounded.post("/win/batch", json={"hands": hands, "rules": "qiqihar"})
    assert answer.status_code == 200, answer.text[:300]
    results = answer.json()["results"]
    assert len(results) == 1000 and all(result["decompositions"] for result in results[500:])


def test_a_request_may_lower_its_decomposition_limit(bounded: TestClient) -> None:
    hand = {"hand": "11122233344455m"}
    assert len(bounded.post("/win", json=hand).json()["decompositions"]) == 4
    lowered = bounded.post("/win", json={**hand, "decomposition_limit": 2}).json()
    assert len(lowered["decompositions"]) == 2 and lowered["truncated"] is True
    # The limit is part of the cache key: the full answer is still the full answer.
    assert len(bounded.post("/win", json={**hand, "visible": []}).json()["decompositions"]) == 4
    # Above the server's limit: lowered to it, not an error.
    assert bounded.post("/win", json={**hand, "decomposition_limit": 10**6}).status_code == 200
    batch = bounded.post("/win/batch", json={"hands": ["11122233344455m"] * 2, "decomposition_limit": 1}).json()
    assert [len(result["decompositions"]) for result in batch["results"]] == [1, 1]
    for bad in (0, -1, "2", 1.5):
        assert_error(
            bounded.post("/win", json={**hand, "decomposition_limit": bad}), 422, ["body", "decomposition_limit"]
        )


def test_a_single_win_over_the_cap_is_refused_and_lower_limits_fit() -> None:
    client = started(Settings(max_answer_bytes=4096))
    try:
        hand = {"hand": wildcard_hands(1, seed=18)[0], "rules": NINE_WILDCARDS}
        item = assert_error(client.post("/win", json=hand), 422, ["body", "hand"], "answer_too_large")
        fitting = _advice(item["msg"], "decomposition_limit to at most ")
        answer = client.post("/win", json={**hand, "decomposition_limit": fitting})
        assert answer.status_code == 200 and len(answer.content) <= 4096
        assert len(answer.json()["decompositions"]) == fitting
        # Hands with few wildcards are measured, not bounded: past the cap only when they are.
        assert client.post("/win/batch", json={"hands": ["11122233344455m"] * 4}).status_code == 200
        many = client.post("/win/batch", json={"hands": ["11122233344455m"] * 6})
        assert_error(many, 422, ["body", "hands"], "answer_too_large")
        # /shanten and /ting batches are bounded by their hands times their largest answer.
        fits = 4096 // (LARGEST_TING + 1) - 1
        assert client.post("/ting/batch", json={"hands": ["1112345678999m"] * fits}).status_code == 200
        refused = client.post("/ting/batch", json={"hands": ["1112345678999m"] * (fits + 2)})
        assert "send at most" in assert_error(refused, 422, ["body", "hands"], "answer_too_large")["msg"]
        refused = client.post("/shanten/batch", json={"hands": ["1m"] * (4096 // LARGEST_SHANTEN + 1)})
        assert_error(refused, 422, ["body", "hands"], "answer_too_large")
    finally:
        client.__exit__(None, None, None)


def test_the_tally_refuses_past_the_cap() -> None:
    tally = AnswerTally(100, count=3, loc=("body", "hands"))
    assert tally.add(b"x" * 40) == b"x" * 40
    with pytest.raises(ApiError) as refused:
        tally.add(b"x" * 50)  # 14 + 2 commas + 90 > 100
    assert refused.value.code == "answer_too_large" and refused.value.loc == ("body", "hands")


def test_the_decomposition_bound_holds_for_real_answers() -> None:
    checker = Checker(rule_profile("riichi", wildcards=list(_WILD_TILES)))
    hands = [
        *wildcard_hands(30, seed=19),
        "11122233344455m",
        "19m19p19s1234567z1m",
        "11223344556677m",
        "2468m2468p2468s11z",
    ]
    listed = 0
    for text in hands:
        hand = Hand.from_tiles(parse_tiles(text))
        held = sum(hand.counts[tile] for tile in _WILD_TILES)
        for decomposition in checker.win(hand, limit=64).decompositions:
            rendered = DecompositionOut.of(decomposition).model_dump_json(by_alias=True)
            assert len(rendered) + 1 <= decomposition_bytes(hand.tile_count, held)
            listed += 1
    assert listed > 1000


def test_discard_and_simulate_answers_stay_far_under_the_cap(bounded: TestClient) -> None:
    discard = bounded.post(
        "/discard",
        json={
            "hand": "1234567m123p5s1z2z2z",
            "visible": "9m9p",
            "opponents": [{"river": "8m7z6z"}, {"river": "8p6z4z", "riichi": True}, {"river": "8s3z"}],
            "options": {"improvements": True, "good_shape": True},
        },
    )
    assert discard.status_code == 200 and len(discard.content) < CAP // 100
    simulate = bounded.post("/simulate", json={**LONG_SIMULATION, "games": 1})
    assert simulate.status_code == 200 and len(simulate.content) < CAP // 100


# --- tile fields bounded in length ------------------------------------------------------------


def test_a_megabyte_hand_is_refused_in_milliseconds(bounded: TestClient) -> None:
    raw = json.dumps({"hand": ONE_MEGABYTE_HAND})
    assert len(raw) > 999_000
    for path in ("/shanten", "/win", "/ting", "/discard"):
        started_at = time.perf_counter()
        answer = bounded.post(path, content=raw, headers={"content-type": "application/json"})
        elapsed = time.perf_counter() - started_at
        item = assert_error(answer, 422, ["body", "hand"], "string_too_long")
        assert elapsed < 0.1, (path, elapsed)
        assert f"at most {HAND_MAX_CHARS} characters" in item["msg"] and len(answer.content) < 2000


@pytest.mark.parametrize(
    ("path", "body", "loc", "code"),
    [
        ("/shanten", {"hand": list(range(34)) * 20}, ["body", "hand"], "too_long"),
        ("/shanten", {"hand": "1m", "visible": "1z" * 600}, ["body", "visible"], "string_too_long"),
        ("/ting", {"hand": "1m", "melds": [{"kind": "pon", "tiles": "1z" * 30}]}, ["body", "melds", 0, "tiles"], None),
        ("/shanten/batch", {"hands": ["1m", "2m" * 200]}, ["body", "hands", 1], "string_too_long"),
        ("/win", {"hand": "11m", "rules": {"preset": "riichi", "wildcards": "7z" * 600}}, ["body", "rules", "wildcards"], None),
        ("/discard", {"hand": "1m", "opponents": [{"river": list(range(34)) * 5}]}, ["body", "opponents", 0, "river"], "too_long"),
        ("/discard", {"hand": "1m", "seat_wind": "1z" * 30}, ["body", "seat_wind"], None),
        ("/score", {"hand": "1m", "win_tile": "1m" * 30, "winner": 0, "dealer": 0}, ["body", "win_tile"], None),
        ("/score", {"hand": "1m", "win_tile": "1m", "dora_indicators": "1m" * 600, "winner": 0, "dealer": 0},
         ["body", "dora_indicators"], None),
    ],
)  # fmt: skip
def test_every_tile_field_is_bounded(
    bounded: TestClient, path: str, body: dict[str, Any], loc: list[Any], code: str | None
) -> None:
    item = assert_error(bounded.post(path, json=body), 422, loc, code)
    assert "at most" in item["msg"]


def test_the_bounds_take_every_valid_notation(bounded: TestClient) -> None:
    tiles = [0, 0, 4, 9, 13, 17, 18, 22, 26, 27, 28, 31, 32, 33]
    spaced = "  ".join(format_chinese(tiles).split())  # two spaces between every tile
    for hand in (spaced, "\ufe0f ".join(format_unicode(tiles)), tiles):
        assert bounded.post("/shanten", json={"hand": hand}).status_code == 200, hand
    # Everything seen at the table, spaced out in Chinese, is still a valid `visible`.
    seen = [tile for tile in range(34) for _ in range(4)]
    hand = seen[:14]
    visible = " ".join(format_chinese(seen[14:]).split())
    assert len(visible) < SEEN_MAX_CHARS
    assert bounded.post("/shanten", json={"hand": hand, "visible": visible}).status_code == 200
    assert bounded.post("/shanten", json={"hand": hand, "visible": seen[14:]}).status_code == 200


def test_the_openapi_document_states_the_bounds(bounded: TestClient) -> None:
    schemas = bounded.get("/openapi.json").json()["components"]["schemas"]
    hand = schemas["HandRequest"]["properties"]["hand"]["anyOf"]
    assert {branch.get("maxLength") for branch in hand} == {HAND_MAX_CHARS, None}
    assert "decomposition_limit" in schemas["WinRequest"]["properties"]


# --- the cache bounded in bytes ---------------------------------------------------------------


def test_the_cache_never_holds_more_than_its_byte_budget() -> None:
    budget = 1 << 20  # answers up to 64 KiB are kept
    client = started(Settings(cache_bytes=budget))
    cache = client.app.state.service.cache  # type: ignore[attr-defined]
    try:
        for number, hand in enumerate(wildcard_hands(60, seed=20)):
            limit = 20 + number * 2  # answers of about 10 to 70 KB
            answer = client.post("/win", json={"hand": hand, "rules": NINE_WILDCARDS, "decomposition_limit": limit})
            assert answer.status_code == 200
            stats = client.get("/cache/stats").json()
            assert stats["bytes"] <= budget and stats["max_bytes"] == budget
        kept = list(cache._entries.values())
        assert sum(len(value) for value in kept) == cache.stats().bytes <= budget
        assert all(len(value) <= budget // 16 for value in kept)
        assert cache.stats().bytes > budget // 2  # it did fill up
    finally:
        client.__exit__(None, None, None)


# --- the blocking check: cheap requests while hostile ones run --------------------------------


def _largest_accepted_batch() -> dict[str, Any]:
    per_hand = 130 + 256 * decomposition_bytes(14, 14) + 1
    return {"hands": wildcard_hands((CAP - 20) // per_hand, seed=21), "rules": NINE_WILDCARDS}


async def _hostile_lookahead(client: httpx.AsyncClient, round_: int) -> list[httpx.Response]:
    return [await client.post("/discard", json={**HOSTILE, "turn": 1 + round_ % 30})]


async def _largest_wildcard_batch(client: httpx.AsyncClient, round_: int) -> list[httpx.Response]:
    body = _largest_accepted_batch()
    body["hands"] = wildcard_hands(len(body["hands"]), seed=1000 + round_)  # new hands: no cache
    return [await client.post("/win/batch", json=body)]


async def _megabyte_body(client: httpx.AsyncClient, round_: int) -> list[httpx.Response]:
    return [await client.post("/shanten", json={"hand": ONE_MEGABYTE_HAND, "visible": [round_ % 34]})]


async def _eight_simulations(client: httpx.AsyncClient, round_: int) -> list[httpx.Response]:
    runs = [client.post("/simulate", json={**LONG_SIMULATION, "games": 40, "seed": 8 * round_ + s}) for s in range(8)]
    return list(await asyncio.gather(*runs))


#: 14-tile hands two from tenpai, whose expected-score search takes a tenth of a second to a second.
_TWO_SHANTEN_HANDS: Final = ("1137m8p113499s477z", "6m56p133459s25566z", "356678m56p13389s5z")


async def _eight_value_searches(client: httpx.AsyncClient, round_: int) -> list[httpx.Response]:
    # Default /discard under riichi: the expected-score search, a heavy request; new turns: no cache.
    runs = [
        client.post("/discard", json={"hand": _TWO_SHANTEN_HANDS[s % 3], "turn": 1 + (8 * round_ + s) % 17})
        for s in range(8)
    ]
    return list(await asyncio.gather(*runs))


HOSTILE_LOADS: dict[str, Callable[[httpx.AsyncClient, int], Awaitable[list[httpx.Response]]]] = {
    "lookahead": _hostile_lookahead,
    "wildcard_batch": _largest_wildcard_batch,
    "megabyte_body": _megabyte_body,
    "eight_simulations": _eight_simulations,
    "eight_value_searches": _eight_value_searches,
}
EXPECTED_STATUSES = {
    "lookahead": {200, 503},
    "wildcard_batch": {200},
    "megabyte_body": {422},
    "eight_simulations": {200, 503},
    "eight_value_searches": {200},  # without a slot, the linear ranking answers at once
}


def _cheap_p99_under(load: str, *, seconds: float = 1.0) -> tuple[float, float, int]:
    """(p50, p99, heavy answers) of 200 fresh /shanten requests while ``load`` repeats."""
    app = create_app(Settings(heavy_seconds=seconds, simulate_seconds=seconds))
    hands = random_hands(220, seed=hash(load) % 1000)

    async def scenario() -> tuple[list[float], int]:
        transport = httpx.ASGITransport(app=app)
        async with (
            app.router.lifespan_context(app),  # start-up as a server runs it (ASGITransport does not)
            httpx.AsyncClient(transport=transport, base_url="http://tenpai", timeout=60) as client,
        ):
            while not app.state.service.readiness.tables_built:
                await asyncio.sleep(0.01)
            for hand in hands[:20]:  # warm up: code paths loaded
                assert (await client.post("/shanten", json={"hand": hand})).status_code == 200
            stop = asyncio.Event()
            answered: list[int] = []

            async def repeat() -> None:
                round_ = 0
                while not stop.is_set():
                    answered.extend(r.status_code for r in await HOSTILE_LOADS[load](client, round_))
                    round_ += 1
                    # In-process, a request refused at once never suspends: let the cheap ones in,
                    # as a server's socket reads would.
                    await asyncio.sleep(0)

            hostile = asyncio.create_task(repeat())
            await asyncio.sleep(0.05)  # in flight
            latencies = []
            for hand in hands[20:]:
                started_at = time.perf_counter()
                answer = await client.post("/shanten", json={"hand": hand})
                latencies.append(time.perf_counter() - started_at)
                assert answer.status_code == 200
            stop.set()
            await hostile
            assert set(answered) <= EXPECTED_STATUSES[load], answered
        return latencies, len(answered)

    latencies, heavy = asyncio.run(scenario())
    return statistics.median(latencies), statistics.quantiles(latencies, n=100)[98], heavy


@pytest.mark.slow
@pytest.mark.parametrize("load", list(HOSTILE_LOADS))
def test_cheap_requests_keep_a_low_p99_while_a_hostile_one_runs(load: str) -> None:
    p50, p99, heavy = _cheap_p99_under(load)
    print(
        f"cheap /shanten while {load} runs: p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms ({heavy} hostile answers)"
    )
    assert heavy >= 1
    # Work that held the event loop would hold it for its heavy second (the bound of
    # _cheap_p99_under); here a cheap answer takes 1-6 ms at p99. A quarter second leaves room
    # for a busy machine's stalls (211 ms seen once with five processes on two cores) and still
    # tells a blocked loop apart.
    assert p99 < 0.250


# --- memory stays bounded while hostile requests repeat ---------------------------------------


#: How long the hostile requests repeat (the issue's check runs a minute; this is its sample).
REPEAT_SECONDS = 15


def _rss_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs Linux /proc")
def test_memory_stays_bounded_while_hostile_requests_repeat() -> None:
    # Every heavy request bounded to 0.3 s: a /simulate of riichi advisors finishes a game or none in it.
    client = started(Settings(heavy_seconds=0.3, simulate_seconds=0.3))
    refused = {"hands": wildcard_hands(1000, seed=22), "rules": NINE_WILDCARDS}
    try:

        def round_(number: int) -> None:
            accepted = _largest_accepted_batch()
            accepted["hands"] = wildcard_hands(len(accepted["hands"]), seed=5000 + number)
            assert client.post("/win/batch", json=accepted).status_code == 200
            assert client.post("/win/batch", json=refused).status_code == 422
            assert client.post("/shanten", json={"hand": ONE_MEGABYTE_HAND}).status_code == 422
            assert client.post("/discard", json={**HOSTILE, "turn": 1 + number % 30}).status_code == 200
            assert client.post("/simulate", json={**LONG_SIMULATION, "games": 10, "seed": number}).status_code == 200

        for number in range(3):  # warm up: tables, caches of the core, the allocator's arenas
            round_(number)
        before = _rss_bytes()
        deadline = time.monotonic() + REPEAT_SECONDS
        rounds = 0
        while time.monotonic() < deadline and rounds < 200:
            round_(100 + rounds)
            rounds += 1
        growth = _rss_bytes() - before
        cache = client.get("/cache/stats").json()
        print(
            f"{rounds} hostile rounds in {REPEAT_SECONDS} s: RSS grew {growth / 2**20:.1f} MiB (cache {cache['bytes'] / 2**20:.1f} MiB)"
        )
        assert cache["bytes"] <= cache["max_bytes"]
        assert growth < 100 * 2**20
    finally:
        client.__exit__(None, None, None)


# --- issue 21: every heavy request answers within its bound, on a live server -------------------

#: Issue 21's check: each heavy answer within 20 s, at most 1 CPU-second in the 5 s after the last
#: one, a cheap probe's p99 under 100 ms throughout, and at most 0.5 CPU-seconds after a client left.
ANSWER_SECONDS = 20.0
AFTER_LAST_ANSWER_CPU = 1.0
AFTER_LAST_ANSWER_SECONDS = 5.0
PROBE_P99_SECONDS = 0.100
AFTER_LEAVING_CPU = 0.5


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def _live_server(log_path: Path) -> Iterator[tuple[int, str]]:
    """``python -m app.main`` with the default settings on a free loopback port, ready: (pid, base URL).

    As tests/ops/ops_helpers.live_server starts it (not importable from here: another test folder).
    """
    port = _free_port()
    env = {key: value for key, value in os.environ.items() if not key.startswith("TENPAI_")}
    # Its tables in a file of its own: in the default one, shared by every server the suite starts in
    # the repository, its clock would play the bots of other tests' tables in the CPU counted here.
    env.update(
        TENPAI_HOST="127.0.0.1",
        TENPAI_PORT=str(port),
        TENPAI_ACCESS_LOG="false",
        NO_PROXY="*",
        TENPAI_TABLE_STORE=f"sqlite:///{log_path.parent}/tables.sqlite3",
    )
    with log_path.open("wb") as log:
        process = subprocess.Popen([sys.executable, "-m", "app.main"], cwd=ROOT, env=env, stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert process.poll() is None, log_path.read_text()
            try:
                if httpx.get(f"{base}/ready", timeout=2, trust_env=False).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the server did not get ready"
            time.sleep(0.1)
        yield process.pid, base
    finally:
        process.kill()
        process.wait(timeout=10)


def _cpu_seconds(pid: int) -> float:
    """User and system CPU seconds ``pid`` has used (every thread), from /proc/<pid>/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class _Probe:
    """Cheap /shanten requests on fresh hands, one after another, timed, until stopped."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.latencies: list[float] = []
        self.statuses: set[int] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="probe")

    def _run(self) -> None:
        hands = iter(random_hands(100_000, seed=21))
        with httpx.Client(base_url=self.base, timeout=10, trust_env=False) as client:
            while not self._stop.is_set():
                started_at = time.perf_counter()
                answer = client.post("/shanten", json={"hand": next(hands)})
                self.latencies.append(time.perf_counter() - started_at)
                self.statuses.add(answer.status_code)
                time.sleep(0.01)

    def __enter__(self) -> _Probe:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def p99(self) -> float:
        return statistics.quantiles(self.latencies, n=100)[98]


def _heavy_requests() -> list[tuple[str, dict[str, Any]]]:
    """Issue 21's heavy load: four 200-game /simulate runs of the costliest lineup, the hostile
    lookahead and the largest wildcard batch the cap accepts (new hands and seeds: no cache)."""
    runs = [("/simulate", {**LONG_SIMULATION, "games": 200, "seed": 2100 + s}) for s in range(4)]
    batch = _largest_accepted_batch()
    batch["hands"] = wildcard_hands(len(batch["hands"]), seed=2121)
    return [*runs, ("/discard", {**HOSTILE, "turn": 21}), ("/win/batch", batch)]


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads the server's CPU time from /proc")
def test_a_live_server_answers_every_heavy_request_within_its_bound(tmp_path: Path) -> None:
    def ask(base: str, path: str, body: dict[str, Any]) -> tuple[str, int, float, Any]:
        started_at = time.monotonic()
        with httpx.Client(base_url=base, timeout=60, trust_env=False) as client:
            answer = client.post(path, json=body)
        return path, answer.status_code, time.monotonic() - started_at, answer

    with _live_server(tmp_path / "server.log") as (pid, base):
        # The heavy requests all at once, the probe running from before them to the end of the
        # five seconds after the last answer (its own requests are part of the CPU counted).
        with _Probe(base) as probe:
            time.sleep(0.5)
            with ThreadPoolExecutor(6) as pool:
                answers = list(pool.map(lambda request: ask(base, *request), _heavy_requests()))
            cpu_at_last_answer = _cpu_seconds(pid)
            time.sleep(AFTER_LAST_ANSWER_SECONDS)
            cpu_after = _cpu_seconds(pid) - cpu_at_last_answer

        # A client that leaves a 200-game /simulate 2 s in, alone: the server's CPU from then on.
        with httpx.Client(base_url=base, timeout=2, trust_env=False) as leaving:
            with pytest.raises(httpx.ReadTimeout):
                leaving.post("/simulate", json={**LONG_SIMULATION, "seed": 2199})
        cpu_at_leaving = _cpu_seconds(pid)
        time.sleep(AFTER_LAST_ANSWER_SECONDS)
        cpu_after_leaving = _cpu_seconds(pid) - cpu_at_leaving

    for path, status, elapsed, answer in answers:
        shown = answer.json() if path == "/simulate" and status == 200 else {}
        print(
            f"{path}: {status} in {elapsed:.2f} s"
            + (f" ({shown['games']} of {shown.get('games_requested', shown['games'])} games)" if shown else "")
        )
    print(
        f"CPU in the {AFTER_LAST_ANSWER_SECONDS:.0f} s after the last answer: {cpu_after:.2f} s (the probe's "
        f"requests included); after a client left: {cpu_after_leaving:.2f} s; probe p50 "
        f"{statistics.median(probe.latencies) * 1000:.1f} ms, p99 {probe.p99() * 1000:.1f} ms over "
        f"{len(probe.latencies)} requests"
    )
    # Wall time is what is promised here: the bound is 10 s, the check's 20 s its margin.
    assert all(elapsed < ANSWER_SECONDS for _, _, elapsed, _ in answers)
    assert all(status in (200, 503) for _, status, _, _ in answers)
    simulated = [answer.json() for path, status, _, answer in answers if path == "/simulate" and status == 200]
    assert simulated and all(report["complete"] is False and report["games"] < 200 for report in simulated)
    assert cpu_after < AFTER_LAST_ANSWER_CPU and cpu_after_leaving < AFTER_LEAVING_CPU
    assert probe.statuses == {200} and probe.p99() < PROBE_P99_SECONDS
