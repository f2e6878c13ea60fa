"""The arena's statistics (tests/tools/arena_stats.py) on fabricated games with answers worked by hand.

The module is a test tool (tests/tools/ is not collected), but it imports only the standard
library, so it is loaded here by path and its doctests are run too.
"""

from __future__ import annotations

import doctest
import importlib.util
import math
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("arena_stats", ROOT / "tests" / "tools" / "arena_stats.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


stats = _load()
Record = dict[str, Any]


def test_the_modules_examples_hold() -> None:
    result = doctest.testmod(stats)
    assert result.attempted > 20 and result.failed == 0


# Student's t.


def t_density_integral(t: float, df: int, steps: int = 20_000) -> float:
    """P(-t < T < t) by Simpson's rule on the density: a slow, obviously right oracle."""
    log_constant = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)

    def density(x: float) -> float:
        return math.exp(log_constant - (df + 1) / 2 * math.log1p(x * x / df))

    width = t / steps
    total = density(0) + density(t)
    total += sum((4 if k % 2 else 2) * density(k * width) for k in range(1, steps))
    return 2 * total * width / 3


@pytest.mark.parametrize("df", [1, 2, 3, 4, 7, 10, 39, 40, 159])
@pytest.mark.parametrize("t", [0.3, 1.0, 2.0, 3.5])
def test_the_t_series_agrees_with_the_density_integrated(df: int, t: float) -> None:
    assert stats.t_central_probability(t, df) == pytest.approx(t_density_integral(t, df), abs=1e-9)


@pytest.mark.parametrize(
    ("df", "printed"),  # the 97.5% points of Student's t as statistics tables print them
    [(1, 12.706), (2, 4.303), (3, 3.182), (4, 2.776), (5, 2.571), (10, 2.228), (20, 2.086), (30, 2.042), (60, 2.000)],
)
def test_the_t_quantile_is_the_tables(df: int, printed: float) -> None:
    assert stats.t_quantile(df) == pytest.approx(printed, abs=0.0005)


def test_the_t_quantile_nears_the_normals_as_the_freedom_grows() -> None:
    quantiles = [stats.t_quantile(df) for df in (5, 50, 500, 2000)]
    assert quantiles == sorted(quantiles, reverse=True)
    assert quantiles[-1] == pytest.approx(stats.Z_95, abs=0.002)


# The hands of a seat, from a log.


def test_a_seats_hands_count_wins_deal_ins_calls_riichi_and_points() -> None:
    log: list[Record] = [
        {"type": "start_game"},
        # Hand 1: seat 0 declares riichi, calls nothing, and wins by self-draw.
        {"type": "start_kyoku"},
        {"type": "reach"},
        {"type": "reach_accepted", "actor": 0},
        {"type": "hora", "actor": 0, "target": 0, "deltas": [9000, -3000, -3000, -3000]},
        {"type": "end_kyoku"},
        # Hand 2: seat 0 pons and opens a kan on discards (two calls), closes a kan (no call), and
        # deals in on its added kan to a robbing double ron (one deal-in).
        {"type": "start_kyoku"},
        {"type": "pon", "actor": 0, "target": 2},
        {"type": "daiminkan", "actor": 0, "target": 1},
        {"type": "ankan", "actor": 0},
        {"type": "kakan", "actor": 0},
        {"type": "chi", "actor": 1, "target": 0},
        {"type": "hora", "actor": 1, "target": 0, "deltas": [-2000, 2000, 0, 0]},
        {"type": "hora", "actor": 3, "target": 0, "deltas": [-7700, 0, 0, 7700]},
        {"type": "end_kyoku"},
        # Hand 3: seat 2 deals in to a double ron one of whose winners is seat 0 (a win, no deal-in).
        {"type": "start_kyoku"},
        {"type": "reach_accepted", "actor": 2},
        {"type": "hora", "actor": 0, "target": 2, "deltas": [3900, 0, -3900, 0]},
        {"type": "hora", "actor": 1, "target": 2, "deltas": [0, 2000 + 1000, -2000, 0]},
        {"type": "end_kyoku"},
        # Hand 4: seat 0 chis, and pays for not being ready at the exhaustive draw.
        {"type": "start_kyoku"},
        {"type": "chi", "actor": 0, "target": 3},
        {"type": "ryukyoku", "deltas": [-1000, -1000, 3000, -1000]},
        {"type": "end_kyoku"},
        {"type": "end_game"},
    ]
    hands = stats.seat_hands(log, 0)
    assert [(h["won"], h["self_draw"], h["dealt_in"], h["riichi"], h["calls"], h["delta"]) for h in hands] == [
        (True, True, False, True, 0, 9000 - 1000),
        (False, False, True, False, 2, -9700),
        (True, False, False, False, 0, 3900),
        (False, False, False, False, 1, -1000),
    ]
    assert stats.game_tally(hands) == {
        "hands": 4,
        "wins": 2,
        "self_draws": 1,
        "deal_ins": 1,
        "riichi": 1,
        "called_hands": 2,
        "calls": 3,
        "points": 8000 - 9700 + 3900 - 1000,
        "win_points": 8000 + 3900,
        "deal_in_points": -9700,
    }
    seat_two = stats.game_tally(stats.seat_hands(log, 2))
    assert (seat_two["deal_ins"], seat_two["riichi"], seat_two["points"]) == (1, 1, -3000 - 5900 - 1000 + 3000)


# The statistics block.


def fabricated_games() -> list[Record]:
    """Three walls, each from all four seats: ranks, and per wall 40, 44 and 36 hands with 12, 8 and 10 wins."""
    ranks = {10: (1, 2, 3, 4), 11: (1, 1, 2, 3), 12: (2, 2, 1, 4)}
    hands = {10: (10, 10, 10, 10), 11: (11, 11, 11, 11), 12: (9, 9, 9, 9)}
    wins = {10: (3, 3, 3, 3), 11: (2, 2, 2, 2), 12: (4, 2, 2, 2)}
    games = []
    for wall in ranks:
        for seat in range(4):
            tally = dict.fromkeys(stats.TALLY_KEYS, 0) | {"hands": hands[wall][seat], "wins": wins[wall][seat]}
            score = 25_000 + 10_000 * (2.5 - ranks[wall][seat])
            games.append({"wall": wall, "seat": seat, "rank": ranks[wall][seat], "final_score": score, "tally": tally})
    return games


def test_average_rank_and_rank_points_have_t_intervals_over_the_walls_means() -> None:
    block = stats.bot_statistics(fabricated_games(), [[]])
    # Wall means of rank 2.5, 1.75, 2.25: mean 2.1667, sd 0.381881, se 0.220479, t(2) 4.302653.
    assert block["average_rank"]["value"] == pytest.approx(13 / 6, abs=1e-4)
    assert block["average_rank"]["ci95"] == pytest.approx([13 / 6 - 0.948646, 13 / 6 + 0.948646], abs=1e-4)
    assert (block["average_rank"]["n"], block["average_rank"]["interval"]) == (3, "t over 3 walls")
    # Rank points by wall (90 45 0 -135): 0, 56.25, 11.25: mean 22.5, sd 29.7647, se 17.1846.
    assert block["rank_points_per_game"]["value"] == 22.5
    assert block["rank_points_per_game"]["ci95"] == pytest.approx([22.5 - 73.9396, 22.5 + 73.9396], abs=1e-3)
    assert [rate["value"] for rate in block["place_rates"]] == pytest.approx([4 / 12, 4 / 12, 2 / 12, 2 / 12], abs=1e-4)
    assert block["average_final_score"]["value"] == pytest.approx(25_000 + 10_000 * (2.5 - 13 / 6), abs=1e-3)
    assert (block["games"], block["walls"], block["seats_per_wall"], block["hands"]) == (12, 3, [4], 120)


def test_per_hand_rates_have_the_cluster_interval_by_wall() -> None:
    block = stats.bot_statistics(fabricated_games(), [[]])
    # 30 wins in 120 hands; residuals 12 - 10, 8 - 11, 10 - 9; se sqrt(3 / 2 * 14) / 120 = 0.038188.
    win_rate = block["win_rate"]
    assert win_rate["value"] == 0.25
    assert win_rate["ci95"] == pytest.approx([0.25 - 0.16431, 0.25 + 0.16431], abs=1e-4)
    assert (win_rate["n"], win_rate["interval"]) == (3, "t over 3 walls")
    # No deal-in at all: the clustered interval would have no width, so Wilson over the 120 hands.
    assert block["deal_in_rate"]["value"] == 0.0
    assert block["deal_in_rate"]["interval"] == "wilson over 120 hands"
    assert block["deal_in_rate"]["ci95"][1] == pytest.approx(stats.wilson(0, 120)[1], abs=1e-4)


def test_the_cluster_interval_of_equal_walls_is_the_t_interval_of_their_rates() -> None:
    clusters = [(3, 20), (7, 20), (4, 20), (9, 20), (5, 20)]
    assert stats.clustered_ratio(clusters, proportion=True) == stats.t_mean([y / m for y, m in clusters], "walls")


def test_a_wall_played_from_fewer_seats_turns_the_game_intervals_to_games() -> None:
    games = fabricated_games()[:10]  # the last wall from two seats only
    block = stats.bot_statistics(games, [[]])
    assert block["seats_per_wall"] == [2, 4]
    ranks = [game["rank"] for game in games]
    assert block["average_rank"] == stats.t_mean(ranks, "games")
    assert block["average_rank"]["interval"] == "t over 10 games"
    assert block["win_rate"]["interval"] == "t over 3 walls"  # hands still cluster by wall, whatever their number


def test_one_wall_gives_no_game_interval_and_wilson_for_the_rates() -> None:
    block = stats.bot_statistics(fabricated_games()[:4], [[]])
    assert block["average_rank"] == {"value": 2.5, "ci95": None, "n": 1, "interval": None}
    assert block["win_rate"]["interval"] == "wilson over 40 hands"
    assert block["win_rate"]["ci95"] == pytest.approx(list(stats.wilson(12, 40)), abs=1e-4)


def test_rank_points_are_one_per_place() -> None:
    with pytest.raises(ValueError, match="one per place"):
        stats.bot_statistics(fabricated_games(), [[]], (90, 0, -90))
    custom = stats.bot_statistics(fabricated_games(), [[]], (1, 0, 0, 0))
    assert custom["rank_points_per_game"]["value"] == pytest.approx(4 / 12, abs=1e-4)


def test_reply_times_are_nearest_rank_percentiles() -> None:
    seconds = [0.001 * k for k in range(1, 1001)]  # 1 ms .. 1 s
    times = stats.reply_times(list(reversed(seconds)))
    assert times["decisions"] == 1000
    assert (times["median_s"], times["p95_s"], times["p99_s"], times["max_s"]) == pytest.approx((0.5, 0.95, 0.99, 1.0))
    assert times["over_1s"] == 0
    assert stats.reply_times([])["median_s"] is None


def test_the_reply_times_after_the_first_leave_out_each_games_first_decision() -> None:
    block = stats.bot_statistics(fabricated_games(), [[1.5, 0.01, 0.02], [1.2], [0.9, 0.03]])
    assert (block["reply_time"]["decisions"], block["reply_time"]["max_s"]) == (6, 1.5)
    assert (block["reply_time_after_first"]["decisions"], block["reply_time_after_first"]["max_s"]) == (3, 0.03)
