"""Where a seat ends the game, from the scores now and the hands left: the rank model that puts a
hand's outcomes in placement points.

The model
---------
Each seat's final score is its score after this hand plus the other hands' changes, taken as
independent normal draws with a spread of :data:`HAND_SPREAD` points a hand (measured on
self-play hanchans, ``scripts/measure_rank_model.py``).  With ``h`` hands after this one, seat
``j``'s final is ``s_j + sqrt(h) * HAND_SPREAD * Z_j``.  Given the asking seat's own final ``x``,
the others finish above it independently, ``j`` with chance ``P(s_j + sqrt(h) * HAND_SPREAD * Z_j > x)``
(equal finals go to the seat that sat nearer the first dealer, as Tenhou ranks them), so the
asking seat's place given ``x`` is a sum of independent trials, worked exactly; ``x`` itself is
integrated by Gauss-Hermite quadrature.  With no hand left the places are the scores'.

The rank model's use is :func:`placement_points`: a seat's expected uma after a hand that moves
the scores by ``deltas``.  The uma is the table's (``--rank-points``; default Tenhou's
[90, 45, 0, -135] for four seats).  Near the start of a game the value is almost linear in the
points; at all-last it turns into steps (a cheap win that leaves the seat fourth is worth
nothing, a win that passes the seat ahead is worth a place).

Left out: the riichi sticks a game's end gives the first seat, the zero-sum of the later hands
(each seat's later changes are independent here), who pays a later hand, and the dealer's
longer stay; a hand's length by the game's rules (:func:`hands_after`).

>>> standing = Standing(scores=(25_000, 25_000, 25_000, 25_000), hands_after=0.0, priority=(0, 1, 2, 3))
>>> placement_points(standing, (8_000, -8_000, 0, 0))  # the last hand: a win makes the seat first
90.0
>>> placement_points(standing, (0, 0, 0, 0))  # ties go to the seat nearer the first dealer
90.0
>>> abs(placement_points(standing._replace(hands_after=8.0), (0, 0, 0, 0))) < 1e-6  # a game ahead: the mean
True
>>> [round(chance, 3) for chance in place_chances(standing._replace(hands_after=1.0), (12_000, -12_000, 0, 0))]
[0.924, 0.066, 0.01, 0.0]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Final, NamedTuple

import numpy as np

__all__ = [
    "HAND_SPREAD",
    "HANDS_PER_ROUND_HAND",
    "Standing",
    "hands_after",
    "place_chances",
    "placement_points",
    "uma_for",
]

#: The spread (standard deviation) of one seat's score change over one hand, in points.
#: Measured on self-play hanchans of four advisors (``scripts/measure_rank_model.py --hanchans 400
#: --seed 3``): the root mean square of every seat's change over 4,154 hands, 4,932 points.
HAND_SPREAD: Final = 4_932.0
#: Hands played per scheduled hand (a dealer's win or tenpai plays the hand again; a game that
#: ends early by a bust plays fewer): 4,154 hands in 400 hanchans of 8 in the same self-play, 1.3.
HANDS_PER_ROUND_HAND: Final = 1.3
#: Tenhou's uma with the oka, per place, first first.
DEFAULT_UMA: Final = {4: (90.0, 45.0, 0.0, -135.0), 3: (90.0, 0.0, -135.0)}
#: Nodes of the Gauss-Hermite rule integrating the asking seat's own final score.
_NODES: Final = 24


class Standing(NamedTuple):
    """The game as the rank model reads it, seats ordered from the asking seat (it first)."""

    #: Each seat's points now, the asking seat first, then the others in play order.
    scores: tuple[float, ...]
    #: Hands expected after this one (:func:`hands_after`).
    hands_after: float
    #: Each seat's rank among equal finals (0 wins the tie: the seat nearest the first dealer).
    priority: tuple[int, ...]
    #: Placement points per place, first first (None: :data:`DEFAULT_UMA` for the seats).
    uma: tuple[float, ...] | None = None


def uma_for(seats: int, uma: Sequence[float] | None = None) -> tuple[float, ...]:
    """The uma to use: ``uma`` when given, else the default for ``seats``."""
    return tuple(float(value) for value in uma) if uma is not None else DEFAULT_UMA[seats]


def hands_after(scheduled: int, repeats: bool = True) -> float:
    """Hands expected after the one being played: the ``scheduled`` hands after it (the table's
    :func:`~app.core.table.flow.scheduled_after`) and, when the hand may be played again (a
    dealer's win or tenpai; ``repeats``), this one, each :data:`HANDS_PER_ROUND_HAND` times.

    >>> hands_after(7), hands_after(0), hands_after(0, repeats=False)
    (9.4, 0.3, 0.0)
    """
    return round(scheduled * HANDS_PER_ROUND_HAND + ((HANDS_PER_ROUND_HAND - 1.0) if repeats else 0.0), 6)


@lru_cache(maxsize=1)
def _hermite() -> tuple[np.ndarray, np.ndarray]:
    """Nodes and weights for E[f(Z)], Z standard normal."""
    nodes, weights = np.polynomial.hermite_e.hermegauss(_NODES)
    return np.asarray(nodes, dtype=float), np.asarray(weights, dtype=float) / math.sqrt(2 * math.pi)


def _upper_tails(own: np.ndarray, final: float, spread: float) -> np.ndarray:
    """P(final + spread * Z > own) for each of ``own``, Z standard normal."""
    scale = spread * math.sqrt(2.0)
    return np.array([0.5 * math.erfc((mine - final) / scale) for mine in own.tolist()])


def placement_points(standing: Standing, deltas: Sequence[float]) -> float:
    """The asking seat's expected placement points after this hand moves the scores by ``deltas``
    (the asking seat first, as ``standing.scores``)."""
    uma = uma_for(len(standing.scores), standing.uma)
    return float(sum(value * chance for value, chance in zip(uma, place_chances(standing, deltas), strict=True)))


def place_chances(standing: Standing, deltas: Sequence[float]) -> tuple[float, ...]:
    """The asking seat's chance of each place at the end of the game (first first) after this
    hand moves the scores by ``deltas``."""
    seats = len(standing.scores)
    finals = [score + delta for score, delta in zip(standing.scores, deltas, strict=True)]
    mine, others = finals[0], finals[1:]
    if standing.hands_after <= 0:
        ahead = sum(
            1
            for final, priority in zip(others, standing.priority[1:], strict=True)
            if final > mine or (final == mine and priority < standing.priority[0])
        )
        return tuple(1.0 if place == ahead else 0.0 for place in range(seats))
    spread = HAND_SPREAD * math.sqrt(standing.hands_after)
    nodes, weights = _hermite()
    own = mine + spread * nodes  # the asking seat's final at each node
    # Each other seat finishes above ``own`` with P(its final > own): the normal's upper tail.
    tails = [_upper_tails(own, final, spread) for final in others]
    # The number of seats above, a sum of independent trials, at each node.
    by_count = [np.ones_like(own)]
    for chance in tails:
        grown = [np.zeros_like(own) for _ in range(len(by_count) + 1)]
        for count, share in enumerate(by_count):
            grown[count] += share * (1.0 - chance)
            grown[count + 1] += share * chance
        by_count = grown
    return tuple(float(np.dot(weights, share)) for share in by_count)
