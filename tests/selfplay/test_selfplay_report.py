"""The report's statistics against values computed by hand, and its determinism."""

from __future__ import annotations

import ast
import json
import math
from pathlib import Path

import pytest

from app.core.table.simulator import GameConfig, GameResult, play_game
from app.selfplay.report import (
    build_report,
    difference_of_proportions,
    mean_estimate,
    proportion,
    wilson_interval,
)
from app.selfplay.summary import format_summary, format_sweep

PLAYERS = ("advisor", "advisor", "greedy", "random")
CONFIG = GameConfig("qiqihar", PLAYERS, seed=11)


#: A hand nobody won, where nothing happened: each test hand changes what it needs.
BLANK = GameResult(
    game=0,
    dealer=0,
    winner=None,
    discarder=None,
    robbed_kong=False,
    kong_replacement=False,
    payments=(0, 0, 0, 0),
    tenpai_turn=(None, None, None, None),
    shanten_by_turn=((), (), (), ()),
    turns=0,
    events=None,
)


def _result(game: int, **fields) -> GameResult:
    return BLANK._replace(game=game, dealer=game % 4, **fields)


#: Four hands whose statistics are worked out by hand in the tests below:
#: a draw, a self-draw by seat 0, seat 2 winning on seat 0's discard, and seat 1
#: robbing seat 3's added kong.  Seat 0 declared riichi in the first two (its stick
#: stayed on the table in the draw), seat 2 in the first; the last win counts no han.
HANDS = [
    _result(
        0,
        tenpai_turn=(3, None, 5, None),
        shanten_by_turn=((2, 1, 0, 0), (3,), (2,), (4,)),
        turns=40,
        riichi=(True, False, True, False),
        riichi_sticks=2,
    ),
    _result(
        1,
        winner=0,
        han=3,
        riichi=(True, False, False, False),
        riichi_sticks=1,
        payments=(9, -3, -3, -3),
        tenpai_turn=(4, None, None, None),
        shanten_by_turn=((1, 0), (3,), (2,), (4,)),
        turns=20,
    ),
    _result(
        2,
        winner=2,
        discarder=0,
        han=1,
        payments=(-6, 0, 6, 0),
        tenpai_turn=(None, 2, 6, None),
        shanten_by_turn=((3, 3, 2), (1,), (1,), (4,)),
        turns=30,
    ),
    _result(
        3,
        winner=1,
        discarder=3,
        robbed_kong=True,
        payments=(0, 6, 0, -6),
        tenpai_turn=(None, 3, None, None),
        shanten_by_turn=((2,), (0,), (3,), (5,)),
        turns=10,
    ),
]


@pytest.fixture(scope="module")
def report() -> dict:
    return build_report(CONFIG, HANDS)


# Wilson 95% intervals worked out by hand from
# (p + z^2/2n +- z * sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n), z = 1.96.
@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        (5, 10, 0.2366, 0.7634),  # centre 0.5, half-width 1.96 * 0.18602 / 1.38416
        (0, 10, 0.0, 0.2775),  # centre = half-width = 0.19208 / 1.38416
        (10, 10, 0.7225, 1.0),
        (1, 4, 0.0456, 0.6994),  # centre 0.73020 / 1.9604, half-width 1.96 * 0.32696 / 1.9604
    ],
)
def test_wilson_interval_known_values(successes, trials, low, high):
    assert [round(bound, 4) for bound in wilson_interval(successes, trials)] == [low, high]


@pytest.mark.parametrize("trials", [1, 2, 7, 40, 1000])
def test_wilson_bounds_solve_the_score_equation(trials):
    # The Wilson bounds are the p with |p_hat - p| = z * sqrt(p(1-p)/n): check each bound
    # against that equation rather than against the closed form it was coded from.
    for successes in range(trials + 1):
        share = successes / trials
        for bound in wilson_interval(successes, trials):
            if bound in (0.0, 1.0):
                continue  # clamped at the edge of [0, 1]
            assert (share - bound) ** 2 == pytest.approx(1.96**2 * bound * (1 - bound) / trials, abs=1e-12)
        low, high = wilson_interval(successes, trials)
        assert 0 <= low <= share <= high <= 1


def test_wilson_needs_a_trial():
    with pytest.raises(ValueError, match="at least one trial"):
        wilson_interval(0, 0)


def test_mean_interval_by_hand():
    # mean 25, sample sd sqrt(500/3) = 12.9099, half-width 1.96 * 12.9099 / 2 = 12.6517
    assert mean_estimate([40, 20, 30, 10]) == {"value": 25.0, "ci95": [12.3483, 37.6517], "n": 4}
    assert mean_estimate([5, 5, 5]) == {"value": 5.0, "ci95": [5.0, 5.0], "n": 3}


def test_estimates_without_enough_data():
    assert mean_estimate([3]) == {"value": 3.0, "ci95": None, "n": 1}
    assert mean_estimate([]) == {"value": None, "ci95": None, "n": 0}
    assert proportion(0, 0) == {"value": None, "ci95": None, "n": 0}


def test_difference_of_proportions_by_hand():
    # 0.25 - 0: half-width 1.96 * sqrt(0.25 * 0.75 / 8) = 0.30006
    assert difference_of_proportions(2, 8, 0, 4) == {"value": 0.25, "ci95": [-0.0501, 0.5501]}


def test_header(report):
    assert (report["rules"], report["seed"], report["games"]) == ("qiqihar", 11, 4)
    assert report["strategies"] == list(PLAYERS)
    assert report["weights"] == {"shanten": 10.0, "ukeire": 0.8, "safety": 1.2, "dora": 1.5, "honors": 0.6}


def test_table_rates(report):
    table = report["table"]
    assert table["exhaustive_draw_rate"] == proportion(1, 4)
    assert table["deal_in_rate"] == proportion(2, 4)  # a discard and a robbed kong
    assert table["self_draw_rate"] == proportion(1, 4)
    assert table["average_turns"] == mean_estimate([40, 20, 30, 10])


def test_seat_statistics(report):
    seat = report["players"][0]
    assert (seat["seat"], seat["strategy"]) == (0, "advisor")
    assert seat["win_rate"] == proportion(1, 4)
    assert seat["deal_in_rate"] == proportion(1, 4)
    assert seat["self_draw_share"] == proportion(1, 1)
    assert seat["tenpai_rate"] == proportion(2, 4)
    # turns 3 and 4: sd 0.7071, half-width 1.96 * 0.7071 / sqrt(2) = 0.98
    assert seat["average_tenpai_turn"] == {"value": 3.5, "ci95": [2.52, 4.48], "n": 2}
    assert seat["average_payment"] == mean_estimate([0, 9, -6, 0])
    assert seat["average_win_payment"] == {"value": 9.0, "ci95": None, "n": 1}
    assert seat["average_han"] == {"value": 3.0, "ci95": None, "n": 1}
    assert seat["riichi_rate"] == proportion(2, 4)
    # Seat 1's one win counts no han: no han to average.
    assert report["players"][1]["average_han"] == {"value": None, "ci95": None, "n": 0}
    assert report["players"][2]["average_han"] == {"value": 1.0, "ci95": None, "n": 1}
    assert seat["tenpai_turn_histogram"] == {"3": 1, "4": 1}
    # The robbed kong counts as seat 3's deal-in; seat 1 won it, not by self-draw.
    assert report["players"][3]["deal_in_rate"] == proportion(1, 4)
    assert report["players"][1]["self_draw_share"] == proportion(0, 1)
    assert report["players"][3]["self_draw_share"] == {"value": None, "ci95": None, "n": 0}


def test_shanten_by_turn_counts_the_hands_that_reached_each_turn(report):
    rows = report["players"][0]["shanten_by_turn"]
    assert [(row["turn"], row["average"], row["hands"]) for row in rows] == [
        (1, 2.0, 4),  # 2, 1, 3, 2
        (2, 1.3333, 3),  # 1, 0, 3
        (3, 1.0, 2),  # 0, 2
        (4, 0.0, 1),
    ]
    assert rows[-1]["ci95"] is None


def test_strategies_pool_their_seats(report):
    advisors = report["by_strategy"]["advisor"]
    assert advisors["seats"] == [0, 1]
    assert advisors["win_rate"] == proportion(2, 8)
    assert advisors["deal_in_rate"] == proportion(1, 8)
    assert advisors["average_tenpai_turn"] == mean_estimate([3, 4, 2, 3])
    assert advisors["average_win_payment"] == mean_estimate([9, 6])
    assert advisors["average_han"] == mean_estimate([3])  # seat 1's win counts no han
    assert advisors["riichi_rate"] == proportion(2, 8)
    # A strategy with one seat: its pooled numbers are that seat's.
    greedy_seat = {key: value for key, value in report["players"][2].items() if key in report["by_strategy"]["greedy"]}
    assert greedy_seat == {k: v for k, v in report["by_strategy"]["greedy"].items() if k != "seats"}


def test_comparisons_cover_every_pair_of_strategies(report):
    pairs = [(c["a"], c["b"]) for c in report["comparisons"]]
    assert pairs == [("advisor", "greedy"), ("advisor", "random"), ("greedy", "random")]
    advisor_random = report["comparisons"][1]
    assert (advisor_random["a_seats"], advisor_random["b_seats"]) == ([0, 1], [3])
    assert advisor_random["win_rate_difference"] == difference_of_proportions(2, 8, 0, 4)
    assert report["comparisons"][0]["win_rate_difference"]["value"] == 0.0


def test_payment_differences_are_paired_by_game(report):
    """Per game, the mean payment of a's seats minus b's: advisors (0, 1) against random (3)
    are 0, (9 - 3) / 2 + 3, (-6 + 0) / 2 - 0 and (0 + 6) / 2 + 6 in the four hands."""
    advisor_random = report["comparisons"][1]
    assert advisor_random["payment_difference"] == mean_estimate([0, 6, -3, 9])
    assert "advisor - random: +3.0 (" in format_summary(report)


def test_a_three_seat_report_has_three_seats():
    config = GameConfig("sanma", ("advisor", "greedy", "advisor"), seed=5)
    report = build_report(config, [play_game(config, game) for game in range(6)])
    assert [player["seat"] for player in report["players"]] == [0, 1, 2]
    assert report["by_strategy"]["advisor"]["seats"] == [0, 2]
    assert sum(p["average_payment"]["value"] for p in report["players"]) == pytest.approx(0, abs=4e-4)
    wins = sum(p["win_rate"]["value"] for p in report["players"])
    assert wins + report["table"]["exhaustive_draw_rate"]["value"] == pytest.approx(1.0, abs=1e-3)


def test_one_strategy_has_nothing_to_compare():
    config = CONFIG._replace(players=("greedy",) * 4)
    assert build_report(config, HANDS)["comparisons"] == []


def test_report_is_plain_json_and_deterministic():
    config = GameConfig("riichi", ("advisor", "greedy", "heuristic", "random"), seed=2)
    results = [play_game(config, game) for game in range(6)]
    report = build_report(config, results)
    dumped = json.dumps(report, sort_keys=True)
    assert json.loads(dumped) == report  # only JSON types: nothing changes in a round trip
    again = build_report(config, [play_game(config, game) for game in range(6)])
    assert json.dumps(again, sort_keys=True) == dumped
    rates = report["table"]
    shares = [rates[name]["value"] for name in ("exhaustive_draw_rate", "deal_in_rate", "self_draw_rate")]
    assert math.isclose(sum(shares), 1.0, abs_tol=2e-4)
    assert sum(p["average_payment"]["value"] for p in report["players"]) == pytest.approx(0, abs=4e-4)


def test_summary_texts(report):
    summary = format_summary(report)
    assert "seat  strategy  win rate (95% CI)" in summary
    assert "0     advisor   25.0% (4.6-69.9)" in summary
    assert "exhaustive draws 25.0%" in summary
    assert "advisor - random: +25.0 points (-5.0 to +55.0)" in summary
    sweep = format_sweep("safetyWeight", [0.5, 2.0], [report, report])
    header = sweep.splitlines()[2]
    for column in ("safetyWeight", "avg tenpai turn", "deal-in rate", "avg han", "avg points/win", "advisor win rate"):
        assert column in header
    assert sweep.splitlines()[4].split()[:5] == ["0.5", "3.0", "12.5%", "3.00", "7.50"]


def test_selfplay_imports_no_web_stack():
    forbidden = {"fastapi", "starlette", "pydantic", "pydantic_settings", "uvicorn", "httpx"}
    package = Path(__file__).resolve().parents[2] / "app" / "selfplay"
    for module in package.glob("*.py"):
        roots = set()
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                roots.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                roots.add(node.module.split(".")[0])
        assert not roots & forbidden, f"{module.name} imports {sorted(roots & forbidden)}"


def test_paired_win_differences_count_each_game_once(report):
    # HANDS: a draw, seat 0 self-draws, seat 2 wins on seat 0's discard, seat 1 robs a kong.
    # Per game, advisors (seats 0, 1) win 0, 1/2, 0, 1/2 a seat; greedy (seat 2) 0, 0, 1, 0.
    advisor_greedy = report["comparisons"][0]
    assert (advisor_greedy["a"], advisor_greedy["b"]) == ("advisor", "greedy")
    assert advisor_greedy["paired_win_difference"] == mean_estimate([0, 0.5, -1, 0.5])
    assert "hands won per seat, differences paired by game (95% CI)" in format_summary(report)


def test_mcr_reports_average_fans_in_place_of_han():
    config = GameConfig("mcr", ("advisor", "greedy", "advisor", "greedy"), seed=3)
    fans = [_result(0, winner=2, discarder=1, payments=(-8, -32, 48, -8), fan=16), _result(1, fan=None)]
    fans.append(_result(2, winner=0, discarder=None, payments=(60, -20, -20, -20), fan=12))
    report = build_report(config, fans)
    assert report["players"][0]["average_fan"] == {"value": 12.0, "ci95": None, "n": 1}
    assert report["by_strategy"]["advisor"]["average_fan"] == mean_estimate([16, 12])
    assert report["players"][1]["average_fan"]["n"] == 0
    summary = format_summary(report)
    assert "avg fan" in summary and "avg han" not in summary and "advisor: the fan planner" in summary
    assert "0     advisor   33.3% (6.2-79.2)" in summary and "12.00    60.00" in summary


def test_han_reports_keep_the_han_column(report):
    assert "avg han" in format_summary(report) and "avg fan" not in format_summary(report)
    assert all(player["average_fan"]["n"] == 0 for player in report["players"])
