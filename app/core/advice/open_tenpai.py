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
its melds say of its yaku (a value honour called, all simples, one suit).  Where the log says
how the seat discarded (:class:`DrawnDiscards`: which discards were the tile just drawn, where
it called), a second set of weights reads that too: a hand that keeps throwing what it draws
has stopped building.  Held out in self-play that lifts the AUC from 0.769 to 0.803; a read
without it (``/discard``'s opponents sent without ``tsumogiri`` and ``calls_at``; a seat one of
whose river tiles was robbed from its kan) keeps the first set.

The weights are a logistic regression fitted on self-play of four ``near`` advisors (which read
open seats by the published rate, so their hands do not depend on these weights;
``scripts/fit_open_tenpai.py`` prints this table, its first half of hands fitting, the second
checking).  The Tenhou games were never used to fit or to choose anything here: they
are the outside check (``docs/table.md``), where it reads open seats with an AUC of 0.79, and
0.81 with how they discarded.

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
from typing import Final, NamedTuple

from app.core.shape.hand import Meld, MeldKind
from app.core.shape.tiles import DRAGONS, ORPHANS, Tile, is_honor, number_of

__all__ = [
    "DRAWN_FEATURES",
    "FEATURES",
    "OPEN_READY_WEIGHTS",
    "OPEN_READY_WEIGHTS_WITH_DRAWN",
    "DrawnDiscards",
    "drawn_features",
    "hand_discards_after_call",
    "open_ready_features",
    "open_ready_probability",
]

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
#: The inputs read from how the seat discarded (:class:`DrawnDiscards`), after :data:`FEATURES`,
#: in the order of :data:`OPEN_READY_WEIGHTS_WITH_DRAWN`.
DRAWN_FEATURES: Final = (
    "drawn_in_last_3",
    "drawn_run_over_4",
    "discards_since_call_over_8",
    "drawn_share_since_call",
    "discards_since_first_call_over_12",
    "latest_on_the_call",
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

#: Fitted by the same run on the same cases with :data:`DRAWN_FEATURES` added: the read of a seat
#: whose discards' tsumogiri flags and calls are known (see :func:`open_ready_probability`).  On
#: the other 1,500 hands its AUC is 0.803 against the read without them, 0.769.
OPEN_READY_WEIGHTS_WITH_DRAWN: Final[tuple[float, ...]] = (
    -3.2733,
    0.2924,
    4.3744,
    -2.0828,
    -0.0159,
    0.277,
    -0.5272,
    0.292,
    -0.2517,
    -0.7853,
    -0.7236,
    0.151,
    0.7211,
    1.5009,
    -1.0471,
    0.8769,
    0.8831,
    0.877,
)

_DRAGON_KINDS: Final = frozenset(DRAGONS)
_ORPHAN_KINDS: Final = frozenset(ORPHANS)
#: The longest run of drawn-tile discards the read counts.
DRAWN_RUN_CAP: Final = 4
#: The most discards since the last call, and since the first, the read counts.
SINCE_CALL_CAP: Final = 8
SINCE_FIRST_CALL_CAP: Final = 12


class DrawnDiscards(NamedTuple):
    """How a seat discarded, as every seat saw it: for each tile of its river (every tile it threw,
    the called ones too), whether it was the tile just drawn (tsumogiri); and the river's length
    at each of its chi, pon and open kan.  A hand that keeps throwing what it draws has stopped
    building: held out in self-play, reading this lifts the read's AUC from 0.769 to 0.803."""

    drawn: tuple[bool, ...]
    calls_at: tuple[int, ...]

    @classmethod
    def of(cls, drawn: Sequence[bool] | None, calls_at: Sequence[int]) -> DrawnDiscards | None:
        """The record where it is whole: every flag known and at least one call (else None)."""
        if drawn is None or not calls_at or not 0 <= calls_at[-1] <= len(drawn):
            return None
        return cls(tuple(drawn), tuple(calls_at))


def hand_discards_after_call(drawn: Sequence[bool | None], calls_at: Sequence[int]) -> int:
    """The discards from the hand (not the tile just drawn) after the one that followed the last
    call, from the record (the table's :attr:`~app.core.table.seats.SeatState.hand_discards_after_call`
    and ``/discard``'s opponents both read it so); 0 before any call.  A discard whose flag is
    not known (None) is not counted.

    >>> hand_discards_after_call((False, False, True, False, False), (1,))
    2
    """
    if not calls_at:
        return 0
    return sum(1 for flag in drawn[calls_at[-1] + 1 :] if flag is False)


def drawn_features(record: DrawnDiscards) -> tuple[float, ...]:
    """The inputs :data:`DRAWN_FEATURES` of ``record``.

    >>> [round(x, 3) for x in drawn_features(DrawnDiscards((False, True, False, True, True), (2,)))]
    [0.667, 0.5, 0.375, 0.667, 0.25, 0.0]
    """
    drawn, calls_at = record.drawn, record.calls_at
    latest = drawn[-LATEST:]
    run = 0
    for flag in reversed(drawn):
        if not flag:
            break
        run += 1
    since_call = drawn[calls_at[-1] :]
    return (
        sum(latest) / LATEST,
        min(run, DRAWN_RUN_CAP) / DRAWN_RUN_CAP,
        min(len(since_call), SINCE_CALL_CAP) / SINCE_CALL_CAP,
        sum(since_call) / len(since_call) if since_call else 0.0,
        min(len(drawn) - calls_at[0], SINCE_FIRST_CALL_CAP) / SINCE_FIRST_CALL_CAP,
        float(len(since_call) == 1),
    )


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
    drawn: DrawnDiscards | None = None,
) -> float:
    """The fitted chance that the seat (see :func:`open_ready_features`) is ready: with ``drawn``
    (how it discarded, where known) by :data:`OPEN_READY_WEIGHTS_WITH_DRAWN`, else by
    :data:`OPEN_READY_WEIGHTS`."""
    features = open_ready_features(river, melds, hand_discards_after_call, published, value_winds)
    weights = OPEN_READY_WEIGHTS
    if drawn is not None and len(drawn.drawn) == len(river):
        features += drawn_features(drawn)
        weights = OPEN_READY_WEIGHTS_WITH_DRAWN
    score = sum(weight * feature for weight, feature in zip(weights, features, strict=True))
    return 1.0 / (1.0 + math.exp(-score))
