"""Hongzhong scoring: hand-computed cases with explicit options, properties, and refusals.

Each case's comment works the payment out by hand from the text's payment list: a share per
payer of the win (2), each bird hit (2), 四红中喜分 (5); the self-draw's payers are the three
other seats, a robbed kong's the robbed seat for all three, a discard win's the discarder.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.errors import AbsentTile, NotAWinningHand, TooManyCopies
from app.core.families.hongzhong.options import BirdCounting, HongzhongOptions
from app.core.families.hongzhong.scoring import bird_count, kong_payments, kong_settlement, score_hongzhong
from app.core.families.hongzhong.shape import HongzhongShape, red_held
from app.core.shape.hand import Hand, Meld, MeldKind
from app.core.shape.tiles import RED, parse_mpsz
from app.core.value.scoring_context import InvalidWinContext, WinContext


def hand(tiles: str, *melds: tuple[str, str]) -> Hand:
    return Hand.from_tiles(parse_mpsz(tiles), [Meld.of(kind, parse_mpsz(meld)) for kind, meld in melds])


def tiles(text: str) -> list[int]:
    return parse_mpsz(text)


# -- hand-computed cases ----------------------------------------------------------------------------


def test_self_draw_with_one_red_and_four_birds() -> None:
    # birds=4; the hand holds one 红中, so 4 birds: 1m and 5p hit, 2m and 7s miss.
    # Share: 2 (win) + 2 hits x 2 = 6 from each of three: +18.
    options = HongzhongOptions(birds=4)
    result = score_hongzhong(
        hand("234m456p789s1199s7z"), 18, options, WinContext(winner=1, dealer=0), birds=tiles("1m2m5p7s")
    )
    assert result.bird_hits == (True, False, True, False)
    assert (result.hits, result.share, result.payments) == (2, 6, (-6, 18, -6, -6))


def test_no_red_no_hit_counts_every_bird() -> None:
    # No 红中: 2 + 2 = 4 birds (2m 3m 4p 6s), none hits; 不中当全中 counts all four.
    # Share: 2 + 4 x 2 = 10; winner (seat 2) +30.
    result = score_hongzhong(
        hand("123m456p789s11999s"), 26, HongzhongOptions(), WinContext(winner=2, dealer=2), birds=tiles("2m3m4p6s")
    )
    assert (result.hits, result.share, result.payments) == (4, 10, (-10, -10, 30, -10))
    # The same birds without 不中当全中: the win alone, 2 from each.
    plain = score_hongzhong(
        hand("123m456p789s11999s"),
        26,
        HongzhongOptions(no_hit_counts_all=False),
        WinContext(winner=2, dealer=2),
        birds=tiles("2m3m4p6s"),
    )
    assert (plain.hits, plain.share, plain.payments) == (0, 2, (-2, -2, 6, -2))


def test_robbed_kong_pays_all_three_shares() -> None:
    # Seat 3 adds a kong of 9s; seat 1 (no 红中) robs it for 789s. Four birds: 9p hits (a nine),
    # 7z hits, 3m and 4m miss. Share 2 + 2 x 2 = 6; seat 3 pays for all three: 18.
    robbed = WinContext(winner=1, dealer=0, discarder=3, robbed_kong=True)
    result = score_hongzhong(hand("123m456p789m11s789s"), 26, HongzhongOptions(), robbed, birds=tiles("9p7z3m4m"))
    assert (result.share, result.per_payer, result.payments) == (6, ((3, 18),), (0, 18, 0, -18))
    assert [fan.name for fan in result.fans] == ["ping_hu", "qiang_gang_hu", "zhong_ma"]


def test_four_red_with_six_birds_and_the_bonus() -> None:
    # birds=6, four 红中 held: 6 birds, only 1m hits. Share: 2 (四红中) + 2 (one hit) + 5 (喜分) = 9.
    options = HongzhongOptions(birds=6)
    result = score_hongzhong(
        hand("258m369p47s11s7777z"), RED, options, WinContext(winner=0, dealer=3), birds=tiles("1m2m3m4m6m7m")
    )
    assert result.form == "four_red"
    assert (result.hits, result.share, result.payments) == (1, 9, (27, -9, -9, -9))


def test_room_paying_more_for_seven_pairs() -> None:
    # A room paying 七对 4 (seven_pairs_points=4): natural seven pairs with a pair of 红中, no
    # birds drawn (the wall ran out). Share 4 from each: +12.
    options = HongzhongOptions(seven_pairs_points=4)
    result = score_hongzhong(hand("1133557799m11p77z"), RED, options, WinContext(winner=3, dealer=3))
    assert result.form == "seven_pairs"
    assert (result.share, result.payments) == (4, (-4, -4, -4, 12))


def test_discard_win_room_with_birds_counted_from_the_dealer() -> None:
    # A room with discard wins, birds counted from the dealer: seat 2 wins on seat 0's discard,
    # dealer seat 1. No 红中: 4 birds. From the dealer (seat 1), a 2 lands on seat 2 (hit), a 6
    # too, a 1 on seat 1 (miss), 7z hits. Share 2 + 3 x 2 = 8, paid by the discarder alone.
    options = HongzhongOptions(discard_wins=True, bird_counting=BirdCounting.FROM_DEALER)
    context = WinContext(winner=2, dealer=1, discarder=0)
    result = score_hongzhong(hand("123m456p789s11999s"), 26, options, context, birds=tiles("2m6p1s7z"))
    assert result.bird_hits == (True, True, False, True)
    assert (result.share, result.payments) == (8, (-8, 0, 8, 0))


def test_no_red_doubling_room() -> None:
    # A room doubling a hand without 红中 (no_red_multiplier=2, no extra birds): share 2 + 2
    # (无红中) + 2 (5p hits) = 6; self-draw, +18.
    options = HongzhongOptions(no_red_multiplier=2, no_red_extra_birds=0)
    result = score_hongzhong(
        hand("123m456p789s11999s"), 26, options, WinContext(winner=0, dealer=0), birds=tiles("5p3s")
    )
    assert [(fan.name, fan.fan, fan.count) for fan in result.fans] == [
        ("ping_hu", 2, 1),
        ("wu_hong_zhong", 2, 1),
        ("zi_mo", 0, 1),
        ("zhong_ma", 2, 1),
    ]
    assert (result.share, result.payments) == (6, (18, -6, -6, -6))


def test_a_hand_of_kongs() -> None:
    # Seat 0: a concealed kong (2 from each: +6); seat 2: a kong on seat 0's discard (3 from
    # seat 0); seat 1: an added kong (1 from each: +3). Per seat: 0: +6 -3 -1 = +2;
    # 1: -2 +3 = +1; 2: -2 +3 -1 = 0; 3: -2 -1 = -3.
    kongs = [(MeldKind.CLOSED_KAN, 0, None), (MeldKind.OPEN_KAN, 2, 0), (MeldKind.ADDED_KAN, 1, None)]
    assert kong_settlement(kongs, HongzhongOptions(), hand_won=True) == (2, 1, 0, -3)
    assert kong_settlement(kongs, HongzhongOptions(kongs_pay_on_draw=False), hand_won=False) == (0, 0, 0, 0)


# -- refusals ---------------------------------------------------------------------------------------


def test_refusals_name_their_field() -> None:
    options = HongzhongOptions()
    self_draw = WinContext(winner=0, dealer=0)
    with pytest.raises(NotAWinningHand):
        score_hongzhong(hand("123m456p789s11124s"), 18, options, self_draw)
    with pytest.raises(AbsentTile) as absent:
        score_hongzhong(hand("123m456p789s111s11z"), 18, options, self_draw)
    assert absent.value.field == "hand"
    with pytest.raises(TooManyCopies) as copies:
        score_hongzhong(hand("111123m456p789s99s"), 26, options, self_draw, birds=tiles("1m"))
    assert copies.value.field == "birds"
    with pytest.raises(AbsentTile):
        score_hongzhong(hand("123m456p789s11999s"), 26, options, self_draw, birds=tiles("1z"))
    with pytest.raises(InvalidWinContext) as discard:
        score_hongzhong(hand("123m456p789s1199s7z"), 26, HongzhongOptions(discard_wins=True), WinContext(0, 0, 1))
    assert discard.value.field == "discarder"  # 有红中不接炮 (discard_win_needs_no_red)


# -- properties -------------------------------------------------------------------------------------


def _winning_hand(rng: random.Random) -> Hand:
    shape = HongzhongShape(HongzhongOptions(seven_pairs=False))
    while True:
        counts = [0] * 34
        counts[rng.randrange(27)] += 2
        for _ in range(4):
            if rng.random() < 0.5:
                start = rng.choice([t for t in range(27) if t % 9 <= 6])
                for t in (start, start + 1, start + 2):
                    counts[t] += 1
            else:
                counts[rng.randrange(27)] += 3
        tiles_held = [t for t in range(34) for _ in range(counts[t])]
        for index in rng.sample(range(14), rng.choice((0, 0, 1, 2, 3, 4))):
            tiles_held[index] = RED
        candidate = Hand.from_tiles(tiles_held) if max(counts) <= 4 else None
        if candidate is not None and shape.is_win(candidate):
            return candidate


@settings(max_examples=150)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(0, 3),
    st.integers(0, 3),
    st.sampled_from(["self", "robbed", "discard"]),
    st.sampled_from(list(BirdCounting)),
    st.sampled_from((2, 4, 6)),
)
def test_payments_sum_to_zero_and_follow_the_share(seed, winner, dealer, way, counting, birds) -> None:
    rng = random.Random(seed)
    subject = _winning_hand(rng)
    options = HongzhongOptions(
        birds=birds,
        bird_counting=counting,
        discard_wins=True,
        discard_win_needs_no_red=False,
        rob_kong_needs_no_red=False,
    )
    win_tile = next(t for t in range(27) if subject.counts[t]) if way == "robbed" else RED if subject.counts[RED] else 0
    if not subject.counts[win_tile]:
        win_tile = next(t for t in range(34) if subject.counts[t])
    other = (winner + rng.randrange(1, 4)) % 4
    context = WinContext(
        winner=winner,
        dealer=dealer,
        discarder=None if way == "self" else other,
        robbed_kong=way == "robbed",
    )
    wall = [t for t in range(27) for _ in range(4 - subject.counts[t])] + [RED] * (4 - subject.counts[RED])
    drawn = rng.sample(wall, bird_count(options, holds_red=red_held(subject) > 0))
    result = score_hongzhong(subject, win_tile, options, context, birds=drawn)
    assert sum(result.payments) == 0
    assert result.share == sum(fan.fan * fan.count for fan in result.fans)
    payers = {"self": 3, "robbed": 1, "discard": 1}[way]
    assert len(result.per_payer) == payers
    assert result.payments[winner] == result.share * (1 if way == "discard" else 3)
    assert result.hits in (sum(result.bird_hits), len(drawn))


@pytest.mark.parametrize("kind", [MeldKind.CLOSED_KAN, MeldKind.ADDED_KAN, MeldKind.OPEN_KAN])
@pytest.mark.parametrize("declarer", range(4))
def test_kong_payments_sum_to_zero(kind: MeldKind, declarer: int) -> None:
    feeder = (declarer + 1) % 4 if kind is MeldKind.OPEN_KAN else None
    payments = kong_payments(kind, declarer, HongzhongOptions(), feeder=feeder)
    assert sum(payments) == 0 and payments[declarer] > 0
