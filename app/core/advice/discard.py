"""Which tile to discard: every distinct discard of a 3n+2 hand, scored and explained.

The score is the linear model of seed 000 (section 4.1), with its parameter table
(section 4.4) as the default weights::

    score = - shanten_weight * shanten          (syantenWeight 10.0)
            + ukeire_weight  * ukeire_count / 4 (advanceWeight  0.8)
            + safety_weight  * safety_score     (safetyWeight   1.2)
            + dora_weight    * dora             (doraWeight     1.5)
            + honors_weight  * honors           (honorsWeight   0.6)

Each term, for the hand after the discard:

``shanten``
    The exact shanten (:meth:`Checker.discards <app.core.shape.engine.Checker.discards>`).
``ukeire_count / 4``
    Unseen copies of the tiles whose draw lowers the shanten, in units of one whole
    tile kind (four copies).  The seed counts acceptance by iterating the 34 kinds;
    dividing the copy count by four gives that number when every copy is unseen,
    and keeps the seed's stated balance: ten points for one shanten outweigh all
    but a 50-copy acceptance edge (12.5 kinds), so the default ranking is shanten
    first, as Tenhou's 牌理 is.  Set the ``ukeire`` weight to 3.2 to score per copy.
    Unseen = 4 minus copies in the 14-tile hand, the melds, ``visible``, the dora
    indicators and every opponent's river and melds (the discarded tile counts as
    seen, as the HTTP contract says).
``safety_score``
    ``safety`` is the probability that no opponent can win on the tile
    (:mod:`app.core.advice.safety`; 1 when no opponent is described).  The score reads it
    as ``safety_score = 1 - (1 - safety) / DANGER_PER_SAFETY_UNIT``: 1 for a safe
    tile, one unit less per 0.04 of deal-in probability.  The unit prices a deal-in
    in the score's own currency (ours): ten points are one shanten, and dealing in
    loses the hand's chances and pays for another's win, about four shanten's worth,
    so a danger ``d`` should cost about ``40 d`` points; at the default weight 1.2 that
    is ``1.2 d / 0.03``, and we round the unit up to 0.04 (a fresh middle tile
    against a declared hand at turn 9, danger 0.128, costs 3.8 points: 19 ukeire
    copies, not yet a shanten).  Read as a bare probability, safety differences of a
    few hundredths never outweigh one ukeire copy, and the seed's weights 0.5, 1.2
    and 2.0 played alike in self-play; on this scale they trade acceptance for
    safety in the direction of the seed's table (see docs/selfplay.md's self-play
    results).  Very dangerous tiles score below zero.
``dora``
    Dora kept in the hand and melds: each indicator names the next tile of its suit
    (9 -> 1), winds East -> South -> West -> North -> East, dragons White -> Green
    -> Red -> White; two indicators of one tile count twice.  A red five (``0`` in
    an mpsz hand) counts one; discarding a five gives up a red one only when every
    copy held is red.
``honors``
    What the honours kept are worth toward a hand value: a pair counts 0.5 (it can
    be called into a triplet) and three or more 1, times 1 for a dragon (a value
    tile for every seat) and 0.5 for a wind (a value tile for some seats only).
    When the seat and round winds are known (``value_winds``), a wind counts once
    for each of them it is (a double wind twice) and not at all otherwise.
    A lone honour is worth nothing; wildcards are not counted (their worth is the
    ukeire they bring).

Wildcards are valued for what they stand for: the engine counts every copy as a
missing tile filled, so discarding one costs shanten or ukeire, and its score
shows it.

Candidates come sorted best first: by score, then lower shanten, more ukeire,
lower tile.

**The expected-score model** (``model=DiscardModel.EXPECTED_SCORE``, for rules the
value model supports: :func:`app.core.advice.expected_score.supports`) ranks instead by what a
discard is worth in points over the rest of the hand
(:func:`~app.core.advice.expected_score.expected_scores`: tenpai and win probability and
expected score by an exact search that swaps and steps back, wins valued by the riichi
scorer), less the expected cost of dealing in when opponents are given::

    value = expected_score - danger * (expected_score + DEAL_IN_POINTS)

``danger`` is ``1 - safety``: dealing in loses the hand's own expectation and pays about
``DEAL_IN_POINTS``.  Ties (equal values to 1e-6 points) go to the discard that keeps more
value (dora, then honour value), then the safer one, then the one whose tile connects
least with the rest (an isolated honour before an isolated terminal before a middle
tile), then lower shanten, more ukeire, lower tile.  The linear score is still computed
for every candidate.  A hand more than ``MAX_VALUE_SHANTEN`` from tenpai is ranked by the
linear model (a four-shanten search would need millions of states), and so is every hand under rules without a
value model; :class:`ValueSearch` says which model ranked and how the search went.

>>> from app.core.shape.hand import Hand
>>> from app.core.shape.rules import rule_profile
>>> from app.core.shape.tiles import format_tile, parse_mpsz
>>> hand = Hand.from_tiles(parse_mpsz("123m456p789s1122z5z"))
>>> ranked = evaluate_discards(hand, rule_profile("riichi"), dora_indicators=[30])  # 4z: East is dora
>>> [(format_tile(c.tile), c.shanten, c.ukeire_count, c.dora, c.honors, round(c.score, 2)) for c in ranked[:2]]
[('5z', 0, 4, 2, 0.5, 5.3), ('1m', 1, 11, 2, 0.5, -3.3)]
>>> ranked[-1].reasons[2:]
('gives up 1 dora', 'keeps 1 dora', 'breaks a pair or triplet of 1z (honour value 0.25)')
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache, partial
from operator import itemgetter
from typing import Any, Final, NamedTuple, Protocol

from app.core.advice import sichuan_value
from app.core.advice.expected_score import (
    DEFAULT_EXTRA,
    DEFAULT_MAX_STATES,
    FIRST_TURN,
    LAST_TURN,
    DiscardValue,
    ExpectedScores,
    SearchStop,
    expected_scores,
    supports,
)
from app.core.advice.lookahead import Analysis, LookaheadResult, lookahead
from app.core.advice.mcr_targets import Plan, planner_for
from app.core.advice.safety import (
    ClosedRates,
    InvalidOpponent,
    OpenRates,
    Opponent,
    TileSafety,
    assess,
    combined_safety,
    defence_rules,
    passed_after_riichi,
)
from app.core.errors import TenpaiError, TooManyCopies
from app.core.shape.engine import Checker, TileCount
from app.core.shape.hand import MAX_CONCEALED, Hand
from app.core.shape.rules import RuleProfile
from app.core.shape.tiles import (
    DRAGONS,
    EAST,
    NUM_TILE_KINDS,
    SOUTH,
    Counts,
    Tile,
    counts_from_tiles,
    dora_table,
    format_tile,
)
from app.core.shape.void_suit import forced_discards, format_suit
from app.core.value.scoring import MINIMUM_FANS

UKEIRE_UNIT: Final = 4
"""Copies per unit of the ukeire term: the score counts acceptance in whole tile kinds."""
DANGER_PER_SAFETY_UNIT: Final = 0.04
"""Deal-in probability that costs one unit of the safety term (see ``safety_score``)."""
MAX_OPPONENTS: Final = 3
MAX_WEIGHT: Final = 1e9
"""Largest weight magnitude: scores stay finite (and JSON numbers) whatever the weights."""
DEFAULT_LOOKAHEAD_BUDGET: Final = 20_000
"""Default work budget of the lookahead, in states, shared equally by the candidates
(a state costs about 0.2 ms: a two-shanten hand needs tens to hundreds, a four-shanten one thousands)."""
MAX_LOOKAHEAD_BUDGET: Final = 200_000
"""The most states one question's lookahead may evaluate, whatever it asks."""
MAX_VALUE_SHANTEN: Final = 3
"""Farthest from tenpai a hand the expected-score model ranks by default: with its default
detour the compiled search takes about 0.4 s at the median for a three-shanten hand (40,000 to
210,000 states), and a four-shanten hand would need millions of states; beyond it the linear
model ranks.  A question without detours may ask for more (:attr:`DiscardQuestion.value_shanten`)."""
DEAL_IN_POINTS: Final = 5_500.0
"""Points an assumed deal-in pays (a rough average riichi or dama hand, honba aside)."""
DEFAULT_VALUE_BUDGET: Final = DEFAULT_MAX_STATES
"""States the expected-score search may build for one question."""


class DiscardModel(StrEnum):
    """What ranks the discards."""

    #: Expected points over the rest of the hand, less the expected cost of dealing in.
    EXPECTED_SCORE = "expected_score"
    #: Seed 000's linear score (shanten, ukeire, safety, dora, honours).
    LINEAR = "linear"
    #: Where a win needs fans (MCR): the fan planner's distance to the nearest pattern worth
    #: the floor, then the unseen tiles that bring it nearer (app/core/advice/mcr_targets.py).
    FAN_PLAN = "fan_plan"


class ExpectedValue(NamedTuple):
    """A candidate under the expected-score model."""

    tenpai_probability: float
    win_probability: float
    #: Expected points from the discard's turn to the last.
    expected_score: float
    #: ``danger * (expected_score + DEAL_IN_POINTS)``: 0 without opponents.
    deal_in_cost: float
    #: ``expected_score - deal_in_cost``: what the ranking reads.
    value: float
    #: The turns searched, the discard's first.
    first_turn: int
    last_turn: int
    #: The search's per-turn measures and whether a red five was the tile thrown.
    detail: DiscardValue
    #: What ``expected_score`` counts: riichi "points", or Sichuan "base points" (a win's multiplier).
    unit: str = "points"


class ValueSearch(NamedTuple):
    """Which model ranked the candidates and, for the expected score, how its search went."""

    model: DiscardModel
    #: Why the linear model ranked when the expected score was asked for (None otherwise).
    fallback: str | None = None
    first_turn: int | None = None
    last_turn: int | None = None
    states: int = 0
    complete: bool = True
    stopped_by: SearchStop | None = None

    @classmethod
    def of(cls, found: ExpectedScores) -> ValueSearch:
        """How an expected-score search (riichi's or Sichuan's) went."""
        return cls(
            DiscardModel.EXPECTED_SCORE,
            None,
            found.first_turn,
            found.last_turn,
            found.states,
            found.complete,
            found.stopped_by,
        )


#: Honour value of holding c copies, before the per-kind factor.
_HONOR_COPIES_VALUE: Final = (0.0, 0.0, 0.5, 1.0, 1.0)
#: Per-kind factor: dragons are value tiles for everyone, a wind for some seats.
_DRAGON_FACTOR: Final = 1.0
_WIND_FACTOR: Final = 0.5


class InvalidWeight(TenpaiError):
    """A score weight that is not a finite number."""

    code = "invalid_weight"


class Weights(NamedTuple):
    """The five weights of the score (seed 000, section 4.4)."""

    shanten: float = 10.0
    ukeire: float = 0.8
    safety: float = 1.2
    dora: float = 1.5
    honors: float = 0.6

    def validated(self) -> Weights:
        """These weights, or :class:`InvalidWeight` naming the first that is not finite.

        >>> Weights(safety=float("nan")).validated()
        Traceback (most recent call last):
        ...
        app.core.advice.discard.InvalidWeight: weight safety is nan; weights are finite numbers
        """
        for name, value in zip(self._fields, self, strict=True):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise InvalidWeight(f"weight {name} is {value!r}; weights are finite numbers", field=f"weights.{name}")
            if abs(value) > MAX_WEIGHT:
                raise InvalidWeight(
                    f"weight {name} is {value!r}; weights lie within +-{MAX_WEIGHT:g}", field=f"weights.{name}"
                )
        return self


DEFAULT_WEIGHTS: Final = Weights()


class DiscardOptions(NamedTuple):
    """Extra analyses, off by default (each costs milliseconds)."""

    #: Draws that keep the shanten but widen the ukeire, and the average ukeire after a draw.
    improvements: bool = False
    #: For one-shanten candidates: the share of ukeire draws that reach a good-shape tenpai.
    good_shape: bool = False
    #: Probability of tenpai and of a win within the remaining draws (exact search).
    lookahead: bool = False
    #: Draws the lookahead plays; None: 18 minus ``turn`` (at least 1), or 6 without a turn.
    lookahead_draws: int | None = None
    #: States the lookahead may evaluate, shared equally by the candidates (capped by ``MAX_LOOKAHEAD_BUDGET``).
    lookahead_budget: int = DEFAULT_LOOKAHEAD_BUDGET


DEFAULT_OPTIONS: Final = DiscardOptions()


class ScoreComponents(NamedTuple):
    """Each term's contribution to the score (weight times value); they sum to it."""

    shanten: float
    ukeire: float
    safety: float
    dora: float
    honors: float


class Improvement(NamedTuple):
    """A draw that keeps the shanten and, with the best discard after it, widens the ukeire."""

    tile: Tile
    remaining: int
    ukeire_after: int


class Improvements(NamedTuple):
    """Improvement draws of one candidate."""

    tiles: tuple[Improvement, ...]
    #: Unseen copies that are improvement draws.
    count: int  # type: ignore[assignment]  # shadows tuple.count on purpose: the field is public
    #: Average ukeire after any draw that does not lower the shanten, weighted by unseen
    #: copies, playing the best discard (the drawn tile itself if nothing is better).
    average_ukeire: float


class Candidate(NamedTuple):
    """One distinct discard, its score and everything the score is made of."""

    tile: Tile
    shanten: int
    ukeire: tuple[TileCount, ...]
    ukeire_count: int
    safety: float
    dora: int
    honors: float
    score: float
    #: The weights the score was made with.
    weights: Weights
    #: Safety against each opponent, in the order they were given.
    safety_by_opponent: tuple[TileSafety, ...]
    #: Shanten above the best candidate's (0 for the best).
    shanten_loss: int
    is_wildcard: bool
    #: Dora given up by this discard.
    dora_discarded: int
    #: Honour value given up by this discard.
    honors_discarded: float
    improvements: Improvements | None = None
    good_shape: float | None = None
    lookahead: LookaheadResult | None = None
    #: Under the expected-score model: the candidate's value (None under the linear model).
    expected: ExpectedValue | None = None
    #: Under the fan-plan model: the plan after this discard (None otherwise).
    fan_plan: Plan | None = None
    #: Under rules with a void suit (定缺): the suit (0 m, 1 p, 2 s) when this tile is of it.
    #: While the hand holds one, the rules make it throw them first: only they are candidates.
    void_suit: int | None = None

    @property
    def components(self) -> ScoreComponents:
        """Each term's contribution; they add up to ``score`` (in this order, exactly)."""
        return score_terms(self.weights, self.shanten, self.ukeire_count, self.safety, self.dora, self.honors)

    @property
    def safety_score(self) -> float:
        """``safety`` as the score reads it: 1 when safe, one unit less per 0.04 of deal-in probability.

        >>> from app.core.shape.rules import rule_profile
        >>> from app.core.shape.tiles import parse_mpsz
        >>> candidate = evaluate_discards(Hand.from_tiles(parse_mpsz("123m456p789s1122z5z")), rule_profile("riichi"))[0]
        >>> candidate.safety, candidate.safety_score, round(candidate._replace(safety=0.968).safety_score, 6)
        (1.0, 1.0, 0.2)
        """
        return safety_score(self.safety)

    @property
    def reasons(self) -> tuple[str, ...]:
        """The score in words, one short sentence per term that matters.

        >>> from app.core.shape.hand import Hand
        >>> from app.core.shape.rules import rule_profile
        >>> from app.core.shape.tiles import parse_mpsz
        >>> hand = Hand.from_tiles(parse_mpsz("123m456p78s99s11z7z5z"))
        >>> wildcard = next(c for c in evaluate_discards(hand, rule_profile("qiqihar")) if c.tile == 33)
        >>> wildcard.reasons
        ('shanten 1, 1 above the best discard', '20 ukeire copies over 7 kinds', '7z is a wildcard: kept, it stands for any tile the hand lacks')
        """
        name = format_tile(self.tile)
        shanten = f"shanten {self.shanten}"
        shanten += ", the best possible" if self.shanten_loss == 0 else f", {self.shanten_loss} above the best discard"
        kinds = len(self.ukeire)
        copies = self.ukeire_count
        lines = [
            shanten,
            f"{copies} ukeire cop{'y' if copies == 1 else 'ies'} over {kinds} kind{'' if kinds == 1 else 's'}",
        ]
        value = self.expected
        if value is not None:
            digits = 0 if value.unit == "points" else 2  # riichi points are hundreds, base points a few
            worth = (
                f"expected {value.expected_score:.{digits}f} {value.unit} by turn {value.last_turn}: win "
                f"{value.win_probability:.1%}, tenpai {value.tenpai_probability:.1%}"
            )
            if value.deal_in_cost:
                worth += f", less {value.deal_in_cost:.{digits}f} for the risk of dealing in"
            lines.insert(0, worth)
        if self.void_suit is not None:
            lines.insert(
                0,
                f"{name} is of the void suit {format_suit(self.void_suit)} (定缺): the rules make the hand throw "
                "its void tiles before any other, so only they are candidates",
            )
        if self.is_wildcard:
            lines.append(f"{name} is a wildcard: kept, it stands for any tile the hand lacks")
        if self.dora_discarded:
            lines.append(f"gives up {self.dora_discarded} dora")
        if self.dora:
            lines.append(f"keeps {self.dora} dora")
        if self.honors_discarded:
            lines.append(f"breaks a pair or triplet of {name} (honour value {self.honors_discarded:g})")
        for index, verdict in enumerate(self.safety_by_opponent):
            why = ", ".join(verdict.reasons)
            lines.append(f"opponent {index}: deals in with probability {verdict.danger:.3f} ({why})")
        return tuple(lines)


def safety_score(safety: float) -> float:
    """A probability of not dealing in, as the score reads it (see the module notes)."""
    return 1.0 - (1.0 - safety) / DANGER_PER_SAFETY_UNIT


def score_terms(
    weights: Weights, shanten: int, ukeire_count: int, safety: float, dora: float, honors: float
) -> ScoreComponents:
    """The linear model's terms, weight times value; the score is their sum, in this order.

    The one place the formula is written (the module notes give it in words).

    >>> terms = score_terms(DEFAULT_WEIGHTS, 1, 24, 1.0, 1, 1.5)
    >>> [round(term, 6) for term in terms], round(sum(terms), 6)
    ([-10.0, 4.8, 1.2, 1.5, 0.9], -1.6)
    """
    w_shanten, w_ukeire, w_safety, w_dora, w_honors = weights
    return _make_components(
        (
            -w_shanten * shanten,
            w_ukeire / UKEIRE_UNIT * ukeire_count,
            w_safety * safety_score(safety),
            w_dora * dora,
            w_honors * honors,
        )
    )


@dataclass(frozen=True, slots=True)
class DiscardQuestion:
    """A 3n+2 hand to discard from, and everything about its situation that the advice reads.

    ``visible`` holds tiles seen that no other field lists: each physical tile is given
    once, in the hand, a meld, ``visible``, ``dora_indicators`` or an opponent's river or
    melds.  More than four copies in all raises :class:`~app.core.errors.TooManyCopies`
    naming the field where the count went over (``opponents[1].river``).  ``red_fives``
    lists the red fives held concealed (5m, 5p or 5s, one entry each).  ``value_winds``
    lists the seat and round winds when known (see ``honors`` in the module notes).

    ``model`` picks the ranking (see the module notes).  ``seat_wind`` (South when None)
    and ``round_wind`` value the wins of the expected-score search; ``value_budget``
    bounds its states, ``value_shanten`` how far from tenpai a hand it ranks.
    """

    hand: Hand
    rules: RuleProfile
    visible: Counts | None = None
    dora_indicators: Sequence[Tile] = ()
    opponents: Sequence[Opponent] = ()
    turn: int | None = None
    weights: Weights = DEFAULT_WEIGHTS
    options: DiscardOptions = DEFAULT_OPTIONS
    red_fives: Sequence[Tile] = ()
    value_winds: tuple[Tile, ...] | None = None
    model: DiscardModel = DiscardModel.EXPECTED_SCORE
    seat_wind: Tile | None = None
    round_wind: Tile = EAST
    value_budget: int = DEFAULT_VALUE_BUDGET
    #: Detours per path the riichi expected-score search allows (its ``extra``; see
    #: :mod:`~app.core.advice.expected_score`): one by default, as mahjong-cpp's.
    value_detours: int = DEFAULT_EXTRA
    #: Farthest from tenpai a hand the expected score ranks (farther: the linear model).  Past
    #: :data:`MAX_VALUE_SHANTEN` only a search without detours stays within its budget.
    value_shanten: int = MAX_VALUE_SHANTEN
    #: Whether the danger model reads the dora (a dora deals in more often), each opponent's
    #: ``value_winds`` and ``passed_since_discard`` (same-turn furiten), and a silent closed
    #: opponent by the silent hands' own tenpai rate (:class:`~app.core.advice.safety.ClosedRates`),
    #: and an opponent with calls by the fitted read (:class:`~app.core.advice.safety.OpenRates`);
    #: False keeps the model before them (the ``near`` advisor).
    danger_reads: bool = True
    #: Under rules with a void suit (定缺), the hand's (0 m, 1 p, 2 s); None: the best suit to void.
    void_suit: int | None = None
    #: Sanma: norths the seat has set aside (kita), each a dora of the expected-score search's wins.
    nuki: int = 0
    #: The value model of a rule family whose hands no model here values (the expected score
    #: ranks by it); None: the rules' own (riichi's, Sichuan's) or none.
    value_model: ValueModel | None = None


class ValueModel(Protocol):
    """A rule family's value model for the expected-score ranking: hashable, and equal exactly
    when it values alike (it is part of an answer's cache key)."""

    #: Draws a hand has from its first turn.
    @property
    def draws(self) -> int: ...

    #: States one search may analyse at most.
    @property
    def max_states(self) -> int: ...

    #: What an expected value is in (``points``, ``base points``).
    @property
    def unit(self) -> str: ...

    #: What dealing in costs, in ``unit``: the weight of a candidate's danger.
    @property
    def deal_in(self) -> float: ...

    def __hash__(self) -> int: ...

    def discard_values(
        self,
        hand: Hand,
        checker: Checker,
        unseen: Counts,
        *,
        tiles: Iterable[Tile],
        draws: int,
        max_states: int,
        deadline: float | None,
        cancelled: Callable[[], bool] | None,
    ) -> ExpectedScores:
        """Each of ``tiles`` discarded from the 3n+2 ``hand``, valued within ``draws`` draws."""
        ...


def _value_model(question: DiscardQuestion, rules: RuleProfile) -> ValueModel | None:
    """The value model that ranks a hand's discards in its scorer's points: the one its family
    brings with the question, or Sichuan's under the Sichuan profile; None for the riichi model."""
    if question.value_model is not None:
        return question.value_model
    return sichuan_value.SICHUAN_VALUE if sichuan_value.supports(rules) else None


def evaluate_discards(hand: Hand, rules: RuleProfile, **situation: Any) -> list[Candidate]:
    """Every distinct discard of a 3n+2 ``hand``, scored, best first.

    ``situation`` takes the fields of :class:`DiscardQuestion` by name (an unknown one is a
    ``TypeError``), with the linear model by default here, while ``POST /discard`` asks for
    the expected score where the rules allow it; ``deadline`` and ``cancelled`` bound the
    searches as :func:`advise` says.

    >>> from app.core.shape.rules import rule_profile
    >>> from app.core.shape.tiles import parse_mpsz
    >>> [format_tile(c.tile) for c in evaluate_discards(Hand.from_tiles(parse_mpsz("123m456p789s1z234m5z")),
    ...                                                  rule_profile("riichi"))[:2]]
    ['1z', '5z']
    """
    situation.setdefault("model", DiscardModel.LINEAR)
    return advise_discards(hand, rules, **situation)[0]


def advise_discards(
    hand: Hand,
    rules: RuleProfile,
    *,
    deadline: float | None = None,
    cancelled: Callable[[], bool] | None = None,
    **situation: Any,
) -> tuple[list[Candidate], ValueSearch]:
    """:func:`advise` on a :class:`DiscardQuestion` made of ``hand``, ``rules`` and ``situation``
    (its fields by name; the expected score ranks by default).

    >>> from app.core.shape.rules import rule_profile
    >>> from app.core.shape.tiles import parse_mpsz
    >>> ranked, search = advise_discards(Hand.from_tiles(parse_mpsz("123m456p789s1z234m5z")), rule_profile("riichi"))
    >>> [(format_tile(c.tile), round(c.expected.expected_score)) for c in ranked[:3] if c.expected]
    [('1m', 889), ('4m', 889), ('1z', 745)]
    >>> search.model.value, search.complete, (search.first_turn, search.last_turn)
    ('expected_score', True, (1, 18))
    """
    return advise(DiscardQuestion(hand, rules, **situation), deadline=deadline, cancelled=cancelled)


def advise(
    question: DiscardQuestion, *, deadline: float | None = None, cancelled: Callable[[], bool] | None = None
) -> tuple[list[Candidate], ValueSearch]:
    """Every distinct discard of ``question.hand``, ranked by the model that applies (see
    :func:`ranking_model`), and which model ranked and how its search went.

    ``deadline`` (a :func:`time.monotonic` instant) and ``cancelled`` bound the lookahead
    and the expected-score search in wall-clock time (see
    :func:`~app.core.advice.lookahead.lookahead`); each candidate's lookahead gets an equal
    share of the time left when it starts, so a slow first candidate cannot leave the
    others none.
    """
    hand, rules, visible, opponents = question.hand, question.rules, question.visible, question.opponents
    dora_indicators, red_fives, turn, weights = (
        question.dora_indicators,
        question.red_fives,
        question.turn,
        question.weights,
    )
    options, model, seat_wind, round_wind = question.options, question.model, question.seat_wind, question.round_wind
    void_suit = void_suit_of(question)
    checker = Checker(rules, void_suit)
    if weights is not DEFAULT_WEIGHTS:
        weights = Weights(*weights).validated()
    others = (
        others_seen(hand, visible, dora_indicators, opponents, rules) if (dora_indicators or opponents) else visible
    )
    options_by_tile = checker.discards(hand, others)
    counts = hand.counts
    forced = forced_discards(counts, void_suit)
    void_held = bool(forced)
    if void_held:
        options_by_tile = [option for option in options_by_tile if option.tile in forced]
    wild = rules.wildcards
    # Per kind, once: dora values, honour values, safety.
    dora_lost: Sequence[int]
    if dora_indicators or red_fives:
        multiplicity = bytearray(NUM_TILE_KINDS)
        dora_of = dora_table(rules.absent_tiles)
        for indicator in dora_indicators:
            multiplicity[dora_of[indicator]] += 1
        held = hand.all_counts() if hand.melds else counts
        reds = counts_from_tiles(red_fives) if red_fives else bytes(NUM_TILE_KINDS)
        dora_total = sum(map(int.__mul__, held, multiplicity)) + sum(reds)
        dora_lost = [multiplicity[t] + (1 if reds[t] and reds[t] >= counts[t] else 0) for t in range(NUM_TILE_KINDS)]
    else:
        dora_total, dora_lost = 0, _NO_DORA
    honor_held = hand.all_counts()[EAST:] if hand.melds else counts[EAST:]
    honor_values = _honor_values(wild, question.value_winds)
    # Only pairs and triplets are worth anything; most hands hold none.
    honors_total = sum(honor_values[kind][c] for kind, c in enumerate(honor_held)) if max(honor_held) > 1 else 0.0
    if opponents:
        closed_rates: ClosedRates | None = None  # the rules'
        open_rates: OpenRates | None = None
        if question.danger_reads:
            danger_dora = frozenset(dora_table(rules.absent_tiles)[i] for i in dora_indicators)
        else:
            danger_dora = frozenset()
            opponents = [
                replace(opponent, value_winds=frozenset(), passed_since_discard=frozenset()) for opponent in opponents
            ]
            closed_rates = ClosedRates.ALL_PLAYERS
            open_rates = OpenRates.PUBLISHED
        by_tile = _safety_by_tile(
            hand, checker.remaining(hand, others), rules, opponents, turn, danger_dora, closed_rates, open_rates
        )
    else:
        by_tile = None
    best_shanten = min(map(_SECOND, options_by_tile))
    make, scale = _make_candidate, _SCORE_SCALE  # locals: this loop is the hot path
    ranked = []
    verdicts: tuple[TileSafety, ...]
    for tile, shanten, ukeire, count in options_by_tile:
        lost = dora_lost[tile]
        if tile >= EAST:
            kind = tile - EAST
            values = honor_values[kind]
            honor_lost = values[honor_held[kind]] - values[honor_held[kind] - 1]
        else:
            honor_lost = 0.0
        if by_tile is None:
            safety, verdicts = 1.0, ()
        else:
            verdicts = by_tile[tile]
            safety = combined_safety(verdicts)
        dora = dora_total - lost
        honors = honors_total - honor_lost
        score = sum(score_terms(weights, shanten, count, safety, dora, honors))
        candidate = make(
            (
                tile,
                shanten,
                ukeire,
                count,
                safety,
                dora,
                honors,
                score,
                weights,
                verdicts,
                shanten - best_shanten,
                tile in wild,
                lost,
                honor_lost,
                None,
                None,
                None,
                None,
                None,
                void_suit if void_held else None,
            )
        )
        # Scores equal to 1e-9 tie (float noise must not decide); ties go to the rule below.
        ranked.append((-round(score * scale), shanten, -count, tile, candidate))
    ranked.sort()
    candidates = [entry[4] for entry in ranked]
    ranked_by, fallback = ranking_model(rules, model, valued=question.value_model is not None)
    search = ValueSearch(DiscardModel.LINEAR, fallback)
    whole = hand.tile_count + 3 * len(hand.melds)
    if ranked_by is DiscardModel.FAN_PLAN and whole != MAX_CONCEALED:
        # Fans are counted on a whole hand: a part of one has no fan plan.
        search = ValueSearch(
            DiscardModel.LINEAR,
            f"the fan plan needs a whole hand ({MAX_CONCEALED} tiles, a meld counting 3); this one has {whole}",
        )
    elif ranked_by is DiscardModel.FAN_PLAN:
        planner = planner_for(
            checker,
            checker.remaining(hand, others),
            seat_wind=EAST if seat_wind is None else seat_wind,
            round_wind=round_wind,
            minimum_fan=MINIMUM_FANS[rules.name],
        )
        candidates = _rank_by_plan(candidates, planner.plans(hand), counts)
        search = ValueSearch(DiscardModel.FAN_PLAN)
    elif ranked_by is DiscardModel.EXPECTED_SCORE and best_shanten > question.value_shanten:
        search = ValueSearch(
            DiscardModel.LINEAR,
            f"the hand is {best_shanten} from tenpai; the value model ranks up to {question.value_shanten}",
        )
    elif ranked_by is DiscardModel.EXPECTED_SCORE and (valuer := _value_model(question, rules)) is not None:
        # A family's own value model (its scorer's points), over the same wall as the others'.
        draws = valuer.draws if turn is None else max(1, valuer.draws - turn + 1)
        found = valuer.discard_values(
            hand,
            checker,
            checker.remaining(hand, others),
            tiles=[candidate.tile for candidate in candidates],
            draws=draws,
            max_states=min(question.value_budget, valuer.max_states),
            deadline=deadline,
            cancelled=cancelled,
        )
        first = 1 if turn is None else turn
        found = found._replace(first_turn=first, last_turn=first + draws - 1)
        candidates = _rank_by_value(candidates, found, counts, deal_in=valuer.deal_in, unit=valuer.unit)
        search = ValueSearch.of(found)
    elif ranked_by is DiscardModel.EXPECTED_SCORE:
        found = expected_scores(
            hand,
            rules,
            unseen=checker.remaining(hand, others),
            red_fives=red_fives,
            dora_indicators=dora_indicators,
            round_wind=round_wind,
            seat_wind=SOUTH if seat_wind is None else seat_wind,
            nuki=question.nuki,
            first_turn=FIRST_TURN if turn is None else min(turn, LAST_TURN),
            extra=question.value_detours,
            max_states=question.value_budget,
            deadline=deadline,
            cancelled=cancelled,
        )
        candidates = _rank_by_value(candidates, found, counts)
        search = ValueSearch.of(found)
    if options.improvements or options.good_shape or options.lookahead:
        share = max(1, min(max(options.lookahead_budget, 1), MAX_LOOKAHEAD_BUDGET) // len(candidates))
        shared: Analysis = {}  # the candidates' searches meet the same hands: analyse each once
        extended = []
        for index, candidate in enumerate(candidates):
            until = None if deadline is None else _time_share(deadline, len(candidates) - index)
            extended.append(_extras(candidate, hand, checker, others, options, turn, share, shared, until, cancelled))
        candidates = extended
    return candidates, search


def void_suit_of(question: DiscardQuestion) -> int | None:
    """The void suit the advice plays: the question's, or under rules with a void suit and
    none given, the best suit to void (:meth:`Checker.best_void_suit`); None under other rules.

    >>> from app.core.shape.rules import rule_profile
    >>> from app.core.shape.tiles import parse_mpsz
    >>> void_suit_of(DiscardQuestion(Hand.from_tiles(parse_mpsz("123456789m1123p5s")), rule_profile("sichuan")))
    2
    """
    if question.void_suit is not None or not question.rules.void_suit:
        return question.void_suit
    return Checker(question.rules).best_void_suit(question.hand)


class Ranking(NamedTuple):
    """The model that ranks a question, and why it is not the one asked for (None when it is)."""

    model: DiscardModel
    fallback: str | None = None


def ranking_model(rules: RuleProfile, asked: DiscardModel, *, valued: bool = False) -> Ranking:
    """The model that ranks a question asking for ``asked`` under ``rules``: the default
    (``expected_score``) is the fan plan where a win needs fans (MCR); a model the rules
    have no use for falls back to the linear score, with the reason.  ``valued``: the question
    brings its family's value model (:attr:`DiscardQuestion.value_model`).  (:func:`advise` may
    still fall back for the hand itself: a fan plan needs a whole hand, the value model a
    hand near tenpai.)

    >>> from app.core.shape.rules import rule_profile
    >>> [ranking_model(rule_profile(name), DiscardModel.EXPECTED_SCORE).model.value for name in ("riichi", "mcr", "chinese")]
    ['expected_score', 'fan_plan', 'linear']
    >>> ranking_model(rule_profile("riichi"), DiscardModel.FAN_PLAN).fallback
    'a win under riichi needs no fans; the fan plan does not apply'
    """
    if asked is DiscardModel.LINEAR:
        return Ranking(asked)
    if rules.name in MINIMUM_FANS and not rules.wildcards:  # the fan count reads tiles as themselves
        return Ranking(DiscardModel.FAN_PLAN)
    if asked is DiscardModel.FAN_PLAN:
        return Ranking(DiscardModel.LINEAR, f"a win under {rules.name} needs no fans; the fan plan does not apply")
    if valued or supports(rules) or sichuan_value.supports(rules):
        return Ranking(DiscardModel.EXPECTED_SCORE)
    return Ranking(DiscardModel.LINEAR, f"{rules.name} has no value model")


def _rank_by_plan(candidates: list[Candidate], plans: Mapping[Tile, Plan], counts: Counts) -> list[Candidate]:
    """``candidates`` with their fan plans, the nearest pattern first, then the most unseen
    tiles that bring it nearer (and its fans), then safety and the less connected tile."""
    ranked = []
    for candidate in candidates:
        plan = plans[candidate.tile]
        key = (plan.key(), -candidate.safety, _connections(counts, candidate.tile), candidate.tile)
        ranked.append((key, candidate._replace(fan_plan=plan)))
    ranked.sort(key=_FIRST)
    return [candidate for _, candidate in ranked]


def _rank_by_value(
    candidates: list[Candidate],
    found: ExpectedScores,
    counts: Counts,
    *,
    deal_in: float = DEAL_IN_POINTS,
    unit: str = "points",
) -> list[Candidate]:
    """``candidates`` with their expected values, best value first (ties: see the module notes);
    ``deal_in`` is what an assumed deal-in pays, in ``unit``."""
    # A five held both red and plain is thrown plain: the red one is worth a dora.
    by_tile: dict[Tile, DiscardValue] = {}
    for detail in found.discards:
        if detail.tile not in by_tile or not detail.red:
            by_tile[detail.tile] = detail
    ranked = []
    for candidate in candidates:
        # A search without detours follows no discard that raises the shanten.
        detail = by_tile.get(candidate.tile) or DiscardValue.unsearched(
            candidate.tile, candidate.shanten, found.first_turn, found.last_turn
        )
        danger = 1.0 - candidate.safety
        cost = danger * (detail.expected_score + deal_in) if danger > 0 else 0.0
        value = detail.expected_score - cost
        expected = _make_expected(
            (
                detail.tenpai_probability,
                detail.win_probability,
                detail.expected_score,
                cost,
                value,
                found.first_turn,
                found.last_turn,
                detail,
                unit,
            )
        )
        key = (
            -round(value * _VALUE_SCALE),
            -candidate.dora,
            -candidate.honors,
            -candidate.safety,
            _connections(counts, candidate.tile),
            candidate.shanten,
            -candidate.ukeire_count,
            candidate.tile,
        )
        ranked.append((key, _make_candidate((*candidate[:_EXPECTED], expected, *candidate[_EXPECTED + 1 :]))))
    ranked.sort(key=_FIRST)
    return [candidate for _, candidate in ranked]


def _connections(counts: Counts, tile: Tile) -> tuple[int, int]:
    """How much ``tile`` connects with the rest of the hand (less is a better discard):
    other copies and suit neighbours within two, then its potential (honour 0, terminal 1, else 2).

    >>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
    >>> counts = counts_from_tiles(parse_mpsz("1m5m9p23s7z"))
    >>> [_connections(counts, tile) for tile in (33, 17, 4, 0, 19)]
    [(0, 0), (0, 1), (0, 2), (0, 1), (1, 2)]
    """
    held = counts[tile] - 1
    if tile >= EAST:
        return held, 0
    position = tile % 9
    start = tile - position
    for other in range(max(start, tile - 2), min(start + 8, tile + 2) + 1):
        if other != tile:
            held += counts[other]
    return held, 1 if position in (0, 8) else 2


def _time_share(deadline: float, searches_left: int) -> float:
    """The deadline of the next of ``searches_left`` searches: an equal share of the time left."""
    now = time.monotonic()
    return now + max(0.0, deadline - now) / searches_left


# --- seen tiles -----------------------------------------------------------------------


def others_seen(
    hand: Hand,
    visible: Counts | None,
    dora_indicators: Sequence[Tile],
    opponents: Sequence[Opponent],
    rules: RuleProfile,
) -> Counts:
    """Every tile seen outside the hand, as counts, checked against the 4-copy limit.

    Sources are added in a fixed order (visible, dora indicators, then each opponent's
    melds and river); the first one that takes a tile past four copies, together
    with the hand and melds, is the field of the error.  A tile the rules' set does
    not have (sanma's 2m-8m) is refused at its source's field.
    """
    if len(opponents) > MAX_OPPONENTS:
        raise _too_many_opponents(len(opponents))
    total = list(hand.all_counts() if hand.melds else hand.counts)
    others = [0] * NUM_TILE_KINDS
    sources: list[tuple[str, Iterable[Tile]]] = []
    if visible is not None:
        sources.append(("visible", (t for t, c in enumerate(visible) for _ in range(c))))
    sources.append(("dora_indicators", dora_indicators))
    for index, opponent in enumerate(opponents):
        _validate_opponent(opponent, index)
        sources.append((f"opponents[{index}].melds", (t for meld in opponent.melds for t in meld.tiles)))
        sources.append((f"opponents[{index}].river", opponent.river))
    for field, tiles in sources:
        if rules.absent_tiles:
            tiles = list(tiles)
            rules.check_tiles_exist(tiles, field=field)
        for tile in tiles:
            total[tile] += 1
            others[tile] += 1
            if total[tile] > 4:
                raise TooManyCopies(
                    f"{total[tile]} copies of {format_tile(tile)} counting the hand, melds and every tile "
                    f"seen up to {field}; a tile has 4",
                    field=field,
                )
    return bytes(others)


def _validate_opponent(opponent: Opponent, index: int) -> None:
    try:
        opponent.validate()
    except TenpaiError as error:
        raise error.at(f"opponents[{index}]") from None


def _too_many_opponents(count: int) -> TenpaiError:
    return InvalidOpponent(f"{count} opponents; at most {MAX_OPPONENTS}", field="opponents")


def _safety_by_tile(
    hand: Hand,
    unseen: Counts,
    rules: RuleProfile,
    opponents: Sequence[Opponent],
    turn: int | None,
    dora: frozenset[Tile],
    closed_rates: ClosedRates | None,
    open_rates: OpenRates | None,
) -> dict[Tile, tuple[TileSafety, ...]]:
    """Per tile held, its safety against each opponent (computed once per kind)."""
    defence = defence_rules(rules)
    held = [t for t, c in enumerate(hand.counts) if c]
    columns = [
        assess(
            opponent,
            held,
            unseen=unseen,
            rules=defence,
            turn=turn,
            passed=passed_after_riichi(opponents, index),
            dora=dora,
            closed_rates=closed_rates,
            open_rates=open_rates,
        )
        for index, opponent in enumerate(opponents)
    ]
    return dict(zip(held, zip(*columns, strict=True), strict=True))


# --- optional extras ------------------------------------------------------------------


def _extras(
    candidate: Candidate,
    hand: Hand,
    checker: Checker,
    others: Counts | None,
    options: DiscardOptions,
    turn: int | None,
    budget: int,
    analysis: Analysis,
    deadline: float | None,
    cancelled: Callable[[], bool] | None,
) -> Candidate:
    after = hand.without((candidate.tile,))
    seen = bytearray(others or bytes(NUM_TILE_KINDS))
    seen[candidate.tile] += 1  # the discarded tile is on the table now
    seen_after = bytes(seen)
    improvements, good_shape, ahead = candidate.improvements, candidate.good_shape, candidate.lookahead
    if options.improvements:
        improvements = _improvements(candidate, after, checker, seen_after)
    if options.good_shape and candidate.shanten == 1:
        good_shape = _good_shape_share(candidate, after, checker, seen_after)
    if options.lookahead:
        draws = options.lookahead_draws
        if draws is None:
            draws = max(1, 18 - turn) if turn is not None else 6
        ahead = lookahead(
            after,
            checker,
            seen_after,
            draws=draws,
            budget=budget,
            analysis=analysis,
            deadline=deadline,
            cancelled=cancelled,
        )
    return candidate._replace(improvements=improvements, good_shape=good_shape, lookahead=ahead)


def _plus(hand: Hand, tile: Tile) -> Hand:
    counts = bytearray(hand.counts)
    counts[tile] += 1
    return Hand(bytes(counts), hand.melds)


def _improvements(candidate: Candidate, after: Hand, checker: Checker, seen: Counts) -> Improvements:
    """Draws outside the ukeire that allow a discard keeping the shanten with more ukeire."""
    left = checker.remaining(after, seen)
    accepted = {t.tile for t in candidate.ukeire}
    found = []
    weighted = 0
    copies = 0
    for tile in range(NUM_TILE_KINDS):
        if tile in accepted or not left[tile]:
            continue
        best = candidate.ukeire_count
        for option in checker.discards(_plus(after, tile), seen):
            if option.shanten == candidate.shanten:
                count = sum(map(_SECOND, option.ukeire))
                best = max(best, count)
        weighted += left[tile] * best
        copies += left[tile]
        if best > candidate.ukeire_count:
            found.append(Improvement(tile, left[tile], best))
    average = weighted / copies if copies else float(candidate.ukeire_count)
    return Improvements(tuple(found), sum(i.remaining for i in found), average)


def _good_shape_share(candidate: Candidate, after: Hand, checker: Checker, seen: Counts) -> float:
    """Share of the ukeire draws (by unseen copies) that reach a good-shape tenpai.

    Good shape: the tenpai, chosen by most unseen winning copies (good shape on a
    tie), waits on at least two kinds and on more than four copies not in the hand
    itself, which rules out a double-pair wait and keeps ryanmen, nobetan and wider.
    """
    total = 0
    good = 0
    for tile, remaining in candidate.ukeire:
        if not remaining:
            continue
        drawn = _plus(after, tile)
        best: tuple[int, bool] = (-1, False)
        for option in checker.discards(drawn, seen):
            if option.shanten != 0:
                continue
            capacity = sum(4 - drawn.counts[w.tile] + (w.tile == option.tile) for w in option.ukeire)
            shape = len(option.ukeire) >= 2 and capacity > 4
            best = max(best, (sum(map(_SECOND, option.ukeire)), shape))
        total += remaining
        good += remaining if best[1] else 0
    return good / total if total else 0.0


# --- tables ---------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _honor_values(
    wildcards: tuple[Tile, ...], value_winds: tuple[Tile, ...] | None = None
) -> tuple[tuple[float, ...], ...]:
    """Per honour kind (East first), the value of holding 0..4 copies; wildcards are worth 0.

    ``value_winds`` lists the seat and round winds when known (one entry each, so a double
    wind appears twice); None: a wind is worth half a dragon, being a value tile for some seats.
    """
    rows = []
    for tile in range(EAST, NUM_TILE_KINDS):
        if tile in wildcards:
            factor = 0.0
        elif tile in DRAGONS:
            factor = _DRAGON_FACTOR
        elif value_winds is None:
            factor = _WIND_FACTOR
        else:
            factor = _DRAGON_FACTOR * value_winds.count(tile)
        rows.append(tuple(factor * value for value in _HONOR_COPIES_VALUE))
    return tuple(rows)


_NO_DORA: Final = (0,) * NUM_TILE_KINDS
_SECOND: Final = itemgetter(1)
_SCORE_SCALE: Final = 1e9
#: Expected values equal to 1e-6 points tie.
_VALUE_SCALE: Final = 1e6
_FIRST: Final = itemgetter(0)
#: ``Candidate._make`` without its length check (the hot loop always passes every field).
_make_candidate: Final = partial(tuple.__new__, Candidate)
_make_components: Final = partial(tuple.__new__, ScoreComponents)
_make_expected: Final = partial(tuple.__new__, ExpectedValue)
#: Where ``expected`` sits in a Candidate (set without ``_replace``'s Python-level rebuild).
_EXPECTED: Final = Candidate._fields.index("expected")
