"""Fan targets for Chinese Official play: how far a hand is from a win worth 8 fans.

A shanten-only player that completes a hand under 8 fans cannot win under
``mcr``, so a player must steer toward a *pattern* that carries the fans.  A
:class:`Target` is one such pattern, described as a restriction of the
regular form (or one of the special forms):

* ``fixed``: groups of tiles the hand must hold, each group once (the three
  chows of a straight, the three pungs of shifted pungs, the nine tiles of a
  knitted straight);
* ``free_sets`` further sets and a pair, made only of ``allowed`` tiles, and
  only of pungs when ``pungs_only``;
* ``form``: the regular form above, or seven pairs, thirteen orphans, or
  honours and knitted tiles (any 14 distinct tiles of ``allowed``).

:func:`target_need` is the *restricted distance* of a hand to a target: the
fewest tiles it must draw (exchanging others) to complete the target, so a
complete hand is at 0 and a ready hand (13 tiles) at 1, like shanten + 1.  It
counts the fixed tiles missing, then the usual ``2k + 1 - 2 sets - partial
sets - pair`` for the ``k`` free sets over the allowed tiles left.  Declared
melds must fit the target: a meld equal to a fixed group takes its place,
one of allowed tiles (a pung when ``pungs_only``) is a free set, and any
other meld makes the target unreachable (:data:`UNREACHABLE`).

:func:`fan_targets` lists the targets worth 8 fans or more on their own, or
with the companion fan their definition includes (a half flush with a pung
of a dragon or of the seat or round wind is 6 + 2; with all pungs 6 + 6).
The fan values are the rule book's for the named fans; a target is a plan,
and the table scores the hand that completes for real.

:class:`FanPlanner` plays by them: for each discard, the distance to the
nearest target the tiles in sight leave possible, then the unseen tiles that
bring one of the nearest targets closer; once the hand is ready, the unseen
tiles that win with 8 fans by the scorer's own count (a self-draw-only win
counts for less).  It calls a pon, chi or kong only when that brings a target
nearer (a kong: when it does not set the hand back).  Distances, like the
usual block count of shanten, do not see the four-copy limit of the tiles
held; the tests check them against brute force on hands of at most three
copies a tile.

>>> from app.core.shape.tiles import parse_mpsz, counts_from_tiles
>>> targets = {target.name: target for target in fan_targets()}
>>> hand = counts_from_tiles(parse_mpsz("123456789m1p23s5z"))
>>> target_need(targets["pure straight 1m"], hand), target_need(targets["full flush m"], hand)
(2, 5)
>>> regular_need(counts_from_tiles(parse_mpsz("123m456p789s1122z")), 4)
1
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from enum import Enum
from functools import cache, lru_cache
from itertools import permutations
from typing import Final, NamedTuple

from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld, MeldKind
from app.core.shape.tiles import COPIES, DRAGONS, EAST, HONORS, NUM_TILE_KINDS, WHITE, WINDS, Tile, is_honor, parse_mpsz
from app.core.value.mcr_scoring import MINIMUM_FAN, fan_total
from app.core.value.scoring_context import WinContext

UNREACHABLE: Final = 99
"""The distance of a target the declared melds rule out."""
SETS: Final = 4
"""Sets of a complete regular hand."""

#: (first tile, size, whether chows exist) of the three suits and the honours.
_GROUPS: Final = ((0, 9, True), (9, 9, True), (18, 9, True), (27, 7, False))

Block = tuple[int, int, int]
"""(sets, partial sets, pair) found in some tiles; pair is 0 or 1."""


class Form(Enum):
    """The shape a target completes."""

    REGULAR = "regular"
    SEVEN_PAIRS = "seven_pairs"
    THIRTEEN_ORPHANS = "thirteen_orphans"
    HONORS_AND_KNITTED = "honors_and_knitted"


class Target(NamedTuple):
    """One fan pattern a hand can aim for (see the module notes)."""

    name: str
    #: Fans the completed pattern is worth, companions included.
    fan: int
    fixed: tuple[tuple[Tile, ...], ...] = ()
    #: Per tile: whether the free sets and the pair may use it.
    allowed: tuple[bool, ...] = (True,) * NUM_TILE_KINDS
    free_sets: int = SETS
    pungs_only: bool = False
    form: Form = Form.REGULAR


def _pareto(blocks: Iterable[Block]) -> tuple[Block, ...]:
    """The blocks no other block beats in every count (more is never worse)."""
    unique = set(blocks)
    return tuple(
        sorted(
            block
            for block in unique
            if not any(other != block and all(o >= b for o, b in zip(other, block, strict=True)) for other in unique)
        )
    )


@cache
def _blocks(counts: tuple[int, ...], chows: int) -> tuple[Block, ...]:
    """Every best (sets, partial sets, pair) of one suit's (or the honours') counts.

    ``chows`` has bit ``i`` set when the chow starting at offset ``i`` may be made (its
    three tiles are allowed): partial chows count only toward such a chow.
    """
    first = next((index for index, count in enumerate(counts) if count), None)
    if first is None:
        return ((0, 0, 0),)
    found: list[Block] = []

    def take(tiles: Sequence[int], gained: Block) -> None:
        rest = list(counts)
        for tile in tiles:
            rest[tile] -= 1
        for sets, partial, pair in _blocks(tuple(rest), chows):
            if pair + gained[2] <= 1:
                found.append((sets + gained[0], partial + gained[1], pair + gained[2]))

    size = len(counts)
    chow_at = [bool(chows >> start & 1) for start in range(size)] + [False, False]
    if counts[first] >= 3:
        take((first,) * 3, (1, 0, 0))
    if counts[first] >= 2:
        take((first,) * 2, (0, 0, 1))
        take((first,) * 2, (0, 1, 0))
    if chow_at[first] and counts[first + 1] and counts[first + 2]:
        take((first, first + 1, first + 2), (1, 0, 0))
    if first + 1 < size and counts[first + 1] and (chow_at[first] or (first and chow_at[first - 1])):
        take((first, first + 1), (0, 1, 0))
    if chow_at[first] and counts[first + 2]:
        take((first, first + 2), (0, 1, 0))
    take((first,), (0, 0, 0))  # the tile stays alone
    return _pareto(found)


def regular_need(
    counts: Sequence[int], sets: int, *, pungs_only: bool = False, allowed: Sequence[bool] | None = None
) -> int:
    """Tiles to draw until ``counts`` hold ``sets`` sets and a pair (pungs only, when asked;
    chows only of ``allowed`` tiles, when given: the caller has taken the others out).

    Like the usual block count of shanten, it does not see the four-copy limit: four of a
    kind held count as a pung and a lone tile that could still pair.

    >>> from app.core.shape.tiles import parse_mpsz, counts_from_tiles
    >>> regular_need(counts_from_tiles(parse_mpsz("1112223m")), 2, pungs_only=True)
    1
    >>> regular_need(counts_from_tiles(parse_mpsz("13579m")), 1)
    2
    """
    chow_masks = (0, 0, 0) if pungs_only else _ALL_CHOW_MASKS if allowed is None else _chow_masks(tuple(allowed))
    groups = []
    for (start, size, numbered), chows in zip(_GROUPS, (*chow_masks, 0), strict=True):
        part = tuple(counts[start : start + size])
        if any(part):
            groups.append(_blocks(part, chows if numbered else 0))
    blocks = _combined_need(tuple(groups), sets)
    # Each tile short of the 3k + 2 the sets and pair hold is a draw, whatever the blocks say
    # (a target that allows few tiles leaves a hand few to build with).
    return max(blocks, 3 * sets + 2 - sum(counts))


@lru_cache(maxsize=1 << 16)
def _combined_need(groups: tuple[tuple[Block, ...], ...], sets: int) -> int:
    """The block count's distance to ``sets`` sets and a pair, from each group's best blocks."""
    # Sets beyond ``sets``, and partial sets beyond what the sets leave room for, never help:
    # capping them keeps the states few.
    states = {(0, 0, 0)}
    for options in groups:
        grown = set()
        for found_sets, partial, pair in states:
            for more_sets, more_partial, more_pair in options:
                if pair + more_pair <= 1:
                    capped = min(found_sets + more_sets, sets)
                    grown.add((capped, min(partial + more_partial, sets - capped), pair + more_pair))
        states = grown
    return min(2 * sets + 1 - 2 * found_sets - partial - pair for found_sets, partial, pair in states)


_ALL_CHOW_MASKS: Final = (0b1111111,) * 3
"""Chows may start at offsets 0..6 of each suit."""


@cache
def _chow_masks(allowed: tuple[bool, ...]) -> tuple[int, int, int]:
    """Per suit, bit ``i``: the chow at offset ``i`` has three allowed tiles."""
    masks = [
        sum(1 << offset for offset in range(7) if all(allowed[start + offset : start + offset + 3]))
        for start in (0, 9, 18)
    ]
    return masks[0], masks[1], masks[2]


def target_need(target: Target, counts: Sequence[int], melds: Sequence[Meld] = ()) -> int:
    """Tiles to draw until ``counts`` (concealed) with ``melds`` complete ``target``.

    >>> from app.core.shape.tiles import parse_mpsz, counts_from_tiles
    >>> pairs = Target("seven pairs", 24, form=Form.SEVEN_PAIRS)
    >>> target_need(pairs, counts_from_tiles(parse_mpsz("1122334455667m")))
    1
    >>> target_need(pairs, counts_from_tiles(parse_mpsz("1122334455m")), [Meld.of("pon", [27] * 3)])
    99
    """
    form = target.form
    if form is not Form.REGULAR:
        if melds:
            return UNREACHABLE
        if form is Form.SEVEN_PAIRS:
            return 7 - min(7, sum(count // 2 for count in counts))
        allowed = target.allowed
        kinds = sum(1 for tile, count in enumerate(counts) if count and allowed[tile])
        if form is Form.THIRTEEN_ORPHANS:
            pair = any(count >= 2 for tile, count in enumerate(counts) if allowed[tile])
            return 14 - kinds - pair
        return 14 - min(14, kinds)
    open_groups = list(target.fixed)
    free = target.free_sets
    for meld in melds:
        tiles = meld.tiles[:3]
        if tiles in open_groups:
            open_groups.remove(tiles)
        elif all(target.allowed[tile] for tile in tiles) and not (target.pungs_only and meld.kind is MeldKind.CHI):
            free -= 1
            if free < 0:
                return UNREACHABLE
        else:
            return UNREACHABLE
    rest = list(counts)
    missing = 0
    for group in open_groups:
        for tile in group:
            if rest[tile]:
                rest[tile] -= 1
            else:
                missing += 1
    allowed = target.allowed
    for tile in range(NUM_TILE_KINDS):
        if rest[tile] and not allowed[tile]:
            rest[tile] = 0
    return missing + regular_need(rest, free, pungs_only=target.pungs_only, allowed=allowed)


def _mask(tiles: Iterable[Tile]) -> tuple[bool, ...]:
    chosen = frozenset(tiles)
    return tuple(tile in chosen for tile in range(NUM_TILE_KINDS))


def _suit(suit: int) -> range:
    return range(9 * suit, 9 * suit + 9)


_SUIT_LETTERS: Final = "mps"
_NUMBERED: Final = range(27)


def _chow(suit: int, number: int) -> tuple[Tile, ...]:
    """The chow of ``suit`` starting at ``number`` (0-based: 0 is the 1)."""
    first = 9 * suit + number
    return (first, first + 1, first + 2)


def _pung(tile: Tile) -> tuple[Tile, ...]:
    return (tile, tile, tile)


#: The three knitted groups: 147, 258 and 369 (0-based numbers).
_KNITTED: Final = ((0, 3, 6), (1, 4, 7), (2, 5, 8))


@cache
def fan_targets(seat_wind: Tile = EAST, round_wind: Tile = EAST, *, knitted: bool = True) -> tuple[Target, ...]:
    """The targets of a seat with ``seat_wind`` under ``round_wind`` (``knitted``: the knitted
    forms win at this table), each worth 8 fans or more.

    >>> targets = fan_targets()
    >>> len(targets), min(target.fan for target in targets)
    (128, 8)
    """
    everything = _mask(range(NUM_TILE_KINDS))
    targets = [
        Target("seven pairs", 24, form=Form.SEVEN_PAIRS),
        Target("thirteen orphans", 88, allowed=_mask((0, 8, 9, 17, 18, 26, *HONORS)), form=Form.THIRTEEN_ORPHANS),
    ]
    value_honors = sorted({*DRAGONS, seat_wind, round_wind})
    for suit, letter in enumerate(_SUIT_LETTERS):
        flush = _mask(_suit(suit))
        half = _mask((*_suit(suit), *HONORS))
        targets.append(Target(f"full flush {letter}", 24, allowed=flush))
        targets.append(Target(f"half flush and all pungs {letter}", 12, allowed=half, pungs_only=True))
        for honor in value_honors:
            targets.append(Target(f"half flush with {honor} pung {letter}", 8, (_pung(honor),), half, SETS - 1))
        straight = tuple(_chow(suit, number) for number in (0, 3, 6))
        targets.append(Target(f"pure straight 1{letter}", 16, straight, everything, 1))
        for step in (1, 2):
            for number in range(7 - 2 * step):
                chows = tuple(_chow(suit, number + step * index) for index in range(3))
                targets.append(Target(f"pure shifted chows {number + 1}{letter} step {step}", 16, chows, everything, 1))
    for honor in value_honors:
        targets.append(Target(f"all pungs with {honor} pung", 8, (_pung(honor),), everything, SETS - 1, True))
    for order in permutations(range(3)):
        straight = tuple(_chow(suit, number) for suit, number in zip(order, (0, 3, 6), strict=True))
        targets.append(Target(f"mixed straight {order}", 8, straight, everything, 1))
        for number in range(7):
            pungs = tuple(_pung(9 * suit + number + step) for step, suit in enumerate(order))
            targets.append(Target(f"mixed shifted pungs {number + 1} {order}", 8, pungs, everything, 1))
        if knitted:
            groups = tuple(
                tuple(9 * suit + number for number in numbers) for suit, numbers in zip(order, _KNITTED, strict=True)
            )
            targets.append(Target(f"knitted straight {order}", 12, groups, everything, 1))
            loose = _mask((*(tile for group in groups for tile in group), *HONORS))
            targets.append(Target(f"honors and knitted {order}", 12, allowed=loose, form=Form.HONORS_AND_KNITTED))
    for number in range(7):
        chows = tuple(_chow(suit, number) for suit in range(3))
        targets.append(Target(f"mixed triple chow {number + 1}", 8, chows, everything, 1))
    for left_out in WINDS:
        pungs = tuple(_pung(wind) for wind in WINDS if wind != left_out)
        targets.append(Target(f"big three winds without {left_out}", 12, pungs, everything, 1))
    numbers_of = {"upper four": range(5, 9), "lower four": range(0, 4)}
    for name, numbers in numbers_of.items():
        targets.append(Target(name, 12, allowed=_mask(tile for tile in _NUMBERED if tile % 9 in numbers)))
    for name, numbers in {"upper tiles": range(6, 9), "middle tiles": range(3, 6), "lower tiles": range(3)}.items():
        targets.append(Target(name, 24, allowed=_mask(tile for tile in _NUMBERED if tile % 9 in numbers)))
    reversible = (9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, WHITE)  # 1234589p 245689s and White
    targets.append(Target("reversible tiles", 8, allowed=_mask(reversible)))
    return tuple(targets)


def useful_tiles(target: Target, counts: Sequence[int], melds: Sequence[Meld] = ()) -> list[Tile]:
    """Tiles that may lower the distance to ``target``: its fixed tiles, and allowed tiles
    held or next to a held one (a tile with no neighbour held forms nothing new), or every
    allowed tile when the hand is short of allowed tiles (then a lone one helps too).

    >>> from app.core.shape.tiles import parse_mpsz, counts_from_tiles
    >>> useful_tiles(Target("any", 8), counts_from_tiles(parse_mpsz("1m5z1199p1199s444z")))
    [0, 1, 2, 9, 10, 11, 15, 16, 17, 18, 19, 20, 24, 25, 26, 30, 31]
    >>> manzu = Target("full flush m", 24, allowed=(True,) * 9 + (False,) * 25)
    >>> useful_tiles(manzu, counts_from_tiles(parse_mpsz("123456789m111p5z")))  # four tiles short
    [0, 1, 2, 3, 4, 5, 6, 7, 8]
    """
    allowed = target.allowed
    every = {tile for group in target.fixed for tile in group} | {
        tile for tile in range(NUM_TILE_KINDS) if allowed[tile]
    }
    if target.form is not Form.REGULAR and target.form is not Form.SEVEN_PAIRS:
        return sorted(every)  # special forms use lone tiles
    chosen: set[Tile] = {tile for group in target.fixed for tile in group}
    reach = 0 if target.pungs_only or target.form is Form.SEVEN_PAIRS else 2
    for tile, count in enumerate(counts):
        if not count or not allowed[tile]:
            continue
        if is_honor(tile) or not reach:
            chosen.add(tile)
            continue
        start = tile - tile % 9
        for near in range(max(start, tile - reach), min(start + 8, tile + reach) + 1):
            if allowed[near]:
                chosen.add(near)
    # A lone allowed tile helps only when the hand is short of allowed tiles, and then any does:
    # try one.
    lone = next((tile for tile in sorted(every - chosen) if counts[tile] < COPIES), None)
    if lone is None:
        return sorted(every)
    grown = list(counts)
    grown[lone] += 1
    if target_need(target, grown, melds) < target_need(target, counts, melds):
        return sorted(every)
    return sorted(chosen)


FanCheck = Callable[[Hand, Tile, bool], int]
"""The fans (flowers not counted) of a complete hand won on a tile, by self-draw or not."""
SELF_DRAW_ONLY_SHARE: Final = 0.3
"""What a winning tile counts for when only a self-draw of it reaches the floor (a seat draws
about a quarter of the tiles that come out; the rest are discards it could have won on)."""
_FAN_TIE_BREAK: Final = 0.01
#: Per tile of distance in :attr:`Plan.score`: above any count of unseen tiles (at most 136).
PLAN_NEED_WEIGHT: Final = 1000
"""Per fan of the best target, a tie-break between discards of equal distance and ukeire."""


class Plan(NamedTuple):
    """How a hand stands after a discard: its distance to the nearest target and how many
    unseen tiles bring it closer (when ready and a fan check is given: the tiles that win with
    enough fans, weighted as :data:`SELF_DRAW_ONLY_SHARE` when only a self-draw does)."""

    need: int
    ukeire: float
    fan: int

    def key(self) -> tuple[int, float]:
        """Sort key: nearest first, then most ukeire (and higher fans)."""
        return (self.need, -(self.ukeire + _FAN_TIE_BREAK * self.fan))

    @property
    def score(self) -> float:
        """The order of :meth:`key` as one number, highest first (ukeire never reaches
        :data:`PLAN_NEED_WEIGHT`): what /discard shows as a fan plan's score.

        >>> Plan(1, 4.0, 16).score > Plan(1, 4.0, 8).score > Plan(2, 100.0, 88).score
        True
        """
        return self.ukeire + _FAN_TIE_BREAK * self.fan - PLAN_NEED_WEIGHT * self.need


def best_need(targets: Sequence[Target], counts: Sequence[int], melds: Sequence[Meld] = ()) -> int:
    """The distance to the nearest of ``targets``.

    >>> from app.core.shape.tiles import parse_mpsz, counts_from_tiles
    >>> best_need(fan_targets(), counts_from_tiles(parse_mpsz("1122334455667m")))
    1
    """
    return min(target_need(target, counts, melds) for target in targets)


class FanPlanner:
    """Discards and calls for a seat that must reach ``minimum_fan``: toward its fan targets,
    weighted by the unseen tiles that help, with exact fans once the hand is ready.

    ``checker`` answers whether a shape wins (the knitted forms too, when the rules have
    them); ``fan_check``, when given, counts a ready hand's real fans on each winning tile.
    """

    def __init__(
        self,
        targets: Sequence[Target],
        checker: Checker,
        unseen: Sequence[int],
        *,
        minimum_fan: int,
        fan_check: FanCheck | None = None,
    ) -> None:
        self.targets = tuple(targets)
        self.checker = checker
        self.unseen = unseen
        self.minimum_fan = minimum_fan
        self.fan_check = fan_check

    def plans(self, hand: Hand) -> dict[Tile, Plan]:
        """The plan after each distinct discard of a 3n+2 ``hand``."""
        counts = list(hand.counts)
        melds = hand.melds
        targets = self.reachable(hand)
        needs = [target_need(target, counts, melds) for target in targets]
        floor = min(needs)
        # A discard raises a distance by one at most: farther targets cannot become the nearest.
        live = [target for target, need in zip(targets, needs, strict=True) if need <= floor + 1]
        found: dict[Tile, tuple[int, list[Target]]] = {}
        for tile in range(NUM_TILE_KINDS):
            if not counts[tile]:
                continue
            counts[tile] -= 1
            after = [(target_need(target, counts, melds), target) for target in live]
            counts[tile] += 1
            need = min(need for need, _ in after)
            found[tile] = (need, [target for target_need_, target in after if target_need_ == need])
        # Plans sort by distance first: only the nearest discards need their ukeire, unless
        # the exact fan check pushes every one of them back (a ready hand whose waits are all
        # under the floor is at 2), and then the next ones compete too.
        plans = {tile: Plan(need, 0.0, 0) for tile, (need, _) in found.items()}
        nearest = min(need for need, _ in found.values())
        for distance in (nearest, nearest + 1):
            for tile, (need, nearest_targets) in found.items():
                if need == distance:
                    counts[tile] -= 1
                    plans[tile] = self._plan(counts, melds, need, nearest_targets)
                    counts[tile] += 1
            if min(plan.need for plan in plans.values()) == distance:
                break
        return plans

    def _plan(self, counts: list[int], melds: tuple[Meld, ...], need: int, targets: list[Target]) -> Plan:
        fan = max(target.fan for target in targets)
        if self.fan_check is not None:
            hand = Hand(bytes(counts), melds)
            if need == 1 or self.checker.shanten_number(hand) == 0:
                weight = self._winning_weight(hand)
                if weight:
                    return Plan(1, weight, fan)
                need = max(need, 2)
                if need == 2 and not any(target_need(target, counts, melds) == 2 for target in targets):
                    return Plan(2, 0.0, fan)
        helping: set[Tile] = set()
        for target in targets:
            for tile in useful_tiles(target, counts, melds):
                if tile in helping or not self.unseen[tile] or counts[tile] >= COPIES:
                    continue
                counts[tile] += 1
                if target_need(target, counts, melds) < need:
                    helping.add(tile)
                counts[tile] -= 1
        return Plan(need, float(sum(self.unseen[tile] for tile in helping)), fan)

    def _winning_weight(self, hand: Hand) -> float:
        """Unseen tiles that complete the ready ``hand`` with enough fans (see :class:`Plan`)."""
        assert self.fan_check is not None
        weight = 0.0
        for tile in range(NUM_TILE_KINDS):
            if not self.unseen[tile]:
                continue
            complete = Hand(_plus(hand.counts, tile), hand.melds)
            if not self.checker.is_win(complete):
                continue
            if self.fan_check(complete, tile, False) >= self.minimum_fan:
                weight += self.unseen[tile]
            elif self.fan_check(complete, tile, True) >= self.minimum_fan:
                weight += SELF_DRAW_ONLY_SHARE * self.unseen[tile]
        return weight

    def reachable(self, hand: Hand) -> list[Target]:
        """The targets the tiles in sight leave possible: a fixed tile needs as many copies
        held or unseen as the target uses; thirteen orphans each orphan; honours and knitted
        tiles all but two of its sixteen.  (All of them, should none be left.)"""
        held = hand.all_counts()
        unseen = self.unseen
        reachable = []
        for target in self.targets:
            if target.form is Form.REGULAR:
                possible = all(held[tile] + unseen[tile] >= needed for tile, needed in _required(target))
            elif target.form is Form.SEVEN_PAIRS:
                possible = True
            else:
                gone = sum(
                    1 for tile in range(NUM_TILE_KINDS) if target.allowed[tile] and not held[tile] + unseen[tile]
                )
                possible = gone <= (0 if target.form is Form.THIRTEEN_ORPHANS else 2)
            if possible:
                reachable.append(target)
        return reachable or list(self.targets)

    def discard(self, hand: Hand) -> Tile:
        """The discard whose plan is best (ties: the lowest tile)."""
        plans = self.plans(hand)
        return min(plans, key=lambda tile: (plans[tile].key(), tile))

    def best_plan(self, hand: Hand) -> Plan:
        """The plan of the best discard of a 3n+2 ``hand``."""
        return min(self.plans(hand).values(), key=Plan.key)

    def call(self, hand: Hand, tile: Tile, options: Sequence[Meld]) -> Meld | None:
        """A meld to make from the discard ``tile`` when it brings the 3n+1 ``hand`` closer to
        a target than passing does; None to pass."""
        targets = self.reachable(hand)
        before = best_need(targets, hand.counts, hand.melds)
        best: tuple[tuple[int, float], Meld] | None = None
        for meld in options:
            used = list(meld.tiles)
            used.remove(tile)
            called = hand.without(used, meld)
            if meld.kind.size == 4:
                need = best_need(targets, called.counts, called.melds)
                # A kong's replacement draw is a free tile: worth it when it does not set the hand back.
                key: tuple[int, float] = (need, 0.0)
                if need > before:
                    continue
            else:
                key = self.best_plan(called).key()
                if key[0] >= before:
                    continue
            if best is None or key < best[0]:
                best = (key, meld)
        return None if best is None else best[1]

    def kong(self, hand: Hand, options: Sequence[Meld]) -> Meld | None:
        """A closed or added kong of a 3n+2 ``hand`` that keeps it as near its targets as its
        best discard does; None: no kong."""
        before = min(plan.need for plan in self.plans(hand).values())
        for meld in options:
            after = hand.with_kong(meld)
            if best_need(self.reachable(after), after.counts, after.melds) <= before:
                return meld
        return None


@cache
def planner_for(
    checker: Checker,
    unseen: Sequence[int],
    *,
    seat_wind: Tile = EAST,
    round_wind: Tile = EAST,
    minimum_fan: int = MINIMUM_FAN,
) -> FanPlanner:
    """The fan planner of a seat with ``seat_wind`` in ``round_wind``, seeing ``unseen`` copies
    of each tile, that counts a ready hand's real fans with the MCR scorer (the knitted
    targets only where ``checker``'s rules let the knitted forms win)."""
    targets = fan_targets(seat_wind, round_wind, knitted=wins_knitted(checker))
    on_discard = WinContext(0, 0, 1, seat_wind=seat_wind, round_wind=round_wind)
    self_drawn = on_discard._replace(discarder=None)

    def fans(hand: Hand, tile: Tile, self_draw: bool) -> int:
        return fan_total(hand, tile, self_drawn if self_draw else on_discard)

    return FanPlanner(targets, checker, unseen, minimum_fan=minimum_fan, fan_check=fans)


#: A knitted straight, a set and a pair: complete exactly when the rules have the knitted forms.
_KNITTED_WIN: Final = Hand.from_tiles(parse_mpsz("147m258p369s11122z"))


def wins_knitted(checker: Checker) -> bool:
    """Whether the knitted forms win under ``checker``'s rules (a knitted straight, a set and a pair).

    >>> from app.core.shape.rules import rule_profile
    >>> wins_knitted(Checker(rule_profile("riichi"))), wins_knitted(Checker(rule_profile("mcr")))
    (False, True)
    """
    return checker.is_win(_KNITTED_WIN)


def _required(target: Target) -> tuple[tuple[Tile, int], ...]:
    """Copies of each tile the fixed groups of ``target`` use."""
    needed: dict[Tile, int] = {}
    for group in target.fixed:
        for tile in group:
            needed[tile] = needed.get(tile, 0) + 1
    return tuple(sorted(needed.items()))


def _plus(counts: bytes, tile: Tile) -> bytes:
    grown = bytearray(counts)
    grown[tile] += 1
    return bytes(grown)
