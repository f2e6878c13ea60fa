"""/act's placement figures: each ranked action's value in expected placement points (issue #36).

A win's is its place when the game ends with it, else the rank model's from the scores after it;
a discard's, a call's and passing's come from the advisor's read of the table
(:func:`app.core.table.decide.win_placement`, :func:`~app.core.table.decide.discard_placements`,
:meth:`~app.core.table.players.Advisor.line_placements`).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from app.core.advice.placement import DEFAULT_UMA, Standing, hands_after, placement_points
from app.core.families.registry import TABLES, family_of
from app.core.shape.rules import rule_profile
from app.core.table.decide import NotADecisionPoint, act
from app.core.table.flow import scheduled_after, tenhou_rules
from app.core.table.game import GameConfig, play_game

_DEALT = [
    ["1m", "1m", "4m", "7m", "1p", "4p", "7p", "2s", "5s", "8s", "E", "S", "N"],
    ["2m", "3m", "4m", "5p", "6p", "7p", "3s", "4s", "5s", "P", "P", "P", "9s"],
    ["1s", "1s", "2p", "3p", "6m", "8m", "9m", "W", "W", "F", "C", "C", "6s"],
    ["2m", "5m", "6m", "8p", "9p", "9p", "3p", "6s", "7s", "7s", "F", "S", "E"],
]


def _ron(bakaze: str, kyoku: int, scores: list[int]) -> tuple[int, Any]:
    """/act's answer to the seat after the dealer (seat ``kyoku - 1``), who threw the 9s it drew:
    the seat may win on it with haku alone, 40 fu, 1,300 from the dealer."""
    dealer = kyoku - 1
    winner = (dealer + 1) % 4
    tehais: list[list[str]] = [[]] * 4
    for offset in range(4):
        tehais[(dealer + offset) % 4] = _DEALT[offset]
    events = [
        {"type": "start_game", "names": ["A", "B", "C", "D"]},
        {
            "type": "start_kyoku",
            "bakaze": bakaze,
            "dora_marker": "W",
            "kyoku": kyoku,
            "honba": 0,
            "kyotaku": 0,
            "oya": dealer,
            "scores": scores,
            "tehais": copy.deepcopy(tehais),
        },
        {"type": "tsumo", "actor": dealer, "pai": "9s"},
        {"type": "dahai", "actor": dealer, "pai": "9s", "tsumogiri": True},
    ]
    rules = rule_profile("riichi")
    return winner, act(events, winner, rules, family=family_of(rules))


def _win(answer: Any) -> tuple[float, float]:
    (item,) = [item for item in answer.ranked if item[0]["type"] == "hora"]
    return item[1], item[3]


def test_a_win_that_ends_the_game_is_worth_its_place() -> None:
    # South 4, seat 0 last with 24,000 and seat 1 past the 30,000 that ends the game: the 1,300
    # from the dealer (seat 3) ends it with seat 0 second (25,300), seat 3 last (21,700).
    winner, answer = _ron("S", 4, [24_000, 31_000, 22_000, 23_000])
    assert winner == 0
    assert _win(answer) == (1300.0, DEFAULT_UMA[4][1]) == (1300.0, 45.0)


def test_an_early_win_is_worth_the_rank_models_figure_with_the_hands_left() -> None:
    # East 1, all even: after seat 1's 1,300 from the dealer the game goes on to East 2, with the
    # six scheduled hands after it; the rank model reads the scores after the win.
    winner, answer = _ron("E", 1, [25_000] * 4)
    assert winner == 1
    order = (1, 2, 3, 0)  # from the winner, in play order
    hands = 1.0 + hands_after(scheduled_after(0, 2, tenhou_rules()), True)
    assert hands == pytest.approx(9.1)
    expected = placement_points(Standing((25_000.0,) * 4, hands, order, DEFAULT_UMA[4]), (1300.0, 0.0, 0.0, -1300.0))
    value, placement = _win(answer)
    assert value == 1300.0 and placement == pytest.approx(expected, abs=1e-6)
    # A little above the mean of 0: a small win with a game ahead.
    assert 0.0 < placement < 10.0


def test_every_placement_figure_is_within_the_uma_and_discards_have_them() -> None:
    # One seeded tonpuu of four advisors, every fourth decision point of every seat: a figure is
    # never outside the worst and best places, most discards near tenpai have one, and riichi
    # and kans have one wherever they have a figure in points.
    rules = rule_profile("riichi")
    record = play_game(GameConfig("riichi", ("advisor",) * 4, seed=11, length="tonpuu", record_events=True), 0, TABLES)
    events = list(record.events)
    low, high = min(DEFAULT_UMA[4]), max(DEFAULT_UMA[4])
    by_kind: dict[str, list[int]] = {}
    for index in range(1, len(events) + 1, 4):
        for seat in range(4):
            try:
                answer = act(events[:index], seat, rules, family=family_of(rules))
            except NotADecisionPoint:
                continue
            for action, value, _, placement in answer.ranked:
                counts = by_kind.setdefault(action["type"], [0, 0])
                counts[0] += 1
                if placement is not None:
                    counts[1] += 1
                    assert low <= placement <= high
                    assert value is not None  # a placement figure only beside a figure in points
                if action["type"] in {"reach", "ankan", "kakan"}:
                    # Riichi and kans: a placement figure wherever there is one in points.
                    assert (placement is None) == (value is None), (action, value)
    asked, placed = by_kind["dahai"]
    assert placed > asked / 2
    assert by_kind["reach"][1] >= 1


def test_no_placement_figure_where_the_table_plays_for_none() -> None:
    # Chinese rules play one hand for points, with no rank model.
    rules = rule_profile("chinese")
    record = play_game(GameConfig("chinese", ("advisor",) * 4, seed=2, length="kyoku", record_events=True), 0, TABLES)
    events = list(record.events)
    seen = 0
    for index in range(1, min(len(events), 60) + 1):
        for seat in range(4):
            try:
                answer = act(events[:index], seat, rules, family=family_of(rules))
            except NotADecisionPoint:
                continue
            seen += 1
            assert all(placement is None for *_, placement in answer.ranked)
    assert seen > 10


def test_a_kan_is_valued_and_placed_beside_the_discard_it_is_weighed_against() -> None:
    # Seeded tonpuu 5, the point where seat 0 (one-shanten, another seat in riichi) may add a kan
    # of green dragons: the kan's figures stand on the best discard's, moved by what the kan adds
    # over it.  The advisor throws the dragon: against a riichi it declares no kan before its
    # hand is ready (a rule of thumb: the kan's line carries no deal-in risk, docs/table.md).
    rules = rule_profile("riichi")
    record = play_game(GameConfig("riichi", ("advisor",) * 4, seed=5, length="tonpuu", record_events=True), 0, TABLES)
    answer = act(list(record.events)[:634], 0, rules, family=family_of(rules))
    (kan,) = [item for item in answer.ranked if item[0]["type"] == "kakan"]
    assert answer.action["type"] == "dahai"
    chosen = answer.ranked[0]
    assert chosen[0] == answer.action and chosen[1] is not None and chosen[3] is not None
    assert kan[1] is not None and "not declared" in kan[2] and kan[2][-1].endswith("over the best discard")
    assert kan[3] is not None and min(DEFAULT_UMA[4]) <= kan[3] <= max(DEFAULT_UMA[4])
    # One kan more and one draw more: the same hand's outlook, a little apart in placement.
    assert abs(kan[3] - chosen[3]) < 5.0
