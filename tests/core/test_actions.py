"""The values behind the advisor's decisions (app/core/advice/actions.py): properties and known answers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.advice.actions import (
    DEFAULT_PARAMETERS,
    ActionParameters,
    Situation,
    call_values,
    contested,
    kan_value,
    kuikae_tiles,
    new_dora_factor,
    push_value,
    riichi_or_dama,
    waiting_value,
)
from app.core.advice.expected_score import TurnValue, expected_scores
from app.core.advice.safety import TileSafety
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld
from app.core.shape.rules import rule_profile
from app.core.shape.tiles import HONORS, dora_from_indicator, parse_mpsz

RULES = rule_profile("riichi", red_fives=False)
NO_HAZARD = ActionParameters(hazard_per_turn=0.0)


def _rows(values: list[tuple[float, float]], first: int) -> list[TurnValue]:
    """Per-turn rows from ``(win, score)`` pairs, made non-increasing (later turns, fewer draws)."""
    rows = []
    win_floor = score_floor = 0.0
    for offset, (win, score) in enumerate(reversed(values)):
        win_floor, score_floor = max(win_floor, win), max(score_floor, score)
        rows.append(TurnValue(first + len(values) - 1 - offset, 1.0, win_floor, score_floor))
    return rows[::-1]


@given(st.lists(st.tuples(st.floats(0, 1), st.floats(0, 20000)), min_size=1, max_size=18), st.integers(1, 18))
def test_contested_never_exceeds_the_search_and_equals_it_without_a_hazard(values, first):
    rows = _rows(values, first)
    found = contested(rows)
    assert -1e-9 <= found.expected_score <= rows[0].expected_score + 1e-9
    assert -1e-12 <= found.win_probability <= rows[0].win_probability + 1e-12
    alone = contested(rows, NO_HAZARD)
    assert abs(alone.expected_score - rows[0].expected_score) <= 1e-6 * max(1.0, rows[0].expected_score)


@given(st.floats(0, 20000), st.integers(0, 3), st.floats(0, 0.5), st.floats(0, 0.5))
def test_a_more_dangerous_discard_is_never_worth_more(expected, shanten, low, extra):
    def verdict(danger: float) -> TileSafety:
        return TileSafety(1 - danger, danger, danger, 1.0, ())

    safer = push_value(expected, shanten, [verdict(low)], [8250.0])
    riskier = push_value(expected, shanten, [verdict(min(1.0, low + extra))], [8250.0])
    assert riskier <= safer + 1e-9
    # No threat: the value is the hand's.
    assert push_value(expected, shanten, [verdict(low)], [0.0]) == expected


def test_the_waiting_value_is_the_search_of_the_hand_with_a_placeholder_thrown():
    hand = Hand.from_tiles(parse_mpsz("123456789m1134p"))
    situation = Situation.of(hand, RULES, turn=5)
    found = waiting_value(hand, situation, NO_HAZARD)
    # The same value by another placeholder: an honour is a tile that joins nothing.
    counts = bytearray(situation.unseen)
    other = HONORS[3]
    counts[other] -= 1
    search = expected_scores(hand.with_tile(other), RULES, unseen=bytes(counts), first_turn=5)
    entry = next(d for d in search.discards if d.tile == other)
    assert abs(found.expected_score - entry.expected_score) < 1e-9
    assert abs(found.win_probability - entry.win_probability) < 1e-12


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["23m456p789s255s11z", "34m456p678s2288s2z", "123m19p456s78s55z9m", "4556m234p678s567s"]))
def test_a_call_is_valued_by_a_discard_kuikae_allows(text):
    hand = Hand.from_tiles(parse_mpsz(text))
    checker = Checker(RULES)
    situation = Situation.of(hand, RULES, turn=7)
    for tile in range(34):
        options = [
            Meld.of(kind, tiles)
            for kind, tiles in (
                ("pon", [tile] * 3),
                *(("chi", [low, low + 1, low + 2]) for low in range(max(0, tile - 2), tile + 1) if tile < 27),
            )
            if _can_call(hand, tiles, tile) and (kind != "chi" or low_ok(tiles))
        ]
        if not options:
            continue
        found = call_values(hand, tile, options, situation)
        for value in found.calls:
            assert value.discard is not None and value.discard not in kuikae_tiles(value.meld, tile)
            used = list(value.meld.tiles)
            used.remove(tile)
            after = hand.without(used, value.meld)
            assert value.shanten == checker.shanten_number(after.without((value.discard,)))
            assert 0 <= value.win_probability <= 1 and value.value >= 0


def low_ok(tiles: list[int]) -> bool:
    return tiles[0] // 9 == tiles[2] // 9 and tiles[2] < 27


def _can_call(hand: Hand, tiles: list[int], claimed: int) -> bool:
    rest = list(tiles)
    rest.remove(claimed)
    counts = bytearray(hand.counts)
    for tile in rest:
        if counts[tile] == 0:
            return False
        counts[tile] -= 1
    return True


def test_riichi_or_dama_counts_no_win_on_a_discard_without_a_yaku():
    # Waiting on 1m, 4m and 7m with a triplet of 9s: no yaku on a discard, menzen tsumo on a self-draw.
    hand = Hand.from_tiles(parse_mpsz("23456m678p55p999s"))
    situation = Situation.of(hand, RULES)
    early = riichi_or_dama(hand, situation, win_probability=0.5)
    assert early.riichi  # dama wins only by self-draw
    assert "no yaku: it cannot win on one" in early.reasons[2]
    # A self-draw's chance of 5% (the last draws) does not pay for the stick.
    assert not riichi_or_dama(hand, situation, win_probability=0.05).riichi


@given(st.floats(0.0, 1.0), st.floats(0.0, 1.0))
def test_riichi_is_worth_more_as_the_chance_of_winning_grows_and_never_more_than_a_sure_win(low, extra):
    hand = Hand.from_tiles(parse_mpsz("234m567p2399s666z"))
    situation = Situation.of(hand, RULES)
    lower = riichi_or_dama(hand, situation, win_probability=low)
    higher = riichi_or_dama(hand, situation, win_probability=min(1.0, low + extra))
    assert higher.riichi_value >= lower.riichi_value - 1e-9
    assert higher.dama_value >= lower.dama_value - 1e-9
    assert 0.0 <= lower.win_probability <= 1.0
    assert lower.riichi_value <= max(lower.riichi_points, 0.0) + 1e-9


@settings(max_examples=20, deadline=None)
@given(st.floats(0.05, 0.9), st.integers(2, 16))
def test_ippatsu_is_worth_more_the_fewer_draws_share_the_chance_of_winning(win, turn):
    # The same chance of winning spread over fewer draws puts more of it on the next draw and
    # go-around, where riichi wins a han more; dama has no ippatsu.
    hand = Hand.from_tiles(parse_mpsz("234m567p2399s666z"))
    early = riichi_or_dama(hand, Situation.of(hand, RULES, turn=turn), win_probability=win)
    late = riichi_or_dama(hand, Situation.of(hand, RULES, turn=turn + 2), win_probability=win)
    assert late.riichi_value > early.riichi_value
    assert late.dama_value == early.dama_value
    assert "ippatsu adds" in early.reasons[1]


def test_the_hazard_rises_from_turn_four_to_its_cap():
    hazards = [DEFAULT_PARAMETERS.others_win_hazard(turn) for turn in range(1, 19)]
    assert hazards[:4] == [0.0] * 4
    assert all(a <= b for a, b in zip(hazards, hazards[1:], strict=False))
    assert max(hazards) == DEFAULT_PARAMETERS.hazard_cap


# ------------------------------------------------------------------ kans

KAN_HANDS = ["1111m234p567s1122z", "2222m345p678s5566z", "5555p123m789s11z99p", "7777z234m456p11s44s"]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(KAN_HANDS), st.integers(100, 20000), st.sampled_from([8000, 12000]))
def test_the_new_dora_factor_is_the_average_over_every_unseen_tile_as_indicator(text, mean_win, limit):
    # Brute force: every unseen copy, one by one, as the indicator, and the han it adds counted
    # on the whole hand, each doubling the win's points up to the limit.
    hand = Hand.from_tiles(parse_mpsz(text))
    situation = Situation.of(hand, RULES, dora_indicators=(27,))
    held = hand.all_counts()
    copies = [tile for tile, count in enumerate(situation.unseen) for _ in range(count)]
    if mean_win >= limit:
        expected = 1.0
    else:
        raised = [min(mean_win * 2 ** held[dora_from_indicator(tile)], limit) for tile in copies]
        expected = sum(raised) / len(copies) / mean_win
    found = new_dora_factor(hand, situation, mean_win, limit)
    assert found == pytest.approx(expected, rel=1e-12)
    assert 1.0 <= found <= max(1.0, limit / mean_win)


@settings(max_examples=10, deadline=None)
@given(
    st.sampled_from(KAN_HANDS[:2]),
    st.lists(st.tuples(st.floats(0, 0.3), st.floats(0, 12000)), min_size=3, max_size=3),
)
def test_a_kan_robbed_more_often_is_never_worth_more(text, robbing):
    hand = Hand.from_tiles(parse_mpsz(text))
    kind = next(tile for tile, count in enumerate(hand.counts) if count == 4)
    meld = Meld.of("closed_kan", [kind] * 4)
    after = hand.without([kind] * 4, meld)
    situation = Situation.of(hand, RULES, turn=7)
    alone = kan_value(after, meld, situation, extra_draw=True)
    robbed = kan_value(after, meld, situation, extra_draw=True, robbing=robbing)
    assert robbed.value <= alone.value + 1e-9
    assert robbed.win_probability <= alone.win_probability + 1e-12
    assert alone.dora_factor == robbed.dora_factor >= 1.0
