"""The void suit (定缺) on the hand routes under ``rules: "sichuan"``.

``void_suit`` ("m", "p" or "s") is taken by /win, /ting, /shanten (and their batches) and
/discard under rules with a void suit; under other rules it is a 422 naming the field, and
a value that is not a suit is a 422 at the field too.  Every answer under sichuan names the
void suit it assumed: the request's, or the best suit to void.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

READY = "123456789m1123p"  # void s: waits 1p 4p; void p: far


def test_shanten_names_the_best_suit_when_none_is_given(client: TestClient) -> None:
    answer = client.post("/shanten", json={"hand": READY, "rules": "sichuan"}).json()
    assert (answer["shanten"], answer["void_suit"]) == (0, "s")
    assert [item["tile"] for item in answer["ukeire"]] == ["1p", "4p"]


def test_shanten_counts_void_tiles_as_tiles_to_throw(client: TestClient) -> None:
    answer = client.post("/shanten", json={"hand": READY, "rules": "sichuan", "void_suit": "p"}).json()
    assert (answer["shanten"], answer["void_suit"]) == (4, "p")
    assert not any(item["tile"].endswith("p") for item in answer["ukeire"])


def test_ting_never_waits_on_the_void_suit(client: TestClient) -> None:
    ready = client.post("/ting", json={"hand": READY, "rules": "sichuan", "void_suit": "s"}).json()
    assert ready["tenpai"] and ready["void_suit"] == "s"
    assert [w["tile"] for w in ready["waits"]] == ["1p", "4p"]
    # A void tile held: the hand is not ready, whatever its shape.
    held = client.post("/ting", json={"hand": "123456789m1125p", "rules": "sichuan", "void_suit": "p"}).json()
    assert not held["tenpai"] and held["waits"] == [] and held["void_suit"] == "p"


def test_win_refuses_a_hand_holding_its_void_suit(client: TestClient) -> None:
    hand = "123m456m789m11p555s"
    refused = client.post("/win", json={"hand": hand, "rules": "sichuan", "void_suit": "s"}).json()
    assert (refused["win"], refused["reason"], refused["complete_shape"], refused["void_suit"]) == (
        False,
        "void_suit_held",
        True,
        "s",
    )
    # With none named, a hand holding all three suits cannot win: no void suit is given back.
    auto = client.post("/win", json={"hand": hand, "rules": "sichuan"}).json()
    assert (auto["win"], auto["reason"]) == (False, "void_suit_held") and "void_suit" not in auto
    melded = client.post(
        "/win",
        json={"hand": "123m456m789m11m", "melds": [{"kind": "pon", "tiles": "555s"}], "rules": "sichuan"},
    ).json()
    assert (melded["win"], melded["void_suit"]) == (True, "p")
    on_meld = client.post(
        "/win",
        json={
            "hand": "123m456m789m11m",
            "melds": [{"kind": "pon", "tiles": "555s"}],
            "rules": "sichuan",
            "void_suit": "s",
        },
    ).json()
    assert (on_meld["win"], on_meld["reason"]) == (False, "void_suit_held")


def test_a_meld_of_the_void_suit_has_no_shanten(client: TestClient) -> None:
    response = client.post(
        "/shanten",
        json={
            "hand": "123m456m789m1m",
            "melds": [{"kind": "pon", "tiles": "555s"}],
            "rules": "sichuan",
            "void_suit": "s",
        },
    )
    assert response.status_code == 422
    body = response.json()
    assert body["error"] == "void_suit_melded" and body["detail"][0]["loc"] == ["body", "melds", 0, "tiles"]


@pytest.mark.parametrize("path", ["/shanten", "/ting", "/win", "/discard", "/shanten/batch"])
def test_void_suit_is_refused_under_rules_without_one(client: TestClient, path: str) -> None:
    hand = "123456789m1123p" if path in ("/ting", "/shanten") else "123456789m1123p5s"
    body = {"hands": [hand]} if path.endswith("batch") else {"hand": hand}
    response = client.post(path, json={**body, "rules": "riichi", "void_suit": "s"})
    assert response.status_code == 422
    answer = response.json()
    assert answer["error"] == "invalid_void_suit" and answer["detail"][0]["loc"] == ["body", "void_suit"]
    assert "no void suit" in answer["detail"][0]["msg"]


@pytest.mark.parametrize("value", ["z", "man", 1, ""])
def test_a_void_suit_that_is_no_suit_is_refused_at_the_field(client: TestClient, value: object) -> None:
    response = client.post("/shanten", json={"hand": READY, "rules": "sichuan", "void_suit": value})
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "void_suit"]


def test_other_rules_answer_without_void_suit(client: TestClient) -> None:
    for path, hand in (("/shanten", READY), ("/ting", READY), ("/win", "123456789m11123p")):
        assert "void_suit" not in client.post(path, json={"hand": hand}).json()


def test_batches_take_the_void_suit(client: TestClient) -> None:
    batch = client.post(
        "/shanten/batch", json={"hands": [READY, "123456789m1125s"], "rules": "sichuan", "void_suit": "p"}
    ).json()["results"]
    assert [(item["shanten"], item["void_suit"]) for item in batch] == [(4, "p"), (1, "p")]
    single = client.post("/shanten", json={"hand": READY, "rules": "sichuan", "void_suit": "p"}).json()
    assert batch[0] == single


def test_the_void_suit_is_part_of_the_cached_question(fresh_client: TestClient) -> None:
    first = fresh_client.post("/shanten", json={"hand": READY, "rules": "sichuan", "void_suit": "s"}).json()
    second = fresh_client.post("/shanten", json={"hand": READY, "rules": "sichuan", "void_suit": "p"}).json()
    assert (first["shanten"], second["shanten"]) == (0, 4)


def test_discard_throws_void_tiles_first(client: TestClient) -> None:
    answer = client.post("/discard", json={"hand": "123456789m1123p5s", "rules": "sichuan", "void_suit": "s"}).json()
    assert answer["void_suit"] == "s" and answer["best"] == "5s"
    assert [c["tile"] for c in answer["candidates"]] == ["5s"]
    assert "void suit s" in answer["candidates"][0]["reasons"][0]
    # Two void tiles: both are candidates, and nothing else is.
    two = client.post("/discard", json={"hand": "123456789m112p59s", "rules": "sichuan", "void_suit": "s"}).json()
    assert sorted(c["tile"] for c in two["candidates"]) == ["5s", "9s"]
    # None named: the best suit to void is played, and said.
    auto = client.post("/discard", json={"hand": "123456789m1123p5s", "rules": "sichuan"}).json()
    assert auto["void_suit"] == "s" and auto["best"] == "5s"


def test_discard_values_a_near_flush_above_a_faster_plain_hand(client: TestClient) -> None:
    answer = client.post("/discard", json={"hand": "1123345678m99m45p", "rules": "sichuan"}).json()
    assert answer["model"] == "expected_score" and answer["void_suit"] == "s"
    assert answer["best"] in ("4p", "5p") and answer["value_search"]["complete"]
    by_tile = {c["tile"]: c for c in answer["candidates"]}
    assert by_tile["1m"]["shanten"] == 0 and by_tile[answer["best"]]["shanten"] == 1
    assert by_tile[answer["best"]]["expected_score"] > by_tile["1m"]["expected_score"]


def test_win_takes_the_void_suit_with_a_situation(client: TestClient) -> None:
    body = {
        "hand": "11123456789999m",
        "rules": "sichuan",
        "situation": {"winner": 0, "dealer": 0, "discarder": 2, "win_tile": "9m"},
    }
    scored = client.post("/win", json={**body, "void_suit": "p"}).json()
    assert scored["win"] and scored["void_suit"] == "p" and scored["score"]["multiplier"] == 8
    clash = client.post("/win", json={**body, "void_suit": "p", "situation": {**body["situation"], "void_suit": "s"}})
    assert clash.status_code == 422 and clash.json()["detail"][0]["loc"] == ["body", "void_suit"]
