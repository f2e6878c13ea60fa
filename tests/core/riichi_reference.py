"""The riichi scorer in plain Python: the oracle the compiled kernel is checked against.

This is the scorer app/core/value/riichi_scoring.py ran before the kernel
(app/core/kernel/riichi.cpp) took over its computation, kept whole and
self-contained (its own suit splitter, its own answer types) so that a change to
the app cannot change the oracle with it.  tests/core/test_riichi_kernel.py scores
generated wins with both and wants the same answers, field for field.

Every reading of the hand is scored and the highest is kept, as the rules
say: each way the concealed tiles split into a pair and four groups (or seven
pairs, or thirteen orphans), and within a split each group the winning tile
could have completed (a tile that fits a run on either side is a two-sided
wait in one reading and a closed wait in another).  Readings are ranked by
base points, then han, then fu.  The rules and Tenhou's fixed choices are
the ones app/core/value/riichi_scoring.py's docstring lists.

>>> from app.core.shape.hand import Hand, Meld
>>> from app.core.shape.rules import rule_profile
>>> from app.core.value.scoring import WinContext
>>> from app.core.shape.tiles import parse_mpsz
>>> hand = Hand.from_tiles(parse_mpsz("234456m66p789s"), [Meld.of("pon", [33, 33, 33])])
>>> result = score_riichi(hand, 5, rule_profile("riichi"), WinContext(winner=1, dealer=0, discarder=3))
>>> result.han, result.fu, [y.name for y in result.yaku], result.payments
(1, 30, ['chun'], (0, 1000, 0, -1000))
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache, partial
from typing import Final, NamedTuple

from app.core.errors import InvalidRuleOption, NotAWinningHand, NoYaku, TooManyCopies, WrongTileCount
from app.core.shape.hand import Hand, Meld, MeldKind
from app.core.shape.rules import RuleProfile, SevenPairs
from app.core.shape.tiles import (
    EAST,
    M5,
    NORTH,
    NUM_TILE_KINDS,
    ORPHANS,
    P5,
    S5,
    Tile,
    counted,
    dora_table,
    format_tile,
)
from app.core.value.scoring_context import InvalidWinContext, WinContext, check_seats, check_win_tile

MAX_INDICATORS: Final = 5
"""Dora (and ura dora) indicators: one, plus one for each of at most four kongs."""
STICK_POINTS: Final = 1000
HONBA_EACH: Final = 100
"""A honba is worth 100 from each other seat: on a discard the discarder pays them all (300, sanma 200)."""

_RED_FIVE_TILES: Final = (M5, P5, S5)
_GREEN: Final = frozenset((19, 20, 21, 23, 25, 32))  # 2s 3s 4s 6s 8s and 6z (hatsu)
_ORPHAN_SET: Final = frozenset(ORPHANS)
#: Per tile: a terminal or an honour.
_ORPHAN_FLAGS: Final = tuple(tile in _ORPHAN_SET for tile in range(NUM_TILE_KINDS))
_DRAGON_NAMES: Final = {31: "haku", 32: "hatsu", 33: "chun"}
_SUIT_STARTS: Final = ((0, 9, True), (9, 9, True), (18, 9, True), (27, 7, False))
_CHUUREN_BASE: Final = (3, 1, 1, 1, 1, 1, 1, 1, 3)

#: Limits by name and base points (yakuman: per yakuman counted).
LIMIT_BASE: Final = {"mangan": 2000, "haneman": 3000, "baiman": 4000, "sanbaiman": 6000, "yakuman": 8000}


class YakuHan(NamedTuple):
    """One yaku and its han (a yakuman counts 13 han for each yakuman it is worth)."""

    name: str
    han: int
    #: Yakuman this yaku is worth (0: an ordinary yaku).
    yakuman: int = 0


class FuPart(NamedTuple):
    """One item of the fu count and why (``tile`` for a group or pair)."""

    fu: int
    reason: str
    tile: Tile | None = None


class RiichiScore(NamedTuple):
    """A scored riichi win: the value, the reading behind it, and who pays what."""

    #: Net per seat, honba included, riichi sticks not (they are not seat transfers).
    payments: tuple[int, ...]
    #: (seat, points) for each seat that pays the winner.
    per_payer: tuple[tuple[int, int], ...]
    han: int
    #: 0 for a yakuman (fu do not count there).
    fu: int
    yaku: tuple[YakuHan, ...]
    fu_details: tuple[FuPart, ...]
    #: None, or mangan, haneman, baiman, sanbaiman, yakuman.
    limit: str | None
    #: Yakuman counted (kazoe yakuman: 1); 0 below yakuman.
    yakuman_count: int
    #: Base points (fu x 2^(2 + han), or the limit's).
    base_points: int
    #: Points the winner takes from the table's riichi sticks.
    riichi_sticks_won: int
    #: The winning reading: its form, pair, groups and wait (see :class:`Reading`).
    reading: Reading
    #: Qiqihar's field; riichi has no multipliers (kept for one answer shape).
    multipliers: tuple[()] = ()


class Group(NamedTuple):
    """A set of three or four: a run (``first`` is its lowest tile) or a triplet/kan."""

    is_run: bool
    first: Tile
    #: Concealed (never called; a triplet finished by a discard is not).
    concealed: bool
    is_kan: bool = False


class Reading(NamedTuple):
    """One way to read the winning hand."""

    #: ``regular``, ``seven_pairs`` or ``thirteen_orphans``.
    form: str
    #: The pair (thirteen orphans: the doubled tile); seven pairs: the first pair.
    pair: Tile
    groups: tuple[Group, ...] = ()
    pairs: tuple[Tile, ...] = ()
    #: ``ryanmen``, ``kanchan``, ``penchan``, ``shanpon``, ``tanki`` (seven pairs and
    #: thirteen orphans: ``tanki``; a 13-sided kokushi: ``kokushi_13``).
    wait: str = "tanki"


class _Table(NamedTuple):
    """The situation in the shape the yaku checks read."""

    tsumo: bool
    seat_wind: Tile
    round_wind: Tile
    closed: bool


def _tile_mask(tiles: Sequence[Tile] | range) -> int:
    """Tiles as an int with byte ``t`` set to 1 for each tile ``t`` (see :class:`_Held`)."""
    return sum(1 << (8 * tile) for tile in set(tiles))


_NONZERO: Final = bytes([0] + [1] * 255)  # bytes.translate: any count -> 1
_AT_LEAST_THREE: Final = bytes([0, 0, 0] + [1] * 253)  # bytes.translate: 3 or more -> 1
_ALL_MASK: Final = _tile_mask(range(NUM_TILE_KINDS))
_ORPHAN_MASK: Final = _tile_mask(ORPHANS)
_HONOR_MASK: Final = _tile_mask(range(EAST, NUM_TILE_KINDS))
_TERMINAL_MASK: Final = _ORPHAN_MASK & ~_HONOR_MASK
_GREEN_MASK: Final = _tile_mask(sorted(_GREEN))
_SUIT_MASKS: Final = tuple(_tile_mask(range(start, start + 9)) for start in (0, 9, 18))


_SINGLE_SUIT: Final = (-1, 0, 1, -1, 2, -1, -1, -1)  # by a bit set of suits held: the one suit, or -1


class _Held(NamedTuple):
    """What the kinds of tile held (hand and melds) say, worked out once per hand."""

    #: Copies of each tile in hand and melds (a kan's four counted).
    total: bytes
    no_orphans: bool
    all_orphans: bool
    all_honors: bool
    all_green: bool
    all_terminals: bool
    has_honors: bool
    #: The suit (0 m, 1 p, 2 s) when the number tiles are all of one suit, else -1 (none or several).
    single_suit: int
    #: Kinds held three times or more (every yakuman of sets needs three such kinds).
    kinds_at_three: int

    @classmethod
    def of(cls, total: bytes) -> _Held:
        held = int.from_bytes(total.translate(_NONZERO), "little")
        man, pin, sou = _SUIT_MASKS
        suits = (1 if held & man else 0) + (2 if held & pin else 0) + (4 if held & sou else 0)
        return cls(
            total,
            not held & _ORPHAN_MASK,
            not held & ~_ORPHAN_MASK & _ALL_MASK,
            not held & ~_HONOR_MASK & _ALL_MASK,
            not held & ~_GREEN_MASK & _ALL_MASK,
            not held & ~_TERMINAL_MASK & _ALL_MASK,
            bool(held & _HONOR_MASK),
            _SINGLE_SUIT[suits],
            total.translate(_AT_LEAST_THREE).count(1),
        )


def _round_up_100(points: int) -> int:
    return -(-points // 100) * 100


# -- readings ----------------------------------------------------------------


def _suit_splits(
    counts: tuple[int, ...], runs: bool, with_pair: bool
) -> tuple[tuple[int | None, tuple[tuple[int, ...], ...]], ...]:
    """Splits of one suit (local tile indices) into melds and, if asked, one pair.

    >>> _suit_splits((3, 3, 3, 2, 0, 0, 0, 0, 0), True, True)  # 111222333m44m: pair 1m or 4m
    ((0, ((0, 1, 2), (1, 2, 3), (1, 2, 3))), (3, ((0, 0, 0), (1, 1, 1), (2, 2, 2))), (3, ((0, 1, 2), (0, 1, 2), (0, 1, 2))))
    """
    total = sum(counts)
    if total % 3 != (2 if with_pair else 0):
        return ()
    found: list[tuple[int | None, tuple[tuple[int, ...], ...]]] = []
    work = list(counts)
    width = len(work)

    def walk(pair: int | None, melds: list[tuple[int, ...]]) -> None:
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
        if runs and first <= width - 3 and work[first + 1] and work[first + 2]:
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
    distinct = {(pair, tuple(sorted(melds))) for pair, melds in found}
    return tuple(sorted(distinct, key=lambda split: (-1 if split[0] is None else split[0], split[1])))


def _suit_groups(suit: bytes, start: int, runs: bool) -> tuple[tuple[Tile | None, tuple[Group, ...]], ...]:
    """(pair, concealed groups) for every split of one suit's counts, tiles numbered from ``start``."""
    local = tuple(suit)
    with_pair = sum(local) % 3 == 2
    return tuple(
        (
            None if pair is None else start + pair,
            tuple(Group(meld[0] != meld[1], start + meld[0], True) for meld in melds),
        )
        for pair, melds in _suit_splits(local, runs, with_pair)
    )


# Memoised per suit on the suit's counts alone: a finite domain (a few hundred thousand
# number-suit shapes, 2,400 honour ones, of which play meets far fewer), like the
# per-suit tables of the shape engine.  One cache a suit keeps the key a plain bytes.
_read_man = lru_cache(maxsize=65536)(partial(_suit_groups, start=0, runs=True))
_read_pin = lru_cache(maxsize=65536)(partial(_suit_groups, start=9, runs=True))
_read_sou = lru_cache(maxsize=65536)(partial(_suit_groups, start=18, runs=True))
_read_honors = lru_cache(maxsize=4096)(partial(_suit_groups, start=27, runs=False))
_SUIT_READERS: Final = ((0, 9, _read_man), (9, 9, _read_pin), (18, 9, _read_sou), (27, 7, _read_honors))


def _regular_splits(counts: bytes) -> list[tuple[Tile, tuple[Group, ...]]]:
    """(pair, concealed groups) for every split of ``counts`` into melds and one pair."""
    out: list[tuple[Tile, tuple[Group, ...]]] = [(-1, ())]
    pair_suits = 0
    for start, width, read_suit in _SUIT_READERS:
        suit = counts[start : start + width]
        if not any(suit):
            continue
        options = read_suit(suit)
        if not options:
            return []
        pair_suits += options[0][0] is not None
        if len(options) == 1:
            suit_pair, suit_groups = options[0]
            out = [(pair if suit_pair is None else suit_pair, groups + suit_groups) for pair, groups in out]
        else:
            out = [
                (pair if suit_pair is None else suit_pair, groups + suit_groups)
                for pair, groups in out
                for suit_pair, suit_groups in options
            ]
    return out if pair_suits == 1 else []


def _wait_of_run(first: Tile, win_tile: Tile) -> str:
    offset = win_tile - first
    if offset == 1:
        return "kanchan"
    number = first % 9  # 0-based number of the run's lowest tile
    if (offset == 2 and number == 0) or (offset == 0 and number == 6):
        return "penchan"
    return "ryanmen"


@cache  # bounded: 5 kinds x 34 tiles
def _declared_group(meld: Meld) -> Group:
    kind = meld.kind
    return Group(kind is MeldKind.CHI, meld.tiles[0], kind is MeldKind.CLOSED_KAN, kind.size == 4)


def _readings(hand: Hand, win_tile: Tile, tsumo: bool, rules: RuleProfile) -> list[Reading]:
    counts = hand.counts
    declared = tuple(map(_declared_group, hand.melds))
    readings: list[Reading] = []
    for pair, concealed in _regular_splits(counts):
        if pair == win_tile:
            readings.append(Reading("regular", pair, concealed + declared, (), "tanki"))
        previous = None
        for index, group in enumerate(concealed):
            first = group.first
            if group.is_run:
                if not first <= win_tile <= first + 2 or group == previous:
                    continue
                wait = _wait_of_run(first, win_tile)
                finished = group
            else:
                if first != win_tile:
                    continue
                wait = "shanpon"
                # A triplet finished by a discard is an open one (fu, sanankou, suuankou).
                finished = group if tsumo else Group(False, first, False)
            # Groups come sorted, so a twin run (iipeikou) sits next to its twin: read once.
            previous = group
            groups_read = concealed[:index] + (finished,) + concealed[index + 1 :] + declared
            readings.append(Reading("regular", pair, groups_read, (), wait))
    if not hand.melds and hand.tile_count == 14:
        # Cheap tests on the counts first: most hands are neither form.
        quads = rules.seven_pairs is SevenPairs.QUAD_AS_TWO
        if counts.count(2) + (2 * counts.count(4) if quads else 0) == 7 and rules.seven_pairs is not SevenPairs.OFF:
            pairs = tuple(tile for tile in range(NUM_TILE_KINDS) for _ in range(counts[tile] // 2))
            readings.append(Reading("seven_pairs", pairs[0], (), pairs, "tanki"))
        if (
            rules.thirteen_orphans
            and not any(counts[1:8])
            and not any(counts[10:17])
            and not any(counts[19:26])
            and counts.count(0) == NUM_TILE_KINDS - len(ORPHANS)
        ):
            doubled = next(t for t in ORPHANS if counts[t] == 2)
            readings.append(
                Reading("thirteen_orphans", doubled, (), (), "kokushi_13" if doubled == win_tile else "tanki")
            )
    return readings


# -- yakuman -----------------------------------------------------------------


def _yakuman(
    reading: Reading,
    hand: Hand,
    win_tile: Tile,
    held: _Held,
    first_turn: bool,
    dealer_wins: bool,
    rules: RuleProfile,
) -> list[YakuHan]:
    double = 2 if rules.double_yakuman else 1
    found: list[YakuHan] = []

    def add(name: str, count: int = 1) -> None:
        found.append(YakuHan(name, 13 * count, count))

    if first_turn:
        add("tenhou" if dealer_wins else "chiihou")
    if reading.form == "thirteen_orphans":
        if reading.wait == "kokushi_13":
            add("kokushi_13", double)
        else:
            add("kokushi")
        return found
    if held.all_honors:
        add("tsuuiisou")
    if held.all_green:
        add("ryuuiisou")
    if held.all_terminals:
        add("chinroutou")
    if reading.form == "seven_pairs":
        return found
    groups = reading.groups
    triplets = [g for g in groups if not g.is_run]
    if len(triplets) == 4 and all(g.concealed for g in triplets):
        if reading.wait == "tanki":
            add("suuankou_tanki", double)
        else:
            add("suuankou")
    dragons = sum(1 for g in triplets if g.first in _DRAGON_NAMES)
    if dragons == 3:
        add("daisangen")
    winds = sum(1 for g in triplets if EAST <= g.first <= NORTH)
    if winds == 4:
        add("daisuushii", double)
    elif winds == 3 and EAST <= reading.pair <= NORTH:
        add("shousuushii")
    if sum(1 for g in groups if g.is_kan) == 4:
        add("suukantsu")
    suit = held.single_suit
    if not hand.melds and suit >= 0 and not held.has_honors:
        local = held.total[suit * 9 : suit * 9 + 9]
        if all(have >= need for have, need in zip(local, _CHUUREN_BASE, strict=True)):
            before = list(local)
            before[win_tile - suit * 9] -= 1
            if tuple(before) == _CHUUREN_BASE:
                add("junsei_chuuren", double)
            else:
                add("chuuren")
    return found


# -- ordinary yaku -----------------------------------------------------------


#: Han of each ordinary yaku, closed and open (0: not allowed open); the riichi family's table.
_YAKU_HAN: Final = {
    "riichi": (1, 0),
    "double_riichi": (2, 0),
    "ippatsu": (1, 0),
    "menzen_tsumo": (1, 0),
    "haitei": (1, 1),
    "houtei": (1, 1),
    "rinshan": (1, 1),
    "chankan": (1, 1),
    "pinfu": (1, 0),
    "tanyao": (1, 1),
    "iipeikou": (1, 0),
    "ryanpeikou": (3, 0),
    "haku": (1, 1),
    "hatsu": (1, 1),
    "chun": (1, 1),
    "seat_wind": (1, 1),
    "round_wind": (1, 1),
    "chiitoitsu": (2, 0),
    "chanta": (2, 1),
    "junchan": (3, 2),
    "ittsu": (2, 1),
    "sanshoku": (2, 1),
    "sanshoku_doukou": (2, 2),
    "sankantsu": (2, 2),
    "toitoi": (2, 2),
    "sanankou": (2, 2),
    "shousangen": (2, 2),
    "honroutou": (2, 2),
    "honitsu": (3, 2),
    "chinitsu": (6, 5),
}
#: The yaku as values, built once: closed hands' and open hands' han.
_CLOSED_YAKU: Final = {name: YakuHan(name, han) for name, (han, _) in _YAKU_HAN.items()}
_OPEN_YAKU: Final = {name: YakuHan(name, han) for name, (_, han) in _YAKU_HAN.items() if han}
PINFU: Final = _CLOSED_YAKU["pinfu"]


def _yaku(reading: Reading, held: _Held, table: _Table, rules: RuleProfile) -> list[YakuHan]:
    closed = table.closed
    yaku = _CLOSED_YAKU if closed else _OPEN_YAKU
    found: list[YakuHan] = []
    honors = held.has_honors
    if held.no_orphans and (closed or rules.open_tanyao):
        found.append(yaku["tanyao"])
    if held.single_suit >= 0:
        found.append(yaku["honitsu" if honors else "chinitsu"])
    if held.all_orphans:
        found.append(yaku["honroutou"])
    if reading.form == "seven_pairs":
        found.append(yaku["chiitoitsu"])
        return found

    runs: list[Tile] = []
    triplets: list[Tile] = []
    kans = concealed_triplets = dragon_triplets = 0
    orphan_in_every_group = True
    seat_wind, round_wind = table.seat_wind, table.round_wind
    for group in reading.groups:
        first = group.first
        if group.is_run:
            runs.append(first)
            if orphan_in_every_group and first % 9 not in (0, 6):
                orphan_in_every_group = False
            continue
        triplets.append(first)
        kans += group.is_kan
        concealed_triplets += group.concealed
        if orphan_in_every_group and first < 27 and first % 9 not in (0, 8):
            orphan_in_every_group = False
        if first >= 31:
            dragon_triplets += 1
            found.append(yaku[_DRAGON_NAMES[first]])
        elif first >= 27:
            if first == seat_wind:
                found.append(yaku["seat_wind"])
            if first == round_wind:
                found.append(yaku["round_wind"])
    pair = reading.pair
    if runs:
        if (
            closed
            and len(runs) == 4
            and reading.wait == "ryanmen"
            and pair < 31
            and pair != seat_wind
            and pair != round_wind
        ):
            found.append(PINFU)
        if closed and len(runs) >= 2:
            twins = sum(runs.count(first) // 2 for first in set(runs))
            if twins >= 2:
                found.append(yaku["ryanpeikou"])
            elif twins == 1:
                found.append(yaku["iipeikou"])
        if orphan_in_every_group and _ORPHAN_FLAGS[pair]:
            found.append(yaku["chanta" if honors else "junchan"])
        if len(runs) >= 3:
            run_set = set(runs)
            if any({start, start + 3, start + 6} <= run_set for start in (0, 9, 18)):
                found.append(yaku["ittsu"])
            if any({number, number + 9, number + 18} <= run_set for number in runs if number < 9):
                found.append(yaku["sanshoku"])
    if len(triplets) >= 3:
        if any({number, number + 9, number + 18} <= set(triplets) for number in triplets if number < 9):
            found.append(yaku["sanshoku_doukou"])
        if kans == 3:
            found.append(yaku["sankantsu"])
        if len(triplets) == 4:
            found.append(yaku["toitoi"])
        if concealed_triplets == 3:
            found.append(yaku["sanankou"])
    if dragon_triplets == 2 and pair >= 31:
        found.append(yaku["shousangen"])
    return found


def _fu_points(reading: Reading, table: _Table, pinfu: bool) -> int:
    """The fu of a reading, rounded up to 10: :func:`_fu`'s total without its items."""
    if reading.form == "seven_pairs":
        return 25
    if pinfu and table.tsumo:
        return 20
    fu = 20
    if table.tsumo:
        fu += 2
    elif table.closed:
        fu += 10
    for group in reading.groups:
        if not group.is_run:
            fu += (2 << group.concealed << _ORPHAN_FLAGS[group.first]) << (2 * group.is_kan)
    pair = reading.pair
    if pair >= 31:
        fu += 2
    else:
        fu += 2 * (pair == table.seat_wind) + 2 * (pair == table.round_wind)
    if reading.wait in _CLOSED_WAITS:
        fu += 2
    if fu == 20 and not table.closed:
        return 30
    return -(-fu // 10) * 10


_CLOSED_WAITS: Final = frozenset(("kanchan", "penchan", "tanki"))


def _group_fu_part(concealed: bool, is_kan: bool, tile: Tile) -> FuPart:
    orphan = _ORPHAN_FLAGS[tile]
    fu = (2 << concealed << orphan) << (2 * is_kan)
    kind = "kan" if is_kan else "triplet"
    reason = f"{'closed' if concealed else 'open'}_{kind}_{'terminal_or_honor' if orphan else 'simple'}"
    return FuPart(fu, reason, tile)


#: The fu item of each triplet or kan, by (concealed, is_kan, tile).
_GROUP_FU_PARTS: Final = {
    (concealed, is_kan, tile): _group_fu_part(concealed, is_kan, tile)
    for concealed in (False, True)
    for is_kan in (False, True)
    for tile in range(NUM_TILE_KINDS)
}
_BASE_PART: Final = FuPart(20, "base")
_FIXED_PARTS: Final = {
    "chiitoitsu": FuPart(25, "chiitoitsu"),
    "closed_ron": FuPart(10, "closed_ron"),
    "self_draw": FuPart(2, "self_draw"),
    "open_pinfu": FuPart(10, "open_pinfu"),
    "kanchan": FuPart(2, "wait_kanchan"),
    "penchan": FuPart(2, "wait_penchan"),
    "tanki": FuPart(2, "wait_tanki"),
}


def _fu(reading: Reading, table: _Table, pinfu: bool) -> tuple[int, tuple[FuPart, ...]]:
    """The fu of a reading, rounded up to 10 (seven pairs: 25), with its items."""
    if reading.form == "seven_pairs":
        return 25, (_FIXED_PARTS["chiitoitsu"],)
    if pinfu and table.tsumo:
        return 20, (_BASE_PART,)
    parts = [_BASE_PART]
    if table.closed and not table.tsumo:
        parts.append(_FIXED_PARTS["closed_ron"])
    if table.tsumo:
        parts.append(_FIXED_PARTS["self_draw"])
    for group in reading.groups:
        if not group.is_run:
            parts.append(_GROUP_FU_PARTS[group.concealed, group.is_kan, group.first])
    pair = reading.pair
    if pair in _DRAGON_NAMES:
        parts.append(FuPart(2, "pair_dragon", pair))
    if pair == table.seat_wind:
        parts.append(FuPart(2, "pair_seat_wind", pair))
    if pair == table.round_wind:
        parts.append(FuPart(2, "pair_round_wind", pair))
    if reading.wait in _CLOSED_WAITS:
        parts.append(_FIXED_PARTS[reading.wait])
    raw = sum(part.fu for part in parts)
    if raw == 20 and not table.closed:
        # An open hand with nothing but the base (kuipinfu) is scored 30 fu.
        parts.append(_FIXED_PARTS["open_pinfu"])
        raw = 30
    return -(-raw // 10) * 10, tuple(parts)


# -- points ------------------------------------------------------------------


def _limit_of(han: int, fu: int, rules: RuleProfile) -> tuple[str | None, int]:
    """(limit name, base points) of an ordinary hand (kazoe yakuman included)."""
    if han >= 13:
        if rules.kazoe_limit == "yakuman":
            return "yakuman", LIMIT_BASE["yakuman"]
        return "sanbaiman", LIMIT_BASE["sanbaiman"]
    if han >= 11:
        return "sanbaiman", LIMIT_BASE["sanbaiman"]
    if han >= 8:
        return "baiman", LIMIT_BASE["baiman"]
    if han >= 6:
        return "haneman", LIMIT_BASE["haneman"]
    base = fu * 2 ** (2 + han)
    if han >= 5 or base >= LIMIT_BASE["mangan"] or (rules.kiriage and (han, fu) in ((4, 30), (3, 60))):
        return "mangan", LIMIT_BASE["mangan"]
    return None, base


def riichi_payments(
    base: int,
    winner: int,
    dealer: int,
    discarder: int | None,
    honba: int,
    *,
    seats: int = 4,
    tsumo_loss: bool = True,
) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """Tenhou's payments for ``base`` points: net per seat and what each payer pays.

    A discard pays basic x4 (x6 to the dealer), rounded up to 100; on a self-draw each
    other seat pays basic x1 (x2 when the payer or the winner deals), rounded up to 100.
    With three seats the missing north's share is lost on a self-draw (``tsumo_loss``,
    Tenhou's sanma); without tsumo loss each payer adds half of it, rounded up to 100.

    >>> riichi_payments(960, winner=1, dealer=0, discarder=None, honba=1)
    ((-2100, 4300, -1100, -1100), ((0, 2100), (2, 1100), (3, 1100)))
    >>> riichi_payments(2000, winner=1, dealer=0, discarder=None, honba=0, seats=3)
    ((-4000, 6000, -2000), ((0, 4000), (2, 2000)))
    >>> riichi_payments(2000, winner=1, dealer=0, discarder=None, honba=0, seats=3, tsumo_loss=False)
    ((-5000, 8000, -3000), ((0, 5000), (2, 3000)))
    """
    if discarder is not None:
        pays = _round_up_100(base * (6 if winner == dealer else 4)) + HONBA_EACH * (seats - 1) * honba
        per_payer: tuple[tuple[int, int], ...] = ((discarder, pays),)
    else:
        # The seat missing at a three-player table would have paid as a non-dealer.
        missing = 0 if seats == 4 or tsumo_loss else _round_up_100(base * (2 if winner == dealer else 1))
        extra = _round_up_100(missing // 2) if missing else 0
        per_payer = tuple(
            (seat, _round_up_100(base * (2 if dealer in (seat, winner) else 1)) + extra + HONBA_EACH * honba)
            for seat in range(seats)
            if seat != winner
        )
    return net_payments(winner, per_payer, seats), per_payer


def net_payments(winner: int, per_payer: Sequence[tuple[int, int]], seats: int) -> tuple[int, ...]:
    """Each seat's net points when every ``(payer, points)`` pays ``winner``.

    >>> net_payments(1, ((0, 2100), (2, 1100)), 3)
    (-2100, 3200, -1100)
    """
    payments = [0] * seats
    for seat, pays in per_payer:
        payments[seat] -= pays
        payments[winner] += pays
    return tuple(payments)


# -- the situation -----------------------------------------------------------


def _check_situation(
    hand: Hand, win_tile: Tile, context: WinContext, held_total: Sequence[int], rules: RuleProfile
) -> None:
    check_seats(context, rules.seats)
    tsumo = context.discarder is None
    in_riichi = context.riichi or context.double_riichi
    if not EAST <= context.round_wind <= NORTH:
        raise InvalidWinContext(
            f"round_wind must be a wind (1z..4z), got {format_tile(context.round_wind)}", field="round_wind"
        )
    if in_riichi and hand.has_open_meld:
        field = "double_riichi" if context.double_riichi else "riichi"
        raise InvalidWinContext(f"{field} needs a closed hand, but the hand has an open meld", field=field)
    if context.ippatsu and not in_riichi:
        raise InvalidWinContext("ippatsu needs riichi (or double_riichi)", field="ippatsu")
    if context.kong_replacement:
        # Sanma: the replacement drawn after a kita is a dead-wall tile too (rinshan).
        after_kita = rules.seats == 3 and context.nuki > 0
        if not after_kita and not any(meld.kind.size == 4 for meld in hand.melds):
            raise InvalidWinContext(
                "kong_replacement needs a kong among the winner's melds"
                + (" or a north set aside (nuki)" if rules.seats == 3 else ""),
                field="kong_replacement",
            )
        if context.ippatsu and not after_kita:
            raise InvalidWinContext(
                "a kong ends ippatsu, so a win on a kong's replacement tile has none"
                + (" (with no north set aside, the replacement followed a kong)" if rules.seats == 3 else ""),
                field="ippatsu",
            )
        if context.last_tile:
            raise InvalidWinContext(
                "a replacement tile (after a kong or a kita) is never the last tile (haitei)", field="last_tile"
            )
    if context.robbed_kong:
        if hand.counts[win_tile] != 1 or any(win_tile in meld.tiles for meld in hand.melds):
            raise InvalidWinContext(
                f"robbing a kong of {format_tile(win_tile)}: its other three copies are in the kong, "
                "so the winner holds only the robbed one",
                field="robbed_kong",
            )
        if context.last_tile:
            raise InvalidWinContext("no kong can be declared on the last tile, so none is robbed", field="last_tile")
    if context.first_turn:
        if not tsumo:
            raise InvalidWinContext("tenhou and chiihou are self-draws: discarder must be null", field="first_turn")
        if hand.melds:
            raise InvalidWinContext("tenhou and chiihou need a hand with no melds", field="first_turn")
        if in_riichi or context.kong_replacement or context.last_tile:
            raise InvalidWinContext(
                "tenhou and chiihou are the first draw: no riichi, replacement tile or last tile", field="first_turn"
            )
    if context.honba < 0:
        raise InvalidWinContext(f"honba must be 0 or more, got {context.honba}", field="honba")
    if context.riichi_sticks < 0:
        raise InvalidWinContext(f"riichi_sticks must be 0 or more, got {context.riichi_sticks}", field="riichi_sticks")
    total = list(held_total)
    if context.nuki:
        if rules.seats != 3:
            raise InvalidWinContext("nuki (north tiles set aside) exists only at a three-player table", field="nuki")
        if not 0 < context.nuki <= 4 - total[NORTH]:
            raise InvalidWinContext(
                f"nuki must be 0..{4 - total[NORTH]} (4 norths less those in hand and melds), got {context.nuki}",
                field="nuki",
            )
        total[NORTH] += context.nuki
    if context.robbed_kong:
        total[win_tile] += 3  # the robbed kong's other three copies are on the table
    for field in ("dora_indicators", "ura_indicators"):
        indicators = getattr(context, field)
        if len(indicators) > MAX_INDICATORS:
            raise InvalidWinContext(
                f"{field}: at most {MAX_INDICATORS} indicators (one, plus one a kong), got {len(indicators)}",
                field=field,
            )
        for tile in indicators:
            if not 0 <= tile < NUM_TILE_KINDS:
                raise InvalidWinContext(f"{field}: {tile} is not a tile", field=field)
            total[tile] += 1
            if total[tile] > 4:
                robbed = " and the robbed kong" if context.robbed_kong and tile == win_tile else ""
                raise TooManyCopies(
                    f"{total[tile]} copies of {format_tile(tile)} in hand, melds{robbed} and indicators; a tile has 4",
                    field=field,
                )
    fives = held_total
    for tile in set(context.red_fives):
        if tile not in _RED_FIVE_TILES:
            raise InvalidWinContext(f"red_fives: {format_tile(tile)} is not a five of m, p or s", field="red_fives")
        if context.red_fives.count(tile) > fives[tile]:
            raise InvalidWinContext(
                f"{context.red_fives.count(tile)} red {format_tile(tile)} but {fives[tile]} held", field="red_fives"
            )


def score_riichi(hand: Hand, win_tile: Tile, rules: RuleProfile, context: WinContext) -> RiichiScore:
    """Score a riichi win: the highest reading's yaku, han, fu, limit and payments.

    ``hand`` holds the concealed tiles including ``win_tile``.  Raises
    :class:`InvalidWinContext` for a situation that cannot happen,
    :class:`~app.core.errors.NotAWinningHand` for a hand that is not complete and
    :class:`NoYaku` for a complete hand without a yaku.

    >>> from app.core.shape.rules import rule_profile
    >>> from app.core.value.scoring import WinContext
    >>> from app.core.shape.tiles import parse_mpsz
    >>> hand = Hand.from_tiles(parse_mpsz("123456789m11p456s"))
    >>> result = score_riichi(hand, 8, rule_profile("riichi"), WinContext(winner=0, dealer=0, riichi=True))
    >>> [(y.name, y.han) for y in result.yaku], result.fu, result.limit, result.payments
    ([('riichi', 1), ('menzen_tsumo', 1), ('pinfu', 1), ('ittsu', 2)], 20, 'mangan', (12000, -4000, -4000, -4000))
    """
    check_win_tile(hand.counts, win_tile)
    groups_declared = len(hand.melds)
    if hand.tile_count + 3 * groups_declared != 14:
        raise WrongTileCount(
            f"a winning hand has 14 tiles with each meld counted as 3; got {hand.tile_count} concealed "
            f"with {counted(groups_declared, 'meld')}",
            field="hand",
        )
    if rules.wildcards:
        raise InvalidRuleOption(
            f"riichi scoring has no wildcards; {rules.name} with wildcards cannot be scored", field="rules.wildcards"
        )
    if rules.win_requires_meld and not any(meld.kind in rules.win_requires_meld for meld in hand.melds):
        raise NotAWinningHand(
            f"the hand does not win under these {rules.name} rules (open_meld_required)", field="hand"
        )
    total = hand.all_counts()
    if rules.absent_tiles:
        rules.check_tiles_exist([t for t in rules.absent_tiles if hand.counts[t]], field="hand")
        for index, meld in enumerate(hand.melds):
            rules.check_tiles_exist(meld.tiles, field=f"melds[{index}].tiles")
        rules.check_tiles_exist(context.dora_indicators, field="dora_indicators")
        rules.check_tiles_exist(context.ura_indicators, field="ura_indicators")
    for index, meld in enumerate(hand.melds):
        rules.check_meld_allowed(meld.kind, field=f"melds[{index}].kind")
    _check_situation(hand, win_tile, context, total, rules)
    tsumo = context.discarder is None
    seat_wind = EAST + (context.winner - context.dealer) % rules.seats
    table = _Table(tsumo, seat_wind, context.round_wind, not hand.has_open_meld)
    readings = _readings(hand, win_tile, tsumo, rules)
    if not readings:
        raise NotAWinningHand(f"the hand does not win under {rules.name} rules", field="hand")
    held = _Held.of(total)
    sticks_won = STICK_POINTS * context.riichi_sticks
    if context.first_turn or _may_be_yakuman(hand, held, readings):
        dealer_wins = context.winner == context.dealer
        yakuman_best: tuple[int, list[YakuHan], Reading] | None = None
        for reading in readings:
            found = _yakuman(reading, hand, win_tile, held, context.first_turn, dealer_wins, rules)
            if found:
                count = sum(y.yakuman for y in found) if rules.yakuman_stacking else max(y.yakuman for y in found)
                if yakuman_best is None or count > yakuman_best[0]:
                    yakuman_best = (count, found, reading)
        if yakuman_best is not None:
            count, found, reading = yakuman_best
            if not rules.yakuman_stacking:
                found = [max(found, key=lambda y: y.yakuman)]
            base = LIMIT_BASE["yakuman"] * count
            payments, per_payer = _payments(base, context, rules)
            return RiichiScore(
                payments, per_payer, 13 * count, 0, tuple(found), (), "yakuman", count, base, sticks_won, reading
            )

    situational = _situational_yaku(context, table)
    bonus = _dora(total, context, rules)
    bonus_han = sum(y.han for y in bonus)
    # Rank the readings on plain numbers; the fu items are written out for the winner only.
    best_key = (-1, -1, -1)
    best: tuple[Reading, list[YakuHan], bool, str | None] | None = None
    for reading in readings:
        yaku = situational + _yaku(reading, held, table, rules)
        if not yaku:
            continue
        han = bonus_han
        pinfu = False
        for item in yaku:
            han += item.han
            if item is PINFU:
                pinfu = True
        fu = _fu_points(reading, table, pinfu)
        limit, base = _limit_of(han, fu, rules)
        key = (base, han, fu)
        if key > best_key:
            best_key, best = key, (reading, yaku, pinfu, limit)
    if best is None:
        raise NoYaku("the hand is complete but has no yaku, so it cannot be declared a win", field="hand")
    base, han, fu = best_key
    reading, yaku, pinfu, limit = best
    payments, per_payer = _payments(base, context, rules)
    return RiichiScore(
        payments,
        per_payer,
        han,
        fu,
        tuple(yaku) + bonus,
        _fu(reading, table, pinfu)[1],
        limit,
        1 if limit == "yakuman" else 0,
        base,
        sticks_won,
        reading,
    )


def _payments(
    base: int, context: WinContext, rules: RuleProfile
) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    return riichi_payments(
        base,
        context.winner,
        context.dealer,
        context.discarder,
        context.honba,
        seats=rules.seats,
        tsumo_loss=rules.tsumo_loss,
    )


def _may_be_yakuman(hand: Hand, held: _Held, readings: Sequence[Reading]) -> bool:
    """Whether any yakuman but tenhou/chiihou could apply: a cheap test that spares most hands the search.

    Every pattern yakuman needs one of: thirteen orphans; a hand of honours, greens or terminals
    only; three or more kinds held three or more times (the dragon and wind yakuman, suuankou,
    suukantsu); a closed hand of one suit (chuuren).
    """
    if held.all_honors or held.all_green or held.all_terminals:
        return True
    if not hand.melds and held.single_suit >= 0 and not held.has_honors:
        return True
    if readings[-1].form == "thirteen_orphans":
        return True
    return held.kinds_at_three >= 3


def _situational_yaku(context: WinContext, table: _Table) -> list[YakuHan]:
    yaku = _CLOSED_YAKU
    found: list[YakuHan] = []
    if context.double_riichi:
        found.append(yaku["double_riichi"])
    elif context.riichi:
        found.append(yaku["riichi"])
    if context.ippatsu:
        found.append(yaku["ippatsu"])
    if table.closed and table.tsumo:
        found.append(yaku["menzen_tsumo"])
    if context.last_tile:
        found.append(yaku["haitei" if table.tsumo else "houtei"])
    if context.kong_replacement:
        found.append(yaku["rinshan"])
    if context.robbed_kong:
        found.append(yaku["chankan"])
    return found


def _dora(total: Sequence[int], context: WinContext, rules: RuleProfile) -> tuple[YakuHan, ...]:
    found = []
    dora_of = dora_table(rules.absent_tiles)
    # A north set aside is a dora of its own, and one more for each indicator showing north.
    nuki = context.nuki
    dora = sum(total[dora_of[t]] + (nuki if dora_of[t] == NORTH else 0) for t in context.dora_indicators)
    if dora:
        found.append(YakuHan("dora", dora))
    if rules.red_fives and context.red_fives:
        found.append(YakuHan("aka_dora", len(context.red_fives)))
    if context.riichi or context.double_riichi:
        ura = sum(total[dora_of[t]] + (nuki if dora_of[t] == NORTH else 0) for t in context.ura_indicators)
        if ura:
            found.append(YakuHan("ura_dora", ura))
    if nuki:
        found.append(YakuHan("nuki_dora", nuki))
    return tuple(found)
