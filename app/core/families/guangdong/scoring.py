"""What a Guangdong 推倒胡 win pays: its fans, its horses and who pays.

The rule text counts in bases (底分; its 番 are multiples of the base, 暗杠:每个人2倍底分(2番)):

* **The hand.**  Any complete hand is a 平胡 worth 1 (普通自摸胡牌都叫平胡,算1番;(无论胡型)); with
  the fan list on, a big hand is worth ``big_hand_points`` instead (two or more do not add).
  Four ghosts held win at once (满鬼:6番,手上有4张鬼牌,可直接胡牌), worth ``si_gui_points``.
* **Multipliers.**  A hand holding no ghost doubles (无鬼:X2; only in a room with a ghost), and so
  does a self-draw on a kong's replacement (杠开:X2).  ``hand_points`` is the hand times both.
* **Horses.**  Each horse that names the winner's seat adds the hand again (马数*平胡番数), or one
  base with ``horse_payout`` base: that is the ``share`` each payer pays
  (:func:`~app.core.families.guangdong.payments.horse_share`).
* **Who pays.**  On a self-draw each other seat pays the share.  A robbed kong counts as the
  robber's self-draw, and the robbed seat pays all three shares (抢杠:算抢杠者自摸,被抢杠者包牌;
  ``rob_kong_liability``).  With ``kong_bloom_liability`` (杠爆全包) the seat whose discard made
  the kong pays all three shares of a win on its replacement.  A discard win (``discard_wins``)
  is paid by the discarder: one share, or three with ``discarder_pays_all``.

Kong payments and 跟庄 are settled apart (:mod:`~app.core.families.guangdong.payments`).

>>> from app.core.shape.tiles import parse_mpsz
>>> hand = Hand.from_tiles(parse_mpsz("123m456p789s111z55s"))
>>> score = score_guangdong(hand, 22, WinContext(winner=1, dealer=0), GuangdongOptions(), ghost=31, horses=parse_mpsz("2m6p3s4z1z7z"))
>>> [fan.name for fan in score.fans], score.hand_points, score.horse_hits, score.share, score.payments
(['ping_hu', 'wu_gui'], 2, 3, 8, (-8, 24, -8, -8))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from app.core.errors import NotAWinningHand, TenpaiError, WrongTileCount
from app.core.families.guangdong.big_hands import BIG_HANDS, big_hands
from app.core.families.guangdong.options import GuangdongOptions
from app.core.families.guangdong.payments import SEATS, horse_count, horse_hits, horse_share
from app.core.families.guangdong.tiles import hand_rules
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand
from app.core.shape.tiles import Tile
from app.core.value.scoring_context import InvalidWinContext, WinContext, check_seats, check_win_tile

PING_HU_POINTS: Final = 1
"""平胡,算1番: one base."""
WU_GUI_TIMES: Final = 2
"""无鬼:X2."""
GANG_KAI_TIMES: Final = 2
"""杠开:X2."""


class GuangdongFan(NamedTuple):
    """One entry of a win's fan list: its pinyin and Chinese names, the points it sets (0: none)
    and what it multiplies by (1: nothing)."""

    name: str
    chinese: str
    points: int
    times: int


class GuangdongScore(NamedTuple):
    """What a Guangdong win pays."""

    #: Every seat's gain or loss, in seat order (sums to zero).
    payments: tuple[int, ...]
    #: (seat, amount) for each seat that pays, in seat order.
    per_payer: tuple[tuple[int, int], ...]
    #: The hand's entries: its base (平胡, a big hand or 满鬼) first, then the multipliers.
    fans: tuple[GuangdongFan, ...]
    #: The hand's worth to one payer before horses: its base times its multipliers.
    hand_points: int
    #: Horses that name the winner's seat (中马).
    horse_hits: int
    #: What one payer's share is, horses included.
    share: int
    #: The seat that pays every share (全包), or None.
    liable: int | None


class DiscardWinNotAllowed(TenpaiError):
    """A win on a discard where the room wins by self-draw only (只能自摸胡牌)."""

    code = "self_draw_only"


class RobbingNotAllowed(TenpaiError):
    """A robbed kong where the room does not allow robbing (``rob_kong`` off)."""

    code = "rob_kong_not_allowed"


class TooManyHorses(TenpaiError):
    """More horses than a win draws (有鬼抓4马、无鬼抓6马)."""

    code = "too_many_horses"


def _fan(name: str, chinese: str, *, points: int = 0, times: int = 1) -> GuangdongFan:
    return GuangdongFan(name, chinese, points, times)


def is_si_gui(hand: Hand, ghost: Tile | None, options: GuangdongOptions) -> bool:
    """Whether the hand wins by its four ghosts (满鬼) under ``options``."""
    return options.si_gui and ghost is not None and hand.counts[ghost] == 4


def hand_fans(
    hand: Hand, win_tile: Tile, ghost: Tile | None, options: GuangdongOptions, context: WinContext
) -> tuple[GuangdongFan, ...]:
    """The fans of a winning hand (raises :class:`NotAWinningHand` for one that does not win)."""
    fans: list[GuangdongFan] = []
    if is_si_gui(hand, ghost, options):
        fans.append(_fan("si_gui", "四鬼", points=options.si_gui_points))
    else:
        if not Checker(hand_rules(options, ghost)).is_win(hand):
            raise NotAWinningHand("the hand is not complete under the guangdong rules", field="hand")
        found = big_hands(hand, win_tile, ghost, options, context) if options.fan_list else ()
        if found:
            fans.extend(_fan(name, BIG_HANDS[name], points=options.big_hand_points) for name in found)
        else:
            fans.append(_fan("ping_hu", "平胡", points=PING_HU_POINTS))
    if ghost is not None and hand.counts[ghost] == 0:
        fans.append(_fan("wu_gui", "无鬼", times=WU_GUI_TIMES))
    if context.kong_replacement:
        fans.append(_fan("gang_kai", "杠开", times=GANG_KAI_TIMES))
    if context.robbed_kong:
        fans.append(_fan("qiang_gang", "抢杠"))
    return tuple(fans)


def hand_points(fans: Sequence[GuangdongFan]) -> int:
    """The base the fans set (the largest: big hands do not add) times every multiplier.

    >>> hand_points([GuangdongFan("ping_hu", "平胡", 1, 1), GuangdongFan("wu_gui", "无鬼", 0, 2)])
    2
    """
    points = max(fan.points for fan in fans)
    for fan in fans:
        points *= fan.times
    return points


def _check(hand: Hand, win_tile: Tile, ghost: Tile | None, context: WinContext, options: GuangdongOptions) -> None:
    if hand.tile_count % 3 != 2:
        raise WrongTileCount(f"a win holds 3n+2 concealed tiles, got {hand.tile_count}", field="hand")
    check_win_tile(hand.counts, win_tile)
    check_seats(context, SEATS)
    rules = hand_rules(options, ghost)  # checks the ghost is a tile
    for index, meld in enumerate(hand.melds):
        rules.check_meld_allowed(meld.kind, field=f"melds[{index}].kind")
    if context.robbed_kong and not options.rob_kong:
        raise RobbingNotAllowed("this room does not allow robbing a kong (rob_kong is false)", field="robbed_kong")
    if context.discarder is not None and not context.robbed_kong and not options.discard_wins:
        raise DiscardWinNotAllowed(
            "this room wins by self-draw only (只能自摸胡牌); set discard_wins to win on a discard", field="discarder"
        )
    if context.kong_feeder is not None and (
        not context.kong_replacement or context.kong_feeder == context.winner or not 0 <= context.kong_feeder < SEATS
    ):
        raise InvalidWinContext(
            "kong_feeder names another seat, whose discard made the winner's kong, for a win on its replacement",
            field="kong_feeder",
        )


def score_guangdong(
    hand: Hand,
    win_tile: Tile,
    context: WinContext,
    options: GuangdongOptions,
    *,
    ghost: Tile | None,
    horses: Sequence[Tile] = (),
) -> GuangdongScore:
    """Score the win of ``hand`` (concealed tiles with ``win_tile``, and its melds) by
    ``context.winner``, with the hand's ``ghost`` and the ``horses`` drawn after it.

    ``context`` says how it was won: a self-draw (``discarder`` None), on a kong's replacement
    (``kong_replacement``; ``kong_feeder`` the seat whose discard made that kong, if one did),
    robbing a kong (``robbed_kong``, ``discarder`` the robbed seat) or on a discard.
    """
    _check(hand, win_tile, ghost, context, options)
    fans = hand_fans(hand, win_tile, ghost, options, context)
    points = hand_points(fans)
    ghosts_held = hand.counts[ghost] if ghost is not None else 0
    drawn = horse_count(options, ghost, ghosts_held)
    if len(horses) > drawn:
        raise TooManyHorses(f"this win draws {drawn} horses, got {len(horses)}", field="horses")
    hits = horse_hits(horses, context.winner, context.dealer)
    share = horse_share(points, hits, options)
    liable = _liable_seat(context, options)
    payments = [0] * SEATS
    payers = [seat for seat in range(SEATS) if seat != context.winner]
    if liable is not None:
        charges = {liable: share * len(payers)}
    elif context.discarder is not None and not context.robbed_kong:
        charges = {context.discarder: share * (len(payers) if options.discarder_pays_all else 1)}
    else:
        charges = dict.fromkeys(payers, share)
    for seat, amount in charges.items():
        payments[seat] -= amount
        payments[context.winner] += amount
    per_payer = tuple(sorted(charges.items()))
    return GuangdongScore(tuple(payments), per_payer, fans, points, hits, share, liable)


def _liable_seat(context: WinContext, options: GuangdongOptions) -> int | None:
    """The seat that pays for all (全包): the robbed seat (抢杠), or the kong's feeder (杠爆)."""
    if context.robbed_kong and options.rob_kong_liability:
        return context.discarder
    if context.kong_replacement and options.kong_bloom_liability and context.kong_feeder is not None:
        return context.kong_feeder
    return None
