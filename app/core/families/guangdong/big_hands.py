"""The 推倒胡 fan list's big hands (option ``fan_list``), found under any reading of the ghosts.

The fan list text (:data:`~app.core.families.guangdong.rules_text.FAN_LIST_TEXT`) has two kinds of
hand, the chicken hand (1) and the big hand (2), and names eleven big hands.  A hand is big when
some reading of its ghosts makes it one; the value does not grow with more than one, but every
big hand found is listed.  The shapes are asked of the shape engine: a flush is a win under rules
whose set holds that suit alone; a hand built on given triplets is a win once those triplets are
set aside (filled with ghosts where the hand lacks copies) and counted toward the rest's 4-copy
limit, so the ghosts stand for no fifth concealed copy.

>>> from app.core.families.guangdong.options import GuangdongOptions
>>> from app.core.shape.tiles import parse_mpsz
>>> from app.core.value.scoring_context import WinContext
>>> hand = Hand.from_tiles(parse_mpsz("111222333m55z999m"))  # 5z the ghost: the pair, any tile
>>> big_hands(hand, 8, 31, GuangdongOptions(), WinContext(winner=0, dealer=0))
('qing_yi_se', 'si_an_ke')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from types import MappingProxyType
from typing import Final

from app.core.families.guangdong.options import GuangdongOptions
from app.core.families.guangdong.tiles import hand_rules
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld, MeldKind
from app.core.shape.rules import RuleProfile
from app.core.shape.tiles import DRAGONS, EAST, NUM_TILE_KINDS, WINDS, Tile
from app.core.value.scoring_context import WinContext

#: The big hands, in the fan list text's order: (pinyin, Chinese).
BIG_HANDS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "tian_hu": "天胡",
        "di_hu": "地胡",
        "qing_yi_se": "清一色",
        "zi_yi_se": "字一色",
        "si_an_ke": "四暗刻",
        "si_gang": "四杠",
        "da_san_yuan": "大三元",
        "da_si_xi": "大四喜",
        "xiao_si_xi": "小四喜",
        "qi_dui": "七对",
        "shi_san_yao": "十三幺",
    }
)
_KONGS: Final = frozenset({MeldKind.OPEN_KAN, MeldKind.CLOSED_KAN, MeldKind.ADDED_KAN})
_SETS: Final = frozenset({MeldKind.PON}) | _KONGS
#: The tiles of each one-suit set: m, p, s, then the honours.
_SUIT_TILES: Final = (range(0, 9), range(9, 18), range(18, 27), range(EAST, NUM_TILE_KINDS))


@lru_cache(maxsize=64)
def _checker(rules: RuleProfile) -> Checker:
    return Checker(rules)


def _one_suit_rules(rules: RuleProfile, suit: int) -> RuleProfile:
    """``rules`` with a set of one suit's tiles alone (the ghost stands only for them)."""
    absent = tuple(tile for tile in range(NUM_TILE_KINDS) if tile not in _SUIT_TILES[suit])
    return replace(rules, absent_tiles=absent, thirteen_orphans=False)


def _one_suit(hand: Hand, rules: RuleProfile, ghost: Tile | None, suit: int) -> bool:
    """Whether every tile but the ghosts is of ``suit`` and some reading completes the hand in it."""
    tiles = _SUIT_TILES[suit]
    if any(hand.counts[t] and t != ghost and t not in tiles for t in range(NUM_TILE_KINDS)):
        return False
    if any(meld.tiles[0] not in tiles for meld in hand.melds):
        return False
    return _checker(_one_suit_rules(rules, suit)).is_win(hand)


def _with_sets(
    hand: Hand, rules: RuleProfile, ghost: Tile | None, sets: Sequence[Tile], pair: Tile | None = None
) -> bool:
    """Whether the hand holds a triplet (or kong) of each tile of ``sets`` (and, with ``pair``, a
    pair of it) and is complete besides: a set not declared is taken from the concealed tiles,
    ghosts filling what they lack, and set aside as a declared pon.  The pair is taken the same
    way and put back as two real copies, so the rest can read them only as the pair or in a set
    of that tile.  A pair of the ghost's own tile is not looked for (its copies are wild)."""
    counts = bytearray(hand.counts)
    ghosts = counts[ghost] if ghost is not None else 0
    if ghost is not None:
        counts[ghost] = 0
    declared = {meld.tiles[0] for meld in hand.melds if meld.kind in _SETS}
    set_aside: list[Meld] = []
    for tile in sets:
        if tile in declared:
            continue
        real = min(3, counts[tile])
        counts[tile] -= real
        ghosts -= 3 - real
        if ghosts < 0:
            return False
        set_aside.append(Meld.of(MeldKind.PON, (tile,) * 3))
    if pair is not None:
        if pair == ghost:
            return False
        real = min(2, counts[pair])
        ghosts -= 2 - real
        if ghosts < 0:
            return False
        counts[pair] += 2 - real
    if not set_aside and pair is None:
        return _checker(rules).is_win(hand)
    if ghost is not None:
        counts[ghost] = ghosts
    # Only the sets taken from the concealed tiles count toward the rest's 4-copy limit (the
    # declared melds do not, as in every other answer): the rest is asked alone, with them as melds.
    rest = Hand(bytes(counts), tuple(set_aside))
    return _checker(replace(rules, melded_tiles_count_toward_limit=True)).is_win(rest)


def _all_concealed_triplets(hand: Hand, ghost: Tile | None, pair_tile: Tile | None) -> bool:
    """Whether the concealed tiles read as triplets and a pair only, ghosts filling (四暗刻's
    concealed part); ``pair_tile`` forces the pair (a discard win completes only the pair)."""
    if any(meld.kind is not MeldKind.CLOSED_KAN for meld in hand.melds):
        return False
    counts = list(hand.counts)
    ghosts = counts[ghost] if ghost is not None else 0
    if ghost is not None:
        counts[ghost] = 0
    held = [tile for tile in range(NUM_TILE_KINDS) if counts[tile]]
    if any(counts[tile] > 3 for tile in held):
        return False
    # The pair: a held kind of at most two copies, or two ghosts of a new kind (None).
    pairs: list[Tile | None] = [t for t in held if counts[t] <= 2] + [None]
    if pair_tile is not None:
        pairs = [pair_tile] if pair_tile in held and counts[pair_tile] <= 2 else []
    for pair in pairs:
        needed = 2 - counts[pair] if pair is not None else 2
        needed += sum(3 - counts[t] for t in held if t != pair)
        left = ghosts - needed
        if left >= 0 and left % 3 == 0:
            return True
    return False


def big_hands(
    hand: Hand, win_tile: Tile, ghost: Tile | None, options: GuangdongOptions, context: WinContext
) -> tuple[str, ...]:
    """The big hands a complete Guangdong hand makes (names of :data:`BIG_HANDS`, in its order)."""
    rules = hand_rules(options, ghost)
    found: list[str] = []
    if context.first_turn:
        found.append("tian_hu" if context.winner == context.dealer else "di_hu")
    if any(_one_suit(hand, rules, ghost, suit) for suit in range(3)):
        found.append("qing_yi_se")
    if _one_suit(hand, rules, ghost, 3):
        found.append("zi_yi_se")
    discard_win = context.discarder is not None
    pair_tile = win_tile if discard_win and win_tile != ghost else None
    if _all_concealed_triplets(hand, ghost, pair_tile):
        found.append("si_an_ke")
    if sum(1 for meld in hand.melds if meld.kind in _KONGS) == 4:
        found.append("si_gang")
    if _with_sets(hand, rules, ghost, DRAGONS):
        found.append("da_san_yuan")
    if _with_sets(hand, rules, ghost, WINDS):
        found.append("da_si_xi")
    elif any(
        _with_sets(hand, rules, ghost, tuple(wind for wind in WINDS if wind != paired), paired) for paired in WINDS
    ):
        # With no 大四喜, the pair put back cannot join a fourth wind set: it is the pair.
        found.append("xiao_si_xi")
    if not hand.melds and hand.tile_count == 14:
        shape = _checker(rules).shanten(hand, with_ukeire=False)
        if shape.seven_pairs == -1:
            found.append("qi_dui")
        if shape.thirteen_orphans == -1:
            found.append("shi_san_yao")
    return tuple(found)
