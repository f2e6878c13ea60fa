"""Hunan 红中麻将 over HTTP: its preset and typed options in GET /rules, its wildcards on the shape
routes, its scorer (items in pinyin and Chinese, birds, the robbed seat paying all) on /score and
its value model on /discard, each answer checked against the family's core functions or worked
by hand."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from api_helpers import started
from fastapi.testclient import TestClient

from app.core.families.hongzhong import value
from app.core.families.hongzhong.options import HongzhongOptions, describe
from app.core.families.hongzhong.rules_text import SOURCE
from app.core.shape.hand import Hand
from app.core.shape.tiles import format_tile, parse_mpsz


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    client = started()
    yield client
    client.__exit__(None, None, None)


def _post(client: TestClient, path: str, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    answer: dict[str, Any] = response.json()
    return answer


def test_rules_list_the_preset_with_its_source_and_typed_options(client: TestClient) -> None:
    rules = client.get("/rules").json()
    preset = next(preset for preset in rules["presets"] if preset["name"] == "hongzhong")
    assert SOURCE.url in preset["source"]
    assert preset["wildcards"] == ["7z"] and preset["chi_allowed"] is False
    assert preset["wildcards_held_win"] == 4 and preset["wildcards_in_seven_pairs"] is False
    defaults = describe(HongzhongOptions())
    assert {name: preset[name] for name in defaults if name != "seven_pairs"} == {
        name: shown for name, shown in defaults.items() if name != "seven_pairs"
    }
    typed = {option["name"]: option for option in rules["options"] if option["family"] == "hongzhong"}
    assert typed["birds"]["type"] == "integer" and (typed["birds"]["minimum"], typed["birds"]["maximum"]) == (0, 20)
    assert typed["bird_counting"]["choices"] == ["face", "from_winner", "from_dealer"]
    # guangdong has a discard_wins too: each family's is listed.
    assert {option["family"] for option in rules["options"] if option["name"] == "discard_wins"} >= {
        "guangdong",
        "hongzhong",
    }


@pytest.mark.parametrize(
    ("hand", "wins"),
    [
        ("159m159p159s2s7777z", True),  # 摸到四张红中，自动胡牌
        ("1133557799m11p77z", True),  # seven pairs, 77z a plain pair
        ("1122334455m6p8s77z", False),  # seven pairs only if 红中 stood in: not in seven pairs
        ("123m456p789s1199s7z", True),  # 7z stands for 1s or 9s
    ],
)
def test_win_reads_the_texts_hand(client: TestClient, hand: str, wins: bool) -> None:
    assert _post(client, "/win", {"hand": hand, "rules": "hongzhong"})["win"] is wins


def test_shanten_and_ting_with_three_red(client: TestClient) -> None:
    """Three 红中 and nothing else fits: ready on the fourth 红中 (and on whatever else the 红中 complete)."""
    answer = _post(client, "/ting", {"hand": "1479m258p369s777z", "rules": "hongzhong"})
    assert "7z" in [wait["tile"] if isinstance(wait, dict) else wait for wait in answer["waits"]]
    assert _post(client, "/shanten", {"hand": "1479m258p369s777z", "rules": "hongzhong"})["shanten"] == 0


def test_a_self_draw_with_two_birds_one_hitting(client: TestClient) -> None:
    """Worked by hand: 平胡 2; two birds (the hand holds 红中): 5m hits (1/5/9), 3p does not; each
    hit 2; each of the three payers pays 2 + 2 = 4."""
    body = {"hand": "123m456p789s1199s7z", "win_tile": "9s", "rules": "hongzhong", "revealed": "5m3p"}
    answer = _post(client, "/score", body | {"winner": 1, "dealer": 0})
    assert answer["payments"] == [-4, 12, -4, -4]
    names = [(fan["name"], fan["chinese"]) for fan in answer["fans"]]
    assert ("ping_hu", "平胡") in names and ("zhong_ma", "中码") in names
    assert [(bird["tile"], bird["hit"]) for bird in answer["revealed"]] == [("5m", True), ("3p", False)]


def test_too_many_birds_is_a_422_at_revealed(client: TestClient) -> None:
    body = {"hand": "123m456p789s1199s7z", "win_tile": "9s", "rules": "hongzhong", "revealed": "5m3p4s"}
    answer = _post(client, "/score", body | {"winner": 1, "dealer": 0}, 422)
    assert answer["detail"][0]["loc"][-1] == "revealed", answer


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        ({"preset": "hongzhong", "birds": "many"}, "birds"),
        ({"preset": "hongzhong", "chi_allowed": True}, "chi_allowed"),
        ({"preset": "hongzhong", "bird_counting": "sideways"}, "bird_counting"),
    ],
)
def test_a_bad_hongzhong_rule_is_a_422_naming_it(client: TestClient, rules: dict[str, Any], field: str) -> None:
    answer = _post(client, "/win", {"hand": "123m456p789s1199s7z", "rules": rules}, 422)
    assert answer["error"] == "invalid_rule_option"
    assert answer["detail"][0]["loc"][-1] == field, answer


def test_discard_ranks_by_the_familys_expected_points(client: TestClient) -> None:
    hand = "123m456p789s11s23p7z"
    answer = _post(client, "/discard", {"hand": hand, "rules": "hongzhong"})
    assert answer["model"] == "expected_score"
    whole = Hand.from_tiles(parse_mpsz(hand))
    found = value.discard_values(whole, HongzhongOptions(), value.unseen_from(whole), seat=1)
    expected = {format_tile(item.tile): item.expected_score for item in found.discards}
    got = {candidate["tile"]: candidate["expected_score"] for candidate in answer["candidates"]}
    assert got == pytest.approx(expected, abs=1e-5)
    assert {candidate["deal_in_cost"] for candidate in answer["candidates"]} == {0.0}
