"""What a self-play run measured, as plain JSON-able data with 95% intervals.

:func:`build_report` turns a run's results into a dict of strings, ints, floats,
lists, dicts and ``None`` only.  It holds nothing about how the run was played
(no timings, host names, worker counts or backends), so one configuration
gives the same report byte for byte, however it was run, when dumped with
``json.dumps(report, sort_keys=True)``.

Every rate and average is an *estimate*, ``{"value", "ci95", "n"}``:

* a rate (a proportion of ``n`` trials) has the Wilson score interval, which
  stays inside [0, 1] and is sensible for rates near 0 or 1 and for small ``n``;
* an average of ``n`` values has ``mean +- 1.96 * sd / sqrt(n)`` (``sd`` the
  sample standard deviation); with ``n == 1`` the spread is unknown, so
  ``ci95`` is ``None`` rather than a zero-width interval that would claim
  certainty;
* with ``n == 0`` there is nothing to estimate: ``value`` and ``ci95`` are ``None``.

Floats are rounded to 4 decimals.

The layout::

    rules, seed, games, strategies (names in seat order), weights (the advisor's, by field)
    table: exhaustive_draw_rate, deal_in_rate, self_draw_rate, average_turns
    players: one entry per seat:
        seat, strategy, win_rate, deal_in_rate, self_draw_share, tenpai_rate,
        average_tenpai_turn, average_payment,
        average_win_payment (the points of a win: what the other seats pay the
            winner; riichi sticks are not seat payments and are not counted),
        average_han (over the wins whose scoring counts han, riichi's; n 0 otherwise),
        average_fan (over the wins whose scoring counts fans, MCR's, flowers not counted;
            n 0 otherwise),
        riichi_rate (hands with a riichi declaration that stood),
        tenpai_turn_histogram ({"turn": count}, turns as strings, as JSON keys are;
            turn 0: dealt ready),
        shanten_by_turn ([{"turn", "average", "ci95", "hands"}] for turns some hand reached:
            "average" is the mean shanten after that own discard, "hands" how many hands made it)
    by_strategy: {strategy: {seats, and the same rates and averages as a seat's}},
        with the strategy's seats pooled: each of its seats in each game is one trial
    comparisons: for each pair of distinct strategies a and b (in order of first seat):
        a, b, a_seats, b_seats, a_win_rate, b_win_rate (pooled over their seats),
        win_rate_difference ({"value", "ci95"}: a's pooled rate minus b's),
        payment_difference (an estimate: per game, the average payment of a's seats
            minus that of b's, averaged over the games),
        paired_win_difference (an estimate: per game, the hands won per seat of a's seats
            minus that of b's, averaged over the games)

The win-rate interval is the normal approximation for a difference of two
independent proportions.  Seats at one table are not independent (one seat's
win is the others' loss, and pooled seats of one strategy share games), so it
is an approximation, useful to see whether a difference is well outside noise.
The payment and paired win differences are paired by game (both strategies sit
at every table), so their interval, ``mean +- 1.96 sd / sqrt(games)``, needs no
such assumption beyond the games being independent, which they are (each has
its own wall).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from app.core.table.simulator import GameConfig, GameResult

Z_95: Final = 1.96
"""Standard normal quantile of a two-sided 95% interval."""
DECIMALS: Final = 4

Estimate = dict[str, Any]
"""``{"value": float | None, "ci95": [low, high] | None, "n": int}``."""


def wilson_interval(successes: int, trials: int, *, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of ``successes`` in ``trials`` (``trials`` > 0).

    >>> [round(bound, 4) for bound in wilson_interval(5, 10)]
    [0.2366, 0.7634]
    >>> [round(bound, 4) for bound in wilson_interval(0, 10)]
    [0.0, 0.2775]
    """
    if trials <= 0:
        raise ValueError(f"a proportion needs at least one trial, not {trials}")
    share = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (share + z2 / (2 * trials)) / denominator
    half_width = z * math.sqrt(share * (1 - share) / trials + z2 / (4 * trials * trials)) / denominator
    return max(0.0, centre - half_width), min(1.0, centre + half_width)


def proportion(successes: int, trials: int) -> Estimate:
    """The rate of ``successes`` in ``trials`` with its Wilson 95% interval.

    >>> proportion(5, 10)
    {'value': 0.5, 'ci95': [0.2366, 0.7634], 'n': 10}
    >>> proportion(0, 0)
    {'value': None, 'ci95': None, 'n': 0}
    """
    if trials == 0:
        return {"value": None, "ci95": None, "n": 0}
    low, high = wilson_interval(successes, trials)
    return {"value": _rounded(successes / trials), "ci95": [_rounded(low), _rounded(high)], "n": trials}


def mean_estimate(values: Sequence[float]) -> Estimate:
    """The mean of ``values`` with ``mean +- 1.96 * sd / sqrt(n)``; no interval below two values.

    >>> mean_estimate([1, 2, 3, 4])
    {'value': 2.5, 'ci95': [1.2348, 3.7652], 'n': 4}
    >>> mean_estimate([7])
    {'value': 7.0, 'ci95': None, 'n': 1}
    """
    count = len(values)
    if count == 0:
        return {"value": None, "ci95": None, "n": 0}
    mean = statistics.fmean(values)
    if count == 1:
        return {"value": _rounded(mean), "ci95": None, "n": 1}
    half_width = Z_95 * statistics.stdev(values) / math.sqrt(count)
    return {"value": _rounded(mean), "ci95": [_rounded(mean - half_width), _rounded(mean + half_width)], "n": count}


def difference_of_proportions(successes_a: int, trials_a: int, successes_b: int, trials_b: int) -> dict[str, Any]:
    """Rate a minus rate b with the normal-approximation 95% interval (independent samples assumed).

    >>> difference_of_proportions(30, 100, 20, 100)
    {'value': 0.1, 'ci95': [-0.0192, 0.2192]}
    """
    if trials_a == 0 or trials_b == 0:
        return {"value": None, "ci95": None}
    rate_a, rate_b = successes_a / trials_a, successes_b / trials_b
    difference = rate_a - rate_b
    half_width = Z_95 * math.sqrt(rate_a * (1 - rate_a) / trials_a + rate_b * (1 - rate_b) / trials_b)
    return {
        "value": _rounded(difference),
        "ci95": [_rounded(difference - half_width), _rounded(difference + half_width)],
    }


def build_report(config: GameConfig, results: Sequence[GameResult]) -> dict[str, Any]:
    """The report of a run of ``config`` whose hands gave ``results`` (in game order).

    >>> from app.core.table.simulator import GameConfig, GameResult
    >>> config = GameConfig("qiqihar", ("advisor", "advisor", "greedy", "random"), seed=1)
    >>> draw = GameResult(game=0, dealer=0, winner=None, discarder=None, robbed_kong=False,
    ...     kong_replacement=False, payments=(0, 0, 0, 0), tenpai_turn=(3, None, None, None),
    ...     shanten_by_turn=((1, 0, 0), (2, 2, 1), (3, 2, 2), (4, 4, 3)), turns=12, events=None)
    >>> ron = draw._replace(game=1, dealer=1, winner=2, discarder=0, payments=(-8, 0, 8, 0))
    >>> report = build_report(config, [draw, ron])
    >>> report["table"]["deal_in_rate"]["value"], report["players"][2]["win_rate"]
    (0.5, {'value': 0.5, 'ci95': [0.0945, 0.9055], 'n': 2})
    >>> report["players"][0]["shanten_by_turn"][0]
    {'turn': 1, 'average': 1.0, 'ci95': [1.0, 1.0], 'hands': 2}
    >>> [(c["a"], c["b"], c["win_rate_difference"]["value"]) for c in report["comparisons"]]
    [('advisor', 'greedy', -0.5), ('advisor', 'random', 0.0), ('greedy', 'random', 0.5)]
    >>> report["comparisons"][0]["payment_difference"]  # per game: 0, then (-8 + 0) / 2 - 8 = -12
    {'value': -6.0, 'ci95': [-17.76, 5.76], 'n': 2}
    >>> report["comparisons"][0]["paired_win_difference"]  # per game: 0, then 0 / 2 - 1 = -1
    {'value': -0.5, 'ci95': [-1.48, 0.48], 'n': 2}
    """
    seats_of = _seats_by_strategy(config.players)
    return {
        "rules": config.rules,
        "seed": config.seed,
        "games": len(results),
        "strategies": list(config.players),
        "weights": {name: _rounded(value) for name, value in config.weights._asdict().items()},
        "table": _table_statistics(results),
        "players": [_seat_statistics(seat, strategy, results) for seat, strategy in enumerate(config.players)],
        "by_strategy": {
            strategy: {"seats": seats, **_statistics_over(seats, results)} for strategy, seats in seats_of.items()
        },
        "comparisons": _comparisons(seats_of, results),
    }


def paired_changes(
    seats: Sequence[int], baseline: Sequence[GameResult], changed: Sequence[GameResult]
) -> dict[str, Estimate]:
    """How ``seats``' deal-in and win rates moved from ``baseline`` to ``changed``, paired by game.

    Both runs share the run seed, so game ``i`` of each is dealt from the same wall
    (common random numbers): the per-game differences have far less spread than
    two independent rates, and their mean's interval (``mean +- 1.96 sd / sqrt(n)``)
    says whether a change is more than noise.

    >>> from app.core.table.simulator import GameResult
    >>> hand = GameResult(game=0, dealer=0, winner=1, discarder=0, robbed_kong=False, kong_replacement=False,
    ...     payments=(-1, 1, 0, 0), tenpai_turn=(None,) * 4, shanten_by_turn=((),) * 4, turns=1)
    >>> calmer = hand._replace(winner=0, discarder=2, payments=(1, 0, -1, 0))
    >>> paired_changes([0], [hand, hand], [hand, calmer])["deal_in_rate_change"]
    {'value': -0.5, 'ci95': [-1.48, 0.48], 'n': 2}
    """
    if len(baseline) != len(changed):
        raise ValueError(f"paired runs need as many games: {len(baseline)} and {len(changed)}")
    per_seat = len(seats)
    deal_ins = [
        (
            int(after.winner is not None and after.discarder in seats)
            - int(before.winner is not None and before.discarder in seats)
        )
        / per_seat
        for before, after in zip(baseline, changed, strict=True)
    ]
    wins = [
        (int(after.winner in seats) - int(before.winner in seats)) / per_seat
        for before, after in zip(baseline, changed, strict=True)
    ]
    return {"deal_in_rate_change": mean_estimate(deal_ins), "win_rate_change": mean_estimate(wins)}


def _table_statistics(results: Sequence[GameResult]) -> dict[str, Estimate]:
    games = len(results)
    draws = sum(result.winner is None for result in results)
    deal_ins = sum(result.winner is not None and result.discarder is not None for result in results)
    return {
        "exhaustive_draw_rate": proportion(draws, games),
        "deal_in_rate": proportion(deal_ins, games),
        "self_draw_rate": proportion(games - draws - deal_ins, games),
        "average_turns": mean_estimate([result.turns for result in results]),
    }


def _seat_statistics(seat: int, strategy: str, results: Sequence[GameResult]) -> dict[str, Any]:
    turns = (result.tenpai_turn[seat] for result in results)
    tenpai_turns = Counter(turn for turn in turns if turn is not None)
    return {
        "seat": seat,
        "strategy": strategy,
        **_statistics_over([seat], results),
        "tenpai_turn_histogram": {str(turn): tenpai_turns[turn] for turn in sorted(tenpai_turns)},
        "shanten_by_turn": _shanten_by_turn([result.shanten_by_turn[seat] for result in results]),
    }


def _statistics_over(seats: Sequence[int], results: Sequence[GameResult]) -> dict[str, Estimate]:
    """Rates and averages of ``seats`` pooled: each seat in each game is one trial.

    ``deal_in_rate`` counts wins on a discard and robbed kongs; ``self_draw_share``
    is of the wins; the tenpai turn averages over the hands that got ready; the
    win payment and han over the hands won (han: those whose scoring counts han).
    """
    trials = len(results) * len(seats)
    won = [result for result in results if result.winner in seats]
    win_payments = [result.payments[result.winner] for result in won if result.winner is not None]
    self_draws = sum(result.winner in seats and result.discarder is None for result in results)
    deal_ins = sum(result.winner is not None and result.discarder in seats for result in results)
    turns = [result.tenpai_turn[seat] for result in results for seat in seats]
    tenpai_turns = [turn for turn in turns if turn is not None]
    return {
        "win_rate": proportion(len(win_payments), trials),
        "deal_in_rate": proportion(deal_ins, trials),
        "self_draw_share": proportion(self_draws, len(win_payments)),
        "tenpai_rate": proportion(len(tenpai_turns), trials),
        "average_tenpai_turn": mean_estimate(tenpai_turns),
        "average_payment": mean_estimate([result.payments[seat] for result in results for seat in seats]),
        "average_win_payment": mean_estimate(win_payments),
        "average_han": mean_estimate([result.han for result in won if result.han is not None]),
        "average_fan": mean_estimate([result.fan for result in won if result.fan is not None]),
        "riichi_rate": proportion(sum(result.riichi[seat] for result in results for seat in seats), trials),
    }


def _seats_by_strategy(players: Sequence[str]) -> dict[str, list[int]]:
    """Each strategy's seats, strategies in order of their first seat."""
    seats: dict[str, list[int]] = {}
    for seat, strategy in enumerate(players):
        seats.setdefault(strategy, []).append(seat)
    return seats


def _shanten_by_turn(hands: Sequence[Sequence[int]]) -> list[dict[str, Any]]:
    """Average shanten after each own discard, over the hands that made that many discards."""
    longest = max((len(shanten) for shanten in hands), default=0)
    rows = []
    for index in range(longest):
        values = [shanten[index] for shanten in hands if len(shanten) > index]
        estimate = mean_estimate(values)
        rows.append({"turn": index + 1, "average": estimate["value"], "ci95": estimate["ci95"], "hands": len(values)})
    return rows


def _comparisons(seats_of: dict[str, list[int]], results: Sequence[GameResult]) -> list[dict[str, Any]]:
    games = len(results)
    wins_of = {strategy: sum(result.winner in seats for result in results) for strategy, seats in seats_of.items()}
    strategies = list(seats_of)
    comparisons = []
    for index, a in enumerate(strategies):
        for b in strategies[index + 1 :]:
            trials_a, trials_b = games * len(seats_of[a]), games * len(seats_of[b])
            comparisons.append(
                {
                    "a": a,
                    "b": b,
                    "a_seats": seats_of[a],
                    "b_seats": seats_of[b],
                    "a_win_rate": proportion(wins_of[a], trials_a),
                    "b_win_rate": proportion(wins_of[b], trials_b),
                    "win_rate_difference": difference_of_proportions(wins_of[a], trials_a, wins_of[b], trials_b),
                    "payment_difference": mean_estimate(
                        [_seat_mean(result, seats_of[a]) - _seat_mean(result, seats_of[b]) for result in results]
                    ),
                    "paired_win_difference": mean_estimate(
                        [
                            _wins_per_seat(result, seats_of[a]) - _wins_per_seat(result, seats_of[b])
                            for result in results
                        ]
                    ),
                }
            )
    return comparisons


def _seat_mean(result: GameResult, seats: Sequence[int]) -> float:
    """The average payment of ``seats`` in one game."""
    return sum(result.payments[seat] for seat in seats) / len(seats)


def _wins_per_seat(result: GameResult, seats: Sequence[int]) -> float:
    """The hands ``seats`` won in one game (0 or 1: one winner a hand), per seat."""
    return int(result.winner in seats) / len(seats)


def _rounded(value: float) -> float:
    # Adding 0.0 turns -0.0 into 0.0, so a tiny negative never prints as "-0.0".
    return round(float(value), DECIMALS) + 0.0
