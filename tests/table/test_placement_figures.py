"""/act's placement figures: each ranked action's value in expected placement points (issue #36).

A win's is its place when the game ends with it, else the rank model's from the scores after it;
a discard's, a call's and passing's are the outcomes of its figure in points through the rank
model (:func:`app.core.table.decide.win_placement`, :func:`~app.core.table.decide.discard_placements`,
:meth:`~app.core.table.players.Advisor.line_placements`).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from app.core.advice.actions import HandOutcomes
from app.core.advice.placement import DEFAULT_UMA, Standing, hands_after, placement_points
from app.core.families.registry import TABLES, family_of
from app.core.shape.rules import rule_profile
from app.core.table.decide import NotADecisionPoint, act, decide, replay, seat_view
from app.core.table.flow import scheduled_after, tenhou_rules
from app.core.table.game import GameConfig, play_game
from app.core.table.mjai import kind_of
from app.core.table.players import PLAYER_KINDS, Advisor, PlacementAdvisor, standing_of

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


def test_a_discards_outcomes_are_its_figure_in_points() -> None:
    # Seeded tonpuu 11 of four advisors, every third draw: each discard the advisor gives a figure
    # in points has outcomes (its wins, its deal-ins) whose points are that figure, with nobody
    # declared (open seats charged) and against a riichi (the push), and the placement figure the
    # ranking shows is those outcomes through the rank model.
    rules = rule_profile("riichi")
    family = family_of(rules)
    record = play_game(GameConfig("riichi", ("advisor",) * 4, seed=11, length="tonpuu", record_events=True), 0, TABLES)
    advisor = Advisor()
    machine = None
    checked = {"calm": 0, "against a riichi": 0, "open seats charged": 0}
    for index, event in enumerate(record.events):
        machine = replay([event], rules, family=family, machine=machine, first=index)
        if event["type"] != "tsumo" or index % 3:
            continue
        view = seat_view(machine, event["actor"])
        standing = standing_of(view)
        assert standing is not None
        ranked = advisor.rank(view)
        placed = advisor.placements(view, [candidate for candidate in ranked if candidate.expected is not None])
        threatened = any(opponent.riichi for opponent in view.opponents)
        for candidate in ranked:
            figure = advisor.discard_value(view, candidate)
            outcomes = advisor.discard_outcomes(view, candidate)
            assert (figure is None) == (outcomes is None)
            if figure is None or outcomes is None:
                continue
            assert outcomes.points == pytest.approx(figure[0], rel=1e-9, abs=1e-6)
            assert 0.0 <= outcomes.win + sum(outcomes.deal_in) <= 1.0 + 1e-12
            assert placed[id(candidate)] == pytest.approx(outcomes.placement(standing, ()), abs=1e-9)
            checked["against a riichi" if threatened else "calm"] += 1
            checked["open seats charged"] += not threatened and any(outcomes.deal_in)
    assert min(checked.values()) >= 10, checked


def test_a_game_ahead_places_discards_as_their_points_do() -> None:
    # At East 1 with all even the rank model is near linear in the seat's points: among the
    # discards of the same chance of winning and dealing in, placement follows their points.
    standing = Standing((25_000.0,) * 4, 8.0, (0, 1, 2, 3), DEFAULT_UMA[4])
    nothing = (0.0, 0.0, 0.0)
    values = [HandOutcomes(0.3, points, nothing, nothing, 0, 0, 0, 0) for points in (2_000.0, 4_000.0, 8_000.0)]
    placed = [outcomes.placement(standing, ()) for outcomes in values]
    assert placed == sorted(placed) and placed[0] < placed[-1]
    # A deal-in costs placement as it costs points; the rest of the hand moves nothing.
    dealing = HandOutcomes(0.3, 4_000.0, (0.1, 0.0, 0.0), (8_000.0, 0.0, 0.0), 0, 0, 0, 0)
    assert dealing.placement(standing, ()) < values[1].placement(standing, ())
    assert HandOutcomes(0.0, 0.0, nothing, nothing, 0, 0, 0, 0).placement(standing, ()) == pytest.approx(
        placement_points(standing, (0.0,) * 4)
    )


def test_the_placer_throws_the_discard_worth_most_in_placement() -> None:
    # A seeded tonpuu of four placers (every tile audited after every event), asked again at
    # every other draw: its discard is the one its placement figures put first; against a riichi,
    # the fold's tile where no push is worth more than folding, which moves nothing.
    assert PLAYER_KINDS["placer"] is PlacementAdvisor
    rules = rule_profile("riichi")
    family = family_of(rules)
    config = GameConfig("riichi", ("placer",) * 4, seed=3, length="tonpuu", record_events=True, audit=True)
    record = play_game(config, 0, TABLES)
    placer = PlacementAdvisor()
    machine = None
    seen = {"push": 0, "fold": 0}
    for index, event in enumerate(record.events):
        machine = replay([event], rules, family=family, machine=machine, first=index)
        if event["type"] != "tsumo" or index % 2:
            continue
        view = seat_view(machine, event["actor"])
        ranked = placer.rank(view)
        valued = [candidate for candidate in ranked if candidate.expected is not None]
        if not any(candidate.expected and candidate.expected.expected_score > 0 for candidate in valued):
            continue  # no discard worth any points: the rules of thumb order them
        placed = placer.placements(view, valued)
        best = max(placed.values())
        if id(ranked[0]) in placed and placed[id(ranked[0])] == pytest.approx(best, abs=1e-6):
            seen["push"] += 1
            continue
        standing = standing_of(view)
        assert standing is not None and any(opponent.riichi for opponent in view.opponents)
        assert best <= placement_points(standing, (0.0,) * 4)
        seen["fold"] += 1
    assert seen["push"] >= 20 and seen["fold"] >= 1, seen


def test_the_placers_calls_and_riichi_follow_its_placement_figures() -> None:
    # A seeded hanchan of four placers asked at every point where a call or riichi is legal: a call
    # its figures take is worth more in placement than passing and no less than another call; a
    # pass its figures choose leaves no call worth more than passing; a riichi declared is worth
    # more in placement than the same discard dama (its line's over the dama line's).
    rules = rule_profile("riichi")
    family = family_of(rules)
    config = GameConfig("riichi", ("placer",) * 4, seed=4, length="hanchan", record_events=True)
    record = play_game(config, 0, TABLES)
    placer = PlacementAdvisor()
    machine = None
    seen = {"call": 0, "pass": 0, "riichi": 0}
    for index, event in enumerate(record.events):
        machine = replay([event], rules, family=family, machine=machine, first=index)
        for seat in range(4):
            kinds = {action.kind for action in machine.legal_actions(seat)}
            if not kinds & {"chi", "pon", "reach"}:
                continue
            decision = decide(machine, seat, placer)
            by_kind: dict[str, list[Any]] = {}
            for item in decision.ranked:
                by_kind.setdefault(item.action.kind, []).append(item)
            if "reach" in kinds and decision.action.kind == "reach":
                (reach,) = by_kind["reach"]
                dama = next(item for item in by_kind["dahai"] if kind_of(item.action.pai or 0) == decision.riichi_tile)
                assert reach.placement is not None and dama.placement is not None
                assert reach.placement > dama.placement
                seen["riichi"] += 1
            calls = [item for kind in ("chi", "pon") for item in by_kind.get(kind, ()) if item.placement is not None]
            passing = next((item for item in by_kind.get("none", ()) if item.placement is not None), None)
            if not calls or passing is None:
                continue
            chosen = decision.ranked[0]
            if chosen.action.kind in ("chi", "pon") and "the call is worth more than passing" in chosen.reasons:
                assert chosen.placement > passing.placement
                assert all(chosen.placement >= call.placement for call in calls)
                seen["call"] += 1
            elif chosen.action.kind == "none" and "passing is worth more than any call" in chosen.reasons:
                assert all(call.placement <= passing.placement for call in calls)
                seen["pass"] += 1
    assert seen["call"] >= 1 and seen["pass"] >= 5 and seen["riichi"] >= 1, seen
