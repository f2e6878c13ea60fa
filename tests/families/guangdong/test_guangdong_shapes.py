"""Shapes, waits and shanten under the Guangdong hand rules, against brute force.

The hand rules (``hand_rules``: no chi, seven pairs with a quad as two pairs, thirteen orphans,
the ghost a wildcard) are asked of the shape engine on hands of every size (1, 2, 4, 5, 7, 8,
10, 11, 13 and 14 concealed tiles, the rest declared pon and kongs) holding 0 to 4 ghosts, and
the answers are compared with:

* **swap distance, by every complete hand** (written here): for hands of up to eight concealed
  tiles, every complete hand of the size is listed, and the shanten is the fewest tiles the hand
  lacks of one of them, less the ghosts (each stands in for one missing tile), less one;
* **substitution** (tests/core/oracles.py): every ghost replaced by every tile, the hand complete
  when some replacement is, the waits the draws that complete some replacement;
* **definition** (tests/core/oracles.py): per form, the fewest draws of the ghost-free part to a
  complete hand (branch and bound), less the ghosts.

Hypothesis draws the hands with a fixed budget (derandomized under CI=true).
"""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations_with_replacement

import numpy as np
import oracles as O
from guangdong_hands import build_hand
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.families.guangdong.options import GuangdongOptions
from app.core.families.guangdong.tiles import hand_rules
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld
from app.core.shape.rules import SevenPairs
from app.core.shape.tiles import parse_mpsz

SIZES_WIN = (2, 5, 8, 11, 14)
SIZES_WAIT = (1, 4, 7, 10, 13)
#: The regular forms are checked here against brute force, with 满鬼 (four ghosts win at once)
#: off: that form is the shape wing's ``wildcards_held_win``, checked against its own oracles in
#: tests/core/test_wildcard_forms.py, and :func:`test_si_gui_is_the_held_form` shows it is on.
OPTIONS = GuangdongOptions(si_gui=False)
#: Hypothesis examples per test: each costs up to ~0.2 s with four ghosts.
EXAMPLES = 120


@cache
def _checker(ghost: int | None) -> Checker:
    return Checker(hand_rules(OPTIONS, ghost))


def _oracle_rules(ghost: int | None) -> O.OracleRules:
    return O.OracleRules.of(hand_rules(OPTIONS, ghost))


@st.composite
def hands(draw: st.DrawFn, sizes: tuple[int, ...]) -> tuple[tuple[int, ...], list[O.Meld], int | None]:
    """A hand of one of ``sizes`` from :func:`build_hand`, its parameters and seed drawn."""
    size = draw(st.sampled_from(sizes))
    ghost = draw(st.sampled_from((None, 31, 0, 13, 26, 27, 33)))
    ghosts = 0 if ghost is None else draw(st.integers(0, min(4, size)))
    style = draw(st.sampled_from(("near", "near", "uniform")))
    seed = draw(st.integers(0, 2**32))
    return build_hand(random.Random(seed), size, ghost, ghosts, style)


def _engine_hand(counts: tuple[int, ...], melds: list[O.Meld]) -> Hand:
    hand = Hand(bytes(counts), tuple(Meld.of(kind, tiles) for kind, tiles in melds))
    hand.validate()
    return hand


def _describe(counts, melds, ghost) -> str:
    names = "".join(f"{t % 9 + 1}{'mpsz'[t // 9]}" for t in range(34) for _ in range(counts[t]))
    return f"{names} melds={melds} ghost={ghost}"


# --- the swap distance, by every complete hand ------------------------------------------------


@cache
def _complete_hands(melds_wanted: int) -> np.ndarray:
    """Every complete concealed part of ``melds_wanted`` sets (pungs and chows: no chi call does
    not stop a concealed chow) and a pair, as count rows."""
    shapes = [(t, t, t) for t in range(34)] + [(t, t + 1, t + 2) for t in range(27) if t % 9 <= 6]
    rows = []
    for chosen in combinations_with_replacement(shapes, melds_wanted):
        base = [0] * 34
        for shape in chosen:
            for t in shape:
                base[t] += 1
        for pair in range(34):
            row = list(base)
            row[pair] += 2
            if max(row) <= 4:
                rows.append(row)
    return np.unique(np.array(rows, dtype=np.int16), axis=0)


def swap_shanten(counts: tuple[int, ...], ghost: int | None) -> int:
    """Shanten as the fewest tiles to swap in: the least a complete hand of the size needs that the
    ghost-free part lacks, less the ghosts, less one (a 3n+1 hand measures against 3n+2)."""
    plain = np.array(counts, dtype=np.int16)
    ghosts = 0
    if ghost is not None:
        ghosts = int(plain[ghost])
        plain[ghost] = 0
    complete = _complete_hands(sum(counts) // 3)
    lacking = np.maximum(complete - plain, 0).sum(axis=1).min()
    return int(lacking) - ghosts - 1


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands((1, 2, 4, 5, 7, 8)))
def test_shanten_is_the_swap_distance_on_small_hands(hand):
    counts, melds, ghost = hand
    engine = _checker(ghost).shanten(_engine_hand(counts, melds), with_ukeire=False)
    assert engine.shanten == swap_shanten(counts, ghost), _describe(counts, melds, ghost)


def test_swap_distance_examples():
    """The hand-written oracle itself: 1m ready on a pair; a ghost completes any single."""
    one = [0] * 34
    one[0] = 1
    assert swap_shanten(tuple(one), None) == 0
    two = list(one)
    two[31] = 1
    assert swap_shanten(tuple(two), 31) == -1
    loose = [0] * 34
    loose[0] = loose[4] = loose[8] = loose[27] = 1  # four unrelated tiles: two more to a set and a pair
    assert swap_shanten(tuple(loose), None) == 2


# --- every size against the substitution and definition oracles -------------------------------


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(SIZES_WIN))
def test_complete_and_shanten_of_3n2_hands(hand):
    counts, melds, ghost = hand
    rules = _oracle_rules(ghost)
    engine_hand = _engine_hand(counts, melds)
    checker = _checker(ghost)
    label = _describe(counts, melds, ghost)
    assert checker.is_win(engine_hand) == O.is_complete(counts, melds, rules), label
    assert checker.win(engine_hand).win == checker.is_win(engine_hand), label
    expected = O.shanten(counts, melds, rules)
    engine = checker.shanten(engine_hand, with_ukeire=False)
    assert engine.shanten == expected["shanten"], label
    assert (engine.regular, engine.seven_pairs, engine.thirteen_orphans) == (
        expected["regular"],
        expected["seven_pairs"],
        expected["thirteen_orphans"],
    ), label


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(SIZES_WAIT))
def test_waits_and_shanten_of_3n1_hands(hand):
    counts, melds, ghost = hand
    rules = _oracle_rules(ghost)
    engine_hand = _engine_hand(counts, melds)
    checker = _checker(ghost)
    label = _describe(counts, melds, ghost)
    expected = O.shanten(counts, melds, rules)
    result = checker.shanten(engine_hand)
    assert result.shanten == expected["shanten"], label
    waits = checker.waits(engine_hand)
    if result.shanten == 0:
        assert list(waits.shape_waits) == O.shape_waits(counts, melds, rules), label
    else:
        assert waits.shape_waits == () and not waits.tenpai, label


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(SIZES_WIN + SIZES_WAIT))
def test_ghost_shanten_by_substitution_is_the_definition(hand):
    """The two oracles agree: the best shanten over every replacement of the ghosts (here at
    most two of them: 34 ** 2 replacements) is the ghost-free distance less the ghosts."""
    counts, melds, ghost = hand
    if ghost is not None and counts[ghost] > 2:
        counts = tuple(min(c, 2) if t == ghost else c for t, c in enumerate(counts))
        if sum(counts) % 3 == 0:
            return
    rules = _oracle_rules(ghost)
    assert O.shanten_by_substitution(counts, melds, rules) == O.shanten(counts, melds, rules)["shanten"]
    assert (
        _checker(ghost).shanten(_engine_hand(counts, melds), with_ukeire=False).shanten
        == O.shanten(counts, melds, rules)["shanten"]
    )


def test_the_hand_rules_are_the_texts():
    rules = hand_rules(OPTIONS, 31)
    assert rules.wildcards == (31,) and not rules.chi_allowed and rules.seven_pairs is SevenPairs.QUAD_AS_TWO
    assert hand_rules(OPTIONS, None).wildcards == ()


def test_si_gui_is_the_held_form():
    """With 满鬼 on (the text's room), four ghosts held win whatever the rest, and a hand
    holding three is ready on the fourth; without a ghost there is no such form."""
    rules = hand_rules(GuangdongOptions(), 31)
    assert rules.wildcards_held_win == 4 and hand_rules(GuangdongOptions(), None).wildcards_held_win is None
    checker = Checker(rules)
    assert checker.is_win(Hand.from_tiles(parse_mpsz("159m159p159s1z5555z")))
    assert 31 in checker.waits(Hand.from_tiles(parse_mpsz("159m159p159s1z555z"))).shape_waits


def _reading(decomposition) -> O.Reading:
    stand_ins = tuple(stand for _, stand in decomposition.wildcards)
    return (
        decomposition.form,
        decomposition.pair,
        tuple(decomposition.melds),
        tuple(decomposition.pairs),
        tuple(decomposition.singles),
        stand_ins,
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(SIZES_WIN))
def test_every_reading_of_the_ghosts_is_listed(hand):
    """How a hand wins: the engine lists exactly the readings found by replacing each ghost
    (at most two: 34 ** 2 replacements) with every tile."""
    counts, melds, ghost = hand
    if ghost is not None and counts[ghost] > 2:
        return
    rules = _oracle_rules(ghost)
    result = _checker(ghost).win(_engine_hand(counts, melds), limit=10**6)
    assert {_reading(d) for d in result.decompositions} == O.win_readings(counts, melds, rules), _describe(
        counts, melds, ghost
    )
    assert not result.truncated
