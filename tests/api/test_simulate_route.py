"""POST /simulate: the CLI's report over HTTP, deterministic, capped and refusing bad settings."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable

import pytest
from api_helpers import started
from fastapi.testclient import TestClient

from app.api.heavy import Budget
from app.api.routes.simulate import play_report
from app.core.advice.discard import Weights
from app.core.table.game import GameConfig
from app.selfplay.errors import InvalidRunOption
from app.selfplay.report import build_report
from app.selfplay.runner import run_games
from app.settings import Settings

BODY = {"rules": "chinese", "players": ["advisor", "greedy", "heuristic", "random"], "games": 6, "seed": 9}


def test_the_report_is_the_libraries_report(client: TestClient) -> None:
    answer = client.post("/simulate", json={**BODY, "weights": {"safety": 2.0}})
    assert answer.status_code == 200, answer.text
    config = GameConfig("chinese", tuple(BODY["players"]), 9, weights=Weights(safety=2.0), record_events=False)
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

CONFIG = GameConfig("chinese", tuple(BODY["players"]), 9, record_events=False)
#: The costliest lineup: four riichi advisors, whose expected-score searches take about 0.9 s
#: of CPU a hand (up to 2 s).
ADVISORS = GameConfig("riichi", ("advisor",) * 4, 5, record_events=False)


def _stop_after(games: int) -> tuple[Callable[[int, int], None], Callable[[], bool]]:
    """A progress callback and a stop that says stop once ``games`` games are finished."""
    finished = [0]

    def progress(done: int, total: int) -> None:
        finished[0] = done

    return progress, lambda: finished[0] >= games


def test_stop_ends_a_run_with_the_games_finished() -> None:
    progress, stop = _stop_after(3)
    results = run_games(CONFIG, 10, progress=progress, stop=stop)
    # The stop is heard in game 3, which is abandoned: the run is the first three games, as a 3-game run plays them.
    assert results == run_games(CONFIG, 3)
    assert run_games(CONFIG, 4, stop=lambda: False) == run_games(CONFIG, 4)
    with pytest.raises(InvalidRunOption):
        run_games(CONFIG, 4, workers=2, stop=lambda: False)


def test_a_stop_heard_inside_a_search_abandons_the_game_in_play() -> None:
    # The stop answers True once, the first time the advisor's expected-score search asks it
    # (the compiled search calls it from inside expected_scores), then False again: the cut
    # search's discard is never played, the game never finished.
    asked_by: list[str] = []

    def fickle() -> bool:
        caller = sys._getframe(2)  # past the table's latch, which remembers a True
        asked_by.append(caller.f_code.co_name)
        return asked_by.count("expected_scores") == 1 and asked_by[-1] == "expected_scores"

    assert run_games(ADVISORS, 3, stop=fickle) == []
    assert asked_by[-1] == "expected_scores"  # nothing asked after the game was abandoned
    assert "_heed_stop" in asked_by  # the table asks too, between turns and after discards


def test_a_run_whose_client_left_plays_no_more() -> None:
    budget = Budget(deadline=float("inf"))
    budget.gone.set()
    finished = play_report(ADVISORS, 50, budget)
    assert not finished.complete
    report = json.loads(finished.body)
    assert report.pop("complete") is False and report.pop("games_requested") == 50
    assert report == build_report(ADVISORS, []) and report["games"] == 0


def test_a_run_past_its_deadline_reports_the_games_finished() -> None:
    finished = play_report(CONFIG, 50, Budget(deadline=0.0))
    report = json.loads(finished.body)
    assert not finished.complete and report["games"] == 0 and report["complete"] is False
    assert report["players"][0]["win_rate"] == {"value": None, "ci95": None, "n": 0}


def test_a_finished_run_is_the_cli_report_without_flags() -> None:
    finished = play_report(CONFIG, 3, Budget(deadline=float("inf")))
    assert finished.complete and json.loads(finished.body) == build_report(CONFIG, run_games(CONFIG, 3))


def test_a_run_answers_within_the_simulate_seconds_setting() -> None:
    # 200 riichi games with an advisor take a minute of CPU; the run answers at its bound with
    # the games it finished (a few, even on a busy machine: about 0.2 s of CPU each).
    seconds = 2.0
    lineup = GameConfig("riichi", ("advisor", "greedy", "heuristic", "random"), 5, record_events=False)
    client = started(Settings(simulate_seconds=seconds))
    try:
        body = {"rules": "riichi", "players": list(lineup.players), "games": 200, "seed": 5}
        started_at = time.monotonic()
        answer = client.post("/simulate", json=body)
        elapsed = time.monotonic() - started_at
        assert answer.status_code == 200, answer.text
        report = answer.json()
        # Wall time is the promise here: a wide margin over the bound (the stop is heard within
        # milliseconds; the report of the games finished takes a few more).
        assert elapsed < seconds + 2.0, elapsed
        assert report.pop("complete") is False and report.pop("games_requested") == 200
        assert 1 <= report["games"] < 200 and answer.headers["cache-control"] == "no-store"
        # The figures are over the games played: the report of a run of that many games.
        assert report == build_report(lineup, run_games(lineup, report["games"]))
        assert client.get("/limits").json()["simulate_seconds"] == seconds
    finally:
        client.__exit__(None, None, None)


def test_the_simulate_bound_defaults_to_ten_seconds_and_is_a_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings().simulate_seconds == 10.0
    monkeypatch.setenv("TENPAI_SIMULATE_SECONDS", "4.5")
    assert Settings().simulate_seconds == 4.5
    monkeypatch.setenv("TENPAI_SIMULATE_SECONDS", "0")
    with pytest.raises(ValueError, match="simulate_seconds"):
        Settings()


# --- whole games: length --------------------------------------------------------------------------

HANCHANS = {"rules": "riichi", "players": ["linear", "greedy", "linear", "random"], "games": 2, "seed": 7}


def test_a_hanchan_run_is_the_libraries_report_of_whole_games(client: TestClient) -> None:
    answer = client.post("/simulate", json={**HANCHANS, "length": "hanchan"})
    assert answer.status_code == 200, answer.text
    report = answer.json()
    config = GameConfig("riichi", tuple(HANCHANS["players"]), 7, length="hanchan", record_events=False)
    records = run_games(config, 2)
    assert report == build_report(config, records)
    assert report["length"] == "hanchan" and report["hands"] == sum(len(record.hands) for record in records) > 2
    assert [entry["game"] for entry in report["placements"]] == [0, 1]
    assert all(
        sorted(entry["ranks"]) == [1, 2, 3, 4] and sum(entry["scores"]) == 100_000 for entry in report["placements"]
    )
    assert report["rank_points"] == [90, 45, 0, -135]


def test_the_default_length_is_one_hand_and_each_length_is_its_own_report(client: TestClient) -> None:
    kyoku = client.post("/simulate", json=HANCHANS).json()
    assert (kyoku["length"], kyoku["hands"], kyoku["games"]) == ("kyoku", 2, 2)
    assert client.post("/simulate", json={**HANCHANS, "length": "kyoku"}).json() == kyoku
    tonpuu = client.post("/simulate", json={**HANCHANS, "length": "tonpuu"}).json()
    assert tonpuu["length"] == "tonpuu" and tonpuu["hands"] > kyoku["hands"]


@pytest.mark.parametrize(
    ("change", "kind"),
    [
        ({"length": "marathon"}, "enum"),
        ({"length": 2}, "enum"),
        (
            {"rules": "qiqihar", "players": ["advisor", "greedy", "advisor", "random"], "length": "hanchan"},
            "invalid_game_config",
        ),
        (
            {"rules": "mcr", "players": ["advisor", "greedy", "advisor", "random"], "length": "tonpuu"},
            "invalid_game_config",
        ),
    ],
)
def test_a_bad_length_is_422_at_length(client: TestClient, change: dict, kind: str) -> None:
    answer = client.post("/simulate", json={**HANCHANS, **change})
    assert answer.status_code == 422, answer.text
    (item,) = answer.json()["detail"]
    assert item["loc"] == ["body", "length"] and item["type"] == kind


SICHUAN = {"rules": "sichuan", "players": ["advisor", "greedy", "greedy", "greedy"], "games": 6, "seed": 3}


def test_rule_options_reach_the_table_and_the_report_counts_sichuan_fans(client: TestClient) -> None:
    answer = client.post("/simulate", json={**SICHUAN, "options": {"bloody_river": True}})
    assert answer.status_code == 200, answer.text
    config = GameConfig("sichuan", tuple(SICHUAN["players"]), 3, options=(("bloody_river", True),), record_events=False)
    assert answer.json() == build_report(config, run_games(config, 6))
    # Blood battle and bloody river deal the same walls but play differently.
    assert client.post("/simulate", json=SICHUAN).json()["players"] != answer.json()["players"]
    wins = sum(player["flush_win_share"]["n"] for player in answer.json()["players"])
    assert wins == sum(player["average_fan"]["n"] for player in answer.json()["players"]) > 0


@pytest.mark.parametrize(
    ("options", "field", "code"),
    [
        ({"bloody_rivr": True}, "bloody_rivr", "invalid_rule_option"),
        ({"max_fan": 99}, "max_fan", "invalid_rule_option"),
        ({"self_draw_bonus": "double"}, "self_draw_bonus", "invalid_rule_option"),
    ],
)
def test_a_bad_rule_option_is_a_422_at_its_name(client: TestClient, options: dict, field: str, code: str) -> None:
    answer = client.post("/simulate", json={**SICHUAN, "options": options})
    assert answer.status_code == 422
    assert answer.json()["detail"][0]["loc"] == ["body", "options", field]
    assert answer.json()["error"] == code
