"""Published deal-in and tenpai statistics that the danger model (:mod:`app.core.advice.safety`) reads.

These are numbers, transcribed by hand from the sources below and kept here as
reviewable data; nothing in this module is computed.  Percentages are stored as
published (``5.7`` means 5.7 %).  ``tests/core/test_safety_tables.py`` checks the
shapes and cross-checks the two independent deal-in sources against each other.

Sources
-------
``DEAL_IN_BY_TURN``
    Deal-in rate (%) of a tile against a player who declared riichi, by that
    player's turn (discards made, 1..19) and by tile category (suji class for
    number tiles, copies left for honours).  Published as ``RiskData`` in
    mahjong-helper, ``util/risk_data.go`` (EndlessCheng/mahjong-helper, MIT),
    version 110665c706b7d014cb2cca36866facea18d49e51; compiled from Tenhou logs.
    The two double-suji entries of turn 1 are published as -1 (no data: double
    suji cannot exist yet); they are stored as ``None``.
``DORA_DEAL_IN_TURN_9``
    The deal-in rate (%) of a tile that is dora, by the same categories, at a
    riichi player's 9th turn: the numerators of ``FixedDoraRiskRateMulti`` in
    mahjong-helper, ``util/risk_data.go``, version
    4094d2b6e32da14e916eb8fb54eb4a3578f9c770 (its denominators are the 9th row of
    ``DEAL_IN_BY_TURN``; its second factors, the points lost, are left out: this
    table is a chance).  A dora is waited on more often: a player keeps it.
``DEAL_IN_POOLED``
    The same kind of rate, pooled over all turns, measured at the moment of the
    riichi declaration over 1,300,316 riichi of the 2019 Tenhou houou tables
    (171,650 hanchan): koba::blog, "天鳳鳳凰卓の牌の危険度表", 2021-01-16,
    https://blog.kobalab.net/entry/2021/01/16/130716.  Used as an independent
    check of ``DEAL_IN_BY_TURN`` and as the source of the turn the pooled figures
    correspond to.
``TENPAI_SHARE_BY_TURN``
    Share (%) of players who are tenpai after their n-th discard (n = 0..18),
    2016 Tenhou houou tables, 159,798 hanchan: koba::blog, "天鳳統計(2) 〜 巡目ごとの
    向聴数・立直率・和了率", https://blog.kobalab.net/entry/20180118/1516202840.
``OPEN_TENPAI_BY_TURN``
    Tenpai rate (%) of a player with 1, 2 or 3 calls at the moment of the call,
    by turn: the first column of ``tenpaiRate`` in mahjong-helper,
    ``util/tenpai_data.go``, version 1b850d76682f60b067dada3b6663e82c09853def.
    Turns without data are ``None``.
``OPEN_TENPAI_AFTER_HAND_DISCARDS``
    The whole of that ``tenpaiRate`` table: the tenpai rate (%) of a player with
    1, 2 or 3 calls by turn and by the discards they made from the hand (not the
    tile just drawn) after the one that followed their last call; its first
    column is ``OPEN_TENPAI_BY_TURN``.  Turns and counts without data are left
    out of a row.
``SILENT_CLOSED_TENPAI``
    Of players with a closed hand who have not declared riichi (yamiten), how
    many were tenpai, by the turns left in the live wall (its tiles divided by
    4, rounded down: 17 at the first discards, 0 in the last round): the
    ``yamitenStats`` entries with no call of mjai-manue, ``share/game_stats.json``
    (gimite/mjai-manue, BSD-3-Clause), version
    f92e021f81969f533e2cda66572fe076d1d6dca5, counted on Tenhou houou games.
    Stored as published, ``(tenpai, total)``.  Unlike ``TENPAI_SHARE_BY_TURN``
    it leaves out the players who declared: a silent closed hand is ready far
    less often (4.3 % with 9 turns left, against 23.1 % of all players).
``SINGLE_CATEGORY_RATES`` (not stored: see :mod:`app.core.advice.safety`)
    The "no chance", "one chance" and "early outside" effects are cross-checked
    against gimite's analysis of 7,670 games of Tenhou-i players, "統計による麻雀危険牌分析",
    http://gimite.net/pukiwiki/ (ノーチャンス 3.0-3.7 %, ワンチャンス 7.4-7.9 %,
    序盤の捨牌の外側 3.8-4.6 %, against 11.2-11.4 % for comparable non-suji tiles).

>>> len(DEAL_IN_BY_TURN), {len(row) for row in DEAL_IN_BY_TURN}
(19, {19})
>>> DEAL_IN_BY_TURN[POOLED_TURN - 1][Category.NO_SUJI_46], DEAL_IN_POOLED[Category.NO_SUJI_46]
(13.1, 11.56)
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final


class Category(IntEnum):
    """Tile categories of the deal-in tables, in the column order of ``DEAL_IN_BY_TURN``.

    A number tile's category depends on its number and on which of its ryanmen
    ("two-sided") waits are excluded by a discard of its suji partner: ``HALF_SUJI_46_OUTER``
    is a 4 whose partner 1 is out (a 6 whose partner 9 is out), ``HALF_SUJI_46_INNER``
    a 4 whose partner 7 is out (a 6 whose 3 is out).  Honour categories count the
    copies left unseen from the asking player's view: ``_LEFT_3`` is a fresh honour.
    """

    NO_SUJI_5 = 0
    NO_SUJI_46 = 1
    NO_SUJI_37 = 2
    NO_SUJI_28 = 3
    NO_SUJI_19 = 4
    HALF_SUJI_5 = 5
    HALF_SUJI_46_OUTER = 6
    HALF_SUJI_46_INNER = 7
    SUJI_37 = 8
    SUJI_28 = 9
    SUJI_19 = 10
    DOUBLE_SUJI_5 = 11
    DOUBLE_SUJI_46 = 12
    VALUE_HONOR_LEFT_3 = 13
    VALUE_HONOR_LEFT_2 = 14
    VALUE_HONOR_LEFT_1 = 15
    GUEST_WIND_LEFT_3 = 16
    GUEST_WIND_LEFT_2 = 17
    GUEST_WIND_LEFT_1 = 18


FIRST_TURN: Final = 1
LAST_TURN: Final = 19

# Rows: turns 1..19.  Columns: Category order.  Percent.  (mahjong-helper RiskData)
DEAL_IN_BY_TURN: Final[tuple[tuple[float | None, ...], ...]] = (
    (5.7, 5.7, 5.8, 4.7, 3.4, 2.5, 2.5, 3.1, 5.6, 3.8, 1.8, None, None, 2.1, 1.2, 0.5, 2.4, 1.4, 1.2),
    (6.6, 6.9, 6.3, 5.2, 4.0, 3.5, 3.5, 4.1, 5.3, 3.5, 1.9, 0.8, 2.6, 2.3, 1.2, 0.5, 2.7, 1.3, 0.4),
    (7.7, 8.0, 6.7, 5.8, 4.6, 4.3, 4.1, 4.9, 5.2, 3.6, 1.8, 1.6, 2.0, 2.4, 1.2, 0.3, 2.6, 1.2, 0.3),
    (8.5, 8.9, 7.1, 6.2, 5.1, 4.8, 4.7, 5.6, 5.2, 3.8, 1.7, 1.6, 2.0, 2.6, 1.1, 0.2, 2.6, 1.2, 0.2),
    (9.4, 9.7, 7.5, 6.7, 5.5, 5.3, 5.1, 6.0, 5.3, 3.7, 1.7, 1.7, 2.0, 2.9, 1.2, 0.2, 2.8, 1.2, 0.2),
    (10.2, 10.5, 7.9, 7.1, 5.9, 5.8, 5.6, 6.4, 5.2, 3.7, 1.7, 1.8, 2.0, 3.2, 1.3, 0.2, 2.9, 1.3, 0.2),
    (11.0, 11.3, 8.4, 7.5, 6.3, 6.3, 6.1, 6.8, 5.3, 3.7, 1.7, 2.0, 2.1, 3.6, 1.4, 0.2, 3.2, 1.4, 0.2),
    (11.9, 12.2, 8.9, 8.0, 6.8, 6.9, 6.6, 7.4, 5.3, 3.8, 1.7, 2.1, 2.2, 4.0, 1.6, 0.2, 3.5, 1.6, 0.2),
    (12.8, 13.1, 9.5, 8.6, 7.4, 7.4, 7.2, 7.9, 5.5, 3.9, 1.8, 2.2, 2.3, 4.6, 1.9, 0.3, 4.0, 1.8, 0.2),
    (13.8, 14.1, 10.1, 9.2, 8.0, 8.0, 7.8, 8.5, 5.6, 4.0, 1.9, 2.4, 2.4, 5.3, 2.2, 0.3, 4.6, 2.1, 0.3),
    (14.9, 15.1, 10.8, 9.9, 8.7, 8.7, 8.5, 9.2, 5.7, 4.2, 2.0, 2.5, 2.6, 6.0, 2.6, 0.4, 5.1, 2.5, 0.3),
    (16.0, 16.3, 11.6, 10.6, 9.4, 9.4, 9.2, 9.9, 6.0, 4.4, 2.2, 2.7, 2.7, 6.8, 3.1, 0.4, 5.1, 2.5, 0.3),
    (17.2, 17.5, 12.4, 11.4, 10.2, 10.2, 10.0, 10.6, 6.2, 4.6, 2.4, 3.0, 3.0, 7.8, 3.7, 0.5, 6.6, 3.7, 0.5),
    (18.5, 18.8, 13.3, 12.3, 11.1, 11.0, 10.9, 11.4, 6.6, 4.9, 2.7, 3.2, 3.1, 8.8, 4.4, 0.7, 7.4, 4.4, 0.6),
    (19.9, 20.1, 14.3, 13.3, 12.0, 11.9, 11.8, 12.3, 7.0, 5.3, 3.0, 3.4, 3.4, 9.9, 5.2, 0.8, 8.4, 5.3, 0.8),
    (21.3, 21.7, 15.4, 14.3, 13.1, 12.9, 12.8, 13.3, 7.4, 5.7, 3.3, 3.7, 3.6, 11.2, 6.2, 1.0, 9.4, 6.5, 0.9),
    (22.9, 23.2, 16.6, 15.4, 14.2, 14.0, 13.8, 14.4, 8.0, 6.1, 3.6, 3.9, 3.9, 12.4, 7.3, 1.3, 10.5, 7.7, 1.2),
    (24.7, 24.9, 17.9, 16.7, 15.4, 15.2, 15.0, 15.6, 8.5, 6.6, 4.0, 4.3, 4.2, 13.9, 8.5, 1.7, 11.8, 9.4, 1.6),
    (27.5, 27.8, 20.4, 19.1, 17.8, 17.5, 17.5, 17.5, 9.8, 7.4, 5.0, 5.1, 5.1, 18.1, 12.1, 2.8, 14.7, 12.6, 2.1),
)
"""Deal-in rate (%) against a riichi, ``[turn - 1][category]`` (mahjong-helper ``RiskData``)."""

# mahjong-helper FixedDoraRiskRateMulti's numerators: a dora's deal-in rate at turn 9.
DORA_DEAL_IN_TURN_9: Final[tuple[float, ...]] = (
    14.9, 15.0, 12.1, 10.3, 8.9, 9.7, 8.9, 10.4, 8.0, 5.5, 3.5, 4.1, 4.1, 5.2, 2.9, 1.1, 5.1, 3.0, 0.8,
)  # fmt: skip
"""Deal-in rate (%) against a riichi of a tile that is dora, at turn 9, by category."""

# koba::blog 2021-01-16, pooled over turns.  The blog does not split 5 from 4/6, half
# suji by side, or honours by value; those categories repeat the pooled figure.
DEAL_IN_POOLED: Final[dict[Category, float]] = {
    Category.NO_SUJI_5: 11.56,
    Category.NO_SUJI_46: 11.56,
    Category.NO_SUJI_37: 8.42,
    Category.NO_SUJI_28: 7.72,
    Category.NO_SUJI_19: 6.65,
    Category.HALF_SUJI_5: 7.10,
    Category.HALF_SUJI_46_OUTER: 7.10,
    Category.HALF_SUJI_46_INNER: 7.10,
    Category.SUJI_37: 4.62,
    Category.SUJI_28: 3.50,
    Category.SUJI_19: 2.02,
    Category.DOUBLE_SUJI_5: 2.81,
    Category.DOUBLE_SUJI_46: 2.81,
    Category.VALUE_HONOR_LEFT_3: 4.29,
    Category.VALUE_HONOR_LEFT_2: 2.11,
    Category.VALUE_HONOR_LEFT_1: 0.28,
    Category.GUEST_WIND_LEFT_3: 4.29,
    Category.GUEST_WIND_LEFT_2: 2.11,
    Category.GUEST_WIND_LEFT_1: 0.28,
}
"""Deal-in rate (%) against a riichi, pooled over turns (koba::blog, 2019 houou)."""

POOLED_TURN: Final = 9
"""The turn whose ``DEAL_IN_BY_TURN`` row is closest to ``DEAL_IN_POOLED`` (least squared relative
error; re-derived by a test).  The danger model uses it when a player's turn is unknown."""

TENPAI_SHARE_BY_TURN: Final[tuple[float, ...]] = (
    0.0,
    0.1,
    0.3,
    1.0,
    2.5,
    5.0,
    8.6,
    13.1,
    18.1,
    23.1,
    27.8,
    32.0,
    35.5,
    38.4,
    40.6,
    42.4,
    43.8,
    45.0,
    48.3,
)
"""Share (%) of players tenpai after their n-th discard, n = 0..18 (koba::blog, 2016 houou)."""

OPEN_TENPAI_BY_TURN: Final[tuple[tuple[float | None, ...], ...]] = (
    # 1 call, turns 0..19
    (
        None,
        1.05,
        1.72,
        2.90,
        5.26,
        8.56,
        13.05,
        18.34,
        24.38,
        30.11,
        36.12,
        41.39,
        46.38,
        49.21,
        52.07,
        56.89,
        62.86,
        67.42,
        69.02,
        None,
    ),
    # 2 calls
    (
        None,
        None,
        9.92,
        12.10,
        17.54,
        23.24,
        30.32,
        37.55,
        43.52,
        50.28,
        55.06,
        62.00,
        66.04,
        70.83,
        72.52,
        75.00,
        76.98,
        81.56,
        84.01,
        None,
    ),
    # 3 calls
    (
        None,
        None,
        None,
        33.33,
        43.81,
        52.07,
        61.44,
        68.20,
        72.56,
        77.58,
        81.16,
        84.53,
        86.23,
        87.26,
        87.24,
        87.35,
        87.66,
        89.03,
        89.54,
        90.19,
    ),
)
"""Tenpai rate (%) at the moment of a call, ``[calls - 1][turn]`` (mahjong-helper ``tenpaiRate``)."""

OPEN_TENPAI_AFTER_HAND_DISCARDS: Final[tuple[tuple[tuple[float, ...], ...], ...]] = (
    # 1 call: a row per turn, by hand discards after the call's own
    (
        (),
        (1.05,),
        (1.72, 3.37),
        (2.90, 5.60, 8.53),
        (5.26, 9.34, 13.45, 17.86),
        (8.56, 14.42, 19.88, 25.19, 31.25),
        (13.05, 21.04, 27.89, 33.85, 40.21, 47.34),
        (18.34, 28.05, 35.71, 42.58, 48.71, 55.85, 63.21),
        (24.38, 35.07, 43.76, 51.24, 57.73, 63.48, 68.56, 74.68),
        (30.11, 41.25, 50.79, 58.60, 64.60, 70.18, 74.26, 78.25, 80.23),
        (36.12, 47.47, 57.50, 64.90, 71.13, 76.06, 79.35, 82.00, 83.50, 83.50),
        (41.39, 53.62, 62.82, 69.87, 75.56, 79.85, 83.07, 85.42, 87.92, 89.02),
        (46.38, 58.24, 66.75, 74.18, 80.05, 84.12, 87.14, 89.50, 91.41, 92.73),
        (49.21, 61.84, 70.55, 78.84, 82.92, 86.07, 88.99, 91.38, 93.44, 94.63, 96.42),
        (52.07, 63.94, 73.27, 81.35, 85.42, 88.85, 91.24, 93.14, 94.28),
        (56.89, 68.11, 75.01, 81.98, 84.55, 87.98, 90.60, 92.04, 93.63),
        (62.86, 73.24, 79.46, 83.20, 86.56, 90.76, 92.81),
        (67.42, 75.09, 80.07, 80.07, 80.07, 86.71),
        (69.02, 84.51, 84.51),
    ),
    # 2 calls: a row per turn, by hand discards after the call's own
    (
        (),
        (),
        (9.92,),
        (12.10, 17.72),
        (17.54, 25.55, 32.77),
        (23.24, 32.99, 41.82, 53.61),
        (30.32, 41.77, 51.53, 62.77, 68.97),
        (37.55, 49.50, 60.05, 69.07, 74.40, 76.53),
        (43.52, 56.91, 67.17, 75.04, 79.34, 80.43, 88.26),
        (50.28, 63.58, 73.48, 80.34, 83.85, 84.45, 89.63, 89.63),
        (55.06, 69.27, 77.62, 84.93, 88.26, 89.04, 90.73, 93.82, 96.91),
        (62.00, 74.63, 82.16, 88.18, 91.51, 92.42, 94.17, 97.08, 98.54, 98.54),
        (66.04, 78.10, 85.15, 89.57, 93.22, 94.76, 95.51, 98.20),
        (70.83, 81.37, 88.29, 91.52, 94.40, 96.40, 97.20, 98.60),
        (72.52, 82.80, 89.17, 92.46, 94.97, 96.52, 96.52),
        (75.00, 85.45, 90.74, 94.57, 95.85, 96.68, 96.68, 96.68),
        (76.98, 85.15, 89.27, 93.44, 94.38, 95.18, 95.18),
        (81.56, 88.65, 91.89, 96.76, 96.76),
        (84.01,),
    ),
    # 3 calls: a row per turn, by hand discards after the call's own
    (
        (),
        (),
        (),
        (33.33,),
        (43.81,),
        (52.07, 63.48),
        (61.44, 70.28, 87.26),
        (68.20, 77.06, 90.17),
        (72.56, 82.85, 88.56, 88.56),
        (77.58, 87.59, 90.93),
        (81.16, 90.22, 92.74, 97.58),
        (84.53, 91.37, 94.75),
        (86.23, 92.28, 96.31, 98.15),
        (87.26, 93.05, 96.53, 98.26, 99.99),
        (87.24, 94.11, 96.83),
        (87.35, 94.58, 95.93),
        (87.66, 93.15, 94.29),
        (89.03, 91.77, 93.42, 93.42),
        (89.54, 89.54),
        (90.19,),
    ),
)  # fmt: skip
"""Tenpai rate (%) with calls, ``[calls - 1][turn][hand discards after the call]`` (mahjong-helper
``tenpaiRate``, whole)."""

SILENT_CLOSED_TENPAI: Final[tuple[tuple[int, int], ...]] = (
    (725, 6060),
    (842, 7478),
    (1001, 9463),
    (1196, 12046),
    (1445, 15403),
    (1653, 19586),
    (1884, 24550),
    (2022, 30380),
    (2019, 37059),
    (1921, 44228),
    (1652, 51730),
    (1259, 58885),
    (862, 65330),
    (504, 70949),
    (269, 75450),
    (102, 79121),
    (17, 82073),
    (2, 41903),
)
"""Closed hands without a declaration: ``(tenpai, total)`` by turns left in the live wall, 0..17
(mjai-manue ``yamitenStats``, no call)."""
