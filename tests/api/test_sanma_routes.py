"""The hand routes under ``rules: "sanma"``: 2m-8m do not exist.

No answer waits on, accepts or counts 2m-8m; a hand, meld, visible tile,
opponent's tile or wildcard holding one is a 422 at its field; the batch
routes take the per-hand path and answer as the single-hand routes do.
"""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from app.api.batch_fast import shanten_batch_json, ting_batch_json
from app.api.schemas.common import BatchRequest
from app.core.advice.expected_score import expected_scores
from app.core.shape.hand import Hand
from app.core.shape.rules import rule_profile
from app.core.shape.tiles import format_mpsz, format_tile, parse_mpsz

ABSENT = {f"{n}m" for n in range(2, 9)}
EXISTING = [tile for tile in range(34) if not 1 <= tile <= 7]
REASON = "does not exist in sanma: 108 tiles, no 2m-8m"


def _tiles(items: list[dict]) -> set[str]:
    return {item["tile"] for item in items}


def _sanma_hands(seed: int, size: int, rows: int) -> list[str]:
    rng = random.Random(seed)
    hands = []
    for row in range(rows):
        kinds = EXISTING if row % 2 else [0, 8, *rng.sample(EXISTING[2:], 5)]
        hands.append(format_mpsz(rng.sample([t for t in kinds for _ in range(4)], size)))
    return hands


def test_rules_lists_the_sanma_preset(client: TestClient) -> None:
    presets = {preset["name"]: preset for preset in client.get("/rules").json()["presets"]}
    sanma = presets["sanma"]
    assert sanma["absent_tiles"] == sorted(ABSENT) and sanma["seats"] == 3
    assert sanma["chi_allowed"] is False and sanma["thirteen_orphans"] is True and sanma["furiten"] is True
    assert presets["riichi"]["absent_tiles"] == [] and presets["riichi"]["seats"] == 4


def test_shanten_counts_no_absent_tile(client: TestClient) -> None:
    body = {"hand": "11119999m11s", "rules": "sanma"}
    answer = client.post("/shanten", json=body).json()
    assert answer["shanten"] == 2 and not ABSENT & _tiles(answer["ukeire"])
    four_player = client.post("/shanten", json={**body, "rules": "riichi"}).json()
    assert four_player["shanten"] == 1  # through 2m3m, which sanma does not have


def test_ting_waits_are_never_absent(client: TestClient) -> None:
    for hand in _sanma_hands(1, 13, 60):
        answer = client.post("/ting", json={"hand": hand, "rules": "sanma"}).json()
        assert not ABSENT & _tiles(answer["waits"]) and not ABSENT & set(answer["shape_waits"])
    ready = client.post("/ting", json={"hand": "11m99m123p456p789s", "rules": "sanma"}).json()
    assert [(w["tile"], w["remaining"]) for w in ready["waits"]] == [("1m", 2), ("9m", 2)]


def test_win_under_sanma(client: TestClient) -> None:
    assert client.post("/win", json={"hand": "111m999m123p456p11z", "rules": "sanma"}).json()["win"] is True
    assert client.post("/win", json={"hand": "19m19p19s12345677z", "rules": "sanma"}).json()["win"] is True


def test_discard_candidates_never_count_absent_tiles(client: TestClient) -> None:
    answer = client.post("/discard", json={"hand": "119m1p2p4p5p7s8s9s1235z", "rules": "sanma"})
    assert answer.status_code == 200
    for candidate in answer.json()["candidates"]:
        assert not ABSENT & _tiles(candidate["ukeire"])


def test_discard_ranks_sanma_by_expected_score(client: TestClient) -> None:
    # The three-seat search: the route's answer is the core's, every candidate valued in points.
    body = {"hand": "11m99m123p456p789s5z", "rules": "sanma", "dora_indicators": "1m", "seat_wind": "3z"}
    answer = client.post("/discard", json=body).json()
    assert answer["model"] == "expected_score" and answer["model_note"] is None
    found = expected_scores(
        Hand.from_tiles(parse_mpsz(body["hand"])), rule_profile("sanma"), dora_indicators=(0,), seat_wind=29
    )
    core = {format_tile(d.tile): d for d in found.discards}
    for candidate in answer["candidates"]:
        assert candidate["expected_score"] == pytest.approx(core[candidate["tile"]].expected_score, abs=1e-5)
    assert answer["best"] == "5z" and answer["candidates"][0]["expected_score"] > 0
    # No North seat at a three-player table.
    north = client.post("/discard", json={**body, "seat_wind": "4z"})
    assert north.status_code == 422
    [error] = north.json()["detail"]
    assert error["loc"] == ["body", "seat_wind"] and error["type"] == "invalid_win_context"


@pytest.mark.parametrize(
    ("body", "loc", "tile"),
    [
        ({"hand": "13m9m123p456p789s11z"}, ["body", "hand"], "3m"),
        ({"hand": "5p", "melds": [{"kind": "pon", "tiles": "111z"}, {"kind": "pon", "tiles": "555m"}], "route": "/shanten"},
         ["body", "melds", 1, "tiles"], "5m"),
        ({"hand": "19m123p456p789s11z", "visible": "8m"}, ["body", "visible"], "8m"),
        ({"hand": "19m123p456p789s11z", "rules": {"preset": "sanma", "wildcards": "2m"}}, ["body", "rules", "wildcards"], "2m"),
    ],
)  # fmt: skip
def test_absent_tiles_are_a_422_at_their_field(client: TestClient, body: dict, loc: list, tile: str) -> None:
    route = body.pop("route", "/ting")
    body.setdefault("rules", "sanma")
    response = client.post(route, json=body)
    assert response.status_code == 422
    [error] = response.json()["detail"]
    assert error["loc"] == loc and error["type"] == "absent_tile"
    assert error["msg"] == f"{tile} {REASON}"


def test_five_m_is_refused_but_nine_m_is_not(client: TestClient) -> None:
    assert client.post("/shanten", json={"hand": "5m", "rules": "sanma"}).status_code == 422
    assert client.post("/shanten", json={"hand": "9m", "rules": "sanma"}).status_code == 200
    assert client.post("/shanten", json={"hand": "5m", "rules": "riichi"}).status_code == 200


def test_discard_refuses_absent_tiles_in_rivers_and_indicators(client: TestClient) -> None:
    hand = "19m123p456p789s122z"
    river = client.post("/discard", json={"hand": hand, "rules": "sanma", "opponents": [{"river": "4m"}]})
    assert river.status_code == 422 and river.json()["detail"][0]["loc"] == ["body", "opponents", 0, "river"]
    indicator = client.post("/discard", json={"hand": hand, "rules": "sanma", "dora_indicators": "3m"})
    assert indicator.status_code == 422 and indicator.json()["detail"][0]["loc"] == ["body", "dora_indicators"]


def test_a_batch_holding_an_absent_tile_names_the_hand(client: TestClient) -> None:
    response = client.post("/shanten/batch", json={"hands": ["19m1p", "19m3m1p"], "rules": "sanma"})
    assert response.status_code == 422
    [error] = response.json()["detail"]
    assert error["loc"] == ["body", "hands", 1] and error["msg"] == f"hands[1]: 3m {REASON}"


def test_sanma_batches_take_the_per_hand_path() -> None:
    # The vectorised tables are four-player ones: a sanma batch must not use them.
    hands = _sanma_hands(2, 13, 4)
    assert shanten_batch_json(BatchRequest(hands=hands, rules="sanma"), max_batch_size=100) is None
    assert ting_batch_json(BatchRequest(hands=hands, rules="sanma"), max_batch_size=100) is None
    assert shanten_batch_json(BatchRequest(hands=hands, rules="riichi"), max_batch_size=100) is not None


@pytest.mark.parametrize(("route", "size"), [("/shanten", 13), ("/shanten", 14), ("/ting", 13), ("/win", 14)])
def test_sanma_batches_answer_as_single_hands(client: TestClient, route: str, size: int) -> None:
    hands = _sanma_hands(size, size, 40)
    batch = client.post(f"{route}/batch", json={"hands": hands, "rules": "sanma"})
    assert batch.status_code == 200
    singles = [client.post(route, json={"hand": hand, "rules": "sanma"}).json() for hand in hands]
    assert batch.json()["results"] == singles
    for answer in singles:
        for field in ("ukeire", "waits"):
            assert not ABSENT & _tiles(answer.get(field) or [])


# --- no chi: every route refuses a declared chi where the rules have none -------------

CHI = {"kind": "chi", "tiles": "123p"}
PON = {"kind": "pon", "tiles": "111z"}
NO_CHI = "chi is not allowed under these rules (sanma: chi_allowed is false); declare pon or kong melds only"
_SITUATION = {"win_tile": "2z", "winner": 0, "dealer": 0}
# (route, body, loc of the chi): the chi is each request's second meld, after a pon that
# every route accepts, so the refusal is the chi's own.
CHI_REQUESTS = [
    ("/win", {"hand": "999m456p22z", "melds": [PON, CHI]}, ["body", "melds", 1, "kind"]),
    ("/win", {"hand": "999m456p22z", "melds": [PON, CHI], "situation": _SITUATION}, ["body", "melds", 1, "kind"]),
    ("/ting", {"hand": "999m456p2z", "melds": [PON, CHI]}, ["body", "melds", 1, "kind"]),
    ("/shanten", {"hand": "999m456p2z", "melds": [PON, CHI]}, ["body", "melds", 1, "kind"]),
    ("/shanten", {"hand": "999m456p22z", "melds": [PON, CHI]}, ["body", "melds", 1, "kind"]),
    ("/discard", {"hand": "999m456p22z", "melds": [PON, CHI]}, ["body", "melds", 1, "kind"]),
    (
        "/discard",
        {"hand": "111m999m456p789s22z", "opponents": [{"river": "1z"}, {"river": "9s", "melds": [PON, CHI]}]},
        ["body", "opponents", 1, "melds", 1, "kind"],
    ),
    ("/score", {"hand": "999m456p22z", "melds": [PON, CHI], **_SITUATION}, ["body", "melds", 1, "kind"]),
    ("/win/batch", {"hands": ["999m456p22z"], "melds": [PON, CHI]}, ["body", "melds", 1, "kind"]),
    ("/ting/batch", {"hands": ["999m456p2z"], "melds": [PON, CHI]}, ["body", "melds", 1, "kind"]),
    ("/shanten/batch", {"hands": ["999m456p2z"], "melds": [PON, CHI]}, ["body", "melds", 1, "kind"]),
]


@pytest.mark.parametrize(
    ("route", "body", "loc"), CHI_REQUESTS, ids=[f"{r} {i}" for i, (r, _, _) in enumerate(CHI_REQUESTS)]
)
def test_every_route_refuses_a_chi_at_its_kind(client: TestClient, route: str, body: dict, loc: list) -> None:
    response = client.post(route, json={**body, "rules": "sanma"})
    assert response.status_code == 422, response.text
    [error] = response.json()["detail"]
    assert (error["loc"], error["type"], error["msg"]) == (loc, "invalid_meld", NO_CHI)
    # The same request under four-player riichi, which has chi, is answered.
    assert client.post(route, json={**body, "rules": "riichi"}).status_code == 200


def test_score_batch_gives_the_chi_refusal_as_the_item_result(client: TestClient) -> None:
    item = {"hand": "999m456p22z", "melds": [PON, CHI], **_SITUATION}
    response = client.post("/score/batch", json={"items": [item], "rules": "sanma"})
    assert response.status_code == 200
    [result] = response.json()["results"]
    assert result == {
        "error": "invalid_meld",
        "status": 422,
        "message": NO_CHI,
        "loc": ["body", "items", 0, "melds", 1, "kind"],
    }


@pytest.mark.parametrize("route", ["/shanten/batch", "/ting/batch", "/shanten"])
def test_an_override_without_chi_is_refused_too(client: TestClient, route: str) -> None:
    # Four-player rules take the vectorised batch path, which must not answer for a chi either.
    rules = {"preset": "riichi", "chi_allowed": False}
    body = {"melds": [CHI], "rules": rules} | (
        {"hand": "999m456p2z"} if route == "/shanten" else {"hands": ["999m456p2z"]}
    )
    response = client.post(route, json=body)
    assert response.status_code == 422 and response.json()["detail"][0]["loc"] == ["body", "melds", 0, "kind"]
    assert "chi is not allowed under these rules (riichi: chi_allowed is false)" in response.json()["detail"][0]["msg"]
