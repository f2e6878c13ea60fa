"""The discard advisor's core: known answers, brute-force ukeire, the score, its terms and extras."""

from __future__ import annotations

import math
import random

import pytest

from app.core.advice.discard import (
    DEFAULT_WEIGHTS,
    UKEIRE_UNIT,
    DiscardOptions,
    InvalidWeight,
    Weights,
    evaluate_discards,
)
from app.core.advice.safety import InvalidOpponent, Opponent
from app.core.errors import TooManyCopies, WrongTileCount
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld
from app.core.shape.rules import rule_profile
from app.core.shape.tiles import (
    NUM_TILE_KINDS,
    counts_from_tiles,
    dora_from_indicator,
    format_tile,
    parse_mpsz,
    parse_tile,
)

RIICHI = rule_profile("riichi")
CHINESE = rule_profile("chinese")
QIQIHAR = rule_profile("qiqihar")


def _hand(text: str, melds: tuple[Meld, ...] = ()) -> Hand:
    return Hand.from_tiles(parse_mpsz(text), melds)


def _random_hand(rng: random.Random, size: int = 14, pool: range | list[int] = range(136)) -> Hand:
    tiles = rng.sample(list(pool), size)
    return Hand(counts_from_tiles([t // 4 for t in tiles]))


def brute_force(hand: Hand, rules, seen: bytes = bytes(NUM_TILE_KINDS)) -> dict[int, tuple[int, int]]:
    """Per distinct discard: (shanten, ukeire count), from Checker.shanten alone.

    A draw counts when the 13-tile hand holds fewer than 4 copies and the shanten
    drops; its copies are 4 minus the 14-tile hand, melds and ``seen``.
    """
    checker = Checker(rules)
    held = hand.all_counts() if hand.melds else hand.counts
    answers = {}
    for tile in range(NUM_TILE_KINDS):
        if not hand.counts[tile]:
            continue
        after = bytearray(hand.counts)
        after[tile] -= 1
        shanten = checker.shanten(Hand(bytes(after), hand.melds)).shanten
        count = 0
        for draw in range(NUM_TILE_KINDS):
            if after[draw] >= 4:
                continue
            drawn = bytearray(after)
            drawn[draw] += 1
            if checker.shanten(Hand(bytes(drawn), hand.melds)).shanten < shanten:
                count += max(0, 4 - held[draw] - seen[draw])
        answers[tile] = (shanten, count)
    return answers


# --- known answers: unambiguous best discards by shanten, then ukeire ----------------

KNOWN = [
    # (hand, best discard, its shanten, its ukeire count)
    ("1112345678999m5p", "5p", 0, 23),  # pure nine gates left: 1m 1, 2m-8m 3 each, 9m 1
    ("11123456789999m", "9m", 0, 22),  # the same wait, the fourth 9m held
    ("19m19p19s1234567z9m", "9m", 0, 38),  # thirteen-sided thirteen orphans
    ("123m456p789s1122z5z", "5z", 0, 4),  # double-pair wait
    ("2234567m345p5677s", "7s", 0, 9),
    ("112233m44556p77s1z", "1z", 0, 7),
    ("7889m123789p449s2z", "2z", 1, 25),
    ("789m112789p23469s", "9s", 1, 35),
    ("345m1345p6789s455z", "4z", 1, 36),
    ("45678m12345678p7z", "7z", 1, 51),
    ("355666m4445p2488s", "5p", 1, 12),
    ("5679m35p134568s11z", "9m", 1, 12),
]


@pytest.mark.parametrize(("text", "best", "shanten", "ukeire"), KNOWN, ids=[k[0] for k in KNOWN])
def test_known_best_discards(text: str, best: str, shanten: int, ukeire: int) -> None:
    hand = _hand(text)
    ranked = evaluate_discards(hand, RIICHI)
    assert (format_tile(ranked[0].tile), ranked[0].shanten, ranked[0].ukeire_count) == (best, shanten, ukeire)
    oracle = brute_force(hand, RIICHI)
    assert oracle[parse_tile(best)] == (shanten, ukeire)
    # Unambiguous: the answer is the unique best by shanten, then ukeire.
    order = sorted(oracle.items(), key=lambda item: (item[1][0], -item[1][1]))
    assert order[0][0] == parse_tile(best) and order[0][1] != order[1][1]


def test_the_contract_counts_the_discarded_tile_as_seen() -> None:
    # Discarding a 1z from 11122z: the 1z still counts as one of the four copies.
    ranked = evaluate_discards(_hand("123m456p789s11122z"), RIICHI)
    east = next(c for c in ranked if c.tile == parse_tile("1z"))
    assert [(t.tile, t.remaining) for t in east.ukeire] == [(27, 1), (28, 2)]


# --- every candidate against brute force ------------------------------------------------


@pytest.mark.parametrize("rules", [RIICHI, CHINESE, QIQIHAR], ids=lambda r: r.name)
def test_candidates_agree_with_brute_force(rules) -> None:
    rng = random.Random(41)
    for _ in range(25):
        hand = _random_hand(rng)
        seen_tiles = [
            t for t in range(NUM_TILE_KINDS) for _ in range(max(0, rng.randrange(-6, 2))) if hand.counts[t] + 1 <= 4
        ]
        seen = counts_from_tiles(seen_tiles)
        ranked = evaluate_discards(hand, rules, visible=seen)
        oracle = brute_force(hand, rules, seen)
        assert {c.tile: (c.shanten, c.ukeire_count) for c in ranked} == oracle
        for candidate in ranked:
            assert candidate.ukeire_count == sum(t.remaining for t in candidate.ukeire)


def test_rivers_melds_and_indicators_count_as_seen() -> None:
    hand = _hand("123m456p789s1122z5z")
    river = tuple(parse_mpsz("1z"))
    opponent = Opponent(river=river, melds=(Meld.of("pon", parse_mpsz("333z")),))
    ranked = evaluate_discards(hand, RIICHI, dora_indicators=parse_mpsz("5z"), opponents=[opponent])
    best = ranked[0]
    assert format_tile(best.tile) == "5z"
    assert [(format_tile(t.tile), t.remaining) for t in best.ukeire] == [("1z", 1), ("2z", 2)]
    seen = counts_from_tiles(parse_mpsz("5z1z333z"))
    assert {c.tile: (c.shanten, c.ukeire_count) for c in ranked} == brute_force(hand, RIICHI, seen)


# --- properties of the ranking -----------------------------------------------------------


@pytest.mark.parametrize("rules", [RIICHI, CHINESE, QIQIHAR], ids=lambda r: r.name)
def test_ranking_properties(rules) -> None:
    rng = random.Random(7)
    checker = Checker(rules)
    for _ in range(200):
        hand = _random_hand(rng)
        ranked = evaluate_discards(hand, rules)
        tiles = [c.tile for c in ranked]
        assert sorted(tiles) == [t for t in range(NUM_TILE_KINDS) if hand.counts[t]]  # one per distinct tile
        now = checker.shanten(hand).shanten
        assert all(c.shanten >= max(now, 0) for c in ranked)  # no discard beats the hand's shanten
        assert min(c.shanten for c in ranked) == max(now, 0) or now == -1
        keys = [(-round(c.score * 1e9), c.shanten, -c.ukeire_count, c.tile) for c in ranked]
        assert keys == sorted(keys)
        for candidate in ranked:
            assert math.isclose(sum(candidate.components), candidate.score, abs_tol=0)
            assert candidate.safety == 1.0 and candidate.safety_by_opponent == ()
            assert candidate.shanten_loss == candidate.shanten - min(c.shanten for c in ranked)


def test_score_follows_the_seed_formula() -> None:
    hand = _hand("123m456p789s1122z5z")
    weights = Weights(shanten=7.0, ukeire=2.0, safety=0.5, dora=3.0, honors=1.0)
    for candidate in evaluate_discards(hand, RIICHI, dora_indicators=[30], weights=weights):
        expected = (
            -7.0 * candidate.shanten
            + 2.0 * candidate.ukeire_count / UKEIRE_UNIT
            + 0.5 * candidate.safety
            + 3.0 * candidate.dora
            + 1.0 * candidate.honors
        )
        assert math.isclose(candidate.score, expected, rel_tol=1e-12, abs_tol=1e-12)
        assert candidate.weights == weights


def test_default_weights_are_the_seeds_table() -> None:
    assert DEFAULT_WEIGHTS == Weights(10.0, 0.8, 1.2, 1.5, 0.6)


def test_ties_go_to_lower_shanten_then_more_ukeire_then_tile_order() -> None:
    # 3m, 5m (shanten 1, 8 copies) and 2s (shanten 2, 58 copies) all score -7.2,
    # the last one only up to float noise.
    ranked = evaluate_discards(_hand("355666m4445p2488s"), RIICHI)
    order = [format_tile(c.tile) for c in ranked[:4]]
    assert order == ["5p", "3m", "5m", "2s"]
    assert ranked[1].score == ranked[2].score == pytest.approx(ranked[3].score)
    assert ranked[2].score != ranked[3].score  # a tie only after rounding away the noise


def test_a_big_ukeire_edge_can_outweigh_one_shanten_only_past_fifty_copies() -> None:
    # 10 points per shanten against 0.8 per 4 copies: the break-even edge is 50 copies.
    assert DEFAULT_WEIGHTS.shanten / (DEFAULT_WEIGHTS.ukeire / UKEIRE_UNIT) == 50


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, "1", True, 1e300, -2e9])
def test_weights_must_be_finite_numbers(value) -> None:
    with pytest.raises(InvalidWeight) as caught:
        evaluate_discards(_hand("123m456p789s1122z5z"), RIICHI, weights=Weights(dora=value))
    assert caught.value.field == "weights.dora" and caught.value.code == "invalid_weight"


def test_a_13_tile_hand_is_refused() -> None:
    with pytest.raises(WrongTileCount):
        evaluate_discards(_hand("123m456p789s1122z"), RIICHI)


# --- dora and honours ----------------------------------------------------------------------


def test_dora_follows_the_indicator_order() -> None:
    expected = {
        "1m": "2m",
        "9m": "1m",
        "5p": "6p",
        "9s": "1s",
        "1z": "2z",
        "4z": "1z",
        "5z": "6z",
        "6z": "7z",
        "7z": "5z",
    }
    for indicator, dora in expected.items():
        assert format_tile(dora_from_indicator(parse_tile(indicator))) == dora
    # Every tile is the dora of exactly one indicator.
    assert sorted(dora_from_indicator(t) for t in range(NUM_TILE_KINDS)) == list(range(NUM_TILE_KINDS))


def test_dora_counts_copies_indicators_melds_and_red_fives() -> None:
    pon = Meld.of("pon", parse_mpsz("111z"))
    hand = _hand("556m456p789s22z", (pon,))
    indicators = parse_mpsz("4m4m4z")  # 5m twice, 1z once
    ranked = {c.tile: c for c in evaluate_discards(hand, RIICHI, dora_indicators=indicators, red_fives=[4])}
    # 2 x 5m x 2 indicators + 3 x 1z (melded) + 1 red five = 8 in the 14-tile hand.
    assert ranked[parse_tile("6m")].dora == 8
    # One of the two 5m goes: 2 dora less; the plain copy goes first, the red stays.
    assert ranked[parse_tile("5m")].dora == 6 and ranked[parse_tile("5m")].dora_discarded == 2
    only_red = {c.tile: c for c in evaluate_discards(_hand("056m456p789s22z", (pon,)), RIICHI, red_fives=[4, 4])}
    assert only_red[parse_tile("5m")].dora_discarded == 1


def test_honour_value_of_pairs_and_triplets() -> None:
    ranked = {c.tile: c for c in evaluate_discards(_hand("123m456p11z555z66z7z"), RIICHI)}
    # Kept: East pair 0.25, White triplet 1.0, Green pair 0.5, a lone Red 0.
    assert ranked[parse_tile("7z")].honors == 1.75 and ranked[parse_tile("7z")].honors_discarded == 0
    assert ranked[parse_tile("1z")].honors == 1.5  # breaking the East pair loses 0.25
    assert ranked[parse_tile("6z")].honors_discarded == 0.5
    assert ranked[parse_tile("5z")].honors == 1.75 - 0.5


# --- wildcards ------------------------------------------------------------------------------


def test_a_wildcard_is_never_the_best_discard_while_another_tile_exists() -> None:
    rng = random.Random(3)
    pool = [t for t in range(136) if t // 4 != 33]
    for _ in range(300):
        tiles = rng.sample(pool, 13) + [33 * 4 + rng.randrange(4)]
        hand = Hand(counts_from_tiles([t // 4 for t in tiles]))
        ranked = evaluate_discards(hand, QIQIHAR)
        wildcard = next(c for c in ranked if c.tile == 33)
        assert wildcard.is_wildcard
        best_other = max(c.score for c in ranked if c.tile != 33)
        assert wildcard.score <= best_other
        others = [c for c in ranked if c.tile != 33]
        assert min(c.shanten for c in others) <= wildcard.shanten


def test_a_hand_of_wildcards_can_only_discard_one() -> None:
    ranked = evaluate_discards(Hand(counts_from_tiles([33, 33])), QIQIHAR)
    assert [c.tile for c in ranked] == [33]


# --- seen tiles and their errors ------------------------------------------------------------


def test_five_copies_are_reported_at_the_source_that_made_them() -> None:
    hand = _hand("111m456p789s1122z5z")
    with pytest.raises(TooManyCopies) as caught:
        evaluate_discards(hand, RIICHI, visible=counts_from_tiles([0]), opponents=[Opponent(), Opponent(river=(0,))])
    assert caught.value.field == "opponents[1].river"
    with pytest.raises(TooManyCopies) as caught:
        evaluate_discards(hand, RIICHI, dora_indicators=[0, 0])
    assert caught.value.field == "dora_indicators"
    with pytest.raises(TooManyCopies) as caught:
        evaluate_discards(
            hand, RIICHI, opponents=[Opponent(melds=(Meld.of("chi", [0, 1, 2]), Meld.of("chi", [0, 1, 2])))]
        )
    assert caught.value.field == "opponents[0].melds"


def test_opponents_are_validated() -> None:
    hand = _hand("123m456p789s1122z5z")
    with pytest.raises(InvalidOpponent) as caught:
        evaluate_discards(hand, RIICHI, opponents=[Opponent(), Opponent(river=(0,), riichi=True, riichi_turn=3)])
    assert caught.value.field == "opponents[1].riichi_turn"
    with pytest.raises(InvalidOpponent) as caught:
        evaluate_discards(hand, RIICHI, opponents=[Opponent()] * 4)
    assert caught.value.field == "opponents"


# --- safety in the score -------------------------------------------------------------------------


def test_safety_weight_turns_the_advice_to_defence() -> None:
    hand = _hand("123m456p789s1122z5z")
    declared = Opponent(river=tuple(parse_mpsz("3m6p1z")), riichi=True, riichi_turn=3)
    attack = evaluate_discards(hand, RIICHI, opponents=[declared])
    assert format_tile(attack[0].tile) == "5z"
    defend = evaluate_discards(hand, RIICHI, opponents=[declared], weights=DEFAULT_WEIGHTS._replace(safety=500.0))
    assert defend[0].safety == 1.0 and format_tile(defend[0].tile) in {"1z", "3m", "6p"}
    east = next(c for c in attack if format_tile(c.tile) == "1z")
    assert east.safety_by_opponent[0].reasons == ("genbutsu",)


# --- extras ----------------------------------------------------------------------------------------


def test_improvements_are_draws_that_widen_the_ukeire_without_changing_shanten() -> None:
    hand = _hand("2234567m345p5677s")
    ranked = evaluate_discards(hand, RIICHI, options=DiscardOptions(improvements=True))
    checker = Checker(RIICHI)
    for candidate in ranked[:3]:
        extra = candidate.improvements
        assert extra is not None
        accepted = {t.tile for t in candidate.ukeire}
        after = bytearray(hand.counts)
        after[candidate.tile] -= 1
        seen = bytearray(NUM_TILE_KINDS)
        seen[candidate.tile] += 1
        for improvement in extra.tiles:
            assert improvement.tile not in accepted and improvement.ukeire_after > candidate.ukeire_count
            drawn = bytearray(after)
            drawn[improvement.tile] += 1
            best = max(
                o.ukeire_count
                for o in checker.discards(Hand(bytes(drawn)), bytes(seen))
                if o.shanten == candidate.shanten
            )
            assert best == improvement.ukeire_after
        assert extra.average_ukeire >= candidate.ukeire_count
        assert extra.count == sum(i.remaining for i in extra.tiles)
    # Tenpai after 2m: drawing 1m, 4m or 7m allows a wider tenpai (9 copies instead of 6).
    second = ranked[1]
    assert format_tile(second.tile) == "2m"
    assert {format_tile(i.tile): i.ukeire_after for i in second.improvements.tiles}["1m"] == 9


def test_good_shape_share_at_one_shanten() -> None:
    ranked = evaluate_discards(_hand("45678m12345678p7z"), RIICHI, options=DiscardOptions(good_shape=True))
    best = ranked[0]
    assert best.shanten == 1 and best.good_shape is not None and 0.0 < best.good_shape <= 1.0
    assert all(c.good_shape is None for c in ranked if c.shanten != 1)
    # Five pairs and singles: every tenpai reachable is a single (seven pairs) or double-pair wait.
    pairs = evaluate_discards(_hand("113355m77p99s1234z"), RIICHI, options=DiscardOptions(good_shape=True))
    assert pairs[0].shanten == 1 and pairs[0].good_shape == 0.0


def test_extras_are_off_by_default() -> None:
    candidate = evaluate_discards(_hand("2234567m345p5677s"), RIICHI)[0]
    assert (candidate.improvements, candidate.good_shape, candidate.lookahead) == (None, None, None)
