"""The hongzhong family's options: its own section of a rule profile, each with the text's default.

Every default follows a statement of the rule text (:data:`~.rules_text.RULE_TEXT`, cited by
key in each field's comment); where the text leaves a choice open, the field says which value
was taken and why (docs/rules.md lists them again). Points are in 底分 (the base, 1).

>>> options = HongzhongOptions()
>>> options.birds, options.discard_wins, options.seven_pairs, options.wild_seven_pairs
(2, False, True, False)
>>> with_overrides(options, birds=4, discard_wins=True).birds
4
>>> with_overrides(options, birds=-1)
Traceback (most recent call last):
...
app.core.errors.InvalidRuleOption: birds must be an integer from 0 to 20, got -1
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Final

from app.core.errors import InvalidRuleOption


class BirdCounting(StrEnum):
    """Which bird tiles hit (中码).

    ``face``: a bird hits by its face alone, 1, 5 or 9 of any suit (the text: 当奖码的牌面为
    红中,1,5,9时即为中码), whatever the seats. ``from_winner``: a bird's number is counted round
    the table from the winner (1 is the winner, 2 the next seat in turn, ...) and hits when it
    lands on the winner (at four seats: 1, 5 and 9, as ``face``; at three: 1, 4 and 7).
    ``from_dealer``: counted from the dealer instead, hitting when it lands on the winner (the
    common 159-to-the-dealer reading of other platforms). In every mode a 红中 bird hits while
    ``red_bird_hits`` holds.
    """

    FACE = "face"
    FROM_WINNER = "from_winner"
    FROM_DEALER = "from_dealer"


#: The most birds a room may ask for: the wall keeps that many tiles back.
MAX_BIRDS: Final = 20
#: The most 底分 any single payment item may be set to.
MAX_POINTS: Final = 100


@dataclass(frozen=True, slots=True)
class HongzhongOptions:
    """The options of a hongzhong (红中麻将) table; defaults are the rule text's."""

    # -- winning ---------------------------------------------------------------------------
    #: Four 红中 held win at once, whatever the rest (摸到四张红中，自动胡牌: "four_red").
    four_red_wins: bool = True
    #: A win on another seat's discard (点炮) is allowed. Off: only self-draws and robbed kongs
    #: win (胡牌只能通过自摸和抢杠胡两种方式: "win_ways"); other 红中 rooms allow it.
    discard_wins: bool = False
    #: With ``discard_wins``: a hand holding a 红中 may not win on a discard. The text has no
    #: discard wins; the default carries its rule for the robbed kong (手中无红中时: "rob_kong")
    #: over to them, the usual 有红中不接炮 of rooms that allow them.
    discard_win_needs_no_red: bool = True
    #: An added kong (公杠) may be robbed (抢杠胡: "rob_kong").
    rob_kong: bool = True
    #: Only a hand holding no 红中 may rob a kong (且手中无红中时: "rob_kong").
    rob_kong_needs_no_red: bool = True
    #: Seven pairs wins (可胡7对（创建房间时需勾选）: "seven_pairs"); a room tick box, shown
    #: ticked on the room panel.
    seven_pairs: bool = True
    #: 红中 may stand for other tiles in seven pairs. Off (the text: 胡7对时红中不能作为万能牌
    #: 使用): in seven pairs a 红中 is a plain tile, and two of them are a pair.
    wild_seven_pairs: bool = False
    #: Four of a kind counts as two pairs in seven pairs. The text does not say; on, as the
    #: 豪华七对 of the neighbouring Hunan rooms, and because nothing in the text forbids it.
    quad_as_two_pairs: bool = True
    #: A 红中 may be discarded (红中牌可打出: "red_discard"). It never helps a pon or a kong
    #: (但不能辅助其他牌来碰、杠): that is no option, melds never hold a 红中.
    red_discardable: bool = True

    # -- what a win pays (底分 per paying seat) -----------------------------------------------
    #: A win (self-drawn; a robbed kong pays the same, all of it by the robbed seat):
    #: 自摸胡牌，赢每个玩家2*底分 ("self_draw_pays").
    win_points: int = 2
    #: A win by four 红中: 摸到四张红中胡牌，赢每个玩家2*底分 ("four_red_pays").
    four_red_points: int = 2
    #: A seven-pairs win: 胡七对，赢每个玩家2*底分 ("seven_pairs_pays"). The text gives it the
    #: same 2 as any win and says 额外 (extra) only where a payment adds, so it replaces
    #: ``win_points`` (the larger counts) rather than adding to it.
    seven_pairs_points: int = 2
    #: Extra 底分 from each payer when the winner holds four 红中 (喜分): 额外赢另外三家每家
    #: 5*底分 ("four_red_bonus"), a room choice ticked by default; 0 turns it off.
    four_red_bonus: int = 5
    #: What a win without 红中 multiplies its win points by (无红中加倍). The text rewards such
    #: a hand with two more birds instead (``no_red_extra_birds``), so 1.
    no_red_multiplier: int = 1

    # -- birds (抓鸟 / 奖码) ---------------------------------------------------------------------
    #: Birds drawn after a win (奖码数量: 2, 4 or 6 on the room panel, 2 ticked).
    birds: int = 2
    #: More birds when the winner holds no 红中: 额外奖励两张码 ("bird_count").
    no_red_extra_birds: int = 2
    #: Which birds hit (see :class:`BirdCounting`); the text's is ``face`` ("bird_hit").
    bird_counting: BirdCounting = BirdCounting.FACE
    #: A 红中 bird hits (牌面为红中 … 即为中码: "bird_hit").
    red_bird_hits: bool = True
    #: 底分 each hit wins from each payer: 每中一张码，赢每个玩家2*底分 ("bird_pays").
    bird_points: int = 2
    #: No hit among the birds counts as every bird hitting (不中当全中: "no_hit_all_hit"), a room
    #: choice ticked by default.
    no_hit_counts_all: bool = True

    # -- kongs (底分) --------------------------------------------------------------------------
    #: A concealed kong: 暗杠，赢每个玩家2*底分 ("closed_kong_pays").
    closed_kong_points: int = 2
    #: An added kong (公杠), from each other seat: 三家出，赢每个玩家1*底分 ("added_kong_pays").
    added_kong_points: int = 1
    #: A kong on a discard (接杠), from the discarder alone: 赢放杠者3*底分 ("open_kong_pays").
    open_kong_points: int = 3
    #: Kongs keep their payments when the hand ends without a win (流局). The text attaches no
    #: condition to them (and keeps them even for the robbed seat: 不包括当局胡牌前杠牌的输赢),
    #: so on; off is the 荒庄荒杠 of other rooms.
    kongs_pay_on_draw: bool = True


_FIELD_NAMES: Final = tuple(field.name for field in fields(HongzhongOptions))
_COUNTS: Final = MappingProxyType({"birds": MAX_BIRDS, "no_red_extra_birds": MAX_BIRDS})
_MULTIPLIERS: Final = frozenset({"no_red_multiplier"})


def _checked(name: str, value: Any) -> Any:
    """``value`` for option ``name`` if it has the option's type and range, else InvalidRuleOption."""
    default = getattr(HongzhongOptions(), name)
    if isinstance(default, BirdCounting):
        try:
            return BirdCounting(value)
        except ValueError:
            allowed = ", ".join(mode.value for mode in BirdCounting)
            raise InvalidRuleOption(f"{name} must be one of {allowed}, got {value!r}", field=name) from None
    if isinstance(default, bool):
        if type(value) is not bool:
            raise InvalidRuleOption(f"{name} must be true or false, got {value!r}", field=name)
        return value
    low = 1 if name in _MULTIPLIERS else 0
    high = _COUNTS.get(name, MAX_POINTS)
    if type(value) is not int or not low <= value <= high:
        raise InvalidRuleOption(f"{name} must be an integer from {low} to {high}, got {value!r}", field=name)
    return value


def with_overrides(options: HongzhongOptions, **overrides: Any) -> HongzhongOptions:
    """``options`` with ``overrides`` applied, each checked (an unknown name or a bad value is an
    :class:`~app.core.errors.InvalidRuleOption` naming the option).

    >>> with_overrides(HongzhongOptions(), bird_counting="from_dealer").bird_counting
    <BirdCounting.FROM_DEALER: 'from_dealer'>
    >>> with_overrides(HongzhongOptions(), chi=True)
    Traceback (most recent call last):
    ...
    app.core.errors.InvalidRuleOption: unknown hongzhong option 'chi'; options are four_red_wins, discard_wins, discard_win_needs_no_red, rob_kong, rob_kong_needs_no_red, seven_pairs, wild_seven_pairs, quad_as_two_pairs, red_discardable, win_points, four_red_points, seven_pairs_points, four_red_bonus, no_red_multiplier, birds, no_red_extra_birds, bird_counting, red_bird_hits, bird_points, no_hit_counts_all, closed_kong_points, added_kong_points, open_kong_points, kongs_pay_on_draw
    """
    for name in overrides:
        if name not in _FIELD_NAMES:
            raise InvalidRuleOption(
                f"unknown hongzhong option {name!r}; options are {', '.join(_FIELD_NAMES)}", field=name
            )
    return replace(options, **{name: _checked(name, value) for name, value in overrides.items()})


def describe(options: HongzhongOptions) -> dict[str, Any]:
    """The options as plain data (enums as their strings), in field order.

    >>> describe(HongzhongOptions())["bird_counting"]
    'face'
    """
    return {
        name: value.value if isinstance(value, BirdCounting) else value
        for name, value in ((name, getattr(options, name)) for name in _FIELD_NAMES)
    }


#: The rule text's room: every option at its default.
TEXT_OPTIONS: Final = HongzhongOptions()
#: The family's presets: the rule text's room as its defaults set it.
PRESETS: Final = MappingProxyType({"hongzhong": TEXT_OPTIONS})
