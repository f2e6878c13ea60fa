"""POST /score, /score/batch and /win with a situation under Sichuan rules (血战到底).

The scorer is tested in tests/core/test_sichuan_scoring.py (an oracle written from the rule
text, the text's statements, explicit options); here: the HTTP mapping of ``void_suit`` and
``after_kong``, the answer's shape (the contract's ``payments, per_payer, fan, multiplier,
fans``), rule overrides, the 400 ``void_suit_held`` and the 4xx that name their field.  One
test sends seeded random wins through HTTP and compares them with the core.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest
from api_helpers import assert_error
from fastapi.testclient import TestClient

from app.api.schemas.score import _SICHUAN_ANSWER, _SICHUAN_EXAMPLE
from app.core.shape.rules import rule_profile
from app.core.shape.tiles import format_mpsz, format_tile
from app.core.value.sichuan_scoring import RULE_TEXT, score_sichuan
from app.main import create_app
from app.settings import Settings

# The random complete Sichuan hands live with the core tests.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
from sichuan_deals import random_deal, random_situation  # noqa: E402


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(create_app(Settings())) as test_client:
        yield test_client


def test_the_documented_example_answers_exactly(client: TestClient) -> None:
    answer = client.post("/score", json=_SICHUAN_EXAMPLE)
    assert answer.status_code == 200
    assert answer.json() == _SICHUAN_ANSWER
    # The contract's keys, with the fan total before the cap and the multiplier after it.
    assert {"payments", "per_payer", "fan", "multiplier", "fans"} <= set(answer.json())


def test_a_self_draw_is_paid_by_every_other_seat_with_a_base_each(client: TestClient) -> None:
    answer = client.post("/score", json={**_SICHUAN_EXAMPLE, "discarder": None}).json()
    assert [(p["seat"], p["pays"]) for p in answer["per_payer"]] == [(0, 9), (2, 9), (3, 9)]
    assert answer["payments"] == [-9, 27, -9, -9] and answer["fans"][-1]["name"] == "zi_mo"


def test_rule_overrides_reach_the_scorer(client: TestClient) -> None:
    capped = {**_SICHUAN_EXAMPLE, "rules": {"preset": "sichuan", "max_fan": 2}}
    answer = client.post("/score", json=capped).json()
    assert (answer["fan"], answer["multiplier"], answer["payments"]) == (3, 4, [0, 4, -4, 0])
    fan_mode = {**_SICHUAN_EXAMPLE, "discarder": None, "rules": {"preset": "sichuan", "self_draw_bonus": "fan"}}
    answer = client.post("/score", json=fan_mode).json()
    assert (answer["fan"], answer["multiplier"], answer["payments"]) == (4, 16, [-16, 48, -16, -16])
    simples = {
        "hand": "234m456m678m345p55p",
        "win_tile": "5p",
        "rules": {"preset": "sichuan", "menqing_duanyao": True},
        "winner": 0,
        "dealer": 0,
    }
    answer = client.post("/score", json=simples).json()
    assert [f["name"] for f in answer["fans"]] == ["ping_hu", "zi_mo", "men_qing", "duan_yao"]
    assert answer["per_payer"] == [{"seat": seat, "pays": 5} for seat in (1, 2, 3)]


def test_after_kong_and_the_kong_flags(client: TestClient) -> None:
    cannon = client.post("/score", json={**_SICHUAN_EXAMPLE, "after_kong": True}).json()
    assert cannon["fans"][-1] == {"name": "gang_shang_pao", "chinese": "杠上炮", "fan": 1, "count": 1}
    assert cannon["multiplier"] == 16
    robbed = client.post("/score", json={**_SICHUAN_EXAMPLE, "robbed_kong": True}).json()
    assert robbed["fans"][-1]["name"] == "qiang_gang_hu"
    flower = {
        "hand": "123m456m234p55p",
        "melds": [{"kind": "open_kan", "tiles": "9999m"}],
        "win_tile": "5p",
        "rules": "sichuan",
        "winner": 0,
        "dealer": 0,
        "kong_replacement": True,
    }
    answer = client.post("/score", json=flower).json()
    assert [f["name"] for f in answer["fans"]] == ["ping_hu", "gen", "gang_shang_hua", "zi_mo"]


def test_the_void_suit_held_is_a_400_at_the_hand(client: TestClient) -> None:
    assert_error(
        client.post("/score", json={**_SICHUAN_EXAMPLE, "void_suit": "m"}), 400, ["body", "hand"], "void_suit_held"
    )
    melded = {
        "hand": "123m456m234m55m",
        "melds": [{"kind": "pon", "tiles": "777p"}],
        "win_tile": "5m",
        "rules": "sichuan",
        "winner": 0,
        "dealer": 0,
        "discarder": 1,
        "void_suit": "p",
    }
    assert_error(client.post("/score", json=melded), 400, ["body", "melds"], "void_suit_held")
    # Without a void suit a hand of three suits does not win (缺一门).
    three = {**_SICHUAN_EXAMPLE, "hand": "111123m456p789s99m", "void_suit": None}
    assert_error(client.post("/score", json=three), 400, ["body", "hand"], "not_a_winning_hand")


@pytest.mark.parametrize(
    ("change", "loc", "code"),
    [
        ({"void_suit": "z"}, ["body", "void_suit"], "literal_error"),
        ({"void_suit": 1}, ["body", "void_suit"], "literal_error"),
        ({"after_kong": "yes"}, ["body", "after_kong"], "bool_type"),
        ({"after_kong": True, "discarder": None}, ["body", "after_kong"], "invalid_win_context"),
        ({"first_turn": True}, ["body", "first_turn"], "invalid_win_context"),
        ({"riichi": True}, ["body", "riichi"], "invalid_win_context"),
        ({"flowers": 1}, ["body", "flowers"], "invalid_win_context"),
        ({"kong_replacement": True, "discarder": None}, ["body", "kong_replacement"], "invalid_win_context"),
        ({"hand": "111123456789m9m1z", "win_tile": "1z"}, ["body", "hand"], "absent_tile"),
        (
            {"melds": [{"kind": "chi", "tiles": "123p"}], "hand": "1123456789m9m"},
            ["body", "melds", 0, "kind"],
            "invalid_meld",
        ),
        ({"winner": 4}, ["body", "winner"], "less_than_equal"),
    ],
)
def test_impossible_situations_are_4xx_at_their_field(
    client: TestClient, change: dict[str, Any], loc: list[Any], code: str
) -> None:
    answer = client.post("/score", json={**_SICHUAN_EXAMPLE, **change})
    assert answer.status_code == 422, answer.json()
    assert_error(answer, 422, loc, code)


def test_sichuan_fields_are_refused_under_other_rules(client: TestClient) -> None:
    body = {**_SICHUAN_EXAMPLE, "hand": "123456789m123p55s", "win_tile": "9m", "rules": "mcr", "void_suit": None}
    assert client.post("/score", json={**body, "flowers": 8}).status_code == 200
    for field, value in (("void_suit", "p"), ("after_kong", True)):
        assert_error(client.post("/score", json={**body, field: value}), 422, ["body", field], "invalid_win_context")


def test_batch_scores_each_item_or_gives_its_error(client: TestClient) -> None:
    item = {key: value for key, value in _SICHUAN_EXAMPLE.items() if key != "rules"}
    items = [item, {**item, "void_suit": "m"}]
    answer = client.post("/score/batch", json={"rules": "sichuan", "items": items}).json()
    assert answer["results"][0] == _SICHUAN_ANSWER
    assert answer["results"][1]["error"] == "void_suit_held" and answer["results"][1]["status"] == 400


def test_win_with_a_situation_scores_under_sichuan(client: TestClient) -> None:
    shape = {"hand": _SICHUAN_EXAMPLE["hand"], "rules": "sichuan"}
    situation = {key: value for key, value in _SICHUAN_EXAMPLE.items() if key not in shape}
    won = client.post("/win", json={**shape, "situation": situation}).json()
    assert won["win"] is True and won["score"] == _SICHUAN_ANSWER


def test_rules_names_the_text_the_defaults_follow(client: TestClient) -> None:
    (sichuan,) = [preset for preset in client.get("/rules").json()["presets"] if preset["name"] == "sichuan"]
    assert sichuan["source"] == RULE_TEXT and "GameRuleLayer.csd" in sichuan["source"]
    assert sichuan["max_fan"] == 6 and sichuan["self_draw_bonus"] == "base"


def _request(rng: random.Random) -> tuple[dict[str, Any], Any]:
    deal = random_deal(rng)
    win_tile, rules, context = random_situation(rng, deal)
    hand = deal.hand()
    body: dict[str, Any] = {
        "hand": format_mpsz(tile for tile, count in enumerate(hand.counts) for _ in range(count)),
        "melds": [{"kind": meld.kind.value, "tiles": format_mpsz(meld.tiles)} for meld in hand.melds],
        "win_tile": format_tile(win_tile),
        "rules": {
            "preset": "sichuan",
            **{
                name: getattr(rules, name) for name in ("max_fan", "self_draw_bonus", "menqing_duanyao", "heaven_earth")
            },
        },
        "winner": context.winner,
        "dealer": context.dealer,
        "discarder": context.discarder,
        "kong_replacement": context.kong_replacement,
        "robbed_kong": context.robbed_kong,
        "after_kong": context.after_kong,
        "first_turn": context.first_turn,
        "void_suit": None if context.void_suit is None else "mps"[context.void_suit],
    }
    # HTTP has no in_hand nor kong_feeder: every seat is in, and a kong's replacement is a self-draw.
    core_rules = rule_profile("sichuan", **{key: value for key, value in body["rules"].items() if key != "preset"})
    expected = score_sichuan(hand, win_tile, core_rules, context._replace(in_hand=None, kong_feeder=None))
    return body, expected


def test_random_wins_through_http_agree_with_the_core(client: TestClient) -> None:
    rng = random.Random(25)
    for _ in range(150):
        body, expected = _request(rng)
        answer = client.post("/score", json=body)
        assert answer.status_code == 200, (body, answer.json())
        got = answer.json()
        assert got["payments"] == list(expected.payments), body
        assert got["fan"] == expected.fan and got["multiplier"] == expected.multiplier
        assert [(f["name"], f["fan"], f["count"]) for f in got["fans"]] == [
            (f.name, f.fan, f.count) for f in expected.fans
        ]
