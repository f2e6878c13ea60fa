"""POST /simulate: the CLI's report over HTTP, deterministic, capped and refusing bad settings."""

from __future__ import annotations

import json

import pytest
from api_helpers import started
from fastapi.testclient import TestClient

from app.api.heavy import Budget
from app.api.routes.simulate import SECONDS_PER_GAME, play_report, simulate_seconds
from app.core.advice.discard import Weights
from app.core.table.simulator import GameConfig
from app.selfplay.errors import InvalidRunOption
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
        ({"rules": "hong_kong"}, ["body", "rules"]),
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


# --- bounded runs: the budget, the client leaving -----------------------------------------

CONFIG = GameConfig("chinese", tuple(BODY["players"]), 9)


def test_stop_ends_a_run_between_games_with_the_games_played() -> None:
    asked = []

    def stop() -> bool:
        asked.append(len(asked))
        return len(asked) == 3

    results = run_games(CONFIG, 10, stop=stop)
    # Asked after games 1, 2 and 3: the run is the first three games, as a 3-game run plays them.
    assert len(asked) == 3 and results == run_games(CONFIG, 3)
    assert run_games(CONFIG, 4, stop=lambda: False) == run_games(CONFIG, 4)
    with pytest.raises(InvalidRunOption):
        run_games(CONFIG, 4, workers=2, stop=lambda: False)


def test_a_run_whose_client_left_stops_after_the_game_in_play() -> None:
    budget = Budget(deadline=float("inf"))
    budget.gone.set()
    finished = play_report(CONFIG, 50, budget)
    assert not finished.complete
    report = json.loads(finished.body)
    assert report.pop("complete") is False and report.pop("games_requested") == 50
    assert report == build_report(CONFIG, run_games(CONFIG, 1))


def test_a_run_past_its_deadline_reports_what_it_played() -> None:
    finished = play_report(CONFIG, 50, Budget(deadline=0.0))
    report = json.loads(finished.body)
    assert not finished.complete and report["games"] == 1 and report["complete"] is False


def test_a_finished_run_is_the_cli_report_without_flags() -> None:
    finished = play_report(CONFIG, 3, Budget(deadline=float("inf")))
    assert finished.complete and json.loads(finished.body) == build_report(CONFIG, run_games(CONFIG, 3))


def test_the_budget_of_a_run_grows_with_its_games() -> None:
    assert simulate_seconds(1, 2.0) == 2.0
    assert simulate_seconds(200, 2.0) == 200 * SECONDS_PER_GAME
    assert simulate_seconds(20, 30.0) == 30.0
