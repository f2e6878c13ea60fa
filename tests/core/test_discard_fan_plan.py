"""/discard's fan plan (MCR): the advisor ranks discards toward a win worth 8 fans.

The ranking must be the fan planner's own order (the self-play advisor plays by the same
planner), and a shanten-only view must lose to it where the fans decide.
"""

from __future__ import annotations

import random

import pytest

from app.core.advice.discard import DiscardModel, advise_discards, ranking_model
from app.core.advice.mcr_targets import planner_for
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand
from app.core.shape.rules import rule_profile
from app.core.shape.tiles import format_tile, parse_mpsz

MCR = rule_profile("mcr")


@pytest.mark.parametrize(
    ("preset", "asked", "ranked"),
    [
        ("mcr", DiscardModel.EXPECTED_SCORE, DiscardModel.FAN_PLAN),
        ("mcr", DiscardModel.FAN_PLAN, DiscardModel.FAN_PLAN),
        ("mcr", DiscardModel.LINEAR, DiscardModel.LINEAR),
        ("riichi", DiscardModel.EXPECTED_SCORE, DiscardModel.EXPECTED_SCORE),
        ("riichi", DiscardModel.FAN_PLAN, DiscardModel.LINEAR),
        ("chinese", DiscardModel.EXPECTED_SCORE, DiscardModel.LINEAR),
    ],
)
def test_the_model_that_ranks(preset: str, asked: DiscardModel, ranked: DiscardModel) -> None:
    assert ranking_model(rule_profile(preset), asked).model is ranked


def test_random_hands_are_ranked_in_the_planners_order() -> None:
    rng = random.Random(2026)
    wall = [tile for tile in range(34) for _ in range(4)]
    for _ in range(150):
        rng.shuffle(wall)
        hand = Hand.from_tiles(wall[:14])
        candidates, search = advise_discards(hand, MCR)
        assert search.model is DiscardModel.FAN_PLAN
        plans = planner_for(Checker(MCR), Checker(MCR).remaining(hand)).plans(hand)
        assert {c.tile: c.fan_plan for c in candidates} == plans
        keys = [c.fan_plan.key() for c in candidates if c.fan_plan is not None]
        assert len(keys) == len(candidates) and keys == sorted(keys)
        assert [c.fan_plan.score for c in candidates if c.fan_plan] == sorted(
            (p.score for p in plans.values()), reverse=True
        )


def test_a_ready_hand_keeps_the_wait_that_reaches_eight_fans() -> None:
    # 12345678m123p55s + 5z: throwing 5z waits on 3m/6m/9m, of which 9m makes the pure
    # straight (16 fans); throwing a man tile breaks it. Shanten alone ties many discards.
    hand = Hand.from_tiles(parse_mpsz("12345678m123p55s5z"))
    candidates, _ = advise_discards(hand, MCR)
    best = candidates[0]
    assert format_tile(best.tile) == "5z"
    assert best.fan_plan is not None and best.fan_plan.need == 1 and best.fan_plan.fan == 16
    assert all(c.fan_plan is not None and c.fan_plan.need >= 2 for c in candidates[1:])


def test_a_hand_under_the_floor_is_steered_to_a_pattern() -> None:
    # All simples and chows (about 5 fans once complete): the plan keeps the straight in man.
    hand = Hand.from_tiles(parse_mpsz("123456789m1p23s15z"))
    candidates, _ = advise_discards(hand, MCR)
    assert format_tile(candidates[0].tile)[-1] != "m"
    assert candidates[0].fan_plan is not None and candidates[0].fan_plan.fan >= 8
