"""The advisor's Sichuan choices before the first discard: the void suit and the three tiles passed.

``void_distance`` is checked against a brute-force search (the fewest draws after which some
tiles held form the winning shape with no tile of the void suit); the two choices against
plain enumerations of every alternative.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.advice.sichuan import choose_exchange, choose_void_suit, void_distance
from app.core.shape.tiles import counts_from_tiles, parse_mpsz
from app.core.shape.void_suit import SUIT_NAMES

SUITED = range(27)


def _complete(counts: list[int], sets: int) -> bool:
    """Whether ``counts`` holds ``sets`` sets and a pair (plain recursion, the oracle's own)."""

    def sets_from(counts: list[int], wanted: int) -> bool:
        if wanted == 0:
            return True
        first = next((tile for tile in SUITED if counts[tile]), None)
        if first is None:
            return False
        # Either the first tile held starts a set, or it is left out of every set (a spare).
        if counts[first] >= 3:
            counts[first] -= 3
            found = sets_from(counts, wanted - 1)
            counts[first] += 3
            if found:
                return True
        if first % 9 <= 6 and counts[first + 1] and counts[first + 2]:
            for tile in (first, first + 1, first + 2):
                counts[tile] -= 1
            found = sets_from(counts, wanted - 1)
            for tile in (first, first + 1, first + 2):
                counts[tile] += 1
            if found:
                return True
        spare = counts[first]
        counts[first] = 0
        found = sets_from(counts, wanted)
        counts[first] = spare
        return found

    for pair in SUITED:
        if counts[pair] >= 2:
            counts[pair] -= 2
            found = sets_from(counts, sets)
            counts[pair] += 2
            if found:
                return True
    return False


def _brute_distance(tiles: list[int], void: int, melds: int) -> int:
    kept = [tile for tile in tiles if tile // 9 != void]
    allowed = [tile for tile in SUITED if tile // 9 != void]
    for draws in range(0, 3 * (4 - melds) + 3):
        for drawn in combinations_with_replacement(allowed, draws):
            counts = [0] * 34
            for tile in kept + list(drawn):
                counts[tile] += 1
            if max(counts) <= 4 and _complete(counts, 4 - melds):
                return draws
    raise AssertionError("no complete hand found")


# Small hands beside three declared sets: a set and a pair to complete, so the search is short.
small_hands = st.lists(st.integers(0, 26), min_size=1, max_size=5).filter(
    lambda tiles: max(tiles.count(tile) for tile in tiles) <= 4
)


@settings(max_examples=150, deadline=None)
@given(small_hands, st.integers(0, 2))
def test_void_distance_is_the_fewest_draws_to_a_complete_hand_without_the_suit(tiles: list[int], void: int) -> None:
    counts = counts_from_tiles(tiles)
    assert void_distance(counts, void, melds=3) == _brute_distance(tiles, void, 3)


thirteen = st.lists(st.integers(0, 26), min_size=13, max_size=13).filter(
    lambda tiles: max(tiles.count(tile) for tile in tiles) <= 4
)


@settings(max_examples=200, deadline=None)
@given(thirteen)
def test_the_void_suit_leaves_the_hand_nearest_complete(tiles: list[int]) -> None:
    counts = counts_from_tiles(tiles)
    chosen = choose_void_suit(counts)
    assert void_distance(counts, chosen) == min(void_distance(counts, suit) for suit in range(3))


@settings(max_examples=100, deadline=None)
@given(thirteen)
def test_the_exchange_passes_three_held_tiles_of_one_suit_and_no_better_three_exist(tiles: list[int]) -> None:
    counts = counts_from_tiles(tiles)
    passed = choose_exchange(counts)
    assert len(passed) == 3 and len({tile // 9 for tile in passed}) == 1
    assert all(passed.count(tile) <= counts[tile] for tile in passed)

    def after(three: tuple[int, ...]) -> int:
        left = list(tiles)
        for tile in three:
            left.remove(tile)
        return min(void_distance(counts_from_tiles(left), suit) for suit in range(3))

    every_three = {
        tuple(sorted(three))
        for suit in range(3)
        for three in combinations_with_replacement(range(suit * 9, suit * 9 + 9), 3)
        if all(three.count(tile) <= counts[tile] for tile in three)
    }
    assert after(passed) == min(after(three) for three in every_three)


def test_pinned_choices() -> None:
    # Two long suits and three lone bamboos: pass the bamboos, void the suit left empty.
    hand = counts_from_tiles(parse_mpsz("1234567m2399p158s"))
    assert choose_exchange(hand) == tuple(parse_mpsz("158s"))
    assert SUIT_NAMES[choose_void_suit(hand)] == "s"
    # A melded suit is never the void suit, even when it is the shortest.
    melded = counts_from_tiles(parse_mpsz("1234567m23499p"))
    assert choose_void_suit(melded, melded_suits=[2], melds=1) != 2
