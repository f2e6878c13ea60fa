"""The two wildcard rule options over HTTP: listed by GET /rules, taken as overrides, and the
held-wildcards form named by /win (the engine's answers are checked in tests/core/test_wildcard_forms.py)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.core.shape.rules import PRESETS

#: Hunan 红中麻将's shapes: 112 tiles (every honour but 中 absent), 中 wild, seven pairs with the 中
#: plain, four 中 win at once.
HUNAN = {
    "preset": "qiqihar",
    "win_requires_meld": [],
    "seven_pairs": "distinct",
    "absent_tiles": "123456z",
    "chi_allowed": False,
    "wildcards_in_seven_pairs": False,
    "wildcards_held_win": 4,
}


def _post(client: TestClient, path: str, body: object) -> dict:
    response = client.post(path, json=body)
    assert response.status_code == 200, response.text
    return response.json()


def test_rules_list_both_options_with_their_defaults(client: TestClient) -> None:
    answer = client.get("/rules").json()
    meanings = {option["name"]: option["meaning"] for option in answer["options"]}
    assert "胡7对时红中不能作为万能牌使用" in meanings["wildcards_in_seven_pairs"]
    assert "摸到四张红中，自动胡牌" in meanings["wildcards_held_win"]
    for preset in answer["presets"]:
        if preset["name"] in PRESETS:  # the shape wing's presets keep the defaults; a family's may not
            assert preset["wildcards_in_seven_pairs"] is True and preset["wildcards_held_win"] is None


def test_four_hongzhong_win_and_say_why(client: TestClient) -> None:
    answer = _post(client, "/win", {"hand": "159m26p37s48m9s7777z", "rules": HUNAN})
    assert answer["win"] and answer["form"] == "wildcards_held"
    (reading,) = answer["decompositions"]
    assert reading["form"] == "wildcards_held" and len(reading["singles"]) == 10
    assert reading["wildcards"] == [{"tile": "7z", "as": "7z"}] * 4
    # Without the option the same tiles are far from complete.
    off = _post(client, "/win", {"hand": "159m26p37s48m9s7777z", "rules": {**HUNAN, "wildcards_held_win": None}})
    assert not off["win"] and off["form"] is None


def test_hongzhong_plain_in_seven_pairs(client: TestClient) -> None:
    hand = "1122m3344p5566s8s7z"
    assert not _post(client, "/win", {"hand": hand, "rules": HUNAN})["win"]
    wild = _post(client, "/win", {"hand": hand, "rules": {**HUNAN, "wildcards_in_seven_pairs": True}})
    assert wild["form"] == "seven_pairs" and wild["decompositions"][0]["wildcards"] == [{"tile": "7z", "as": "8s"}]


def test_three_hongzhong_wait_on_the_fourth(client: TestClient) -> None:
    answer = _post(client, "/ting", {"hand": "159m26p37s48m9s777z", "rules": HUNAN})
    assert answer["tenpai"] and [wait["tile"] for wait in answer["waits"]] == ["7z"]
    shanten = _post(client, "/shanten", {"hand": "159m26p37s48m9s777z", "rules": HUNAN})
    assert shanten["shanten"] == 0 and [tile["tile"] for tile in shanten["ukeire"]] == ["7z"]


def test_a_bad_count_names_the_option(client: TestClient) -> None:
    response = client.post("/win", json={"hand": "11m", "rules": {**HUNAN, "wildcards_held_win": 5}})
    assert response.status_code == 422
    assert "wildcards_held_win" in response.text
