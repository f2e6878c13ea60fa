"""The two rules of the text the shape wing says itself under the family's profile.

1. **Wildcards in seven pairs** (胡7对时红中不能作为万能牌使用): the profile's
   ``wildcards_in_seven_pairs`` is off, so a 红中 is a plain tile in seven pairs.
2. **A win by holding copies** (摸到四张红中，自动胡牌): the profile's ``wildcards_held_win`` is 4.

The engine under :func:`hand_rules` and the family's :class:`HongzhongShape` answer alike.
"""

from __future__ import annotations

from app.core.families.hongzhong.shape import HongzhongShape, hand_rules
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand
from app.core.shape.tiles import parse_mpsz

ENGINE = Checker(hand_rules())


def hand(tiles: str) -> Hand:
    return Hand.from_tiles(parse_mpsz(tiles))


def test_the_family_says_both() -> None:
    """The family's shape answers as the engine does below."""
    assert not HongzhongShape().is_win(hand("1122334455m6p8s77z"))
    assert HongzhongShape().is_win(hand("258m369p47s11s7777z"))
    assert HongzhongShape().shanten(hand("1479m258p369s777z")) == 0


def test_engine_seven_pairs_without_wildcards() -> None:
    # 1122334455m + 6p 8s + two 红中: seven pairs only if the 红中 stand for 6p and 8s.
    assert not ENGINE.is_win(hand("1122334455m6p8s77z"))


def test_engine_seven_pairs_shanten_without_wildcards() -> None:
    # Six pairs and 红中 with 8s: the text's seven pairs is one tile away (an 8s or a 红中),
    # the engine's (红中 standing for 8s) is complete.
    assert ENGINE.shanten(hand("1133557799m11p8s7z")).seven_pairs == 0


def test_engine_four_red_wins() -> None:
    assert ENGINE.is_win(hand("258m369p47s11s7777z"))


def test_engine_three_red_hand_is_ready_on_the_fourth() -> None:
    assert ENGINE.shanten(hand("1479m258p369s777z")).shanten == 0
