"""A brute force of the hongzhong hand, written from the rule text, for the engine to agree with.

Nothing here imports the engine (it reuses only the plain oracles of ``tests/core/oracles.py``:
the complete-suit check and the distance searches, themselves checked against brute force
there). Hands are plain data: 34 counts (only the 27 suit tiles and 红中, index 33, held) and
the number of melds.

Definitions, as the text gives them:

* **Regular**: every 红中 stands for some suit tile (每张红中 is 万能牌: enumerated, every
  multiset of suit tiles, no tile above four copies in the concealed hand) and the result is
  sets (一句话 or 一坎牌) and one pair (胡牌时手里要有一个对子).
* **Seven pairs**: a closed hand of 14 tiles, every kind held an even number of times (four of a
  kind as two pairs, or not, by the option). In the text's reading (``wild_pairs`` off) 红中 is
  a plain tile there (胡7对时红中不能作为万能牌使用); with ``wild_pairs`` each 红中 stands for a
  suit tile first, as in the regular form.
* **Four 红中** (``four_red``): four 红中 held, a hand of five tiles or more, wins at once.
* **Distance** to a form: the fewest tiles to draw (each replacing a tile thrown; any of the 28
  kinds, 红中 included) to make the hand complete in that form. For the regular form it is the
  best over every substitution of the 红中 of the plain distance (``oracles.regular_distance_batch``,
  suits only); a second reading, the plain part's distance (``oracles.regular_distance``) less the
  红中 held, is checked to agree with it. Four 红中 are ``4 - held`` draws away (at least one for a
  waiting hand). Shanten is the least distance less one.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement

import numpy as np
import oracles as O

RED = 33
SUIT_KINDS = 27
KINDS = (*range(SUIT_KINDS), RED)
#: Caps of a complete concealed part's stand-in reading: four of each suit tile, no honour.
SUIT_CAPS = (4,) * SUIT_KINDS + (0,) * 7


@dataclass(frozen=True)
class Rules:
    """The options the shape depends on."""

    seven_pairs: bool = True
    quad_as_two: bool = True
    wild_pairs: bool = False
    four_red: bool = True


ENGINE_PROFILE = Rules(wild_pairs=True, four_red=False)
"""What the shape engine's profile alone says: seven pairs with 红中 wild, no four-红中 form."""


@lru_cache(maxsize=8)
def _stand_ins(wilds: int) -> np.ndarray:
    """Every multiset of ``wilds`` suit tiles, as 34-count rows."""
    combos = list(combinations_with_replacement(range(SUIT_KINDS), wilds))
    rows = np.zeros((len(combos), 34), dtype=np.int64)
    for index, combo in enumerate(combos):
        for tile in combo:
            rows[index, tile] += 1
    return rows


def substituted(counts: tuple[int, ...]) -> np.ndarray:
    """Every reading of the hand with each 红中 replaced by a suit tile (rows within four copies)."""
    plain = np.array(counts, dtype=np.int64)
    wilds = int(plain[RED])
    plain[RED] = 0
    rows = _stand_ins(wilds) + plain
    return rows[(rows <= 4).all(axis=1)]


def _even_rows(rows: np.ndarray, quad_as_two: bool) -> np.ndarray:
    allowed = (rows % 2 == 0) if quad_as_two else ((rows == 0) | (rows == 2))
    return (rows.sum(axis=1) == 14) & allowed.all(axis=1)


def is_win(counts: tuple[int, ...], melds: int, rules: Rules) -> bool:
    """Whether a 3n+2 hand wins: regular, seven pairs or four 红中 (as ``rules`` allow)."""
    size = sum(counts)
    if size % 3 != 2:
        return False
    if rules.four_red and counts[RED] == 4 and size >= 5:
        return True
    rows = substituted(counts)
    if bool(O.is_regular_complete_rows(rows).any()):
        return True
    if rules.seven_pairs and melds == 0 and size == 14:
        if rules.wild_pairs:
            return bool(_even_rows(rows, rules.quad_as_two).any())
        return bool(_even_rows(np.array([counts]), rules.quad_as_two)[0])
    return False


def waits_one_by_one(counts: tuple[int, ...], melds: int, rules: Rules) -> list[int]:
    """Tiles of the set (fewer than four held) that make a 3n+1 hand win, each tried with :func:`is_win`."""
    out = []
    for tile in KINDS:
        if counts[tile] < 4:
            grown = list(counts)
            grown[tile] += 1
            if is_win(tuple(grown), melds, rules):
                out.append(tile)
    return out


def waits(counts: tuple[int, ...], melds: int, rules: Rules) -> list[int]:
    """:func:`waits_one_by_one` in one pass: the hand's 红中 and the drawn tile ``x`` together are
    ``w + 1`` stand-ins, so a suit tile ``x`` completes the hand exactly when some complete
    reading with ``w + 1`` stand-ins has ``x`` among them, and a drawn 红中 when any reading is
    complete. Seven pairs without wildcards and four 红中 are tried tile by tile."""
    size = sum(counts)
    plain = np.array(counts, dtype=np.int64)
    wilds = int(plain[RED])
    plain[RED] = 0
    stand_ins = _stand_ins(wilds + 1)
    rows = stand_ins + plain
    keep = (rows <= 4).all(axis=1)
    rows, stand_ins = rows[keep], stand_ins[keep]
    complete = O.is_regular_complete_rows(rows)
    closed = rules.seven_pairs and melds == 0 and size + 1 == 14
    if closed and rules.wild_pairs:
        complete |= _even_rows(rows, rules.quad_as_two)
    found = {int(tile) for tile in np.flatnonzero((stand_ins[complete] > 0).any(axis=0))}
    if complete.any() and counts[RED] < 4:
        found.add(RED)
    if closed and not rules.wild_pairs:
        for tile in KINDS:
            grown = np.array([counts])
            grown[0, tile] += 1
            if counts[tile] < 4 and _even_rows(grown, rules.quad_as_two)[0]:
                found.add(tile)
    if rules.four_red and size + 1 >= 5:
        if counts[RED] == 3:
            found.add(RED)
        elif counts[RED] == 4:  # whatever is drawn, four 红中 are held
            found.update(tile for tile in KINDS if counts[tile] < 4)
    return sorted(found)


def _seven_pairs_distance(counts: tuple[int, ...], quad_as_two: bool, kinds: tuple[int, ...]) -> int:
    """Tiles to draw for seven pairs over ``kinds`` (each kind 0, 2 or, as two pairs, 4 tiles)."""
    if not quad_as_two:
        return sum(sorted(max(0, 2 - counts[t]) for t in kinds)[:7])
    infinity = 99
    best = [0] + [infinity] * 7
    for tile in kinds:
        held = counts[tile]
        grown = best[:]
        for pairs in range(8):
            if best[pairs] >= infinity:
                continue
            for extra, size in ((1, 2), (2, 4)):
                if pairs + extra <= 7:
                    grown[pairs + extra] = min(grown[pairs + extra], best[pairs] + max(0, size - held))
        best = grown
    return best[7]


def distances(
    counts: tuple[int, ...], melds: int, rules: Rules, *, substitute: bool = True, regular: int | None = None
) -> dict[str, int | None]:
    """Distance to each form, by the definitions above (None: the rules or size rule it out).

    ``substitute`` off reads the second way: each wild form's distance of the hand without its
    红中, less the 红中 held (a 红中 fills any one missing tile); natural seven pairs, where 红中
    fills nothing, and four 红中 read the same both ways. ``regular`` may pass the second
    reading's regular distance, found beforehand (e.g. in a batch).
    """
    size = sum(counts)
    melds_wanted = size // 3
    plain = (*counts[:RED], 0)
    wilds = counts[RED]
    suits = tuple(range(SUIT_KINDS))
    if substitute:
        rows = substituted(counts)
        wanted = np.full(len(rows), melds_wanted)
        caps = np.tile(np.array(SUIT_CAPS), (len(rows), 1))
        regular = int(O.regular_distance_batch(rows, wanted, caps).min())
    elif regular is None:
        regular = O.regular_distance(plain, melds_wanted, SUIT_CAPS) - wilds
    out: dict[str, int | None] = {"regular": regular, "seven_pairs": None, "four_red": None}
    if rules.seven_pairs and melds == 0 and size >= 13:
        if not rules.wild_pairs:
            out["seven_pairs"] = _seven_pairs_distance(counts, rules.quad_as_two, KINDS)
        elif substitute:
            out["seven_pairs"] = min(_seven_pairs_distance(tuple(row), rules.quad_as_two, suits) for row in rows)
        else:
            out["seven_pairs"] = _seven_pairs_distance(plain, rules.quad_as_two, suits) - wilds
    waiting = size % 3 == 1
    if rules.four_red and size + waiting >= 5:
        # A waiting hand draws at least once, even holding four 红中.
        out["four_red"] = max(4 - counts[RED], 1 if waiting else 0)
    return out


def shanten(counts: tuple[int, ...], melds: int, rules: Rules) -> dict[str, int | None]:
    """Shanten per form and overall (``"shanten"``): distance less one."""
    found = {form: None if d is None else d - 1 for form, d in distances(counts, melds, rules).items()}
    found["shanten"] = min(value for value in found.values() if value is not None)
    return found


def improving_draws(counts: tuple[int, ...], melds: int, rules: Rules) -> list[int]:
    """Tiles of the set (fewer than four held) whose draw lowers a 3n+1 hand's shanten: every
    hand after a draw measured by the second reading, its regular distances in one batch."""
    now = shanten(counts, melds, rules)["shanten"]
    drawn = [tile for tile in KINDS if counts[tile] < 4]
    grown = []
    for tile in drawn:
        after = list(counts)
        after[tile] += 1
        grown.append(tuple(after))
    plains = np.array([(*after[:RED], 0) for after in grown])
    wanted = np.full(len(grown), (sum(counts) + 1) // 3)
    caps = np.tile(np.array(SUIT_CAPS), (len(grown), 1))
    regular = O.regular_distance_batch(plains, wanted, caps)
    out = []
    for tile, after, plain_regular in zip(drawn, grown, regular, strict=True):
        forms = distances(after, melds, rules, substitute=False, regular=int(plain_regular) - after[RED])
        if min(d for d in forms.values() if d is not None) - 1 < now:
            out.append(tile)
    return out
