"""The advisor's reading of the table (issue #36's search with the reads inside): the read of the
other seats (:func:`app.core.advice.reads.table_read`), the noten payments it expects, pushing
and folding valued against it (:mod:`app.core.advice.actions`), and the ``reader`` strategy at
the table.

Oracles: the noten exchange against every outcome of the other seats' readiness, paid by the
table's own rule (:func:`app.core.table.flow.noten_payments`); the fold against a hand-worked
sequence; properties of the read (probabilities, growth, declarations), and that folding is
never worth more than the best push when no seat can be ready.
"""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.advice.actions import (
    DEFAULT_PARAMETERS,
    contested,
    draw_chance,
    fold_outcomes,
    noten_exchange,
    read_push_outcomes,
)
from app.core.advice.expected_score import LAST_TURN, TurnValue
from app.core.advice.reads import (
    DECLARED_COST,
    MAX_DEAL_IN_COST,
    OPEN_COST_FACTOR,
    READ_TURNS,
    SHOWN_DORA_COST,
    TableRead,
    table_read,
)
from app.core.advice.safety import ClosedRates, Opponent, TileSafety, ready_probability
from app.core.families.registry import TABLES, family_of
from app.core.shape.hand import Meld
from app.core.shape.rules import rule_profile
from app.core.table.decide import replay, seat_view
from app.core.table.flow import GameLength, noten_payments, tenhou_rules
from app.core.table.game import GameConfig, play_game
from app.core.table.machine import TableMachine
from app.core.table.players import PLAYER_KINDS, TableReader, standing_of

chances = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


def _exchange_by_outcomes(ready: list[float], seats: int) -> tuple[float, float]:
    """(paid when noten, received when ready) over every outcome of the others' readiness, by
    the table's own payment rule."""
    rules = tenhou_rules(seats=seats)
    paid = received = 0.0
    for outcome in itertools.product((False, True), repeat=len(ready)):
        weight = math.prod(p if is_ready else 1 - p for p, is_ready in zip(ready, outcome, strict=True))
        paid -= weight * noten_payments((False, *outcome), rules)[0]
        received += weight * noten_payments((True, *outcome), rules)[0]
    return paid, received


@settings(max_examples=60, deadline=None)
@given(st.lists(chances, min_size=2, max_size=3))
def test_the_noten_exchange_is_the_tables_rule_over_every_outcome(ready: list[float]) -> None:
    seats = len(ready) + 1
    total = tenhou_rules(seats=seats).noten_payment
    expected = _exchange_by_outcomes(ready, seats)
    assert noten_exchange(ready, total) == pytest.approx(expected, abs=1e-6)


def _rows(first: int, values: list[tuple[float, float, float]]) -> list[TurnValue]:
    """Search rows from ``first`` on, each later row's measures at most the earlier's (fewer draws)."""
    rows = []
    tenpai, win, score = 1.0, 1.0, float("inf")
    for offset, (t, w, s) in enumerate(values):
        tenpai, win, score = min(tenpai, t), min(win, w, tenpai), min(score, s)
        rows.append(TurnValue(first + offset, tenpai, win, score))
    return rows


@settings(max_examples=80, deadline=None)
@given(
    st.integers(min_value=1, max_value=LAST_TURN),
    st.lists(st.tuples(chances, chances, st.floats(min_value=0, max_value=20_000)), min_size=1, max_size=18),
    st.integers(min_value=0, max_value=3),
    st.lists(st.tuples(chances, chances), min_size=3, max_size=3),
    st.lists(st.lists(chances, min_size=3, max_size=3), min_size=1, max_size=14),
)
def test_folding_is_never_worth_more_than_the_best_push_when_no_seat_can_be_ready(
    turn: int,
    measures: list[tuple[float, float, float]],
    shanten: int,
    tiles: list[tuple[float, float]],
    fold_dangers: list[list[float]],
) -> None:
    nobody = TableRead(turn, ((0.0, 0.0, 0.0),) * READ_TURNS, (5500.0, 5500.0, 8250.0), 0.094)
    rows = _rows(turn, measures[: LAST_TURN - turn + 1])
    safety = [TileSafety(1 - d * r, d * r, d, r, ()) for d, r in tiles]
    folding = fold_outcomes(fold_dangers, nobody, 3000).points
    assert folding == 0.0  # nothing to deal into, nobody to pay
    assert read_push_outcomes(rows, shanten, safety, nobody, 3000).points >= folding


def test_a_fold_worked_by_hand_genbutsu_then_a_five_percent_tile() -> None:
    # Turn 17 of 18: one declared seat (cost 8,000), winning 10% a turn.  Turn 17 throws
    # genbutsu (no loss); the hand survives the others' win with 0.9.  Turn 18 throws a tile
    # dealing in 5% of the time: 0.9 * 0.05 * 8,000 = 360.  The hand then reaches the draw with
    # 0.9 * 0.95 * 0.9 = 0.7695 and pays 1,000 (one seat ready): 769.5.
    declared = TableRead(17, ((1.0, 0.0, 0.0),) * READ_TURNS, (8000.0, 5500.0, 5500.0), 0.1)
    assert fold_outcomes([(0.0, 0.0, 0.0), (0.05, 0.0, 0.0)], declared, 3000).points == pytest.approx(-1129.5)


def test_a_ready_push_worked_by_hand_against_a_declared_seat() -> None:
    # Turn 18 (the last): the discard deals in 10% into the declared seat (cost 8,000): 800.
    # No turn follows.  The hand survives with 0.9 and keeps its line: the others' hazard at turn 18
    # (0.1) leaves 0.9 of the search's 1,000 = 900, and of the draw (0.9, times the 0.5 the line
    # does not win) the noten payment received with one seat ready: 1,500.
    declared = TableRead(18, ((1.0, 0.0, 0.0),) * READ_TURNS, (8000.0, 5500.0, 5500.0), 0.1)
    rows = [TurnValue(18, 1.0, 0.5, 1000.0)]
    line = contested(rows, DEFAULT_PARAMETERS, declared)
    assert line.expected_score == pytest.approx(900.0)
    assert draw_chance(declared) == pytest.approx(0.9)
    safety = [
        TileSafety(0.9, 0.1, 0.1, 1.0, ()),
        TileSafety(1.0, 0.0, 0.0, 0.0, ()),
        TileSafety(1.0, 0.0, 0.0, 0.0, ()),
    ]
    noten = 0.9 * (1 - 0.45) * 1500
    assert read_push_outcomes(rows, 0, safety, declared, 3000).points == pytest.approx(0.9 * (900.0 + noten) - 800.0)


openers = st.builds(
    Opponent,
    river=st.lists(st.integers(min_value=0, max_value=33), max_size=18).map(tuple),
    riichi=st.booleans(),
    melds=st.sampled_from(
        [(), (Meld.of("pon", (31, 31, 31)),), (Meld.of("pon", (4, 4, 4)), Meld.of("chi", (9, 10, 11)))]
    ),
)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(openers, min_size=3, max_size=3),
    st.integers(min_value=1, max_value=18),
    st.lists(st.booleans(), min_size=3, max_size=3),
    st.lists(st.integers(min_value=0, max_value=33), max_size=5),
    st.floats(min_value=0.0, max_value=1.0),
)
def test_the_read_is_probabilities_that_grow_and_costs_that_are_bounded(
    opponents: list[Opponent], turn: int, dealers: list[bool], indicators: list[int], factor: float
) -> None:
    read = table_read(
        opponents,
        turn=turn,
        dealer_offsets=dealers,
        dora_indicators=indicators,
        silent_closed_factor=factor,
        open_factor=1 - factor,
    )
    for index, opponent in enumerate(opponents):
        by_turn = [row[index] for row in read.ready_by_turn]
        assert all(0.0 <= chance <= 1.0 for chance in by_turn)
        assert by_turn == sorted(by_turn)  # a seat only gets nearer
        if opponent.riichi:
            assert set(by_turn) == {1.0}
        published = ready_probability(opponent, len(opponent.river), closed_rates=ClosedRates.ALL_PLAYERS)
        scale = 1.0 if opponent.riichi else (1 - factor) if opponent.melds else factor
        assert by_turn[0] == pytest.approx(min(1.0, published * scale))
    assert all(0.0 < cost <= MAX_DEAL_IN_COST for cost in read.costs)
    for turn_ahead in range(turn, LAST_TURN + 1):
        assert 0.0 <= read.hazard(turn_ahead) <= read.ready_win_per_turn * len(opponents) + 1e-12


def test_a_dealer_with_dora_in_its_melds_costs_more_than_a_closed_guest() -> None:
    shown = Opponent(river=(0,) * 6, melds=(Meld.of("pon", (4, 4, 4)),))  # three 5m, the dora
    closed = Opponent(river=(0,) * 6)
    read = table_read([shown, closed], turn=7, dealer_offsets=[True, False], dora_indicators=[3])
    # 6,900 * 0.45 for an open hand, plus 3 * 0.3 * 6,900 for its dora, times 1.5 as dealer.
    assert (DECLARED_COST, OPEN_COST_FACTOR, SHOWN_DORA_COST) == (6900.0, 0.45, 0.3)
    assert read.costs == pytest.approx((min(MAX_DEAL_IN_COST, (6900 * 0.45 + 3 * 0.3 * 6900) * 1.5), 6900.0))


@pytest.mark.parametrize("seed", [3, 8])
def test_the_reader_plays_whole_hands_that_keep_every_tile(seed: int) -> None:
    assert PLAYER_KINDS["reader"] is TableReader
    config = GameConfig("riichi", ("reader", "advisor", "reader", "advisor"), seed=seed, length="kyoku", audit=True)
    record = play_game(config, 0, TABLES)  # the audit checks every tile after every event
    assert record.hands
    on_the_table = 100_000 - sum(record.scores)  # riichi sticks left at a draw
    assert on_the_table >= 0 and on_the_table % 1000 == 0


def _first_draw(bakaze: str, kyoku: int, rules_name: str = "riichi") -> list[dict]:
    """A self-played hand's events to the dealer's first draw, set in round ``bakaze`` hand ``kyoku``
    (the first seat dealing: hand 1 of its round)."""
    config = GameConfig(rules_name, ("advisor",) * 4, seed=5, length="kyoku")
    events = list(play_game(config, 0, TABLES).events)
    start = next(index for index, event in enumerate(events) if event["type"] == "start_kyoku")
    events[start] = {**events[start], "bakaze": bakaze, "kyoku": kyoku}
    draw = next(index for index, event in enumerate(events) if event["type"] == "tsumo")
    return events[: draw + 1]


@pytest.mark.parametrize(
    ("bakaze", "kyoku", "length", "expected"),
    [
        ("E", 1, "hanchan", 9.4),  # seven scheduled after, and this one again
        ("S", 1, "hanchan", 4.2),
        ("W", 1, "hanchan", 0.3),  # the extension: only this hand again
        ("E", 1, "tonpuu", 4.2),
        ("S", 1, "tonpuu", 0.3),
        ("E", 1, "kyoku", 0.0),  # a one-hand game ends with it
    ],
)
def test_the_seat_sees_the_scores_and_the_hands_left(bakaze: str, kyoku: int, length: str, expected: float) -> None:
    rules = rule_profile("riichi")
    events = _first_draw(bakaze, kyoku)
    machine = TableMachine(rules, family_of(rules), table=tenhou_rules(length=GameLength(length)))
    replay(events, rules, machine=machine, family=family_of(rules))
    view = seat_view(machine, kyoku - 1)
    assert view.scores == tuple(machine.scores) and len(view.scores) == 4
    assert view.hands_after == pytest.approx(expected)
    standing = standing_of(view)
    assert standing is not None and standing.scores[0] == machine.scores[kyoku - 1]


def test_a_table_that_plays_for_no_placement_shows_no_scores() -> None:
    rules = rule_profile("chinese")
    config = GameConfig("chinese", ("advisor",) * 4, seed=5, length="kyoku")
    events = list(play_game(config, 0, TABLES).events)
    draw = next(index for index, event in enumerate(events) if event["type"] == "tsumo")
    machine = replay(events[: draw + 1], rules, family=family_of(rules))
    view = seat_view(machine, events[draw]["actor"])
    assert view.scores == () and standing_of(view) is None
