"""POST /score: Qiqihar payments, the seed's worked example, and refusals (riichi: test_score_riichi_route.py)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

PON_EAST = {"kind": "pon", "tiles": "111z"}
WIN = {"hand": "123m456p78s99s7z", "melds": [PON_EAST], "win_tile": "9s", "rules": "qiqihar"}


def _score(client: TestClient, **context: object) -> dict:
    answer = client.post("/score", json={**WIN, **context})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_seed_example_dealer_self_draw_holding_red_dragon(client: TestClient) -> None:
    answer = _score(client, winner=0, dealer=0)
    assert answer["payments"] == [24, -8, -8, -8]
    assert answer["per_payer"] == [{"seat": 1, "pays": 8}, {"seat": 2, "pays": 8}, {"seat": 3, "pays": 8}]
    assert [m["name"] for m in answer["multipliers"]] == ["self_draw", "red_dragon_held", "dealer"]


@pytest.mark.parametrize(
    ("context", "payments"),
    [
        ({"winner": 1, "dealer": 0}, [-8, 16, -4, -4]),  # self-draw with 红中: 4 each, the dealer 8
        ({"winner": 1, "dealer": 0, "discarder": 2}, [0, 4, -4, 0]),  # discard, 红中, no dealer involved
        ({"winner": 1, "dealer": 2, "discarder": 2}, [0, 8, -8, 0]),  # the dealer discarded
        # A kong replacement needs a kong: the pon of East grown to an added kong.
        (
            {"winner": 1, "dealer": 3, "kong_replacement": True, "melds": [{"kind": "added_kan", "tiles": "1111z"}]},
            [-8, 32, -8, -16],
        ),
        ({"winner": 2, "dealer": 2, "discarder": 0, "robbed_kong": True}, [-16, 0, 16, 0]),
    ],
)
def test_payments_follow_the_multipliers(client: TestClient, context: dict, payments: list[int]) -> None:
    answer = _score(client, **context)
    assert answer["payments"] == payments and sum(answer["payments"]) == 0


def test_no_red_dragon_no_doubling(client: TestClient) -> None:
    body = {**WIN, "hand": "123m456p789s99s", "winner": 0, "dealer": 1, "discarder": 3}
    answer = client.post("/score", json=body).json()
    assert answer["payments"] == [2, 0, 0, -2]
    assert [m["name"] for m in answer["multipliers"]] == ["discard_win"]


def test_a_hand_that_does_not_win_is_a_400(client: TestClient) -> None:
    body = {**WIN, "melds": [], "hand": "123m456p78s99s7z111z", "winner": 0, "dealer": 0}
    answer = client.post("/score", json=body)
    assert answer.status_code == 400
    assert answer.json()["error"] == "not_a_winning_hand"
    assert answer.json()["detail"][0]["type"] == "not_a_winning_hand"


@pytest.mark.parametrize(
    ("context", "loc"),
    [
        ({"winner": 0, "dealer": 0, "discarder": 0}, ["body", "discarder"]),
        ({"winner": 0, "dealer": 0, "discarder": 1, "kong_replacement": True}, ["body", "kong_replacement"]),
        ({"winner": 0, "dealer": 0, "kong_replacement": True}, ["body", "kong_replacement"]),  # no kong
        ({"winner": 0, "dealer": 0, "robbed_kong": True}, ["body", "robbed_kong"]),
        ({"winner": 4, "dealer": 0}, ["body", "winner"]),
        ({"winner": 0, "dealer": 0, "win_tile": "5m"}, ["body", "win_tile"]),
        ({"winner": 0, "dealer": 0, "win_tile": "9s9s"}, ["body", "win_tile"]),
        ({"winner": 0, "dealer": 0, "rules": "chinese"}, ["body", "rules"]),  # no scoring profile
        ({"winner": "0", "dealer": 0}, ["body", "winner"]),  # seats are JSON integers, not strings
        ({"winner": 0, "dealer": 0, "robbed_kong": 0}, ["body", "robbed_kong"]),  # nor flags 0/1
        # The riichi situation is not read by Qiqihar scoring: refused at its field, not ignored.
        ({"winner": 0, "dealer": 0, "riichi": True}, ["body", "riichi"]),
        ({"winner": 0, "dealer": 0, "dora_indicators": "1m"}, ["body", "dora_indicators"]),
        ({"winner": 0, "dealer": 0, "round_wind": "2z"}, ["body", "round_wind"]),
        ({"winner": 0, "dealer": 0, "honba": 1}, ["body", "honba"]),
    ],
)
def test_impossible_contexts_are_422_at_their_field(client: TestClient, context: dict, loc: list) -> None:
    answer = client.post("/score", json={**WIN, **context})
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"][0]["loc"][:2] == loc


def test_riichi_fields_at_their_defaults_are_accepted(client: TestClient) -> None:
    defaults = {
        "round_wind": "东",
        "dora_indicators": "",
        "ura_indicators": [],
        "riichi": False,
        "double_riichi": False,
        "ippatsu": False,
        "last_tile": False,
        "first_turn": False,
        "honba": 0,
        "riichi_sticks": 0,
    }
    answer = _score(client, winner=0, dealer=0, **defaults)
    assert answer == {
        "payments": [24, -8, -8, -8],
        "multipliers": [
            {"name": "self_draw", "factor": 2},
            {"name": "red_dragon_held", "factor": 2},
            {"name": "dealer", "factor": 2},
        ],
        "per_payer": [{"seat": 1, "pays": 8}, {"seat": 2, "pays": 8}, {"seat": 3, "pays": 8}],
    }


def test_rules_default_to_riichi_as_on_every_route(client: TestClient) -> None:
    # The contract's riichi example without "rules" is scored as riichi, not refused as Qiqihar
    # refuses the riichi fields ("dora_indicators is not used by qiqihar scoring").
    riichi = {
        "hand": "233440m567p11s",
        "melds": [{"kind": "pon", "tiles": "777z"}],
        "win_tile": "4m",
        "winner": 1,
        "dealer": 0,
        "discarder": 3,
        "dora_indicators": "4p",
    }
    answer = client.post("/score", json=riichi)
    assert answer.status_code == 200, answer.text
    assert answer.json() == client.post("/score", json={**riichi, "rules": "riichi"}).json()
    assert (answer.json()["han"], answer.json()["payments"]) == (3, [0, 3900, 0, -3900])
    # Qiqihar's win leans on the 7z wildcard, which riichi does not have: asked without rules it does not win.
    body = {key: value for key, value in WIN.items() if key != "rules"}
    refused = client.post("/score", json={**body, "winner": 0, "dealer": 0})
    assert refused.status_code == 400 and refused.json()["error"] == "not_a_winning_hand"
    assert client.post("/score", json={**WIN, "winner": 0, "dealer": 0}).json()["payments"] == [24, -8, -8, -8]
