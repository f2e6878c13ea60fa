"""The published tables behind the danger model: their shape, and two sources checked against each other."""

from __future__ import annotations

import pytest

from app.core.advice.safety_tables import (
    DEAL_IN_BY_TURN,
    DEAL_IN_POOLED,
    FIRST_TURN,
    LAST_TURN,
    OPEN_TENPAI_AFTER_HAND_DISCARDS,
    OPEN_TENPAI_BY_TURN,
    POOLED_TURN,
    SILENT_CLOSED_TENPAI,
    TENPAI_SHARE_BY_TURN,
    Category,
)

C = Category


def test_the_by_turn_table_has_a_row_per_turn_and_a_column_per_category() -> None:
    assert len(DEAL_IN_BY_TURN) == LAST_TURN - FIRST_TURN + 1
    assert all(len(row) == len(Category) for row in DEAL_IN_BY_TURN)
    missing = {
        (turn, column) for turn, row in enumerate(DEAL_IN_BY_TURN, 1) for column, v in enumerate(row) if v is None
    }
    assert missing == {(1, C.DOUBLE_SUJI_5), (1, C.DOUBLE_SUJI_46)}  # published as -1: no data on turn 1
    assert all(0 < v < 100 for row in DEAL_IN_BY_TURN for v in row if v is not None)
    assert set(DEAL_IN_POOLED) == set(Category)


def test_the_pooled_turn_is_the_closest_row() -> None:
    def error(row: tuple[float | None, ...]) -> float:
        return sum(((row[c] - v) / v) ** 2 for c, v in DEAL_IN_POOLED.items() if row[c] is not None)

    closest = min(range(len(DEAL_IN_BY_TURN)), key=lambda i: error(DEAL_IN_BY_TURN[i])) + FIRST_TURN
    assert closest == POOLED_TURN


def test_two_independent_sources_agree_within_thirty_percent() -> None:
    """mahjong-helper's turn-9 row against koba::blog's pooled 2019 houou figures."""
    row = DEAL_IN_BY_TURN[POOLED_TURN - FIRST_TURN]
    for category, pooled in DEAL_IN_POOLED.items():
        assert row[category] == pytest.approx(pooled, rel=0.30), category.name


@pytest.mark.parametrize("source", ["by_turn", "pooled"])
def test_suji_orders_danger_the_same_way_in_both_sources(source: str) -> None:
    rates = DEAL_IN_BY_TURN[POOLED_TURN - FIRST_TURN] if source == "by_turn" else DEAL_IN_POOLED
    assert rates[C.NO_SUJI_46] > rates[C.HALF_SUJI_46_INNER] >= rates[C.HALF_SUJI_46_OUTER] > rates[C.DOUBLE_SUJI_46]
    assert rates[C.NO_SUJI_5] > rates[C.HALF_SUJI_5] > rates[C.DOUBLE_SUJI_5]
    for no_suji, suji in ((C.NO_SUJI_37, C.SUJI_37), (C.NO_SUJI_28, C.SUJI_28), (C.NO_SUJI_19, C.SUJI_19)):
        assert rates[no_suji] > rates[suji]
    assert rates[C.NO_SUJI_37] > rates[C.NO_SUJI_28] > rates[C.NO_SUJI_19]
    for fresh in (C.VALUE_HONOR_LEFT_3, C.GUEST_WIND_LEFT_3):
        assert rates[fresh] > rates[fresh + 1] > rates[fresh + 2]


def test_no_suji_danger_grows_with_the_turn() -> None:
    for column in (C.NO_SUJI_5, C.NO_SUJI_46, C.NO_SUJI_37, C.NO_SUJI_28, C.NO_SUJI_19):
        values = [row[column] for row in DEAL_IN_BY_TURN]
        assert values == sorted(values)


def test_tenpai_tables() -> None:
    assert len(TENPAI_SHARE_BY_TURN) == 19 and TENPAI_SHARE_BY_TURN == tuple(sorted(TENPAI_SHARE_BY_TURN))
    assert [len(column) for column in OPEN_TENPAI_BY_TURN] == [20, 20, 20]
    for calls, column in enumerate(OPEN_TENPAI_BY_TURN, 1):
        known = [v for v in column if v is not None]
        assert all(0 < v < 100 for v in known)
        assert column[calls - 1] is None  # no k-th call before turn k
    # The whole table: its first column is the rate at the call, and a discard from the hand
    # never lowers the rate (more of the hand has moved since the call).
    assert [len(rows) for rows in OPEN_TENPAI_AFTER_HAND_DISCARDS] == [19, 19, 20]
    for rows, column in zip(OPEN_TENPAI_AFTER_HAND_DISCARDS, OPEN_TENPAI_BY_TURN, strict=True):
        assert [row[0] if row else None for row in rows] == list(column[: len(rows)])
        for row in rows:
            assert list(row) == sorted(row) and all(0 < v < 100 for v in row)
    # More calls, more often ready, at every turn the tables share.
    for turn in range(3, 19):
        one, two, three = (column[turn] for column in OPEN_TENPAI_BY_TURN)
        assert one < two < three


def test_the_silent_closed_rates_rise_as_the_wall_empties_and_stay_below_all_players() -> None:
    # mjai-manue's counts, by the live wall's turns left 0..17: a silent closed hand is ready
    # more often the fewer turns are left, and less often than the share of all players (which
    # counts those who declared) after the matching number of discards, 17 less the turns left
    # (with 17 left, before the first discard, the share of all players is published as 0).
    assert len(SILENT_CLOSED_TENPAI) == 18
    rates = [tenpai / total for tenpai, total in SILENT_CLOSED_TENPAI]
    assert all(0 < tenpai < total for tenpai, total in SILENT_CLOSED_TENPAI)
    assert rates == sorted(rates, reverse=True)
    for left, rate in enumerate(rates[:17]):
        assert rate < TENPAI_SHARE_BY_TURN[17 - left] / 100
