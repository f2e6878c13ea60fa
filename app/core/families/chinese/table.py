"""The ``chinese`` table: the bare table (every tile drawn, no riichi, one winner per discard),
on which every complete hand wins and a win is worth a flat :data:`FLAT_WIN_VALUE` (the
discarder pays it, or each other seat its share on a self-draw)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

from app.core.shape.hand import Hand
from app.core.table.family import Family, TableView
from app.core.table.play_rules import BARE_TABLE
from app.core.table.seats import Win

#: Points of a flat win.
FLAT_WIN_VALUE: Final = 3


def flat_payments(winner: int, discarder: int | None, seats: int) -> tuple[int, ...]:
    """A flat win: the discarder pays :data:`FLAT_WIN_VALUE`, or each other seat its share of it.

    >>> flat_payments(0, 2, 4), flat_payments(1, None, 4)
    ((3, 0, -3, 0), (-1, 3, -1, -1))
    """
    payments = [0] * seats
    payers = [seat for seat in range(seats) if seat != winner] if discarder is None else [discarder]
    for payer in payers:
        share = FLAT_WIN_VALUE // len(payers)
        payments[payer] -= share
        payments[winner] += share
    return tuple(payments)


class ChineseFamily(Family):
    name = "chinese"
    presets = MappingProxyType({"chinese": BARE_TABLE})

    def score_win(self, machine: TableView, seat: int, target: int, tile: int, ura: tuple[int, ...]) -> Win:
        return Win(seat, target, tile, None, flat_payments(seat, None if seat == target else target, machine.seats))

    def takes(self, machine: TableView, seat: int, target: int, tile: int, whole: Hand) -> bool:
        return True  # every complete hand scores


FAMILY: Final = ChineseFamily()
