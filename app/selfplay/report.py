"""What a self-play run measured, as plain JSON-able data with 95% intervals.

:func:`build_report` turns a run's games (:class:`~app.core.table.game.GameRecord`, in
run order) into a dict of strings, ints, floats, lists, dicts and ``None`` only.  It holds
nothing about how the run was played (no timings, host names, worker counts or backends), so
one configuration gives the same report byte for byte, however it was run, when dumped with
``json.dumps(report, sort_keys=True)``.

**Positions, not seats.**  A run seats its lineup rotated (:mod:`app.selfplay.runner`): game
``g`` puts ``players[p]`` at seat ``(p - rotation) % seats``, and ``GameRecord.players`` is that
seating.  Every per-player figure is of a lineup *position* ``p`` (the index in ``strategies``;
``"seat"`` in the report, the seat it holds at rotation 0), gathered from whichever seat it held
in each game.

**Hands and games.**  The rates of play (wins, deal-ins, tenpai, payments, han, riichi, the
shanten curve) are per hand, over every hand of every game: each position in each hand is one
trial.  The placement figures are per game: each position in each game is one trial.

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

    rules, seed, length (kyoku, tonpuu or hanchan), duplicate (each game played once per rotation),
    games (game indices played: walls), games_played (games in all: games x seats when duplicate),
    hands (in all the games), rank_points (per place, first place first),
    strategies (names in lineup order), weights (the advisor's, by field)
    table: exhaustive_draw_rate, abortive_draw_rate, deal_in_rate, self_draw_rate (of the hands:
        the four add up to 1), average_turns (discards a hand), average_hands (hands a game)
    players: one entry per lineup position:
        seat (the position), strategy, win_rate, deal_in_rate, self_draw_share, tenpai_rate,
        average_tenpai_turn, average_payment (a hand's score change: the seat's riichi stick
            put down counts against it, sticks won for it),
        average_win_payment (the points of a win: what the other seats pay the winner, honba
            included; riichi sticks are not seat payments and are not counted),
        average_han (over the wins whose scoring counts han, riichi's, the first winner's in a
            double ron; n 0 otherwise),
        average_fan (over the wins whose scoring counts fans: MCR's first winner's, flowers not
            counted; Sichuan's every win, before the cap; n 0 otherwise),
        flush_win_share (Sichuan: the share of the wins that count a flush pattern, 清一色 and
            the patterns built on it; n 0 otherwise),
        riichi_rate (hands with a riichi declaration that stood),
        average_rank, average_rank_points (rank_points of its place), place_rates (one rate per
            place, first place first), average_final_score (the game's final points; under the
            presets played one hand a game, the hand's payments),
        tenpai_turn_histogram ({"turn": count}, turns as strings, as JSON keys are;
            turn 0: dealt ready),
        shanten_by_turn ([{"turn", "average", "ci95", "hands"}] for turns some hand reached:
            "average" is the mean shanten after that own discard, "hands" how many hands made it)
    by_strategy: {strategy: {seats (its positions), and the same rates, averages and placement
        figures as a position's}}, with the strategy's positions pooled
    comparisons: for each pair of distinct strategies a and b (in order of first position):
        a, b, a_seats, b_seats, a_win_rate, b_win_rate (pooled over their positions),
        win_rate_difference ({"value", "ci95"}: a's pooled rate minus b's),
        payment_difference (an estimate, paired by game: per game, a's average payment a hand
            minus b's, averaged over the games),
        paired_win_difference (an estimate, paired by game: per game, the hands won per hand
            and position of a minus b's),
        paired_deal_in_difference (the same for the hands dealt in: a win on the position's
            discard or robbed kong),
        rank_points_difference (an estimate, paired by game: per game, a's average rank points
            minus b's)
    placements: one entry per game played, in run order: game, rotation, hands, and scores
        and ranks (place, 1 first) by lineup position

"Paired by game" pairs by game *index*: the games dealt from the same walls.  Without
``duplicate`` that is one game each; with it, every rotation of the index, so that each
strategy meets each deal from every seat and the difference owes nothing to who was dealt
what (duplicate play).

The win-rate interval is the normal approximation for a difference of two
independent proportions.  Seats at one table are not independent (one seat's
win is the others' loss, and pooled seats of one strategy share games), so it
is an approximation, useful to see whether a difference is well outside noise.
The paired differences' interval, ``mean +- 1.96 sd / sqrt(games)``, needs no such
assumption beyond the games being independent, which they are (each game index has
its own walls).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from app.core.value.sichuan_scoring import FLUSH_PATTERNS
from app.selfplay.errors import InvalidRunOption

if TYPE_CHECKING:
    from app.core.table.game import GameConfig, GameRecord, HandRecord

Z_95: Final = 1.96
"""Standard normal quantile of a two-sided 95% interval."""
DECIMALS: Final = 4

#: Rank points by seats, first place first.  Four seats: Tenhou's at the phoenix table, a
#: hanchan at 7-dan (+90, +45, 0, -135).  Three seats: +90, 0, -135, an assumption kept in the
#: same shape (no points for the middle place), not a checked Tenhou figure; a run may set its own.
RANK_POINTS: Final[Mapping[int, tuple[float, ...]]] = MappingProxyType({4: (90, 45, 0, -135), 3: (90, 0, -135)})

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


def build_report(
    config: GameConfig,
    records: Sequence[GameRecord],
    *,
    duplicate: bool = False,
    rank_points: Sequence[float] | None = None,
) -> dict[str, Any]:
    """The report of a run of ``config`` that played ``records`` (in run order).

    ``rank_points`` (one per place, first place first) defaults to :data:`RANK_POINTS`;
    another length than the seats' is :class:`~app.selfplay.errors.InvalidRunOption`.

    >>> from app.core.table.game import GameConfig, GameRecord, HandRecord
    >>> config = GameConfig("riichi", ("linear", "linear", "greedy", "random"), seed=1)
    >>> draw = HandRecord(game=0, dealer=0, winner=None, discarder=None, winners=(), ending="exhaustive",
    ...     payments=(1500, -1500, 1500, -1500), tenpai_turn=(3, None, 9, None),
    ...     shanten_by_turn=((1, 0, 0), (2, 2, 1), (3, 2, 2), (4, 4, 3)), turns=12, han=None,
    ...     riichi=(False,) * 4, riichi_sticks=0)
    >>> ron = draw._replace(winner=1, discarder=0, winners=(1,), ending="hora", payments=(-3900, 3900, 0, 0),
    ...     han=3, points=(3900,))
    >>> first = GameRecord(0, config.players, hands=[draw], scores=(26500, 23500, 26500, 23500),
    ...     ranks=(1, 3, 2, 4))
    >>> second = GameRecord(1, ("linear", "greedy", "random", "linear"), hands=[ron],
    ...     scores=(21100, 28900, 25000, 25000), ranks=(4, 1, 2, 3), rotation=1)
    >>> report = build_report(config, [first, second])
    >>> report["table"]["deal_in_rate"]["value"], report["players"][2]["win_rate"]
    (0.5, {'value': 0.5, 'ci95': [0.0945, 0.9055], 'n': 2})
    >>> [player["average_rank"]["value"] for player in report["players"]]
    [2.0, 3.5, 1.5, 3.0]
    >>> report["by_strategy"]["linear"]["average_rank_points"]  # places 1, 3, 3, 4
    {'value': -11.25, 'ci95': [-102.1645, 79.6645], 'n': 4}
    >>> [(c["a"], c["b"], c["rank_points_difference"]["value"]) for c in report["comparisons"]][:2]
    [('linear', 'greedy', -78.75), ('linear', 'random', 33.75)]
    """
    seats = len(config.players)
    points = _rank_points(rank_points, seats)
    positions_of = _positions_by_strategy(config.players)
    return {
        "rules": config.rules,
        "seed": config.seed,
        "length": config.length,
        "duplicate": duplicate,
        "games": len({record.game for record in records}),
        "games_played": len(records),
        "hands": sum(len(record.hands) for record in records),
        "rank_points": list(points),
        "strategies": list(config.players),
        "weights": {name: _rounded(value) for name, value in config.weights._asdict().items()},
        "table": _table_statistics(records),
        "players": [
            _position_statistics(position, strategy, records, points)
            for position, strategy in enumerate(config.players)
        ],
        "by_strategy": {
            strategy: {"seats": positions, **_statistics_over(positions, records, points)}
            for strategy, positions in positions_of.items()
        },
        "comparisons": _comparisons(positions_of, records, points),
        "placements": [_placement(record, seats) for record in records],
    }


def default_rank_points(seats: int) -> tuple[float, ...]:
    """The rank points of a table of ``seats`` (:data:`RANK_POINTS`).

    >>> default_rank_points(4), default_rank_points(3)
    ((90, 45, 0, -135), (90, 0, -135))
    """
    return RANK_POINTS[seats]


def paired_changes(
    positions: Sequence[int], baseline: Sequence[GameRecord], changed: Sequence[GameRecord]
) -> dict[str, Estimate]:
    """How ``positions``' deal-in and win rates moved from ``baseline`` to ``changed``, paired by game.

    Both runs share the run seed, so game ``i`` of each is dealt from the same walls
    (common random numbers): the per-game differences have far less spread than
    two independent rates, and their mean's interval (``mean +- 1.96 sd / sqrt(n)``)
    says whether a change is more than noise.  A game's rate is over its hands.

    >>> from app.core.table.game import GameRecord, HandRecord
    >>> hand = HandRecord(game=0, dealer=0, winner=1, discarder=0, winners=(1,), ending="hora",
    ...     payments=(-1000, 1000, 0, 0), tenpai_turn=(None,) * 4, shanten_by_turn=((),) * 4, turns=1,
    ...     han=1, riichi=(False,) * 4, riichi_sticks=0)
    >>> calmer = hand._replace(winner=0, discarder=2, winners=(0,), payments=(1000, 0, -1000, 0))
    >>> game = GameRecord(0, ("linear",) * 4, hands=[hand])
    >>> paired_changes([0], [game, game], [game, GameRecord(1, ("linear",) * 4, hands=[calmer])])["deal_in_rate_change"]
    {'value': -0.5, 'ci95': [-1.48, 0.48], 'n': 2}
    """
    if len(baseline) != len(changed):
        raise ValueError(f"paired runs need as many games: {len(baseline)} and {len(changed)}")
    deal_ins = [
        _share(after, positions, _deals_in) - _share(before, positions, _deals_in)
        for before, after in zip(baseline, changed, strict=True)
    ]
    wins = [
        _share(after, positions, _wins) - _share(before, positions, _wins)
        for before, after in zip(baseline, changed, strict=True)
    ]
    return {"deal_in_rate_change": mean_estimate(deal_ins), "win_rate_change": mean_estimate(wins)}


# -- seats and positions ---------------------------------------------------------------------


def seat_of(record: GameRecord, position: int) -> int:
    """The seat lineup position ``position`` held in ``record``.

    >>> from app.core.table.game import GameRecord
    >>> seat_of(GameRecord(0, ("b", "c", "d", "a"), rotation=1), 0)
    3
    """
    return (position - record.rotation) % len(record.players)


def _seat_hands(positions: Sequence[int], records: Sequence[GameRecord]) -> Iterator[tuple[HandRecord, int]]:
    """Every (hand, seat) of ``positions``: one trial per position and hand."""
    for record in records:
        for position in positions:
            seat = seat_of(record, position)
            for hand in record.hands:
                yield hand, seat


def _wins(hand: HandRecord, seat: int) -> bool:
    return seat in hand.winners


def _deals_in(hand: HandRecord, seat: int) -> bool:
    """Dealt in: a win on the seat's discard (or on its robbed kong)."""
    return bool(hand.winners) and hand.discarder == seat


def _share(record: GameRecord, positions: Sequence[int], happened: Callable[[HandRecord, int], bool]) -> float:
    """The share of ``positions``' hands in one game where ``happened(hand, seat)``."""
    trials = [happened(hand, seat) for hand, seat in _seat_hands(positions, [record])]
    return sum(trials) / len(trials)


def _positions_by_strategy(players: Sequence[str]) -> dict[str, list[int]]:
    """Each strategy's lineup positions, strategies in order of their first position."""
    positions: dict[str, list[int]] = {}
    for position, strategy in enumerate(players):
        positions.setdefault(strategy, []).append(position)
    return positions


def _rank_points(rank_points: Sequence[float] | None, seats: int) -> tuple[float, ...]:
    if rank_points is None:
        return default_rank_points(seats)
    points = tuple(rank_points)
    if len(points) != seats:
        raise InvalidRunOption(
            f"rank points are one per place: {seats} at this table, got {len(points)}", field="rank_points"
        )
    return points


# -- the statistics ----------------------------------------------------------------------------


def _table_statistics(records: Sequence[GameRecord]) -> dict[str, Estimate]:
    hands = [hand for record in records for hand in record.hands]
    count = len(hands)
    endings = Counter(hand.ending for hand in hands)
    deal_ins = sum(hand.ending == "hora" and hand.discarder is not None for hand in hands)
    abortive = count - endings["hora"] - endings["exhaustive"]
    return {
        "exhaustive_draw_rate": proportion(endings["exhaustive"], count),
        "abortive_draw_rate": proportion(abortive, count),
        "deal_in_rate": proportion(deal_ins, count),
        "self_draw_rate": proportion(endings["hora"] - deal_ins, count),
        "average_turns": mean_estimate([hand.turns for hand in hands]),
        "average_hands": mean_estimate([len(record.hands) for record in records]),
    }


def _position_statistics(
    position: int, strategy: str, records: Sequence[GameRecord], points: Sequence[float]
) -> dict[str, Any]:
    turns = (hand.tenpai_turn[seat] for hand, seat in _seat_hands([position], records))
    tenpai_turns = Counter(turn for turn in turns if turn is not None)
    return {
        "seat": position,
        "strategy": strategy,
        **_statistics_over([position], records, points),
        "tenpai_turn_histogram": {str(turn): tenpai_turns[turn] for turn in sorted(tenpai_turns)},
        "shanten_by_turn": _shanten_by_turn(
            [hand.shanten_by_turn[seat] for hand, seat in _seat_hands([position], records)]
        ),
    }


def _statistics_over(
    positions: Sequence[int], records: Sequence[GameRecord], points: Sequence[float]
) -> dict[str, Any]:
    """Rates, averages and placements of ``positions`` pooled.

    Per hand (each position in each hand one trial): ``deal_in_rate`` counts wins on a discard
    and robbed kongs; ``self_draw_share`` is of the wins; the tenpai turn averages over the
    hands that got ready; the win payment over the wins (each winner of a double ron its own),
    the han and fans over the first winners' wins whose scoring counts them.  Per game (each
    position in each game one trial): the places and the final scores.
    """
    hands = list(_seat_hands(positions, records))
    trials = len(hands)
    wins = [(hand, seat) for hand, seat in hands if seat in hand.winners]
    win_points = [hand.points[hand.winners.index(seat)] for hand, seat in wins if hand.points]
    firsts = [hand for hand, seat in wins if seat == hand.winner]
    tenpai_turns = [turn for hand, seat in hands if (turn := hand.tenpai_turn[seat]) is not None]
    games = [(record, seat_of(record, position)) for record in records for position in positions]
    places = [record.ranks[seat] for record, seat in games]
    return {
        "win_rate": proportion(len(wins), trials),
        "deal_in_rate": proportion(sum(_deals_in(hand, seat) for hand, seat in hands), trials),
        "self_draw_share": proportion(sum(hand.discarder is None for hand, _ in wins), len(wins)),
        "tenpai_rate": proportion(len(tenpai_turns), trials),
        "average_tenpai_turn": mean_estimate(tenpai_turns),
        "average_payment": mean_estimate([hand.payments[seat] for hand, seat in hands]),
        "average_win_payment": mean_estimate(win_points),
        "average_han": mean_estimate([hand.han for hand in firsts if hand.han is not None]),
        "average_fan": mean_estimate(
            [hand.fans[hand.winners.index(seat)] for hand, seat in wins if hand.fans]
            if any(hand.fans for hand, _ in wins)
            else [hand.fan for hand in firsts if hand.fan is not None]
        ),
        # Sichuan: the share of this seat's wins that are flushes (清一色 and its family).
        "flush_win_share": proportion(
            sum(
                bool(FLUSH_PATTERNS & set(hand.fan_names[hand.winners.index(seat)]))
                for hand, seat in wins
                if hand.fan_names
            ),
            sum(1 for hand, _ in wins if hand.fan_names),
        ),
        "riichi_rate": proportion(sum(hand.riichi[seat] for hand, seat in hands), trials),
        "average_rank": mean_estimate(places),
        "average_rank_points": mean_estimate([points[place - 1] for place in places]),
        "place_rates": [proportion(places.count(place), len(places)) for place in range(1, len(points) + 1)],
        "average_final_score": mean_estimate([record.scores[seat] for record, seat in games]),
    }


def _shanten_by_turn(hands: Sequence[Sequence[int]]) -> list[dict[str, Any]]:
    """Average shanten after each own discard, over the hands that made that many discards."""
    longest = max((len(shanten) for shanten in hands), default=0)
    rows = []
    for index in range(longest):
        values = [shanten[index] for shanten in hands if len(shanten) > index]
        estimate = mean_estimate(values)
        rows.append({"turn": index + 1, "average": estimate["value"], "ci95": estimate["ci95"], "hands": len(values)})
    return rows


def _by_game(records: Sequence[GameRecord]) -> list[list[GameRecord]]:
    """The records grouped by game index (one each; every rotation of it in a duplicate run), in run order."""
    games: dict[int, list[GameRecord]] = {}
    for record in records:
        games.setdefault(record.game, []).append(record)
    return list(games.values())


class _Tally:
    """One strategy's figures in one game index (all its rotations)."""

    def __init__(self, games: Sequence[GameRecord], positions: Sequence[int], points: Sequence[float]) -> None:
        hands = list(_seat_hands(positions, games))
        self.payment = sum(hand.payments[seat] for hand, seat in hands) / len(hands)
        self.wins = sum(seat in hand.winners for hand, seat in hands) / len(hands)
        self.deal_ins = sum(_deals_in(hand, seat) for hand, seat in hands) / len(hands)
        places = [record.ranks[seat_of(record, position)] for record in games for position in positions]
        self.rank_points = sum(points[place - 1] for place in places) / len(places)


def _comparisons(
    positions_of: dict[str, list[int]], records: Sequence[GameRecord], points: Sequence[float]
) -> list[dict[str, Any]]:
    hands = sum(len(record.hands) for record in records)
    wins_of = {
        strategy: sum(_wins(hand, seat) for hand, seat in _seat_hands(positions, records))
        for strategy, positions in positions_of.items()
    }
    games = _by_game(records)
    tallies = {
        strategy: [_Tally(game, positions, points) for game in games] for strategy, positions in positions_of.items()
    }
    strategies = list(positions_of)
    comparisons = []
    for index, a in enumerate(strategies):
        for b in strategies[index + 1 :]:
            trials_a, trials_b = hands * len(positions_of[a]), hands * len(positions_of[b])
            pairs = list(zip(tallies[a], tallies[b], strict=True))
            comparisons.append(
                {
                    "a": a,
                    "b": b,
                    "a_seats": positions_of[a],
                    "b_seats": positions_of[b],
                    "a_win_rate": proportion(wins_of[a], trials_a),
                    "b_win_rate": proportion(wins_of[b], trials_b),
                    "win_rate_difference": difference_of_proportions(wins_of[a], trials_a, wins_of[b], trials_b),
                    "payment_difference": mean_estimate([ta.payment - tb.payment for ta, tb in pairs]),
                    "paired_win_difference": mean_estimate([ta.wins - tb.wins for ta, tb in pairs]),
                    "paired_deal_in_difference": mean_estimate([ta.deal_ins - tb.deal_ins for ta, tb in pairs]),
                    "rank_points_difference": mean_estimate([ta.rank_points - tb.rank_points for ta, tb in pairs]),
                }
            )
    return comparisons


def _placement(record: GameRecord, seats: int) -> dict[str, Any]:
    """One game's final scores and places, by lineup position."""
    by_position = [seat_of(record, position) for position in range(seats)]
    return {
        "game": record.game,
        "rotation": record.rotation,
        "hands": len(record.hands),
        "scores": [record.scores[seat] for seat in by_position],
        "ranks": [record.ranks[seat] for seat in by_position],
    }


def _rounded(value: float) -> float:
    # Adding 0.0 turns -0.0 into 0.0, so a tiny negative never prints as "-0.0".
    return round(float(value), DECIMALS) + 0.0
