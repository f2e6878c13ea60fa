"""The Guangdong payments besides the win itself: horses (买马), 跟庄 and kongs.

Each is a pure function of what happened; each payment vector lists every seat's gain or loss
in seat order and sums to zero.  Seats are numbered in turn order, so the dealer's 下家 (the
next to play) is ``dealer + 1``, its 对家 ``dealer + 2`` and its 上家 ``dealer + 3``.

**Horses.**  After a win, tiles are drawn from what is left of the wall (打完一盘后 ...
从剩余的牌中进行抓马), four by a winner holding a ghost and six by one holding none (有鬼抓4马、
无鬼抓6马).  Each horse names a seat counted from the dealer: 1, 5, 9 of any suit and 东 the
dealer; 2, 6, 南, 红中 its 下家; 3, 7, 西, 发财 its 对家; 4, 8, 北, 白板 its 上家.  A horse naming
the winner's seat hits (中马); each hit is paid by each payer as :func:`horse_share` says.

>>> from app.core.shape.tiles import parse_mpsz
>>> [horse_seat(tile, dealer=1) for tile in parse_mpsz("159m2p7s4z567z")]
[1, 1, 1, 2, 3, 0, 0, 3, 2]
>>> horse_hits(parse_mpsz("1m5p2s7z"), seat=2, dealer=1)
2
>>> follow_dealer_payments(parse_mpsz("1z1z1z1z"), dealer=0, options=GuangdongOptions(follow_dealer=True))
(-3, 1, 1, 1)
>>> kong_payments(MeldKind.OPEN_KAN, declarer=2, feeder=0, options=GuangdongOptions())
(-3, 0, 3, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from app.core.errors import TenpaiError
from app.core.families.guangdong.options import GuangdongOptions, HorsePayout
from app.core.shape.hand import MeldKind
from app.core.shape.tiles import EAST, GREEN, NORTH, NUM_TILE_KINDS, RED, SOUTH, WEST, WHITE, Tile, format_tile

SEATS: Final = 4
"""Guangdong 推倒胡 is played by four."""


class InvalidGuangdongPlay(TenpaiError):
    """Seats, horses or discards that cannot go together under the Guangdong rules."""

    code = "invalid_guangdong_play"


def _horse_offsets() -> tuple[int, ...]:
    """Each tile's seat counted from the dealer (0 the dealer, 1 下家, 2 对家, 3 上家)."""
    offsets = [(tile % 9) % 4 for tile in range(EAST)]  # 1 5 9 -> 0, 2 6 -> 1, 3 7 -> 2, 4 8 -> 3
    honours = {EAST: 0, SOUTH: 1, WEST: 2, NORTH: 3, RED: 1, GREEN: 2, WHITE: 3}
    offsets.extend(honours[tile] for tile in range(EAST, NUM_TILE_KINDS))
    return tuple(offsets)


HORSE_OFFSETS: Final = _horse_offsets()
"""Tile -> the seat it names counted from the dealer (the text's four lists)."""


def _check_seat(name: str, seat: int) -> None:
    if type(seat) is not int or not 0 <= seat < SEATS:
        raise InvalidGuangdongPlay(f"{name} must be a seat 0..{SEATS - 1}, got {seat!r}", field=name)


def horse_seat(tile: Tile, dealer: int) -> int:
    """The seat a horse ``tile`` names, counted from ``dealer`` in turn order."""
    _check_seat("dealer", dealer)
    if type(tile) is not int or not 0 <= tile < NUM_TILE_KINDS:
        raise InvalidGuangdongPlay(f"a horse is a tile 0..33, got {tile!r}", field="horses")
    return (dealer + HORSE_OFFSETS[tile]) % SEATS


def horse_hits(horses: Sequence[Tile], seat: int, dealer: int) -> int:
    """How many of ``horses`` name ``seat`` (中马)."""
    _check_seat("seat", seat)
    return sum(1 for tile in horses if horse_seat(tile, dealer) == seat)


def horse_count(options: GuangdongOptions, ghost: Tile | None, ghosts_held: int) -> int:
    """Horses drawn after a win: ``horses`` by a winner holding a ghost, ``horses_without_ghost``
    by one holding none (a room without a ghost draws ``horses``).

    >>> horse_count(GuangdongOptions(), ghost=31, ghosts_held=0), horse_count(GuangdongOptions(), ghost=31, ghosts_held=2)
    (6, 4)
    >>> horse_count(GuangdongOptions(), ghost=None, ghosts_held=0)
    4
    """
    if ghost is not None and ghosts_held == 0:
        return options.horses_without_ghost
    return options.horses


def horse_share(hand_points: int, hits: int, options: GuangdongOptions) -> int:
    """What one payer pays for a win worth ``hand_points`` whose horses hit ``hits`` times:
    the hand, and for each hit the hand again (马数*平胡番数) or one base (``horse_payout`` base).

    >>> horse_share(2, 3, GuangdongOptions()), horse_share(2, 3, GuangdongOptions(horse_payout=HorsePayout.BASE))
    (8, 5)
    """
    if options.horse_payout is HorsePayout.HAND:
        return hand_points * (1 + hits)
    return hand_points + hits


def follow_dealer_payments(first_discards: Sequence[Tile], dealer: int, options: GuangdongOptions) -> tuple[int, ...]:
    """跟庄: the dealer pays each other seat ``follow_dealer_points`` when the hand's first four
    discards (the dealer's, then each seat's in turn, with no call between) are one tile; else
    nothing moves.  ``first_discards`` holds the discards made so far, in turn order.

    >>> follow_dealer_payments([27, 27, 27, 28], dealer=0, options=GuangdongOptions(follow_dealer=True))
    (0, 0, 0, 0)
    >>> follow_dealer_payments([27, 27, 27, 27], dealer=0, options=GuangdongOptions())
    (0, 0, 0, 0)
    """
    _check_seat("dealer", dealer)
    payments = [0] * SEATS
    first = tuple(first_discards[:SEATS])
    if not options.follow_dealer or len(first) < SEATS or len(set(first)) != 1:
        return tuple(payments)
    for seat in range(SEATS):
        if seat != dealer:
            payments[seat] += options.follow_dealer_points
            payments[dealer] -= options.follow_dealer_points
    return tuple(payments)


def kong_payments(
    kind: MeldKind, declarer: int, options: GuangdongOptions, feeder: int | None = None
) -> tuple[int, ...]:
    """What one kong is paid at once (杠牌直接结算): a concealed kong ``concealed_kong_points`` from
    each other seat, an added kong ``added_kong_points`` from each, a kong on a discard
    ``exposed_kong_points`` from its discarder ``feeder``.  A robbed added kong is never
    completed, so it is never paid (the caller leaves it out).

    >>> kong_payments(MeldKind.CLOSED_KAN, declarer=1, options=GuangdongOptions())
    (-2, 6, -2, -2)
    >>> kong_payments(MeldKind.ADDED_KAN, declarer=3, options=GuangdongOptions())
    (-1, -1, -1, 3)
    """
    _check_seat("declarer", declarer)
    payments = [0] * SEATS
    if kind is MeldKind.OPEN_KAN:
        if feeder is None:
            raise InvalidGuangdongPlay("a kong on a discard needs the seat that discarded it", field="feeder")
        _check_seat("feeder", feeder)
        if feeder == declarer:
            raise InvalidGuangdongPlay("a seat cannot claim its own discard for a kong", field="feeder")
        payments[feeder] -= options.exposed_kong_points
        payments[declarer] += options.exposed_kong_points
        return tuple(payments)
    if kind is MeldKind.CLOSED_KAN:
        points = options.concealed_kong_points
    elif kind is MeldKind.ADDED_KAN:
        points = options.added_kong_points
    else:
        raise InvalidGuangdongPlay(f"{kind.value} is not a kong", field="kind")
    for seat in range(SEATS):
        if seat != declarer:
            payments[seat] -= points
            payments[declarer] += points
    return tuple(payments)


def describe_horses(horses: Sequence[Tile], dealer: int) -> list[str]:
    """Each horse and the seat it names, for people (``"5m->seat 1"``)."""
    return [f"{format_tile(tile)}->seat {horse_seat(tile, dealer)}" for tile in horses]
