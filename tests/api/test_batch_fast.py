"""/shanten/batch and /ting/batch answer exactly what /shanten and /ting answer, hand by hand.

The batch routes take a vectorised path for plain mpsz hands; these tests
send batches that take it (and some that fall back) and compare every answer
with the single-hand route.
"""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from app.api.batch_fast import shanten_batch_json, ting_batch_json
from app.api.schemas.common import BatchRequest
from app.api.schemas.hand import ShantenBatchRequest
from app.core.shape.tiles import format_mpsz, parse_tiles

WALL = [tile for tile in range(34) for _ in range(4)]


def _hands(seed: int, size: int, rows: int, *, exclude: tuple[int, ...] = (), pool: int = 34) -> list[str]:
    rng = random.Random(seed)
    kinds = [t for t in range(34) if t not in exclude]
    hands = []
    for row in range(rows):
        chosen = rng.sample(kinds, pool) if row % 2 else kinds  # odd rows: few kinds, many ready hands
        wall = [t for t in chosen if t not in exclude for _ in range(4)]
        hands.append(format_mpsz(rng.sample(wall, size)))
    return hands


CASES = [
    ({"rules": "riichi"}, 14, ()),
    ({"rules": "riichi"}, 13, ()),
    ({"rules": "chinese"}, 13, ()),
    ({"rules": "qiqihar"}, 13, ()),
    ({"rules": {"preset": "riichi", "wildcards": "7z"}}, 13, ()),
    ({"rules": "qiqihar", "melds": [{"kind": "pon", "tiles": "111z"}]}, 10, (27,)),
    ({"rules": "qiqihar", "melds": [{"kind": "pon", "tiles": "111z"}]}, 11, (27,)),
    (
        {"rules": "riichi", "melds": [{"kind": "closed_kan", "tiles": "2222z"}], "visible": "123m5z"},
        10,
        (28, 0, 1, 2, 31),
    ),
    ({"rules": "riichi", "visible": "1111z999m"}, 13, (27, 8)),
    ({"rules": "mcr"}, 14, ()),
    ({"rules": "mcr"}, 13, ()),
]


@pytest.mark.parametrize(("extra", "size", "exclude"), CASES)
def test_shanten_batch_equals_single(client: TestClient, extra: dict, size: int, exclude: tuple[int, ...]) -> None:
    hands = _hands(size * 7 + len(str(extra)), size, 60, exclude=exclude, pool=6)
    body = {"hands": hands, **extra}
    assert shanten_batch_json(BatchRequest.model_validate(body), max_batch_size=1000) is not None, "fast path taken"
    batch = client.post("/shanten/batch", json=body)
    assert batch.status_code == 200, batch.text
    for hand, answer in zip(hands, batch.json()["results"], strict=True):
        single = client.post("/shanten", json={"hand": hand, **extra})
        assert answer == single.json(), hand


@pytest.mark.parametrize(("extra", "size", "exclude"), CASES)
def test_shanten_batch_without_ukeire_equals_single(
    client: TestClient, extra: dict, size: int, exclude: tuple[int, ...]
) -> None:
    # Mixed sizes in one batch (ready and complete hands), asked without their ukeire.
    hands = _hands(size * 5 + len(str(extra)), size, 40, exclude=exclude, pool=6)
    hands += _hands(size * 3, size + 1 if size % 3 == 1 else size - 1, 20, exclude=exclude, pool=6)
    body = {"hands": hands, "ukeire": False, **extra}
    request = ShantenBatchRequest.model_validate(body)
    assert shanten_batch_json(request, max_batch_size=1000, with_ukeire=False) is not None, "fast path taken"
    batch = client.post("/shanten/batch", json=body)
    assert batch.status_code == 200, batch.text
    # The per-hand path (taken for hands in another notation) gives the same answers.
    as_lists = client.post("/shanten/batch", json={**body, "hands": [parse_tiles(hand) for hand in hands]})
    assert as_lists.json() == batch.json()
    for hand, answer in zip(hands, batch.json()["results"], strict=True):
        single = client.post("/shanten", json={"hand": hand, **extra}).json()
        assert answer == {**single, "ukeire": None, "ukeire_count": None}, hand


@pytest.mark.parametrize(("extra", "size", "exclude"), [case for case in CASES if case[1] % 3 == 1])
def test_ting_batch_equals_single(client: TestClient, extra: dict, size: int, exclude: tuple[int, ...]) -> None:
    hands = _hands(size * 11 + len(str(extra)), size, 60, exclude=exclude, pool=5)
    body = {"hands": hands, **extra}
    assert ting_batch_json(BatchRequest.model_validate(body), max_batch_size=1000) is not None, "fast path taken"
    batch = client.post("/ting/batch", json=body)
    assert batch.status_code == 200, batch.text
    for hand, answer in zip(hands, batch.json()["results"], strict=True):
        assert answer == client.post("/ting", json={"hand": hand, **extra}).json(), hand


def test_other_notations_fall_back_with_the_same_answers(client: TestClient) -> None:
    hands = ["一万二万三万 东东", "123m 45p", [0, 1, 2, 27]]
    batch = client.post("/shanten/batch", json={"hands": hands})
    assert batch.status_code == 200
    assert shanten_batch_json(BatchRequest.model_validate({"hands": hands}), max_batch_size=10) is None
    for hand, answer in zip(hands, batch.json()["results"], strict=True):
        assert answer == client.post("/shanten", json={"hand": hand}).json()


@pytest.mark.parametrize(
    ("hands", "loc"),
    [
        (["123m", "11111m"], ["body", "hands", 1]),
        (["123m456p789s1122z", "123m"], ["body", "hands", 1]),
        (["1234m", "0z"], ["body", "hands", 1]),
    ],
)
def test_errors_in_a_batch_still_name_the_hand(client: TestClient, hands: list[str], loc: list) -> None:
    answer = client.post("/shanten/batch", json={"hands": hands})
    assert answer.status_code == 422
    assert answer.json()["detail"][0]["loc"][:3] == loc
