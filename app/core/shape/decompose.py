"""Every way a complete hand splits into its groups, wildcards included.

Whether a hand wins is decided by the distance tables; this module only lists
*how* it wins.  Each suit is enumerated on its own (memoised per suit shape, a
finite domain) and the suits are combined.  With wildcards, each suit is
completed by every multiset of stand-in tiles it could take, so what every
wildcard stands for is part of the answer.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from typing import Final

from app.core.shape.shanten import HONORS_AND_KNITTED_SIZE, KNITTED_STRAIGHTS
from app.core.shape.tiles import HONORS, ORPHANS, Tile

_SUITS: Final = ((0, 9, True), (9, 9, True), (18, 9, True), (27, 7, False))

Group = tuple[Tile, ...]
#: One way stand-ins complete a suit: (stand-in offsets, pair offset or None, melds).
_Completion = tuple[tuple[int, ...], int | None, tuple[Group, ...]]


@dataclass(frozen=True, slots=True)
class Decomposition:
    """One way to read a complete concealed hand.

    ``form`` is ``regular`` (``pair`` + ``melds``), ``seven_pairs`` (``pairs``),
    ``thirteen_orphans`` (``pair`` + ``singles``), ``knitted_straight``
    (``knitted``: its nine tiles, + ``melds`` + ``pair``), ``honors_and_knitted``
    (``singles``: its fourteen tiles) or ``wildcards_held`` (``singles``: the tiles
    besides the wildcards, whatever they are); ``wildcards`` pairs each wildcard held with
    the tile it stands for (in ``wildcards_held``, itself).
    """

    form: str
    pair: Tile | None
    melds: tuple[Group, ...] = ()
    pairs: tuple[Tile, ...] = ()
    singles: tuple[Tile, ...] = ()
    wildcards: tuple[tuple[Tile, Tile], ...] = ()
    knitted: tuple[Tile, ...] = ()


@lru_cache(maxsize=32768)
def _suit_splits(
    counts: tuple[int, ...], chows: bool, with_pair: bool
) -> tuple[tuple[int | None, tuple[Group, ...]], ...]:
    """Splits of one suit (local tile indices) into melds and, if asked, one pair."""
    total = sum(counts)
    if total % 3 != (2 if with_pair else 0):
        return ()
    found: list[tuple[int | None, tuple[Group, ...]]] = []
    work = list(counts)
    width = len(work)

    def walk(pair: int | None, melds: list[Group]) -> None:
        first = next((i for i in range(width) if work[i]), None)
        if first is None:
            if (pair is not None) == with_pair:
                found.append((pair, tuple(melds)))
            return
        # The lowest tile left must belong to a group that starts with it.
        if work[first] >= 3:
            work[first] -= 3
            melds.append((first,) * 3)
            walk(pair, melds)
            melds.pop()
            work[first] += 3
        if chows and first <= width - 3 and work[first + 1] and work[first + 2]:
            for i in (first, first + 1, first + 2):
                work[i] -= 1
            melds.append((first, first + 1, first + 2))
            walk(pair, melds)
            melds.pop()
            for i in (first, first + 1, first + 2):
                work[i] += 1
        if with_pair and pair is None and work[first] >= 2:
            work[first] -= 2
            walk(first, melds)
            work[first] += 2

    walk(None, [])
    # The pair may be taken before or after the melds around it: keep each split once.
    return tuple(sorted({(pair, tuple(sorted(melds))) for pair, melds in found}, key=_split_order))


def _split_order(split: tuple[int | None, tuple[Group, ...]]) -> tuple[int, tuple[Group, ...]]:
    pair, melds = split
    return (-1 if pair is None else pair, melds)


@lru_cache(maxsize=32768)
def _suit_completions(
    counts: tuple[int, ...], caps: tuple[int, ...], wilds: int, chows: bool, with_pair: bool
) -> tuple[_Completion, ...]:
    """(stand-ins, pair, melds) for every way ``wilds`` stand-ins complete the suit."""
    if (sum(counts) + wilds) % 3 != (2 if with_pair else 0):
        return ()
    out: list[_Completion] = []
    for stand_ins in combinations_with_replacement(range(len(counts)), wilds):
        completed = list(counts)
        for i in stand_ins:
            completed[i] += 1
        if any(c > cap for c, cap in zip(completed, caps, strict=True)):
            continue
        for pair, melds in _suit_splits(tuple(completed), chows, with_pair):
            out.append((stand_ins, pair, melds))
    return tuple(out)


def _allocations(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _allocations(total - first, parts - 1):
            yield (first, *rest)


def regular_decompositions(
    counts: bytes, caps: bytes, wild_tiles: tuple[Tile, ...], limit: int
) -> tuple[list[Decomposition], bool]:
    """Regular splits of ``counts`` (wildcards removed) completed by ``len(wild_tiles)`` stand-ins.

    Returns at most ``limit`` decompositions and whether more exist.
    """
    wilds = len(wild_tiles)
    suit_counts = [tuple(counts[start : start + width]) for start, width, _ in _SUITS]
    suit_caps = [tuple(caps[start : start + width]) for start, width, _ in _SUITS]
    out: list[Decomposition] = []
    for pair_suit in range(4):
        for allocation in _allocations(wilds, 4):
            options: list[tuple[int, tuple[_Completion, ...]]] = []
            for s, (start, _width, chows) in enumerate(_SUITS):
                found = _suit_completions(suit_counts[s], suit_caps[s], allocation[s], chows, s == pair_suit)
                if not found:
                    break
                options.append((start, found))
            else:
                for combo in _product(options):
                    if len(out) == limit:
                        return out, True
                    out.append(_regular_from(combo, wild_tiles))
    return out, False


def _product(options: list[tuple[int, tuple[_Completion, ...]]]) -> Iterator[list[tuple[int, _Completion]]]:
    if not options:
        yield []
        return
    start, choices = options[0]
    for rest in _product(options[1:]):
        for choice in choices:
            yield [(start, choice), *rest]


def _regular_from(combo: list[tuple[int, _Completion]], wild_tiles: tuple[Tile, ...]) -> Decomposition:
    pair: Tile | None = None
    melds: list[Group] = []
    stand_ins: list[Tile] = []
    for start, (suit_stand_ins, suit_pair, suit_melds) in combo:
        if suit_pair is not None:
            pair = start + suit_pair
        melds.extend(tuple(start + i for i in meld) for meld in suit_melds)
        stand_ins.extend(start + i for i in suit_stand_ins)
    return Decomposition(
        "regular", pair, tuple(sorted(melds)), wildcards=tuple(zip(wild_tiles, sorted(stand_ins), strict=True))
    )


def seven_pairs_decompositions(
    counts: bytes, wild_tiles: tuple[Tile, ...], *, quad_as_two: bool, limit: int
) -> tuple[list[Decomposition], bool]:
    """Seven-pairs readings; wildcards first pair up odd tiles, then form new pairs."""
    wilds = len(wild_tiles)
    pairs: list[Tile] = []
    forced: list[Tile] = []
    for tile, held in enumerate(counts):
        if held > (4 if quad_as_two else 2):
            return [], False
        if held % 2:
            forced.append(tile)
        pairs.extend([tile] * ((held + 1) // 2 if held % 2 else held // 2))
    spare = wilds - len(forced)
    if spare < 0 or spare % 2 or len(pairs) + spare // 2 != 7:
        return [], False
    # The spare wildcards make spare // 2 more pairs, of kinds the rule allows.
    if quad_as_two:
        room = [t for t in range(34) for _ in range((4 - 2 * pairs.count(t)) // 2)]
        choices = sorted(set(combinations(room, spare // 2)))
    else:
        free = [t for t in range(34) if t not in pairs]
        choices = list(combinations(free, spare // 2))
    out: list[Decomposition] = []
    for extra in choices:
        if len(out) == limit:
            return out, True
        stand_ins = sorted(forced + [t for t in extra for _ in range(2)])
        out.append(
            Decomposition(
                "seven_pairs",
                None,
                pairs=tuple(sorted(pairs + list(extra))),
                wildcards=tuple(zip(wild_tiles, stand_ins, strict=True)),
            )
        )
    return out, False


def thirteen_orphans_decompositions(
    counts: bytes, wild_tiles: tuple[Tile, ...], *, limit: int
) -> tuple[list[Decomposition], bool]:
    """Thirteen-orphans readings: wildcards fill missing orphans, then the pair."""
    if any(counts[t] for t in range(34) if t not in ORPHANS):
        return [], False
    missing = [t for t in ORPHANS if counts[t] == 0]
    doubled = [t for t in ORPHANS if counts[t] >= 2]
    if any(counts[t] > 2 for t in ORPHANS) or len(doubled) > 1:
        return [], False
    wilds = len(wild_tiles)
    if doubled:
        candidates = [doubled[0]] if wilds == len(missing) else []
    else:
        candidates = list(ORPHANS) if wilds == len(missing) + 1 else []
    out: list[Decomposition] = []
    for pair in candidates:
        if len(out) == limit:
            return out, True
        stand_ins = sorted(missing + ([pair] if not doubled else []))
        singles = tuple(t for t in ORPHANS if t != pair)
        out.append(
            Decomposition(
                "thirteen_orphans", pair, singles=singles, wildcards=tuple(zip(wild_tiles, stand_ins, strict=True))
            )
        )
    return out, False


def knitted_straight_decompositions(
    counts: bytes, caps: bytes, wild_tiles: tuple[Tile, ...], melds_wanted: int, *, limit: int
) -> tuple[list[Decomposition], bool]:
    """Knitted-straight readings: the nine knitted tiles, ``melds_wanted`` melds and a pair.

    Each knitted tile held is read as part of the straight: a wildcard standing
    for it instead and the real copy going to the rest reads the same hand.
    Wildcards first fill the straight's missing tiles; the rest is a regular
    reading (:func:`regular_decompositions`) with one copy fewer of room for
    each knitted tile.

    >>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
    >>> found, _ = knitted_straight_decompositions(
    ...     counts_from_tiles(parse_mpsz("147m258p369s55777z")), b"\\x04" * 34, (), 1, limit=10
    ... )
    >>> [(d.knitted, d.melds, d.pair) for d in found]
    [((0, 3, 6, 10, 13, 16, 20, 23, 26), ((33, 33, 33),), 31)]
    """
    wilds = len(wild_tiles)
    out: list[Decomposition] = []
    for straight in KNITTED_STRAIGHTS:
        if any(caps[tile] == 0 for tile in straight):
            continue
        missing = [tile for tile in straight if counts[tile] == 0]
        if len(missing) > wilds:
            continue
        rest = bytearray(counts)
        rest_caps = bytearray(caps)
        for tile in straight:
            rest_caps[tile] -= 1
            if rest[tile]:
                rest[tile] -= 1
        if sum(rest) + wilds - len(missing) != 3 * melds_wanted + 2:
            continue
        readings, cut = regular_decompositions(
            bytes(rest), bytes(rest_caps), wild_tiles[len(missing) :], limit - len(out)
        )
        for reading in readings:
            stand_ins = sorted(missing + [stands_for for _, stands_for in reading.wildcards])
            out.append(
                Decomposition(
                    "knitted_straight",
                    reading.pair,
                    reading.melds,
                    knitted=straight,
                    wildcards=tuple(zip(wild_tiles, stand_ins, strict=True)),
                )
            )
        if cut:  # a later straight's readings would pass the limit too (regular's room 0 says so)
            return out, True
    return out, False


def honors_and_knitted_decompositions(
    counts: bytes, caps: bytes, wild_tiles: tuple[Tile, ...], *, limit: int
) -> tuple[list[Decomposition], bool]:
    """Honours-and-knitted readings: fourteen distinct tiles of one knitted straight and the honours.

    Wildcards stand for tiles of the sixteen the hand lacks, in every way.

    >>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
    >>> found, _ = honors_and_knitted_decompositions(
    ...     counts_from_tiles(parse_mpsz("147m25p369s123457z")), b"\\x04" * 34, (), limit=10
    ... )
    >>> [d.singles for d in found]
    [(0, 3, 6, 10, 13, 20, 23, 26, 27, 28, 29, 30, 31, 33)]
    """
    wilds = len(wild_tiles)
    out: list[Decomposition] = []
    if any(held > 1 for held in counts):
        return out, False
    held = [tile for tile, copies in enumerate(counts) if copies]
    if len(held) + wilds != HONORS_AND_KNITTED_SIZE:
        return out, False
    for straight in KNITTED_STRAIGHTS:
        tiles = (*straight, *HONORS)
        if any(tile not in tiles for tile in held):
            continue
        lacking = [tile for tile in tiles if not counts[tile] and caps[tile]]
        for stand_ins in combinations(lacking, wilds):
            if len(out) == limit:
                return out, True
            out.append(
                Decomposition(
                    "honors_and_knitted",
                    None,
                    singles=tuple(sorted(held + list(stand_ins))),
                    wildcards=tuple(zip(wild_tiles, stand_ins, strict=True)),
                )
            )
    return out, False


def wildcards_held_decomposition(counts: bytes, wild_tiles: tuple[Tile, ...]) -> Decomposition:
    """The one reading of a hand that wins by holding its wildcards (rules with ``wildcards_held_win``):
    each wildcard stands for itself, and the other tiles, ``counts`` (wildcards removed), are singles.

    >>> wildcards_held_decomposition(bytes([1, 1]) + bytes(32), (33, 33, 33, 33)).singles
    (0, 1)
    """
    singles = tuple(tile for tile, held in enumerate(counts) for _ in range(held))
    return Decomposition("wildcards_held", None, singles=singles, wildcards=tuple((wild, wild) for wild in wild_tiles))
