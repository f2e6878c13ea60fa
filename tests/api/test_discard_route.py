"""POST /discard: known answers checked by brute force, properties, options, errors, cache, examples."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from api_helpers import assert_error
from fastapi.testclient import TestClient
from kyoku_events import one_pon_then_discards

from app.api.schemas.discard import (
    DISCARD_EXAMPLES,
    DISCARD_RESPONSE_REQUEST,
    DiscardResponse,
)
from app.core.advice.discard import DEAL_IN_POINTS, MAX_VALUE_SHANTEN
from app.core.advice.expected_score import expected_scores
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand
from app.core.shape.rules import rule_profile
from app.core.shape.tiles import (
    NUM_TILE_KINDS,
    counts_from_tiles,
    format_mpsz,
    format_tile,
    parse_mpsz,
    parse_tile,
)


def _post(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/discard", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def brute_force_ukeire(hand_text: str, discard: str, seen_text: str = "") -> tuple[int, int]:
    """(shanten, ukeire copies) of the hand after ``discard``, from Checker.shanten alone."""
    checker = Checker(rule_profile("riichi"))
    held = counts_from_tiles(parse_mpsz(hand_text))
    seen = counts_from_tiles(parse_mpsz(seen_text)) if seen_text else bytes(NUM_TILE_KINDS)
    after = bytearray(held)
    after[parse_tile(discard)] -= 1
    shanten = checker.shanten(Hand(bytes(after))).shanten
    copies = 0
    for draw in range(NUM_TILE_KINDS):
        if after[draw] < 4:
            drawn = bytearray(after)
            drawn[draw] += 1
            if checker.shanten(Hand(bytes(drawn))).shanten < shanten:
                copies += 4 - held[draw] - seen[draw]
    return shanten, copies


# --- known answers -----------------------------------------------------------------------

KNOWN = [
    ("1112345678999m5p", "5p", 0, 23),
    ("19m19p19s1234567z9m", "9m", 0, 38),
    ("2234567m345p5677s", "7s", 0, 9),
    ("789m112789p23469s", "9s", 1, 35),
    ("345m1345p6789s455z", "4z", 1, 36),
    ("45678m12345678p7z", "7z", 1, 51),
]


@pytest.mark.parametrize(("hand", "best", "shanten", "ukeire"), KNOWN, ids=[k[0] for k in KNOWN])
def test_known_best_discards(client: TestClient, hand: str, best: str, shanten: int, ukeire: int) -> None:
    answer = _post(client, {"hand": hand, "model": "linear"})
    first = answer["candidates"][0]
    assert answer["best"] == first["tile"] == best
    assert (first["shanten"], first["ukeire_count"]) == (shanten, ukeire) == brute_force_ukeire(hand, best)
    assert first["ukeire_count"] == sum(t["remaining"] for t in first["ukeire"])


def test_the_contract_fields_are_there(client: TestClient) -> None:
    answer = _post(client, {"hand": "123m456p789s1122z5z"})
    assert {"best", "candidates"} <= set(answer)
    for candidate in answer["candidates"]:
        assert {"tile", "shanten", "ukeire_count", "ukeire", "safety", "score"} <= set(candidate)
        assert {"components", "safety_by_opponent", "reasons"} <= set(candidate)


def test_every_candidate_matches_brute_force_with_seen_tiles(client: TestClient) -> None:
    hand, visible, river, indicator = "2345m1357p2468s11z", "9m", "4m1z", "2s"
    answer = _post(
        client, {"hand": hand, "visible": visible, "dora_indicators": indicator, "opponents": [{"river": river}]}
    )
    for candidate in answer["candidates"]:
        expected = brute_force_ukeire(hand, candidate["tile"], visible + river + indicator)
        assert (candidate["shanten"], candidate["ukeire_count"]) == expected


# --- properties ------------------------------------------------------------------------------


def test_properties_on_random_hands(client: TestClient) -> None:
    rng = random.Random(11)
    for _ in range(30):
        tiles = [t // 4 for t in rng.sample(range(136), 14)]
        hand = format_mpsz(tiles)
        answer = _post(client, {"hand": hand})
        now = _post(client, {"hand": hand}) and client.post("/shanten", json={"hand": hand}).json()["shanten"]
        assert answer["shanten"] == now
        candidates = answer["candidates"]
        assert sorted(c["tile"] for c in candidates) == sorted({format_mpsz([t]) for t in tiles})
        assert all(c["shanten"] >= max(now, 0) for c in candidates)  # none below the hand's shanten
        scores = [c["score"] for c in candidates]
        assert scores == sorted(scores, reverse=True)
        valued = answer["model"] == "expected_score"
        assert valued == (now <= MAX_VALUE_SHANTEN) and (answer["model_note"] is None) == valued
        for candidate in candidates:
            assert math.isclose(sum(candidate["components"].values()), candidate["linear_score"], abs_tol=1e-5)
            assert candidate["safety"] == 1.0 and candidate["safety_by_opponent"] == []
            if valued:
                assert candidate["deal_in_cost"] == 0.0
                assert candidate["score"] == pytest.approx(candidate["expected_score"], abs=1e-5)
                assert 0.0 <= candidate["win_probability"] <= candidate["tenpai_probability"] <= 1.0
            else:
                assert candidate["score"] == candidate["linear_score"] and candidate["expected_score"] is None


def test_notations_ask_the_same_question(client: TestClient) -> None:
    mpsz = _post(client, {"hand": "123m456p789s1122z6z"})
    chinese = _post(client, {"hand": "一二三万 四五六筒 七八九条 东东 南南 发"})
    unicode = _post(client, {"hand": "🀇🀈🀉🀜🀝🀞🀖🀗🀘🀀🀀🀁🀁🀅"})
    integers = _post(client, {"hand": [0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27, 28, 28, 32]})
    assert mpsz == chinese == unicode == integers


def test_red_fives_count_as_dora(client: TestClient) -> None:
    plain = _post(client, {"hand": "123m456p789s1122z5m", "model": "linear"})
    red = _post(client, {"hand": "123m456p789s1122z0m", "model": "linear"})
    assert [c["tile"] for c in red["candidates"]] == [c["tile"] for c in plain["candidates"]]
    keep = {c["tile"]: c["dora"] for c in red["candidates"]}
    assert keep["5m"] == 0 and keep["1z"] == 1  # discarding the red five gives it up
    # The value model prices it: keeping the red five is worth more than keeping a plain one.
    plain_value = {c["tile"]: c["expected_score"] for c in _post(client, {"hand": "123m456p789s1122z5m"})["candidates"]}
    red_value = {c["tile"]: c["expected_score"] for c in _post(client, {"hand": "123m456p789s1122z0m"})["candidates"]}
    assert red_value["1z"] > plain_value["1z"] and red_value["5m"] == pytest.approx(plain_value["5m"], rel=1e-9)


# --- opponents and safety ----------------------------------------------------------------------


def test_safety_against_a_riichi(client: TestClient) -> None:
    body = {
        "hand": "23456m345p45677s9s",
        "turn": 9,
        "opponents": [{"river": "1z9p2m8s6z5s4z7p1m", "riichi": True, "riichi_turn": 8}, {"river": "9s1p7z"}],
    }
    answer = _post(client, body)
    by_tile = {c["tile"]: c for c in answer["candidates"]}
    nine = by_tile["9s"]["safety_by_opponent"]
    assert [v["opponent"] for v in nine] == [0, 1]
    assert nine[0]["reasons"] == ["no_suji", "early_outside"]  # 8s among their first five discards
    assert nine[1]["reasons"][0] == "genbutsu"
    two = by_tile["2m"]["safety_by_opponent"][0]
    assert two["safety"] == 1.0 and two["reasons"] == ["genbutsu"]
    for candidate in answer["candidates"]:
        product = math.prod(v["safety"] for v in candidate["safety_by_opponent"])
        assert candidate["safety"] == pytest.approx(product, abs=1e-5)
        assert all(0.0 <= v["safety"] <= 1.0 for v in candidate["safety_by_opponent"])
    defend = _post(client, {**body, "weights": {"safety": 10000.0}, "model": "linear"})
    assert defend["weights"]["safety"] == 10000.0
    assert defend["candidates"][0]["safety"] == max(c["safety"] for c in defend["candidates"])


def test_rules_change_the_danger(client: TestClient) -> None:
    body = {"hand": "123m456p789s1122z5z", "opponents": [{"river": "5z9m", "riichi": True}]}
    riichi = {c["tile"]: c for c in _post(client, body)["candidates"]}
    chinese = {c["tile"]: c for c in _post(client, {**body, "rules": "chinese"})["candidates"]}
    assert riichi["5z"]["safety"] == 1.0
    assert 0.9 < chinese["5z"]["safety"] < 1.0
    assert "no_furiten" in chinese["5z"]["safety_by_opponent"][0]["reasons"]


def test_qiqihar_keeps_the_wildcard(client: TestClient) -> None:
    body = {"hand": "123m45p78s99s3z7z", "melds": [{"kind": "pon", "tiles": "111z"}], "rules": "qiqihar"}
    candidates = _post(client, body)["candidates"]
    wildcard = next(c for c in candidates if c["tile"] == "7z")
    assert wildcard["is_wildcard"] and candidates[0]["tile"] != "7z"
    assert wildcard["score"] < candidates[0]["score"]
    assert any("wildcard" in line for line in wildcard["reasons"])


# --- options -----------------------------------------------------------------------------------


def test_options_add_their_fields(client: TestClient) -> None:
    body = {"hand": "2234567m345p5677s", "options": {"improvements": True, "good_shape": True}}
    candidates = _post(client, body)["candidates"]
    assert all(c["improvements"] is not None for c in candidates)
    assert all((c["good_shape"] is not None) == (c["shanten"] == 1) for c in candidates)
    second = next(c for c in candidates if c["tile"] == "2m")
    assert {"tile": "1m", "remaining": 4, "ukeire_after": 9} in second["improvements"]["tiles"]


def test_lookahead_over_http(client: TestClient) -> None:
    body = {"hand": "1234678m345p5s22z1z", "options": {"lookahead": True, "lookahead_draws": 4}}
    candidates = _post(client, body)["candidates"]
    for candidate in candidates:
        ahead = candidate["lookahead"]
        assert ahead["draws"] == 4 and ahead["complete"] and ahead["stopped_by"] is None
        assert 0.0 <= ahead["win_probability"] <= ahead["tenpai_probability"] <= 1.0
    small = _post(client, {**body, "options": {"lookahead": True, "lookahead_budget": 1}})["candidates"]
    assert any(not c["lookahead"]["complete"] for c in small)
    assert all(c["lookahead"]["complete"] == (c["lookahead"]["stopped_by"] is None) for c in small)
    assert {c["lookahead"]["stopped_by"] for c in small} <= {None, "states"}


# --- errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "loc", "code"),
    [
        ({"hand": "123m456p789s1122z"}, ["body", "hand"], "wrong_tile_count"),
        ({"hand": "11111m456p789s223z"}, ["body", "hand"], "too_many_copies"),
        ({"hand": "111m456p789s1122z5z", "visible": "11m"}, ["body", "visible"], "too_many_copies"),
        ({"hand": "111m456p789s1122z5z", "dora_indicators": "11m"}, ["body", "dora_indicators"], "too_many_copies"),
        (
            {"hand": "111m456p789s1122z5z", "visible": "1m", "opponents": [{}, {"river": "1m"}]},
            ["body", "opponents", 1, "river"],
            "too_many_copies",
        ),
        (
            {
                "hand": "111m456p789s1122z5z",
                "opponents": [{"melds": [{"kind": "chi", "tiles": "123m"}, {"kind": "chi", "tiles": "123m"}]}],
            },
            ["body", "opponents", 0, "melds"],
            "too_many_copies",
        ),
        (
            {"hand": "123m456p789s1122z5z", "opponents": [{"river": "1x"}]},
            ["body", "opponents", 0, "river"],
            "invalid_notation",
        ),
        (
            {"hand": "123m456p789s1122z5z", "opponents": [{"melds": [{"kind": "chi", "tiles": "124m"}]}]},
            ["body", "opponents", 0, "melds", 0, "tiles"],
            "invalid_meld",
        ),
        (
            {"hand": "123m456p789s1122z5z", "opponents": [{"river": "1m", "riichi": True, "riichi_turn": 2}]},
            ["body", "opponents", 0, "riichi_turn"],
            "invalid_opponent",
        ),
        (
            {"hand": "123m456p789s1122z5z", "opponents": [{"river": "1m", "riichi_turn": 1}]},
            ["body", "opponents", 0, "riichi_turn"],
            "invalid_opponent",
        ),
        (
            {"hand": "123m456p789s1122z5z", "opponents": [{"river": "1m2m", "tsumogiri": [True]}]},
            ["body", "opponents", 0, "tsumogiri"],
            "invalid_opponent",
        ),
        (
            {"hand": "123m456p789s1122z5z", "opponents": [{"river": "1m", "tsumogiri": ["yes"]}]},
            ["body", "opponents", 0, "tsumogiri", 0],
            "bool_type",
        ),
        (
            {
                "hand": "123m456p789s1122z5z",
                "opponents": [{"river": "1m2m", "melds": [{"kind": "pon", "tiles": "777z"}], "calls_at": [0]}],
            },
            ["body", "opponents", 0, "calls_at"],
            "invalid_opponent",
        ),
        (
            {
                "hand": "123m456p789s1122z5z",
                "opponents": [{"river": "1m2m", "tsumogiri": [False, True], "calls_at": [0]}],
            },
            ["body", "opponents", 0, "calls_at"],
            "invalid_opponent",
        ),
        (
            {
                "hand": "123m456p789s1122z5z",
                "opponents": [
                    {
                        "river": "1m2m",
                        "tsumogiri": [False, True],
                        "melds": [{"kind": "pon", "tiles": "777z"}],
                        "calls_at": [2],
                    }
                ],
            },
            ["body", "opponents", 0, "calls_at"],
            "invalid_opponent",
        ),
        (
            {"hand": "123m456p789s1122z5z", "opponents": [{"river": "1m", "calls_at": [-1]}]},
            ["body", "opponents", 0, "calls_at", 0],
            "greater_than_equal",
        ),
        ({"hand": "123m456p789s1122z5z", "opponents": [{}, {}, {}, {}]}, ["body", "opponents"], "too_long"),
        ({"hand": "123m456p789s1122z5z", "turn": 0}, ["body", "turn"], "greater_than_equal"),
        ({"hand": "123m456p789s1122z5z", "weights": {"safety": True}}, ["body", "weights", "safety"], "float_type"),
        ({"hand": "123m456p789s1122z5z", "weights": {"safety": "1"}}, ["body", "weights", "safety"], "float_type"),
        ({"hand": "123m456p789s1122z5z", "weights": {"danger": 1.0}}, ["body", "weights", "danger"], "extra_forbidden"),
        (
            {"hand": "123m456p789s1122z5z", "weights": {"shanten": 1e300}},
            ["body", "weights", "shanten"],
            "invalid_weight",
        ),
        (
            {"hand": "123m456p789s1122z5z", "options": {"lookahead_budget": 0}},
            ["body", "options", "lookahead_budget"],
            "greater_than_equal",
        ),
        ({"hand": "123m456p789s1122z5z", "rules": "hong_kong"}, ["body", "rules", "preset"], "unknown_rules"),
        (
            {"hand": "123m456p789s1122z5z", "melds": [{"kind": "pon", "tiles": "12m3m"}]},
            ["body", "melds", 0, "tiles"],
            "invalid_meld",
        ),
    ],
)
def test_bad_input_is_a_422_at_the_field(client: TestClient, body: dict[str, Any], loc: list[Any], code: str) -> None:
    assert_error(client.post("/discard", json=body), 422, loc, code)


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_weights_must_be_finite(client: TestClient, literal: str) -> None:
    body = f'{{"hand": "123m456p789s1122z5z", "weights": {{"dora": {literal}}}}}'
    response = client.post("/discard", content=body, headers={"content-type": "application/json"})
    assert_error(response, 422, ["body", "weights", "dora"], "invalid_weight")


# --- cache and documentation ----------------------------------------------------------------------


def test_answers_are_cached_by_the_whole_question(fresh_client: TestClient) -> None:
    body = {"hand": "123m456p789s1122z5z", "opponents": [{"river": "5z", "riichi": True}]}
    first = fresh_client.post("/discard", json=body)
    misses = fresh_client.get("/cache/stats").json()["misses"]
    again = fresh_client.post("/discard", json={**body, "hand": "一二三万四五六筒七八九条东东南南白"})
    stats = fresh_client.get("/cache/stats").json()
    assert again.content == first.content and stats["misses"] == misses and stats["hits"] >= 1
    other = fresh_client.post("/discard", json={**body, "opponents": [{"river": "5z"}]})
    assert other.json() != first.json()  # a different table is a different question
    weighted = fresh_client.post("/discard", json={**body, "weights": {"safety": 2.0}})
    assert weighted.json()["weights"]["safety"] == 2.0


def test_every_request_example_answers_200(client: TestClient) -> None:
    for name, example in DISCARD_EXAMPLES.items():
        response = client.post("/discard", json=example["value"])
        assert response.status_code == 200, (name, response.text)


def test_the_response_example_is_a_real_answer(client: TestClient) -> None:
    (example,) = DiscardResponse.model_config["json_schema_extra"]["examples"]
    assert _post(client, DISCARD_RESPONSE_REQUEST) == example


def test_the_route_is_documented(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    operation = schema["paths"]["/discard"]["post"]
    assert operation["operationId"] == "discard" and operation["summary"] and operation["description"]
    assert {"413", "422", "500"} <= set(operation["responses"])
    properties = schema["components"]["schemas"]["CandidateOut"]["properties"]
    assert {"tile", "shanten", "ukeire_count", "ukeire", "safety", "score"} <= set(properties)


def test_seat_and_round_winds_value_only_the_winds_that_are_yaku(client: TestClient) -> None:
    # A pair of East and a pair of West: without winds each is worth half a dragon's pair; as
    # South seat in an East round, East (the round wind) counts as a dragon, West not at all.
    body = {"hand": "123m456p789s11z33z5z"}
    plain = {c["tile"]: c for c in client.post("/discard", json=body).json()["candidates"]}
    seated = client.post("/discard", json={**body, "seat_wind": "2z", "round_wind": "1z"}).json()
    valued = {c["tile"]: c for c in seated["candidates"]}
    assert plain["5z"]["honors"] == 0.5  # two wind pairs at 0.5 x 0.5 each
    assert valued["5z"]["honors"] == 0.5  # East pair 1 x 0.5, West pair 0
    assert valued["3z"]["honors"] == 0.5 and valued["1z"]["honors"] == 0.0
    assert valued["3z"]["score"] > valued["1z"]["score"]  # throwing the guest wind keeps the value pair
    # A double wind (East seat, East round) counts twice.
    double = {c["tile"]: c for c in client.post("/discard", json={**body, "seat_wind": "1z"}).json()["candidates"]}
    assert double["5z"]["honors"] == 1.0


@pytest.mark.parametrize(
    ("field", "value"), [("seat_wind", "5z"), ("round_wind", "1m"), ("seat_wind", "12z"), ("round_wind", [])]
)
def test_a_wind_field_is_one_wind(client: TestClient, field: str, value: object) -> None:
    response = client.post("/discard", json={"hand": "123m456p789s11z33z5z", field: value})
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", field]


# --- the value model -------------------------------------------------------------------------


def test_the_default_ranks_by_expected_score(client: TestClient) -> None:
    hand = "123m456p789s1z234m5z"
    answer = _post(client, {"hand": hand, "dora_indicators": "1z", "seat_wind": "2z", "round_wind": "1z"})
    assert answer["model"] == "expected_score" and answer["model_note"] is None
    search = answer["value_search"]
    assert (
        search["complete"] and search["stopped_by"] is None and search["horizon"] == {"first_turn": 1, "last_turn": 18}
    )
    found = expected_scores(
        Hand.from_tiles(parse_mpsz(hand)), rule_profile("riichi"), dora_indicators=(27,), seat_wind=28, round_wind=27
    )
    core = {format_tile(d.tile): d for d in found.discards}
    for candidate in answer["candidates"]:
        value = core[candidate["tile"]]
        assert candidate["expected_score"] == pytest.approx(value.expected_score, abs=1e-5)
        assert candidate["win_probability"] == pytest.approx(value.win_probability, abs=1e-6)
        assert candidate["tenpai_probability"] == pytest.approx(value.tenpai_probability, abs=1e-6)
        assert candidate["horizon"] == {"first_turn": 1, "last_turn": 18}
        assert candidate["reasons"][0].startswith("expected ")
    best = max(core.values(), key=lambda d: d.expected_score)
    assert answer["candidates"][0]["expected_score"] == pytest.approx(best.expected_score, abs=1e-5)
    # 1m and 4m tie (mahjong-cpp: 1102.0 each); 1m connects less with the rest.
    assert [c["tile"] for c in answer["candidates"][:2]] == ["1m", "4m"]


def test_the_turn_shortens_the_horizon(client: TestClient) -> None:
    early = _post(client, {"hand": "123m456p789s1z234m5z"})
    late = _post(client, {"hand": "123m456p789s1z234m5z", "turn": 12})
    assert late["value_search"]["horizon"] == {"first_turn": 12, "last_turn": 18}
    for before, after in zip(early["candidates"][:3], late["candidates"][:3], strict=True):
        assert after["win_probability"] < before["win_probability"]


def test_opponents_cost_the_dangerous_discards(client: TestClient) -> None:
    body = {"hand": "23456m345p45677s9s", "turn": 9, "opponents": [{"river": "1z9p2m8s6z5s4z7p1m", "riichi": True}]}
    candidates = {c["tile"]: c for c in _post(client, body)["candidates"]}
    assert candidates["2m"]["deal_in_cost"] == 0.0  # genbutsu
    for candidate in candidates.values():
        danger = 1.0 - candidate["safety"]
        expected_cost = danger * (candidate["expected_score"] + DEAL_IN_POINTS)
        assert candidate["deal_in_cost"] == pytest.approx(expected_cost, rel=1e-4, abs=1e-3)  # safety is rounded
        assert candidate["score"] == pytest.approx(candidate["expected_score"] - candidate["deal_in_cost"], abs=1e-5)


def test_linear_and_other_rules_keep_the_seed_model(client: TestClient) -> None:
    hand = "123m456p789s1122z5z"
    linear = _post(client, {"hand": hand, "model": "linear"})
    assert linear["model"] == "linear" and linear["value_search"] is None and linear["model_note"] is None
    assert all(c["expected_score"] is None and c["score"] == c["linear_score"] for c in linear["candidates"])
    chinese = _post(client, {"hand": hand, "rules": "chinese"})
    assert chinese["model"] == "linear" and "chinese" in chinese["model_note"]
    far = _post(client, {"hand": "147m258p369s12345z"})
    assert far["model"] == "linear" and "from tenpai" in far["model_note"]
    wrong = client.post("/discard", json={"hand": hand, "model": "best"})
    assert wrong.status_code == 422 and wrong.json()["detail"][0]["loc"] == ["body", "model"]


def test_mcr_is_ranked_by_the_fan_plan(client: TestClient) -> None:
    answer = client.post("/discard", json={"hand": "12345678m123p55s5z", "rules": "mcr"}).json()
    assert answer["model"] == "fan_plan" and answer["best"] == "5z"
    first = answer["candidates"][0]
    assert first["fan_plan"] == {"need": 1, "helping_tiles": first["fan_plan"]["helping_tiles"], "target_fan": 16}
    scores = [c["score"] for c in answer["candidates"]]
    assert scores == sorted(scores, reverse=True)
    assert all(c["fan_plan"] is not None and c["expected_score"] is None for c in answer["candidates"])
    linear = client.post("/discard", json={"hand": "12345678m123p55s5z", "rules": "mcr", "model": "linear"}).json()
    assert linear["model"] == "linear" and all(c["fan_plan"] is None for c in linear["candidates"])


def test_the_fan_plan_elsewhere_falls_back_to_linear_and_says_why(client: TestClient) -> None:
    answer = client.post("/discard", json={"hand": "12345678m123p55s5z", "rules": "riichi", "model": "fan_plan"}).json()
    assert answer["model"] == "linear" and "needs no fans" in answer["model_note"]


def test_the_fan_plan_needs_a_whole_hand(client: TestClient) -> None:
    answer = client.post("/discard", json={"hand": "37p", "rules": "mcr"}).json()
    assert answer["model"] == "linear" and "whole hand" in answer["model_note"]
    wild = client.post("/discard", json={"hand": "123m456p789s117z55s", "rules": {"preset": "mcr", "wildcards": "7z"}})
    assert wild.status_code == 200 and wild.json()["model"] == "linear"


# --- a hand complete as it stands: may it be declared instead of a discard? ------------------

_TSUMO_NOTE = "complete: declare a self-draw win (tsumo) instead of discarding"
_PON_SOUTH = {"kind": "pon", "tiles": "222z"}
_NO_YAKU_OPEN = {"hand": "456p23478999s", "melds": [{"kind": "chi", "tiles": "123m"}]}


def _verdict(answer: dict[str, Any]) -> tuple[Any, ...]:
    return answer["shanten"], answer["win"], answer["win_declarable"], answer["win_reason"]


def _scored_for_every_drawn_tile(client: TestClient, body: dict[str, Any], seat: int) -> set[int]:
    """The statuses /score answers for each distinct concealed tile as the one drawn (a self-draw)."""
    hand = body["hand"]
    tiles = {format_tile(tile) for tile in parse_mpsz(hand)}
    situation = {"winner": seat, "dealer": 0, **({"round_wind": body["round_wind"]} if "round_wind" in body else {})}
    score = {"hand": hand, "melds": body.get("melds", []), "rules": body.get("rules", "riichi"), **situation}
    return {client.post("/score", json={**score, "win_tile": tile}).status_code for tile in tiles}


def test_a_complete_closed_hand_says_to_declare_tsumo(client: TestClient) -> None:
    answer = _post(client, {"hand": "123m456p789s11122z"})
    assert _verdict(answer) == (-1, True, True, None)
    assert answer["win_note"].startswith(_TSUMO_NOTE)
    assert answer["candidates"]  # the discards are still ranked, for a player who plays on


@pytest.mark.parametrize("model", ["expected_score", "linear"])
def test_a_complete_hand_without_a_yaku_is_not_declarable(client: TestClient, model: str) -> None:
    answer = _post(client, {**_NO_YAKU_OPEN, "model": model})
    assert _verdict(answer) == (-1, True, False, "no_yaku")
    assert "does not let it win as a self-draw" in answer["win_note"] and "(no_yaku)" in answer["win_note"]


@pytest.mark.parametrize(
    ("winds", "declarable", "reason"),
    [
        ({}, None, None),  # a pon of South is a yaku for the South seat only: it depends on the seat
        ({"seat_wind": "2z"}, True, None),
        ({"seat_wind": "1z"}, False, "no_yaku"),
        ({"round_wind": "2z"}, True, None),  # the round wind is a yaku whatever the seat
    ],
)
def test_the_verdict_follows_the_seat_and_round_winds(
    client: TestClient, winds: dict[str, str], declarable: bool | None, reason: str | None
) -> None:
    body = {"hand": "123m456p789s11z", "melds": [_PON_SOUTH], **winds}
    answer = _post(client, body)
    assert _verdict(answer) == (-1, True, declarable, reason)
    if declarable is None:
        assert "depends on the tile drawn or the seat wind" in answer["win_note"]


@pytest.mark.parametrize(
    ("body", "seats"),
    [
        ({"hand": "123m456p789s11122z"}, range(4)),
        (_NO_YAKU_OPEN, range(4)),
        ({"hand": "123m456p789s11z", "melds": [_PON_SOUTH], "seat_wind": "2z"}, [1]),
        ({"hand": "123m456p789s11z", "melds": [_PON_SOUTH], "seat_wind": "1z"}, [0]),
        ({"hand": "123m456p789s11z", "melds": [_PON_SOUTH]}, range(4)),
        ({"hand": "234567m345p22p678s", "rules": "mcr"}, range(4)),
        ({"hand": "123m456p78s99s7z", "melds": [{"kind": "pon", "tiles": "111z"}], "rules": "qiqihar"}, range(4)),
    ],
)
def test_the_verdict_is_what_score_answers_for_every_tile_that_may_have_been_drawn(
    client: TestClient, body: dict[str, Any], seats: Any
) -> None:
    statuses = set().union(*(_scored_for_every_drawn_tile(client, body, seat) for seat in seats))
    expected = {frozenset({200}): True, frozenset({400}): False}.get(frozenset(statuses))
    assert _post(client, body)["win_declarable"] is expected, statuses


def test_rules_that_refuse_the_shape_say_why(client: TestClient) -> None:
    closed = _post(client, {"hand": "123m456p789s11z777z", "rules": "qiqihar"})
    assert _verdict(closed) == (-1, False, None, "open_meld_required")
    assert client.post("/win", json={"hand": "123m456p789s11z777z", "rules": "qiqihar"}).json()["win"] is False
    opened = _post(client, {"hand": "123m456p789s11z", "melds": [{"kind": "pon", "tiles": "777z"}], "rules": "qiqihar"})
    assert _verdict(opened) == (-1, True, True, None)


def test_rules_without_a_scoring_profile_say_the_shape_wins(client: TestClient) -> None:
    answer = _post(client, {"hand": "123m456p789s11z222z", "rules": "chinese"})
    assert _verdict(answer) == (-1, True, None, None)
    assert answer["win_note"].startswith(_TSUMO_NOTE) and "no scoring profile" in answer["win_note"]


def test_a_hand_not_complete_has_no_verdict(client: TestClient) -> None:
    answer = _post(client, {"hand": "123m456p789s11223z"})
    assert answer["shanten"] >= 0
    assert (answer["win"], answer["win_declarable"], answer["win_reason"], answer["win_note"]) == (
        False,
        None,
        None,
        None,
    )


def test_win_agrees_with_the_win_route_on_random_complete_hands(client: TestClient) -> None:
    rng = random.Random(21)
    for _ in range(20):
        groups = [rng.choice(["123", "456", "789", "111", "555"]) + rng.choice("mps") for _ in range(4)]
        hand = "".join(groups) + rng.choice(["11z", "55z", "99p"])
        body = {"hand": hand, "rules": rng.choice(["riichi", "chinese", "qiqihar"])}
        win = client.post("/win", json=body)
        if win.status_code != 200:  # five copies of a tile: skipped
            continue
        answer = _post(client, {**body, "model": "linear"})
        assert answer["win"] is win.json()["win"], body
        assert (answer["shanten"] == -1) is win.json()["complete_shape"], body


def test_an_open_seat_with_its_discards_flagged_reads_as_act_reads_it(client: TestClient) -> None:
    # Seat 1 pons seat 0's first white dragon, then throws from its hand (9p, 1s), the 9s it drew,
    # and 1p from its hand; seat 2 asks at its next draw. /act reads seat 1 from the log; /discard
    # from the same river, pon, flags and call place (what the log shows of it) reads the same
    # chance (a dragon's pon: /discard's opponents carry no seat wind, /act's do).
    events = one_pon_then_discards("P")
    events.append({"type": "tsumo", "actor": 2, "pai": "C"})
    acted = client.post("/act", json={"seat": 2, "events": events, "rules": "riichi"})
    assert acted.status_code == 200, acted.text
    (read,) = [opponent for opponent in acted.json()["opponents"] if opponent["seat"] == 1]
    seat_one = {"river": "9p1s9s1p", "melds": [{"kind": "pon", "tiles": "555z"}]}
    body = {"hand": "3456789s1122337z", "rules": "riichi", "opponents": [seat_one]}
    flagged = {**seat_one, "tsumogiri": [False, False, True, False], "calls_at": [0]}

    def ready(opponent: dict[str, Any]) -> float:
        answer = _post(client, {**body, "opponents": [opponent]})
        return answer["candidates"][0]["safety_by_opponent"][0]["ready_probability"]

    assert ready(flagged) == pytest.approx(read["tenpai"], abs=1e-6)
    # Without them the read is another (the first set of weights, no hand discards counted).
    assert abs(ready(seat_one) - read["tenpai"]) > 1e-3
