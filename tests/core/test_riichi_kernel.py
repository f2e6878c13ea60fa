"""The compiled riichi scorer against the plain-Python one it replaced (``riichi_reference``).

``score_riichi`` checks a request in Python and has the kernel (app/core/kernel/riichi.cpp)
score it; ``riichi_reference.score_riichi`` is the whole scorer as it was in Python.  On
generated wins (``riichi_situations``: closed and open hands, melds of every kind with kans,
red fives, dora and ura indicators, riichi, ippatsu, haitei, rinshan, chankan, first turns,
tsumo and ron, dealer or not, four and three seats with nukidora) under every combination of
the rule options riichi scoring reads, both give the same answer field for field (yaku names
and order, fu items, limit, reading, payments, per payer, sticks) or the same error.  Hands
that do not win and situations that cannot happen must fail the same way too.

Hypothesis is derandomized so CI sees the same examples on every run.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
import riichi_reference as reference
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from riichi_situations import random_situation

from app.core.errors import TenpaiError
from app.core.shape.hand import Hand, Meld
from app.core.shape.rules import RuleProfile, SevenPairs, rule_profile
from app.core.value.riichi_scoring import _limit_of, riichi_payments, score_riichi
from app.core.value.scoring_context import WinContext

SETTINGS = settings(max_examples=1500, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])

rule_profiles = st.builds(
    lambda base, seven_pairs, orphans, double, tanyao, kazoe, kiriage, stacking, reds, loss: rule_profile(
        base,
        seven_pairs=seven_pairs,
        thirteen_orphans=orphans,
        double_yakuman=double,
        open_tanyao=tanyao,
        kazoe_limit=kazoe,
        kiriage=kiriage,
        yakuman_stacking=stacking,
        red_fives=reds,
        tsumo_loss=loss,
    ),
    st.sampled_from(("riichi", "sanma")),
    st.sampled_from(tuple(SevenPairs)),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.sampled_from(("yakuman", "sanbaiman")),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
seeds = st.integers(0, 2**32 - 1)


def outcome(scorer: Any, hand: Hand, win_tile: int, rules: RuleProfile, context: WinContext) -> tuple[Any, ...]:
    """The answer as a plain tuple (the two scorers' NamedTuples are different classes), or the error."""
    try:
        result = scorer(hand, win_tile, rules, context)
    except TenpaiError as error:
        return ("error", type(error).__name__, str(error), error.field)
    return ("score", *_plain(result))


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return tuple(_plain(item) for item in value)
    return value


def assert_same(hand: Hand, win_tile: int, rules: RuleProfile, context: WinContext) -> tuple[Any, ...]:
    ours = outcome(score_riichi, hand, win_tile, rules, context)
    theirs = outcome(reference.score_riichi, hand, win_tile, rules, context)
    assert ours == theirs, f"{hand} win {win_tile} {rules} {context}"
    return ours


@SETTINGS
@given(seeds, rule_profiles)
def test_the_kernel_scores_generated_wins_as_the_reference_does(seed: int, rules: RuleProfile) -> None:
    situation = random_situation(random.Random(seed), rules=rules)
    assert_same(situation.hand, situation.win_tile, rules, situation.context)


@settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seeds, rule_profiles, st.data())
def test_the_kernel_refuses_what_the_reference_refuses(seed: int, rules: RuleProfile, data: st.DataObject) -> None:
    """A generated win with one tile swapped (mostly not a win) and flags drawn freely (often impossible)."""
    rng = random.Random(seed)
    situation = random_situation(rng, rules=rules)
    hand, win_tile, context = situation.hand, situation.win_tile, situation.context
    tiles = [t for t in range(34) for _ in range(hand.counts[t])]
    if data.draw(st.booleans()):
        tiles[rng.randrange(len(tiles))] = rng.choice([t for t in range(34) if t not in rules.absent_tiles])
        try:
            hand = Hand.from_tiles(tiles, hand.melds)
        except TenpaiError:
            return
        win_tile = rng.choice(tiles)
    flags = data.draw(st.fixed_dictionaries({name: st.booleans() for name in FLAGS}))
    if data.draw(st.booleans()):
        context = context._replace(**flags)
    assert_same(hand, win_tile, rules, context)


FLAGS = ("riichi", "double_riichi", "ippatsu", "last_tile", "kong_replacement", "robbed_kong", "first_turn")


@pytest.mark.parametrize(
    ("tiles", "melds", "win_tile"),
    [
        ([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4], [], 4),  # 11122233344455m: many readings
        ([0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 4], [], 4),  # junsei chuuren
        ([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33, 33], [], 33),  # 13-sided kokushi
        ([27, 27], [("pon", [28] * 3), ("open_kan", [29] * 4), ("closed_kan", [30] * 4), ("pon", [31] * 3)], 27),
        ([1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7], [], 7),  # seven pairs or ryanpeikou
    ],
)
@pytest.mark.parametrize("rules", [rule_profile("riichi"), rule_profile("riichi", yakuman_stacking=False)])
def test_known_hands_agree(
    tiles: list[int], melds: list[tuple[str, list[int]]], win_tile: int, rules: RuleProfile
) -> None:
    hand = Hand.from_tiles(tiles, [Meld.of(kind, meld) for kind, meld in melds])
    for discarder in (None, 1):
        context = WinContext(winner=0, dealer=0, discarder=discarder, dora_indicators=(0,))
        assert assert_same(hand, win_tile, rules, context)[0] == "score"


@pytest.mark.parametrize("kazoe", ["yakuman", "sanbaiman"])
@pytest.mark.parametrize("kiriage", [False, True])
def test_limits_agree(kazoe: str, kiriage: bool) -> None:
    rules = rule_profile("riichi", kazoe_limit=kazoe, kiriage=kiriage)
    for han in range(1, 40):
        for fu in (20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130):
            assert _limit_of(han, fu, rules) == reference._limit_of(han, fu, rules), (han, fu)


@pytest.mark.parametrize("seats", [3, 4])
@pytest.mark.parametrize("tsumo_loss", [False, True])
def test_payments_agree(seats: int, tsumo_loss: bool) -> None:
    for base in (240, 320, 960, 1920, 2000, 3000, 8000, 16000, 48000):
        for winner in range(seats):
            for dealer in range(seats):
                for discarder in (None, *(s for s in range(seats) if s != winner)):
                    for honba in (0, 1, 3):
                        args = (base, winner, dealer, discarder, honba)
                        ours = riichi_payments(*args, seats=seats, tsumo_loss=tsumo_loss)
                        assert ours == reference.riichi_payments(*args, seats=seats, tsumo_loss=tsumo_loss), args


def test_payments_refuse_a_seat_that_is_not_at_the_table() -> None:
    with pytest.raises(ValueError, match="winner"):
        riichi_payments(2000, 3, 0, None, 0, seats=3)
