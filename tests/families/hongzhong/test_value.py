"""The hongzhong value model against direct enumeration on small cases.

The birds' expected hits against every set of birds a small wall can give; one draw's expected
points of each discard against every tile the wall can give, each win scored by the scorer
with every set of birds the rest of the wall can give.
"""

from __future__ import annotations

from itertools import combinations

import pytest

from app.core.families.hongzhong.options import BirdCounting, HongzhongOptions
from app.core.families.hongzhong.scoring import bird_count, counted_hits, score_hongzhong
from app.core.families.hongzhong.shape import HongzhongShape, red_held
from app.core.families.hongzhong.value import discard_values, draws_per_seat, expected_hits, unseen_from, win_worth
from app.core.shape.hand import Hand
from app.core.shape.tiles import RED, parse_mpsz
from app.core.value.scoring_context import WinContext


def physical(counts: bytes) -> list[int]:
    return [tile for tile in range(34) for _ in range(counts[tile])]


@pytest.mark.parametrize("no_hit_counts_all", [True, False])
@pytest.mark.parametrize("birds", [0, 1, 2, 4, 6, 9])
def test_expected_hits_against_every_set_of_birds(birds: int, no_hit_counts_all: bool) -> None:
    wall = parse_mpsz("1m2m3m5p5p6p9s7z")  # hits: 1m, 5p, 5p, 9s, 7z
    options = HongzhongOptions(no_hit_counts_all=no_hit_counts_all)
    drawn = min(birds, len(wall))
    sets = list(combinations(range(len(wall)), drawn))
    direct = sum(counted_hits([wall[i] for i in chosen], options, winner=0, dealer=0) for chosen in sets) / len(sets)
    hitting = sum(1 for tile in wall if tile in (0, 13, 26, 33) or tile % 9 in (0, 4, 8))
    assert expected_hits(birds, hitting, len(wall), no_hit_counts_all=no_hit_counts_all) == pytest.approx(direct)


def _direct_worth(hand: Hand, rest: list[int], options: HongzhongOptions) -> float:
    """What the self-drawn win pays the winner, averaged over every set of birds from ``rest``
    (any tile of a self-drawn win may be named the winning one: they pay the same)."""
    win_tile = next(tile for tile in range(34) if hand.counts[tile])
    drawn = min(bird_count(options, holds_red=red_held(hand) > 0), len(rest))
    sets = list(combinations(range(len(rest)), drawn))
    total = 0
    for chosen in sets:
        birds = [rest[i] for i in chosen]
        context = WinContext(winner=SEAT, dealer=DEALER)
        total += score_hongzhong(hand, win_tile, options, context, birds=birds).payments[SEAT]
    return total / len(sets)


CASES = [
    # (14-tile hand, the only unseen tiles, options)
    ("123m456p789s1159s7z", "9s9s5s2m1p7z8s", HongzhongOptions()),
    ("123m456p789s1199s5s", "9s1s5s5s2m3m", HongzhongOptions(birds=4)),
    ("258m369p47s11s777z5m", "7z1m2m5m6m", HongzhongOptions(four_red_bonus=5)),
    ("1133557799m11p7z6s", "7z6s6s2m", HongzhongOptions(no_hit_counts_all=False)),
    ("123m456p789s1159s7z", "9s8s5s1p7z2p", HongzhongOptions(bird_counting=BirdCounting.FROM_WINNER, birds=2)),
    ("123m456p789s1199s5s", "9s1s2s6s2m3m", HongzhongOptions(bird_counting=BirdCounting.FROM_DEALER, birds=4)),
]
#: The seat valued and the dealer: seat 1, the dealer seat 0 (birds counted from the dealer hit on 2, 6).
SEAT, DEALER = 1, 0


@pytest.mark.parametrize(("tiles", "wall_tiles", "options"), CASES)
def test_one_draw_values_against_enumeration(tiles: str, wall_tiles: str, options: HongzhongOptions) -> None:
    hand = Hand.from_tiles(parse_mpsz(tiles))
    wall_list = parse_mpsz(wall_tiles)
    unseen = bytearray(34)
    for tile in wall_list:
        unseen[tile] += 1
    values = discard_values(hand, options, bytes(unseen), draws=1, seat=SEAT, dealer=DEALER)
    found = {value.tile: value for value in values.discards}
    shape = HongzhongShape(options)
    for discard, value in found.items():
        after = bytearray(hand.counts)
        after[discard] -= 1
        wins = 0
        worth = 0.0
        for index, tile in enumerate(wall_list):
            won = Hand(bytes(after), hand.melds).with_tile(tile)
            if shape.is_win(won):
                wins += 1
                worth += _direct_worth(won, wall_list[:index] + wall_list[index + 1 :], options)
        assert value.win_probability == pytest.approx(wins / len(wall_list)), discard
        assert value.expected_score == pytest.approx(worth / len(wall_list)), discard


def test_win_worth_of_four_red() -> None:
    # Four 红中: 2 + 喜分 5 + birds: the wall holds 1m (hit) and 2m only, 2 birds: one hit for sure.
    wall = bytearray(34)
    wall[0] = wall[1] = 1
    won = Hand.from_tiles(parse_mpsz("258m369p47s11s7777z"))
    assert win_worth(won, bytes(wall), HongzhongOptions(), HongzhongShape()) == 3 * (2 + 5 + 2)


def test_draws_per_seat_follow_the_wall() -> None:
    # 112 tiles, 53 dealt, the birds kept back: (112 - 53 - m) // 4.
    assert [draws_per_seat(HongzhongOptions(birds=m)) for m in (2, 4, 6)] == [14, 13, 13]


def test_unseen_counts_only_the_set() -> None:
    hand = Hand.from_tiles(parse_mpsz("123m456p789s1159s7z"))
    unseen = unseen_from(hand)
    assert sum(unseen) == 112 - 14
    assert unseen[RED] == 3 and all(unseen[t] == 0 for t in range(27, 33))
