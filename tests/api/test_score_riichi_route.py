"""POST /score under riichi rules and POST /score/batch: hand-worked values, red fives, errors.

Every expected number below is worked out from the rules (Tenhou's), not read back
from the service: the comment on each case shows the count.
"""

from __future__ import annotations

from typing import Any

import pytest
from api_helpers import assert_error, started
from fastapi.testclient import TestClient

from app.api.schemas.score import (
    _BATCH_EXAMPLE,
    _QIQIHAR_ANSWER,
    _QIQIHAR_EXAMPLE,
    _RIICHI_ANSWER,
    _RIICHI_EXAMPLE,
    SCORE_EXAMPLES,
)
from app.settings import Settings

# The contract's example: 233440m567p11s + pon 777z, 4m from West (seat 3) to South (seat 1).
CONTRACT: dict[str, Any] = {
    "hand": "233440m567p11s",
    "melds": [{"kind": "pon", "tiles": "777z"}],
    "win_tile": "4m",
    "rules": "riichi",
    "winner": 1,
    "dealer": 0,
    "discarder": 3,
    "round_wind": "1z",
    "dora_indicators": "4p",
}
# Closed 123m 456p 789s 123s + 白 pair; 2s is a closed wait (kanchan) in every reading.
KANCHAN_TSUMO: dict[str, Any] = {"hand": "123m456p789s123s55z", "win_tile": "2s", "rules": "riichi"}
# 大三元: 555z 666z 777z concealed, 234m, 1m pair.
DAISANGEN: dict[str, Any] = {"hand": "234m11m555z666z777z", "win_tile": "1m", "rules": "riichi"}


def _score(client: TestClient, body: dict[str, Any], **changes: Any) -> dict[str, Any]:
    answer = client.post("/score", json={**body, **changes})
    assert answer.status_code == 200, answer.text
    result = answer.json()
    assert sum(result["payments"]) == 0
    return result


def _names(result: dict[str, Any]) -> list[str]:
    return [yaku["name"] for yaku in result["yaku"]]


def test_the_contract_example(client: TestClient) -> None:
    # chun 1 + dora 5p 1 + aka 0m 1 = 3 han; 20 base + 4 (open honor pon) = 24 -> 30 fu.
    # 30 x 2^(2+3) = 960 base; a non-dealer ron pays x4 = 3840 -> 3900.
    result = _score(client, CONTRACT)
    assert result["payments"] == [0, 3900, 0, -3900]
    assert result["per_payer"] == [{"seat": 3, "pays": 3900}]
    assert result["yaku"] == [{"name": "chun", "han": 1}, {"name": "dora", "han": 1}, {"name": "aka_dora", "han": 1}]
    assert (result["han"], result["fu"], result["base_points"], result["limit"]) == (3, 30, 960, None)
    assert result["multipliers"] == [] and result["yakuman_count"] == 0 and result["riichi_sticks_won"] == 0
    assert sum(part["fu"] for part in result["fu_details"]) == 24
    assert {"fu": 4, "reason": "open_triplet_terminal_or_honor", "tile": "7z"} in result["fu_details"]
    assert result["reading"]["pair"] == "1s" and ["7z", "7z", "7z"] in result["reading"]["groups"]


def test_the_same_hand_in_other_notations_and_without_the_red_five(client: TestClient) -> None:
    # Chinese and integer tiles have no red five: the aka dora goes, 2 han 30 fu = 480 x4 -> 2000.
    for hand in ("二三三四四五万 五六七筒 一一条", [1, 2, 2, 3, 3, 4, 13, 14, 15, 18, 18]):
        result = _score(client, CONTRACT, hand=hand)
        assert _names(result) == ["chun", "dora"] and result["payments"] == [0, 2000, 0, -2000]


def test_the_request_and_answer_examples_are_real(client: TestClient) -> None:
    assert client.post("/score", json=_RIICHI_EXAMPLE).json() == _RIICHI_ANSWER
    assert client.post("/score", json=_QIQIHAR_EXAMPLE).json() == _QIQIHAR_ANSWER
    for name, example in SCORE_EXAMPLES.items():
        assert client.post("/score", json=example["value"]).status_code == 200, name
    assert client.post("/score/batch", json=_BATCH_EXAMPLE).status_code == 200


def test_dealer_riichi_tsumo_with_honba_and_a_stick(client: TestClient) -> None:
    # riichi 1 + tsumo 1 + pinfu 1 + ittsu 2 + dora 2 (indicator 9p: 1p pair) + aka 1 = 8 han:
    # baiman, 4000 base. Dealer tsumo: each pays 2 x 4000 + 100 a honba = 8100.
    body = {
        "hand": "123456789m11p406s",
        "win_tile": "9m",
        "rules": "riichi",
        "winner": 0,
        "dealer": 0,
        "riichi": True,
        "dora_indicators": "9p",
        "ura_indicators": "3z",
        "honba": 1,
        "riichi_sticks": 1,
    }
    result = _score(client, body)
    assert _names(result) == ["riichi", "menzen_tsumo", "pinfu", "ittsu", "dora", "aka_dora"]
    assert (result["han"], result["fu"], result["limit"], result["base_points"]) == (8, 20, "baiman", 4000)
    assert result["payments"] == [24300, -8100, -8100, -8100]
    assert result["riichi_sticks_won"] == 1000
    # Ura dora count for a riichi hand: indicator 9m shows 1m, held once: 9 han, still baiman.
    assert [y for y in _score(client, body, ura_indicators="9m")["yaku"] if y["name"] == "ura_dora"] == [
        {"name": "ura_dora", "han": 1}
    ]


@pytest.mark.parametrize(
    ("situation", "payments"),
    [
        # menzen_tsumo 1 han; 20 + 2 tsumo + 2 dragon pair + 2 kanchan = 26 -> 30 fu; base 240.
        # Non-dealer tsumo: the dealer pays 480 -> 500, the others 240 -> 300.
        ({"winner": 1, "dealer": 0}, [-500, 1100, -300, -300]),
        # Two honba: 100 more from each payer.
        ({"winner": 1, "dealer": 0, "honba": 2}, [-700, 1700, -500, -500]),
        # The dealer wins: each pays 480 -> 500.
        ({"winner": 2, "dealer": 2}, [-500, -500, 1500, -500]),
    ],
)
def test_tsumo_payments_round_up_per_payer(client: TestClient, situation: dict, payments: list[int]) -> None:
    result = _score(client, KANCHAN_TSUMO, **situation)
    assert (result["han"], result["fu"], _names(result)) == (1, 30, ["menzen_tsumo"])
    assert result["payments"] == payments


def test_riichi_sticks_are_not_seat_payments(client: TestClient) -> None:
    result = _score(client, KANCHAN_TSUMO, winner=1, dealer=0, riichi=True, riichi_sticks=3)
    # riichi + tsumo = 2 han 30 fu, base 480: dealer 960 -> 1000, others 500.
    assert result["payments"] == [-1000, 2000, -500, -500]
    assert result["riichi_sticks_won"] == 3000


def test_ron_honba_adds_300(client: TestClient) -> None:
    assert _score(client, CONTRACT, honba=3)["payments"] == [0, 4800, 0, -4800]


def test_kiriage_override(client: TestClient) -> None:
    # A second dora (indicator 1m shows 2m): 4 han 30 fu, base 1920, ron 7680 -> 7700;
    # with kiriage it is rounded up to mangan, 8000.
    body = {**CONTRACT, "dora_indicators": "4p1m"}
    assert _score(client, body)["payments"] == [0, 7700, 0, -7700]
    kiriage = _score(client, body, rules={"preset": "riichi", "kiriage": True})
    assert kiriage["limit"] == "mangan" and kiriage["payments"] == [0, 8000, 0, -8000]


def test_yakuman_and_double_yakuman(client: TestClient) -> None:
    # Daisangen, non-dealer ron: 8000 base x4 = 32000; no fu, no dora on a yakuman.
    result = _score(client, DAISANGEN, winner=3, dealer=0, discarder=2, dora_indicators="1m")
    assert result["yaku"] == [{"name": "daisangen", "han": 13, "yakuman": 1}]
    assert (result["limit"], result["yakuman_count"], result["fu"], result["base_points"]) == ("yakuman", 1, 0, 8000)
    assert result["payments"] == [0, 0, -32000, 32000] and result["fu_details"] == []
    # Suuankou on a pair wait (tanki) is a double yakuman: 16000 base; dealer tsumo 32000 each.
    double = _score(client, {"hand": "111m222p333s444z55z", "win_tile": "5z", "rules": "riichi"}, winner=0, dealer=0)
    assert double["yaku"] == [{"name": "suuankou_tanki", "han": 26, "yakuman": 2}]
    assert double["yakuman_count"] == 2 and double["payments"] == [96000, -32000, -32000, -32000]


def test_seven_pairs_reading(client: TestClient) -> None:
    # Chiitoitsu 2 han 25 fu, closed ron: base 25 x 2^4 = 400, x4 = 1600.
    result = _score(
        client, {"hand": "1122m3344p5566s77z", "win_tile": "7z", "rules": "riichi"}, winner=1, dealer=0, discarder=2
    )
    assert _names(result) == ["chiitoitsu"] and result["fu"] == 25 and result["payments"] == [0, 1600, -1600, 0]
    assert result["reading"] == {
        "form": "seven_pairs",
        "pair": None,
        "groups": [],
        "pairs": ["1m", "2m", "3p", "4p", "5s", "6s", "7z"],
        "wait": "tanki",
    }


def test_red_fives_in_melds_and_the_win_tile(client: TestClient) -> None:
    # A pon of 5p holding its red five: chun 1 + aka 1 = 2 han; 20 + 4 (chun pon) + 2 (5p pon)
    # = 26 -> 30 fu; 480 base, ron x4 -> 2000.
    melds = [{"kind": "pon", "tiles": "777z"}, {"kind": "pon", "tiles": "505p"}]
    result = _score(client, CONTRACT, hand="233445m11s", melds=melds, dora_indicators="")
    assert _names(result) == ["chun", "aka_dora"] and result["payments"] == [0, 2000, 0, -2000]
    # The red 5m itself as the winning tile: still one aka dora (the win tile is in hand).
    red_win = _score(client, CONTRACT, win_tile="0m", dora_indicators="")
    assert _names(red_win) == ["chun", "aka_dora"] and red_win["payments"] == [0, 2000, 0, -2000]
    # Two red fives of one suit count twice when the hand holds them (555m with two red):
    # chun 1 + aka 2 = 3 han; 20 + 4 (chun pon) + 4 (concealed 5m triplet) = 28 -> 30 fu: 3900.
    two = _score(client, CONTRACT, hand="234005m567p11s", dora_indicators="")
    assert _names(two) == ["chun", "aka_dora"] and two["han"] == 3 and two["payments"] == [0, 3900, 0, -3900]
    # Red fives switched off by a rule override: no aka dora.
    assert "aka_dora" not in _names(_score(client, CONTRACT, rules={"preset": "riichi", "red_fives": False}))


def test_a_red_win_tile_must_be_a_red_five_in_hand(client: TestClient) -> None:
    answer = client.post("/score", json={**CONTRACT, "hand": "233445m567p11s", "win_tile": "0m"})
    assert_error(answer, 422, ["body", "win_tile"], "invalid_win_context")


def test_no_yaku_is_a_400_like_not_a_winning_hand(client: TestClient) -> None:
    # Open (chi 123m), terminals and a plain 9s pair: complete, but not one yaku.
    body = {
        "hand": "456p23478999s",
        "melds": [{"kind": "chi", "tiles": "123m"}],
        "win_tile": "2s",
        "rules": "riichi",
        "winner": 0,
        "dealer": 0,
        "discarder": 1,
    }
    answer = client.post("/score", json=body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"] == "no_yaku"
    assert answer.json()["detail"][0]["type"] == "no_yaku" and answer.json()["detail"][0]["loc"] == ["body", "hand"]
    # The same hand with a dora is still no win: dora are not yaku.
    assert client.post("/score", json={**body, "dora_indicators": "1s"}).json()["error"] == "no_yaku"
    not_a_win = client.post("/score", json={**body, "hand": "356p23478999s"})
    assert not_a_win.status_code == 400 and not_a_win.json()["error"] == "not_a_winning_hand"
    assert set(not_a_win.json()) == set(answer.json()) == {"detail", "error"}


# A closed hand with a kong: 1111z closed kan + 234m 567m 234p 55s.
KAN_HAND: dict[str, Any] = {
    "hand": "234567m234p55s",
    "melds": [{"kind": "closed_kan", "tiles": "1111z"}],
    "win_tile": "5s",
    "rules": "riichi",
    "winner": 1,
    "dealer": 0,
}


@pytest.mark.parametrize(
    ("body", "loc", "error_type"),
    [
        ({**KAN_HAND, "melds": [], "hand": "234567m234p55s111z", "ippatsu": True}, "ippatsu", "invalid_win_context"),
        ({**KAN_HAND, "kong_replacement": True, "last_tile": True}, "last_tile", "invalid_win_context"),
        ({**CONTRACT, "riichi": True}, "riichi", "invalid_win_context"),
        ({**CONTRACT, "double_riichi": True}, "double_riichi", "invalid_win_context"),
        ({**KAN_HAND, "melds": [], "hand": "234567m234p55s111z", "kong_replacement": True}, "kong_replacement", None),
        ({**KAN_HAND, "robbed_kong": True}, "robbed_kong", "invalid_win_context"),
        (
            {**KAN_HAND, "melds": [], "hand": "234567m234p55s111z", "discarder": 3, "first_turn": True},
            "first_turn",
            None,
        ),
        ({**CONTRACT, "round_wind": "5z"}, "round_wind", "invalid_win_context"),
        ({**CONTRACT, "round_wind": "1z2z"}, "round_wind", "invalid_notation"),
        ({**CONTRACT, "dora_indicators": "444m"}, "dora_indicators", "too_many_copies"),
        ({**CONTRACT, "ura_indicators": "1s1s1s"}, "ura_indicators", "too_many_copies"),
        ({**CONTRACT, "dora_indicators": "1x"}, "dora_indicators", "invalid_notation"),
        ({**CONTRACT, "winner": "1"}, "winner", "int_type"),
        ({**CONTRACT, "discarder": 3.0}, "discarder", None),
        ({**CONTRACT, "riichi": "true"}, "riichi", "bool_type"),
        ({**CONTRACT, "ippatsu": 1}, "ippatsu", "bool_type"),
        ({**CONTRACT, "honba": -1}, "honba", "greater_than_equal"),
        ({**CONTRACT, "riichi_sticks": 10**6}, "riichi_sticks", "less_than_equal"),
        ({**CONTRACT, "winner": 3}, "discarder", "invalid_win_context"),
    ],
)
def test_impossible_situations_are_422_at_their_field(
    client: TestClient, body: dict, loc: str, error_type: str | None
) -> None:
    item = assert_error(client.post("/score", json=body), 422, ["body", loc], error_type)
    assert item["msg"]


def test_five_copies_across_hand_and_dora_indicators_name_the_indicators(client: TestClient) -> None:
    # 233440m holds two 4m and the win is a 4m: two more as indicators make five.
    item = assert_error(
        client.post("/score", json={**CONTRACT, "dora_indicators": "4m4m4m"}),
        422,
        ["body", "dora_indicators"],
        "too_many_copies",
    )
    assert "4m" in item["msg"]


def test_rules_list_the_riichi_scoring_options(client: TestClient) -> None:
    rules = client.get("/rules").json()
    options = {option["name"] for option in rules["options"]}
    wanted = {"open_tanyao", "red_fives", "kazoe_limit", "kiriage", "double_yakuman", "yakuman_stacking"}
    assert wanted <= options
    (riichi,) = [preset for preset in rules["presets"] if preset["name"] == "riichi"]
    assert {key: riichi[key] for key in wanted} == {
        "open_tanyao": True,
        "red_fives": True,
        "kazoe_limit": "yakuman",
        "kiriage": False,
        "double_yakuman": True,
        "yakuman_stacking": True,
    }


# --- batch -------------------------------------------------------------------------


def _item(body: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {key: value for key, value in {**body, **changes}.items() if key != "rules"}


def test_batch_answers_in_order_with_per_item_errors(client: TestClient) -> None:
    items = [
        _item(KANCHAN_TSUMO, winner=1, dealer=0),
        _item(CONTRACT, dora_indicators="", hand="233445m567p11s"),  # chun only: 1 han 30 fu, 1000
        _item(CONTRACT, riichi=True),  # open riichi: impossible
        _item(KANCHAN_TSUMO, hand="123m456p789s124s55z", winner=1, dealer=0),  # not complete
        _item(DAISANGEN, winner=3, dealer=0, discarder=2),
        _item(CONTRACT, dora_indicators="4m4m4m"),  # five 4m
    ]
    answer = client.post("/score/batch", json={"rules": "riichi", "items": items})
    assert answer.status_code == 200, answer.text
    results = answer.json()["results"]
    assert len(results) == len(items)
    assert results[0]["payments"] == [-500, 1100, -300, -300]
    assert results[1]["payments"] == [0, 1000, 0, -1000]
    assert results[2] == {
        "error": "invalid_win_context",
        "status": 422,
        "message": results[2]["message"],
        "loc": ["body", "items", 2, "riichi"],
    }
    assert (results[3]["error"], results[3]["status"], results[3]["loc"]) == (
        "not_a_winning_hand",
        400,
        ["body", "items", 3, "hand"],
    )
    assert results[4]["payments"] == [0, 0, -32000, 32000]
    assert (results[5]["error"], results[5]["loc"]) == ("too_many_copies", ["body", "items", 5, "dora_indicators"])
    # Each result is what /score answers for that item alone.
    assert client.post("/score", json={**items[1], "rules": "riichi"}).json() == results[1]


def test_batch_rules_default_to_riichi_and_apply_to_every_item(client: TestClient) -> None:
    qiqihar_win = {
        "hand": "123m456p78s99s7z",
        "melds": [{"kind": "pon", "tiles": "111z"}],
        "win_tile": "9s",
        "winner": 0,
        "dealer": 0,
    }
    riichi = client.post("/score/batch", json={"items": [qiqihar_win]}).json()["results"]
    assert riichi[0]["error"] == "not_a_winning_hand"  # 7z is no wildcard in riichi
    qiqihar = client.post("/score/batch", json={"items": [qiqihar_win, _item(CONTRACT)], "rules": "qiqihar"})
    first, second = qiqihar.json()["results"]
    assert first["payments"] == [24, -8, -8, -8] and "han" not in first
    # Qiqihar does not read dora: a non-default situation field is refused, not ignored.
    assert (second["error"], second["loc"]) == ("invalid_win_context", ["body", "items", 1, "dora_indicators"])


def test_batch_malformed_item_is_a_422_naming_its_index(client: TestClient) -> None:
    items = [_item(CONTRACT), _item(CONTRACT, winner="1")]
    assert_error(client.post("/score/batch", json={"items": items}), 422, ["body", "items", 1, "winner"], "int_type")
    missing = [_item(CONTRACT), {"hand": "123m"}]
    answer = client.post("/score/batch", json={"items": missing})
    assert answer.status_code == 422
    assert {tuple(item["loc"][:3]) for item in answer.json()["detail"]} == {("body", "items", 1)}
    # Tiles in no notation are malformed too (the schema says what a tile is).
    for bad in ({"hand": "233440m567p11sx"}, {"ura_indicators": [-1]}, {"win_tile": "4m4m"}):
        field = next(iter(bad))
        item = assert_error(
            client.post("/score/batch", json={"items": [_item(CONTRACT), _item(CONTRACT, **bad)]}),
            422,
            ["body", "items", 1, field],
            "invalid_notation",
        )
        assert item["ctx"] == {"index": 1}
    assert_error(client.post("/score/batch", json={"items": [], "rules": "nope"}), 422, ["body", "rules", "preset"])
    assert client.post("/score/batch", json={"items": []}).json() == {"results": []}


def test_batch_size_is_capped() -> None:
    small = started(Settings(max_batch_size=2))
    try:
        items = [_item(CONTRACT)] * 3
        answer = small.post("/score/batch", json={"items": items})
        item = assert_error(answer, 422, ["body", "items"], "batch_too_large")
        assert item["ctx"] == {"max_batch_size": 2}
        assert small.post("/score/batch", json={"items": items[:2]}).status_code == 200
    finally:
        small.__exit__(None, None, None)
