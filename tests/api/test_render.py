"""The hand-written JSON of /shanten and /ting equals the response models' JSON."""

from __future__ import annotations

import json
import random

import pytest

from app.api.render import shanten_json, ting_json
from app.api.schemas.hand import ShantenResponse, TingResponse
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld
from app.core.shape.rules import rule_profile


def _hands(seed: int, size: int, rows: int, melds: tuple[Meld, ...]) -> list[Hand]:
    rng = random.Random(seed)
    used = {tile for meld in melds for tile in meld.tiles}
    hands = []
    for row in range(rows):
        free = [t for t in range(34) if t not in used]
        kinds = rng.sample(free, 5) if row % 2 else free
        # One copy of each man tile is visible (see below), so at most three are left.
        wall = [tile for tile in kinds for _ in range(3 if tile < 9 else 4)]
        hands.append(Hand.from_tiles(rng.sample(wall, size), melds))
    return hands


@pytest.mark.parametrize("preset", ["riichi", "chinese", "qiqihar"])
@pytest.mark.parametrize("melds", [(), (Meld.of("pon", [27, 27, 27]),)])
def test_writers_match_the_models(preset: str, melds: tuple[Meld, ...]) -> None:
    checker = Checker(rule_profile(preset))
    visible = bytes([1] * 9 + [0] * 25)
    for size in (14 - 3 * len(melds), 13 - 3 * len(melds)):
        for hand in _hands(size + len(preset), size, 150, melds):
            result = checker.shanten(hand, visible)
            assert json.loads(shanten_json(result)) == json.loads(ShantenResponse.of(result).model_dump_json())
            if size % 3 == 1:
                waits = checker.waits(hand, visible)
                assert json.loads(ting_json(waits)) == json.loads(TingResponse.of(waits).model_dump_json())
