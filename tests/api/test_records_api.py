"""POST /records/convert, and POST /review given a log's text: self-play games (made here, so these run
everywhere) through every pair of formats, the shared Tenhou games where present, and the refusals at their fields."""

from __future__ import annotations

import functools
import json
from itertools import permutations
from typing import Any

import pytest
from api_helpers import assert_error
from fastapi.testclient import TestClient
from shared_data import shared_testdata_dir

from app.core.families.registry import TABLES, family_of
from app.core.table.game import GameConfig, play_game
from app.core.table.mjai import is_red, kind_of, parse_pai
from app.core.table.records import FORMATS, write_log

# Fields a self-play log carries beyond Mortal's form, which no Tenhou format keeps (docs/records.md).
_EXTRA = {("hora", "pai"), ("end_game", "scores")}


def _comparable(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in event.items() if (event["type"], k) not in _EXTRA} for event in events]


@functools.cache
def _selfplay(rules: str, seed: int) -> tuple[str, ...]:
    players = ("linear", "greedy", "heuristic", "random")[: 3 if rules == "sanma" else 4]
    config = GameConfig(rules, players, seed, length="tonpuu")
    events = _comparable(json.loads(json.dumps(play_game(config, 0, TABLES).events)))
    return tuple(json.dumps(event) for event in events)


def _events(lines: tuple[str, ...]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in lines]


def _id_order(name: str) -> tuple[int, int]:
    """Tenhou's tile-id order of an mjai tile name: by kind, a red five before the other fives."""
    tile = parse_pai(name, "pai")
    return kind_of(tile), 0 if is_red(tile) else 1


def _as_mjlog_orders(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``events`` with dealt hands and called tiles in tile-id order: how mjlog, which stores tile ids,
    gives them back (docs/records.md); the shared Tenhou games are already in that order."""
    ordered = []
    for event in events:
        event = dict(event)
        if "tehais" in event:
            event["tehais"] = [sorted(hand, key=_id_order) for hand in event["tehais"]]
        if "consumed" in event:
            event["consumed"] = sorted(event["consumed"], key=_id_order)
        ordered.append(event)
    return ordered


@pytest.mark.parametrize(("rules", "seed"), [("riichi", 3), ("sanma", 4)])
@pytest.mark.parametrize(("source", "target"), list(permutations(FORMATS, 2)))
def test_every_format_converts_to_every_other_and_back(
    client: TestClient, rules: str, seed: int, source: str, target: str
) -> None:
    events = _events(_selfplay(rules, seed))
    log = write_log(events, source, family_of("riichi"))
    there = client.post("/records/convert", json={"log": log, "to": target, "rules": rules})
    assert there.status_code == 200, there.text
    answer = there.json()
    assert (answer["source_format"], answer["format"], answer["events"]) == (source, target, len(events))
    assert answer["valid"] and answer["problems"] == []
    back = client.post("/records/convert", json={"log": answer["log"], "format": target, "to": "mjai", "rules": rules})
    assert back.status_code == 200, back.text
    expected = _as_mjlog_orders(events) if "mjlog" in (source, target) else events
    assert [json.loads(line) for line in back.json()["log"].splitlines()] == expected


def test_a_real_game_round_trips_and_its_problems_are_the_referees(client: TestClient) -> None:
    games = shared_testdata_dir() / "tenhou-games"
    paths = sorted(games.glob("*.jsonl")) if games.is_dir() else []
    if not paths:
        pytest.skip(f"the Tenhou games are not at {games}: third-party data, read in place, never copied")
    text = paths[0].read_text()
    events = [json.loads(line) for line in text.splitlines() if line.strip()]
    mjlog = client.post("/records/convert", json={"log": text, "to": "mjlog"}).json()
    assert mjlog["valid"] and mjlog["events"] == len(events)
    back = client.post("/records/convert", json={"log": mjlog["log"], "to": "mjai"}).json()
    assert [json.loads(line) for line in back["log"].splitlines()] == events
    # A discard the dealer does not hold: converted still, the referee's problem at its index.
    spoiled = [dict(event) for event in events]
    first = next(i for i, event in enumerate(spoiled) if event["type"] == "dahai")
    held = {*spoiled[1]["tehais"][spoiled[first]["actor"]], spoiled[first - 1].get("pai")}
    spoiled[first]["pai"] = next(tile for tile in ("E", "S", "W", "N", "P", "F", "C") if tile not in held)
    answer = client.post(
        "/records/convert", json={"log": write_log(spoiled, "mjai", family_of("riichi")), "to": "mjai"}
    ).json()
    referee = client.post("/referee", json={"events": spoiled}).json()
    assert not referee["valid"]
    assert not answer["valid"] and answer["problems"] == referee["problems"]


def test_review_reads_a_log_in_any_format_as_it_reads_the_events(client: TestClient) -> None:
    events = _events(_selfplay("riichi", 3))
    expected = client.post("/review", json={"events": events, "seat": 2, "kyoku": 0}).json()
    for log_format in FORMATS:
        body = {"log": write_log(events, log_format, family_of("riichi")), "seat": 2, "kyoku": 0}
        assert client.post("/review", json=body).json() == expected


@pytest.mark.parametrize(
    ("body", "loc", "code"),
    [
        ({"log": "hello", "to": "mjai"}, ["body", "log"], "unknown_log_format"),
        ({"log": '{"log": [[1, 2]]}', "to": "mjai"}, ["body", "log", "log", 0], "malformed_log"),
        ({"log": '<mjloggm ver="2.3"><INIT seed="x"/></mjloggm>', "to": "mjai"}, ["body", "log", "tags", 0], "malformed_log"),
        ({"log": '{"type":"start_game"}', "to": "xml"}, ["body", "to"], "literal_error"),
        ({"log": '{"type":"start_game"}', "format": "mjlog", "to": "mjai"}, ["body", "log"], "malformed_log"),
        ({"to": "mjai"}, ["body", "log"], "missing"),
    ],
)  # fmt: skip
def test_a_bad_log_is_a_422_at_the_place(client: TestClient, body: dict[str, Any], loc: list[Any], code: str) -> None:
    response = client.post("/records/convert", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["error"] == code
    assert response.json()["detail"][0]["loc"][: len(loc)] == loc


def test_review_wants_the_game_once(client: TestClient) -> None:
    for body in ({"seat": 0}, {"seat": 0, "events": [], "log": "x"}, {"seat": 0, "events": [], "format": "mjai"}):
        response = client.post("/review", json=body)
        assert response.status_code == 422 and response.json()["error"] == "value_error", response.text
    assert_error(client.post("/review", json={"seat": 0, "log": "hello"}), 422, ["body", "log"], "unknown_log_format")
