"""POST /referee and POST /act under Sichuan: hands the table deals itself (the exchange, the void
suits, play on after wins), judged and advised over HTTP, with the rule options as overrides."""

from __future__ import annotations

import functools
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.families.registry import TABLES
from app.core.table.game import GameConfig, play_game

BLOODY_RIVER = {"preset": "sichuan", "bloody_river": True}


@functools.cache
def _played(seed: int, bloody_river: bool) -> list[dict[str, Any]]:
    config = GameConfig(
        "sichuan", ("linear", "greedy", "heuristic", "random"), seed=seed, options=(("bloody_river", bloody_river),)
    )
    events: list[dict[str, Any]] = play_game(config, 0, TABLES).events
    return events


@pytest.mark.parametrize(("seed", "rules"), [(1, "sichuan"), (2, "sichuan"), (3, BLOODY_RIVER), (4, BLOODY_RIVER)])
def test_the_referee_judges_sichuan_hands_and_finds_their_deltas(client: TestClient, seed: int, rules: Any) -> None:
    events = _played(seed, isinstance(rules, dict))
    answer = client.post("/referee", json={"events": events, "rules": rules}).json()
    assert answer["valid"], answer["problems"][:3]
    (hand,) = answer["hands"]
    assert hand["deltas"] == hand["logged_deltas"] and sum(hand["deltas"]) == 0
    logged = [event["deltas"] for event in events if event["type"] in ("hora", "ryukyoku")]
    assert [sum(column) for column in zip(*logged, strict=True)] == hand["deltas"]


def test_a_discard_outside_the_void_suit_while_holding_it_is_caught_at_its_index(client: TestClient) -> None:
    events = _played(1, False)
    voids = {event["actor"]: "mps".index(event["suit"]) for event in events if event["type"] == "void_suit"}
    # The first discard of a void-suit tile, made instead with a tile of another suit of the hand.
    index = next(
        i
        for i, event in enumerate(events)
        if event["type"] == "dahai" and "mps".index(event["pai"][1]) == voids[event["actor"]]
    )
    event = events[index]
    hand = _concealed(events[:index], event["actor"])
    other = next(tile for tile in hand if "mps".index(tile[1]) != voids[event["actor"]])
    mutated = [*events[:index], {**event, "pai": other, "tsumogiri": False}, *events[index + 1 :]]
    answer = client.post("/referee", json={"events": mutated, "rules": "sichuan"}).json()
    assert answer["problems"][0]["index"] == index and answer["problems"][0]["type"] == "void_suit_first"


def _concealed(events: list[dict[str, Any]], seat: int) -> list[str]:
    """The seat's concealed tiles after ``events`` (no calls by it before the first void discard here)."""
    tiles: list[str] = []
    for event in events:
        kind, actor = event["type"], event.get("actor")
        if kind == "start_kyoku":
            tiles = list(event["tehais"][seat])
        elif actor != seat:
            continue
        elif kind == "tsumo" or kind == "exchange_in":
            tiles.extend([event["pai"]] if kind == "tsumo" else event["pais"])
        elif kind == "dahai":
            tiles.remove(event["pai"])
        elif kind == "exchange_out":
            for tile in event["pais"]:
                tiles.remove(tile)
        elif kind in ("pon", "daiminkan", "ankan", "kakan"):
            for tile in event["consumed"] if kind != "kakan" else [event["pai"]]:
                tiles.remove(tile)
    return tiles


def test_act_answers_the_exchange_and_the_void_suit_with_their_legal_choices(client: TestClient) -> None:
    events = _played(1, False)
    start = next(i for i, event in enumerate(events) if event["type"] == "start_kyoku")
    body = {"seat": 2, "events": events[: start + 1], "rules": "sichuan"}
    exchange = client.post("/act", json=body).json()
    assert {action["type"] for action in exchange["legal"]} == {"exchange_out"}
    assert exchange["action"] in exchange["legal"]
    suits = {tuple(sorted({tile[1] for tile in action["pais"]})) for action in exchange["legal"]}
    assert all(len(suit) == 1 for suit in suits)
    declared = next(i for i, event in enumerate(events) if event["type"] == "void_suit")
    seat = events[declared]["actor"]
    void = client.post("/act", json={"seat": seat, "events": events[:declared], "rules": "sichuan"}).json()
    assert sorted(action["suit"] for action in void["legal"]) == ["m", "p", "s"]
    assert void["action"]["type"] == "void_suit" and void["action"]["actor"] == seat


def test_act_values_every_sichuan_discard_and_throws_the_void_suit_first(client: TestClient) -> None:
    config = GameConfig("sichuan", ("advisor", "greedy", "greedy", "greedy"), seed=5)
    events: list[dict[str, Any]] = play_game(config, 0, TABLES).events
    void = next(event["suit"] for event in events if event["type"] == "void_suit" and event["actor"] == 0)
    turns = [i for i, event in enumerate(events) if event["type"] == "tsumo" and event["actor"] == 0][:4]
    assert turns
    for index in turns:
        answer = client.post("/act", json={"seat": 0, "events": events[: index + 1], "rules": "sichuan"}).json()
        discards = [action for action in answer["legal"] if action["type"] == "dahai"]
        void_held = [action for action in discards if action["pai"][1] == void]
        # The table forces a held void tile out first, and /act plays what the table allows.
        assert not void_held or void_held == discards
        assert answer["action"] in answer["legal"]
        ranked = [item for item in answer["ranked"] if item["action"]["type"] == "dahai"]
        assert all(isinstance(item["value"], float) for item in ranked)
        assert [item["value"] for item in ranked] == sorted((item["value"] for item in ranked), reverse=True)
