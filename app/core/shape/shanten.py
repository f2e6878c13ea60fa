"""Exact distances to each winning form, and the draws that shorten them.

A *distance* is the number of tiles a hand still has to draw to be complete:
the minimum, over complete hands ``w`` (at most four copies of any tile), of
the tiles ``w`` has that the hand lacks.  Shanten is ``distance - 1``.  This is
the "minimum number of tile replacements" definition, exact under the 4-copy
limit; block-counting formulas are not (``123456789m1111z`` is 1-shanten, not
tenpai: the fifth East does not exist).

Counts are ``bytes`` of length 34 (``counts[tile]``), so a suit is a slice.

>>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
>>> hand = counts_from_tiles(parse_mpsz("123456789m1111z"))
>>> regular_distance(hand, 4) - 1
1
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import permutations
from operator import itemgetter
from typing import Any, Final

from app.core.shape.tables import VECTOR_LENGTH, DistanceVector, min_plus, tables
from app.core.shape.tiles import HONORS, MAX_MELDS, NUM_TILE_KINDS, ORPHANS, Tile

_POW5: Final = tuple(5**i for i in range(9))
_orphan_counts = itemgetter(*ORPHANS)
_ORPHAN_SET: Final = frozenset(ORPHANS)
_NO_CAPS: Final = b"\x04" * NUM_TILE_KINDS


def regular_distance(counts: bytes, melds_wanted: int) -> int:
    """Tiles to draw to reach ``melds_wanted`` melds and a pair (4-copy exact).

    >>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
    >>> regular_distance(counts_from_tiles(parse_mpsz("1111222233334z")), 4)
    4
    """
    t = tables()
    number = t.number_suit
    index = number.index
    class_of = number.class_of
    honors = t.honors
    man_pin = t.man_pin[class_of[index[counts[0:9]]] * t.number_classes + class_of[index[counts[9:18]]]]
    sou_honors = t.sou_honors[
        class_of[index[counts[18:27]]] * t.honor_classes + honors.class_of[honors.index[counts[27:34]]]
    ]
    return t.final[man_pin * t.final_stride + sou_honors * 5 + melds_wanted]


def shanten_from_distance(distance: Any, wildcards: Any = 0) -> Any:
    """Shanten of a form ``distance`` draws from complete when ``wildcards`` cover missing tiles.

    Each wildcard stands for one missing tile, so the effective distance is
    ``max(0, distance - wildcards)``, and shanten is one less.  Written with arithmetic
    only, so it serves ints (the engine) and numpy arrays (the batch path) alike.

    >>> shanten_from_distance(3, 1), shanten_from_distance(1, 2), shanten_from_distance(0)
    (1, -1, -1)
    """
    return (distance - wildcards) * (distance > wildcards) - 1


def seven_pairs_distance(counts: bytes, *, quad_as_two: bool = False) -> int:
    """Tiles to draw for seven pairs; ``quad_as_two`` lets four of a kind count twice.

    >>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
    >>> hand = counts_from_tiles(parse_mpsz("1111m223344556p"))
    >>> seven_pairs_distance(hand), seven_pairs_distance(hand, quad_as_two=True)
    (3, 1)
    """
    singles = counts.count(1)
    held_twice = NUM_TILE_KINDS - counts.count(0) - singles  # kinds with two or more copies
    if quad_as_two:
        triples = counts.count(3)
        quads = counts.count(4)
        return seven_pairs_from_profile(singles, held_twice - triples - quads, triples, quads, True)
    if held_twice >= 7:
        return 0
    needed = 7 - held_twice
    cheap = singles if singles < needed else needed
    return cheap + 2 * (needed - cheap)


def seven_pairs_from_profile(singles: int, doubles: int, triples: int, quads: int, quad_as_two: bool) -> int:
    """:func:`seven_pairs_distance` from the kinds held once, twice, three and four times."""
    # Choose 7 pair slots, cheapest first: a kind held twice or more is a free
    # slot, a single costs one draw, anything else two.
    free = doubles + triples + quads + (quads if quad_as_two else 0)
    if free >= 7:
        return 0
    one_draw = singles + (triples if quad_as_two else 0)
    needed = 7 - free
    cheap = min(one_draw, needed)
    return cheap + 2 * (needed - cheap)


def thirteen_orphans_distance(counts: bytes) -> int:
    """Tiles to draw for thirteen orphans.

    >>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
    >>> thirteen_orphans_distance(counts_from_tiles(parse_mpsz("19m19p19s1234567z")))
    1
    """
    held: tuple[int, ...] = _orphan_counts(counts)
    kinds = 13 - held.count(0)
    return thirteen_orphans_from_profile(kinds, held.count(1))


def thirteen_orphans_from_profile(kinds: int, singles: int) -> int:
    """:func:`thirteen_orphans_distance` from the orphan kinds held and those held once."""
    has_pair = kinds > singles
    return 14 - kinds - has_pair


# --- improving draws ---------------------------------------------------------


def regular_improving_draws(counts: bytes, melds_wanted: int) -> tuple[int, bytes]:
    """The regular distance and, as 34 flag bytes, the tiles whose draw lowers it.

    A tile already held four times cannot be drawn.  Only the drawn tile's
    suit changes, so each suit's nine "class after drawing tile i" bytes are
    pushed through three ``bytes.translate`` tables: to the combined class with
    the other suits, to the hand distance, to a flag "lower than now".

    >>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
    >>> distance, flags = regular_improving_draws(counts_from_tiles(parse_mpsz("123m456p789s1112z")), 4)
    >>> distance, flagged_tiles(flags)
    (1, (28,))
    """
    return regular_draws_from_keys(*suit_keys(counts), melds_wanted)


def suit_keys(counts: bytes) -> tuple[int, int, int, int]:
    """Base-5 keys of the man, pin, sou and honour suits."""
    t = tables()
    index = t.number_suit.index
    return index[counts[0:9]], index[counts[9:18]], index[counts[18:27]], t.honors.index[counts[27:34]]


def regular_draws_from_keys(key_m: int, key_p: int, key_s: int, key_h: int, melds_wanted: int) -> tuple[int, bytes]:
    """:func:`regular_improving_draws` from the four suit keys (see :func:`suit_keys`)."""
    t = tables()
    number = t.number_suit
    class_of = number.class_of
    following = number.next_classes
    honors = t.honors
    return regular_draws_from_classes(
        class_of[key_m],
        following[key_m * 9 : key_m * 9 + 9],
        class_of[key_p],
        following[key_p * 9 : key_p * 9 + 9],
        class_of[key_s],
        following[key_s * 9 : key_s * 9 + 9],
        honors.class_of[key_h],
        honors.next_classes[key_h * 7 : key_h * 7 + 7],
        melds_wanted,
    )


def regular_draws_from_classes(
    c_m: int,
    next_m: bytes,
    c_p: int,
    next_p: bytes,
    c_s: int,
    next_s: bytes,
    c_h: int,
    next_h: bytes,
    melds_wanted: int,
) -> tuple[int, bytes]:
    """:func:`regular_improving_draws` from each suit's class and its classes after each draw.

    ``next_*`` holds, per tile of the suit, the suit's class after drawing it
    (255: the tile cannot be drawn).  The suits usually come from the shared
    tables (:func:`regular_draws_from_keys`); a suit with absent tiles from
    :class:`AbsentShapes`.
    """
    t = tables()
    man_pin = t.man_pin[c_m * t.number_classes + c_p]
    sou_honors = t.sou_honors[c_s * t.honor_classes + c_h]
    distance = t.final[man_pin * t.final_stride + sou_honors * 5 + melds_wanted]
    if distance == 0:
        return distance, _NO_FLAGS
    below = t.below[distance]
    by_man_pin = t.final_by_man_pin[sou_honors * 5 + melds_wanted]
    by_sou_honors = t.final_by_sou_honors[man_pin * 5 + melds_wanted]
    flags = (
        next_m.translate(t.man_pin_with[c_p]).translate(by_man_pin).translate(below)
        + next_p.translate(t.man_pin_with[c_m]).translate(by_man_pin).translate(below)
        + next_s.translate(t.sou_honors_with_honor[c_h]).translate(by_sou_honors).translate(below)
        + next_h.translate(t.sou_honors_with_sou[c_s]).translate(by_sou_honors).translate(below)
    )
    return distance, flags


def flagged_tiles(flags: bytes) -> tuple[int, ...]:
    """The tiles whose flag byte is 1, ascending.

    >>> flagged_tiles(bytes(33) + b"\\x01")
    (33,)
    """
    m, p, s, z = tables().flag_tiles
    return m[flags[0:9]] + p[flags[9:18]] + s[flags[18:27]] + z[flags[27:34]]


def seven_pairs_improving_draws(counts: bytes, *, quad_as_two: bool) -> bytes:
    """Flags (34 bytes) of the tiles whose draw lowers the seven-pairs distance.

    Only how many copies a kind holds matters.  With ``needed`` pairs still
    missing, a draw that completes a pair (a second copy; with quads as two
    pairs also a fourth) always helps; one that starts a new candidate (a
    first copy; with quads as two pairs also a third) helps only while there
    are fewer one-draw candidates than missing pairs.

    >>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
    >>> flagged_tiles(seven_pairs_improving_draws(counts_from_tiles(parse_mpsz("1122334455667m")), quad_as_two=False))
    (6,)
    """
    singles = counts.count(1)
    held_twice = NUM_TILE_KINDS - counts.count(0) - singles
    if quad_as_two:
        triples = counts.count(3)
        quads = counts.count(4)
        free = held_twice + quads
        one_draw = singles + triples
    else:
        free = held_twice
        one_draw = singles
    if free >= 7:
        return _NO_FLAGS
    return counts.translate(_SEVEN_PAIRS_DRAWS[quad_as_two][one_draw < 7 - free])


def thirteen_orphans_improving_draws(counts: bytes) -> bytes:
    """Flags (34 bytes) of the tiles whose draw lowers the thirteen-orphans distance."""
    has_pair = max(_orphan_counts(counts)) >= 2
    by_count = _ORPHAN_DRAWS_PAIRED if has_pair else _ORPHAN_DRAWS_UNPAIRED
    flags = int.from_bytes(counts.translate(by_count), "little") & _ORPHAN_BITS
    return flags.to_bytes(NUM_TILE_KINDS, "little")


_NO_FLAGS: Final = bytes(NUM_TILE_KINDS)
# [quad_as_two][a new candidate still helps] -> flag by copies held (0, 1, 2, 3).
_SEVEN_PAIRS_DRAWS: Final = (
    (bytes([0, 1]) + bytes(254), bytes([1, 1]) + bytes(254)),
    (bytes([0, 1, 0, 1]) + bytes(252), bytes([1, 1, 1, 1]) + bytes(252)),
)
_ORPHAN_BITS: Final = int.from_bytes(bytes(1 if tile in _ORPHAN_SET else 0 for tile in range(NUM_TILE_KINDS)), "little")
# An orphan not held helps; a second copy helps only while no orphan is paired.
_ORPHAN_DRAWS_PAIRED: Final = bytes([1]) + bytes(255)
_ORPHAN_DRAWS_UNPAIRED: Final = bytes([1, 1]) + bytes(254)


# --- the capped regular form ---------------------------------------------------
#
# With ``melded_tiles_count_toward_limit`` a complete hand may hold only
# ``4 - melded`` copies of a tile, so suits with melded tiles leave the shared
# tables: their vectors come from this small dynamic program instead.


@lru_cache(maxsize=65536)
def suit_vector(counts: tuple[int, ...], caps: tuple[int, ...], chows: bool) -> DistanceVector:
    """Distance vector of one suit under per-tile caps (a direct DP).

    ``vector[m * 2 + p]``: tiles to draw so the suit holds m melds and p pairs,
    no tile above its cap.  Used for capped suits and to check the tables.

    >>> suit_vector((1, 1, 0, 0, 0, 0, 0, 0, 0), (4,) * 9, True)[2]
    1
    >>> suit_vector((3, 0, 0, 0, 0, 0, 0, 0, 0), (2,) + (4,) * 8, True)[2]
    2
    """
    width = len(counts)
    infinity = 255

    @cache
    def walk(position: int, open_one: int, open_two: int) -> DistanceVector:
        # open_one: chows needing this tile and the next; open_two: chows needing only this tile.
        if position == width:
            return (
                (0,) + (infinity,) * (VECTOR_LENGTH - 1) if open_one == open_two == 0 else (infinity,) * VECTOR_LENGTH
            )
        best = [infinity] * VECTOR_LENGTH
        can_start = chows and position <= width - 3
        for new_chows in range(5 if can_start else 1):
            for pung in (0, 1):
                for pair in (0, 1):
                    used = open_one + open_two + new_chows + 3 * pung + 2 * pair
                    if used > caps[position]:
                        continue
                    cost = max(0, used - counts[position])
                    rest = walk(position + 1, new_chows, open_one)
                    added_melds = new_chows + pung
                    for m in range(MAX_MELDS + 1 - added_melds):
                        for p in range(2 - pair):
                            value = rest[m * 2 + p]
                            if value < infinity:
                                slot = (m + added_melds) * 2 + p + pair
                                if cost + value < best[slot]:
                                    best[slot] = cost + value
        return tuple(best)

    return walk(0, 0, 0)


def capped_regular_distance(counts: bytes, caps: bytes, melds_wanted: int) -> int:
    """:func:`regular_distance` with a per-tile cap on the complete hand.

    >>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
    >>> hand = counts_from_tiles(parse_mpsz("1m"))
    >>> capped_regular_distance(hand, bytes([1]) + bytes([4]) * 33, 0)
    2
    """
    if caps == _NO_CAPS:
        return regular_distance(counts, melds_wanted)
    t = tables()
    parts = []
    for start, width, chows, table in (
        (0, 9, True, t.number_suit),
        (9, 9, True, t.number_suit),
        (18, 9, True, t.number_suit),
        (27, 7, False, t.honors),
    ):
        suit_caps = caps[start : start + width]
        suit_counts = counts[start : start + width]
        if suit_caps == _NO_CAPS[:width]:
            parts.append(table.vector(suit_counts))
        else:
            parts.append(suit_vector(tuple(suit_counts), tuple(suit_caps), chows))
    combined = min_plus(min_plus(parts[0], parts[1]), min_plus(parts[2], parts[3]))
    return combined[melds_wanted * 2 + 1]


# --- absent tiles ----------------------------------------------------------------
#
# Sanma has no 2m-8m.  A complete hand then never holds them, so a suit missing
# tiles has its own distance vector: the capped one of :func:`suit_vector`,
# where entries for more melds than the suit can form are impossible (sanma's
# man suit holds at most 111m 999m).  Completing each impossible entry from the
# possible ones at 3 draws a meld and 2 a pair changes no whole-hand distance:
# the other suits can always take those melds at that price (a hand uses at
# most 14 tiles, so of the 25 kinds outside the suit some are untouched), and a
# completed entry is never below what such a split costs.  For every man suit
# sanma allows, the completed vector is one of the shared tables' classes
# (tests/core/test_sanma_shape.py checks that, and the answers against a brute
# force): the shared tables answer sanma with the man suit's class looked up
# here.  A suit whose completed vector is not a shared class (possible only for
# other absent sets) makes :func:`absent_regular_draws` return None, and the
# caller takes the exact capped path.


class AbsentShapes:
    """Suit classes of the regular form when the tiles ``absent`` do not exist.

    >>> shapes = AbsentShapes(tuple(range(1, 8)))  # sanma: no 2m-8m
    >>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
    >>> hand = counts_from_tiles(parse_mpsz("1111m9999m123p55p"))
    >>> absent_regular_draws(hand, 4, shapes)[0] - 1, regular_distance(hand, 4) - 1  # 2m3m cannot help
    (2, 1)
    """

    __slots__ = ("caps", "_suit_caps")

    def __init__(self, absent: tuple[int, ...]) -> None:
        caps = bytearray(_NO_CAPS)
        for tile in absent:
            caps[tile] = 0
        #: Copies of each tile a complete hand may hold: 0 for an absent tile.
        self.caps = bytes(caps)
        self._suit_caps = tuple(
            None if self.caps[start : start + width] == _NO_CAPS[:width] else tuple(self.caps[start : start + width])
            for start, width in _SUIT_SPANS
        )

    def suit_entries(self, keys: tuple[int, int, int, int]) -> tuple[tuple[int, bytes], ...] | None:
        """Per suit: (class, classes after drawing each tile), or None if a suit has no shared class."""
        t = tables()
        out = []
        for suit, key in enumerate(keys):
            caps = self._suit_caps[suit]
            if caps is None:
                table = t.honors if suit == 3 else t.number_suit
                width = table.width
                out.append((table.class_of[key], table.next_classes[key * width : key * width + width]))
            else:
                entry = _absent_suit_entry(caps, key)
                if entry is None:
                    return None
                out.append(entry)
        return tuple(out)


def absent_regular_draws(
    counts: bytes, melds_wanted: int, shapes: AbsentShapes, keys: tuple[int, int, int, int] | None = None
) -> tuple[int, bytes] | None:
    """The regular distance and improving draws (34 flag bytes) without ``shapes``' absent tiles.

    An absent tile is never flagged.  None when a suit's distances are not a
    shared class (then use :func:`capped_regular_distance` with ``shapes.caps``).
    """
    entries = shapes.suit_entries(keys or suit_keys(counts))
    if entries is None:
        return None
    (c_m, next_m), (c_p, next_p), (c_s, next_s), (c_h, next_h) = entries
    return regular_draws_from_classes(c_m, next_m, c_p, next_p, c_s, next_s, c_h, next_h, melds_wanted)


_SUIT_SPANS: Final = ((0, 9), (9, 9), (18, 9), (27, 7))


def completed_vector(vector: DistanceVector) -> DistanceVector:
    """``vector`` with each impossible entry (255) priced from the possible ones: 3 a meld, 2 a pair.

    >>> completed_vector((0, 0, 0, 2, 3, 255, 255, 255, 255, 255))  # sanma's 1111m: like 111m
    (0, 0, 0, 2, 3, 5, 6, 8, 9, 11)
    """
    out = []
    for melds in range(MAX_MELDS + 1):
        for pairs in (0, 1):
            out.append(
                min(
                    vector[m * 2 + p] + 3 * (melds - m) + 2 * (pairs - p)
                    for m in range(melds + 1)
                    for p in range(pairs + 1)
                    if vector[m * 2 + p] < 255
                )
            )
    return tuple(out)


@lru_cache(maxsize=8)
def _class_of_vector(width: int) -> dict[DistanceVector, int]:
    table = tables().honors if width == 7 else tables().number_suit
    return {vector: index for index, vector in enumerate(table.vectors)}


@lru_cache(maxsize=1 << 16)
def _absent_suit_class(caps: tuple[int, ...], key: int) -> int | None:
    """The shared class of a capped suit's completed vector, or None."""
    width = len(caps)
    counts = tuple((key // _POW5[i]) % 5 for i in range(width))
    return _class_of_vector(width).get(completed_vector(suit_vector(counts, caps, width == 9)))


@lru_cache(maxsize=1 << 16)
def _absent_suit_entry(caps: tuple[int, ...], key: int) -> tuple[int, bytes] | None:
    """(class, class after drawing each tile: 255 where absent or held four times) of a capped suit."""
    own = _absent_suit_class(caps, key)
    if own is None:
        return None
    following = []
    for position, cap in enumerate(caps):
        if (key // _POW5[position]) % 5 >= cap:
            following.append(255)
            continue
        after = _absent_suit_class(caps, key + _POW5[position])
        if after is None:
            return None
        following.append(after)
    return own, bytes(following)


# --- the knitted forms (Chinese Official rules) ------------------------------------
#
# A knitted straight (组合龙) is one of six assignments of the patterns 147, 258
# and 369 to the three suits: nine tiles, one of each.  The knitted-straight
# form is those nine tiles, ``melds_wanted`` melds (one closed, none with a
# declared meld) and a pair; honours and knitted tiles (全不靠) is 14 distinct
# tiles out of one assignment's nine and the seven honours.
#
# For one assignment K the distance splits exactly.  A complete hand is K + R
# (R: the melds and the pair), and for each tile of K the hand holds, one copy
# is used for K: ``max(0, 1 + R_t - h_t) = max(0, R_t - (h_t - 1))``, so
#     distance = (9 - tiles of K held) + regular distance of the rest,
# the rest being the hand less one copy of each tile of K it holds.  One meld
# and a pair hold at most three copies of a tile, so K's copy never breaks the
# 4-copy limit.  Honours and knitted is 14 minus the distinct tiles of the
# sixteen held (at most 14).  Both are minimised over the six assignments.

#: Positions within a number suit of the patterns 147, 258 and 369.
KNITTED_PATTERNS: Final = ((0, 3, 6), (1, 4, 7), (2, 5, 8))
#: The pattern (index into :data:`KNITTED_PATTERNS`) of the man, pin and sou suits in each
#: of the six assignments.
KNITTED_ASSIGNMENTS: Final = tuple(permutations(range(3)))
#: The nine tiles of each knitted straight, in the order of :data:`KNITTED_ASSIGNMENTS`.
KNITTED_STRAIGHTS: Final[tuple[tuple[Tile, ...], ...]] = tuple(
    tuple(
        sorted(9 * suit + position for suit, pattern in enumerate(assignment) for position in KNITTED_PATTERNS[pattern])
    )
    for assignment in KNITTED_ASSIGNMENTS
)
#: Tiles needed by a knitted straight besides its nine, and by honours and knitted.
KNITTED_STRAIGHT_SIZE: Final = 9
HONORS_AND_KNITTED_SIZE: Final = 14
_HELD: Final = bytes([0]) + bytes([1]) * 255
_HONORS_SLICE: Final = slice(HONORS[0], HONORS[-1] + 1)


def _pattern_parts() -> dict[bytes, tuple[tuple[int, int, int], tuple[int, int, int]]]:
    """Per presence string of a number suit (9 bytes, 0/1): the tiles held of each pattern, and
    the base-5 key deltas that take one copy of each of them out of the suit."""
    out = {}
    for mask in range(2**9):
        held = bytes((mask >> i) & 1 for i in range(9))
        counts = [sum(held[i] for i in pattern) for pattern in KNITTED_PATTERNS]
        deltas = [sum(_POW5[i] for i in pattern if held[i]) for pattern in KNITTED_PATTERNS]
        out[held] = ((counts[0], counts[1], counts[2]), (deltas[0], deltas[1], deltas[2]))
    return out


_PATTERN_PARTS: Final = _pattern_parts()
#: Per assignment: its nine tiles as a 34-byte little-endian integer of 0/1 flags.
_KNITTED_BITS: Final = tuple(sum(1 << (8 * tile) for tile in straight) for straight in KNITTED_STRAIGHTS)
_HONOR_BITS: Final = sum(1 << (8 * tile) for tile in HONORS)


def _held_by_assignment(man: tuple[int, int, int], pin: tuple[int, int, int], sou: tuple[int, int, int]) -> list[int]:
    """Tiles of each knitted straight held, from each suit's tiles held per pattern."""
    m0, m1, m2 = man
    p0, p1, p2 = pin
    s0, s1, s2 = sou
    # The order of KNITTED_ASSIGNMENTS: permutations of (0, 1, 2).
    return [m0 + p1 + s2, m0 + p2 + s1, m1 + p0 + s2, m1 + p2 + s0, m2 + p0 + s1, m2 + p1 + s0]


def knitted_straight_distances(
    counts: bytes, melds_wanted: int, keys: tuple[int, int, int, int] | None = None, *, at_most: int = 255
) -> tuple[int, ...]:
    """Per knitted straight (:data:`KNITTED_STRAIGHTS`): tiles to draw for it plus ``melds_wanted`` melds and a pair.

    An entry above ``at_most`` may be any value above it (the search skips
    assignments that cannot reach it).  ``keys``: the suit keys of ``counts``
    (see :func:`suit_keys`) when the caller has them.  No caps: see
    :func:`capped_knitted_straight_distances`.

    >>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
    >>> knitted_straight_distances(counts_from_tiles(parse_mpsz("147m258p369s55777z")), 1)
    (0, 6, 6, 9, 9, 6)
    """
    presence = counts.translate(_HELD)
    held_m, delta_m = _PATTERN_PARTS[presence[0:9]]
    held_p, delta_p = _PATTERN_PARTS[presence[9:18]]
    held_s, delta_s = _PATTERN_PARTS[presence[18:27]]
    missing = [9 - held for held in _held_by_assignment(held_m, held_p, held_s)]
    if min(missing) > at_most:
        return tuple(missing)
    t = tables()
    class_of = t.number_suit.class_of
    n_number = t.number_classes
    n_honor = t.honor_classes
    man_pin = t.man_pin
    sou_honors = t.sou_honors
    final = t.final
    stride = t.final_stride
    key_m, key_p, key_s, key_h = keys or suit_keys(counts)
    honors_class = t.honors.class_of[key_h]
    for assignment, (a, b, c) in enumerate(KNITTED_ASSIGNMENTS):
        lacking = missing[assignment]
        if lacking <= at_most:
            combined_mp = man_pin[class_of[key_m - delta_m[a]] * n_number + class_of[key_p - delta_p[b]]]
            combined_sh = sou_honors[class_of[key_s - delta_s[c]] * n_honor + honors_class]
            missing[assignment] = lacking + final[combined_mp * stride + combined_sh * 5 + melds_wanted]
    return tuple(missing)


def knitted_forms_distances(
    counts: bytes,
    melds_wanted: int | None,
    closed: bool,
    keys: tuple[int, int, int, int] | None = None,
    *,
    at_most: int = 255,
) -> tuple[int | None, int | None]:
    """The knitted-straight distance with ``melds_wanted`` melds and a pair (None when
    ``melds_wanted`` is None) and the honours-and-knitted distance (None unless ``closed``).

    One look at the hand serves both (the engine's path).  The knitted
    straight's distance is exact when it is at most ``at_most``, else it is
    some value above ``at_most``.

    >>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
    >>> knitted_forms_distances(counts_from_tiles(parse_mpsz("147m258p36s123m55z")), 1, True)
    (1, 5)
    """
    presence = counts.translate(_HELD)
    held_m, delta_m = _PATTERN_PARTS[presence[0:9]]
    held_p, delta_p = _PATTERN_PARTS[presence[9:18]]
    held_s, delta_s = _PATTERN_PARTS[presence[18:27]]
    held = _held_by_assignment(held_m, held_p, held_s)
    most = max(held)
    honors = None
    if closed:
        distinct = most + presence[_HONORS_SLICE].count(1)
        honors = HONORS_AND_KNITTED_SIZE - distinct if distinct < HONORS_AND_KNITTED_SIZE else 0
    if melds_wanted is None or 9 - most > at_most:
        return (None if melds_wanted is None else 9 - most), honors
    t = tables()
    class_of = t.number_suit.class_of
    key_m, key_p, key_s, key_h = keys or suit_keys(counts)
    honors_class = t.honors.class_of[key_h]
    best = at_most + 1
    for assignment, (a, b, c) in enumerate(KNITTED_ASSIGNMENTS):
        missing = 9 - held[assignment]
        if missing < best:  # the rest's distance is never negative
            combined_mp = t.man_pin[class_of[key_m - delta_m[a]] * t.number_classes + class_of[key_p - delta_p[b]]]
            combined_sh = t.sou_honors[class_of[key_s - delta_s[c]] * t.honor_classes + honors_class]
            distance = missing + t.final[combined_mp * t.final_stride + combined_sh * 5 + melds_wanted]
            if distance < best:
                best = distance
    return best, honors


def knitted_straight_distance(counts: bytes, melds_wanted: int) -> int:
    """Tiles to draw for a knitted straight (组合龙), ``melds_wanted`` melds and a pair.

    >>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
    >>> knitted_straight_distance(counts_from_tiles(parse_mpsz("147m258p36s123m55z")), 1)
    1
    >>> knitted_straight_distance(counts_from_tiles(parse_mpsz("147m258p369s1z")), 0)  # a pair after one meld
    1
    """
    return min(knitted_straight_distances(counts, melds_wanted))


def knitted_straight_improving_draws(
    counts: bytes, melds_wanted: int, distance: int, keys: tuple[int, int, int, int] | None = None
) -> bytes:
    """Flags (34 bytes) of the draws that lower the knitted-straight distance below ``distance``.

    ``distance`` is the form's distance (or a smaller one: then no assignment
    ties and nothing is flagged).  A draw helps an assignment at ``distance``
    when it is one of its missing tiles or improves the rest's regular form.

    >>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
    >>> hand = counts_from_tiles(parse_mpsz("147m258p36s123m55z"))
    >>> flagged_tiles(knitted_straight_improving_draws(hand, 1, 1))
    (26,)
    """
    if distance <= 0:
        return _NO_FLAGS
    key_m, key_p, key_s, key_h = keys = keys or suit_keys(counts)
    presence_bytes = counts.translate(_HELD)
    presence = int.from_bytes(presence_bytes, "little")
    _, delta_m = _PATTERN_PARTS[presence_bytes[0:9]]
    _, delta_p = _PATTERN_PARTS[presence_bytes[9:18]]
    _, delta_s = _PATTERN_PARTS[presence_bytes[18:27]]
    merged = 0
    distances = knitted_straight_distances(counts, melds_wanted, keys, at_most=distance)
    for assignment, (a, b, c) in enumerate(KNITTED_ASSIGNMENTS):
        if distances[assignment] != distance:
            continue
        merged |= _KNITTED_BITS[assignment] & ~presence
        # The rest's draws (none when the rest is already complete).
        rest = (key_m - delta_m[a], key_p - delta_p[b], key_s - delta_s[c], key_h)
        merged |= int.from_bytes(regular_draws_from_keys(*rest, melds_wanted)[1], "little")
    return merged.to_bytes(NUM_TILE_KINDS, "little")


def honors_and_knitted_distance(counts: bytes) -> int:
    """Tiles to draw for honours and knitted tiles (全不靠): 14 distinct tiles of one
    knitted straight's nine and the seven honours.

    >>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
    >>> honors_and_knitted_distance(counts_from_tiles(parse_mpsz("147m25p369s12345z")))
    1
    """
    presence = counts.translate(_HELD)
    held = max(
        _held_by_assignment(
            _PATTERN_PARTS[presence[0:9]][0], _PATTERN_PARTS[presence[9:18]][0], _PATTERN_PARTS[presence[18:27]][0]
        )
    ) + presence[_HONORS_SLICE].count(1)
    return HONORS_AND_KNITTED_SIZE - held if held < HONORS_AND_KNITTED_SIZE else 0


def honors_and_knitted_improving_draws(counts: bytes, distance: int) -> bytes:
    """Flags (34 bytes) of the draws that lower the honours-and-knitted distance below ``distance``:
    the missing tiles of each assignment at that distance.

    >>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
    >>> flagged_tiles(honors_and_knitted_improving_draws(counts_from_tiles(parse_mpsz("147m25p369s12345z")), 1))
    (16, 32, 33)
    """
    if distance <= 0:
        return _NO_FLAGS
    presence_bytes = counts.translate(_HELD)
    presence = int.from_bytes(presence_bytes, "little")
    honors_held = presence_bytes[_HONORS_SLICE].count(1)
    held = _held_by_assignment(
        _PATTERN_PARTS[presence_bytes[0:9]][0],
        _PATTERN_PARTS[presence_bytes[9:18]][0],
        _PATTERN_PARTS[presence_bytes[18:27]][0],
    )
    merged = 0
    for assignment, knitted in enumerate(held):
        if HONORS_AND_KNITTED_SIZE - honors_held - knitted == distance:
            merged |= (_KNITTED_BITS[assignment] | _HONOR_BITS) & ~presence
    return merged.to_bytes(NUM_TILE_KINDS, "little")


def capped_knitted_straight_distances(counts: bytes, caps: bytes, melds_wanted: int) -> tuple[int, ...]:
    """:func:`knitted_straight_distances` with a per-tile cap on the complete hand (255: impossible).

    An assignment holding a tile of cap 0 is impossible; the rest may use
    ``cap - 1`` copies of each of the assignment's tiles.

    >>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
    >>> caps = bytes([4]) * 3 + bytes([0]) + bytes([4]) * 30  # no 4m
    >>> capped_knitted_straight_distances(counts_from_tiles(parse_mpsz("147m258p369s55777z")), caps, 1)
    (255, 255, 6, 9, 9, 6)
    """
    out = []
    for straight in KNITTED_STRAIGHTS:
        if any(caps[tile] == 0 for tile in straight):
            out.append(255)
            continue
        rest = bytearray(counts)
        rest_caps = bytearray(caps)
        missing = 0
        for tile in straight:
            rest_caps[tile] -= 1
            if rest[tile]:
                rest[tile] -= 1
            else:
                missing += 1
        out.append(missing + capped_regular_distance(bytes(rest), bytes(rest_caps), melds_wanted))
    return tuple(out)


def capped_honors_and_knitted_distance(counts: bytes, caps: bytes) -> int:
    """:func:`honors_and_knitted_distance` when a tile of cap 0 may not be used (255: impossible).

    >>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
    >>> capped_honors_and_knitted_distance(counts_from_tiles(parse_mpsz("147m25p369s12345z")), bytes(27) + bytes([4]) * 7)
    255
    """
    best = 255
    for straight in KNITTED_STRAIGHTS:
        usable = [tile for tile in (*straight, *HONORS) if caps[tile]]
        if len(usable) < HONORS_AND_KNITTED_SIZE:
            continue
        held = sum(1 for tile in usable if counts[tile])
        best = min(best, HONORS_AND_KNITTED_SIZE - min(held, HONORS_AND_KNITTED_SIZE))
    return best
