"""Chinese Official rules (MCR, 国标麻将): the 81 fans, their exclusions, the 8-fan floor.

A win is read in every way its tiles allow — the regular form (4 sets + a pair, the
declared melds fixed), seven pairs (a quad is two pairs), thirteen orphans, the knitted
straight (147/258/369 across the suits, one more set and a pair) and honours and
knitted tiles (全不靠 / 七星不靠) — and the reading worth the most fans counts.

The exclusion principles of the rule book are applied as follows.

* 不计 (implied fans are not counted): :data:`_EXCLUSION_RULES` lists, for each fan, the fans
  its definition says it does not count; a fan only excludes while it is counted itself
  (so 四暗刻 drops 不求人 and the self-draw it had absorbed comes back as 自摸).
* 不重复 / 不拆移 (no set is split or moved to build another fan): the fans made of
  three or four sets (清龙, 一色三步高, 三同刻, ...) are formed first and their sets are
  not recombined with each other.
* 不得相同 (a set that already formed a fan cannot form the same fan again with another
  set) and 套算一次 (a set not yet combined may combine with an already combined one
  only once): the two-chow fans (一般高, 喜相逢, 连六, 老少副) are chosen as a forest over
  the chows in which no chow carries the same fan twice, with the largest number of fans
  (at most one fewer than the chows involved); a set left over by a three-set fan joins
  it once.  Two-pung fans (双同刻, 双箭刻) cannot close a cycle without making a
  three-pung fan, so each pair of pungs counts.
* Pungs consumed by 箭刻, 圈风刻, 门风刻, 三风刻, 小四喜, ... do not also score 幺九刻.

Where two readings are worth the same, the choice follows PyMahjongGB 1.4.0's (the
independent calculator the tests compare with), so the fans listed agree with it too.

The counting is compiled (app/core/kernel/mcr.cpp, through :mod:`app.core._kernel`); this
module validates, codes the win for it and builds the answer.  The plain Python it was
ported from is the tests' reference (tests/core/mcr_reference.py).

>>> from app.core.shape.tiles import parse_mpsz
>>> hand = Hand.from_tiles(parse_mpsz("123456789m123p55s"))
>>> [(f.chinese, f.count) for f in count_fans(hand, 8, WinContext(winner=0, dealer=0))]
[('清龙', 1), ('不求人', 1), ('平和', 1), ('喜相逢', 1)]
>>> fan_total(hand, 8, WinContext(winner=0, dealer=0))
23
"""

from __future__ import annotations

from typing import Final, NamedTuple

from app.core import _kernel
from app.core.errors import BelowMinimumFan, InvalidRuleOption, NotAWinningHand, WrongTileCount
from app.core.shape.hand import Hand
from app.core.shape.rules import RuleProfile
from app.core.shape.tiles import EAST, NORTH, NUM_TILE_KINDS, Tile, counted, format_tile
from app.core.value.scoring_context import InvalidWinContext, WinContext, check_seats, check_win_tile

#: A win needs at least this many fans, flowers not counted.
MINIMUM_FAN: Final = 8
#: What every player pays the winner on top of the fans (the discarder pays fans + this).
BASE_PAYMENT: Final = 8
#: Flower tiles a player can set aside (spring summer autumn winter plum orchid chrysanthemum bamboo).
MAX_FLOWERS: Final = 8
SEATS: Final = 4


class Fan(NamedTuple):
    """One fan counted: its name (MCR: official English; Sichuan: pinyin), Chinese name, value of one
    instance, instances."""

    name: str
    chinese: str
    fan: int
    count: int  # type: ignore[assignment]  # the field shadows tuple.count, by the shared interface


class McrScore(NamedTuple):
    """What an MCR win pays: net payments per seat, who pays what, the fans counted."""

    payments: tuple[int, ...]
    per_payer: tuple[tuple[int, int], ...]
    fan: int
    fans: tuple[Fan, ...]
    flowers: int


#: The fans in the rule book's order: (English, Chinese, value).  The 81 official fans
#: (花牌 Flower Tiles is the 81st), then 明暗杠, the rule book's 5-fan reading of one
#: melded plus one concealed kong (it replaces 明杠 + 暗杠; see 双明杠's definition).
FAN_TABLE: Final[tuple[tuple[str, str, int], ...]] = (
    ("Big Four Winds", "大四喜", 88),
    ("Big Three Dragons", "大三元", 88),
    ("All Green", "绿一色", 88),
    ("Nine Gates", "九莲宝灯", 88),
    ("Four Kongs", "四杠", 88),
    ("Seven Shifted Pairs", "连七对", 88),
    ("Thirteen Orphans", "十三幺", 88),
    ("All Terminals", "清幺九", 64),
    ("Little Four Winds", "小四喜", 64),
    ("Little Three Dragons", "小三元", 64),
    ("All Honors", "字一色", 64),
    ("Four Concealed Pungs", "四暗刻", 64),
    ("Pure Terminal Chows", "一色双龙会", 64),
    ("Quadruple Chow", "一色四同顺", 48),
    ("Four Pure Shifted Pungs", "一色四节高", 48),
    ("Four Pure Shifted Chows", "一色四步高", 32),
    ("Three Kongs", "三杠", 32),
    ("All Terminals and Honors", "混幺九", 32),
    ("Seven Pairs", "七对", 24),
    ("Greater Honors and Knitted Tiles", "七星不靠", 24),
    ("All Even Pungs", "全双刻", 24),
    ("Full Flush", "清一色", 24),
    ("Pure Triple Chow", "一色三同顺", 24),
    ("Pure Shifted Pungs", "一色三节高", 24),
    ("Upper Tiles", "全大", 24),
    ("Middle Tiles", "全中", 24),
    ("Lower Tiles", "全小", 24),
    ("Pure Straight", "清龙", 16),
    ("Three-Suited Terminal Chows", "三色双龙会", 16),
    ("Pure Shifted Chows", "一色三步高", 16),
    ("All Five", "全带五", 16),
    ("Triple Pung", "三同刻", 16),
    ("Three Concealed Pungs", "三暗刻", 16),
    ("Lesser Honors and Knitted Tiles", "全不靠", 12),
    ("Knitted Straight", "组合龙", 12),
    ("Upper Four", "大于五", 12),
    ("Lower Four", "小于五", 12),
    ("Big Three Winds", "三风刻", 12),
    ("Mixed Straight", "花龙", 8),
    ("Reversible Tiles", "推不倒", 8),
    ("Mixed Triple Chow", "三色三同顺", 8),
    ("Mixed Shifted Pungs", "三色三节高", 8),
    ("Chicken Hand", "无番和", 8),
    ("Last Tile Draw", "妙手回春", 8),
    ("Last Tile Claim", "海底捞月", 8),
    ("Out with Replacement Tile", "杠上开花", 8),
    ("Robbing The Kong", "抢杠和", 8),
    ("All Pungs", "碰碰和", 6),
    ("Half Flush", "混一色", 6),
    ("Mixed Shifted Chows", "三色三步高", 6),
    ("All Types", "五门齐", 6),
    ("Melded Hand", "全求人", 6),
    ("Two Concealed Kongs", "双暗杠", 6),
    ("Two Dragons Pungs", "双箭刻", 6),
    ("Outside Hand", "全带幺", 4),
    ("Fully Concealed Hand", "不求人", 4),
    ("Two Melded Kongs", "双明杠", 4),
    ("Last Tile", "和绝张", 4),
    ("Dragon Pung", "箭刻", 2),
    ("Prevalent Wind", "圈风刻", 2),
    ("Seat Wind", "门风刻", 2),
    ("Concealed Hand", "门前清", 2),
    ("All Chows", "平和", 2),
    ("Tile Hog", "四归一", 2),
    ("Double Pung", "双同刻", 2),
    ("Two Concealed Pungs", "双暗刻", 2),
    ("Concealed Kong", "暗杠", 2),
    ("All Simples", "断幺", 2),
    ("Pure Double Chow", "一般高", 1),
    ("Mixed Double Chow", "喜相逢", 1),
    ("Short Straight", "连六", 1),
    ("Two Terminal Chows", "老少副", 1),
    ("Pung of Terminals or Honors", "幺九刻", 1),
    ("Melded Kong", "明杠", 1),
    ("One Voided Suit", "缺一门", 1),
    ("No Honors", "无字", 1),
    ("Unique Wait (Edge)", "独听・边张", 1),
    ("Unique Wait (Closed)", "独听・嵌张", 1),
    ("Unique Wait (Single)", "独听・单钓", 1),
    ("Self-Drawn", "自摸", 1),
    ("Flower Tiles", "花牌", 1),
    ("Concealed Kong and Melded Kong", "明暗杠", 5),
)
OFFICIAL_FAN_COUNT: Final = 81
FLOWER_TILES: Final = OFFICIAL_FAN_COUNT - 1

#: ``_FANS[fan][count]``, built once (counts up to 8 flowers; repeatable fans stay below).
_FANS: Final = tuple(
    tuple(Fan(name, chinese, value, count) for count in range(MAX_FLOWERS + 1)) for name, chinese, value in FAN_TABLE
)
#: The seats that pay a winner, in seat order.
_OTHER_SEATS: Final = tuple(tuple(seat for seat in range(SEATS) if seat != winner) for winner in range(SEATS))
# The kernel answers with these very objects (no Fan is built per call).
_kernel.mcr_install_fans(_FANS)


def _not_a_win() -> NotAWinningHand:
    return NotAWinningHand("the hand does not complete any MCR form", field="hand")


def _count(hand: Hand, win_tile: Tile, context: WinContext) -> tuple[int, tuple[Fan, ...]]:
    """(total, fans) of the best reading, from the kernel; raises :class:`NotAWinningHand`."""
    if hand.tile_count + 3 * len(hand.melds) != 14 or not 0 <= win_tile < NUM_TILE_KINDS or not hand.counts[win_tile]:
        raise _not_a_win()
    counted = _kernel.mcr_count(hand, win_tile, context)
    if counted is None:
        raise _not_a_win()
    return counted


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
    return _count(hand, win_tile, context)[1]


def fan_total(hand: Hand, win_tile: Tile, context: WinContext) -> int:
    """Total fans of the best reading (flowers excluded): the floor is checked against this.

    >>> from app.core.shape.tiles import parse_mpsz
    >>> from app.core.shape.hand import Meld
    >>> chicken = Hand.from_tiles(parse_mpsz("56s678p11z7s"), [Meld.of("chi", [0, 1, 2]), Meld.of("chi", [2, 3, 4])])
    >>> fan_total(chicken, 24, WinContext(winner=0, dealer=0, discarder=1))
    8
    """
    if hand.tile_count + 3 * len(hand.melds) != 14 or not 0 <= win_tile < NUM_TILE_KINDS or not hand.counts[win_tile]:
        raise _not_a_win()
    total = _kernel.mcr_fan_total(hand, win_tile, context)
    if not total:
        raise _not_a_win()
    return total


def check_mcr_context(hand: Hand, win_tile: Tile, context: WinContext) -> None:
    """Raise :class:`InvalidWinContext` (naming the field) for a situation that cannot happen.

    Besides the seats (:func:`check_seats`) and the winning tile: winds must be wind
    tiles; flowers 0..8; a kong-replacement win needs a declared kong; robbing a kong
    means the winner holds no other copy of the robbed tile and the wall is not empty
    (no kong may be declared after the last tile); 和绝张 is impossible while the winner
    holds another copy of the winning tile (that would be a fifth copy).

    >>> from app.core.shape.tiles import parse_mpsz
    >>> hand = Hand.from_tiles(parse_mpsz("123456789m123p55s"))
    >>> check_mcr_context(hand, 8, WinContext(0, 0, kong_replacement=True))
    Traceback (most recent call last):
    ...
    app.core.value.scoring_context.InvalidWinContext: a kong replacement win needs a declared kong
    """
    check_seats(context, SEATS)
    check_win_tile(hand.counts, win_tile)
    for name in ("round_wind", "seat_wind"):
        wind = getattr(context, name)
        if wind is not None and not (type(wind) is int and EAST <= wind <= NORTH):
            raise InvalidWinContext(
                f"{name} must be a wind tile {EAST}..{NORTH} (East..North), got {wind!r}", field=name
            )
    if not (type(context.flowers) is int and 0 <= context.flowers <= MAX_FLOWERS):
        raise InvalidWinContext(f"flowers must be 0..{MAX_FLOWERS}, got {context.flowers!r}", field="flowers")
    if context.kong_replacement and not any(meld.kind.size == 4 for meld in hand.melds):
        raise InvalidWinContext("a kong replacement win needs a declared kong", field="kong_replacement")
    if context.robbed_kong:
        if hand.counts[win_tile] > 1 or any(win_tile in meld.tiles for meld in hand.melds):
            raise InvalidWinContext(
                f"the winner holds another {format_tile(win_tile)}, so it cannot rob a kong of it", field="robbed_kong"
            )
        if context.last_tile:
            raise InvalidWinContext(
                "no kong can be declared after the last tile, so none can be robbed", field="last_tile"
            )
    if context.last_copy and hand.counts[win_tile] > 1:
        raise InvalidWinContext(
            f"the winner holds another {format_tile(win_tile)}, so the winning tile is not the last copy",
            field="last_copy",
        )


def score_mcr(hand: Hand, win_tile: Tile, rules: RuleProfile, context: WinContext) -> McrScore:
    """Score an MCR win: the fans, the 8-fan floor and the payments.

    Payments: with T = fans + flowers, on a discard the discarder pays T + 8 and the other
    two pay 8; on a self-draw each of the three pays T + 8.  Raises
    :class:`InvalidWinContext`, :class:`WrongTileCount`, :class:`NotAWinningHand`, or
    :class:`BelowMinimumFan` when the fans (flowers not counted) are under 8.

    >>> from app.core.shape.rules import rule_profile
    >>> from app.core.shape.tiles import parse_mpsz
    >>> hand = Hand.from_tiles(parse_mpsz("123456789m123p55s"))
    >>> result = score_mcr(hand, 8, rule_profile("mcr"), WinContext(winner=1, dealer=0, discarder=2, flowers=2))
    >>> result.fan, result.payments, result.per_payer, result.fans[-1]
    (21, (-8, 47, -31, -8), ((0, 8), (2, 31), (3, 8)), Fan(name='Flower Tiles', chinese='花牌', fan=1, count=2))
    >>> from app.core.shape.hand import Meld
    >>> small = Hand.from_tiles(parse_mpsz("234567m345p22p"), [Meld.of("chi", [23, 24, 25])])
    >>> score_mcr(small, 13, rule_profile("mcr"), WinContext(winner=1, dealer=0, discarder=2))
    Traceback (most recent call last):
    ...
    app.core.errors.BelowMinimumFan: the hand is worth 5 fans (flowers not counted); a win needs at least 8
    """
    check_mcr_context(hand, win_tile, context)
    if hand.tile_count + 3 * len(hand.melds) != 14:
        raise WrongTileCount(
            f"a winning hand has 14 tiles with each meld counted as 3; got {hand.tile_count} concealed "
            f"with {counted(len(hand.melds), 'meld')}",
            field="hand",
        )
    if rules.wildcards:
        raise InvalidRuleOption(
            f"MCR scoring has no wildcards; {rules.name} with wildcards cannot be scored", field="rules.wildcards"
        )
    total, fans = _count(hand, win_tile, context)
    if total < MINIMUM_FAN:
        raise BelowMinimumFan(
            f"the hand is worth {counted(total, 'fan')} (flowers not counted); a win needs at least {MINIMUM_FAN}",
            field="hand",
        )
    flowers = context.flowers
    if flowers:
        fans += (_FANS[FLOWER_TILES][flowers],)
    owed = total + flowers + BASE_PAYMENT
    winner, discarder = context.winner, context.discarder
    payments = [0] * SEATS
    if discarder is None:
        per_payer = tuple([(seat, owed) for seat in _OTHER_SEATS[winner]])
        payments[winner] = owed * (SEATS - 1)
    else:
        per_payer = tuple([(seat, owed if seat == discarder else BASE_PAYMENT) for seat in _OTHER_SEATS[winner]])
        payments[winner] = owed + BASE_PAYMENT * (SEATS - 2)
    for seat, pays in per_payer:
        payments[seat] = -pays
    return McrScore(tuple(payments), per_payer, total, fans, flowers)
