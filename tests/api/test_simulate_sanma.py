"""POST /simulate under sanma: three seats, the library's report, a wrong lineup a 422 at ``players``."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.core.table.game import GameConfig
from app.selfplay.report import build_report
from app.selfplay.runner import run_games

SANMA = {"rules": "sanma", "players": ["advisor", "greedy", "advisor"], "games": 5, "seed": 3}


def test_sanma_seats_three_and_answers_the_libraries_report(client: TestClient) -> None:
    answer = client.post("/simulate", json=SANMA)
    assert answer.status_code == 200, answer.text
    config = GameConfig("sanma", tuple(SANMA["players"]), 3, record_events=False)
    report = answer.json()
    assert report == build_report(config, run_games(config, 5))
    assert [player["seat"] for player in report["players"]] == [0, 1, 2]
    (comparison,) = report["comparisons"]
    assert comparison["payment_difference"]["n"] == 5


@pytest.mark.parametrize(
    ("rules", "players"),
    [
        ("sanma", ["advisor", "greedy", "advisor", "random"]),
        ("riichi", ["advisor", "greedy", "advisor"]),
        ("sanma", ["advisor", "greedy"]),
    ],
)
def test_a_lineup_that_does_not_seat_the_rules_is_422_at_players(client: TestClient, rules, players) -> None:
    answer = client.post("/simulate", json={**SANMA, "rules": rules, "players": players})
    assert answer.status_code == 422, answer.text
    assert [item["loc"] for item in answer.json()["detail"]] == [["body", "players"]]
