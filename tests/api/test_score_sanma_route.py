"""POST /score and /score/batch under ``rules: "sanma"``: three seats, nukidora, tsumo loss, absent tiles.

Every expected number is worked out by hand from Tenhou's three-player rules (the
comment on each case shows the count), not read back from the service.
"""

from __future__ import annotations

from typing import Any

import pytest
from api_helpers import assert_error
from fastapi.testclient import TestClient

from app.api.schemas.score import _SANMA_ANSWER, _SANMA_EXAMPLE

# Closed 111m 999m 123p 456s + 77s, won on 7s: a pair (tanki) wait, no yaku of its own but
# menzen_tsumo on a self-draw.  Fu: 20 + 8 + 8 (closed terminal triplets) + 2 (tanki)
# = 38, plus 2 on a self-draw (40) or 10 on a closed ron (48 -> 50).  By default seat 1
# self-draws with seat 0 dealing.
TRIPLETS: dict[str, Any] = {"hand": "111999m123p45677s", "win_tile": "7s", "rules": "sanma", "winner": 1, "dealer": 0}


def _score(client: TestClient, body: dict[str, Any], **changes: Any) -> dict[str, Any]:
    answer = client.post("/score", json={**body, **changes})
    assert answer.status_code == 200, answer.text
    result = answer.json()
    assert len(result["payments"]) == 3 and sum(result["payments"]) == 0
    return result


def _yaku(result: dict[str, Any]) -> dict[str, int]:
    return {yaku["name"]: yaku["han"] for yaku in result["yaku"]}


def test_the_sanma_example_and_its_answer(client: TestClient) -> None:
    # menzen_tsumo 1 + dora 3 (a 1m indicator shows 9m; 999m held) + nuki_dora 2 = 6 han: haneman,
    # 3000 base.  Non-dealer self-draw: the dealer pays 6000, seat 2 pays 3000; north's share is lost.
    assert client.post("/score", json=_SANMA_EXAMPLE).json() == _SANMA_ANSWER


def test_non_dealer_ron_with_nuki_and_honba(client: TestClient) -> None:
    # riichi 1 + nuki_dora 1 = 2 han, 50 fu: 50 x 2^4 = 800, x4 = 3200; one honba is 200 in sanma.
    result = _score(client, TRIPLETS, winner=1, dealer=0, discarder=2, riichi=True, nuki=1, honba=1)
    assert _yaku(result) == {"riichi": 1, "nuki_dora": 1}
    assert (result["han"], result["fu"], result["base_points"]) == (2, 50, 800)
    assert result["payments"] == [0, 3400, -3400]
    assert result["per_payer"] == [{"seat": 2, "pays": 3400}]


def test_dealer_ron_with_nuki(client: TestClient) -> None:
    # riichi 1 + nuki_dora 3 = 4 han 50 fu: 3200 base is over mangan, 2000; the dealer's ron pays x6.
    result = _score(client, TRIPLETS, winner=0, dealer=0, discarder=1, riichi=True, nuki=3)
    assert (result["han"], result["limit"]) == (4, "mangan")
    assert result["payments"] == [12000, -12000, 0]


def test_dealer_tsumo_with_nuki_and_the_no_loss_variant(client: TestClient) -> None:
    # menzen_tsumo 1 + nuki_dora 1 = 2 han 40 fu: 640 base.  Each of the two pays 1280 -> 1300,
    # plus 100 a honba; north's 1300 is lost.
    result = _score(client, TRIPLETS, winner=2, dealer=2, nuki=1, honba=1)
    assert (result["han"], result["fu"], result["base_points"]) == (2, 40, 640)
    assert result["payments"] == [-1400, -1400, 2800]
    # Without tsumo loss each payer adds half of north's 1300: 650 -> 700.
    no_loss = _score(
        client, TRIPLETS, winner=2, dealer=2, nuki=1, honba=1, rules={"preset": "sanma", "tsumo_loss": False}
    )
    assert no_loss["payments"] == [-2100, -2100, 4200]


def test_non_dealer_tsumo_with_a_north_dora_indicator(client: TestClient) -> None:
    # A West indicator shows north: each of the 2 norths set aside is a dora again (2 nuki_dora + 2 dora).
    # menzen_tsumo 1 + 4 = 5 han: mangan.  Dealer (seat 1) pays 4000, seat 0 pays 2000; north's 2000 lost.
    result = _score(client, TRIPLETS, winner=2, dealer=1, nuki=2, dora_indicators="3z")
    assert _yaku(result) == {"menzen_tsumo": 1, "dora": 2, "nuki_dora": 2}
    assert result["limit"] == "mangan"
    assert result["payments"] == [-2000, -4000, 6000]
    assert result["per_payer"] == [{"seat": 0, "pays": 2000}, {"seat": 1, "pays": 4000}]


@pytest.mark.parametrize(
    ("changes", "loc"),
    [
        ({"hand": "345m999m123p45677s"}, ["body", "hand"]),
        ({"hand": "999m123p45677s", "melds": [{"kind": "pon", "tiles": "333m"}]}, ["body", "melds", 0, "tiles"]),
        (
            {"hand": "123p45677s", "melds": [{"kind": "pon", "tiles": "111m"}, {"kind": "pon", "tiles": "555m"}]},
            ["body", "melds", 1, "tiles"],
        ),
        ({"dora_indicators": "1p3m"}, ["body", "dora_indicators"]),
        ({"riichi": True, "ura_indicators": "7m"}, ["body", "ura_indicators"]),
        ({"win_tile": "3m"}, ["body", "win_tile"]),
        # A red five of man is a 5m: there is none in sanma.
        ({"hand": "111999m0m123p1777s"}, ["body", "hand"]),
    ],
)
def test_absent_tiles_are_422_at_their_field(client: TestClient, changes: dict[str, Any], loc: list[Any]) -> None:
    item = assert_error(client.post("/score", json={**TRIPLETS, **changes}), 422, loc, "absent_tile")
    assert "sanma" in item["msg"]


@pytest.mark.parametrize(
    ("changes", "loc"),
    [
        ({"winner": 3, "dealer": 0}, "winner"),
        ({"winner": 0, "dealer": 3}, "dealer"),
        ({"winner": 0, "dealer": 0, "discarder": 3, "riichi": True}, "discarder"),
        # The hand holds no north: four may be set aside, not five (the schema's bound)...
        ({"winner": 0, "dealer": 0, "nuki": 5}, "nuki"),
        # ...and with a north pon only one is left.
        (
            {
                "hand": "111999m111p77s",
                "melds": [{"kind": "pon", "tiles": "444z"}],
                "winner": 0,
                "dealer": 0,
                "nuki": 2,
            },
            "nuki",
        ),
    ],
)
def test_impossible_three_player_situations_are_422(client: TestClient, changes: dict[str, Any], loc: str) -> None:
    assert_error(client.post("/score", json={**TRIPLETS, **changes}), 422, ["body", loc])


def test_rinshan_on_a_kitas_replacement_needs_no_kong(client: TestClient) -> None:
    # As at Tenhou, the replacement drawn after a kita is rinshan: menzen_tsumo 1 + rinshan 1
    # + nuki_dora 1 = 3 han 40 fu, 1280 base.  The dealer pays 2560 -> 2600, seat 2 1300.
    result = _score(client, TRIPLETS, kong_replacement=True, nuki=1)
    assert _yaku(result) == {"menzen_tsumo": 1, "rinshan": 1, "nuki_dora": 1}
    assert (result["han"], result["fu"], result["base_points"]) == (3, 40, 1280)
    assert result["payments"] == [-2600, 3900, -1300]
    # With no north set aside (and no kong) the replacement followed nothing.
    assert_error(
        client.post("/score", json={**TRIPLETS, "kong_replacement": True}),
        422,
        ["body", "kong_replacement"],
        "invalid_win_context",
    )


def test_a_fourth_seat_is_refused_by_the_scorer(client: TestClient) -> None:
    item = assert_error(
        client.post("/score", json={**TRIPLETS, "winner": 3, "dealer": 0}),
        422,
        ["body", "winner"],
        "invalid_win_context",
    )
    assert "0..2" in item["msg"]


@pytest.mark.parametrize("rules", ["riichi", "qiqihar"])
def test_nuki_outside_sanma_is_422_at_nuki(client: TestClient, rules: str) -> None:
    body = {**TRIPLETS, "rules": rules, "winner": 0, "dealer": 0, "nuki": 1}
    assert_error(client.post("/score", json=body), 422, ["body", "nuki"], "invalid_win_context")
    # Zero is the default everywhere and is accepted.
    riichi_tsumo = {"hand": "123456789m11p456s", "win_tile": "9m", "rules": "riichi", "winner": 0, "dealer": 0}
    assert client.post("/score", json={**riichi_tsumo, "nuki": 0}).status_code == 200


@pytest.mark.parametrize("nuki", [-1, True, "1", 1.0])
def test_nuki_is_a_small_int(client: TestClient, nuki: Any) -> None:
    assert_error(
        client.post("/score", json={**TRIPLETS, "winner": 0, "dealer": 0, "nuki": nuki}), 422, ["body", "nuki"]
    )


def test_batch_under_sanma(client: TestClient) -> None:
    def item(**changes: Any) -> dict[str, Any]:
        return {key: value for key, value in {**TRIPLETS, **changes}.items() if key != "rules"}

    items = [
        item(winner=2, dealer=2, nuki=1, honba=1),  # as above: 1400 from each of the two
        item(winner=1, dealer=0, discarder=2, riichi=True, nuki=1, honba=1),  # 3400 from seat 2
        item(winner=3, dealer=0),
        item(hand="999m123p45677s", melds=[{"kind": "pon", "tiles": "333m"}], winner=0, dealer=0),
        item(winner=0, dealer=0, discarder=1),  # a ron without riichi: no yaku
    ]
    answer = client.post("/score/batch", json={"rules": "sanma", "items": items})
    assert answer.status_code == 200, answer.text
    results = answer.json()["results"]
    assert results[0]["payments"] == [-1400, -1400, 2800]
    assert results[1]["payments"] == [0, 3400, -3400]
    assert (results[2]["error"], results[2]["status"], results[2]["loc"]) == (
        "invalid_win_context",
        422,
        ["body", "items", 2, "winner"],
    )
    assert (results[3]["error"], results[3]["loc"]) == ("absent_tile", ["body", "items", 3, "melds", 0, "tiles"])
    assert (results[4]["error"], results[4]["status"]) == ("no_yaku", 400)
    # Each result is what /score answers for that item alone.
    assert client.post("/score", json={**items[1], "rules": "sanma"}).json() == results[1]
    # The no-loss variant applies to every item of its batch.
    no_loss = client.post("/score/batch", json={"rules": {"preset": "sanma", "tsumo_loss": False}, "items": items[:1]})
    assert no_loss.json()["results"][0]["payments"] == [-2100, -2100, 4200]
