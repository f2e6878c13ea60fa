"""The Guangdong 推倒胡 family's options: its own section of the rule profile.

Each field's default is the rule text's (:mod:`~app.core.families.guangdong.rules_text`); where
the text says nothing, the field's comment says which default was taken and why.  Requests
change them by name (:func:`with_overrides`), checked here, so a bad value is an
:class:`~app.core.errors.InvalidRuleOption` naming its field.

>>> options = PRESETS["guangdong"]
>>> options.discard_wins, options.chi, options.ghost.value, options.horses, options.horses_without_ghost
(False, False, 'flip', 4, 6)
>>> with_overrides(options, ghost="white", follow_dealer=True).ghost
<GhostMode.WHITE: 'white'>
>>> with_overrides(options, horses=-1)
Traceback (most recent call last):
...
app.core.errors.InvalidRuleOption: horses must be an integer from 0 to 20, got -1
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Final

from app.core.errors import InvalidRuleOption
from app.core.shape.rules import SevenPairs


class GhostMode(StrEnum):
    """Which tile is the hand's ghost (鬼牌, the wildcard)."""

    #: No ghost: every tile is itself (and 无鬼 is never counted).
    NONE = "none"
    #: The white dragon (白板做鬼) in every hand.
    WHITE = "white"
    #: 翻鬼: a tile is turned from the wall before the deal; the next tile of its cycle is the ghost.
    FLIP = "flip"


class HorsePayout(StrEnum):
    """What each horse (马) that hits the winner is worth."""

    #: Each hit is paid as the hand again (the text's 马数*平胡番数: hits times the hand's fans).
    HAND = "hand"
    #: Each hit is one base (底分) from each payer, whatever the hand.
    BASE = "base"


MAX_HORSES: Final = 20
MAX_POINTS: Final = 100


@dataclass(frozen=True, slots=True)
class GuangdongOptions:
    """One room's Guangdong 推倒胡 rules (defaults: the rule text's, or the choice named where it is silent)."""

    #: Eight flower tiles join the 136 (each drawn flower is set aside and replaced; it scores
    #: nothing). Off: the text's set is 136 tiles (推倒胡的张数一共有136张牌).
    flowers: bool = False
    #: Chi may be called. Off: the text allows pon and kong only (只能碰和杠,不能吃).
    chi: bool = False
    #: A discard may be won on. Off: the text's wins are self-draws only (只能自摸胡牌).
    discard_wins: bool = False
    #: On a discard win (``discard_wins``), the discarder pays what all three would on a
    #: self-draw. Left open by the text (it has no discard wins); off: the discarder pays one
    #: share, as a self-draw's payer does, so a self-draw stays worth three times a discard win.
    discarder_pays_all: bool = False
    #: The 推倒胡 fan list: a big hand (the fan list text's eleven) is worth ``big_hand_points``
    #: instead of 平胡's 1. Off (鸡胡): the main text counts any shape as 平胡 (无论胡型).
    fan_list: bool = False
    #: What a big hand is worth when ``fan_list`` is on (Chicken Hand 1, Big Hand 2 in that text).
    big_hand_points: int = 2
    #: Seven pairs win. Left open by the main text (any 胡型 wins); the fan list text lists seven
    #: pairs among the winning hands. Default: four of a kind counts as two pairs, the Chinese
    #: rooms' reading (豪华七对).
    seven_pairs: SevenPairs = SevenPairs.QUAD_AS_TWO
    #: Thirteen orphans wins. Left open by the main text; on: the fan list text lists 13 orphans.
    thirteen_orphans: bool = True
    #: The ghost: none, the white dragon, or flipped from the wall (翻鬼). The text has ghosts
    #: (无鬼, 满鬼) but does not say how one is chosen; default: flipped, the 翻鬼 that
    #: Guangdong platforms name with 买马 (the issue's "flipped ghost tile").
    ghost: GhostMode = GhostMode.FLIP
    #: Four ghosts held win at once (满鬼: 手上有4张鬼牌,可直接胡牌).
    si_gui: bool = True
    #: What a four-ghost win is worth in place of 平胡's 1 (满鬼:6番).
    si_gui_points: int = 6
    #: Horses drawn after a win by a winner holding a ghost (有鬼抓4马).
    horses: int = 4
    #: Horses drawn after a win by a winner holding no ghost (无鬼抓6马). In a room without
    #: ghosts (``ghost`` none) the text's choice does not arise: ``horses`` are drawn.
    horses_without_ghost: int = 6
    #: What each horse that hits the winner pays. Default: the hand again (马数*平胡番数).
    horse_payout: HorsePayout = HorsePayout.HAND
    #: 跟庄: when the first four discards of the hand are the same tile, the dealer pays each
    #: other seat ``follow_dealer_points``. Off: the text has no 跟庄 (an option rooms add).
    follow_dealer: bool = False
    #: What 跟庄 costs the dealer, to each other seat (one base: the common room's amount).
    follow_dealer_points: int = 1
    #: A seat may rob an added kong (抢杠) to win: the text names 抢杠.
    rob_kong: bool = True
    #: The robbed seat pays for all three (抢杠全包: 被抢杠者包牌); off, a robbed kong is paid
    #: as the robber's self-draw by every other seat.
    rob_kong_liability: bool = True
    #: 杠爆全包: a self-draw on the replacement of a kong claimed from a discard is paid in full
    #: by the discarder. Off: the text counts 杠开 as a self-draw worth X2, paid by all.
    kong_bloom_liability: bool = False
    #: A concealed kong: each other seat pays this (暗杠:每个人2倍底分).
    concealed_kong_points: int = 2
    #: A kong on a discard: the discarder pays this (点杠:放杠者3倍底分).
    exposed_kong_points: int = 3
    #: A pon grown to a kong: each other seat pays this (补杠:每个人1倍底分).
    added_kong_points: int = 1

    def __post_init__(self) -> None:
        for field in fields(self):
            _check(field.name, getattr(self, field.name))

    @property
    def tile_total(self) -> int:
        """Tiles in the set: 136, and 8 flowers more with ``flowers``.

        >>> GuangdongOptions().tile_total, GuangdongOptions(flowers=True).tile_total
        (136, 144)
        """
        return 136 + (FLOWER_TILES if self.flowers else 0)

    def describe(self) -> dict[str, Any]:
        """The options as plain data (enums as their values), one entry per field."""
        return {field.name: _plain(getattr(self, field.name)) for field in fields(self)}


FLOWER_TILES: Final = 8
"""Flowers in a set with them (春夏秋冬梅兰竹菊)."""

#: Integer options and their bounds.
_BOUNDS: Final[Mapping[str, tuple[int, int]]] = MappingProxyType(
    {
        "big_hand_points": (1, MAX_POINTS),
        "si_gui_points": (1, MAX_POINTS),
        "horses": (0, MAX_HORSES),
        "horses_without_ghost": (0, MAX_HORSES),
        "follow_dealer_points": (0, MAX_POINTS),
        "concealed_kong_points": (0, MAX_POINTS),
        "exposed_kong_points": (0, MAX_POINTS),
        "added_kong_points": (0, MAX_POINTS),
    }
)
BOUNDS: Final = _BOUNDS
"""Each integer option's least and greatest value (``GET /rules`` shows them)."""
_ENUMS: Final[Mapping[str, type[StrEnum]]] = MappingProxyType(
    {"seven_pairs": SevenPairs, "ghost": GhostMode, "horse_payout": HorsePayout}
)


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, StrEnum) else value


def _check(name: str, value: Any) -> None:
    if name in _BOUNDS:
        low, high = _BOUNDS[name]
        if type(value) is not int or not low <= value <= high:
            raise InvalidRuleOption(f"{name} must be an integer from {low} to {high}, got {value!r}", field=name)
    elif name in _ENUMS:
        if not isinstance(value, _ENUMS[name]):
            raise InvalidRuleOption(f"{name} must be a {_ENUMS[name].__name__}, got {value!r}", field=name)
    elif type(value) is not bool:
        raise InvalidRuleOption(f"{name} must be true or false, got {value!r}", field=name)


def _coerce(name: str, value: Any) -> Any:
    """A request's value for option ``name`` as the dataclass holds it (enums from their names)."""
    enum = _ENUMS.get(name)
    if enum is not None and isinstance(value, str) and not isinstance(value, StrEnum):
        try:
            return enum(value)
        except ValueError:
            allowed = ", ".join(member.value for member in enum)
            raise InvalidRuleOption(f"{name} must be one of {allowed}, got {value!r}", field=name) from None
    return value


OPTION_NAMES: Final = tuple(field.name for field in fields(GuangdongOptions))


def with_overrides(base: GuangdongOptions, **overrides: Any) -> GuangdongOptions:
    """``base`` with the named options changed, each checked (enums may be given by value)."""
    unknown = sorted(set(overrides) - set(OPTION_NAMES))
    if unknown:
        raise InvalidRuleOption(
            f"unknown guangdong option {unknown[0]!r}; options are {', '.join(OPTION_NAMES)}", field=unknown[0]
        )
    return replace(base, **{name: _coerce(name, value) for name, value in overrides.items()})


PRESETS: Final[Mapping[str, GuangdongOptions]] = MappingProxyType(
    {
        # The rule text's room: self-draw only, no chi, 平胡 for every shape, a flipped ghost, 4/6 horses.
        "guangdong": GuangdongOptions(),
    }
)
"""The family's presets by name."""
