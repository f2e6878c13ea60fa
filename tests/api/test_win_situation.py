"""/win and /ting with a situation: may the player declare this win now, under the rules' scoring profile?

Without a situation both answer for the shape (unchanged); with one, a complete shape
is scored, and the profile's refusals (riichi: no yaku; MCR: under 8 fans) answer
``win: false`` with the refusal's code as ``reason``; /ting keeps only the waits that score.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings

# A closed riichi hand: menzen tsumo on a self-draw; no yaku on a discard (no riichi, no tanyao: 1m).
CLOSED = "123m456p789s23455m"


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(create_app(Settings())) as test_client:
        yield test_client


def _win(client: TestClient, **body: Any) -> Any:
    return client.post("/win", json={"hand": CLOSED, "rules": "riichi", **body})


def test_without_a_situation_the_answer_is_the_shape_alone(client: TestClient) -> None:
    answer = _win(client).json()
    assert answer["win"] is True and answer["reason"] is None
    assert "score" not in answer and "refusal" not in answer


def test_a_scored_win_carries_the_score_answer(client: TestClient) -> None:
    situation = {"win_tile": "5m", "winner": 0, "dealer": 0}
    answer = _win(client, situation=situation).json()
    assert answer["win"] is True
    alone = client.post("/score", json={"hand": CLOSED, "rules": "riichi", **situation}).json()
    assert answer["score"] == alone
    assert [y["name"] for y in answer["score"]["yaku"]] == ["menzen_tsumo"]


def test_a_refused_complete_shape_is_not_a_win_and_says_why(client: TestClient) -> None:
    answer = _win(client, situation={"win_tile": "5m", "winner": 0, "dealer": 0, "discarder": 1}).json()
    assert answer["win"] is False and answer["complete_shape"] is True
    assert answer["reason"] == "no_yaku"
    assert "yaku" in answer["refusal"]
    assert "score" not in answer
    # The shape answer is unchanged by the situation.
    assert answer["decompositions"] == _win(client).json()["decompositions"]


def test_an_incomplete_shape_is_not_scored(client: TestClient) -> None:
    answer = client.post(
        "/win", json={"hand": "123m456p789s23456m", "situation": {"win_tile": "6m", "winner": 0, "dealer": 0}}
    ).json()
    assert answer["win"] is False and answer["complete_shape"] is False and answer["reason"] is None


def test_equal_hands_in_different_situations_are_not_confused_by_the_cache(client: TestClient) -> None:
    tsumo = {"win_tile": "5m", "winner": 0, "dealer": 0}
    ron = {**tsumo, "discarder": 2}
    for _ in range(2):
        assert _win(client, situation=tsumo).json()["win"] is True
        assert _win(client, situation=ron).json()["win"] is False


@pytest.mark.parametrize(
    ("body", "loc", "code"),
    [
        ({"situation": {"win_tile": "1z", "winner": 0, "dealer": 0}}, ["body", "situation", "win_tile"], None),
        (
            {"situation": {"win_tile": "5m", "winner": 0, "dealer": 0, "discarder": 0}},
            ["body", "situation", "discarder"],
            None,
        ),
        (
            {"situation": {"win_tile": "5m", "winner": 0, "dealer": 0, "flowers": 2}},
            ["body", "situation", "flowers"],
            None,
        ),
        ({"situation": {"win_tile": "5m", "winner": 5, "dealer": 0}}, ["body", "situation", "winner"], None),
        ({"situation": {"win_tile": "5m", "winner": 0}}, ["body", "situation", "dealer"], None),
        ({"situation": {"win_tile": "5m", "winner": 0, "dealer": 0}, "rules": "chinese"}, ["body", "situation"], None),
        ({"situation": {"win_tile": "5mm", "winner": 0, "dealer": 0}}, ["body", "situation", "win_tile"], None),
        ({"situation": {"win_tile": "5m", "winner": 0, "dealer": 0, "bogus": 1}}, ["body", "situation", "bogus"], None),
    ],
)
def test_an_impossible_situation_is_a_422_at_its_field(
    client: TestClient, body: dict[str, Any], loc: list[Any], code: str | None
) -> None:
    answer = client.post("/win", json={"hand": CLOSED, "rules": "riichi", **body})
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"][0]["loc"] == loc


# --- /ting with a situation: which waits the scoring profile lets the hand win on ---------


def test_ting_keeps_only_the_waits_that_reach_the_mcr_floor(client: TestClient) -> None:
    body = {"hand": "12345678m123p55s", "rules": "mcr"}
    situation = {"winner": 1, "dealer": 0, "discarder": 2}
    shape = client.post("/ting", json=body).json()
    assert [w["tile"] for w in shape["waits"]] == ["3m", "6m", "9m"] and "judged" not in shape
    judged = client.post("/ting", json={**body, "situation": situation}).json()
    # Only 9m makes the pure straight (16 fans); 3m and 6m leave a 6-fan hand.
    assert [w["tile"] for w in judged["waits"]] == ["9m"] and judged["tenpai"] is True
    assert judged["shape_waits"] == ["3m", "6m", "9m"]
    verdicts = {item["tile"]: item for item in judged["judged"]}
    assert verdicts["3m"]["reason"] == "below_minimum_fan" and verdicts["3m"]["score"] is None
    won = client.post("/score", json={**body, "hand": "123456789m123p55s", "win_tile": "9m", **situation}).json()
    assert verdicts["9m"]["win"] is True and verdicts["9m"]["score"] == won


def test_ting_whose_waits_all_fall_short_is_not_ready_and_says_why(client: TestClient) -> None:
    mcr = {"hand": "234567m345p2p", "melds": [{"kind": "chi", "tiles": "678s"}], "rules": "mcr"}
    answer = client.post("/ting", json={**mcr, "situation": {"winner": 1, "dealer": 0, "discarder": 2}}).json()
    assert answer["tenpai"] is False and answer["waits"] == [] and answer["reason"] == "below_minimum_fan"
    riichi = {"hand": "123m456p789s2345m", "rules": "riichi"}
    ron = client.post("/ting", json={**riichi, "situation": {"winner": 1, "dealer": 0, "discarder": 2}}).json()
    assert ron["tenpai"] is False and ron["reason"] == "no_yaku"
    # In riichi the same waits win: the situation decides, and the cache keeps them apart.
    declared = {"winner": 1, "dealer": 0, "discarder": 2, "riichi": True}
    assert client.post("/ting", json={**riichi, "situation": declared}).json()["tenpai"] is True
    assert client.post("/ting", json={**riichi, "situation": {**declared, "riichi": False}}).json()["tenpai"] is False


@pytest.mark.parametrize(
    ("situation", "rules", "loc"),
    [
        (
            {"winner": 1, "dealer": 0, "discarder": 2, "kong_replacement": True},
            "riichi",
            ["body", "situation", "kong_replacement"],
        ),
        ({"winner": 1, "dealer": 0, "win_tile": "2m"}, "riichi", ["body", "situation", "win_tile"]),
        ({"winner": 1, "dealer": 0, "flowers": 1}, "riichi", ["body", "situation", "flowers"]),
        ({"winner": 1, "dealer": 0}, "chinese", ["body", "situation"]),
    ],
)
def test_ting_situation_errors_are_422_at_their_field(
    client: TestClient, situation: dict[str, Any], rules: str, loc: list[Any]
) -> None:
    answer = client.post("/ting", json={"hand": "123m456p789s2345m", "rules": rules, "situation": situation})
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"][0]["loc"] == loc


def test_an_absent_tile_in_the_situation_is_named_under_situation(client: TestClient) -> None:
    situation = {"win_tile": "7s", "winner": 1, "dealer": 0, "dora_indicators": "5m"}
    answer = client.post("/win", json={"hand": "111999m123p45677s", "rules": "sanma", "situation": situation})
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"][0]["loc"] == ["body", "situation", "dora_indicators"]
    assert answer.json()["detail"][0]["type"] == "absent_tile"
