"""Issue 33's findings outside the record readers, one regression test each.

On the code before the fix, the absent-cycle requests never answered (``dora_table`` looped
forever when every wind or every dragon was absent: on the event loop for /win and /ting, in a
worker thread holding a slot for /discard, /score and /simulate); here each must answer at once.
"""

from __future__ import annotations

import copy
import json
import time
from typing import Any

import pytest
from api_helpers import assert_error
from fastapi.testclient import TestClient

#: Far more than any of these takes (milliseconds), far less than "never".
QUICK_SECONDS = 5.0
WINDS = ["1z", "2z", "3z", "4z"]
DRAGONS = ["5z", "6z", "7z"]


def _rules(absent: list[str], preset: str = "riichi") -> dict[str, Any]:
    return {"preset": preset, "thirteen_orphans": False, "absent_tiles": absent}


def _timed_post(client: TestClient, path: str, body: dict[str, Any]) -> Any:
    started = time.monotonic()
    answer = client.post(path, json=body)
    assert time.monotonic() - started < QUICK_SECONDS, path
    return answer


@pytest.mark.parametrize("absent", [WINDS, DRAGONS, WINDS + DRAGONS], ids=["winds", "dragons", "honours"])
def test_win_and_ting_with_a_situation_when_a_whole_honour_cycle_is_absent(
    client: TestClient, absent: list[str]
) -> None:
    rules = _rules(absent)
    win = _timed_post(
        client,
        "/win",
        {
            "hand": "123456789m11p456s",
            "rules": rules,
            "situation": {"win_tile": "9m", "winner": 0, "dealer": 0, "dora_indicators": "8m"},
        },
    )
    assert win.status_code == 200, win.text
    assert win.json()["win"] is True
    ting = _timed_post(
        client, "/ting", {"hand": "123456789m1p456s", "rules": rules, "situation": {"winner": 0, "dealer": 0}}
    )
    assert ting.status_code == 200, ting.text
    assert [wait["tile"] for wait in ting.json()["waits"]] == ["1p"]


def test_score_when_every_dragon_is_absent(client: TestClient) -> None:
    body = {
        "hand": "123456789m11p456s",
        "win_tile": "9m",
        "rules": _rules(DRAGONS),
        "winner": 0,
        "dealer": 0,
        "dora_indicators": "8m",
    }
    answer = _timed_post(client, "/score", body)
    assert answer.status_code == 200, answer.text
    assert {"name": "dora", "han": 1} in answer.json()["yaku"], answer.text  # 8m names 9m, held once


@pytest.mark.parametrize(
    "body",
    [
        {"hand": "1123340678m99m45p", "rules": "sichuan"},  # a red five: the dora table is built
        {"hand": "1123345678m99m45p", "rules": "sichuan", "dora_indicators": "1m"},
        {"hand": "1123345678m99m45p", "rules": _rules(WINDS), "dora_indicators": "1m"},
    ],
    ids=["sichuan-red-five", "sichuan-dora", "riichi-no-winds"],
)
def test_discard_when_a_whole_honour_cycle_is_absent(client: TestClient, body: dict[str, Any]) -> None:
    answer = _timed_post(client, "/discard", body)
    assert answer.status_code == 200, answer.text
    assert answer.json()["best"] is not None


@pytest.mark.parametrize("absent", [DRAGONS, WINDS], ids=["dragons", "winds"])
def test_simulate_with_advisors_when_a_whole_honour_cycle_is_absent(client: TestClient, absent: list[str]) -> None:
    options = {"thirteen_orphans": False, "absent_tiles": absent}
    body = {"rules": "riichi", "games": 1, "seed": 1, "players": ["advisor"] * 4, "options": options}
    answer = _timed_post(client, "/simulate", body)
    assert answer.status_code == 200, answer.text
    assert answer.json().get("complete", True) is True


def test_simulate_sichuan_without_void_suits_is_no_client_error(client: TestClient) -> None:
    # Without the void suit option the table used to let a hand of all three suits win, and the
    # scorer refused it: a 400 at body.hand, a field the request does not have.  The table now
    # asks the scorer's rule (缺一门): such a hand neither wins nor counts as ready.
    for seed in range(1, 6):
        body = {"rules": "sichuan", "games": 2, "seed": seed, "players": ["advisor", "greedy", "linear", "random"]}
        answer = client.post("/simulate", json={**body, "options": {"void_suit": False}})
        assert answer.status_code == 200, answer.text


START = {
    "type": "start_kyoku",
    "bakaze": "E",
    "dora_marker": "?",
    "kyoku": 1,
    "honba": 0,
    "kyotaku": 0,
    "oya": 0,
    "scores": [25000] * 4,
    "tehais": [
        ["1m", "1m", "4m", "7m", "1p", "4p", "7p", "2s", "5s", "8s", "E", "S", "N"],
        ["2m", "3m", "4m", "5p", "6p", "7p", "3s", "4s", "5s", "P", "P", "P", "9s"],
        ["1s", "1s", "2p", "3p", "6m", "8m", "9m", "W", "W", "F", "C", "C", "6s"],
        ["2m", "5m", "6m", "8p", "9p", "9p", "3p", "6s", "7s", "7s", "F", "S", "E"],
    ],
}
EVENTS = [{"type": "start_game", "names": ["A", "B", "C", "D"]}, START, {"type": "tsumo", "actor": 0, "pai": "9s"}]


@pytest.mark.parametrize("path", ["/act", "/review", "/referee"])
def test_an_unseen_first_dora_indicator_is_a_malformed_event(client: TestClient, path: str) -> None:
    # A dora indicator is shown to every seat: "?" there was an IndexError (a 500) in /act and /review.
    body: dict[str, Any] = {"events": copy.deepcopy(EVENTS)}
    if path != "/referee":
        body["seat"] = 0
    answer = client.post(path, json=body)
    item = assert_error(answer, 422, ["body", "events", 1, "dora_marker"], "malformed_event")
    assert "dora indicator" in item["msg"]


def test_a_body_that_is_no_text_gets_our_words(client: TestClient) -> None:
    answer = client.post("/shanten", content=b'{"hand": "\xff\xfe\xfa"}', headers={"content-type": "application/json"})
    item = assert_error(answer, 422, ["body"], "json_invalid")
    assert "codec" not in item["msg"] and "utf-8" not in item["msg"], item["msg"]


@pytest.mark.parametrize(
    ("path", "body", "loc"),
    [
        ("/simulate", {"rules": "mcr", "players": ["greedy"] * 3, "games": 1, "options": {"seats": 3}}, "options"),
        (
            "/score",
            {
                "hand": "123456789m123p55s",
                "win_tile": "9m",
                "rules": {"preset": "mcr", "seats": 3},
                "winner": 1,
                "dealer": 0,
            },
            "rules",
        ),
    ],
    ids=["simulate", "score"],
)
def test_mcr_at_three_seats_is_refused(client: TestClient, path: str, body: dict[str, Any], loc: str) -> None:
    # Found by the hostile fuzz test: a 500 (IndexError) in /simulate, four payments in /score.
    assert_error(client.post(path, json=body), 422, ["body", loc, "seats"], "invalid_rule_option")


@pytest.mark.parametrize("to", ["tenhou6", "mjlog"])
def test_a_game_without_dora_indicators_is_not_written_as_a_tenhou_log(client: TestClient, to: str) -> None:
    # Found by the hostile fuzz helper: "not a tile: None" for a Chinese game; now it says why.
    from app.core.families.registry import TABLES
    from app.core.table.game import GameConfig, play_game

    events = play_game(GameConfig("chinese", ("greedy",) * 4, 1), 0, TABLES).events
    log = "\n".join(json.dumps(event) for event in events)
    answer = client.post("/records/convert", json={"log": log, "format": "mjai", "to": to, "rules": "chinese"})
    item = assert_error(answer, 422, ["body", "to", "events", 1, "dora_marker"], "malformed_log")
    assert "write it as mjai" in item["msg"], item["msg"]
