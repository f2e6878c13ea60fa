"""The situation of a win, shared by every scoring profile.

A :class:`WinContext` says who won, who deals and how the hand was won; the
riichi fields (winds, dora, riichi, ippatsu, last tile, first turn, honba,
sticks) default to "nothing special" and are ignored by profiles that have no
use for them (Qiqihar's).

>>> WinContext(winner=1, dealer=0, discarder=3).riichi
False
>>> check_seats(WinContext(winner=1, dealer=0, discarder=1))
Traceback (most recent call last):
...
app.core.value.scoring_context.InvalidWinContext: the winner cannot have discarded the winning tile
"""

from __future__ import annotations

from typing import NamedTuple, NoReturn

from app.core import _kernel
from app.core.errors import TenpaiError
from app.core.shape.rules import DEFAULT_SEATS
from app.core.shape.tiles import EAST, NUM_TILE_KINDS, Tile, format_tile


class InvalidWinContext(TenpaiError):
    """Seats or flags of a win that cannot happen together."""

    code = "invalid_win_context"


class WinContext(NamedTuple):
    """Who won, who deals, how: ``discarder`` None means self-draw."""

    winner: int
    dealer: int
    discarder: int | None = None
    kong_replacement: bool = False
    robbed_kong: bool = False
    round_wind: Tile = EAST
    dora_indicators: tuple[Tile, ...] = ()
    ura_indicators: tuple[Tile, ...] = ()
    #: Red fives held in hand and melds, one entry per red tile (4, 13 or 22).
    red_fives: tuple[Tile, ...] = ()
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    #: Haitei on a self-draw, houtei on a discard.
    last_tile: bool = False
    #: Tenhou (dealer) or chiihou (others): a win on the first, uninterrupted draw.
    first_turn: bool = False
    honba: int = 0
    riichi_sticks: int = 0
    #: Sanma: north tiles the winner set aside as nukidora (kita), each worth a dora.
    nuki: int = 0
    #: MCR: the winner's seat wind; None follows from ``winner`` and ``dealer`` as in riichi.
    seat_wind: Tile | None = None
    #: MCR: flower tiles the winner set aside, one fan each (not counted toward the floor).
    flowers: int = 0
    #: MCR: the winning tile is the last copy not yet seen (和绝张).
    last_copy: bool = False
    #: Sichuan: the winner's void suit (0 m, 1 p, 2 s); None: any suit the hand lacks.
    void_suit: int | None = None
    #: Sichuan: a win on the discard a seat made after its kong's replacement draw (杠上炮).
    after_kong: bool = False
    #: Sichuan: the seats still in the hand (the winner among them): a self-draw's payers; None: every seat.
    in_hand: tuple[int, ...] | None = None
    #: Sichuan: the seat whose discard the winner's open kong claimed, for a win on that
    #: kong's replacement draw (点杠花); None: the kong was the winner's own (or no kong).
    kong_feeder: int | None = None


# Built in C (app/core/kernel/named_tuple.cpp says why): the same fields, defaults and
# instances as the __new__ typing.NamedTuple writes, bound without a Python call.
setattr(WinContext, "__new__", _kernel.named_tuple_new(WinContext))  # noqa: B010 (mypy: no method assignment)


def check_win_tile(hand_counts: bytes, win_tile: Tile) -> None:
    """Raise :class:`InvalidWinContext` unless the concealed tiles hold ``win_tile``.

    >>> check_win_tile(bytes(34), 0)
    Traceback (most recent call last):
    ...
    app.core.value.scoring_context.InvalidWinContext: win_tile 1m is not in the hand; hand holds the concealed tiles including the winning tile
    """
    if not 0 <= win_tile < NUM_TILE_KINDS or not hand_counts[win_tile]:
        shown = format_tile(win_tile) if 0 <= win_tile < NUM_TILE_KINDS else str(win_tile)
        raise InvalidWinContext(
            f"win_tile {shown} is not in the hand; hand holds the concealed tiles including the winning tile",
            field="win_tile",
        )


def check_seats(context: WinContext, seats: int = DEFAULT_SEATS) -> None:
    """Raise :class:`InvalidWinContext` for seats and win kinds that cannot go together.

    ``seats`` is the number of players (4, or 3 in sanma).
    """
    winner, dealer, discarder = context.winner, context.dealer, context.discarder
    # Written out seat by seat: every score request passes here.  (type() is int: a bool is no seat.)
    if winner is not None and not (type(winner) is int and 0 <= winner < seats):
        _not_a_seat("winner", winner, seats)
    if dealer is not None and not (type(dealer) is int and 0 <= dealer < seats):
        _not_a_seat("dealer", dealer, seats)
    if discarder is not None and not (type(discarder) is int and 0 <= discarder < seats):
        _not_a_seat("discarder", discarder, seats)
    if discarder == winner:
        raise InvalidWinContext("the winner cannot have discarded the winning tile", field="discarder")
    if context.kong_replacement and context.discarder is not None:
        raise InvalidWinContext(
            "a kong replacement win is a self-draw: discarder must be null", field="kong_replacement"
        )
    if context.robbed_kong and context.discarder is None:
        raise InvalidWinContext(
            "robbing a kong needs the seat that declared the kong as discarder", field="robbed_kong"
        )


def _not_a_seat(name: str, seat: object, seats: int) -> NoReturn:
    raise InvalidWinContext(f"{name} must be a seat 0..{seats - 1}, got {seat!r}", field=name)
