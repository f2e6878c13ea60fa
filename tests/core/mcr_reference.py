"""The plain Python MCR fan counting that the compiled kernel (app/core/kernel/mcr.cpp) replaced.

The tests' reference: ``count_fans`` and ``fan_total`` here take the same arguments as
:mod:`app.core.value.mcr_scoring`'s and answer the same, fan for fan, in the same order (the
differential tests hold the kernel to it; it was the production scorer, checked against
PyMahjongGB 1.4.0 on 10,000 wins, until the kernel took over).  It validates nothing beyond
what the counting needs: :func:`app.core.value.mcr_scoring.score_mcr` keeps the checks.

A win is read in every way its tiles allow — the regular form (4 sets + a pair, the
declared melds fixed), seven pairs (a quad is two pairs), thirteen orphans, the knitted
straight (147/258/369 across the suits, one more set and a pair) and honours and
knitted tiles (全不靠 / 七星不靠) — and the reading worth the most fans counts.  The
exclusion principles it applies are described in :mod:`app.core.value.mcr_scoring`.

Speed was not its point: the splits and waits of one suit's counts, and the fans a
reading's chows make together and its pungs make together, are memoised on their exact
keys in bounded LRU caches.

>>> from app.core.shape.tiles import parse_mpsz
>>> hand = Hand.from_tiles(parse_mpsz("123456789m123p55s"))
>>> [(f.chinese, f.count) for f in count_fans(hand, 8, WinContext(winner=0, dealer=0))]
[('清龙', 1), ('不求人', 1), ('平和', 1), ('喜相逢', 1)]
>>> fan_total(hand, 8, WinContext(winner=0, dealer=0))
23
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from itertools import combinations, permutations
from typing import Final, NamedTuple

from app.core.errors import NotAWinningHand
from app.core.shape.hand import Hand, MeldKind
from app.core.shape.tiles import EAST, GREEN, NORTH, NUM_TILE_KINDS, RED, WHITE, Tile
from app.core.value.mcr_scoring import FAN_TABLE, MAX_FLOWERS, Fan
from app.core.value.scoring_context import WinContext

_INDEX: Final = {chinese: index for index, (_, chinese, _) in enumerate(FAN_TABLE)}
_VALUE: Final = tuple(value for _, _, value in FAN_TABLE)
_SIZE: Final = len(FAN_TABLE)

BIG_FOUR_WINDS: Final = _INDEX["大四喜"]
BIG_THREE_DRAGONS: Final = _INDEX["大三元"]
ALL_GREEN: Final = _INDEX["绿一色"]
NINE_GATES: Final = _INDEX["九莲宝灯"]
FOUR_KONGS: Final = _INDEX["四杠"]
SEVEN_SHIFTED_PAIRS: Final = _INDEX["连七对"]
THIRTEEN_ORPHANS: Final = _INDEX["十三幺"]
ALL_TERMINALS: Final = _INDEX["清幺九"]
LITTLE_FOUR_WINDS: Final = _INDEX["小四喜"]
LITTLE_THREE_DRAGONS: Final = _INDEX["小三元"]
ALL_HONORS: Final = _INDEX["字一色"]
FOUR_CONCEALED_PUNGS: Final = _INDEX["四暗刻"]
PURE_TERMINAL_CHOWS: Final = _INDEX["一色双龙会"]
QUADRUPLE_CHOW: Final = _INDEX["一色四同顺"]
FOUR_PURE_SHIFTED_PUNGS: Final = _INDEX["一色四节高"]
FOUR_PURE_SHIFTED_CHOWS: Final = _INDEX["一色四步高"]
THREE_KONGS: Final = _INDEX["三杠"]
ALL_TERMINALS_AND_HONORS: Final = _INDEX["混幺九"]
SEVEN_PAIRS: Final = _INDEX["七对"]
GREATER_HONORS_AND_KNITTED: Final = _INDEX["七星不靠"]
ALL_EVEN_PUNGS: Final = _INDEX["全双刻"]
FULL_FLUSH: Final = _INDEX["清一色"]
PURE_TRIPLE_CHOW: Final = _INDEX["一色三同顺"]
PURE_SHIFTED_PUNGS: Final = _INDEX["一色三节高"]
UPPER_TILES: Final = _INDEX["全大"]
MIDDLE_TILES: Final = _INDEX["全中"]
LOWER_TILES: Final = _INDEX["全小"]
PURE_STRAIGHT: Final = _INDEX["清龙"]
THREE_SUITED_TERMINAL_CHOWS: Final = _INDEX["三色双龙会"]
PURE_SHIFTED_CHOWS: Final = _INDEX["一色三步高"]
ALL_FIVE: Final = _INDEX["全带五"]
TRIPLE_PUNG: Final = _INDEX["三同刻"]
THREE_CONCEALED_PUNGS: Final = _INDEX["三暗刻"]
LESSER_HONORS_AND_KNITTED: Final = _INDEX["全不靠"]
KNITTED_STRAIGHT: Final = _INDEX["组合龙"]
UPPER_FOUR: Final = _INDEX["大于五"]
LOWER_FOUR: Final = _INDEX["小于五"]
BIG_THREE_WINDS: Final = _INDEX["三风刻"]
MIXED_STRAIGHT: Final = _INDEX["花龙"]
REVERSIBLE_TILES: Final = _INDEX["推不倒"]
MIXED_TRIPLE_CHOW: Final = _INDEX["三色三同顺"]
MIXED_SHIFTED_PUNGS: Final = _INDEX["三色三节高"]
CHICKEN_HAND: Final = _INDEX["无番和"]
LAST_TILE_DRAW: Final = _INDEX["妙手回春"]
LAST_TILE_CLAIM: Final = _INDEX["海底捞月"]
OUT_WITH_REPLACEMENT_TILE: Final = _INDEX["杠上开花"]
ROBBING_THE_KONG: Final = _INDEX["抢杠和"]
ALL_PUNGS: Final = _INDEX["碰碰和"]
HALF_FLUSH: Final = _INDEX["混一色"]
MIXED_SHIFTED_CHOWS: Final = _INDEX["三色三步高"]
ALL_TYPES: Final = _INDEX["五门齐"]
MELDED_HAND: Final = _INDEX["全求人"]
TWO_CONCEALED_KONGS: Final = _INDEX["双暗杠"]
TWO_DRAGONS_PUNGS: Final = _INDEX["双箭刻"]
OUTSIDE_HAND: Final = _INDEX["全带幺"]
FULLY_CONCEALED_HAND: Final = _INDEX["不求人"]
TWO_MELDED_KONGS: Final = _INDEX["双明杠"]
LAST_TILE: Final = _INDEX["和绝张"]
DRAGON_PUNG: Final = _INDEX["箭刻"]
PREVALENT_WIND: Final = _INDEX["圈风刻"]
SEAT_WIND: Final = _INDEX["门风刻"]
CONCEALED_HAND: Final = _INDEX["门前清"]
ALL_CHOWS: Final = _INDEX["平和"]
TILE_HOG: Final = _INDEX["四归一"]
DOUBLE_PUNG: Final = _INDEX["双同刻"]
TWO_CONCEALED_PUNGS: Final = _INDEX["双暗刻"]
CONCEALED_KONG: Final = _INDEX["暗杠"]
ALL_SIMPLES: Final = _INDEX["断幺"]
PURE_DOUBLE_CHOW: Final = _INDEX["一般高"]
MIXED_DOUBLE_CHOW: Final = _INDEX["喜相逢"]
SHORT_STRAIGHT: Final = _INDEX["连六"]
TWO_TERMINAL_CHOWS: Final = _INDEX["老少副"]
PUNG_OF_TERMINALS_OR_HONORS: Final = _INDEX["幺九刻"]
MELDED_KONG: Final = _INDEX["明杠"]
ONE_VOIDED_SUIT: Final = _INDEX["缺一门"]
NO_HONORS: Final = _INDEX["无字"]
EDGE_WAIT: Final = _INDEX["独听・边张"]
CLOSED_WAIT: Final = _INDEX["独听・嵌张"]
SINGLE_WAIT: Final = _INDEX["独听・单钓"]
SELF_DRAWN: Final = _INDEX["自摸"]
FLOWER_TILES: Final = _INDEX["花牌"]
CONCEALED_KONG_AND_MELDED_KONG: Final = _INDEX["明暗杠"]

#: 不计: what each fan's definition says it does not count (the rule text, fan by fan).
#: Exclusions between sets of one combination (一色三同顺's own 一般高, 清龙's own 连六) are
#: not listed: the combination is formed first and its sets are not recombined (不拆移).
#: 幺九刻 of pungs used by a wind or dragon fan are never counted in the first place.
_EXCLUSION_RULES: Final = (
    ("大四喜", "三风刻 碰碰和 圈风刻 门风刻 幺九刻"),
    ("大三元", "双箭刻 箭刻"),
    ("绿一色", "混一色"),
    ("九莲宝灯", "清一色 不求人 门前清 无字"),
    ("四杠", "碰碰和 独听・单钓"),
    ("连七对", "清一色 七对 不求人 门前清 无字 独听・单钓"),
    ("十三幺", "混幺九 五门齐 不求人 门前清 独听・单钓"),
    ("清幺九", "混幺九 碰碰和 全带幺 双同刻 幺九刻 无字"),
    ("小四喜", "三风刻 幺九刻"),
    ("小三元", "双箭刻 箭刻"),
    ("字一色", "混幺九 碰碰和 全带幺 幺九刻"),
    ("四暗刻", "碰碰和 不求人 门前清"),
    ("一色双龙会", "七对 清一色 平和 无字"),
    ("一色四同顺", "七对 四归一"),
    ("一色四节高", "碰碰和"),
    ("混幺九", "碰碰和 全带幺 幺九刻"),
    ("七对", "不求人 门前清 独听・单钓"),
    ("七星不靠", "全不靠 五门齐 不求人 门前清"),
    ("全双刻", "碰碰和 断幺 无字"),
    ("清一色", "无字"),
    ("全大", "大于五 无字"),
    ("全中", "断幺 无字"),
    ("全小", "小于五 无字"),
    ("三色双龙会", "平和 无字"),
    ("全带五", "断幺 无字"),
    ("全不靠", "五门齐 不求人 门前清"),
    ("大于五", "无字"),
    ("小于五", "无字"),
    ("妙手回春", "自摸"),
    ("杠上开花", "自摸"),
    ("抢杠和", "和绝张"),
    ("全求人", "独听・单钓"),
    ("双暗杠", "双暗刻"),
    ("双箭刻", "箭刻"),
    ("不求人", "自摸"),
    ("平和", "无字"),
    ("断幺", "无字"),
    ("推不倒", "缺一门"),
)


def _build_exclusions() -> tuple[tuple[int, tuple[int, ...]], ...]:
    """(fan, fans it excludes) in table order, so a fan is settled before it excludes."""
    rules = [(_INDEX[fan], tuple(_INDEX[name] for name in names.split())) for fan, names in _EXCLUSION_RULES]
    return tuple(sorted(rules))


_EXCLUDES: Final = _build_exclusions()
#: The same by fan index: what each fan excludes (empty for most).
_EXCLUDED_BY: Final = tuple(dict(_EXCLUDES).get(fan, ()) for fan in range(len(FAN_TABLE)))

# Tile properties, one table entry per tile (0..33).
_HONOR_START: Final = 27
_SUIT: Final = tuple(tile // 9 if tile < _HONOR_START else 3 for tile in range(NUM_TILE_KINDS))
_RANK: Final = tuple(tile % 9 + 1 if tile < _HONOR_START else 0 for tile in range(NUM_TILE_KINDS))
_IS_WIND: Final = tuple(EAST <= tile <= NORTH for tile in range(NUM_TILE_KINDS))
_IS_DRAGON: Final = tuple(WHITE <= tile <= RED for tile in range(NUM_TILE_KINDS))
_IS_TERMINAL: Final = tuple(_RANK[tile] in (1, 9) for tile in range(NUM_TILE_KINDS))
_IS_ORPHAN: Final = tuple(_IS_TERMINAL[tile] or tile >= _HONOR_START for tile in range(NUM_TILE_KINDS))
_GREEN_TILES: Final = frozenset((19, 20, 21, 23, 25, GREEN))  # 2 3 4 6 8 bamboo and 发
_REVERSIBLE_TILES: Final = frozenset((9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, WHITE))  # 1234589p 245689s 白
_ORPHANS: Final = tuple(tile for tile in range(NUM_TILE_KINDS) if _IS_ORPHAN[tile])


def _mask(tiles: Iterable[Tile]) -> int:
    """A set of tiles as a mask with one byte per tile (bit ``8 * tile`` set), the layout
    :func:`_present` builds from counts in one C call."""
    bits = 0
    for tile in tiles:
        bits |= 1 << (8 * tile)
    return bits


_NONZERO: Final = bytes([0] + [1] * 255)
_ODD: Final = bytes(count & 1 for count in range(256))


def _present(counts: bytes) -> int:
    """The tiles of ``counts`` that are there at all, as a :func:`_mask`."""
    return int.from_bytes(counts.translate(_NONZERO), "little")


_ALL_TILES: Final = range(NUM_TILE_KINDS)
_MAN_MASK: Final = _mask(range(0, 9))
_PIN_MASK: Final = _mask(range(9, 18))
_SOU_MASK: Final = _mask(range(18, 27))
_HONOR_MASK: Final = _mask(range(_HONOR_START, NUM_TILE_KINDS))
_WIND_MASK: Final = _mask(t for t in _ALL_TILES if _IS_WIND[t])
_DRAGON_MASK: Final = _mask(t for t in _ALL_TILES if _IS_DRAGON[t])
_TERMINAL_MASK: Final = _mask(t for t in _ALL_TILES if _IS_TERMINAL[t])
_ORPHAN_MASK: Final = _mask(_ORPHANS)
_REVERSIBLE_MASK: Final = _mask(_REVERSIBLE_TILES)
_GREEN_MASK: Final = _mask(_GREEN_TILES)
_RANK_MASKS: Final = tuple(_mask(t for t in _ALL_TILES if _RANK[t] == rank) for rank in range(10))
_LOWER_MASK: Final = _RANK_MASKS[1] | _RANK_MASKS[2] | _RANK_MASKS[3] | _RANK_MASKS[4]
_UPPER_MASK: Final = _RANK_MASKS[6] | _RANK_MASKS[7] | _RANK_MASKS[8] | _RANK_MASKS[9]
_MIDDLE_MASK: Final = _RANK_MASKS[4] | _RANK_MASKS[5] | _RANK_MASKS[6]
_SUIT_MASKS: Final = (_MAN_MASK, _PIN_MASK, _SOU_MASK, _HONOR_MASK)


def _build_knitted() -> tuple[tuple[Tile, ...], ...]:
    """The six knitted straights: 147, 258 and 369, each in its own suit, in every assignment."""
    return tuple(
        tuple(sorted(suit * 9 + first + step for first, suit in enumerate(suits) for step in (0, 3, 6)))
        for suits in permutations(range(3))
    )


_KNITTED: Final = _build_knitted()
_KNITTED_MASKS: Final = tuple(_mask(straight) for straight in _KNITTED)


def _pymahjonggb_position(tile: Tile) -> int:
    """Where PyMahjongGB puts ``tile`` in its order: m, s, p, the winds, then 中 发 白."""
    if tile < _HONOR_START:
        return (0, 2, 1)[tile // 9] * 9 + tile % 9
    return tile if tile <= NORTH else WHITE + RED - tile


# Among readings of equal worth PyMahjongGB keeps the first in its tile order (a few fans
# aside); ordering readings the same way makes the fans listed agree with it, not just the total.
_ORACLE_ORDER: Final = tuple(_pymahjonggb_position(tile) for tile in range(NUM_TILE_KINDS))

# Sets are ints: a chow is its lowest tile (0..26), a pung or kong is 34 + its tile.
_PUNG: Final = NUM_TILE_KINDS


# --------------------------------------------------------------------------- decompositions


@lru_cache(maxsize=1 << 15)
def _suit_splits(counts: bytes, numbered: bool) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Every split of one suit's counts into sets and at most one pair: (pair or -1, sets).

    Offsets are local to the suit; a set is a chow's lowest offset or ``_PUNG`` + offset.
    """
    work = bytearray(counts)
    width = len(work)
    found: set[tuple[int, tuple[int, ...]]] = set()

    def walk(start: int, pair: int, sets: list[int]) -> None:
        index = start
        while index < width and not work[index]:
            index += 1
        if index == width:
            found.add((pair, tuple(sorted(sets))))
            return
        if pair < 0 and work[index] >= 2:
            work[index] -= 2
            walk(index, index, sets)
            work[index] += 2
        if work[index] >= 3:
            work[index] -= 3
            sets.append(_PUNG + index)
            walk(index, pair, sets)
            sets.pop()
            work[index] += 3
        if numbered and index <= 6 and work[index + 1] and work[index + 2]:
            work[index] -= 1
            work[index + 1] -= 1
            work[index + 2] -= 1
            sets.append(index)
            walk(index, pair, sets)
            sets.pop()
            work[index] += 1
            work[index + 1] += 1
            work[index + 2] += 1

    if sum(counts) % 3 != 1:
        walk(0, -1, [])
    return tuple(sorted(found))


#: (first tile, end) of each suit: characters, dots, bamboo, honours.
_SUIT_RANGES: Final = ((0, 9), (9, 18), (18, 27), (27, 34))


@lru_cache(maxsize=1 << 15)
def _placed_splits(piece: bytes, low: Tile) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """:func:`_suit_splits` of the suit starting at tile ``low``, in the hand's tiles (pair or -1, sets)."""
    return tuple(
        (pair + low if pair >= 0 else -1, tuple(s + low for s in sets))
        for pair, sets in _suit_splits(piece, low < _HONOR_START)
    )


def _regular_readings(counts: bytes) -> list[tuple[int, tuple[int, ...]]]:
    """Every (pair, concealed sets) reading of ``counts`` as sets plus exactly one pair."""
    partial: list[tuple[int, tuple[int, ...]]] = [(-1, ())]
    for low, high in _SUIT_RANGES:
        piece = counts[low:high]
        if not any(piece):
            continue
        splits = _placed_splits(piece, low)
        if not splits:
            return []
        if len(partial) == 1 and len(splits) == 1:
            (pair, sets), ((suit_pair, suit_sets),) = partial[0], splits
            if suit_pair >= 0 and pair >= 0:
                return []
            partial = [(suit_pair if suit_pair >= 0 else pair, sets + suit_sets)]
            continue
        partial = [
            (suit_pair if suit_pair >= 0 else pair, sets + suit_sets)
            for pair, sets in partial
            for suit_pair, suit_sets in splits
            if suit_pair < 0 or pair < 0
        ]
    return [(pair, sets) for pair, sets in partial if pair >= 0]


class _SuitWaits(NamedTuple):
    """One suit's part in the waits (tiles are the hand's, not offsets in the suit)."""

    #: Tiles whose addition leaves the suit as sets only.
    to_sets: tuple[Tile, ...]
    #: Tiles whose addition leaves the suit as sets and a pair.
    to_pair: tuple[Tile, ...]
    #: Whether the suit is complete as it stands (sets only, or sets and a pair).
    complete: bool
    #: Its tile count modulo 3.
    remainder: int


@lru_cache(maxsize=1 << 14)
def _suit_waits(counts: bytes, low: Tile) -> _SuitWaits:
    numbered = low < _HONOR_START
    to_sets: list[Tile] = []
    to_pair: list[Tile] = []
    work = bytearray(counts)
    for offset in range(len(work)):
        if not work[offset]:
            # A tile nothing in the suit touches completes nothing.
            start, stop = (max(0, offset - 2), offset + 3) if numbered else (offset, offset + 1)
            if not any(work[start:stop]):
                continue
        work[offset] += 1
        remainder = sum(work) % 3
        if remainder != 1 and _is_complete(work, 0, numbered, remainder == 2):
            (to_pair if remainder == 2 else to_sets).append(low + offset)
        work[offset] -= 1
    remainder = sum(counts) % 3
    complete = remainder != 1 and _is_complete(bytearray(counts), 0, numbered, remainder == 2)
    return _SuitWaits(tuple(to_sets), tuple(to_pair), complete, remainder)


def _is_complete(work: bytearray, start: int, numbered: bool, needs_pair: bool) -> bool:
    """Whether ``work`` (one suit, from ``start`` on) splits into sets, plus a pair if ``needs_pair``.

    Restores ``work`` before returning.
    """
    width = len(work)
    index = start
    while index < width and not work[index]:
        index += 1
    if index == width:
        return not needs_pair
    count = work[index]
    if needs_pair and count >= 2:
        work[index] -= 2
        done = _is_complete(work, index, numbered, False)
        work[index] += 2
        if done:
            return True
    if count >= 3:
        work[index] -= 3
        done = _is_complete(work, index, numbered, needs_pair)
        work[index] += 3
        if done:
            return True
    if numbered and index <= 6 and work[index + 1] and work[index + 2]:
        work[index] -= 1
        work[index + 1] -= 1
        work[index + 2] -= 1
        done = _is_complete(work, index, numbered, needs_pair)
        work[index] += 1
        work[index + 1] += 1
        work[index + 2] += 1
        return done
    return False


def _waits(counts: bytes | bytearray) -> set[Tile]:
    """Every tile that completes the regular form (counted formally: a fifth copy counts)."""
    parts = [_suit_waits(bytes(counts[low:high]), low) for low, high in _SUIT_RANGES]
    pairs = sum(1 for part in parts if part.remainder == 2)
    incomplete = [part for part in parts if not part.complete]
    # One tile mends one suit: the others must already be complete, with one pair among
    # all the suits once the tile is in.
    if len(incomplete) > 1:
        return set()
    found: set[Tile] = set()
    for part in incomplete or parts:
        if part.remainder == 1 and not pairs:
            found.update(part.to_pair)
        elif part.remainder == 2 and pairs == 2:
            found.update(part.to_sets)
    return found


def _is_unique_wait(counts: bytes, win_tile: Tile) -> bool:
    """Whether the concealed tiles without the winning tile wait on exactly one tile.

    Waits are counted formally, as the rule book says: a tile the hand itself already
    holds four of still counts as waited on.  The regular form and (13 tiles) seven
    pairs are considered, the forms in which edge, closed and single waits exist.
    """
    work = bytearray(counts)
    work[win_tile] -= 1
    waits = _waits(work)
    if len(waits) > 1:
        return False
    # Seven pairs waits on its one odd tile: 13 tiles of at most 7 kinds.
    if sum(work) == 13 and work.count(0) >= NUM_TILE_KINDS - 7:
        odd = [tile for tile in range(NUM_TILE_KINDS) if work[tile] & 1]
        if len(odd) == 1:
            waits.add(odd[0])
    return len(waits) == 1


# --------------------------------------------------------------------------- set combinations

_PAIR_FAN_PREFERENCE: Final = (PURE_DOUBLE_CHOW, MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS)


def _two_chow_fan(low: int, high: int) -> int:
    """The fan two chows (lowest tiles, ``low`` <= ``high``) make together, or -1."""
    if _SUIT[low] != _SUIT[high]:
        return MIXED_DOUBLE_CHOW if _RANK[low] == _RANK[high] else -1
    if low == high:
        return PURE_DOUBLE_CHOW
    if high - low == 3:
        return SHORT_STRAIGHT
    if _RANK[low] == 1 and _RANK[high] == 7:
        return TWO_TERMINAL_CHOWS
    return -1


def _three_chow_fan(a: int, b: int, c: int) -> int:
    """The fan of three chows (lowest tiles, sorted), or -1."""
    suits = {_SUIT[a], _SUIT[b], _SUIT[c]}
    ranks = sorted((_RANK[a], _RANK[b], _RANK[c]))
    if len(suits) == 3:
        if ranks[0] + 1 == ranks[1] and ranks[1] + 1 == ranks[2]:
            return MIXED_SHIFTED_CHOWS
        if ranks[0] == ranks[2]:
            return MIXED_TRIPLE_CHOW
        if ranks == [1, 4, 7]:
            return MIXED_STRAIGHT
        return -1
    if len(suits) == 1:
        if b - a == 3 and c - b == 3 and _RANK[a] == 1:
            return PURE_STRAIGHT
        if (b - a == 2 and c - b == 2) or (b - a == 1 and c - b == 1):
            return PURE_SHIFTED_CHOWS
        if a == c:
            return PURE_TRIPLE_CHOW
    return -1


def _four_chow_fan(a: int, b: int, c: int, d: int) -> int:
    if _SUIT[a] == _SUIT[d] and (b - a == c - b == d - c) and (b - a in (1, 2)):
        return FOUR_PURE_SHIFTED_CHOWS
    if a == d:
        return QUADRUPLE_CHOW
    return -1


def _terminal_chows(chows: tuple[int, ...], pair: int) -> int:
    """一色双龙会 or 三色双龙会 when four chows 123/789 surround a pair of fives, or -1."""
    if pair < 0 or _RANK[pair] != 5:
        return -1
    pair_suit = _SUIT[pair]
    ends = sorted((_SUIT[c], _RANK[c]) for c in chows)
    if any(rank not in (1, 7) for _, rank in ends):
        return -1
    if all(suit == pair_suit for suit, _ in ends):
        return PURE_TERMINAL_CHOWS if [r for _, r in ends] == [1, 1, 7, 7] else -1
    others = sorted({0, 1, 2} - {pair_suit})
    wanted = [(others[0], 1), (others[0], 7), (others[1], 1), (others[1], 7)]
    return THREE_SUITED_TERMINAL_CHOWS if ends == wanted else -1


def _best_pair_fans(edges: list[tuple[int, int, int]], vertices: int) -> list[int]:
    """The two-set fans to count among ``edges`` (set, set, fan), by 套算一次 and 不得相同.

    Chosen edges form a forest (each fan joins a set not combined before to the others
    once) in which no set carries the same fan twice; the most fans win, then those
    that keep 一般高, 喜相逢, 连六, 老少副 in that order.
    """
    best: list[int] = []
    best_key: tuple[int, ...] = (-1,)
    for size in range(len(edges), 0, -1):
        if size < len(best) or size > vertices - 1:
            continue
        for chosen in combinations(edges, size):
            parent = list(range(vertices))

            def root(node: int, parent: list[int] = parent) -> int:
                while parent[node] != node:
                    node = parent[node]
                return node

            seen: set[tuple[int, int]] = set()
            valid = True
            for left, right, fan in chosen:
                if (left, fan) in seen or (right, fan) in seen:
                    valid = False
                    break
                seen.add((left, fan))
                seen.add((right, fan))
                left_root, right_root = root(left), root(right)
                if left_root == right_root:
                    valid = False
                    break
                parent[left_root] = right_root
            if not valid:
                continue
            fans = [fan for _, _, fan in chosen]
            key = (len(fans), *(fans.count(kind) for kind in _PAIR_FAN_PREFERENCE))
            if key > best_key:
                best_key, best = key, fans
        if best:
            return best
    return best


def _chow_fans(chows: tuple[int, ...], pair: int, table: list[int]) -> None:
    """Fans among the chows (lowest tiles)."""
    count = len(chows)
    if count == 4:
        special = _terminal_chows(chows, pair)
        if special >= 0:
            table[special] += 1
            return
        fan = _four_chow_fan(*sorted(chows))
        if fan >= 0:
            table[fan] += 1
            return
    if count >= 3:
        best_value = 0
        best: tuple[int, int] = (-1, -1)
        for triple in combinations(range(count), 3):
            a, b, c = sorted(chows[i] for i in triple)
            fan = _three_chow_fan(a, b, c)
            if fan < 0:
                continue
            extra = -1
            if count == 4:
                rest = chows[next(i for i in range(4) if i not in triple)]
                # The fourth chow combines once with the three (套算一次): its best fan.
                fans = {_two_chow_fan(*sorted((chows[i], rest))) for i in triple}
                extra = next((kind for kind in _PAIR_FAN_PREFERENCE if kind in fans), -1)
            value = _VALUE[fan] + (1 if extra >= 0 else 0)
            if value > best_value:
                best_value, best = value, (fan, extra)
        if best[0] >= 0:
            table[best[0]] += 1
            if best[1] >= 0:
                table[best[1]] += 1
            return
    if count >= 2:
        edges = []
        for i, j in combinations(range(count), 2):
            fan = _two_chow_fan(*sorted((chows[i], chows[j])))
            if fan >= 0:
                edges.append((i, j, fan))
        for fan in _best_pair_fans(edges, count):
            table[fan] += 1


def _two_pung_fan(a: Tile, b: Tile) -> int:
    if _RANK[a] and _RANK[b]:
        return DOUBLE_PUNG if _RANK[a] == _RANK[b] else -1
    return TWO_DRAGONS_PUNGS if _IS_DRAGON[a] and _IS_DRAGON[b] else -1


def _three_pung_fan(a: Tile, b: Tile, c: Tile) -> int:
    if _RANK[a] and _RANK[b] and _RANK[c]:
        suits = {_SUIT[a], _SUIT[b], _SUIT[c]}
        ranks = sorted((_RANK[a], _RANK[b], _RANK[c]))
        if len(suits) == 3:
            if ranks[0] + 1 == ranks[1] and ranks[1] + 1 == ranks[2]:
                return MIXED_SHIFTED_PUNGS
            if ranks[0] == ranks[2]:
                return TRIPLE_PUNG
        elif len(suits) == 1 and ranks[0] + 1 == ranks[1] and ranks[1] + 1 == ranks[2]:
            return PURE_SHIFTED_PUNGS
        return -1
    if _IS_WIND[a] and _IS_WIND[b] and _IS_WIND[c]:
        return BIG_THREE_WINDS
    if _IS_DRAGON[a] and _IS_DRAGON[b] and _IS_DRAGON[c]:
        return BIG_THREE_DRAGONS
    return -1


def _pung_fans(pungs: tuple[Tile, ...], table: list[int]) -> None:
    """Fans among the pungs and kongs (tiles)."""
    count = len(pungs)
    if count == 4:
        a, b, c, d = sorted(pungs)
        if _RANK[a] and _SUIT[a] == _SUIT[d] and b - a == c - b == d - c == 1:
            table[FOUR_PURE_SHIFTED_PUNGS] += 1
            return
        if _IS_WIND[a] and _IS_WIND[b] and _IS_WIND[c] and _IS_WIND[d]:
            table[BIG_FOUR_WINDS] += 1
            return
    if count >= 3:
        for triple in combinations(range(count), 3):
            fan = _three_pung_fan(*(pungs[i] for i in triple))
            if fan < 0:
                continue
            table[fan] += 1
            if count == 4:
                rest = pungs[next(i for i in range(4) if i not in triple)]
                # The fourth pung combines once with the three (套算一次).
                for i in triple:
                    extra = _two_pung_fan(pungs[i], rest)
                    if extra >= 0:
                        table[extra] += 1
                        break
            return
    for a, b in combinations(pungs, 2):
        fan = _two_pung_fan(a, b)
        if fan >= 0:
            table[fan] += 1


@lru_cache(maxsize=1 << 15)
def _chow_combinations(chows: tuple[int, ...], pair: Tile) -> tuple[tuple[int, int], ...]:
    """The (fan, count) the chows (lowest tiles, sorted) make together.

    ``pair`` matters only to the 双龙会 fans; callers pass -1 unless it is a five.
    """
    table = [0] * _SIZE
    _chow_fans(chows, pair, table)
    return tuple((fan, count) for fan, count in enumerate(table) if count)


@lru_cache(maxsize=1 << 16)
def _pung_combinations(pungs: tuple[Tile, ...]) -> tuple[tuple[int, int], ...]:
    """The (fan, count) the pungs and kongs (tiles, sorted) make together and alone."""
    table = [0] * _SIZE
    for tile in pungs:
        if _IS_DRAGON[tile]:
            table[DRAGON_PUNG] += 1
    if len(pungs) == 4:
        table[ALL_PUNGS] = 1
    _pung_fans(pungs, table)
    return tuple((fan, count) for fan, count in enumerate(table) if count)


#: A reading's fans: fan index -> instances, holding only the fans counted (no zeros).
_Table = dict[int, int]


def _set_fans(chows: tuple[int, ...], pungs: tuple[Tile, ...], pair: Tile, table: _Table) -> None:
    """Add the fans the sets of one reading make by their tiles alone to ``table``.

    ``chows`` (lowest tiles) and ``pungs`` (tiles, kongs included) are sorted.  Concealment,
    waits and the situation are added by the caller.
    """
    if chows:
        for fan, count in _chow_combinations(chows, pair if len(chows) == 4 and _RANK[pair] == 5 else -1):
            table[fan] = table.get(fan, 0) + count
        if len(chows) == 4 and _RANK[pair]:
            table[ALL_CHOWS] = 1
    if pungs:
        for fan, count in _pung_combinations(pungs):
            table[fan] = table.get(fan, 0) + count
        if TWO_DRAGONS_PUNGS in table and _IS_DRAGON[pair]:
            del table[TWO_DRAGONS_PUNGS]
            table[LITTLE_THREE_DRAGONS] = 1
        if BIG_THREE_WINDS in table and _IS_WIND[pair]:
            del table[BIG_THREE_WINDS]
            table[LITTLE_FOUR_WINDS] = 1
    # 全带幺, 全带五, 全双刻: what every set and the pair hold.
    pair_rank = _RANK[pair]
    if pair_rank in (0, 1, 9) and all(_RANK[c] in (1, 7) for c in chows) and all(_RANK[t] in (0, 1, 9) for t in pungs):
        table[OUTSIDE_HAND] = 1
    elif pair_rank == 5 and all(3 <= _RANK[c] <= 5 for c in chows) and all(_RANK[t] == 5 for t in pungs):
        table[ALL_FIVE] = 1
    elif not chows and pair_rank in (2, 4, 6, 8) and all(_RANK[t] in (2, 4, 6, 8) for t in pungs):
        table[ALL_EVEN_PUNGS] = 1


# --------------------------------------------------------------------------- the situation


class _Win:
    """What every reading of one win shares: tiles, melds, flags and the hand-wide fans."""

    __slots__ = (
        "all_counts",
        "concealed",
        "discard",
        "hand_fans",
        "kong_fan",
        "concealed_present",
        "concealed_kongs",
        "meld_chows",
        "meld_pungs",
        "open_melds",
        "prevalent",
        "seat",
        "win_tile",
        "kongs",
        "_unique_wait",
    )

    def __init__(self, hand: Hand, win_tile: Tile, context: WinContext) -> None:
        self.win_tile = win_tile
        self.concealed = hand.counts
        self.concealed_present = _present(hand.counts)
        self.meld_chows: list[int] = []
        self.meld_pungs: list[Tile] = []
        self.open_melds = 0
        self.kongs = 0
        self.concealed_kongs = 0
        if hand.melds:
            counts = bytearray(hand.counts)
            for meld in hand.melds:
                first = meld.tiles[0]
                for tile in meld.tiles:
                    counts[tile] += 1
                kind = meld.kind
                if kind is MeldKind.CHI:
                    self.meld_chows.append(first)
                else:
                    self.meld_pungs.append(first)
                    if kind is not MeldKind.PON:
                        self.kongs += 1
                if kind is MeldKind.CLOSED_KAN:
                    self.concealed_kongs += 1
                else:
                    self.open_melds += 1
            self.all_counts = bytes(counts)
        else:
            self.all_counts = hand.counts
        self.discard = context.discarder is not None
        self.seat = context.seat_wind if context.seat_wind is not None else EAST + (context.winner - context.dealer) % 4
        self.prevalent = context.round_wind
        self.hand_fans = self._hand_fans(hand, context)
        self._unique_wait: bool | None = None

    def unique_wait(self) -> bool:
        """Whether the concealed tiles wait on the winning tile alone (worked out once, when asked)."""
        if self._unique_wait is None:
            self._unique_wait = _is_unique_wait(self.concealed, self.win_tile)
        return self._unique_wait

    def _hand_fans(self, hand: Hand, context: WinContext) -> _Table:
        """Fans of the tiles as a whole and of the situation (no reading needed)."""
        table: _Table = {}
        counts = self.all_counts
        present = _present(counts)
        suits = (present & _MAN_MASK != 0) + (present & _PIN_MASK != 0) + (present & _SOU_MASK != 0)
        has_wind = present & _WIND_MASK != 0
        has_dragon = present & _DRAGON_MASK != 0
        if not has_wind and not has_dragon:
            table[NO_HONORS] = 1
        if suits == 2:
            table[ONE_VOIDED_SUIT] = 1
        elif suits == 1:
            table[HALF_FLUSH if has_wind or has_dragon else FULL_FLUSH] = 1
        elif suits == 3 and has_wind and has_dragon:
            table[ALL_TYPES] = 1
        if not present & _ORPHAN_MASK:
            table[ALL_SIMPLES] = 1
        elif not present & ~_HONOR_MASK:
            table[ALL_HONORS] = 1
        elif not present & ~_TERMINAL_MASK:
            table[ALL_TERMINALS] = 1
        elif not present & ~_ORPHAN_MASK:
            table[ALL_TERMINALS_AND_HONORS] = 1
        if not present & ~_REVERSIBLE_MASK:
            table[REVERSIBLE_TILES] = 1
        if not present & ~_GREEN_MASK:
            table[ALL_GREEN] = 1
        if not present & ~_LOWER_MASK:
            table[LOWER_FOUR if present & _RANK_MASKS[4] else LOWER_TILES] = 1
        elif not present & ~_UPPER_MASK:
            table[UPPER_FOUR if present & _RANK_MASKS[6] else UPPER_TILES] = 1
        elif not present & ~_MIDDLE_MASK:
            table[MIDDLE_TILES] = 1
        hogs = counts.count(4) - self.kongs
        if hogs:
            table[TILE_HOG] = hogs
        self._situation_fans(hand, context, table)
        return table

    def _situation_fans(self, hand: Hand, context: WinContext, table: _Table) -> None:
        win_tile = self.win_tile
        in_melds = self.all_counts[win_tile] - hand.counts[win_tile]
        alone = hand.counts[win_tile] == 1
        # 和绝张: the other three copies are in view; they cannot be if the winner holds
        # one more, and must be if the winner's melds show all three.
        if alone and (context.last_copy or in_melds == 3):
            table[LAST_TILE] = 1
        if self.discard:
            if context.last_tile:
                table[LAST_TILE_CLAIM] = 1
            if context.robbed_kong and alone and not in_melds:
                table[ROBBING_THE_KONG] = 1
        else:
            table[SELF_DRAWN] = 1
            if context.last_tile:
                table[LAST_TILE_DRAW] = 1
            if context.kong_replacement and self.kongs:
                table[OUT_WITH_REPLACEMENT_TILE] = 1
        # Kong fans follow from the melds alone; concealed pungs are added per reading.
        self.kong_fan = -1
        if self.kongs == 1:
            self.kong_fan = CONCEALED_KONG if self.concealed_kongs else MELDED_KONG
        elif self.kongs == 2:
            self.kong_fan = (TWO_MELDED_KONGS, CONCEALED_KONG_AND_MELDED_KONG, TWO_CONCEALED_KONGS)[
                self.concealed_kongs
            ]
        elif self.kongs:
            self.kong_fan = THREE_KONGS if self.kongs == 3 else FOUR_KONGS


_SITUATION_FANS: Final = (
    LAST_TILE,
    LAST_TILE_CLAIM,
    ROBBING_THE_KONG,
    SELF_DRAWN,
    LAST_TILE_DRAW,
    OUT_WITH_REPLACEMENT_TILE,
)


def _situation_only(win: _Win, table: _Table) -> None:
    """Copy the situation fans (self-draw, last tile, ...) into ``table``."""
    for fan in _SITUATION_FANS:
        if fan in win.hand_fans:
            table[fan] = win.hand_fans[fan]


def _apply_exclusions(table: _Table) -> None:
    # In table order, so a fan removed by an earlier one excludes nothing.
    for fan in sorted(table):
        if fan in table:
            for other in _EXCLUDED_BY[fan]:
                table.pop(other, None)


def _concealed_pung_fan(concealed: int) -> int:
    return (-1, -1, TWO_CONCEALED_PUNGS, THREE_CONCEALED_PUNGS, FOUR_CONCEALED_PUNGS)[concealed]


def _wind_and_terminal_pungs(win: _Win, pungs: tuple[Tile, ...], table: _Table) -> None:
    """圈风刻, 门风刻 and 幺九刻: a pung used by a wind fan scores no 幺九刻."""
    terminal_pungs = 0
    for tile in pungs:
        if _IS_WIND[tile]:
            used = BIG_THREE_WINDS in table or LITTLE_FOUR_WINDS in table or BIG_FOUR_WINDS in table
            if tile == win.prevalent:
                table[PREVALENT_WIND] = 1
                used = True
            if tile == win.seat:
                table[SEAT_WIND] = 1
                used = True
            if not used:
                terminal_pungs += 1
        elif _IS_TERMINAL[tile]:
            terminal_pungs += 1
    if terminal_pungs:
        table[PUNG_OF_TERMINALS_OR_HONORS] = terminal_pungs


def _regular_table(win: _Win, pair: Tile, concealed_sets: tuple[int, ...]) -> tuple[_Table, bool]:
    """Fans of one regular reading; also whether it holds 一色三同顺 or 三同刻 (tie preference)."""
    win_tile = win.win_tile
    chows = [s for s in concealed_sets if s < _PUNG]
    hand_pungs = [s - _PUNG for s in concealed_sets if s >= _PUNG]
    # Set order does not change the fans (no two combinations of equal worth compete for
    # the same sets), so plain sorting gives the caches canonical keys.
    all_chows = tuple(sorted(chows + win.meld_chows))
    all_pungs = tuple(sorted(hand_pungs + win.meld_pungs))
    table = win.hand_fans.copy()
    _set_fans(all_chows, all_pungs, pair, table)
    preferred = PURE_TRIPLE_CHOW in table or TRIPLE_PUNG in table
    # A pung completed by a discard is not concealed, unless the winning tile can be read
    # as part of a concealed chow instead.
    concealed_pungs = len(hand_pungs)
    if win.discard and win_tile in hand_pungs and not any(c <= win_tile <= c + 2 for c in chows):
        concealed_pungs -= 1
    if win.kong_fan >= 0:
        table[win.kong_fan] = 1
    concealed_fan = _concealed_pung_fan(concealed_pungs + win.concealed_kongs)
    if concealed_fan >= 0:
        table[concealed_fan] = 1
    if win.open_melds == 0:
        table[CONCEALED_HAND if win.discard else FULLY_CONCEALED_HAND] = 1
    elif win.open_melds == 4 and win.discard:
        table[MELDED_HAND] = 1
    if QUADRUPLE_CHOW in table:
        table.pop(TILE_HOG, None)
    if MELDED_HAND not in table and win.kongs < 4:
        wait = -1
        if any(c == win_tile or c + 2 == win_tile for c in chows):
            wait = EDGE_WAIT
        elif any(c + 1 == win_tile for c in chows):
            wait = CLOSED_WAIT
        elif pair == win_tile:
            wait = SINGLE_WAIT
        if wait >= 0 and win.unique_wait():
            table[wait] = 1
    _apply_exclusions(table)
    if BIG_FOUR_WINDS not in table:
        _wind_and_terminal_pungs(win, all_pungs, table)
        if (
            ALL_TERMINALS in table
            or ALL_HONORS in table
            or ALL_TERMINALS_AND_HONORS in table
            or LITTLE_FOUR_WINDS in table
        ):
            table.pop(PUNG_OF_TERMINALS_OR_HONORS, None)
    return table, preferred


def _seven_pairs_table(win: _Win) -> _Table | None:
    counts = win.concealed
    if win.meld_chows or win.meld_pungs or any(counts.translate(_ODD)):
        return None
    table = win.hand_fans.copy()
    present = [tile for tile in range(NUM_TILE_KINDS) if counts[tile]]
    shifted = len(present) == 7 and present[6] - present[0] == 6 and _SUIT[present[0]] == _SUIT[present[6]] < 3
    table[SEVEN_SHIFTED_PAIRS if shifted else SEVEN_PAIRS] = 1
    _apply_exclusions(table)
    return table


def _nine_gates_table(win: _Win) -> _Table | None:
    """九莲宝灯: 1112345678999 of one suit concealed, plus the winning tile."""
    counts = win.concealed
    win_tile = win.win_tile
    rank = _RANK[win_tile]
    if win.meld_chows or win.meld_pungs or not rank or win.concealed_present & ~_SUIT_MASKS[_SUIT[win_tile]]:
        return None
    base = win_tile - rank + 1
    for offset in range(9):
        wanted = 3 if offset in (0, 8) else 1
        if offset == rank - 1:
            wanted += 1
        if counts[base + offset] != wanted:
            return None
    table = {NINE_GATES: 1}
    # The rule book's note: winning on 1 or 9 adds 清龙 and 四归一; on 2, 5 or 8 a second
    # concealed pung (双暗刻) and one 幺九刻; on 2, 3, 4, 6, 7 or 8 a 连六.
    if rank in (1, 9):
        table[PURE_STRAIGHT] = 1
        table[TILE_HOG] = 1
    if rank in (2, 5, 8):
        table[TWO_CONCEALED_PUNGS] = 1
        table[PUNG_OF_TERMINALS_OR_HONORS] = 1
    if rank in (2, 3, 4, 6, 7, 8):
        table[SHORT_STRAIGHT] = 1
    _situation_only(win, table)
    _apply_exclusions(table)
    return table


def _honors_and_knitted_table(win: _Win) -> _Table | None:
    """全不靠 / 七星不靠: 14 different tiles, the suited ones from one knitted straight."""
    counts = win.concealed
    if win.meld_chows or win.meld_pungs or max(counts) > 1:
        return None
    suited = win.concealed_present & ~_HONOR_MASK
    if not any(not suited & ~straight for straight in _KNITTED_MASKS):
        return None
    suited_count = sum(counts[:_HONOR_START])
    honors = 14 - suited_count
    table: _Table = {}
    if honors == 7:
        table[GREATER_HONORS_AND_KNITTED] = 1
    else:
        table[LESSER_HONORS_AND_KNITTED] = 1
        if suited_count == 9:
            table[KNITTED_STRAIGHT] = 1
    _situation_only(win, table)
    _apply_exclusions(table)
    return table


def _thirteen_orphans_table(win: _Win) -> _Table | None:
    counts = win.concealed
    if win.meld_chows or win.meld_pungs or win.concealed_present != _ORPHAN_MASK or max(counts) > 2:
        return None
    table = {THIRTEEN_ORPHANS: 1}
    _situation_only(win, table)
    _apply_exclusions(table)
    return table


def _knitted_straight_table(win: _Win, melds: int) -> _Table | None:
    """组合龙 as three special chows, plus one set (perhaps a declared meld) and a pair."""
    if melds > 1:
        return None
    present = win.concealed_present
    held = [straight for straight, mask in zip(_KNITTED, _KNITTED_MASKS, strict=True) if present & mask == mask]
    if not held:
        return None
    rest = bytearray(win.concealed)
    for tile in held[0]:
        rest[tile] -= 1
    readings = _regular_readings(bytes(rest))
    if not readings:
        return None
    pair, sets = readings[0]
    table = win.hand_fans.copy()
    table[KNITTED_STRAIGHT] = 1
    chows = [s for s in sets if s < _PUNG] + win.meld_chows
    pungs = tuple([s - _PUNG for s in sets if s >= _PUNG] + win.meld_pungs)
    if chows and _RANK[pair]:
        table[ALL_CHOWS] = 1
    if pungs and _IS_DRAGON[pungs[0]]:
        table[DRAGON_PUNG] = 1
    if win.kong_fan >= 0:
        table[win.kong_fan] = 1
    if win.open_melds == 0:
        table[CONCEALED_HAND if win.discard else FULLY_CONCEALED_HAND] = 1
    win_tile = win.win_tile
    if melds == 0:
        # The wait counts when the winning tile can complete the set and pair (the rule
        # book lets a tile that also fits the knitted straight count as that wait).
        if rest[win_tile] and _is_unique_wait(bytes(rest), win_tile):
            set_chows = [s for s in sets if s < _PUNG]
            if any(c == win_tile or c + 2 == win_tile for c in set_chows):
                table[EDGE_WAIT] = 1
            elif any(c + 1 == win_tile for c in set_chows):
                table[CLOSED_WAIT] = 1
            elif pair == win_tile:
                table[SINGLE_WAIT] = 1
    elif pair == win_tile:
        table[SINGLE_WAIT] = 1
    _apply_exclusions(table)
    _wind_and_terminal_pungs(win, pungs, table)
    return table


def _best_table(hand: Hand, win_tile: Tile, context: WinContext) -> _Table:
    if hand.tile_count + 3 * len(hand.melds) != 14 or not 0 <= win_tile < NUM_TILE_KINDS or not hand.counts[win_tile]:
        raise NotAWinningHand("the hand does not complete any MCR form", field="hand")
    win = _Win(hand, win_tile, context)
    melds = len(hand.melds)
    best: _Table | None = None
    best_fan = 0
    seven_pairs = False
    if melds == 0:
        special = _seven_pairs_table(win)
        if special is not None:
            seven_pairs = SEVEN_PAIRS in special
        else:
            special = (
                _honors_and_knitted_table(win)
                or _thirteen_orphans_table(win)
                or _knitted_straight_table(win, melds)
                or _nine_gates_table(win)
            )
        if special is not None:
            best, best_fan = special, _table_total(special)
    elif melds == 1:
        best = _knitted_straight_table(win, melds)
        if best is not None:
            best_fan = _table_total(best)
    if best is None or seven_pairs:
        for pair, sets in _ordered_readings(hand.counts):
            table, preferred = _regular_table(win, pair, sets)
            total = _table_total(table)
            # Ties keep the first reading, except that one with 一色三同顺 or 三同刻, or any
            # regular reading against seven pairs, takes over (PyMahjongGB's choice).
            if total > best_fan or (total == best_fan and (preferred or seven_pairs)):
                best, best_fan = table, total
    if best is None:
        raise NotAWinningHand("the hand does not complete any MCR form", field="hand")
    return best


def _reading_order(reading: tuple[int, tuple[int, ...]]) -> list[tuple[int, int]]:
    """PyMahjongGB's order of readings: concealed sets compared in its tile order."""
    return sorted((_ORACLE_ORDER[s - _PUNG], 0) if s >= _PUNG else (_ORACLE_ORDER[s], 1) for s in reading[1])


def _ordered_readings(counts: bytes) -> list[tuple[int, tuple[int, ...]]]:
    """The regular readings of the concealed ``counts`` in PyMahjongGB's order."""
    readings = _regular_readings(counts)
    if len(readings) > 1:
        readings.sort(key=_reading_order)
    return readings


def _table_total(table: _Table) -> int:
    """The fans of ``table`` summed; an empty table becomes 无番和 (8)."""
    total = 0
    for fan, count in table.items():
        total += _VALUE[fan] * count
    if not total:
        table[CHICKEN_HAND] = 1
        total = _VALUE[CHICKEN_HAND]
    return total


#: Fan values, built once: ``_FANS[fan][count]`` (counts up to 8 flowers; repeatable fans stay below).
_FANS: Final = tuple(
    tuple(Fan(name, chinese, value, count) for count in range(MAX_FLOWERS + 1)) for name, chinese, value in FAN_TABLE
)


def _fans_of(table: _Table) -> tuple[Fan, ...]:
    return tuple([_FANS[fan][table[fan]] for fan in sorted(table)])


def count_fans(hand: Hand, win_tile: Tile, context: WinContext) -> tuple[Fan, ...]:
    """The fans of the best reading of the win, flowers excluded, without the 8-fan floor.

    ``hand`` holds the concealed tiles including ``win_tile``.  Flags the tiles make
    impossible are read as the rule book does (no 和绝张 while the winner holds another
    copy; 和绝张 when its melds show the other three; no 杠上开花 without a kong; no 抢杠和
    when the winner holds the robbed tile elsewhere); :func:`score_mcr` rejects them.
    Raises :class:`NotAWinningHand` when no MCR form completes.

    >>> from app.core.shape.tiles import parse_mpsz
    >>> hand = Hand.from_tiles(parse_mpsz("19m19p19s1234567z1m"))
    >>> [f.name for f in count_fans(hand, 0, WinContext(winner=1, dealer=0, discarder=2))]
    ['Thirteen Orphans']
    """
    return _fans_of(_best_table(hand, win_tile, context))


def fan_total(hand: Hand, win_tile: Tile, context: WinContext) -> int:
    """Total fans of the best reading (flowers excluded): the floor is checked against this.

    >>> from app.core.shape.tiles import parse_mpsz
    >>> from app.core.shape.hand import Meld
    >>> chicken = Hand.from_tiles(parse_mpsz("56s678p11z7s"), [Meld.of("chi", [0, 1, 2]), Meld.of("chi", [2, 3, 4])])
    >>> fan_total(chicken, 24, WinContext(winner=0, dealer=0, discarder=1))
    8
    """
    return _table_total(_best_table(hand, win_tile, context))
