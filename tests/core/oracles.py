"""Slow, obviously-correct oracles for the rules engine, written from the definitions.

Nothing here imports the engine's tables, distance code or decomposer: the
point is to check them.  Every function works on plain data (34 counts,
melds as ``(kind, tiles)`` pairs) so a test can build the same question for
the engine and for the oracle.

Definitions used throughout (tile order 0..33 = 1-9m, 1-9p, 1-9s, 1-7z):

* A *complete* regular hand of ``m`` melds is ``m`` melds (pung ``ttt`` or
  chow ``t t+1 t+2`` inside one number suit) plus one pair, holding no tile
  above its cap (4, or ``4 - melded copies`` with
  ``melded_tiles_count_toward_limit``).
* The *distance* of a hand ``h`` to a form is ``min over complete W of
  sum_t max(0, W_t - h_t)``: the tiles ``W`` has that ``h`` lacks, i.e. the
  tiles to draw.  Shanten is the best distance minus one.
* ``w`` wildcards held fill any ``w`` of those missing tiles, so the distance
  of a hand with wildcards is ``distance(plain part) - w``.  The substitution
  oracle (every wildcard replaced by every tile) checks that reading
  independently.

>>> regular_distance(_counts([0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27, 27, 28]), 4)
1
>>> regular_distance(_counts([0, 1, 2, 3, 4, 5, 6, 7, 8, 27, 27, 27, 27]), 4)
2
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations_with_replacement
from typing import Final

import numpy as np

NUM_KINDS: Final = 34
FULL_CAPS: Final = (4,) * NUM_KINDS
ORPHANS: Final = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
#: (first tile, width, chows allowed) of m, p, s and honours.
SUITS: Final = ((0, 9, True), (9, 9, True), (18, 9, True), (27, 7, False))


def _counts(tiles: Iterable[int]) -> tuple[int, ...]:
    counts = [0] * NUM_KINDS
    for tile in tiles:
        counts[tile] += 1
    return tuple(counts)


def _chow_starts() -> tuple[int, ...]:
    return tuple(t for t in range(27) if t % 9 <= 6)


CHOW_STARTS: Final = _chow_starts()
#: Every meld shape as a sorted tile tuple: 34 pungs, then 21 chows.
MELD_SHAPES: Final = tuple((t, t, t) for t in range(NUM_KINDS)) + tuple((t, t + 1, t + 2) for t in CHOW_STARTS)


def _groups_holding(tile: int) -> tuple[tuple[int, ...], ...]:
    """The pair, the pung and the chows that contain ``tile``."""
    groups = [(tile, tile), (tile, tile, tile)]
    for start in (tile - 2, tile - 1, tile):
        if start in CHOW_STARTS and start // 9 == tile // 9:
            groups.append((start, start + 1, start + 2))
    return tuple(groups)


GROUPS_HOLDING: Final = tuple(_groups_holding(t) for t in range(NUM_KINDS))


# --- complete hands ------------------------------------------------------------------


def regular_decompositions(counts: Sequence[int]) -> set[tuple[int, tuple[tuple[int, ...], ...]]]:
    """Every ``(pair, melds)`` reading of a hand, by plain recursion on the lowest tile.

    The lowest tile left must be in the pair, a pung, or a chow it starts.

    >>> sorted(regular_decompositions(_counts([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3])))[:2]
    [(0, ((0, 1, 2), (1, 2, 3), (1, 2, 3))), (3, ((0, 0, 0), (1, 1, 1), (2, 2, 2)))]
    """
    if sum(counts) % 3 != 2:
        return set()
    work = list(counts)
    found: set[tuple[int, tuple[tuple[int, ...], ...]]] = set()

    def walk(pair: int | None, melds: list[tuple[int, ...]]) -> None:
        tile = next((t for t in range(NUM_KINDS) if work[t]), None)
        if tile is None:
            if pair is not None:
                found.add((pair, tuple(sorted(melds))))
            return
        if pair is None and work[tile] >= 2:
            work[tile] -= 2
            walk(tile, melds)
            work[tile] += 2
        if work[tile] >= 3:
            work[tile] -= 3
            walk(pair, [*melds, (tile, tile, tile)])
            work[tile] += 3
        if tile in CHOW_STARTS and work[tile + 1] and work[tile + 2]:
            for t in (tile, tile + 1, tile + 2):
                work[t] -= 1
            walk(pair, [*melds, (tile, tile + 1, tile + 2)])
            for t in (tile, tile + 1, tile + 2):
                work[t] += 1

    walk(None, [])
    return found


def is_seven_pairs(counts: Sequence[int], *, quad_as_two: bool) -> bool:
    """Seven pairs: 14 tiles, every count even; ``distinct`` also forbids four of a kind."""
    allowed = (0, 2, 4) if quad_as_two else (0, 2)
    return sum(counts) == 14 and all(c in allowed for c in counts)


def is_thirteen_orphans(counts: Sequence[int]) -> bool:
    """Thirteen orphans: 14 tiles, each orphan at least once, nothing else."""
    return (
        sum(counts) == 14
        and all(counts[t] >= 1 for t in ORPHANS)
        and not any(counts[t] for t in range(NUM_KINDS) if t not in ORPHANS)
    )


@cache
def complete_suit_shapes(width: int, chows: bool) -> dict[tuple[int, int], np.ndarray]:
    """Every complete shape of one suit, by (melds, pairs): rows of ``width`` counts, at most 4 each."""
    shapes = [tuple(3 if j == i else 0 for j in range(width)) for i in range(width)]
    if chows:
        shapes += [tuple(1 if i <= j <= i + 2 else 0 for j in range(width)) for i in range(width - 2)]
    out: dict[tuple[int, int], set[tuple[int, ...]]] = {(m, p): set() for m in range(5) for p in range(2)}
    for m in range(5):
        for chosen in combinations_with_replacement(shapes, m):
            base = [sum(col) for col in zip(*chosen, strict=True)] if chosen else [0] * width
            if max(base) <= 4:
                out[m, 0].add(tuple(base))
            for p in range(width):
                grown = list(base)
                grown[p] += 2
                if max(grown) <= 4:
                    out[m, 1].add(tuple(grown))
    return {key: np.array(sorted(rows), dtype=np.int64) for key, rows in out.items()}


@cache
def complete_suit_keys(width: int, chows: bool) -> tuple[np.ndarray, np.ndarray]:
    """Boolean tables over the ``5**width`` suit keys: "is m melds" and "is m melds + a pair".

    A suit is complete exactly when its counts are one of the generated
    complete shapes (:func:`complete_suit_shapes`).
    """
    powers = 5 ** np.arange(width, dtype=np.int64)
    tables = []
    for pairs in (0, 1):
        table = np.zeros(5**width, dtype=bool)
        for melds in range(5):
            table[complete_suit_shapes(width, chows)[melds, pairs] @ powers] = True
        tables.append(table)
    return tables[0], tables[1]


def _suit_keys(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Base-5 key and tile total of each suit of each row (arrays (K, 4)); key -1 if a count exceeds 4."""
    rows = np.asarray(rows, dtype=np.int64)
    keys = np.empty((len(rows), 4), dtype=np.int64)
    totals = np.empty((len(rows), 4), dtype=np.int64)
    for s, (start, width, _) in enumerate(SUITS):
        part = rows[:, start : start + width]
        keys[:, s] = np.where((part <= 4).all(axis=1), part @ (5 ** np.arange(width, dtype=np.int64)), -1)
        totals[:, s] = part.sum(axis=1)
    return keys, totals


def _regular_ok(keys: np.ndarray, totals: np.ndarray) -> np.ndarray:
    ok = (totals % 3 != 1).all(axis=1) & ((totals % 3 == 2).sum(axis=1) == 1) & (keys >= 0).all(axis=1)
    for s, (_, width, chows) in enumerate(SUITS):
        melds_only, with_pair = complete_suit_keys(width, chows)
        key = np.maximum(keys[:, s], 0)
        ok &= np.where(totals[:, s] % 3 == 2, with_pair[key], melds_only[key])
    return ok


def is_regular_complete_rows(rows: np.ndarray) -> np.ndarray:
    """Vectorised "splits into melds and one pair" for a matrix of 34-count rows.

    Groups never cross suits, so a hand splits exactly when each suit is a
    generated complete suit shape and exactly one suit holds the pair.
    """
    return _regular_ok(*_suit_keys(rows))


# --- substitution of wildcards -----------------------------------------------------


@lru_cache(maxsize=8)
def _stand_in_table(wilds: int) -> tuple[tuple[tuple[int, ...], ...], np.ndarray]:
    """Every multiset of ``wilds`` stand-in tiles, as sorted tuples and as count rows."""
    combos = tuple(combinations_with_replacement(range(NUM_KINDS), wilds))
    rows = np.zeros((len(combos), NUM_KINDS), dtype=np.int64)
    for i, combo in enumerate(combos):
        for tile in combo:
            rows[i, tile] += 1
    return combos, rows


def substitutions(plain: Sequence[int], wilds: int, caps: Sequence[int]) -> tuple[list[tuple[int, ...]], np.ndarray]:
    """Every way to replace ``wilds`` wildcards by tiles with the result within ``caps``.

    Returns the stand-in tuples and the completed hands as count rows.
    """
    combos, stand_in_rows = _stand_in_table(wilds)
    rows = stand_in_rows + np.asarray(plain, dtype=np.int64)
    keep = (rows <= np.asarray(caps, dtype=np.int64)).all(axis=1)
    return [c for c, k in zip(combos, keep, strict=True) if k], rows[keep]


# --- rules as the oracle reads them ----------------------------------------------------


@dataclass(frozen=True)
class OracleRules:
    """The rule fields the oracles need, as plain values."""

    seven_pairs: str = "distinct"  # off | distinct | quad_as_two
    thirteen_orphans: bool = True
    wildcards: tuple[int, ...] = ()
    win_requires_meld: frozenset[str] = frozenset()
    melded_limit: bool = False

    @classmethod
    def of(cls, profile: object) -> OracleRules:
        """Read an engine RuleProfile by its field names (no engine code runs)."""
        return cls(
            seven_pairs=str(profile.seven_pairs.value),
            thirteen_orphans=bool(profile.thirteen_orphans),
            wildcards=tuple(profile.wildcards),
            win_requires_meld=frozenset(str(k.value) for k in profile.win_requires_meld),
            melded_limit=bool(profile.melded_tiles_count_toward_limit),
        )


Meld = tuple[str, tuple[int, ...]]


def caps_for(melds: Sequence[Meld], rules: OracleRules) -> tuple[int, ...]:
    """Copies of each tile the concealed complete hand may hold."""
    if not rules.melded_limit or not melds:
        return FULL_CAPS
    melded = _counts(t for _, tiles in melds for t in tiles)
    return tuple(4 - c for c in melded)


def split_wildcards(counts: Sequence[int], rules: OracleRules) -> tuple[tuple[int, ...], int]:
    """The hand without its wildcards, and how many wildcards it holds."""
    plain = list(counts)
    held = 0
    for tile in rules.wildcards:
        held += plain[tile]
        plain[tile] = 0
    return tuple(plain), held


def closed_forms_allowed(counts: Sequence[int], melds: Sequence[Meld]) -> bool:
    """Seven pairs and thirteen orphans need a closed hand of 13 or 14 tiles."""
    return not melds and sum(counts) >= 13


def precondition_met(melds: Sequence[Meld], rules: OracleRules) -> bool:
    """Whether the hand has a meld of a kind the rules need in order to win."""
    return not rules.win_requires_meld or any(kind in rules.win_requires_meld for kind, _ in melds)


# --- distances ------------------------------------------------------------------------


def _fillers_fit(room: list[int], melds_left: int, pair_left: int) -> bool:
    """Whether ``melds_left`` melds and ``pair_left`` pairs still fit under ``room``."""

    def place(first_shape: int, melds: int) -> bool:
        if melds == 0:
            return pair_left == 0 or any(r >= 2 for r in room)
        for index in range(first_shape, len(MELD_SHAPES)):
            shape = MELD_SHAPES[index]
            for t in shape:
                room[t] -= 1
            fits = all(room[t] >= 0 for t in shape) and place(index, melds - 1)
            for t in shape:
                room[t] += 1
            if fits:
                return True
        return False

    return place(0, melds_left)


def regular_distance(counts: Sequence[int], melds_wanted: int, caps: Sequence[int] = FULL_CAPS) -> int:
    """Exact tiles to draw for ``melds_wanted`` melds + a pair, by branch and bound.

    Search: take the lowest hand tile not yet decided; either some group of the
    target (its pair, a pung or a chow holding the tile) uses it, or this copy
    is thrown away.  Groups that use no hand tile are "fillers" (cost: all
    their tiles); we only check they still fit under the caps.  Every path is
    a real complete hand, and some path reaches an optimal one, so the best
    path is the exact distance.  ``counts`` may be smaller than the target
    (the usual 3n+1 hands, or a hand whose wildcards were taken out).
    """
    size = 3 * melds_wanted + 2
    rem = list(counts)
    built = [0] * NUM_KINDS
    best = -1

    def search(start: int, melds_left: int, pair_left: int, overlap: int, rem_total: int) -> None:
        nonlocal best
        if overlap + min(rem_total, 3 * melds_left + 2 * pair_left) <= best:
            return
        tile = start
        while tile < NUM_KINDS and rem[tile] == 0:
            tile += 1
        if tile == NUM_KINDS:
            room = [c - b for c, b in zip(caps, built, strict=True)]
            if _fillers_fit(room, melds_left, pair_left):
                best = overlap
            return
        for group in GROUPS_HOLDING[tile]:
            is_pair = len(group) == 2
            if (pair_left if is_pair else melds_left) == 0:
                continue
            for t in group:
                built[t] += 1
            if all(built[t] <= caps[t] for t in group):
                gain = 0
                taken = []
                for t in group:
                    if rem[t] > 0:
                        rem[t] -= 1
                        taken.append(t)
                        gain += 1
                search(
                    tile,
                    melds_left - (not is_pair),
                    pair_left - is_pair,
                    overlap + gain,
                    rem_total - gain,
                )
                for t in taken:
                    rem[t] += 1
            for t in group:
                built[t] -= 1
        rem[tile] -= 1
        search(tile, melds_left, pair_left, overlap, rem_total - 1)
        rem[tile] += 1

    search(0, melds_wanted, 1, 0, sum(counts))
    if best < 0:
        raise ValueError("no complete hand fits under these caps")
    return size - best


def complete_hand_rows(melds_wanted: int, caps: Sequence[int] = FULL_CAPS) -> np.ndarray:
    """Every complete regular hand of ``melds_wanted`` melds (count rows), by enumeration.

    Affordable for ``melds_wanted <= 3`` (about a million rows at 3).
    """
    shapes = np.zeros((len(MELD_SHAPES), NUM_KINDS), dtype=np.int8)
    for i, shape in enumerate(MELD_SHAPES):
        for t in shape:
            shapes[i, t] += 1
    combos = np.array(list(combinations_with_replacement(range(len(MELD_SHAPES)), melds_wanted)), dtype=np.int64)
    melds = np.zeros((max(1, len(combos)), NUM_KINDS), dtype=np.int8)
    for column in range(melds_wanted):
        melds += shapes[combos[:, column]]
    cap_row = np.asarray(caps, dtype=np.int8)
    out = []
    for pair in range(NUM_KINDS):
        rows = melds.copy()
        rows[:, pair] += 2
        out.append(rows[(rows <= cap_row).all(axis=1)])
    return np.concatenate(out)


def regular_distance_by_enumeration(hands: np.ndarray, complete_rows: np.ndarray) -> np.ndarray:
    """``min over complete W of sum max(0, W - h)`` for each hand, against every complete hand."""
    hands = np.asarray(hands, dtype=np.int8)
    out = np.empty(len(hands), dtype=np.int64)
    for i, hand in enumerate(hands):
        deficit = np.maximum(complete_rows - hand, 0).sum(axis=1, dtype=np.int64)
        out[i] = deficit.min()
    return out


def seven_pairs_distance(counts: Sequence[int], *, quad_as_two: bool) -> int:
    """Tiles to draw for seven pairs.

    Distinct pairs: the seven cheapest kinds, each costing what it lacks of two.
    Quad as two: a small knapsack over kinds, each holding 0, 2 or 4 tiles.
    """
    if not quad_as_two:
        return sum(sorted(max(0, 2 - c) for c in counts)[:7])
    infinity = 99
    best = [0] + [infinity] * 7  # best[p]: cheapest cost of p pairs so far
    for held in counts:
        grown = best[:]
        for pairs in range(8):
            for extra, size in ((1, 2), (2, 4)):
                if pairs + extra <= 7 and best[pairs] < infinity:
                    cost = best[pairs] + max(0, size - held)
                    grown[pairs + extra] = min(grown[pairs + extra], cost)
        best = grown
    return best[7]


def thirteen_orphans_distance(counts: Sequence[int]) -> int:
    """Tiles to draw for thirteen orphans: every choice of the paired orphan."""
    best = 99
    for pair in ORPHANS:
        cost = sum(max(0, (2 if t == pair else 1) - counts[t]) for t in ORPHANS)
        best = min(best, cost)
    return best


def form_distances(
    counts: Sequence[int], melds: Sequence[Meld], rules: OracleRules, *, regular: int | None = None
) -> dict[str, int | None]:
    """Distance to each form the rules and size allow (wildcards already credited).

    ``regular`` may pass a precomputed plain regular distance (e.g. from the
    batch oracle); by default the branch-and-bound search runs.
    """
    plain, wilds = split_wildcards(counts, rules)
    caps = caps_for(melds, rules)
    melds_wanted = sum(counts) // 3
    plain_regular = regular_distance(plain, melds_wanted, caps) if regular is None else int(regular)
    out: dict[str, int | None] = {"regular": plain_regular - wilds, "seven_pairs": None, "thirteen_orphans": None}
    if closed_forms_allowed(counts, melds):
        if rules.seven_pairs != "off":
            out["seven_pairs"] = seven_pairs_distance(plain, quad_as_two=rules.seven_pairs == "quad_as_two") - wilds
        if rules.thirteen_orphans:
            out["thirteen_orphans"] = thirteen_orphans_distance(plain) - wilds
    for value in out.values():
        # A form's missing tiles always number at least the wildcards held.
        assert value is None or value >= 0, out
    return out


def shanten(counts: Sequence[int], melds: Sequence[Meld], rules: OracleRules) -> dict[str, int | None]:
    """Shanten per form and ``"shanten"`` overall (distance - 1)."""
    distances = form_distances(counts, melds, rules)
    out = {form: None if d is None else d - 1 for form, d in distances.items()}
    out["shanten"] = min(s for s in out.values() if s is not None)
    return out


def drawable_tiles(counts: Sequence[int], melds: Sequence[Meld], rules: OracleRules) -> list[int]:
    """Tiles of which one more copy may join the concealed hand."""
    caps = caps_for(melds, rules)
    return [t for t in range(NUM_KINDS) if counts[t] < caps[t]]


def plus(counts: Sequence[int], tile: int) -> tuple[int, ...]:
    """``counts`` with one more ``tile``."""
    grown = list(counts)
    grown[tile] += 1
    return tuple(grown)


def minus(counts: Sequence[int], tile: int) -> tuple[int, ...]:
    """``counts`` with one ``tile`` fewer."""
    shrunk = list(counts)
    shrunk[tile] -= 1
    return tuple(shrunk)


def ukeire(counts: Sequence[int], melds: Sequence[Meld], rules: OracleRules) -> list[int]:
    """Draws that lower the shanten of a 3n+1 hand (each re-solved from scratch)."""
    now = shanten(counts, melds, rules)["shanten"]
    return [t for t in drawable_tiles(counts, melds, rules) if shanten(plus(counts, t), melds, rules)["shanten"] < now]


# --- win by substitution -----------------------------------------------------------------

Reading = tuple[str, int | None, tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""(form, pair, melds, pairs, singles, stand-ins): one way a hand is complete."""


def complete_rows(rows: np.ndarray, closed: bool, rules: OracleRules) -> np.ndarray:
    """Which count rows (wildcards already replaced) are complete in a form the rules allow."""
    rows = np.asarray(rows)
    ok = is_regular_complete_rows(rows)
    if closed and len(rows):
        fourteen = rows.sum(axis=1) == 14
        if rules.seven_pairs != "off":
            allowed = (rows % 2 == 0) if rules.seven_pairs == "quad_as_two" else ((rows == 0) | (rows == 2))
            ok |= fourteen & allowed.all(axis=1) & (rows <= 4).all(axis=1)
        if rules.thirteen_orphans:
            orphan = np.zeros(NUM_KINDS, dtype=bool)
            orphan[list(ORPHANS)] = True
            ok |= fourteen & (rows[:, orphan] >= 1).all(axis=1) & (rows[:, ~orphan] == 0).all(axis=1)
    return ok


def win_readings(counts: Sequence[int], melds: Sequence[Meld], rules: OracleRules) -> set[Reading]:
    """Every reading of a 3n+2 hand as complete, wildcards replaced by every tile.

    Checks the shape only; :func:`precondition_met` is the rules' extra "no".
    """
    plain, wilds = split_wildcards(counts, rules)
    caps = caps_for(melds, rules)
    stand_ins, rows = substitutions(plain, wilds, caps)
    found: set[Reading] = set()
    closed = closed_forms_allowed(counts, melds)
    for index in np.flatnonzero(complete_rows(rows, closed, rules)):
        combo = stand_ins[index]
        full = tuple(int(c) for c in rows[index])
        for pair, groups in regular_decompositions(full):
            found.add(("regular", pair, groups, (), (), combo))
        if (
            closed
            and rules.seven_pairs != "off"
            and is_seven_pairs(full, quad_as_two=rules.seven_pairs == "quad_as_two")
        ):
            pairs = tuple(t for t in range(NUM_KINDS) for _ in range(full[t] // 2))
            found.add(("seven_pairs", None, (), pairs, (), combo))
        if closed and rules.thirteen_orphans and is_thirteen_orphans(full):
            pair = next(t for t in ORPHANS if full[t] == 2)
            found.add(("thirteen_orphans", pair, (), (), tuple(t for t in ORPHANS if t != pair), combo))
    return found


def is_complete(counts: Sequence[int], melds: Sequence[Meld], rules: OracleRules) -> bool:
    """Whether some substitution of the wildcards makes the hand complete (shape only)."""
    plain, wilds = split_wildcards(counts, rules)
    _, rows = substitutions(plain, wilds, caps_for(melds, rules))
    return bool(complete_rows(rows, closed_forms_allowed(counts, melds), rules).any())


def shape_waits(counts: Sequence[int], melds: Sequence[Meld], rules: OracleRules) -> list[int]:
    """Drawable tiles that make a 3n+1 hand complete, by substitution.

    The hand's ``w`` wildcards are replaced by every tile; then one more tile
    ``x`` is added.  A plain draw ``x`` completes the hand when some row plus
    ``x`` is complete; a wildcard draw is a ``(w+1)``-th stand-in, so it
    completes the hand when any ``x`` does.
    """
    plain, wilds = split_wildcards(counts, rules)
    caps = caps_for(melds, rules)
    _, rows = substitutions(plain, wilds, caps)
    closed = sum(counts) + 1 >= 13 and not melds
    keys, totals = _suit_keys(rows)
    seven = closed and rules.seven_pairs != "off"
    orphans = closed and rules.thirteen_orphans
    allowed = np.array([True, False, True, False, rules.seven_pairs == "quad_as_two", False])
    orphan = np.zeros(NUM_KINDS, dtype=bool)
    orphan[list(ORPHANS)] = True
    # Per row: kinds whose count seven pairs cannot use; orphans missing; non-orphan tiles held.
    odd_kinds = (~allowed[rows]).sum(axis=1)
    missing = (rows[:, orphan] == 0).sum(axis=1)
    strays = rows[:, ~orphan].sum(axis=1)
    fourteen = rows.sum(axis=1) + 1 == 14
    completes = []
    for extra in range(NUM_KINDS):
        fits = rows[:, extra] < caps[extra]
        suit = min(extra // 9, 3)
        grown_keys, grown_totals = keys[fits], totals[fits]
        grown_keys[:, suit] += 5 ** (extra - SUITS[suit][0])
        grown_totals[:, suit] += 1
        found = bool(_regular_ok(grown_keys, grown_totals).any())
        held = rows[fits, extra]
        if seven and not found:
            grown_odd = odd_kinds[fits] - ~allowed[held] + ~allowed[held + 1]
            found = bool((fourteen[fits] & (grown_odd == 0)).any())
        if orphans and not found:
            if orphan[extra]:
                grown_missing, grown_strays = missing[fits] - (held == 0), strays[fits]
            else:
                grown_missing, grown_strays = missing[fits], strays[fits] + 1
            found = bool((fourteen[fits] & (grown_missing == 0) & (grown_strays == 0)).any())
        completes.append(found)
    out = []
    for tile in drawable_tiles(counts, melds, rules):
        if tile in rules.wildcards:
            if any(completes):
                out.append(tile)
        elif completes[tile]:
            out.append(tile)
    return out


def shanten_by_substitution(counts: Sequence[int], melds: Sequence[Meld], rules: OracleRules) -> int:
    """Overall shanten as the best plain shanten over every substitution of the wildcards."""
    plain, wilds = split_wildcards(counts, rules)
    caps = caps_for(melds, rules)
    _, rows = substitutions(plain, wilds, caps)
    melds_wanted = sum(counts) // 3
    no_wild = OracleRules(rules.seven_pairs, rules.thirteen_orphans, (), rules.win_requires_meld, rules.melded_limit)
    regular = regular_distance_batch(rows, np.full(len(rows), melds_wanted), np.tile(np.asarray(caps), (len(rows), 1)))
    best = 99
    for row, plain_regular in zip(rows, regular, strict=True):
        distances = form_distances(tuple(int(c) for c in row), melds, no_wild, regular=plain_regular)
        best = min(best, min(d for d in distances.values() if d is not None) - 1)
    return best


# --- a second, vectorised distance oracle: a DP over the parameters of a complete suit ----

_INFINITY: Final = 999


def suit_distance_batch(counts: np.ndarray, caps: np.ndarray | None, chows: bool) -> np.ndarray:
    """``d[k, m, p]``: tiles suit ``k`` lacks for ``m`` melds and ``p`` pairs (array (K, 5, 2)).

    A complete suit shape is fixed by, at each position ``i``, how many chows
    start there, whether a pung and whether a pair sits there; ``W_i`` adds up
    chows started at ``i-2 .. i``.  The DP walks the positions carrying the
    chows started at ``i-1`` and ``i-2`` and sums ``max(0, W_i - h_i)``.
    """
    counts = np.asarray(counts, dtype=np.int32)
    k, width = counts.shape
    cap_rows = np.full((k, width), 4, dtype=np.int32) if caps is None else np.asarray(caps, dtype=np.int32)
    start = np.full((k, 5, 2), _INFINITY, dtype=np.int32)
    start[:, 0, 0] = 0
    states: dict[tuple[int, int], np.ndarray] = {(0, 0): start}
    for i in range(width):
        held = counts[:, i]
        cap = cap_rows[:, i]
        grown: dict[tuple[int, int], np.ndarray] = {}
        max_new = 4 if chows and i <= width - 3 else 0
        for (one, two), value in states.items():
            for new in range(max_new + 1):
                for pung in (0, 1):
                    for pair in (0, 1):
                        used = one + two + new + 3 * pung + 2 * pair
                        added = new + pung
                        if used > 4 or added > 4:
                            continue
                        cost = np.where(used <= cap, np.maximum(used - held, 0), _INFINITY)
                        shifted = np.full((k, 5, 2), _INFINITY, dtype=np.int32)
                        shifted[:, added:, pair:] = value[:, : 5 - added, : 2 - pair] + cost[:, None, None]
                        key = (new, one)
                        grown[key] = shifted if key not in grown else np.minimum(grown[key], shifted)
        states = grown
    return np.minimum(states[(0, 0)], _INFINITY)


def min_plus_batch(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Combine two independent parts: the cheapest split of (melds, pair) between them."""
    out = np.full(left.shape, _INFINITY, dtype=np.int32)
    for m1 in range(5):
        for m2 in range(5 - m1):
            out[:, m1 + m2, 0] = np.minimum(out[:, m1 + m2, 0], left[:, m1, 0] + right[:, m2, 0])
            pair = np.minimum(left[:, m1, 0] + right[:, m2, 1], left[:, m1, 1] + right[:, m2, 0])
            out[:, m1 + m2, 1] = np.minimum(out[:, m1 + m2, 1], pair)
    return np.minimum(out, _INFINITY)


def regular_distance_batch(counts: np.ndarray, melds_wanted: np.ndarray, caps: np.ndarray | None = None) -> np.ndarray:
    """Regular distance of many hands at once (rows of 34 counts)."""
    counts = np.asarray(counts, dtype=np.int32)
    parts = []
    for start, width, chows in SUITS:
        suit_caps = None if caps is None else np.asarray(caps)[:, start : start + width]
        parts.append(suit_distance_batch(counts[:, start : start + width], suit_caps, chows))
    whole = min_plus_batch(min_plus_batch(parts[0], parts[1]), min_plus_batch(parts[2], parts[3]))
    return whole[np.arange(len(counts)), np.asarray(melds_wanted), 1]


def all_suit_shapes(width: int, max_total: int = 14) -> Iterator[tuple[int, ...]]:
    """Every count vector of a suit (0..4 each) with at most ``max_total`` tiles."""

    def walk(prefix: list[int], left: int) -> Iterator[tuple[int, ...]]:
        if len(prefix) == width:
            yield tuple(prefix)
            return
        for c in range(min(4, left) + 1):
            prefix.append(c)
            yield from walk(prefix, left - c)
            prefix.pop()

    yield from walk([], max_total)


def shanten_many(
    hands: Sequence[tuple[Sequence[int], Sequence[Meld]]], rules: OracleRules
) -> list[dict[str, int | None]]:
    """:func:`shanten` of many hands, the regular distances from one call of the batch oracle."""
    if not hands:
        return []
    plains, wanted, caps = [], [], []
    for counts, melds in hands:
        plains.append(split_wildcards(counts, rules)[0])
        wanted.append(sum(counts) // 3)
        caps.append(caps_for(melds, rules))
    regular = regular_distance_batch(np.array(plains), np.array(wanted), np.array(caps))
    out = []
    for (counts, melds), plain_regular in zip(hands, regular, strict=True):
        distances = form_distances(counts, melds, rules, regular=plain_regular)
        result: dict[str, int | None] = {form: None if d is None else d - 1 for form, d in distances.items()}
        result["shanten"] = min(s for s in result.values() if s is not None)
        out.append(result)
    return out


def suit_distance_by_enumeration(
    counts: Sequence[int], chows: bool, caps: Sequence[int] | None = None
) -> tuple[int, ...]:
    """``d(m, p)`` of one suit against every complete suit shape (``vector[m * 2 + p]``; 255: none fits)."""
    held = np.asarray(counts, dtype=np.int64)
    out = []
    for m in range(5):
        for p in range(2):
            shapes = complete_suit_shapes(len(counts), chows)[m, p]
            if caps is not None:
                shapes = shapes[(shapes <= np.asarray(caps)).all(axis=1)]
            out.append(int(np.maximum(shapes - held, 0).sum(axis=1).min()) if len(shapes) else 255)
    return tuple(out)


# --- the wildcard forms: wildcards plain in seven pairs, and a win by holding them ----------------
#
# Hunan 红中麻将 (112 tiles: the suits and four 红中, every other honour absent) and Guangdong's
# ghost (鬼牌) add two readings.  With ``wildcards_in_seven_pairs`` off, seven pairs takes a
# wildcard as a plain tile of its own kind, while the other forms still take it as any tile.  With
# ``held_win`` (``need``), a hand of a winning size holding ``need`` wildcards concealed is complete.
# Two oracles follow: by definition (each form's distance from the plain part's, the wildcards
# credited, measured against the tiles that exist), and by substitution (every multiset of existing
# tiles the wildcards may stand for, the plain distances of every resulting hand).


@dataclass(frozen=True)
class WildRules:
    """The rule fields of the wildcard forms, as plain values."""

    wildcards: tuple[int, ...]
    absent: frozenset[int] = frozenset()
    seven_pairs: str = "distinct"  # off | distinct | quad_as_two
    thirteen_orphans: bool = False
    wildcards_in_seven_pairs: bool = True
    held_win: int | None = None

    @classmethod
    def of(cls, profile: object) -> WildRules:
        """Read an engine RuleProfile by its field names (no engine code runs)."""
        return cls(
            wildcards=tuple(profile.wildcards),
            absent=frozenset(profile.absent_tiles),
            seven_pairs=str(profile.seven_pairs.value),
            thirteen_orphans=bool(profile.thirteen_orphans),
            wildcards_in_seven_pairs=bool(profile.wildcards_in_seven_pairs),
            held_win=profile.wildcards_held_win,
        )

    @property
    def caps(self) -> tuple[int, ...]:
        """Copies of each tile a concealed hand may hold: 0 for a tile the set lacks."""
        return tuple(0 if t in self.absent else 4 for t in range(NUM_KINDS))

    @property
    def existing(self) -> tuple[int, ...]:
        return tuple(t for t in range(NUM_KINDS) if t not in self.absent)

    def plain_rules(self) -> OracleRules:
        return OracleRules(self.seven_pairs, self.thirteen_orphans, self.wildcards)


WILD_FORMS: Final = ("regular", "seven_pairs", "thirteen_orphans", "wildcards_held")


def seven_pairs_distance_among(counts: Sequence[int], kinds: Sequence[int], *, quad_as_two: bool) -> int:
    """Tiles to draw for seven pairs made of the tile ``kinds`` that exist."""
    return seven_pairs_distance([counts[t] for t in kinds], quad_as_two=quad_as_two)


def wildcards_held_distance(counts: Sequence[int], rules: WildRules) -> int | None:
    """Tiles to draw for the held-wildcards form, over every complete hand (None: no such hand).

    A complete hand has the winning size (one tile more than a 3n+1 hand) and holds ``k >= need``
    wildcard copies (at most four of each wildcard tile) and ``size - k`` other tiles of any kind:
    it lacks ``k - w`` wildcards and whatever of the others the hand's plain tiles cannot give.
    """
    need = rules.held_win
    if need is None or not rules.wildcards:
        return None
    size = sum(counts)
    ready = size + 1 if size % 3 == 1 else size
    held = sum(counts[t] for t in rules.wildcards)
    plain_total = size - held
    costs = [
        max(0, k - held) + max(0, (ready - k) - plain_total)
        for k in range(need, min(4 * len(rules.wildcards), ready) + 1)
    ]
    return min(costs) if costs else None


def _wild_closed(counts: Sequence[int], melds: Sequence[Meld]) -> bool:
    return not melds and sum(counts) >= 13


def wild_form_distances(
    counts: Sequence[int], melds: Sequence[Meld], rules: WildRules, *, regular: int | None = None
) -> dict[str, int | None]:
    """Each form's distance by definition (wildcards credited where they stand in), None where ruled out.

    ``regular``: the plain part's regular distance, if the caller has it (the batch DP).
    """
    plain, wilds = split_wildcards(counts, rules.plain_rules())
    caps = rules.caps
    plain_regular = regular_distance(plain, sum(counts) // 3, caps) if regular is None else int(regular)
    out: dict[str, int | None] = dict.fromkeys(WILD_FORMS)
    out["regular"] = plain_regular - wilds
    if _wild_closed(counts, melds):
        quad_as_two = rules.seven_pairs == "quad_as_two"
        if rules.seven_pairs != "off":
            if rules.wildcards_in_seven_pairs:
                out["seven_pairs"] = seven_pairs_distance_among(plain, rules.existing, quad_as_two=quad_as_two) - wilds
            else:  # the wildcards are tiles of their own kind here
                out["seven_pairs"] = seven_pairs_distance_among(counts, rules.existing, quad_as_two=quad_as_two)
        if rules.thirteen_orphans:
            out["thirteen_orphans"] = thirteen_orphans_distance(plain) - wilds
    out["wildcards_held"] = wildcards_held_distance(counts, rules)
    for value in out.values():
        assert value is None or value >= 0, out
    return out


def seven_pairs_distance_rows(rows: np.ndarray, kinds: Sequence[int], *, quad_as_two: bool) -> np.ndarray:
    """:func:`seven_pairs_distance_among` of every count row at once."""
    part = np.asarray(rows, dtype=np.int64)[:, list(kinds)]
    if not quad_as_two:
        return np.sort(np.maximum(2 - part, 0), axis=1)[:, :7].sum(axis=1)
    best = np.full((len(part), 8), 99, dtype=np.int64)  # best[:, p]: cheapest cost of p pairs so far
    best[:, 0] = 0
    for held in part.T:
        grown = best.copy()
        for pairs in range(8):
            for extra, size in ((1, 2), (2, 4)):
                if pairs + extra <= 7:
                    cost = best[:, pairs] + np.maximum(size - held, 0)
                    grown[:, pairs + extra] = np.minimum(grown[:, pairs + extra], cost)
        best = grown
    return best[:, 7]


def thirteen_orphans_distance_rows(rows: np.ndarray) -> np.ndarray:
    """:func:`thirteen_orphans_distance` of every count row at once: every choice of the paired orphan."""
    part = np.asarray(rows, dtype=np.int64)[:, list(ORPHANS)]
    wanted = np.ones((13, 13), dtype=np.int64) + np.eye(13, dtype=np.int64)  # row i: orphan i paired
    return np.stack([np.maximum(need - part, 0).sum(axis=1) for need in wanted]).min(axis=0)


def _closed_rows_complete(rows: np.ndarray, form: str, rules: WildRules) -> np.ndarray:
    """Which 14-tile count rows are seven pairs, or thirteen orphans, as the rules read them."""
    rows = np.asarray(rows)
    fourteen = rows.sum(axis=1) == 14
    if form == "seven_pairs":
        allowed = (rows % 2 == 0) & (rows <= 4) if rules.seven_pairs == "quad_as_two" else (rows == 0) | (rows == 2)
        return fourteen & allowed.all(axis=1)
    orphan = np.zeros(NUM_KINDS, dtype=bool)
    orphan[list(ORPHANS)] = True
    return fourteen & (rows[:, orphan] >= 1).all(axis=1) & (rows[:, ~orphan] == 0).all(axis=1)


def wild_shanten_by_substitution_many(
    hands: Sequence[tuple[Sequence[int], Sequence[Meld]]], rules: WildRules
) -> list[dict[str, int | None]]:
    """Shanten per form of many hands, each form's distance the best plain distance over every tile
    the wildcards may stand for (in seven pairs with ``wildcards_in_seven_pairs`` off: themselves)."""
    caps = rules.caps
    quad_as_two = rules.seven_pairs == "quad_as_two"
    blocks = []
    for counts, _ in hands:
        plain, wilds = split_wildcards(counts, rules.plain_rules())
        blocks.append(substitutions(plain, wilds, caps)[1])
    rows = np.concatenate(blocks)
    wanted = np.concatenate(
        [np.full(len(block), sum(counts) // 3) for block, (counts, _) in zip(blocks, hands, strict=True)]
    )
    regular = regular_distance_batch(rows, wanted, np.tile(np.asarray(caps), (len(rows), 1)))
    out = []
    start = 0
    for block, (counts, melds) in zip(blocks, hands, strict=True):
        own = slice(start, start + len(block))
        start += len(block)
        distances: dict[str, int | None] = dict.fromkeys(WILD_FORMS)
        distances["regular"] = int(regular[own].min())
        if _wild_closed(counts, melds):
            if rules.seven_pairs != "off":
                pair_rows = block if rules.wildcards_in_seven_pairs else np.array([counts])
                distances["seven_pairs"] = int(
                    seven_pairs_distance_rows(pair_rows, rules.existing, quad_as_two=quad_as_two).min()
                )
            if rules.thirteen_orphans:
                distances["thirteen_orphans"] = int(thirteen_orphans_distance_rows(block).min())
        distances["wildcards_held"] = wildcards_held_distance(counts, rules)  # the wildcards are themselves
        out.append(wild_shanten(distances))
    return out


def wild_form_distances_by_substitution(
    counts: Sequence[int], melds: Sequence[Meld], rules: WildRules
) -> dict[str, int | None]:
    """Each form's distance as the best plain distance over every tile the wildcards may stand for."""
    answer = wild_shanten_by_substitution_many([(counts, melds)], rules)[0]
    return {form: None if answer[form] is None else answer[form] + 1 for form in WILD_FORMS}


def wild_shanten(distances: dict[str, int | None]) -> dict[str, int | None]:
    """Shanten per form and ``"shanten"`` overall from the forms' distances."""
    out = {form: None if d is None else d - 1 for form, d in distances.items()}
    out["shanten"] = min(s for s in out.values() if s is not None)
    return out


def wild_shanten_many(
    hands: Sequence[tuple[Sequence[int], Sequence[Meld]]], rules: WildRules
) -> list[dict[str, int | None]]:
    """:func:`wild_shanten` by definition of many hands, the plain regular distances from one batch call."""
    if not hands:
        return []
    plains = [split_wildcards(counts, rules.plain_rules())[0] for counts, _ in hands]
    wanted = [sum(counts) // 3 for counts, _ in hands]
    regular = regular_distance_batch(
        np.array(plains), np.array(wanted), np.tile(np.asarray(rules.caps), (len(hands), 1))
    )
    return [
        wild_shanten(wild_form_distances(counts, melds, rules, regular=plain_regular))
        for (counts, melds), plain_regular in zip(hands, regular, strict=True)
    ]


def wild_drawable(counts: Sequence[int], rules: WildRules) -> list[int]:
    """Tiles of which the set has one more copy for the concealed hand."""
    caps = rules.caps
    return [t for t in range(NUM_KINDS) if counts[t] < caps[t]]


def wild_complete_forms(counts: Sequence[int], melds: Sequence[Meld], rules: WildRules) -> set[str]:
    """The forms in which a 3n+2 hand is complete, each wildcard replaced by every existing tile."""
    if sum(counts) % 3 != 2:
        return set()
    plain, wilds = split_wildcards(counts, rules.plain_rules())
    _, rows = substitutions(plain, wilds, rules.caps)
    found = set()
    if is_regular_complete_rows(rows).any():
        found.add("regular")
    if _wild_closed(counts, melds):
        if rules.seven_pairs != "off":
            pair_rows = rows if rules.wildcards_in_seven_pairs else np.array([counts])
            if _closed_rows_complete(pair_rows, "seven_pairs", rules).any():
                found.add("seven_pairs")
        if rules.thirteen_orphans and _closed_rows_complete(rows, "thirteen_orphans", rules).any():
            found.add("thirteen_orphans")
    if rules.held_win is not None and wilds >= rules.held_win:
        found.add("wildcards_held")
    return found


def wild_win_readings(counts: Sequence[int], melds: Sequence[Meld], rules: WildRules) -> set[Reading]:
    """Every reading of a complete 3n+2 hand, by substitution (as :func:`win_readings`)."""
    plain, wilds = split_wildcards(counts, rules.plain_rules())
    stand_ins, rows = substitutions(plain, wilds, rules.caps)
    closed = _wild_closed(counts, melds) and sum(counts) == 14
    quad_as_two = rules.seven_pairs == "quad_as_two"
    found: set[Reading] = set()
    for index in np.flatnonzero(is_regular_complete_rows(rows)):
        full = tuple(int(c) for c in rows[index])
        for pair, groups in regular_decompositions(full):
            found.add(("regular", pair, groups, (), (), stand_ins[index]))
    if closed and rules.seven_pairs != "off":
        if rules.wildcards_in_seven_pairs:
            complete = np.flatnonzero(_closed_rows_complete(rows, "seven_pairs", rules))
            candidates = [(tuple(int(c) for c in rows[index]), stand_ins[index]) for index in complete]
        else:
            candidates = [(tuple(counts), ())]
        for full, combo in candidates:
            if is_seven_pairs(full, quad_as_two=quad_as_two):
                pairs = tuple(t for t in range(NUM_KINDS) for _ in range(full[t] // 2))
                found.add(("seven_pairs", None, (), pairs, (), combo))
    if closed and rules.thirteen_orphans:
        for index in np.flatnonzero(_closed_rows_complete(rows, "thirteen_orphans", rules)):
            full, combo = tuple(int(c) for c in rows[index]), stand_ins[index]
            if is_thirteen_orphans(full):
                pair = next(t for t in ORPHANS if full[t] == 2)
                found.add(("thirteen_orphans", pair, (), (), tuple(t for t in ORPHANS if t != pair), combo))
    if rules.held_win is not None and wilds >= rules.held_win:
        singles = tuple(t for t in range(NUM_KINDS) for _ in range(plain[t]))
        held = tuple(t for t in rules.wildcards for _ in range(counts[t]))
        found.add(("wildcards_held", None, (), (), singles, held))
    return found
