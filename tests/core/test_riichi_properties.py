"""Properties of the riichi scorer on Hypothesis-driven random wins (``riichi_situations``).

Each holds by the rules, whatever the hand:

* payments are zero-sum, the winner receives what the payers pay, and only the
  right seats pay;
* one more dora indicator never lowers the base points or the han;
* dora, red fives, ura dora, honba and sticks never turn a hand without a yaku
  into a win, while a situational yaku (riichi) always does;
* the scored reading is the best of every reading, enumerated here by brute
  force over the splits of the concealed tiles (each reading valued with the
  plain-Python reference scorer's ``_yaku`` (and its ``_Held`` tile summary) and ``_fu``
  (``riichi_reference``), the scorer's ``_limit_of``, the situation and dora counted here).

Hypothesis is derandomized so CI sees the same examples on every run.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from riichi_reference import _fu, _Held, _Table, _yaku
from riichi_situations import EAST, Situation, random_situation

from app.core.shape.hand import Hand
from app.core.shape.rules import rule_profile
from app.core.shape.tiles import dora_from_indicator
from app.core.value.riichi_scoring import Group, NoYaku, Reading, RiichiScore, _limit_of, score_riichi
from app.core.value.scoring_context import WinContext

RULES = rule_profile("riichi")
SETTINGS = settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
BONUS = frozenset(("dora", "aka_dora", "ura_dora"))

#: A seed, not Hypothesis's own random stream: the builder retries when the wall refuses a
#: shape, and Hypothesis's all-zero stream would retry a very long time.
situations = st.integers(0, 2**32 - 1).map(lambda seed: random_situation(random.Random(seed)))


def score_or_none(situation: Situation, context: WinContext | None = None) -> RiichiScore | None:
    """The score, or None for a hand without a yaku."""
    try:
        return score_riichi(situation.hand, situation.win_tile, RULES, context or situation.context)
    except NoYaku:
        return None


@SETTINGS
@given(situations)
def test_payments_are_zero_sum_and_paid_by_the_right_seats(situation: Situation) -> None:
    score = score_or_none(situation)
    if score is None:
        return
    context = situation.context
    assert sum(score.payments) == 0
    assert score.payments[context.winner] == sum(points for _, points in score.per_payer)
    payers = {seat for seat, _ in score.per_payer}
    if context.discarder is None:
        assert payers == set(range(4)) - {context.winner}
    else:
        assert payers == {context.discarder}
    for seat, points in score.per_payer:
        assert points > 0 and (points - 100 * context.honba) % 100 == 0
        assert score.payments[seat] == -points
    # The smallest win (1 han 30 fu ron, or the 1100 of a 1 han 30 fu tsumo) is 1000 points.
    assert score.payments[context.winner] - 300 * context.honba >= 1000
    assert score.riichi_sticks_won == 1000 * context.riichi_sticks


def free_tiles(situation: Situation) -> list[int]:
    """Tiles with a copy left outside the hand, the melds and the indicators shown."""
    used = list(situation.hand.all_counts())
    for tile in situation.context.dora_indicators + situation.context.ura_indicators:
        used[tile] += 1
    if situation.context.robbed_kong:
        used[situation.win_tile] = 4  # the other three copies are in the robbed kong
    return [tile for tile in range(34) if used[tile] < 4]


@SETTINGS
@given(situations, st.randoms(use_true_random=False))
def test_another_dora_indicator_never_lowers_the_score(situation: Situation, rng: random.Random) -> None:
    context = situation.context
    if len(context.dora_indicators) == 5:
        context = context._replace(dora_indicators=context.dora_indicators[:4])
        situation = situation._replace(context=context)
    indicator = rng.choice(free_tiles(situation))
    more = context._replace(dora_indicators=context.dora_indicators + (indicator,))
    before, after = score_or_none(situation), score_or_none(situation, more)
    if before is None:
        assert after is None, "a dora made a hand without a yaku win"
        return
    assert after is not None
    assert after.base_points >= before.base_points
    assert after.han >= before.han
    held = situation.hand.all_counts()[dora_from_indicator(indicator)]
    if before.limit is None and after.limit is None:
        # Below the limits the new dora's copies add exactly their han.
        assert after.han == before.han + held


def without_situational_yaku(context: WinContext) -> WinContext:
    """The same seats and dora, won on a discard with no riichi, last tile, kong or first turn."""
    discarder = context.discarder if context.discarder is not None else (context.winner + 1) % 4
    return context._replace(
        discarder=discarder,
        riichi=False,
        double_riichi=False,
        ippatsu=False,
        last_tile=False,
        kong_replacement=False,
        robbed_kong=False,
        first_turn=False,
    )


@SETTINGS
@given(situations, st.randoms(use_true_random=False))
def test_bonuses_never_make_a_win_but_riichi_does(situation: Situation, rng: random.Random) -> None:
    plain = situation._replace(context=without_situational_yaku(situation.context))
    bare = plain.context._replace(dora_indicators=(), ura_indicators=(), red_fives=(), honba=0, riichi_sticks=0)
    scored = score_or_none(plain, bare)
    if scored is not None:
        assert any(y.name not in BONUS for y in scored.yaku)
        return
    # No yaku: dora, red fives (already drawn in the situation), honba and sticks change nothing.
    loaded = plain.context._replace(honba=rng.randint(1, 8), riichi_sticks=rng.randint(1, 4))
    assert score_or_none(plain, loaded) is None
    if not plain.hand.has_open_meld:
        riichi = score_or_none(plain, loaded._replace(riichi=True))
        assert riichi is not None, "a closed complete hand in riichi must score"
        assert [y.name for y in riichi.yaku if y.name not in BONUS] == ["riichi"]


# -- every reading, by brute force ----------------------------------------------


def splits(counts: list[int], need_pair: bool) -> list[tuple[int, tuple[tuple[bool, int], ...]]]:
    """Every (pair, groups) split of ``counts`` into runs, triplets and exactly one pair."""
    first = next((tile for tile in range(34) if counts[tile]), None)
    if first is None:
        return [] if need_pair else [(-1, ())]
    out = []
    if need_pair and counts[first] >= 2:
        counts[first] -= 2
        out += [(first, groups) for _, groups in splits(counts, False)]
        counts[first] += 2
    if counts[first] >= 3:
        counts[first] -= 3
        out += [(pair, ((False, first),) + groups) for pair, groups in splits(counts, need_pair)]
        counts[first] += 3
    if first < 27 and first % 9 <= 6 and counts[first + 1] and counts[first + 2]:
        for tile in (first, first + 1, first + 2):
            counts[tile] -= 1
        out += [(pair, ((True, first),) + groups) for pair, groups in splits(counts, need_pair)]
        for tile in (first, first + 1, first + 2):
            counts[tile] += 1
    return out


def run_wait(first: int, win_tile: int) -> str:
    """The wait a run had before ``win_tile`` finished it."""
    if win_tile == first + 1:
        return "kanchan"
    if (win_tile == first + 2 and first % 9 == 0) or (win_tile == first and first % 9 == 6):
        return "penchan"
    return "ryanmen"


def all_readings(hand: Hand, win_tile: int, tsumo: bool) -> list[Reading]:
    """Every regular and seven-pairs reading, with each place the winning tile could have gone."""
    declared = tuple(
        Group(meld.kind.value == "chi", meld.tiles[0], meld.kind.value == "closed_kan", len(meld.tiles) == 4)
        for meld in hand.melds
    )
    readings = []
    for pair, groups in set(splits(list(hand.counts), True)):
        concealed = [Group(is_run, first, True) for is_run, first in groups]
        if pair == win_tile:
            readings.append(Reading("regular", pair, tuple(concealed) + declared, wait="tanki"))
        for index, group in enumerate(concealed):
            if group.is_run and group.first <= win_tile <= group.first + 2:
                finished, wait = group, run_wait(group.first, win_tile)
            elif not group.is_run and group.first == win_tile:
                finished, wait = group._replace(concealed=tsumo), "shanpon"  # a discard opens the triplet
            else:
                continue
            others = concealed[:index] + [finished] + concealed[index + 1 :]
            readings.append(Reading("regular", pair, tuple(others) + declared, wait=wait))
    pairs = [tile for tile in range(34) if hand.counts[tile] == 2]
    if not hand.melds and len(pairs) == 7:
        readings.append(Reading("seven_pairs", pairs[0], pairs=tuple(pairs), wait="tanki"))
    return readings


def situational_han(context: WinContext, closed: bool) -> int:
    tsumo = context.discarder is None
    return (
        2 * context.double_riichi
        + (context.riichi and not context.double_riichi)
        + context.ippatsu
        + (closed and tsumo)
        + context.last_tile
        + context.kong_replacement
        + context.robbed_kong
    )


def bonus_han(hand: Hand, context: WinContext) -> int:
    held = hand.all_counts()
    dora = sum(held[dora_from_indicator(t)] for t in context.dora_indicators)
    ura = sum(held[dora_from_indicator(t)] for t in context.ura_indicators)
    return dora + len(context.red_fives) + (ura if context.riichi or context.double_riichi else 0)


def reading_key(reading: Reading) -> tuple:
    """A reading up to the order of its groups."""
    return reading.form, reading.pair, tuple(sorted(reading.groups)), reading.pairs, reading.wait


@settings(max_examples=600, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(situations)
def test_the_scored_reading_is_the_best_of_all_readings(situation: Situation) -> None:
    hand, win_tile, context, _ = situation
    score = score_or_none(situation)
    if score is not None and any(y.yakuman for y in score.yaku) and score.fu == 0:
        return  # a yakuman: readings are not ranked by han and fu
    tsumo = context.discarder is None
    closed = not hand.has_open_meld
    table = _Table(tsumo, EAST + (context.winner - context.dealer) % 4, context.round_wind, closed)
    situational = situational_han(context, closed)
    bonus = bonus_han(hand, context)
    held = _Held.of(hand.all_counts())
    best = None
    values = {}
    for reading in all_readings(hand, win_tile, tsumo):
        yaku = _yaku(reading, held, table, RULES)
        if not yaku and not situational:
            continue
        han = situational + sum(y.han for y in yaku) + bonus
        fu, _ = _fu(reading, table, any(y.name == "pinfu" for y in yaku))
        key = (_limit_of(han, fu, RULES)[1], han, fu)
        values[reading_key(reading)] = key
        best = key if best is None else max(best, key)
    if best is None:
        assert score is None, f"no reading has a yaku, but the hand scored {score}"
        return
    assert score is not None, f"a reading is worth {best}, but the scorer found no yaku"
    assert (score.base_points, score.han, score.fu) == best
    assert values.get(reading_key(score.reading)) == best, "the reported reading is not the best one"


def test_brute_force_finds_every_reading_of_a_known_hand() -> None:
    """The enumerator itself: 111222333m is three triplets or three runs, 22334455m has three splits."""
    hand = Hand.from_tiles([0, 0, 0, 1, 1, 1, 2, 2, 2, 9, 10, 11, 31, 31])
    shapes = Counter(
        (tuple(sorted(g.first for g in r.groups if g.is_run)), r.wait) for r in all_readings(hand, 2, False)
    )
    # Triplets: shanpon on 3m.  Runs: 3m finishes any of the three 123m, an edge wait on 12m.
    assert shapes == Counter({((9,), "shanpon"): 1, ((0, 0, 0, 9), "penchan"): 3})
    hand = Hand.from_tiles([1, 1, 2, 2, 3, 3, 4, 4, 9, 10, 11, 27, 27, 27])
    pairs = Counter(r.pair for r in all_readings(hand, 4, False))
    # 2m pair with 5m finishing either 345m (two-sided), or 5m pair (tanki) under 234m 234m.
    assert pairs == Counter({1: 2, 4: 1})


@pytest.mark.parametrize("seed", range(3))
def test_situations_are_all_valid_wins(seed: int) -> None:
    """Every generated situation is accepted: it scores or has no yaku, never another error."""
    rng = random.Random(seed)
    for _ in range(500):
        situation = random_situation(rng)
        score_or_none(situation)
