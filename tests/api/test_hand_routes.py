"""Happy paths of /win, /ting, /shanten and their batch forms, with known answers."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

ALL_TILES = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
PON_EAST = {"kind": "pon", "tiles": "111z"}


def _post(client: TestClient, path: str, body: object) -> dict:
    response = client.post(path, json=body)
    assert response.status_code == 200, response.text
    return response.json()


# --- /shanten ---------------------------------------------------------------------


def test_shanten_of_a_hand_whose_wait_would_be_a_fifth_tile(client: TestClient) -> None:
    answer = _post(client, "/shanten", {"hand": "123456789m1111z"})
    assert answer["shanten"] == 1
    assert answer["forms"] == {
        "regular": 1,
        "seven_pairs": 5,
        "thirteen_orphans": 9,
        "knitted_straight": None,
        "honors_and_knitted": None,
    }
    # Any tile but 1z pairs with the spare 1z; 1m..9m have 3 copies left, the rest 4.
    assert [t["tile"] for t in answer["ukeire"]] == [t for t in ALL_TILES if t != "1z"]
    assert answer["ukeire_count"] == 9 * 3 + 24 * 4
    assert answer["reason"] is None


def test_shanten_of_a_3n_plus_2_hand_has_no_ukeire(client: TestClient) -> None:
    answer = _post(client, "/shanten", {"hand": "123m456p789s11122z"})
    assert answer["shanten"] == -1
    assert answer["forms"] == {
        "regular": -1,
        "seven_pairs": 4,
        "thirteen_orphans": 8,
        "knitted_straight": None,
        "honors_and_knitted": None,
    }
    assert answer["ukeire"] is None and answer["ukeire_count"] is None


def test_shanten_forms_the_rules_forbid_are_null(client: TestClient) -> None:
    answer = _post(client, "/shanten", {"hand": "11223344556677z", "rules": "qiqihar"})
    assert answer["forms"] == {
        "regular": 1,
        "seven_pairs": None,
        "thirteen_orphans": None,
        "knitted_straight": None,
        "honors_and_knitted": None,
    }
    assert answer["shanten"] == 1


def test_shanten_visible_tiles_lower_remaining(client: TestClient) -> None:
    answer = _post(client, "/shanten", {"hand": "123456789m1112z", "visible": "2z"})
    assert answer["shanten"] == 0
    assert answer["ukeire"] == [{"tile": "2z", "remaining": 2}]
    assert answer["ukeire_count"] == 2


@pytest.mark.parametrize(
    "hand",
    [
        "123456789m1111z",
        "123m456m789m1111z",
        "１２３４５６７８９万东东东东",
        "一二三四五六七八九万 东东东东",
        "1万2万3万4万5万6万7万8万9万東東東東",
        "🀇🀈🀉🀊🀋🀌🀍🀎🀏🀀🀀🀀🀀",
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 27, 27, 27, 27],
        "1111z 987654321m",
    ],
)
def test_every_notation_asks_the_same_question(client: TestClient, hand: object) -> None:
    assert _post(client, "/shanten", {"hand": hand})["shanten"] == 1


def test_red_fives_count_as_fives(client: TestClient) -> None:
    assert _post(client, "/shanten", {"hand": "406p1z"}) == _post(client, "/shanten", {"hand": "456p1z"})


def test_a_json_body_without_content_type_is_still_json(client: TestClient) -> None:
    response = client.post("/shanten", content=b'{"hand": "123456789m1111z"}')
    assert response.status_code == 200
    assert response.json()["shanten"] == 1


# --- /ting ------------------------------------------------------------------------


def test_ting_nine_gates_waits_on_every_man(client: TestClient) -> None:
    answer = _post(client, "/ting", {"hand": "1112345678999m"})
    assert answer["tenpai"] is True and answer["karaten"] is False
    assert [w["tile"] for w in answer["waits"]] == [f"{n}m" for n in range(1, 10)]
    remaining = {w["tile"]: w["remaining"] for w in answer["waits"]}
    assert remaining["1m"] == 1 and remaining["9m"] == 1
    assert all(remaining[f"{n}m"] == 3 for n in range(2, 9))
    assert answer["shape_waits"] == [f"{n}m" for n in range(1, 10)]


def test_ting_with_every_copy_seen_is_karaten(client: TestClient) -> None:
    answer = _post(client, "/ting", {"hand": "123456789m1112z", "visible": "222z"})
    assert answer == {
        "tenpai": True,
        "waits": [{"tile": "2z", "remaining": 0}],
        "karaten": True,
        "reason": None,
        "shape_waits": ["2z"],
    }


def test_ting_noten(client: TestClient) -> None:
    answer = _post(client, "/ting", {"hand": "147m258p369s1234z"})
    assert answer["tenpai"] is False and answer["waits"] == [] and answer["karaten"] is False


def test_ting_qiqihar_without_an_open_meld_waits_on_nothing(client: TestClient) -> None:
    answer = _post(client, "/ting", {"hand": "123m456p789s1112z", "rules": "qiqihar"})
    assert answer["tenpai"] is False and answer["waits"] == []
    assert answer["reason"] == "open_meld_required"
    assert "2z" in answer["shape_waits"]


def test_ting_melded_copies_count_only_when_asked(client: TestClient) -> None:
    melds = [
        {"kind": "pon", "tiles": "111m"},
        {"kind": "pon", "tiles": "222p"},
        {"kind": "pon", "tiles": "333s"},
        {"kind": "chi", "tiles": "789s"},
    ]
    default = _post(client, "/ting", {"hand": "1m", "melds": melds})
    assert default["waits"] == [{"tile": "1m", "remaining": 0}] and default["karaten"] is True
    rules = {"preset": "riichi", "melded_tiles_count_toward_limit": True}
    counted = _post(client, "/ting", {"hand": "1m", "melds": melds, "rules": rules})
    assert counted["tenpai"] is False and counted["waits"] == []


# --- /win -------------------------------------------------------------------------


def test_win_regular(client: TestClient) -> None:
    answer = _post(client, "/win", {"hand": "123m456p789s11122z"})
    assert answer == {
        "win": True,
        "form": "regular",
        "decompositions": [
            {
                "form": "regular",
                "pair": "2z",
                "melds": [["1m", "2m", "3m"], ["4p", "5p", "6p"], ["7s", "8s", "9s"], ["1z", "1z", "1z"]],
                "pairs": [],
                "singles": [],
                "wildcards": [],
                "knitted": [],
            }
        ],
        "reason": None,
        "truncated": False,
        "complete_shape": True,
    }


def test_win_lists_every_decomposition(client: TestClient) -> None:
    answer = _post(client, "/win", {"hand": "11122233344455m"})
    assert answer["win"] is True
    readings = sorted(("".join(d["pair"]), sorted("".join(m) for m in d["melds"])) for d in answer["decompositions"])
    assert readings == [
        ("2m", ["1m1m1m", "2m3m4m", "3m4m5m", "3m4m5m"]),
        ("5m", ["1m1m1m", "2m2m2m", "3m3m3m", "4m4m4m"]),
        ("5m", ["1m1m1m", "2m3m4m", "2m3m4m", "2m3m4m"]),
        ("5m", ["1m2m3m", "1m2m3m", "1m2m3m", "4m4m4m"]),
    ]


def test_win_qiqihar_with_a_pon_uses_the_wildcard(client: TestClient) -> None:
    body = {"hand": "123m456p78s99s7z", "melds": [PON_EAST], "rules": "qiqihar"}
    answer = _post(client, "/win", body)
    assert answer["win"] is True and answer["reason"] is None and answer["form"] == "regular"
    readings = sorted((d["pair"], d["melds"][-1], d["wildcards"]) for d in answer["decompositions"])
    assert readings == [
        ("9s", ["6s", "7s", "8s"], [{"tile": "7z", "as": "6s"}]),
        ("9s", ["7s", "8s", "9s"], [{"tile": "7z", "as": "9s"}]),
    ]


def test_win_qiqihar_without_an_open_meld_is_refused(client: TestClient) -> None:
    answer = _post(client, "/win", {"hand": "123m456p789s11z777z", "rules": "qiqihar"})
    assert answer["win"] is False and answer["reason"] == "open_meld_required"
    assert answer["complete_shape"] is True and answer["decompositions"]


def test_win_qiqihar_closed_kan_is_not_an_open_meld(client: TestClient) -> None:
    body = {
        "hand": "123m456p78s99s7z",
        "melds": [{"kind": "closed_kan", "tiles": "2222z"}],
        "rules": "qiqihar",
    }
    answer = _post(client, "/win", body)
    assert answer["win"] is False and answer["reason"] == "open_meld_required"


def test_win_seven_pairs_quad_rules(client: TestClient) -> None:
    hand = "1111m2233p4455s66z"
    assert _post(client, "/win", {"hand": hand})["win"] is False
    chinese = _post(client, "/win", {"hand": hand, "rules": "chinese"})
    assert chinese["win"] is True and chinese["form"] == "seven_pairs"
    assert chinese["decompositions"][0]["pairs"] == ["1m", "1m", "2p", "3p", "4s", "5s", "6z"]
    overridden = {"preset": "riichi", "seven_pairs": "quad_as_two"}
    assert _post(client, "/win", {"hand": hand, "rules": overridden})["win"] is True


def test_win_thirteen_orphans(client: TestClient) -> None:
    answer = _post(client, "/win", {"hand": "19m19p19s1234567z1m"})
    assert answer["form"] == "thirteen_orphans"
    assert answer["decompositions"][0]["pair"] == "1m"
    assert len(answer["decompositions"][0]["singles"]) == 12


def test_not_a_win_is_a_200(client: TestClient) -> None:
    answer = _post(client, "/win", {"hand": "123m456p789s11123z"})
    assert answer == {
        "win": False,
        "form": None,
        "decompositions": [],
        "reason": None,
        "truncated": False,
        "complete_shape": False,
    }


# --- batches ----------------------------------------------------------------------


def test_shanten_batch_answers_in_request_order(client: TestClient) -> None:
    hands = ["123456789m1111z", "123m456p789s11122z", "1112345678999m", "19m19p19s1234567z"]
    answer = _post(client, "/shanten/batch", {"hands": hands})
    singles = [_post(client, "/shanten", {"hand": hand}) for hand in hands]
    assert answer["results"] == singles
    assert [r["shanten"] for r in answer["results"]] == [1, -1, 0, 0]


def test_ting_batch_applies_common_fields_to_every_hand(client: TestClient) -> None:
    body = {"hands": ["123456789m1112z", "123456789m2223z"], "visible": "2z"}
    answer = _post(client, "/ting/batch", body)
    assert [r["waits"] for r in answer["results"]] == [
        [{"tile": "2z", "remaining": 2}],
        [{"tile": "3z", "remaining": 3}],
    ]


def test_win_batch_with_melds_and_rules(client: TestClient) -> None:
    body = {"hands": ["123m456p78s99s7z", "123m456p78s99s1z"], "melds": [PON_EAST], "rules": "qiqihar"}
    answer = _post(client, "/win/batch", body)
    assert [r["win"] for r in answer["results"]] == [True, False]


def test_empty_batch(client: TestClient) -> None:
    assert _post(client, "/shanten/batch", {"hands": []}) == {"results": []}
