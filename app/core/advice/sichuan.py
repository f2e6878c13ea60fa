"""The Sichuan choices before the first discard: the three tiles to pass (换三张) and the void suit (定缺).

Both are measured in draws: a hand's *distance* with a void suit is the number of tiles it
must still draw to be complete with no tile of that suit, its four sets and a pair or its
seven pairs (a quad counts as two, 龙七对).  The void suit's tiles belong to no block, so the
distance is that of the hand without them: each is a tile to throw, replaced by a draw
(:func:`~app.core.shape.shanten.regular_distance` counts draws, not tiles held).

The void suit is the one that leaves the hand nearest complete; among equals, the one
with fewer tiles (fewer forced discards before the hand can play on), then the one whose
removal leaves the longest other suit (nearest a flush, 清一色, worth two fans).

The three tiles passed are three of one suit, chosen so that the hand they leave is nearest
complete once its best void suit is set aside; ties go to the shortest suit (the tiles
received come back in one suit, and a short suit is the one to void), then to the tiles
with fewest neighbours held.  The tiles received are unknown when the choice is made.

>>> from app.core.shape.tiles import counts_from_tiles, format_mpsz, parse_mpsz
>>> from app.core.shape.void_suit import SUIT_NAMES
>>> hand = counts_from_tiles(parse_mpsz("1234567m2399p55s1s"))
>>> SUIT_NAMES[choose_void_suit(hand)]
's'
>>> format_mpsz(choose_exchange(hand))
'155s'
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Final

from app.core.shape.shanten import regular_distance, seven_pairs_distance
from app.core.shape.tiles import Tile
from app.core.shape.void_suit import SUITS, without_suit

EXCHANGED_TILES: Final = 3
_SUIT_SIZE: Final = 9


def void_distance(counts: bytes, suit: int, *, melds: int = 0) -> int:
    """Draws the concealed ``counts`` (beside ``melds`` declared sets) need to be complete without
    a tile of ``suit``: four sets and a pair, or, closed, seven pairs with a quad as two.

    >>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
    >>> hand = counts_from_tiles(parse_mpsz("123456789m1155p"))
    >>> void_distance(hand, 2), void_distance(hand, 1)  # void s: a pair to pon; void p: a set and a pair to draw
    (1, 5)
    >>> void_distance(counts_from_tiles(parse_mpsz("11223344556677m")), 2)  # seven pairs
    0
    """
    kept = without_suit(counts, suit)
    distance = regular_distance(kept, 4 - melds)
    if melds == 0:
        distance = min(distance, seven_pairs_distance(kept, quad_as_two=True))
    return distance


def _suit_count(counts: bytes, suit: int) -> int:
    return sum(counts[suit * _SUIT_SIZE : (suit + 1) * _SUIT_SIZE])


def void_cost(counts: bytes, suit: int, *, melds: int = 0) -> tuple[int, int, int]:
    """How :func:`choose_void_suit` orders the void suits, least first: the draws left
    without ``suit``, its tiles held, and minus the longest suit left."""
    longest_other = max(_suit_count(counts, other) for other in SUITS if other != suit)
    return void_distance(counts, suit, melds=melds), _suit_count(counts, suit), -longest_other


def choose_void_suit(counts: bytes, melded_suits: Sequence[int] = (), *, melds: int = 0) -> int:
    """The void suit for the concealed ``counts`` (see the module notes); never a suit in
    ``melded_suits`` (a melded tile cannot be thrown), unless every suit is melded.

    >>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
    >>> choose_void_suit(counts_from_tiles(parse_mpsz("123456789m1p2s33s")))  # 1p is alone: void p
    1
    """
    candidates = [suit for suit in SUITS if suit not in melded_suits] or list(SUITS)
    return min(candidates, key=lambda suit: void_cost(counts, suit, melds=melds))


def _neighbours(counts: bytes, tile: Tile) -> int:
    """Copies held of ``tile`` and of the tiles within two of it in its suit, itself excluded once."""
    start = tile - tile % _SUIT_SIZE
    low, high = max(start, tile - 2), min(start + _SUIT_SIZE - 1, tile + 2)
    return sum(counts[low : high + 1]) - 1


def exchange_cost(counts: bytes, passed: Sequence[Tile]) -> tuple[int, int, int]:
    """How :func:`choose_exchange` orders three tiles of one suit, least first: the draws the
    hand left needs with its best void suit, the tiles held of the suit passed, and the
    neighbours the passed tiles had.

    >>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
    >>> hand = counts_from_tiles(parse_mpsz("1234567m2399p158s"))
    >>> exchange_cost(hand, parse_mpsz("158s")), exchange_cost(hand, parse_mpsz("567m"))
    ((3, 3, 0), (6, 7, 9))
    """
    left = bytearray(counts)
    for tile in passed:
        left[tile] -= 1
    after = bytes(left)
    distance = min(void_distance(after, void) for void in SUITS)
    held = _suit_count(counts, passed[0] // _SUIT_SIZE)
    return distance, held, sum(_neighbours(counts, tile) for tile in passed)


def choose_exchange(counts: bytes) -> tuple[Tile, Tile, Tile]:
    """Three tiles of one suit to pass (see the module notes), sorted; the concealed ``counts``
    must hold three of some suit (13 tiles always do).

    >>> from app.core.shape.tiles import counts_from_tiles, format_mpsz, parse_mpsz
    >>> format_mpsz(choose_exchange(counts_from_tiles(parse_mpsz("123456789m1199p7s"))))  # 7s is alone: not three
    '119p'
    """
    choices = {
        chosen
        for suit in SUITS
        for chosen in combinations(
            [tile for tile in range(suit * _SUIT_SIZE, (suit + 1) * _SUIT_SIZE) for _ in range(counts[tile])],
            EXCHANGED_TILES,
        )
    }
    if not choices:
        raise ValueError("no suit holds three tiles to pass")
    best = min(choices, key=lambda chosen: (exchange_cost(counts, chosen), chosen))
    return best[0], best[1], best[2]
