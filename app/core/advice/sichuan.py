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
>>> hand = counts_from_tiles(parse_mpsz("1234567m2399p55s1s"))
>>> SUITS[choose_void_suit(hand)]
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

#: The three suits by number, as HTTP and mjai name them.
SUITS: Final = ("m", "p", "s")
EXCHANGED_TILES: Final = 3
_SUIT_SIZE: Final = 9


def without_suit(counts: bytes, suit: int) -> bytes:
    """``counts`` with every tile of ``suit`` (0 m, 1 p, 2 s) taken out.

    >>> from app.core.shape.tiles import counts_from_tiles, format_mpsz, parse_mpsz, tiles_from_counts
    >>> format_mpsz(tiles_from_counts(without_suit(counts_from_tiles(parse_mpsz("123m456p789s")), 1)))
    '123m789s'
    """
    start = suit * _SUIT_SIZE
    return counts[:start] + bytes(_SUIT_SIZE) + counts[start + _SUIT_SIZE :]


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


def choose_void_suit(counts: bytes, melded_suits: Sequence[int] = (), *, melds: int = 0) -> int:
    """The void suit for the concealed ``counts`` (see the module notes); never a suit in
    ``melded_suits`` (a melded tile cannot be thrown), unless every suit is melded.

    >>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
    >>> choose_void_suit(counts_from_tiles(parse_mpsz("123456789m1p2s33s")))  # 1p is alone: void p
    1
    """
    candidates = [suit for suit in range(len(SUITS)) if suit not in melded_suits] or list(range(len(SUITS)))

    def cost(suit: int) -> tuple[int, int, int]:
        longest_other = max(_suit_count(counts, other) for other in range(len(SUITS)) if other != suit)
        return void_distance(counts, suit, melds=melds), _suit_count(counts, suit), -longest_other

    return min(candidates, key=cost)


def _neighbours(counts: bytes, tile: Tile) -> int:
    """Copies held of ``tile`` and of the tiles within two of it in its suit, itself excluded once."""
    start = tile - tile % _SUIT_SIZE
    low, high = max(start, tile - 2), min(start + _SUIT_SIZE - 1, tile + 2)
    return sum(counts[low : high + 1]) - 1


def choose_exchange(counts: bytes) -> tuple[Tile, Tile, Tile]:
    """Three tiles of one suit to pass (see the module notes), sorted; the concealed ``counts``
    must hold three of some suit (13 tiles always do).

    >>> from app.core.shape.tiles import counts_from_tiles, format_mpsz, parse_mpsz
    >>> format_mpsz(choose_exchange(counts_from_tiles(parse_mpsz("123456789m1199p7s"))))  # 7s is alone: not three
    '119p'
    """
    best: tuple[tuple[int, int, int], tuple[Tile, Tile, Tile]] | None = None
    for suit in range(len(SUITS)):
        held = [tile for tile in range(suit * _SUIT_SIZE, (suit + 1) * _SUIT_SIZE) for _ in range(counts[tile])]
        if len(held) < EXCHANGED_TILES:
            continue
        for chosen in set(combinations(held, EXCHANGED_TILES)):
            left = bytearray(counts)
            for tile in chosen:
                left[tile] -= 1
            after = bytes(left)
            distance = min(void_distance(after, void) for void in range(len(SUITS)))
            key = (distance, len(held), sum(_neighbours(counts, tile) for tile in chosen))
            if best is None or key < best[0] or (key == best[0] and chosen < best[1]):
                best = (key, (chosen[0], chosen[1], chosen[2]))
    if best is None:
        raise ValueError("no suit holds three tiles to pass")
    return best[1]
