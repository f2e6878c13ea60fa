"""POST /act resumes a growing log from a kept table machine, and answers what a whole replay answers.

Whole games are driven through /act at every point where a seat may act, in game order as a
backend would send them, against an app that keeps machines and one that keeps none
(TENPAI_ACT_MACHINES=0): the answers must be the same bytes, errors included.  The games are
self-play logs of every preset the table plays and the shared Tenhou games (third-party data,
read in place; skipped with the reason where absent).  In process, a hypothesis test sends
random prefixes of two games that share their start and branch, shown or hidden, cut or
spoiled, to one small cache, and compares every answer with a replay from the start.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any, Final

import pytest
from api_helpers import started
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_data import shared_testdata_dir

from app.api.machine_cache import MachineCache
from app.core.errors import TenpaiError
from app.core.families.registry import TABLES, family_of
from app.core.shape.rules import RuleProfile, rule_profile
from app.core.table.decide import act, seat_sees
from app.core.table.game import GameConfig, play_game
from app.core.table.machine import TableMachine
from app.core.table.resume import PrefixKey, machine_size, prefix_digests
from app.settings import Settings

GAMES_DIR: Final = shared_testdata_dir() / "tenhou-games"


def decision_points(events: Sequence[dict[str, Any]], rules: RuleProfile) -> list[tuple[int, int]]:
    """(last event index, seat) of every point where a seat has a choice, in game order."""
    machine = TableMachine(rules, family_of(rules))
    points: list[tuple[int, int]] = []
    for index, event in enumerate(events):
        machine.apply_object(event, index)
        points.extend((index, seat) for seat in machine.decision_seats())
    return points


def self_play(rules: str, length: str, seed: int = 11, players: str = "linear") -> list[dict[str, Any]]:
    return play_game(
        GameConfig(rules, (players,) * rule_profile(rules).seats, seed=seed, length=length), 0, TABLES
    ).events


def tenhou_game(name: str) -> list[dict[str, Any]]:
    path = GAMES_DIR / name
    if not path.is_file():
        pytest.skip(f"the shared Tenhou games are not at {GAMES_DIR} (third-party data, read in place, never copied)")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module")
def kept() -> Iterator[TestClient]:
    client = started(Settings(act_machines=64))
    yield client
    client.__exit__(None, None, None)


@pytest.fixture(scope="module")
def replayed() -> Iterator[TestClient]:
    client = started(Settings(act_machines=0))
    yield client
    client.__exit__(None, None, None)


def metric(client: TestClient, name: str) -> float:
    for line in client.get("/metrics").text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise AssertionError(f"{name} is not in /metrics")


def drive(
    kept: TestClient, replayed: TestClient, events: list[dict[str, Any]], rules: str, *, hidden: bool = True
) -> int:
    """Ask /act at every decision point of ``events`` in order, of both apps; the answers must be equal bytes.
    ``hidden``: each seat sends the log as it sees it (others' tiles ``?``), else every tile shown."""
    profile = rule_profile(rules)
    hits = metric(kept, "tenpai_act_machine_hits_total")
    points = decision_points(events, profile)
    assert points
    for index, seat in points:
        sent = seat_sees(events[: index + 1], seat) if hidden else events[: index + 1]
        body = {"seat": seat, "events": sent, "rules": rules}
        fast, whole = kept.post("/act", json=body), replayed.post("/act", json=body)
        assert (fast.status_code, fast.content) == (whole.status_code, whole.content), (index, seat)
        assert fast.status_code in (200, 422), fast.text
    resumed = metric(kept, "tenpai_act_machine_hits_total") - hits
    # Every point after the game's first resumes from the last one's machine (the same seat's, or
    # another seat's shown log), bar the points a seat's first request of a hand had to replay.
    assert resumed >= len(points) // 2, (resumed, len(points))
    return len(points)


# --------------------------------------------------------------------- whole games over HTTP


@pytest.mark.parametrize(
    ("rules", "seed"),
    [("riichi", 11), ("sanma", 12), ("mcr", 13), ("chinese", 14), ("qiqihar", 15), ("sichuan", 16)],
)
def test_one_hand_of_each_preset_answers_as_a_whole_replay(
    kept: TestClient, replayed: TestClient, rules: str, seed: int
) -> None:
    drive(kept, replayed, self_play(rules, "kyoku", seed), rules)


def test_a_shown_log_answers_as_a_whole_replay(kept: TestClient, replayed: TestClient) -> None:
    drive(kept, replayed, self_play("riichi", "kyoku", 21), "riichi", hidden=False)


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "seed"), [("riichi", 31), ("sanma", 32)])
def test_a_whole_hanchan_answers_as_a_whole_replay(
    kept: TestClient, replayed: TestClient, rules: str, seed: int
) -> None:
    assert drive(kept, replayed, self_play(rules, "hanchan", seed), rules) > 200


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "rules"),
    [("2009022022gm-00a9-0000-cd94aac8.jsonl", "riichi"), ("2009031702gm-00a1-0000-336ee82a.jsonl", "riichi")],
)
def test_a_tenhou_game_answers_as_a_whole_replay(kept: TestClient, replayed: TestClient, name: str, rules: str) -> None:
    drive(kept, replayed, tenhou_game(name), rules)


@pytest.mark.slow
def test_a_tenhou_sanma_game_answers_as_a_whole_replay(kept: TestClient, replayed: TestClient) -> None:
    games = sorted((GAMES_DIR / "sanma").glob("*.jsonl"))
    if not games:
        pytest.skip(f"no shared Tenhou sanma games at {GAMES_DIR / 'sanma'} (third-party data, read in place)")
    drive(kept, replayed, tenhou_game(f"sanma/{games[0].name}"), "sanma")


def test_the_machines_are_counted_bounded_and_cleared() -> None:
    client = started(Settings(act_machines=3))
    try:
        events = self_play("riichi", "kyoku", 41)
        for index, seat in decision_points(events, rule_profile("riichi"))[:12]:
            client.post("/act", json={"seat": seat, "events": seat_sees(events[: index + 1], seat)})
        assert metric(client, "tenpai_act_machine_entries") == 3
        assert metric(client, "tenpai_act_machine_max_entries") == 3
        assert metric(client, "tenpai_act_machine_hits_total") > 0
        assert 3 * 10_000 < metric(client, "tenpai_act_machine_bytes") < 3 * 100_000
        assert client.post("/cache/clear").status_code == 200
        assert metric(client, "tenpai_act_machine_entries") == metric(client, "tenpai_act_machine_hits_total") == 0
    finally:
        client.__exit__(None, None, None)


# --------------------------------------------------------------------- in process: prefixes and branches


def answer_or_error(events: Sequence[object], seat: int, rules: RuleProfile, shelf: MachineCache | None) -> object:
    """act's answer, or its error as the HTTP layer would word it (type, message, field)."""
    try:
        return act(events, seat, rules, shelf=shelf, family=family_of(rules))
    except TenpaiError as error:
        return (type(error).__name__, str(error), error.field)


def spoiled(events: list[dict[str, Any]], index: int) -> list[dict[str, Any]]:
    """The events with the one at ``index`` made wrong: a discard of a tile nobody holds five of, a
    draw by the wrong seat, or an event that is no mjai."""
    out = [dict(event) for event in events]
    event = out[index]
    if event.get("type") == "dahai":
        out[index] = {**event, "pai": "5z" if event.get("pai") != "5z" else "6z"}
    elif "actor" in event:
        out[index] = {**event, "actor": (event["actor"] + 1) % 4}
    else:
        out[index] = {**event, "type": "no_such_event"}
    return out


#: Two riichi games dealt from one seed by different players (named alike): the same deal, then a branch.
_TRUNK: Final = self_play("riichi", "kyoku", 51, "linear")
_BRANCH: Final = [_TRUNK[0], *self_play("riichi", "kyoku", 51, "random")[1:]]
_RIICHI: Final = rule_profile("riichi")

_request = st.tuples(
    st.sampled_from([_TRUNK, _BRANCH]),
    st.floats(0, 1),  # where the prefix ends, as a share of the game
    st.integers(0, 3),  # the seat
    st.booleans(),  # hidden as the seat sees it, or every tile shown
    st.one_of(st.none(), st.floats(0, 1)),  # where one event is spoiled (as a share of the prefix)
    st.integers(0, 12),  # events more in the request that follows it, from the same seat
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests=st.lists(_request, min_size=1, max_size=12), size=st.integers(1, 6))
def test_prefixes_and_branches_answer_as_a_whole_replay(
    requests: list[tuple[list[dict[str, Any]], float, int, bool, float | None, int]], size: int
) -> None:
    shelf = MachineCache(size, max_bytes=1 << 22)
    assert _TRUNK[:3] == _BRANCH[:3] and _TRUNK != _BRANCH
    for game, cut, seat, hidden, spoil, more in requests:
        end = 1 + round(cut * (len(game) - 1))
        for events in (game[:end], game[: end + more]):
            if spoil is not None:
                events = spoiled(events, round(spoil * (end - 1)))
            sent: list[Any] = seat_sees(events, seat) if hidden else events
            assert answer_or_error(sent, seat, _RIICHI, shelf) == answer_or_error(sent, seat, _RIICHI, None)
            assert shelf.stats().size <= size


def test_a_stopped_replay_keeps_nothing() -> None:
    shelf = MachineCache(8, max_bytes=1 << 22)
    events = _TRUNK[: len(_TRUNK) // 2]
    asked = 0

    def stop_at_the_second_check() -> bool:
        nonlocal asked
        asked += 1
        return asked > 1

    with pytest.raises(TimeoutError):
        act(events, 0, _RIICHI, stop=stop_at_the_second_check, shelf=shelf, family=family_of(_RIICHI))
    assert shelf.stats().size == 0 and shelf.lengths() == set()


def test_an_illegal_event_keeps_nothing_and_a_good_request_after_it_answers_alike() -> None:
    shelf = MachineCache(8, max_bytes=1 << 22)
    points = [(index, seat) for index, seat in decision_points(_TRUNK, _RIICHI) if index > 20]
    index, seat = points[0]
    first = answer_or_error(_TRUNK[: index + 1], seat, _RIICHI, shelf)
    assert shelf.lengths() == {index + 1}
    later = points[-1][0]
    wrong = spoiled(_TRUNK[: later + 1], later - 1)
    # The spoiled log takes the kept prefix, fails on its own events, and puts nothing back.
    assert answer_or_error(wrong, seat, _RIICHI, shelf) == answer_or_error(wrong, seat, _RIICHI, None)
    assert shelf.stats().hits == 1 and shelf.lengths() == set()
    assert answer_or_error(_TRUNK[: index + 1], seat, _RIICHI, shelf) == first
    # Asked again, the machine the advisor answered from answers the same.
    assert answer_or_error(_TRUNK[: index + 1], seat, _RIICHI, shelf) == first
    assert shelf.stats().hits == 2 and shelf.lengths() == {index + 1}


def test_a_question_refused_after_the_replay_keeps_the_machine() -> None:
    shelf = MachineCache(8, max_bytes=1 << 22)
    # Another seat's draw is no point where this seat acts: a 422 after the whole replay.
    index = next(index for index, event in enumerate(_TRUNK) if index > 20 and event["type"] == "tsumo")
    not_asked = (_TRUNK[index]["actor"] + 1) % 4
    refused = answer_or_error(_TRUNK[: index + 1], not_asked, _RIICHI, shelf)
    assert refused[0] == "NotADecisionPoint"  # type: ignore[index]
    assert shelf.lengths() == {index + 1}


def test_the_digest_is_exact_where_it_must_be() -> None:
    # Length-prefixed: two events 12 and 3 are not 1 and 23, though their JSON runs together alike.
    assert prefix_digests([12, 3], ())[2] != prefix_digests([1, 23], ())[2]
    # The types JSON tells apart stay apart.
    assert len({prefix_digests([value], ())[1] for value in (1, 1.0, True, "1", [1], None)}) == 6
    # A digest at a length the cache holds is the digest of that prefix alone.
    assert prefix_digests(_TRUNK, {10})[10] == prefix_digests(_TRUNK[:10], ())[10]


def test_json_that_cannot_be_written_back_replays_whole() -> None:
    shelf = MachineCache(8, max_bytes=1 << 22)
    events: list[Any] = [*_TRUNK[:5], {"type": "dahai", "actor": 0, "pai": "1m", "tsumogiri": 10**5000}]
    assert answer_or_error(events, 0, _RIICHI, shelf) == answer_or_error(events, 0, _RIICHI, None)
    assert shelf.stats().hits == shelf.stats().misses == 0


@pytest.mark.parametrize(("rules", "seed"), [("riichi", 61), ("sanma", 62), ("mcr", 63), ("sichuan", 64)])
def test_a_machine_weighs_what_its_game_holds(rules: str, seed: int) -> None:
    profile = rule_profile(rules)
    machine = TableMachine(profile, family_of(profile))
    empty = machine_size(machine)
    for index, event in enumerate(self_play(rules, "kyoku", seed)):
        machine.apply_object(event, index)
    # The shared rules and checker are not counted: a machine is tens of kilobytes, not the tables' megabytes.
    assert 2_000 < empty < machine_size(machine) < 100_000


def test_a_machine_larger_than_its_share_is_not_kept() -> None:
    machine = TableMachine(_RIICHI, family_of(_RIICHI))
    size = machine_size(machine)
    shelf = MachineCache(8, max_bytes=size * 16 - 1)
    shelf.keep(PrefixKey(_RIICHI, 0, 1, bytes(32)), machine, size)
    assert shelf.stats().size == 0
    shelf = MachineCache(8, max_bytes=size * 16)
    shelf.keep(PrefixKey(_RIICHI, 0, 1, bytes(32)), machine, size)
    assert shelf.stats().size == 1


def test_the_byte_bound_evicts_the_least_recently_used() -> None:
    machine = TableMachine(_RIICHI, family_of(_RIICHI))
    shelf = MachineCache(100, max_bytes=16 * 1000)
    for events in range(1, 20):
        shelf.keep(PrefixKey(_RIICHI, 0, events, bytes(32)), machine, 1000)
    assert shelf.stats().bytes <= 16 * 1000 and shelf.lengths() == set(range(4, 20))
