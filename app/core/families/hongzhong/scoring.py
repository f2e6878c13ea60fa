"""What a hongzhong win and a hongzhong kong pay: the text's payment list, birds and all.

Points are in 底分 (the base, 1). A win pays a **share** from each paying seat (计分规则):

* the win: 平胡 ``win_points`` (2), 七对 ``seven_pairs_points`` (2; the larger of the two
  where a hand reads both ways), or 四红中 ``four_red_points`` (2) for four 红中 held;
  times ``no_red_multiplier`` (1) for a hand without 红中 (无红中);
* each bird that hits (中码): ``bird_points`` (2);
* 四红中喜分: ``four_red_bonus`` (5) when the winner holds four 红中.

Who pays: on a self-draw every other seat pays the share; on a robbed kong (抢杠胡) the robbed
seat pays every seat's share (被抢杠胡的玩家包赔，包括胡牌后的奖码); on a discard (only with the
``discard_wins`` option; the text has none) the discarder pays one share. The text names no
杠上开花: a win on a kong's replacement draw pays as any self-draw.

**Birds** (奖码): ``birds`` tiles (2) from the wall after the win, two more
(``no_red_extra_birds``) when the winner holds no 红中, as many as the wall still has. A bird
hits by its face, 1, 5, 9 or 红中 (``bird_counting`` "face"; or counted round the table from
the winner or the dealer); with ``no_hit_counts_all`` (不中当全中) no hit at all counts as every
bird hitting.

**Kongs** pay at once: a concealed kong ``closed_kong_points`` (2) from each other seat, an
added kong (公杠) ``added_kong_points`` (1) from each, a kong on a discard
``open_kong_points`` (3) from the discarder.

Every payment vector sums to zero.

>>> from app.core.shape.tiles import parse_mpsz
>>> hand = Hand.from_tiles(parse_mpsz("123m456p789s1199s7z"))
>>> result = score_hongzhong(hand, 33, HongzhongOptions(), WinContext(winner=0, dealer=0), birds=parse_mpsz("5m3p"))
>>> [(fan.name, fan.fan, fan.count) for fan in result.fans], result.share, result.payments
([('ping_hu', 2, 1), ('zi_mo', 0, 1), ('zhong_ma', 2, 1)], 4, (12, -4, -4, -4))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from app.core.errors import AbsentTile, InvalidMeld, NotAWinningHand, TooManyCopies
from app.core.families.hongzhong.options import BirdCounting, HongzhongOptions
from app.core.families.hongzhong.shape import (
    ABSENT_TILES,
    FOUR_RED,
    RED_COPIES,
    SEVEN_PAIRS,
    WILDCARD,
    HongzhongShape,
    red_held,
)
from app.core.shape.hand import Hand, MeldKind
from app.core.shape.rules import DEFAULT_SEATS
from app.core.shape.tiles import NUM_TILE_KINDS, Tile, format_tile
from app.core.value.mcr_scoring import Fan
from app.core.value.scoring_context import InvalidWinContext, WinContext, check_seats, check_win_tile

#: Each scored item: pinyin name -> Chinese name. Its ``fan`` in a result is the 底分 one
#: instance wins from each payer.
FAN_NAMES: Final = {
    "ping_hu": "平胡",
    "qi_dui": "七对",
    "si_hong_zhong": "四红中",
    "wu_hong_zhong": "无红中",
    "zi_mo": "自摸",
    "qiang_gang_hu": "抢杠胡",
    "dian_pao": "点炮",
    "zhong_ma": "中码",
    "xi_fen": "四红中喜分",
}
_BIRD_HIT_NUMBERS: Final = frozenset({1, 5, 9})
_SUIT_TILES: Final = 27


class HongzhongScore(NamedTuple):
    """What a hongzhong win pays."""

    #: Net 底分 per seat, in seat order (sums to zero).
    payments: tuple[int, ...]
    #: (seat, 底分 it pays) for each paying seat.
    per_payer: tuple[tuple[int, int], ...]
    #: The items counted, each with the 底分 one instance wins from each payer.
    fans: tuple[Fan, ...]
    #: One payer's share: the sum of the items.
    share: int
    #: The form the win is paid as: "regular", "seven_pairs" or "four_red".
    form: str
    #: The birds drawn, and whether each hit by itself.
    birds: tuple[Tile, ...]
    bird_hits: tuple[bool, ...]
    #: Hits counted (every bird, under 不中当全中, when none hit).
    hits: int


# -- birds ------------------------------------------------------------------------------------


def bird_count(options: HongzhongOptions, *, holds_red: bool) -> int:
    """Birds a win draws: ``birds``, and ``no_red_extra_birds`` more for a hand without 红中.

    >>> bird_count(HongzhongOptions(), holds_red=True), bird_count(HongzhongOptions(), holds_red=False)
    (2, 4)
    """
    return options.birds + (0 if holds_red else options.no_red_extra_birds)


def birds_to_draw(options: HongzhongOptions, *, holds_red: bool, wall_left: int) -> int:
    """Birds actually drawn: as many as :func:`bird_count` asks while the wall has them (有几张奖几张).

    >>> birds_to_draw(HongzhongOptions(), holds_red=False, wall_left=3)
    3
    """
    return max(0, min(bird_count(options, holds_red=holds_red), wall_left))


def is_bird_hit(tile: Tile, options: HongzhongOptions, *, winner: int, dealer: int, seats: int = DEFAULT_SEATS) -> bool:
    """Whether one bird hits (中码) for ``winner``.

    >>> [is_bird_hit(t, HongzhongOptions(), winner=2, dealer=0) for t in (0, 4, 8, 1, 33)]
    [True, True, True, False, True]
    >>> from_dealer = HongzhongOptions(bird_counting=BirdCounting.FROM_DEALER)
    >>> [is_bird_hit(t, from_dealer, winner=1, dealer=0) for t in (0, 1, 5, 9, 33)]
    [False, True, True, False, True]
    """
    if tile == WILDCARD:
        return options.red_bird_hits
    if not 0 <= tile < _SUIT_TILES:
        return False
    number = tile % 9 + 1
    if options.bird_counting is BirdCounting.FACE:
        return number in _BIRD_HIT_NUMBERS
    start = winner if options.bird_counting is BirdCounting.FROM_WINNER else dealer
    return (start + number - 1) % seats == winner


def counted_hits(
    birds: Sequence[Tile], options: HongzhongOptions, *, winner: int, dealer: int, seats: int = DEFAULT_SEATS
) -> int:
    """Hits the birds count: those that hit, or every bird under 不中当全中 when none does.

    >>> counted_hits([1, 2], HongzhongOptions(), winner=0, dealer=0)
    2
    >>> counted_hits([1, 2], HongzhongOptions(no_hit_counts_all=False), winner=0, dealer=0)
    0
    """
    hits = sum(is_bird_hit(tile, options, winner=winner, dealer=dealer, seats=seats) for tile in birds)
    if hits == 0 and options.no_hit_counts_all:
        return len(birds)
    return hits


# -- kongs ------------------------------------------------------------------------------------


def kong_payments(
    kind: MeldKind,
    declarer: int,
    options: HongzhongOptions,
    *,
    feeder: int | None = None,
    seats: int = DEFAULT_SEATS,
) -> tuple[int, ...]:
    """What one kong pays, per seat: a concealed kong and an added kong (公杠) from every other
    seat, a kong on a discard from the discarder (``feeder``) alone.

    >>> options = HongzhongOptions()
    >>> kong_payments(MeldKind.CLOSED_KAN, 1, options), kong_payments(MeldKind.ADDED_KAN, 1, options)
    ((-2, 6, -2, -2), (-1, 3, -1, -1))
    >>> kong_payments(MeldKind.OPEN_KAN, 1, options, feeder=3)
    (0, 3, 0, -3)
    """
    if not 0 <= declarer < seats:
        raise InvalidWinContext(f"the kong's declarer must be a seat 0..{seats - 1}, got {declarer}", field="declarer")
    payments = [0] * seats
    if kind is MeldKind.OPEN_KAN:
        if feeder is None or feeder == declarer or not 0 <= feeder < seats:
            raise InvalidWinContext(
                "a kong on a discard (接杠) needs the discarder as feeder, another seat", field="feeder"
            )
        payments[feeder] -= options.open_kong_points
        payments[declarer] += options.open_kong_points
        return tuple(payments)
    if feeder is not None:
        raise InvalidWinContext(f"{kind.with_article} has no feeder: every other seat pays", field="feeder")
    if kind is MeldKind.CLOSED_KAN:
        each = options.closed_kong_points
    elif kind is MeldKind.ADDED_KAN:
        each = options.added_kong_points
    else:
        raise InvalidMeld(f"{kind.with_article} is no kong", field="kind")
    for seat in range(seats):
        if seat != declarer:
            payments[seat] -= each
            payments[declarer] += each
    return tuple(payments)


def kong_settlement(
    kongs: Sequence[tuple[MeldKind, int, int | None]],
    options: HongzhongOptions,
    *,
    hand_won: bool,
    seats: int = DEFAULT_SEATS,
) -> tuple[int, ...]:
    """Every kong of a hand (kind, declarer, feeder) paid together; nothing when the hand ended
    without a win and ``kongs_pay_on_draw`` is off (荒庄荒杠).

    >>> kongs = [(MeldKind.CLOSED_KAN, 0, None), (MeldKind.OPEN_KAN, 2, 0)]
    >>> kong_settlement(kongs, HongzhongOptions(), hand_won=False)
    (3, -2, 1, -2)
    >>> kong_settlement(kongs, HongzhongOptions(kongs_pay_on_draw=False), hand_won=False)
    (0, 0, 0, 0)
    """
    total = [0] * seats
    if not hand_won and not options.kongs_pay_on_draw:
        return tuple(total)
    for kind, declarer, feeder in kongs:
        for seat, amount in enumerate(kong_payments(kind, declarer, options, feeder=feeder, seats=seats)):
            total[seat] += amount
    return tuple(total)


# -- the win ----------------------------------------------------------------------------------


def _check_hand(hand: Hand, shape: HongzhongShape) -> None:
    absent = frozenset(ABSENT_TILES)
    for tile in range(NUM_TILE_KINDS):
        if hand.counts[tile] and tile in absent:
            raise AbsentTile(
                f"{format_tile(tile)} does not exist in hongzhong: 112 tiles, no honour but 7z", field="hand"
            )
    for index, meld in enumerate(hand.melds):
        if meld.tiles[0] in absent:
            raise AbsentTile(
                f"{format_tile(meld.tiles[0])} does not exist in hongzhong: 112 tiles, no honour but 7z",
                field=f"melds[{index}].tiles",
            )
        if meld.tiles[0] == WILDCARD:
            raise InvalidMeld(
                "a 红中 never helps a pon or a kong (不能辅助其他牌来碰、杠)", field=f"melds[{index}].tiles"
            )
        if meld.kind is MeldKind.CHI:
            raise InvalidMeld(
                "no chi in hongzhong (下家不能吃); declare pon or kong melds only", field=f"melds[{index}].kind"
            )
    hand.validate()


def _check_birds(hand: Hand, birds: Sequence[Tile], allowed: int) -> None:
    if len(birds) > allowed:
        raise InvalidWinContext(
            f"{len(birds)} birds for a win that draws {allowed} (奖码: birds, two more without 红中)", field="birds"
        )
    seen = bytearray(hand.all_counts())
    for tile in birds:
        if not 0 <= tile < NUM_TILE_KINDS or tile in ABSENT_TILES:
            raise AbsentTile(f"bird {tile!r} is no tile of hongzhong's 112", field="birds")
        seen[tile] += 1
        if seen[tile] > RED_COPIES:
            raise TooManyCopies(
                f"{seen[tile]} copies of {format_tile(tile)} in hand, melds and birds; a tile has 4", field="birds"
            )


def _check_way(hand: Hand, win_tile: Tile, options: HongzhongOptions, context: WinContext) -> None:
    holds_red = red_held(hand) > 0
    if context.robbed_kong:
        if not options.rob_kong:
            raise InvalidWinContext("robbing a kong (抢杠胡) is off in this room", field="robbed_kong")
        if options.rob_kong_needs_no_red and holds_red:
            raise InvalidWinContext("only a hand without 红中 may rob a kong (手中无红中时)", field="robbed_kong")
        if win_tile == WILDCARD:
            raise InvalidWinContext("no kong is of 红中, so none robbed is", field="win_tile")
    elif context.discarder is not None:
        if not options.discard_wins:
            raise InvalidWinContext(
                "wins are by self-draw or a robbed kong only (胡牌只能通过自摸和抢杠胡两种方式): discarder must be null",
                field="discarder",
            )
        if options.discard_win_needs_no_red and holds_red:
            raise InvalidWinContext("a hand holding 红中 may not win on a discard", field="discarder")


def score_hongzhong(
    hand: Hand,
    win_tile: Tile,
    options: HongzhongOptions,
    context: WinContext,
    *,
    birds: Sequence[Tile] = (),
    seats: int = DEFAULT_SEATS,
) -> HongzhongScore:
    """Score a hongzhong win: ``hand`` holds the concealed tiles with ``win_tile``; ``birds`` are
    the tiles drawn after it (at most :func:`bird_count`; fewer when the wall ran short).

    Raises :class:`~app.core.errors.NotAWinningHand` for a hand that does not win,
    :class:`~app.core.value.scoring_context.InvalidWinContext` for a way of winning the options
    forbid (a discard win where only self-draws win; a robbed kong by a hand holding 红中) or
    too many birds, and the tile errors for tiles the set lacks.
    """
    shape = HongzhongShape(options)
    check_seats(context, seats)
    _check_hand(hand, shape)
    check_win_tile(hand.counts, win_tile)
    form = shape.winning_form(hand)
    if form is None:
        raise NotAWinningHand("the hand does not win under hongzhong rules", field="hand")
    _check_way(hand, win_tile, options, context)
    held = red_held(hand)
    _check_birds(hand, birds, bird_count(options, holds_red=held > 0))

    fans: list[Fan] = []
    if form == FOUR_RED:
        pattern, points = "si_hong_zhong", options.four_red_points
    elif form == SEVEN_PAIRS:
        pattern, points = "qi_dui", options.seven_pairs_points
    else:
        pattern, points = "ping_hu", options.win_points
    fans.append(Fan(pattern, FAN_NAMES[pattern], points, 1))
    if held == 0 and options.no_red_multiplier > 1:
        fans.append(Fan("wu_hong_zhong", FAN_NAMES["wu_hong_zhong"], points * (options.no_red_multiplier - 1), 1))
    way = "qiang_gang_hu" if context.robbed_kong else "zi_mo" if context.discarder is None else "dian_pao"
    fans.append(Fan(way, FAN_NAMES[way], 0, 1))
    hit_flags = tuple(
        is_bird_hit(tile, options, winner=context.winner, dealer=context.dealer, seats=seats) for tile in birds
    )
    hits = counted_hits(birds, options, winner=context.winner, dealer=context.dealer, seats=seats)
    if hits:
        fans.append(Fan("zhong_ma", FAN_NAMES["zhong_ma"], options.bird_points, hits))
    if held == RED_COPIES and options.four_red_bonus:
        fans.append(Fan("xi_fen", FAN_NAMES["xi_fen"], options.four_red_bonus, 1))
    share = sum(fan.fan * fan.count for fan in fans)

    payments = [0] * seats
    others = [seat for seat in range(seats) if seat != context.winner]
    if context.robbed_kong:
        assert context.discarder is not None  # check_seats: a robbed kong names the kong's declarer
        per_payer: tuple[tuple[int, int], ...] = ((context.discarder, share * len(others)),)
    elif context.discarder is not None:
        per_payer = ((context.discarder, share),)
    else:
        per_payer = tuple((seat, share) for seat in others)
    for seat, amount in per_payer:
        payments[seat] -= amount
        payments[context.winner] += amount
    return HongzhongScore(tuple(payments), per_payer, tuple(fans), share, form, tuple(birds), hit_flags, hits)
