"""How likely a seat with calls is ready: a logistic read over what every seat sees, fitted on
self-play.

The published open-hand rates (mahjong-helper's ``tenpaiRate``, :mod:`~app.core.advice.safety_tables`)
read a seat by its calls, its turn and the tiles it discarded from the hand since its last call.
They tell a ready open seat from one that is not with an AUC of 0.71 over the 54 Tenhou games of
the shared test data (``scripts/measure_reads.py --seed 36 --share 0.3 --diagnose``,
``tenpai_open``: 4,642 cases), and of 0.63 in self-play.  This read
keeps that rate as one input and adds what else the table shows of the seat: how far into the
hand it is, how many calls, how many discards from the hand since the last call, what it threw
lately (middle tiles are kept by a hand still building, thrown by one that is ready), and what
its melds say of its yaku (a value honour called, all simples, one suit).

The weights are a logistic regression fitted on self-play of four ``near`` advisors (which read
open seats by the published rate, so their hands do not depend on these weights;
``scripts/fit_open_tenpai.py`` prints this table, its first half of hands fitting, the second
checking).  The Tenhou games were never used to fit or to choose anything here: they
are the outside check (``docs/table.md``), where it reads open seats with an AUC of 0.79.

>>> from app.core.shape.hand import Meld
>>> pon = (Meld.of("pon", (31, 31, 31)),)
>>> early = open_ready_probability(tuple(range(4)), pon, 0, 0.20)
>>> later = open_ready_probability(tuple(range(12)), pon, 0, 0.45)
>>> 0 < early < later < 1
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from app.core.shape.hand import Meld, MeldKind
from app.core.shape.tiles import DRAGONS, ORPHANS, Tile, is_honor, number_of

__all__ = ["FEATURES", "OPEN_READY_WEIGHTS", "open_ready_features", "open_ready_probability"]

#: The read's inputs, in the order of :data:`OPEN_READY_WEIGHTS`.
FEATURES: Final = (
    "bias",
    "published_log_odds",
    "turn_over_10",
    "turn_over_10_squared",
    "two_calls",
    "three_calls",
    "hand_discards_after_call_over_3",
    "middle_tiles_in_last_3",
    "ends_in_last_3",
    "value_honour_called",
    "all_simples_called",
    "one_suit_called",
)
#: Discards that count as the seat's latest.
LATEST: Final = 3
#: The most discards from the hand after a call the read counts (the published rows stop near it).
HAND_DISCARDS_CAP: Final = 6
#: The published rate is clipped into (LOG_ODDS_FLOOR, 1 - LOG_ODDS_FLOOR) before its log odds.
LOG_ODDS_FLOOR: Final = 1e-4

#: Fitted by ``scripts/fit_open_tenpai.py --games 3000 --seed 41``: four ``near`` advisors, one hand
#: a game, the first 1,500 hands fitting (37,314 cases, 10,012 ready), L2 1.0.  On the other 1,500
#: (37,359 cases) the published rate alone reads with an AUC of 0.631 and a calibration error of
#: 0.250 (0.92 read where 28 % were ready); this read 0.769 and 0.015.
OPEN_READY_WEIGHTS: Final[tuple[float, ...]] = (
    -4.2814,
    0.0647,
    7.2889,
    -2.7947,
    0.2842,
    0.7836,
    -1.0278,
    0.2752,
    -0.1127,
    -0.6754,
    -0.9777,
    0.1214,
)

_DRAGON_KINDS: Final = frozenset(DRAGONS)
_ORPHAN_KINDS: Final = frozenset(ORPHANS)


def open_ready_features(
    river: Sequence[Tile],
    melds: Sequence[Meld],
    hand_discards_after_call: int,
    published: float,
    value_winds: frozenset[Tile] = frozenset(),
) -> tuple[float, ...]:
    """The read's inputs (:data:`FEATURES`) for a seat with ``melds`` that discarded ``river`` (every
    tile it threw, the called ones too, in order), ``hand_discards_after_call`` of them from the
    hand since its last call, whose published ready rate is ``published``; ``value_winds`` are the
    winds worth a yaku to it (empty: not known, no wind counts).

    >>> from app.core.shape.hand import Meld
    >>> chi = Meld.of("chi", (2, 3, 4))
    >>> [round(x, 3) for x in open_ready_features((27, 0, 13, 4), (chi,), 1, 0.25)]
    [1.0, -1.099, 0.4, 0.16, 0.0, 0.0, 0.333, 2.0, 1.0, 0.0, 1.0, 1.0]
    """
    turn = len(river)
    calls = sum(1 for meld in melds if meld.kind.is_open)
    latest = river[-LATEST:]
    middle = sum(1 for tile in latest if not is_honor(tile) and 3 <= number_of(tile) <= 7)
    ends = sum(1 for tile in latest if tile in _ORPHAN_KINDS)
    values = _DRAGON_KINDS | value_winds
    tiles = [tile for meld in melds for tile in meld.tiles]
    suits = {tile // 9 for tile in tiles if not is_honor(tile)}
    clipped = min(max(published, LOG_ODDS_FLOOR), 1.0 - LOG_ODDS_FLOOR)
    return (
        1.0,
        math.log(clipped / (1.0 - clipped)),
        turn / 10,
        (turn / 10) ** 2,
        float(calls == 2),
        float(calls >= 3),
        min(max(hand_discards_after_call, 0), HAND_DISCARDS_CAP) / 3,
        float(middle),
        float(ends),
        float(any(meld.kind is not MeldKind.CHI and meld.tiles[0] in values for meld in melds)),
        float(all(tile not in _ORPHAN_KINDS for tile in tiles)),
        float(len(suits) <= 1),
    )


def open_ready_probability(
    river: Sequence[Tile],
    melds: Sequence[Meld],
    hand_discards_after_call: int,
    published: float,
    value_winds: frozenset[Tile] = frozenset(),
    weights: Sequence[float] = OPEN_READY_WEIGHTS,
) -> float:
    """The fitted chance that the seat (see :func:`open_ready_features`) is ready."""
    features = open_ready_features(river, melds, hand_discards_after_call, published, value_winds)
    score = sum(weight * feature for weight, feature in zip(weights, features, strict=True))
    return 1.0 / (1.0 + math.exp(-score))
