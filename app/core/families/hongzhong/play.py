"""The table's side of the hongzhong text: claims, the end of the wall, who deals next.

Pure functions of seats, tiles and the options, for the table machine's family hooks:

* **claims**: pon and kong, never chi (下家不能吃); a 红中 never helps a pon or a kong
  (不能辅助其他牌来碰、杠), so no meld holds one; a 红中 may be thrown (``red_discardable``);
  a discard wins only with ``discard_wins`` (the text: 胡牌只能通过自摸和抢杠胡两种方式);
* **robbing a kong**: only an added kong (公杠), only by a hand without 红中, and only one
  winner, the first seat in turn after the kong's declarer (抢杠胡没有一炮通吃);
* **the wall** keeps back as many tiles as the room's birds (最后要留对应数量的牌);
* **the next dealer** is the winner, or after a drawn hand the seat that drew last.

>>> options = HongzhongOptions()
>>> may_pon(33, options), may_pon(4, options), may_discard(33, options)
(False, True, True)
>>> robbing_seat(2, [1, 3], seats=4)
3
"""

from __future__ import annotations

from collections.abc import Iterable

from app.core.families.hongzhong.options import HongzhongOptions
from app.core.families.hongzhong.shape import WILDCARD, HongzhongShape, red_held
from app.core.shape.hand import Hand
from app.core.shape.rules import DEFAULT_SEATS
from app.core.shape.tiles import Tile


def may_pon(tile: Tile, options: HongzhongOptions) -> bool:
    """Whether a discard of ``tile`` may be claimed for a pon or a kong: any tile but 红中."""
    return tile != WILDCARD


def may_chi(options: HongzhongOptions) -> bool:
    """No chi in hongzhong (下家不能吃)."""
    return False


def may_discard(tile: Tile, options: HongzhongOptions) -> bool:
    """Whether ``tile`` may be thrown: a 红中 only with ``red_discardable`` (红中牌可打出)."""
    return tile != WILDCARD or options.red_discardable


def may_win_on_discard(hand: Hand, tile: Tile, options: HongzhongOptions) -> bool:
    """Whether the 3n+1 ``hand`` may win on another seat's discard of ``tile``.

    >>> from app.core.shape.tiles import parse_mpsz
    >>> hand = Hand.from_tiles(parse_mpsz("123m456p789s1199s"))
    >>> may_win_on_discard(hand, 26, HongzhongOptions()), may_win_on_discard(hand, 26, HongzhongOptions(discard_wins=True))
    (False, True)
    """
    if not options.discard_wins or tile == WILDCARD:
        return False
    if options.discard_win_needs_no_red and red_held(hand):
        return False
    return HongzhongShape(options).is_win(hand.with_tile(tile))


def may_rob_kong(hand: Hand, tile: Tile, options: HongzhongOptions) -> bool:
    """Whether the 3n+1 ``hand`` may rob another seat's added kong (公杠) of ``tile``.

    >>> from app.core.shape.tiles import parse_mpsz
    >>> may_rob_kong(Hand.from_tiles(parse_mpsz("123m456p789s1199s")), 26, HongzhongOptions())
    True
    >>> may_rob_kong(Hand.from_tiles(parse_mpsz("123m456p789s119s7z")), 26, HongzhongOptions())
    False
    """
    if not options.rob_kong or tile == WILDCARD:
        return False
    if options.rob_kong_needs_no_red and red_held(hand):
        return False
    return HongzhongShape(options).is_win(hand.with_tile(tile))


def robbing_seat(declarer: int, candidates: Iterable[int], *, seats: int = DEFAULT_SEATS) -> int | None:
    """The one seat that robs the kong: of those that may, the first in turn after the
    declarer (以杠牌玩家下手顺序优先); None if no seat may."""
    wanting = set(candidates)
    for step in range(1, seats):
        seat = (declarer + step) % seats
        if seat in wanting:
            return seat
    return None


def tiles_kept_back(options: HongzhongOptions) -> int:
    """Tiles the wall keeps for the birds: the hand is drawn (流局) once only these are left.

    >>> tiles_kept_back(HongzhongOptions(birds=6))
    6
    """
    return options.birds


def next_dealer(winner: int | None, last_drawer: int) -> int:
    """The next hand's dealer: the winner, or after a drawn hand the seat that drew last.

    >>> next_dealer(2, 1), next_dealer(None, 1)
    (2, 1)
    """
    return last_drawer if winner is None else winner
