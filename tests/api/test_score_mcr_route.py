"""POST /score, /score/batch and /win with a situation under MCR (Chinese Official rules).

The fan calculator itself is tested in tests/core (the rule book's worked examples and
PyMahjongGB on random wins); here: the HTTP mapping of every situation field, the answer's
shape, the 8-fan floor as a 400 and as /win's refusal, and 422s at their fields.  One test
sends seeded random wins through HTTP and compares the answers with PyMahjongGB, so that
the request fields reach the core as the calculator reads them.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest
from api_helpers import assert_error
from fastapi.testclient import TestClient

from app.api.schemas.score import _MCR_ANSWER, _MCR_EXAMPLE
from app.core.shape.hand import Hand
from app.core.shape.tiles import Tile, format_mpsz, format_tile
from app.core.value.mcr_scoring import BASE_PAYMENT, MINIMUM_FAN
from app.core.value.scoring_context import WinContext
from app.main import create_app
from app.settings import Settings

# The suite's random MCR wins and its PyMahjongGB adapter live with the core tests.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
from mcr_oracle import FLOWER_NAME, pymahjonggb_fans  # noqa: E402
from mcr_situations import situations  # noqa: E402

# Five fans: 喜相逢 1 + 连六 1 + 断幺 2 + ... on a discard: complete, but under 8.
SMALL = {
    "hand": "234567m345p22p",
    "melds": [{"kind": "chi", "tiles": "678s"}],
    "win_tile": "5p",
    "rules": "mcr",
    "winner": 1,
    "dealer": 0,
    "discarder": 2,
}


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(create_app(Settings())) as test_client:
        yield test_client


def test_the_documented_example_answers_exactly(client: TestClient) -> None:
    assert client.post("/score", json=_MCR_EXAMPLE).json() == _MCR_ANSWER


def test_payments_follow_the_rule(client: TestClient) -> None:
    answer = client.post("/score", json=_MCR_EXAMPLE).json()
    total = answer["fan"] + answer["flowers"]
    assert answer["fan"] == sum(f["fan"] * f["count"] for f in answer["fans"] if f["chinese"] != "花牌")
    assert sorted(p["pays"] for p in answer["per_payer"]) == [BASE_PAYMENT, BASE_PAYMENT, total + BASE_PAYMENT]
    tsumo = client.post("/score", json={**_MCR_EXAMPLE, "discarder": None}).json()
    assert [p["pays"] for p in tsumo["per_payer"]] == [tsumo["fan"] + tsumo["flowers"] + BASE_PAYMENT] * 3
    assert sum(tsumo["payments"]) == 0


def test_under_eight_fans_is_a_400_that_says_the_total(client: TestClient) -> None:
    answer = client.post("/score", json=SMALL)
    assert answer.status_code == 400 and answer.json()["error"] == "below_minimum_fan"
    (item,) = answer.json()["detail"]
    assert item["loc"] == ["body", "hand"] and "5 fans" in item["msg"]
    # Flowers do not lift a hand over the floor.
    assert client.post("/score", json={**SMALL, "flowers": 8}).status_code == 400


def test_win_with_a_situation_applies_the_floor(client: TestClient) -> None:
    shape = {key: SMALL[key] for key in ("hand", "melds", "rules")}
    situation = {key: SMALL[key] for key in ("win_tile", "winner", "dealer", "discarder")}
    alone = client.post("/win", json=shape).json()
    assert alone["win"] is True and alone["reason"] is None
    judged = client.post("/win", json={**shape, "situation": situation}).json()
    assert judged["win"] is False and judged["reason"] == "below_minimum_fan" and judged["complete_shape"]
    assert "5 fans" in judged["refusal"]
    rich = {key: _MCR_EXAMPLE[key] for key in ("hand", "rules")}
    situation = {key: value for key, value in _MCR_EXAMPLE.items() if key not in rich}
    won = client.post("/win", json={**rich, "situation": situation}).json()
    assert won["win"] is True and won["score"] == _MCR_ANSWER


def test_seat_wind_may_differ_from_the_dealer_order(client: TestClient) -> None:
    # A pure straight and a pung of West: the seat wind fan (门风刻) only where the seat is West.
    body = {"hand": "123456789m333z55s", "win_tile": "5s", "rules": "mcr", "winner": 1, "dealer": 0, "discarder": 2}

    def names(**change: Any) -> set[str]:
        return {f["chinese"] for f in client.post("/score", json={**body, **change}).json().get("fans", [])}

    assert "门风刻" not in names()  # winner 1 with dealer 0 sits South
    assert "门风刻" in names(seat_wind="3z")
    assert "圈风刻" in names(round_wind="3z")


def test_batch_scores_each_item_or_gives_its_error(client: TestClient) -> None:
    items = [{k: v for k, v in body.items() if k != "rules"} for body in (_MCR_EXAMPLE, SMALL)]
    answer = client.post("/score/batch", json={"rules": "mcr", "items": items}).json()
    assert answer["results"][0] == _MCR_ANSWER
    assert answer["results"][1]["error"] == "below_minimum_fan" and answer["results"][1]["status"] == 400


@pytest.mark.parametrize(
    ("change", "loc", "code"),
    [
        ({"riichi": True}, ["body", "riichi"], "invalid_win_context"),
        ({"dora_indicators": "1m"}, ["body", "dora_indicators"], "invalid_win_context"),
        ({"honba": 1}, ["body", "honba"], "invalid_win_context"),
        ({"seat_wind": "5z"}, ["body", "seat_wind"], "invalid_win_context"),
        ({"round_wind": "1m"}, ["body", "round_wind"], "invalid_win_context"),
        ({"flowers": 9}, ["body", "flowers"], "less_than_equal"),
        ({"flowers": -1}, ["body", "flowers"], "greater_than_equal"),
        ({"flowers": "2"}, ["body", "flowers"], "int_type"),
        ({"last_copy": "yes"}, ["body", "last_copy"], "bool_type"),
        ({"kong_replacement": True, "discarder": None}, ["body", "kong_replacement"], "invalid_win_context"),
        ({"robbed_kong": True, "win_tile": "5s", "discarder": 2}, ["body", "robbed_kong"], "invalid_win_context"),
        ({"last_copy": True, "win_tile": "5s"}, ["body", "last_copy"], "invalid_win_context"),
        ({"winner": 4}, ["body", "winner"], "less_than_equal"),
        ({"win_tile": "1z"}, ["body", "win_tile"], "invalid_win_context"),
    ],
)
def test_impossible_situations_are_422_at_their_field(
    client: TestClient, change: dict[str, Any], loc: list[Any], code: str
) -> None:
    assert_error(client.post("/score", json={**_MCR_EXAMPLE, **change}), 422, loc, code)


def test_mcr_fields_are_refused_under_riichi(client: TestClient) -> None:
    body = {**_MCR_EXAMPLE, "rules": "riichi", "seat_wind": None, "flowers": 0}
    assert client.post("/score", json=body).status_code == 200
    for field, value in (("flowers", 1), ("last_copy", True), ("seat_wind", "2z")):
        assert_error(client.post("/score", json={**body, field: value}), 422, ["body", field], "invalid_win_context")


def _request(hand: Hand, win_tile: Tile, context: WinContext, rng: random.Random) -> dict[str, Any]:
    """A /score body for a core situation, in mpsz, with the seat wind given or left to follow."""
    body: dict[str, Any] = {
        "hand": format_mpsz(tile for tile, count in enumerate(hand.counts) for _ in range(count)),
        "melds": [{"kind": meld.kind.value, "tiles": format_mpsz(meld.tiles)} for meld in hand.melds],
        "win_tile": format_tile(win_tile),
        "rules": "mcr",
        "winner": context.winner,
        "dealer": context.dealer,
        "discarder": context.discarder,
        "round_wind": format_tile(context.round_wind),
        "flowers": context.flowers,
        "last_tile": context.last_tile,
        "last_copy": context.last_copy,
        "kong_replacement": context.kong_replacement,
        "robbed_kong": context.robbed_kong,
    }
    if context.seat_wind is not None:
        body["seat_wind"] = format_tile(context.seat_wind)
    elif rng.random() < 0.5:
        body["seat_wind"] = None
    return body


def test_random_wins_over_http_agree_with_pymahjonggb(client: TestClient) -> None:
    """600 seeded random wins through /score: every 8+ fan answer lists PyMahjongGB's fans
    (flowers included, as 花牌); every hand under 8 is a 400 below_minimum_fan."""
    rng = random.Random(1212)
    checked = refused = 0
    for situation in situations(1212, 600):
        body = _request(situation.hand, situation.win_tile, situation.context, rng)
        theirs = pymahjonggb_fans(situation.hand, situation.win_tile, situation.context)
        total = sum(value * count for name, (value, count) in theirs.items() if name != FLOWER_NAME)
        answer = client.post("/score", json=body)
        if total < MINIMUM_FAN:
            assert answer.status_code == 400 and answer.json()["error"] == "below_minimum_fan", body
            refused += 1
            continue
        assert answer.status_code == 200, (body, answer.text)
        ours = {f["chinese"]: (f["fan"], f["count"]) for f in answer.json()["fans"]}
        assert ours == theirs, body
        assert answer.json()["fan"] == total
        checked += 1
    assert checked > 400 and refused > 10


def test_a_null_win_tile_is_malformed(client: TestClient) -> None:
    item = {key: value for key, value in SMALL.items() if key != "rules"}
    answer = client.post("/score/batch", json={"rules": "mcr", "items": [{**item, "win_tile": None}]})
    assert_error(answer, 422, ["body", "items", 0, "win_tile"], "invalid_notation")


def test_mcr_with_wildcards_cannot_be_scored(client: TestClient) -> None:
    rules = {"preset": "mcr", "wildcards": "7z"}
    situation = {"win_tile": "5s", "winner": 0, "dealer": 0}
    answer = client.post("/win", json={"hand": "123m456p789s117z55s", "rules": rules, "situation": situation})
    assert_error(answer, 422, ["body", "rules", "wildcards"], "invalid_rule_option")
