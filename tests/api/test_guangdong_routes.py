"""Guangdong 推倒胡 over HTTP: its preset and typed options in GET /rules, its ghost on the shape
routes, its scorer (fans in pinyin and Chinese, horses, 全包) on /score and its value model on
/discard, each answer checked against the family's core functions or worked by hand."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.families.guangdong import value
from app.core.families.guangdong.options import GuangdongOptions, HorsePayout
from app.core.families.guangdong.rules_text import SOURCE
from app.core.families.guangdong.tiles import hand_rules
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand
from app.core.shape.tiles import format_tile, parse_mpsz, parse_tile

#: The hand's ghost is the white dragon (a flipped 7z names it).
WHITE_GHOST: dict[str, Any] = {"preset": "guangdong", "wildcards": "5z"}


def _post(client: TestClient, path: str, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    answer: dict[str, Any] = response.json()
    return answer


def _refused(client: TestClient, path: str, body: dict[str, Any], code: str, loc: list[Any]) -> None:
    answer = _post(client, path, body, 422)
    assert answer["error"] == code, answer
    assert answer["detail"][0]["loc"] == loc, answer


# --- GET /rules ---------------------------------------------------------------------------------


def test_rules_list_the_preset_with_its_source_and_typed_options(client: TestClient) -> None:
    rules = client.get("/rules").json()
    preset = next(preset for preset in rules["presets"] if preset["name"] == "guangdong")
    assert SOURCE.url in preset["source"] and SOURCE.title in preset["source"]
    defaults = GuangdongOptions().describe()
    assert {name: preset[name] for name in defaults} == defaults
    assert preset["wildcards_from_indicator"] is True and preset["chi_allowed"] is False
    typed = {option["name"]: option for option in rules["options"] if option["family"] == "guangdong"}
    assert typed["ghost"]["type"] == "string" and typed["ghost"]["choices"] == ["none", "white", "flip"]
    assert typed["horses"]["type"] == "integer" and (typed["horses"]["minimum"], typed["horses"]["maximum"]) == (0, 20)
    assert typed["discard_wins"] == typed["discard_wins"] | {"type": "boolean", "default": False}
    assert "只能自摸胡牌" in typed["discard_wins"]["meaning"]
    # Options every family shares keep one entry; the typed section lists only the family's own.
    assert "seven_pairs" not in typed and sum(option["name"] == "seven_pairs" for option in rules["options"]) == 1
    assert set(typed) | {"seven_pairs", "thirteen_orphans"} == set(defaults)


# --- the shape routes, with the ghost -----------------------------------------------------------


@pytest.mark.parametrize(
    ("ghost", "hand"),
    [
        ("5z", "123m456p789s11z23s5z"),
        ("2p", "123m456p789s11z23s2p"),
        ("5z", "1122m3344p5566s77z"),
        ("9s", "119m19p1s1234567z9s"),
    ],
)
def test_win_ting_and_shanten_read_the_ghost_as_the_engine_does(client: TestClient, ghost: str, hand: str) -> None:
    rules = {"preset": "guangdong", "wildcards": ghost}
    checker = Checker(hand_rules(GuangdongOptions(), parse_tile(ghost)))
    whole = Hand.from_tiles(parse_mpsz(hand))
    assert _post(client, "/win", {"hand": hand, "rules": rules})["win"] is checker.is_win(whole) is True
    assert _post(client, "/shanten", {"hand": hand, "rules": rules})["shanten"] == -1
    ready = parse_mpsz(hand)[:-1]  # the last tile out: a ready hand, sent as integers
    waits = _post(client, "/ting", {"hand": ready, "rules": rules})["waits"]
    assert [wait["tile"] for wait in waits] == [
        format_tile(wait.tile) for wait in checker.waits(Hand.from_tiles(ready)).waits
    ]
    assert waits


def test_a_ghost_is_wild_only_where_the_request_names_it(client: TestClient) -> None:
    hand = "123m456p789s11z23s5z"  # complete only with 5z standing for 1s or 4s
    assert _post(client, "/win", {"hand": hand, "rules": WHITE_GHOST})["win"] is True
    assert _post(client, "/win", {"hand": hand, "rules": {"preset": "guangdong", "wildcards": "2p"}})["win"] is False
    assert _post(client, "/win", {"hand": hand, "rules": {"preset": "guangdong", "ghost": "white"}})["win"] is True
    assert _post(client, "/win", {"hand": hand, "rules": {"preset": "guangdong", "ghost": "none"}})["win"] is False


def test_a_shape_batch_takes_the_preset(client: TestClient) -> None:
    answer = _post(
        client, "/shanten/batch", {"hands": ["123m456p789s11z23s5z", "123m456p789s11z23s6z"], "rules": WHITE_GHOST}
    )
    assert [result["shanten"] for result in answer["results"]] == [-1, 0]


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        ({"preset": "guangdong"}, "wildcards"),  # 翻鬼 without the hand's ghost
        ({"preset": "guangdong", "wildcards": "5z6z"}, "wildcards"),
        ({"preset": "guangdong", "ghost": "white", "wildcards": "2p"}, "wildcards"),
        ({"preset": "guangdong", "ghost": "none", "wildcards": "2p"}, "wildcards"),
        ({"preset": "guangdong", "wildcards": "5z", "chi_allowed": True}, "chi_allowed"),
        ({"preset": "guangdong", "wildcards": "5z", "max_fan": 3}, "max_fan"),
        ({"preset": "guangdong", "wildcards": "5z", "horses": 99}, "horses"),
        ({"preset": "guangdong", "wildcards": "5z", "horses": "4"}, "horses"),
        ({"preset": "guangdong", "wildcards": "5z", "horse_payout": "double"}, "horse_payout"),
        ({"preset": "guangdong", "wildcards": "5z", "flowers": "yes"}, "flowers"),
        ({"preset": "guangdong", "wildcards": "5z", "ghost": 1}, "ghost"),
        ({"preset": "guangdong", "wildcards": "5z", "bogus": 1}, "bogus"),
    ],
)
def test_a_bad_guangdong_rule_is_a_422_naming_it(client: TestClient, rules: dict[str, Any], field: str) -> None:
    for path, body in (
        ("/shanten", {"hand": "123m456p789s11z23s"}),
        ("/discard", {"hand": "123m456p789s11z23s5z"}),
        ("/score", {"hand": "123m456p789s111z55s", "win_tile": "5s", "winner": 1, "dealer": 0}),
    ):
        _refused(client, path, body | {"rules": rules}, "invalid_rule_option", ["body", "rules", field])


def test_another_family_refuses_a_guangdong_option(client: TestClient) -> None:
    _refused(
        client,
        "/shanten",
        {"hand": "123m456p789s11z23s", "rules": {"preset": "riichi", "horses": 4}},
        "invalid_rule_option",
        ["body", "rules", "horses"],
    )


# --- /score ------------------------------------------------------------------------------------

#: A 平胡 self-drawn by seat 1 (seat 0 deals), holding no ghost (无鬼 X2: 2 points a payer).
PING_HU: dict[str, Any] = {"hand": "123m456p789s111z55s", "win_tile": "5s", "winner": 1, "dealer": 0}


def test_a_self_draw_without_the_ghost_and_three_horses_hit(client: TestClient) -> None:
    """Worked by hand: 平胡 1, 无鬼 X2 = 2; six horses (无鬼抓6马) from the dealer: 2m 下家 (seat 1),
    6p 下家, 3s 对家, 北 上家, 东 the dealer, 红中 下家: three hit, so each payer pays 2 x (1 + 3) = 8."""
    answer = _post(client, "/score", PING_HU | {"rules": WHITE_GHOST, "revealed": "2m6p3s4z1z7z"})
    assert answer["payments"] == [-8, 24, -8, -8]
    assert [(fan["name"], fan["chinese"], fan["fan"], fan["times"]) for fan in answer["fans"]] == [
        ("ping_hu", "平胡", 1, 1),
        ("wu_gui", "无鬼", 0, 2),
    ]
    assert (answer["hand_points"], answer["share"], answer["liable"]) == (2, 8, None)
    assert [(horse["tile"], horse["seat"], horse["hit"]) for horse in answer["revealed"]] == [
        ("2m", 1, True),
        ("6p", 1, True),
        ("3s", 2, False),
        ("4z", 3, False),
        ("1z", 0, False),
        ("7z", 1, True),
    ]
    assert answer["per_payer"] == [{"seat": 0, "pays": 8}, {"seat": 2, "pays": 8}, {"seat": 3, "pays": 8}]


def test_horses_paying_one_base_each(client: TestClient) -> None:
    """horse_payout base: 2 + 3 hits = 5 a payer."""
    rules = WHITE_GHOST | {"horse_payout": HorsePayout.BASE.value}
    assert _post(client, "/score", PING_HU | {"rules": rules, "revealed": "2m6p3s4z1z7z"})["payments"] == [
        -5,
        15,
        -5,
        -5,
    ]


def test_a_ghost_held_wins_plain_and_draws_four_horses(client: TestClient) -> None:
    """5z stands for 1s: 平胡 1, no 无鬼; four horses (有鬼抓4马), 5m the dealer's, 2p 下家: one hit, 1 x 2."""
    body = {"hand": "123m456p789s11z23s5z", "win_tile": "5z", "winner": 1, "dealer": 0, "rules": WHITE_GHOST}
    answer = _post(client, "/score", body | {"revealed": "5m2p9s8m"})
    assert [fan["name"] for fan in answer["fans"]] == ["ping_hu"] and answer["payments"] == [-2, 6, -2, -2]
    _refused(client, "/score", body | {"revealed": "5m2p9s8m1z"}, "too_many_horses", ["body", "revealed"])


def test_four_ghosts_win_at_once(client: TestClient) -> None:
    """满鬼: 6 points a payer whatever the rest."""
    body = {"hand": "139m258p479s1z5555z", "win_tile": "5z", "winner": 0, "dealer": 0, "rules": WHITE_GHOST}
    answer = _post(client, "/score", body)
    assert [(fan["name"], fan["chinese"]) for fan in answer["fans"]] == [("si_gui", "四鬼")]
    assert answer["payments"] == [18, -6, -6, -6]


def test_robbing_a_kong_the_robbed_seat_pays_all(client: TestClient) -> None:
    """抢杠: the robber's self-draw, all three shares from the robbed seat (被抢杠者包牌)."""
    answer = _post(client, "/score", PING_HU | {"rules": WHITE_GHOST, "discarder": 3, "robbed_kong": True})
    assert answer["liable"] == 3 and answer["payments"] == [0, 6, 0, -6]
    assert [fan["name"] for fan in answer["fans"]] == ["ping_hu", "wu_gui", "qiang_gang"]


def test_a_kong_bloom_is_doubled_and_with_liability_its_feeder_pays(client: TestClient) -> None:
    """杠开 X2 on 无鬼 X2: 4 a payer; with kong_bloom_liability the kong's feeder pays all three."""
    bloom = PING_HU | {"kong_replacement": True, "kong_feeder": 2}
    assert _post(client, "/score", bloom | {"rules": WHITE_GHOST})["payments"] == [-4, 12, -4, -4]
    liable = _post(client, "/score", bloom | {"rules": WHITE_GHOST | {"kong_bloom_liability": True}})
    assert liable["liable"] == 2 and liable["payments"] == [0, 12, -12, 0]
    _refused(
        client,
        "/score",
        PING_HU | {"rules": WHITE_GHOST, "kong_feeder": 2},
        "invalid_win_context",
        ["body", "kong_feeder"],
    )


def test_a_discard_win_only_where_the_room_allows_it(client: TestClient) -> None:
    _refused(
        client, "/score", PING_HU | {"rules": WHITE_GHOST, "discarder": 2}, "self_draw_only", ["body", "discarder"]
    )
    allowed = _post(client, "/score", PING_HU | {"rules": WHITE_GHOST | {"discard_wins": True}, "discarder": 2})
    assert allowed["payments"] == [0, 2, -2, 0]


def test_situation_fields_guangdong_does_not_read_are_refused(client: TestClient) -> None:
    _refused(
        client, "/score", PING_HU | {"rules": WHITE_GHOST, "riichi": True}, "invalid_win_context", ["body", "riichi"]
    )
    _refused(
        client, "/score", PING_HU | {"rules": WHITE_GHOST, "revealed": "9z"}, "invalid_notation", ["body", "revealed"]
    )


def test_other_rules_refuse_revealed_tiles_and_a_kong_feeder(client: TestClient) -> None:
    riichi = PING_HU | {"rules": "riichi"}
    _refused(client, "/score", riichi | {"revealed": "1m"}, "invalid_win_context", ["body", "revealed"])
    _refused(client, "/score", riichi | {"kong_feeder": 1}, "invalid_win_context", ["body", "kong_feeder"])


def test_a_not_winning_hand_is_a_400(client: TestClient) -> None:
    answer = _post(client, "/score", PING_HU | {"hand": "123m456p789s112z55s", "rules": WHITE_GHOST}, 400)
    assert answer["error"] == "not_a_winning_hand"


def test_the_score_batch_takes_the_preset(client: TestClient) -> None:
    items = [{key: value for key, value in PING_HU.items()}, PING_HU | {"discarder": 2}]
    answer = _post(client, "/score/batch", {"rules": WHITE_GHOST, "items": items})
    assert answer["results"][0]["payments"] == [-2, 6, -2, -2]
    assert answer["results"][1]["error"] == "self_draw_only" and answer["results"][1]["loc"] == [
        "body",
        "items",
        1,
        "discarder",
    ]


# --- /discard ----------------------------------------------------------------------------------


def test_discard_ranks_by_the_familys_expected_points(client: TestClient) -> None:
    """The candidates' expected points are the value model's (the core's own search), best first;
    a self-draw-only room charges nothing for dealing in."""
    hand = "123m456p789s11z23s5z"
    answer = _post(client, "/discard", {"hand": hand, "rules": WHITE_GHOST})
    assert answer["model"] == "expected_score"
    whole = Hand.from_tiles(parse_mpsz(hand))
    checker = Checker(hand_rules(GuangdongOptions(), parse_tile("5z")))
    found = value.discard_values(
        whole, checker, checker.remaining(whole), ghost=parse_tile("5z"), options=GuangdongOptions()
    )
    expected = {format_tile(item.tile): item.expected_score for item in found.discards}
    got = {candidate["tile"]: candidate["expected_score"] for candidate in answer["candidates"]}
    assert got == pytest.approx(expected, abs=1e-5)
    assert answer["best"] == max(expected, key=lambda tile: expected[tile])
    assert {candidate["deal_in_cost"] for candidate in answer["candidates"]} == {0.0}


def test_the_seat_wind_places_the_hand_for_its_horses(client: TestClient) -> None:
    """The dealer (East) collects on 1, 5, 9 and 东 horses, the 下家 (South) on 2, 6, 南 and 中: the
    expected points of the same discard differ with the seat."""
    hand = "123m456p789s11z23s5z"
    east = _post(client, "/discard", {"hand": hand, "rules": WHITE_GHOST, "seat_wind": "1z"})
    south = _post(client, "/discard", {"hand": hand, "rules": WHITE_GHOST, "seat_wind": "2z"})
    assert east["candidates"][0]["expected_score"] != south["candidates"][0]["expected_score"]


def test_discard_wins_make_dealing_in_cost_something(client: TestClient) -> None:
    rules = WHITE_GHOST | {"discard_wins": True}
    body = {"hand": "123m456p789s11z23s5z", "rules": rules, "opponents": [{"river": "1m", "riichi": True}]}
    answer = _post(client, "/discard", body)
    assert any(candidate["deal_in_cost"] > 0 for candidate in answer["candidates"])
