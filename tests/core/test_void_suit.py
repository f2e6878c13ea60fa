"""The void suit (定缺) in the shape engine, under the ``sichuan`` preset.

The oracle knows nothing of the tables or of how the engine handles a void suit: it
enumerates every complete hand made of tiles the hand may win with (the two suits
that are not void; sichuan has no honours), melds and a pair or seven pairs (a quad
counting as two), and a hand's distance is the fewest tiles it must draw to hold one
of them.  Drawing those tiles and throwing the rest (void tiles first) is the fewest
exchanges that make the hand a win, so shanten is that distance less one: each void
tile held costs a draw, as it must go.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations, combinations_with_replacement

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld
from app.core.shape.rules import rule_profile
from app.core.shape.tiles import format_tile, parse_mpsz
from app.core.shape.void_suit import (
    VOID_SUIT_HELD,
    InvalidVoidSuit,
    VoidSuitMelded,
    parse_suit,
    suit_tiles,
)

SICHUAN = rule_profile("sichuan")
AUTO = Checker(SICHUAN)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _kept(void: int) -> tuple[int, ...]:
    return tuple(tile for tile in range(27) if tile // 9 != void)


@cache
def _complete_regular(void: int, melds: int) -> np.ndarray:
    """Every complete hand of ``melds`` melds and a pair in the two suits other than ``void``."""
    kept = _kept(void)
    shapes = []
    for tile in kept:
        pung = np.zeros(34, dtype=np.int8)
        pung[tile] = 3
        shapes.append(pung)
    for start in kept:
        if start % 9 <= 6:
            chow = np.zeros(34, dtype=np.int8)
            chow[[start, start + 1, start + 2]] = 1
            shapes.append(chow)
    table = np.array(shapes)
    if melds:
        groups = np.array(list(combinations_with_replacement(range(len(table)), melds)), dtype=np.int64)
        bodies = table[groups].sum(axis=1)
    else:
        bodies = np.zeros((1, 34), dtype=np.int8)
    pairs = np.zeros((len(kept), 34), dtype=np.int8)
    pairs[np.arange(len(kept)), list(kept)] = 2
    hands = (bodies[:, None, :] + pairs[None, :, :]).reshape(-1, 34)
    return hands[(hands <= 4).all(axis=1)]


@cache
def _complete_seven_pairs(void: int) -> np.ndarray:
    """Every seven pairs of the two suits other than ``void``, a quad counting as two pairs."""
    kept = _kept(void)
    hands = []
    for quads in range(4):
        for quad_kinds in combinations(kept, quads):
            rest = [tile for tile in kept if tile not in quad_kinds]
            for pair_kinds in combinations(rest, 7 - 2 * quads):
                counts = np.zeros(34, dtype=np.int8)
                counts[list(quad_kinds)] = 4
                counts[list(pair_kinds)] = 2
                hands.append(counts)
    return np.array(hands)


def brute_shanten(hand: Hand, void: int) -> int:
    """Fewest draws of tiles of the other suits that let ``hand`` hold a complete hand, less one."""
    held = np.frombuffer(hand.counts, dtype=np.uint8).astype(np.int8)
    melds = hand.tile_count // 3
    wanted = _complete_regular(void, melds)
    best = int(np.maximum(wanted - held, 0).sum(axis=1).min())
    if hand.tile_count >= 13 and not hand.melds:
        best = min(best, int(np.maximum(_complete_seven_pairs(void) - held, 0).sum(axis=1).min()))
    return best - 1


def brute_ukeire(hand: Hand, void: int) -> list[int]:
    """Tiles (not held four times) whose draw lowers the brute-force shanten of a 3n+1 hand."""
    now = brute_shanten(hand, void)
    return [
        tile
        for tile in range(27)
        if hand.counts[tile] < 4
        and brute_shanten(Hand(hand.counts[:tile] + bytes((hand.counts[tile] + 1,)) + hand.counts[tile + 1 :]), void)
        < now
    ]


def _random_hand(rng: random.Random, size: int) -> Hand:
    """Tiles from two suits, or from all three with a few of one (the void suit's, to throw)."""
    suits = rng.sample(range(3), rng.choice((2, 3)))
    wall = [tile for suit in suits for tile in suit_tiles(suit) for _ in range(4)]
    if rng.random() < 0.5:  # crowd a few kinds, where shapes and the four-copy limit meet
        kinds = rng.sample(sorted(set(wall)), 6)
        wall = [tile for tile in kinds for _ in range(4)]
    return Hand.from_tiles(rng.sample(wall, size))


def _hand_text(hand: Hand) -> str:
    return "".join(format_tile(tile) for tile in range(34) for _ in range(hand.counts[tile]))


# --- the engine against the brute force -------------------------------------------------


@pytest.mark.parametrize("size", [1, 2, 4, 5, 7, 8])
def test_small_hands_agree_with_the_brute_force(size: int) -> None:
    rng = random.Random(size)
    for _ in range(120):
        hand = _random_hand(rng, size)
        void = rng.randrange(3)
        result = AUTO.bound(void).shanten(hand)
        assert (result.shanten, result.void_suit) == (brute_shanten(hand, void), void), (_hand_text(hand), void)
        if size % 3 == 1:
            assert [t.tile for t in result.ukeire] == brute_ukeire(hand, void), (_hand_text(hand), void)


@pytest.mark.parametrize("size", [10, 11, 13, 14])
def test_whole_hands_agree_with_the_brute_force(size: int) -> None:
    rng = random.Random(100 + size)
    for _ in range(25):
        hand = _random_hand(rng, size)
        void = rng.randrange(3)
        result = AUTO.bound(void).shanten(hand, with_ukeire=False)
        assert result.shanten == brute_shanten(hand, void), (_hand_text(hand), void)


def _complete_without(counts: tuple[int, ...], void: int) -> bool:
    """Whether ``counts`` (27 number tiles) is melds and one pair with no tile of ``void``, by
    taking the lowest tile held as a pung, a chow's first tile or the pair (no tables)."""
    if any(counts[9 * void : 9 * void + 9]):
        return False

    def melds_only(rest: list[int]) -> bool:
        first = next((tile for tile, count in enumerate(rest) if count), None)
        if first is None:
            return True
        if rest[first] >= 3:
            rest[first] -= 3
            found = melds_only(rest)
            rest[first] += 3
            if found:
                return True
        if first % 9 <= 6 and rest[first + 1] and rest[first + 2]:
            for tile in (first, first + 1, first + 2):
                rest[tile] -= 1
            found = melds_only(rest)
            for tile in (first, first + 1, first + 2):
                rest[tile] += 1
            return found
        return False

    rest = list(counts)
    for pair in range(27):
        if rest[pair] >= 2:
            rest[pair] -= 2
            if melds_only(rest):
                return True
            rest[pair] += 2
    return False


def exchanges_to_win(hand: Hand, void: int, most: int) -> int | None:
    """Fewest exchanges (throw a tile held, draw any tile of the set, at most four copies) that
    make the 3n+2 ``hand`` complete without its void suit, by breadth-first search up to ``most``."""
    start = tuple(hand.counts[:27])
    level = {start}
    seen = {start}
    for exchanges in range(most + 1):
        if any(_complete_without(state, void) for state in level):
            return exchanges
        following = set()
        for state in level:
            for out in range(27):
                if not state[out]:
                    continue
                for drawn in range(27):
                    if drawn == out or state[drawn] >= 4:
                        continue
                    after = list(state)
                    after[out] -= 1
                    after[drawn] += 1
                    key = tuple(after)
                    if key not in seen:
                        seen.add(key)
                        following.add(key)
        level = following
    return None


@pytest.mark.parametrize("size", [2, 5])
def test_shanten_is_the_exchanges_to_a_win_without_the_void_suit(size: int) -> None:
    # The definition itself, searched: each exchange throws one tile and draws one, and shanten
    # is one less than the fewest that win. Five-tile hands are searched up to two exchanges.
    rng = random.Random(7 + size)
    checked = 0
    while checked < 40:
        hand = _random_hand(rng, size)
        void = rng.randrange(3)
        shanten = AUTO.bound(void).shanten(hand).shanten
        if shanten > 1:
            assert exchanges_to_win(hand, void, 2) is None, (_hand_text(hand), void)
            continue
        assert exchanges_to_win(hand, void, 2) == shanten + 1, (_hand_text(hand), void)
        checked += 1


def test_a_void_tile_costs_one_exchange() -> None:
    # Four melds of man and a lone 5p: with p void the 5p goes, and a pair is still to make.
    hand = Hand.from_tiles(parse_mpsz("123456789m111m5p"))
    assert AUTO.bound(1).shanten(hand).shanten == 1 == brute_shanten(hand, 1)
    # ... while with s void the 5p is a pair wait: ready.
    assert AUTO.bound(2).shanten(hand).shanten == 0
    assert AUTO.shanten(hand).void_suit == 2
    assert [w.tile for w in AUTO.waits(hand).waits] == [13]


def test_waits_never_include_the_void_suit() -> None:
    # 123m456m789m 11p 23p: void s, waits 1p 4p; void p, the four pins go and a meld and a pair are missing.
    hand = Hand.from_tiles(parse_mpsz("123456789m1123p"))
    waits = AUTO.bound(2).waits(hand)
    assert [w.tile for w in waits.waits] == [9, 12] and waits.void_suit == 2
    assert AUTO.bound(1).shanten(hand).shanten == brute_shanten(hand, 1) == 4
    assert not AUTO.bound(1).waits(hand).tenpai


def test_seven_pairs_with_a_void_pair() -> None:
    # Six pairs of man and a 9p: with s void, ready on 9p; with p void the 9p goes and a pair is still to make.
    hand = Hand.from_tiles(parse_mpsz("112233445566m9p"))
    assert [w.tile for w in AUTO.bound(2).waits(hand).waits] == [17]
    assert AUTO.bound(1).shanten(hand).shanten == brute_shanten(hand, 1) == 1
    assert not AUTO.bound(1).waits(hand).tenpai
    complete = Hand.from_tiles(parse_mpsz("11223344556699m"))
    assert AUTO.win(complete).win and AUTO.bound(1).win(complete).win
    assert not AUTO.bound(0).win(complete).win
    quad = Hand.from_tiles(parse_mpsz("1111223344m5566p"))  # a quad as two pairs (龙七对)
    assert AUTO.bound(2).win(quad).form == "seven_pairs" and AUTO.bound(2).win(quad).win


# --- wins ---------------------------------------------------------------------------------


def test_a_hand_holding_its_void_suit_does_not_win() -> None:
    hand = Hand.from_tiles(parse_mpsz("123m456m789m11p555s"))  # complete in shape, all three suits
    for void in range(3):
        result = AUTO.bound(void).win(hand)
        assert (result.win, result.reason, result.complete_shape, result.void_suit) == (
            False,
            VOID_SUIT_HELD,
            True,
            void,
        )
        assert not AUTO.bound(void).is_win(hand)
    auto = AUTO.win(hand)
    assert (auto.win, auto.reason, auto.void_suit) == (False, VOID_SUIT_HELD, None)
    assert auto.decompositions  # the shape's readings are still shown


def test_a_melded_void_tile_does_not_win() -> None:
    pon = [Meld.of("pon", parse_mpsz("555s"))]
    assert AUTO.win(Hand.from_tiles(parse_mpsz("123m456m789m11p"), pon)).reason == VOID_SUIT_HELD  # m, p and s
    hand = Hand.from_tiles(parse_mpsz("123m456m789m11m"), pon)
    assert AUTO.win(hand).win and AUTO.win(hand).void_suit == 1
    assert AUTO.bound(1).win(hand).win
    assert AUTO.bound(2).win(hand).reason == VOID_SUIT_HELD
    with pytest.raises(VoidSuitMelded) as raised:
        AUTO.bound(2).shanten(hand)
    assert raised.value.field == "melds[0].tiles"
    assert AUTO.shanten(hand).void_suit in (0, 1)  # the melded suit is never the one chosen


def test_melds_of_all_three_suits_leave_no_void_suit() -> None:
    melds = [Meld.of("pon", parse_mpsz(text)) for text in ("111m", "111p", "111s")]
    hand = Hand.from_tiles(parse_mpsz("2345m"), melds)
    with pytest.raises(VoidSuitMelded):
        AUTO.shanten(hand)
    assert AUTO.win(Hand.from_tiles(parse_mpsz("23455m"), melds)).reason == VOID_SUIT_HELD


def test_a_void_suit_needs_rules_with_one() -> None:
    with pytest.raises(InvalidVoidSuit):
        Checker(rule_profile("riichi"), void_suit=1)
    with pytest.raises(InvalidVoidSuit):
        parse_suit("z")


def test_other_rules_answer_without_a_void_suit() -> None:
    hand = Hand.from_tiles(parse_mpsz("123m456p789s1122z"))
    result = Checker(rule_profile("riichi")).shanten(hand)
    assert result.void_suit is None and result.shanten == 0


def test_discards_under_a_void_suit() -> None:
    hand = Hand.from_tiles(parse_mpsz("123456789m1123p5s"))
    by_tile = {option.tile: option for option in AUTO.bound(2).discards(hand)}
    # Throwing the 5s leaves the ready hand; throwing anything else keeps the 5s to throw.
    assert by_tile[22].shanten == 0 and [t.tile for t in by_tile[22].ukeire] == [9, 12]
    assert all(option.shanten >= 1 for tile, option in by_tile.items() if tile != 22)
    numbers = dict(AUTO.bound(2).discard_shanten_numbers(hand))
    assert numbers == {tile: option.shanten for tile, option in by_tile.items()}
    # With no suit named, the discards of the best suit to void (s).
    assert [o.shanten for o in AUTO.discards(hand)] == [o.shanten for o in AUTO.bound(2).discards(hand)]


# --- properties -----------------------------------------------------------------------------


@st.composite
def two_or_three_suit_hands(draw: st.DrawFn, remainder: int) -> Hand:
    """Hands of 3n+remainder tiles from two suits, often with a few tiles of a third."""
    main = draw(st.lists(st.sampled_from(range(3)), min_size=2, max_size=2, unique=True))
    stray = draw(st.integers(0, 2))
    size = draw(st.sampled_from([n for n in range(1, 15) if n % 3 == remainder]))
    wall = [tile for suit in main for tile in suit_tiles(suit) for _ in range(4)]
    third = [tile for tile in range(27) if tile // 9 not in main for _ in range(4)]
    stray = min(stray, size)
    tiles = draw(st.permutations(wall)).__getitem__(slice(0, size - stray)) + draw(st.permutations(third))[:stray]
    return Hand.from_tiles(tiles)


@SETTINGS
@given(two_or_three_suit_hands(2), st.sampled_from(range(3)))
def test_a_hand_wins_exactly_when_its_shanten_is_minus_one(hand: Hand, void: int) -> None:
    checker = AUTO.bound(void)
    shanten = checker.shanten(hand).shanten
    assert checker.is_win(hand) == checker.win(hand).win == (shanten == -1)
    if any(hand.counts[9 * void : 9 * void + 9]):
        assert shanten >= 0
    assert AUTO.is_win(hand) == AUTO.win(hand).win == (AUTO.shanten(hand).shanten == -1)


@SETTINGS
@given(two_or_three_suit_hands(1), st.sampled_from(range(3)))
def test_every_wait_wins_and_none_is_void(hand: Hand, void: int) -> None:
    checker = AUTO.bound(void)
    result = checker.shanten(hand)
    waits = checker.waits(hand)
    if any(hand.counts[9 * void : 9 * void + 9]):
        assert result.shanten >= 1 and not waits.tenpai  # the void tile must go, then a wait is one draw off
    for wait in waits.waits:
        assert wait.tile // 9 != void
        assert checker.win(hand.with_tile(wait.tile)).win
    for tile in range(27):
        if tile not in {w.tile for w in waits.waits} and hand.counts[tile] < 4:
            assert not checker.is_win(hand.with_tile(tile))
    assert all(t.tile // 9 != void for t in result.ukeire)


@SETTINGS
@given(two_or_three_suit_hands(1))
def test_no_suit_named_takes_the_best_suit(hand: Hand) -> None:
    auto = AUTO.shanten(hand)
    assert auto.shanten == min(AUTO.bound(void).shanten(hand).shanten for void in range(3))
    assert auto == AUTO.bound(auto.void_suit).shanten(hand)
    assert AUTO.shanten_number(hand) == auto.shanten
