"""Shapes, waits and shanten of hongzhong hands against the brute force (hongzhong_oracle.py).

Two layers are checked, on hands of every size (1 to 14 concealed tiles, the rest melded) with
0 to 4 红中:

* the shape engine under the family's profile (``hand_rules``: 红中 a plain tile in seven pairs
  unless ``wild_seven_pairs``, four 红中 the held-wildcards form): it agrees with the brute force
  read as the text says;
* :class:`HongzhongShape`, the win as the text defines it (four 红中, seven pairs with 红中 a
  plain tile), under the text's options and their variants.

Hypothesis draws a seed, a size, a count of 红中 and a style; the hand is built from them
(hongzhong_hands.py), so every run under the CI profile tries the same hands.
"""

from __future__ import annotations

import random

import hongzhong_oracle as oracle
import pytest
from hongzhong_hands import SIZES, STYLES, random_hand
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.families.hongzhong.options import HongzhongOptions
from app.core.families.hongzhong.shape import HongzhongShape, hand_rules
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld

#: Examples per property: each costs up to a second with four 红中 (every substitution of them).
EXAMPLES = 40

OPTION_VARIANTS = (
    HongzhongOptions(),
    HongzhongOptions(quad_as_two_pairs=False),
    HongzhongOptions(wild_seven_pairs=True),
    HongzhongOptions(seven_pairs=False, four_red_wins=False),
)


def oracle_rules(options: HongzhongOptions) -> oracle.Rules:
    return oracle.Rules(
        seven_pairs=options.seven_pairs,
        quad_as_two=options.quad_as_two_pairs,
        wild_pairs=options.wild_seven_pairs,
        four_red=options.four_red_wins,
    )


def engine_hand(counts: tuple[int, ...], melds: list[tuple[str, tuple[int, ...]]]) -> Hand:
    hand = Hand(bytes(counts), tuple(Meld.of(kind, tiles) for kind, tiles in melds))
    hand.validate()
    return hand


@st.composite
def hands(
    draw: st.DrawFn, remainder: int, max_reds: int = 4
) -> tuple[tuple[int, ...], list[tuple[str, tuple[int, ...]]]]:
    size = draw(st.sampled_from([size for size in SIZES if size % 3 == remainder]))
    reds = draw(st.integers(0, min(max_reds, size)))
    style = draw(st.sampled_from(STYLES))
    seed = draw(st.integers(0, 2**32 - 1))
    return random_hand(random.Random(seed), size, reds, style)


_CHECKERS: dict[HongzhongOptions, Checker] = {}


def checker(options: HongzhongOptions) -> Checker:
    if options not in _CHECKERS:
        _CHECKERS[options] = Checker(hand_rules(options))
    return _CHECKERS[options]


# -- the brute force against itself ---------------------------------------------------------------


@settings(max_examples=EXAMPLES)
@given(hands(1), st.sampled_from(OPTION_VARIANTS))
def test_the_two_readings_of_the_distance_agree(hand, options) -> None:
    """Best over every substitution of the 红中 = the plain part's distance less the 红中 held."""
    counts, melds = hand
    rules = oracle_rules(options)
    assert oracle.distances(counts, len(melds), rules, substitute=False) == oracle.distances(counts, len(melds), rules)


@settings(max_examples=EXAMPLES)
@given(hands(1, max_reds=2), st.sampled_from(OPTION_VARIANTS))  # tile by tile, 4 红中 take seconds
def test_waits_in_one_pass_are_the_waits_tile_by_tile(hand, options) -> None:
    counts, melds = hand
    rules = oracle_rules(options)
    assert oracle.waits(counts, len(melds), rules) == oracle.waits_one_by_one(counts, len(melds), rules)


# -- the engine under the family's profile ----------------------------------------------------------


@settings(max_examples=EXAMPLES)
@given(hands(2), st.sampled_from(OPTION_VARIANTS))
def test_engine_complete_hands_and_shanten(hand, options) -> None:
    counts, melds = hand
    engine = checker(options)
    subject = engine_hand(counts, melds)
    profile = oracle_rules(options)
    expected = oracle.shanten(counts, len(melds), profile)
    found = engine.shanten(subject)
    assert (found.shanten, found.regular, found.seven_pairs) == (
        expected["shanten"],
        expected["regular"],
        expected["seven_pairs"],
    )
    if options.four_red_wins:
        assert found.wildcards_held == expected["four_red"]
    assert engine.is_win(subject) == oracle.is_win(counts, len(melds), profile)
    won = engine.win(subject)
    assert won.win == engine.is_win(subject)
    # Every reading's 红中 stands for a tile of the set (never an absent honour).
    for reading in won.decompositions:
        assert all(stands_for in oracle.KINDS for _, stands_for in reading.wildcards), reading


@settings(max_examples=EXAMPLES)
@given(hands(1), st.sampled_from(OPTION_VARIANTS))
def test_engine_waits_ukeire_and_shanten(hand, options) -> None:
    counts, melds = hand
    engine = checker(options)
    subject = engine_hand(counts, melds)
    profile = oracle_rules(options)
    expected = oracle.shanten(counts, len(melds), profile)
    found = engine.shanten(subject)
    assert (found.shanten, found.regular, found.seven_pairs) == (
        expected["shanten"],
        expected["regular"],
        expected["seven_pairs"],
    )
    if options.four_red_wins:
        assert found.wildcards_held == expected["four_red"]
    # Ukeire: the draws that lower the shanten, each re-solved by the second reading.
    improving = oracle.improving_draws(counts, len(melds), profile)
    assert [t.tile for t in found.ukeire or ()] == improving
    waits = engine.waits(subject)
    assert list(waits.shape_waits) == (oracle.waits(counts, len(melds), profile) if found.shanten == 0 else [])


# -- the text's win: HongzhongShape ------------------------------------------------------------------


@settings(max_examples=EXAMPLES)
@given(hands(2), st.sampled_from(OPTION_VARIANTS))
def test_text_win_and_shanten_of_complete_sizes(hand, options) -> None:
    counts, melds = hand
    subject = engine_hand(counts, melds)
    shape = HongzhongShape(options)
    rules = oracle_rules(options)
    expected = oracle.shanten(counts, len(melds), rules)
    found = shape.forms(subject)
    assert found._asdict() == {
        "shanten": expected["shanten"],
        "regular": expected["regular"],
        "seven_pairs": expected["seven_pairs"],
        "four_red": expected["four_red"],
    }
    assert shape.is_win(subject) == oracle.is_win(counts, len(melds), rules)
    assert (shape.winning_form(subject) is not None) == shape.is_win(subject)


@settings(max_examples=EXAMPLES)
@given(hands(1), st.sampled_from(OPTION_VARIANTS))
def test_text_waits_and_shanten_of_waiting_sizes(hand, options) -> None:
    counts, melds = hand
    subject = engine_hand(counts, melds)
    shape = HongzhongShape(options)
    rules = oracle_rules(options)
    expected = oracle.shanten(counts, len(melds), rules)
    answer, improving = shape.analyse(subject)
    assert answer._asdict() == {
        "shanten": expected["shanten"],
        "regular": expected["regular"],
        "seven_pairs": expected["seven_pairs"],
        "four_red": expected["four_red"],
    }
    assert list(improving) == oracle.improving_draws(counts, len(melds), rules)
    assert list(shape.waits(subject)) == oracle.waits(counts, len(melds), rules)
    assert bool(shape.waits(subject)) == (expected["shanten"] == 0)


# -- hand-picked cases the random hands may miss --------------------------------------------------------


@pytest.mark.parametrize(
    ("tiles", "wins"),
    [
        ("7777z", False),  # four tiles: no 3n+2 size
        ("77777z", False),  # five 红中 cannot be held
        ("1m7777z", True),  # four 红中 at five tiles (with three melds)
        ("11m777z", True),  # 红中 standing in a pung and the pair
        ("1133557799m11p77z", True),  # seven pairs with 红中 a plain pair
        ("1122334455m6p8s77z", False),  # seven pairs would need 红中 wild
        ("1111m2222m3333p77z", True),  # quads as two pairs each (quad_as_two_pairs)
    ],
)
def test_hand_picked_wins(tiles: str, wins: bool) -> None:
    from app.core.shape.tiles import parse_mpsz

    parsed = parse_mpsz(tiles)
    counts = [0] * 34
    for tile in parsed:
        counts[tile] += 1
    if max(counts) > 4 or len(parsed) % 3 != 2:
        assert not wins
        return
    melds = [("pon", (t, t, t)) for t in (9, 10, 11, 12)[: (14 - len(parsed)) // 3]]
    rules = oracle_rules(HongzhongOptions())
    assert oracle.is_win(tuple(counts), len(melds), rules) == wins
    assert HongzhongShape().is_win(engine_hand(tuple(counts), melds)) == wins
