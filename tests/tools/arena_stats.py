"""What the arena's games say about the bot: its hands counted from the mjai logs, and its statistics with 95% intervals.

Pure functions of the standard library, so the main test process can import this module
(``tests/table/test_arena_stats.py``, by path) though ``tests/tools/arena.py``, which calls
it, runs under the mjai venv.

**Per hand** (:func:`seat_hands`, from a game's mjai log): a hand is a ``start_kyoku``.  For the
bot's seat: ``won`` (a ``hora`` with ``actor`` the seat), ``self_draw`` (that ``hora`` with
``target`` the seat too), ``dealt_in`` (a ``hora`` with ``target`` the seat and another
``actor``: a double ron on one discard is one deal-in), ``riichi`` (its ``reach_accepted``),
``calls`` (its ``chi``, ``pon`` and ``daiminkan``; an added or closed kan is not a call) and
``delta``, its score change over the hand: its share of the ``hora`` and ``ryukyoku`` deltas
(honba and the riichi sticks on the table are in them) less 1000 for each riichi it declared.
The deposits left on the table at the game's end, which go to the top seat, are in no hand.

**Walls.**  The arena's game g plays wall ``seed + g // n`` with the bot in the n-th seat of its
rotation, so the games of one wall (a duplicate set) are not independent: a deal that favours
one seat is played by the bot from every seat.  The wall is therefore the unit of the intervals:

* a per-game figure (rank, rank points, a place, the final score): when every wall was played
  from the same number of seats (``--games`` a multiple of the seats given), the mean of the
  walls' means (each wall's mean over its games), with Student's t interval on ``walls - 1``
  degrees of freedom, ``mean +- t * sd(wall means) / sqrt(walls)``; otherwise (a wall cut
  short) the same over the games, as if they were independent.  Student's t rather than the
  normal quantile because a run is often tens of walls: with 40, t is 2.023 against 1.96.
* a per-hand rate (wins, deal-ins, self-draws, riichi, calls, points a hand): the ratio of the
  totals, ``r = sum(y) / sum(m)`` over the walls (``y`` the wall's events, ``m`` its hands), with
  the cluster (linearised) standard error
  ``se = sqrt(W / (W - 1) * sum((y - r m)^2)) / sum(m)`` over the W walls and a t interval on
  W - 1 degrees of freedom, clipped to [0, 1] for a proportion.  Walls of equal ``m`` make this
  the t interval of the walls' rates.  Where that cannot be had (one wall) or says nothing (no
  event at all, or every hand one: a zero-width interval), a proportion gets the Wilson score
  interval over the hands as if they were independent.

Each estimate is ``{"value", "ci95", "n", "interval"}``: ``n`` the units the interval is over,
``interval`` how it was made (``"t over 40 walls"``, ``"t over 6 games"``, ``"wilson over 412
hands"``).  No interval (``None``) from a single unit.  Floats are rounded to 4 decimals.

**Reply times** are percentiles by nearest rank: the p-th is the smallest time with at least
p% of the times at or below it.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

#: Rank points per place, first place first: Tenhou-like uma (the phoenix table's, a hanchan at
#: 7-dan), the default of the project's self-play report (``app/selfplay/report.py`` ``RANK_POINTS``).
RANK_POINTS = (90, 45, 0, -135)
#: Two-sided 95%.
CONFIDENCE = 0.95
#: The normal quantile of a two-sided 95% interval (the Wilson interval's).
Z_95 = 1.959964
#: Deposited with a riichi declaration.
RIICHI_STICK = 1000
CALLS = frozenset({"chi", "pon", "daiminkan"})
#: A seat's counts over hands, as :func:`game_tally` sums them.
TALLY_KEYS = (
    "hands",
    "wins",
    "self_draws",
    "deal_ins",
    "riichi",
    "called_hands",
    "calls",
    "points",
    "win_points",
    "deal_in_points",
)
DECIMALS = 4

Record = dict[str, Any]
Estimate = dict[str, Any]


def _rounded(value: float) -> float:
    return round(value, DECIMALS)


# Student's t, exactly, for whole degrees of freedom.


def t_central_probability(t: float, df: int) -> float:
    """P(-t < T < t) for Student's T on ``df`` degrees of freedom (Abramowitz and Stegun 26.7.3-4).

    With ``theta = atan(t / sqrt(df))`` the probability is a finite series in ``cos(theta)^2``.

    >>> round(t_central_probability(12.7062, 1), 4), round(t_central_probability(4.3027, 2), 4)
    (0.95, 0.95)
    >>> round(t_central_probability(1.0, 1), 4)  # the Cauchy: atan(1) / (pi / 2)
    0.5
    """
    if df < 1:
        raise ValueError(f"Student's t needs at least one degree of freedom, not {df}")
    theta = math.atan(abs(t) / math.sqrt(df))
    cos2 = math.cos(theta) ** 2
    series, term = 1.0, 1.0
    if df % 2:  # odd: (2 / pi) (theta + sin cos (1 + 2/3 c^2 + 2*4/(3*5) c^4 + ...)), the sum up to c^(df-3)
        if df == 1:
            return 2 * theta / math.pi
        for k in range(1, (df - 1) // 2):
            term *= 2 * k / (2 * k + 1) * cos2
            series += term
        return 2 / math.pi * (theta + math.sin(theta) * math.cos(theta) * series)
    for k in range(1, df // 2):  # even: sin (1 + 1/2 c^2 + 1*3/(2*4) c^4 + ...), the sum up to c^(df-2)
        term *= (2 * k - 1) / (2 * k) * cos2
        series += term
    return math.sin(theta) * series


def t_quantile(df: int, confidence: float = CONFIDENCE) -> float:
    """The t with ``P(-t < T < t) = confidence`` on ``df`` degrees of freedom, by bisection.

    >>> [round(t_quantile(df), 3) for df in (1, 2, 9, 39, 159)]
    [12.706, 4.303, 2.262, 2.023, 1.975]
    """
    low, high = 0.0, 1.0
    while t_central_probability(high, df) < confidence:
        high *= 2
    for _ in range(80):
        middle = (low + high) / 2
        if t_central_probability(middle, df) < confidence:
            low = middle
        else:
            high = middle
    return (low + high) / 2


# Intervals.


def _estimate(value: float | None, ci95: tuple[float, float] | None, n: int, interval: str | None) -> Estimate:
    return {
        "value": None if value is None else _rounded(value),
        "ci95": None if ci95 is None else [_rounded(ci95[0]), _rounded(ci95[1])],
        "n": n,
        "interval": interval,
    }


def t_mean(values: Sequence[float], unit: str) -> Estimate:
    """The mean of ``values`` (one per ``unit``) with Student's t 95% interval; none from one value.

    >>> t_mean([1, 2, 3], "walls")  # sd 1, se 1 / sqrt(3), t(2) 4.3027
    {'value': 2.0, 'ci95': [-0.4841, 4.4841], 'n': 3, 'interval': 't over 3 walls'}
    >>> t_mean([2.5], "games")
    {'value': 2.5, 'ci95': None, 'n': 1, 'interval': None}
    """
    if not values:
        return _estimate(None, None, 0, None)
    mean = statistics.fmean(values)
    if len(values) == 1:
        return _estimate(mean, None, 1, None)
    half_width = t_quantile(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return _estimate(mean, (mean - half_width, mean + half_width), len(values), f"t over {len(values)} {unit}")


def wilson(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of ``successes`` in ``trials`` (> 0).

    >>> [round(bound, 4) for bound in wilson(5, 10)]
    [0.2366, 0.7634]
    >>> [round(bound, 4) for bound in wilson(0, 10)]
    [0.0, 0.2775]
    """
    share = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (share + z2 / (2 * trials)) / denominator
    half_width = z * math.sqrt(share * (1 - share) / trials + z2 / (4 * trials * trials)) / denominator
    return max(0.0, centre - half_width), min(1.0, centre + half_width)


def clustered_ratio(clusters: Sequence[tuple[float, float]], *, proportion: bool, unit: str = "walls") -> Estimate:
    """``sum(y) / sum(m)`` over clusters ``(y, m)`` with the cluster t 95% interval (see the module).

    ``proportion``: ``y`` counts hands out of ``m`` (the interval is clipped to [0, 1], and the
    Wilson interval over the hands stands in where the clustered one cannot be had or is of
    zero width).  Clusters with ``m == 0`` are left out.

    >>> clustered_ratio([(1, 10), (2, 10), (3, 10)], proportion=True)  # the walls' rates .1 .2 .3
    {'value': 0.2, 'ci95': [0.0, 0.4484], 'n': 3, 'interval': 't over 3 walls'}
    >>> clustered_ratio([(1, 10), (3, 30)], proportion=True)  # two walls, the same rate: Wilson instead
    {'value': 0.1, 'ci95': [0.0396, 0.2305], 'n': 40, 'interval': 'wilson over 40 hands'}
    >>> clustered_ratio([(0, 12), (0, 9)], proportion=True)["ci95"]
    [0.0, 0.1546]
    >>> clustered_ratio([(-8000, 10), (4000, 10)], proportion=False)  # points a hand, over two walls
    {'value': -200.0, 'ci95': [-7823.7228, 7423.7228], 'n': 2, 'interval': 't over 2 walls'}
    """
    kept = [(y, m) for y, m in clusters if m > 0]
    total_y, total_m = sum(y for y, _ in kept), sum(m for _, m in kept)
    if total_m == 0:
        return _estimate(None, None, 0, None)
    ratio = total_y / total_m
    count = len(kept)
    # Every wall at the same rate (checked without division, so exactly for counts): no spread to see.
    uniform = all(y * total_m == total_y * m for y, m in kept)
    if proportion and (count == 1 or uniform):
        hands = round(total_m)
        return _estimate(ratio, wilson(round(total_y), hands), hands, f"wilson over {hands} hands")
    if count == 1:
        return _estimate(ratio, None, 1, None)
    residuals = sum((y - ratio * m) ** 2 for y, m in kept)
    half_width = t_quantile(count - 1) * math.sqrt(count / (count - 1) * residuals) / total_m
    low, high = ratio - half_width, ratio + half_width
    if proportion:
        low, high = max(0.0, low), min(1.0, high)
    return _estimate(ratio, (low, high), count, f"t over {count} {unit}")


def by_wall_mean(games: Sequence[Record], value_of: Any) -> Estimate:
    """The mean of ``value_of(game)`` with its t interval over walls, or over games where walls differ in size.

    >>> games = [{"wall": w, "rank": r} for w, r in [(1, 1), (1, 2), (2, 3), (2, 4), (3, 1), (3, 1)]]
    >>> by_wall_mean(games, lambda g: g["rank"])  # wall means 1.5, 3.5, 1.0
    {'value': 2.0, 'ci95': [-1.2862, 5.2862], 'n': 3, 'interval': 't over 3 walls'}
    >>> by_wall_mean(games[:5], lambda g: g["rank"])["interval"]  # the last wall played from one seat only
    't over 5 games'
    """
    walls: dict[Any, list[float]] = defaultdict(list)
    for game in games:
        walls[game["wall"]].append(value_of(game))
    if len({len(values) for values in walls.values()}) == 1:
        return t_mean([statistics.fmean(values) for values in walls.values()], "walls")
    return t_mean([value_of(game) for game in games], "games")


# Counting a seat's hands in an mjai log.


def seat_hands(events: Iterable[Mapping[str, Any]], seat: int) -> list[Record]:
    """One record per hand of the log (``start_kyoku``) from ``seat``'s side (see the module).

    >>> log = [{"type": "start_game"}, {"type": "start_kyoku"},
    ...     {"type": "pon", "actor": 1, "target": 0, "pai": "F", "consumed": ["F", "F"]},
    ...     {"type": "reach_accepted", "actor": 2},
    ...     {"type": "hora", "actor": 2, "target": 1, "deltas": [0, -5200, 6200, 0]},
    ...     {"type": "hora", "actor": 3, "target": 1, "deltas": [0, -2000, 0, 2000]}, {"type": "end_kyoku"},
    ...     {"type": "start_kyoku"}, {"type": "ryukyoku", "deltas": [1500, -1500, 1500, -1500]}]
    >>> [(h["dealt_in"], h["delta"], h["calls"]) for h in seat_hands(log, 1)]  # a double ron: one deal-in
    [(True, -7200, 1), (False, -1500, 0)]
    >>> seat_hands(log, 2)[0] | {"dealt_in": None}
    {'won': True, 'self_draw': False, 'dealt_in': None, 'riichi': True, 'calls': 0, 'delta': 5200}
    """
    hands: list[Record] = []
    for event in events:
        kind = event["type"]
        if kind == "start_kyoku":
            hands.append({"won": False, "self_draw": False, "dealt_in": False, "riichi": False, "calls": 0, "delta": 0})
            continue
        if not hands:
            continue
        hand = hands[-1]
        actor = event.get("actor")
        if kind == "hora":
            if actor == seat:
                hand["won"] = True
                hand["self_draw"] = hand["self_draw"] or event.get("target") == seat
            elif event.get("target") == seat:
                hand["dealt_in"] = True
        elif kind == "reach_accepted" and actor == seat:
            hand["riichi"] = True
            hand["delta"] -= RIICHI_STICK
        elif kind in CALLS and actor == seat:
            hand["calls"] += 1
        if kind in ("hora", "ryukyoku") and "deltas" in event:
            hand["delta"] += event["deltas"][seat]
    return hands


def game_tally(hands: Sequence[Mapping[str, Any]]) -> Record:
    """A game's counts over its hands (:data:`TALLY_KEYS`); the points are sums of the hands' deltas.

    >>> hands = [{"won": True, "self_draw": True, "dealt_in": False, "riichi": True, "calls": 0, "delta": 7000},
    ...     {"won": False, "self_draw": False, "dealt_in": True, "riichi": False, "calls": 2, "delta": -3900}]
    >>> game_tally(hands)
    {'hands': 2, 'wins': 1, 'self_draws': 1, 'deal_ins': 1, 'riichi': 1, 'called_hands': 1, 'calls': 2, \
'points': 3100, 'win_points': 7000, 'deal_in_points': -3900}
    """
    return {
        "hands": len(hands),
        "wins": sum(h["won"] for h in hands),
        "self_draws": sum(h["self_draw"] for h in hands),
        "deal_ins": sum(h["dealt_in"] for h in hands),
        "riichi": sum(h["riichi"] for h in hands),
        "called_hands": sum(h["calls"] > 0 for h in hands),
        "calls": sum(h["calls"] for h in hands),
        "points": sum(h["delta"] for h in hands),
        "win_points": sum(h["delta"] for h in hands if h["won"]),
        "deal_in_points": sum(h["delta"] for h in hands if h["dealt_in"]),
    }


# Reply times.


def nearest_rank(values: Sequence[float], percent: float) -> float | None:
    """The ``percent``-th percentile of ``values`` by nearest rank; ``None`` for no values.

    >>> milliseconds = list(range(1, 101))
    >>> [nearest_rank(milliseconds, p) for p in (50, 95, 99, 100)]
    [50, 95, 99, 100]
    >>> nearest_rank([3.0, 1.0, 2.0], 50), nearest_rank([], 50)
    (2.0, None)
    """
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(1, math.ceil(percent / 100 * len(ordered))) - 1]


def reply_times(seconds: Sequence[float]) -> Record:
    """Count, median, p95, p99, max and mean of the decisions' reply times, in seconds.

    >>> reply_times([0.02, 0.05, 0.04, 1.2])
    {'decisions': 4, 'median_s': 0.04, 'p95_s': 1.2, 'p99_s': 1.2, 'max_s': 1.2, 'mean_s': 0.3275, 'over_1s': 1}
    """
    return {
        "decisions": len(seconds),
        "median_s": nearest_rank(seconds, 50),
        "p95_s": nearest_rank(seconds, 95),
        "p99_s": nearest_rank(seconds, 99),
        "max_s": max(seconds, default=None),
        "mean_s": _rounded(statistics.fmean(seconds)) if seconds else None,
        "over_1s": sum(1 for s in seconds if s > 1.0),
    }


# The statistics block.


def bot_statistics(
    games: Sequence[Mapping[str, Any]],
    decision_seconds: Sequence[Sequence[float]],
    rank_points: Sequence[float] = RANK_POINTS,
) -> Record:
    """The bot's statistics over ``games``: each ``{"wall", "seat", "rank", "final_score", "tally"}``
    (``tally`` :func:`game_tally`'s), the completed games only; ``decision_seconds`` the reply
    times of the decisions, a list per game.

    ``reply_time`` is over every decision; ``reply_time_after_first`` leaves out each game's
    first, where a bot process may still be warming up (its message starts with
    ``start_kyoku``, which mjai.app allows 10 s).

    >>> def game(wall, seat, rank, wins, deal_ins):
    ...     tally = {key: 0 for key in TALLY_KEYS} | {"hands": 10, "wins": wins, "deal_ins": deal_ins}
    ...     return {"wall": wall, "seat": seat, "rank": rank, "final_score": 25000, "tally": tally}
    >>> games = [game(0, 0, 1, 3, 1), game(0, 1, 2, 2, 1), game(1, 0, 4, 1, 2), game(1, 1, 1, 2, 0)]
    >>> block = bot_statistics(games, [[0.9, 0.05, 0.07], [0.8, 0.06]])
    >>> block["average_rank"]  # wall means 1.5 and 2.5
    {'value': 2.0, 'ci95': [-4.3531, 8.3531], 'n': 2, 'interval': 't over 2 walls'}
    >>> block["rank_points_per_game"]["value"], block["place_rates"][0]["value"]  # (90 + 45 - 135 + 90) / 4
    (22.5, 0.5)
    >>> block["win_rate"]  # (3 + 2) / 20 and (1 + 2) / 20: se .05, t(1) 12.706
    {'value': 0.2, 'ci95': [0.0, 0.8353], 'n': 2, 'interval': 't over 2 walls'}
    >>> block["reply_time"]["max_s"], block["reply_time_after_first"]["max_s"]
    (0.9, 0.07)
    """
    if len(rank_points) != 4:
        raise ValueError(f"rank points are one per place, four of them, not {list(rank_points)}")
    walls: dict[Any, list[Mapping[str, Any]]] = defaultdict(list)
    for g in games:
        walls[g["wall"]].append(g)
    seats_per_wall = sorted({len(of_wall) for of_wall in walls.values()})

    def per_hand(key: str, of: str = "hands", proportion: bool = True) -> Estimate:
        clusters = [
            (sum(g["tally"][key] for g in of_wall), sum(g["tally"][of] for g in of_wall)) for of_wall in walls.values()
        ]
        return clustered_ratio(clusters, proportion=proportion)

    return {
        "games": len(games),
        "walls": len(walls),
        "seats_per_wall": seats_per_wall,
        "hands": sum(g["tally"]["hands"] for g in games),
        "rank_points": list(rank_points),
        "average_rank": by_wall_mean(games, lambda g: g["rank"]),
        "rank_points_per_game": by_wall_mean(games, lambda g: rank_points[g["rank"] - 1]),
        "place_rates": [
            by_wall_mean(games, lambda g, place=place: float(g["rank"] == place)) for place in (1, 2, 3, 4)
        ],
        "average_final_score": by_wall_mean(games, lambda g: g["final_score"]),
        "win_rate": per_hand("wins"),
        "deal_in_rate": per_hand("deal_ins"),
        "self_draw_rate": per_hand("self_draws"),
        "riichi_rate": per_hand("riichi"),
        "call_rate": per_hand("called_hands"),
        "calls_per_hand": per_hand("calls", proportion=False),
        "points_per_hand": per_hand("points", proportion=False),
        "points_per_win": per_hand("win_points", "wins", proportion=False),
        "points_per_deal_in": per_hand("deal_in_points", "deal_ins", proportion=False),
        "reply_time": reply_times([s for of_game in decision_seconds for s in of_game]),
        "reply_time_after_first": reply_times([s for of_game in decision_seconds for s in of_game[1:]]),
    }
