"""POST /simulate: the CLI's report over HTTP, deterministic, capped and refusing bad settings."""

from __future__ import annotations

import pytest
from api_helpers import started
from fastapi.testclient import TestClient

from app.core.discard import Weights
from app.core.simulator import GameConfig
from app.selfplay.report import build_report
from app.selfplay.runner import run_games
from app.settings import Settings

BODY = {"rules": "chinese", "players": ["advisor", "greedy", "heuristic", "random"], "games": 6, "seed": 9}


def test_the_report_is_the_libraries_report(client: TestClient) -> None:
    answer = client.post("/simulate", json={**BODY, "weights": {"safety": 2.0}})
    assert answer.status_code == 200, answer.text
    config = GameConfig("chinese", tuple(BODY["players"]), 9, weights=Weights(safety=2.0))
    assert answer.json() == build_report(config, run_games(config, 6))


def test_same_request_same_report_and_the_seed_matters(client: TestClient) -> None:
    first = client.post("/simulate", json=BODY).json()
    assert client.post("/simulate", json=BODY).json() == first
    other = client.post("/simulate", json={**BODY, "seed": 10}).json()
    assert other["players"] != first["players"]
    report = first
    assert report["games"] == 6 and [p["strategy"] for p in report["players"]] == BODY["players"]
    # Payments are zero-sum, so the seats' average payments are too.
    assert abs(sum(p["average_payment"]["value"] for p in report["players"])) < 1e-3
    wins = sum(p["win_rate"]["value"] for p in report["players"])
    assert wins + report["table"]["exhaustive_draw_rate"]["value"] == pytest.approx(1.0, abs=1e-3)


def test_the_cap_on_games_comes_from_settings() -> None:
    client = started(Settings(max_simulate_games=3))
    try:
        answer = client.post("/simulate", json={**BODY, "games": 4})
        assert answer.status_code == 422
        (item,) = answer.json()["detail"]
        assert item["loc"] == ["body", "games"] and item["type"] == "too_many_games"
        assert "at most 3" in item["msg"]
        assert client.post("/simulate", json={**BODY, "games": 3}).status_code == 200
    finally:
        client.__exit__(None, None, None)


@pytest.mark.parametrize(
    ("change", "loc"),
    [
        ({"players": ["advisor", "advisor", "greedy", "expert"]}, ["body", "players", 3]),
        ({"players": ["advisor", "advisor", "greedy"]}, ["body", "players"]),
        ({"rules": "mcr"}, ["body", "rules"]),
        ({"games": 0}, ["body", "games"]),
        ({"seed": -1}, ["body", "seed"]),
        ({"weights": {"safety": "high"}}, ["body", "weights", "safety"]),
        ({"weights": {"courage": 1}}, ["body", "weights", "courage"]),
        ({"tables": 2}, ["body", "tables"]),
    ],
)
def test_bad_settings_are_422_naming_the_field(client: TestClient, change: dict, loc: list) -> None:
    answer = client.post("/simulate", json={**BODY, **change})
    assert answer.status_code == 422, answer.text
    assert [item["loc"] for item in answer.json()["detail"]] == [loc]
