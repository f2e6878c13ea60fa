"""POST /review over HTTP: the answer's shape on a real game, one hand alone, and every refusal naming its field."""

from __future__ import annotations

import json
from typing import Any

import pytest
from api_helpers import assert_error, started
from fastapi.testclient import TestClient
from shared_data import shared_testdata_dir

from app.api.schemas.table import ONE_HAND
from app.settings import Settings


def _game() -> list[dict[str, Any]]:
    games = shared_testdata_dir() / "tenhou-games"
    paths = sorted(games.glob("*.jsonl")) if games.is_dir() else []
    if not paths:
        pytest.skip(f"the Tenhou games are not at {games}: third-party data, read in place, never copied")
    return [json.loads(line) for line in paths[0].read_text().splitlines() if line.strip()]


def test_the_example_one_hand_is_reviewed(client: TestClient) -> None:
    response = client.post("/review", json={"events": ONE_HAND, "seat": 0})
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["complete"] is True and answer["reached"] == len(ONE_HAND) - 1
    [decision] = answer["decisions"]  # the dealer's one draw; seat 1's ron ends the hand
    assert decision["index"] == 2 and decision["taken"] == ONE_HAND[3] and decision["options"] == 13
    assert answer["summary"]["decisions"] == 1
    assert answer["hands"] == [
        {"hand": 0, "bakaze": "E", "kyoku": 1, "honba": 0, "result": "hora", "winners": [1],
         "deltas": [-1300, 1300, 0, 0], "decisions": 1, "agreements": answer["summary"]["agreements"], "loss": 0.0}
    ]  # fmt: skip
    # Seat 1 may ron the dealer's 9s: it did.
    ron = client.post("/review", json={"events": ONE_HAND, "seat": 1}).json()
    assert [(d["taken"]["type"], d["pick"]["type"], d["agree"]) for d in ron["decisions"]] == [("hora", "hora", True)]


def test_a_real_game_and_one_hand_of_it(client: TestClient) -> None:
    events = _game()
    whole = client.post("/review", json={"events": events, "seat": 2}).json()
    summary = whole["summary"]
    assert whole["complete"] and summary["decisions"] == len(whole["decisions"]) > 50
    assert summary["agreements"] == sum(d["agree"] for d in whole["decisions"])
    assert summary["total_loss"] == pytest.approx(sum(d["loss"] or 0 for d in whole["decisions"]), abs=1e-3)
    worst = sorted((d for d in whole["decisions"] if d["loss"]), key=lambda d: (-d["loss"], d["index"]))[:5]
    assert summary["worst"] == [{"index": d["index"], "loss": d["loss"]} for d in worst]
    starts = sum(event["type"] == "start_kyoku" for event in events)
    assert [hand["hand"] for hand in whole["hands"]] == list(range(starts))
    second = client.post("/review", json={"events": events, "seat": 2, "kyoku": 1}).json()
    assert second["decisions"] == [d for d in whole["decisions"] if d["hand"] == 1]
    assert second["hands"] == [whole["hands"][1]]


@pytest.mark.parametrize(
    ("body", "loc", "error"),
    [
        ({"events": ONE_HAND, "seat": 4}, ["body", "seat"], "less_than_equal"),
        ({"events": ONE_HAND, "seat": -1}, ["body", "seat"], "greater_than_equal"),
        ({"events": ONE_HAND, "seat": 3, "rules": "sanma"}, ["body", "seat"], "out_of_range"),
        ({"events": ONE_HAND, "seat": 0, "kyoku": 1}, ["body", "kyoku"], "out_of_range"),
        ({"events": ONE_HAND, "seat": 0, "kyoku": -1}, ["body", "kyoku"], "greater_than_equal"),
        ({"events": [*ONE_HAND[:2], {"type": "tsumo", "actor": 0, "pai": "10m"}], "seat": 0},
         ["body", "events", 2, "pai"], "malformed_event"),
        ({"events": [*ONE_HAND[:2], {"type": "tsumo", "actor": 2, "pai": "9s"}], "seat": 0},
         ["body", "events", 2], "illegal_event"),
        ({"events": "not a list", "seat": 0}, ["body", "events"], None),
        ({"seat": 0}, ["body"], "value_error"),  # neither events nor log
    ],
)  # fmt: skip
def test_bad_requests_name_their_field(client: TestClient, body: dict[str, Any], loc: list[Any], error: str) -> None:
    assert_error(client.post("/review", json=body), 422, loc, error)


def test_too_many_events_are_refused_before_any_work() -> None:
    client = started(Settings(max_events=5))
    assert_error(
        client.post("/review", json={"events": ONE_HAND, "seat": 0}), 422, ["body", "events"], "too_many_events"
    )


def test_a_review_past_its_time_answers_what_it_finished() -> None:
    events = _game()
    client = started(Settings(heavy_seconds=0.05))
    response = client.post("/review", json={"events": events, "seat": 0})
    assert response.status_code == 200 and response.headers["cache-control"] == "no-store"
    answer = response.json()
    assert answer["complete"] is False and answer["reached"] < len(events) - 1
    assert all(decision["index"] <= answer["reached"] for decision in answer["decisions"])


def test_an_answer_over_the_size_bound_asks_for_one_hand_at_a_time() -> None:
    events = _game()
    client = started(Settings(max_answer_bytes=4096))
    assert_error(client.post("/review", json={"events": events, "seat": 0}), 422, ["body", "kyoku"], "answer_too_large")
