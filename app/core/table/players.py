"""Strategies for the table: what a seat discards, calls and declares.

Each strategy is an object with five decisions; the table asks only legal
questions and checks every answer.  Wins and nine terminals are the table's
decisions (:mod:`app.core.table.decide`): every strategy takes every win, except
that the advisor passes a win at all-last that would leave it last when
another win of the hand would not.

``advisor``
    The discard advisor (:func:`app.core.advice.discard.evaluate_discards`) told everything a
    player at the table sees: its own turn, its seat and the round wind, the dora
    indicators and each opponent's river, melds and declaration.  Under rules the
    expected-score model values (:func:`app.core.advice.expected_score.supports`: riichi and
    sanma), it ranks by that model, :class:`~app.core.advice.discard.DiscardModel`'s
    ``EXPECTED_SCORE`` (``POST /discard``'s default), whenever the hand is four-shanten or
    closer to tenpai, and by the linear model with its weights beyond (see :class:`Advisor`
    for why); it folds against a riichi when no discard is
    worth the risk, values calls against passing and riichi against dama by the same
    search (:mod:`app.core.advice.actions`).  Under other rules (Qiqihar, Chinese) it is the
    ``linear`` advisor.
    Where a win needs fans (``SeatView.minimum_fan``: MCR's 8), the fan planner
    (:class:`app.core.advice.mcr_targets.FanPlanner`) makes its discards, calls and
    kongs instead: toward the nearest fan target worth 8 (flushes, straights,
    shifted and triple chows, pungs, knitted forms, seven pairs...), by the
    unseen tiles that bring it nearer, and, once ready, by the unseen tiles
    that win with 8 fans by the MCR scorer's count.  The weights do not apply.
``near``
    The advisor before it searched to three-shanten (kept to compare with): expected score at
    one-shanten or closer, calls and kans valued at two-shanten or closer
    (:class:`NearAdvisor`).
``placer``
    The advisor choosing its discards near tenpai, its calls and riichi in expected placement
    points (issue #36, point 3): each figure in points is taken apart into its outcomes, each put
    through the rank model (:mod:`app.core.advice.placement`) from the scores, the hands left and
    the uma (:class:`PlacementAdvisor`).  Near the start of a game that ranks as the points do.
    Its kans, its calls for speed and its wins are the advisor's.
``reader``
    The ``near`` advisor reading the table (issue #36): its discards near tenpai are valued against
    every other seat, not only the declared ones: each seat's chance of being ready now and on
    each turn to come and what dealing into it costs (:func:`app.core.advice.reads.table_read`),
    the other seats' wins on each turn following the same reads, and folding (the held tiles,
    safest first, with the noten payments) valued beside every push.  Where the table plays
    for placement (riichi), each line's ways of ending the hand are put in expected placement
    points by the rank model (:mod:`app.core.advice.placement`) from the scores, the hands left
    and the uma.  Its calls, riichi and kans are ``near``'s.
``linear``
    The advisor as it was before the expected-score model: seed 000's linear score with
    its weights at every distance from tenpai, the rules of thumb below for calls, riichi
    and kans, and every win (and, under MCR, the same fan planner).
``greedy``
    Shanten only: a discard that leaves the lowest shanten, ties broken at random.
``heuristic``
    Seed 001's ``findBestDiscard``: ``-100 * shanten + value(tile)``, where a tile
    is worth -30 as an honour, -15 as a terminal, +20 per held neighbour within
    two and +10 when another copy is held.  The seed keeps the tile of highest
    value, but its comment (and its intent: "字牌/孤牌优先打", throw honours and
    isolated tiles first) is to discard the tile of *lowest* value; we do that.
``random``
    Every decision at random among the legal ones.

``linear``, ``greedy`` and ``heuristic`` call the same way (:class:`ShantenCaller`; under MCR
``linear`` as its planner), and so does the advisor where the search does not value its
calls (farther than :data:`CALL_SHANTEN`, or rules without the model): a pon or chi that
lowers the shanten, a kong that does not raise it, and, when the rules make an
open meld a condition of winning (Qiqihar), the first such meld whenever it
does not raise the shanten; and they set a north aside (sanma's kita) whenever
that leaves the shanten of their best discard.  Where a win needs a yaku (``SeatView.needs_yaku``:
riichi), they open a hand only with a yaku in sight (:func:`keeps_a_yaku`),
since a closed hand can always win by riichi or self-draw and an open one
without a yaku never wins.  They declare riichi whenever it is legal (the
expected-score model of discards assumes as much: it values every ready closed hand as
declared); the advisor weighs riichi against dama.

>>> sorted(PLAYER_KINDS)
['advisor', 'greedy', 'heuristic', 'linear', 'near', 'placer', 'random', 'reader']
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from types import MappingProxyType
from typing import Final, NamedTuple

from app.core.advice import sichuan_value
from app.core.advice.actions import (
    DEFAULT_PARAMETERS,
    ActionParameters,
    CallValue,
    CallValues,
    Contested,
    HandOutcomes,
    KanValue,
    RiichiChoice,
    Situation,
    call_values,
    contested,
    draw_chance,
    fold_outcomes,
    kan_value,
    push_terms,
    push_value,
    read_push_outcomes,
    riichi_or_dama,
    safest,
    threat_costs,
    waiting_value,
)
from app.core.advice.discard import (
    DEAL_IN_POINTS,
    DEFAULT_VALUE_BUDGET,
    DEFAULT_WEIGHTS,
    Candidate,
    DiscardModel,
    Weights,
    evaluate_discards,
)
from app.core.advice.expected_score import DEFAULT_EXTRA, LAST_TURN, supports
from app.core.advice.mcr_targets import FanPlanner, planner_for
from app.core.advice.placement import Standing, placement_points, uma_for
from app.core.advice.reads import OPEN_COST_FACTOR, TableRead, table_read
from app.core.advice.safety import Opponent, TileSafety, combined_safety
from app.core.advice.sichuan import choose_exchange, choose_void_suit
from app.core.errors import TenpaiError
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld, MeldKind
from app.core.shape.rules import RuleProfile
from app.core.shape.tiles import COPIES, DRAGONS, EAST, ORPHANS, Tile, is_honor
from app.core.shape.void_suit import melded_suits


class UnknownStrategy(TenpaiError):
    """A strategy name that is not in :data:`PLAYER_KINDS`."""

    code = "unknown_strategy"


class SeatView(NamedTuple):
    """What one seat knows when it decides: its hand and the public table."""

    seat: int
    #: Concealed tiles (with the tile just drawn) and declared melds.
    hand: Hand
    #: The tile just drawn, or None after a call.
    drawn: Tile | None
    #: This seat's turn, 1-based: own discards so far plus one.
    turn: int
    #: The other seats in play order after this one.
    opponents: tuple[Opponent, ...]
    dora_indicators: tuple[Tile, ...]
    #: Tiles left to draw.
    wall_left: int
    rules: RuleProfile
    checker: Checker
    #: Whether the table's scoring refuses a complete hand without a yaku (riichi's).
    needs_yaku: bool = False
    #: Honours whose triplet is a yaku for this seat: the dragons, its seat wind and the round wind.
    value_honors: tuple[Tile, ...] = DRAGONS
    #: Tiles seen that neither the hand, the rivers, the melds nor the indicators hold (the
    #: norths set aside at a sanma table), per tile kind; None: none.
    visible: bytes | None = None
    #: Norths this seat has set aside (sanma's kita), each a dora of its own.
    nuki: int = 0
    seat_wind: Tile = EAST
    round_wind: Tile = EAST
    #: Fans a win needs (MCR's 8); 0: none.  The advisor then plays for fan targets.
    minimum_fan: int = 0
    #: Asked by a long decision as it works (the advisor's expected-score search): True once the
    #: table's game is being abandoned (a service's deadline, its client gone), so the decision
    #: may stop early; its answer is then never played.  None: never asked.
    stop: Callable[[], bool] | None = None
    #: Sichuan: the seat's void suit (定缺: 0 m, 1 p, 2 s), to which ``checker`` is then bound; None before it is declared.
    void_suit: int | None = None
    #: Whether this seat has declared riichi (its hand can no longer change).
    riichi: bool = False
    #: Each seat's points now, by seat number (seat 0 dealt first); empty where the table plays
    #: for no placement (the rank model is then not asked).
    scores: tuple[int, ...] = ()
    #: Hands expected after this one (:func:`~app.core.advice.placement.hands_after`).
    hands_after: float = 0.0
    #: Placement points per final place, first first (None: Tenhou's).
    uma: tuple[int, ...] | None = None
    #: What the noten seats pay in all at an exhaustive draw (the table's option; Tenhou's four-seat 3,000).
    noten_payment: int = 3_000


def shanten_after_discards(hand: Hand, checker: Checker) -> list[tuple[Tile, int]]:
    """Each distinct discard of a 3n+2 hand with the shanten it leaves, in tile order."""
    return checker.discard_shanten_numbers(hand)


class ShantenCaller:
    """Calls that help: a pon or chi that lowers the shanten, a kong that keeps it.

    Under rules where a win needs an open meld of some kinds, the first such
    meld is taken whenever it does not raise the shanten: without it the hand
    can never win.
    """

    def call(self, view: SeatView, tile: Tile, options: Sequence[Meld]) -> Meld | None:
        """A meld to make from the discard ``tile`` (one of ``options``), or None to pass."""
        checker, hand = view.checker, view.hand
        before = checker.shanten_number(hand)
        opens = _needs_opening(hand, view.rules)
        best: tuple[int, Meld] | None = None
        for meld in options:
            used = list(meld.tiles)
            used.remove(tile)
            called = hand.without(used, meld)
            if view.needs_yaku and not keeps_a_yaku(called, view.value_honors, open_tanyao=view.rules.open_tanyao):
                continue
            after = checker.shanten_number(called)
            if meld.kind.size == 4:
                helps = after <= before
            else:
                # A 3n+2 hand's shanten is that of its best discard; it cannot be complete
                # here (a complete shape would have won on the tile).
                helps = after < before or (opens and meld.kind in view.rules.win_requires_meld and after <= before)
            if helps and (best is None or after < best[0]):
                best = (after, meld)
        return None if best is None else best[1]

    def call_with_values(
        self, view: SeatView, tile: Tile, options: Sequence[Meld]
    ) -> tuple[Meld | None, CallValues | None]:
        """:meth:`call`'s answer and the values behind it (None: the rule has no figures)."""
        return self.call(view, tile, options), None

    def exchange(self, view: SeatView, options: Sequence[tuple[Tile, ...]]) -> tuple[Tile, ...]:
        """Sichuan's three tiles to pass (one of ``options``): :func:`plain_exchange`."""
        return plain_exchange(view.hand.counts, options)

    def void_suit(self, view: SeatView) -> int:
        """Sichuan's void suit: :func:`plain_void_suit`."""
        return plain_void_suit(view.hand.counts)

    def kan(self, view: SeatView, options: Sequence[Meld]) -> Meld | None:
        """A closed or added kong to declare (one of ``options``), or None."""
        checker, hand = view.checker, view.hand
        before = checker.shanten_number(hand)
        for meld in options:
            after = hand.with_kong(meld)
            if checker.shanten_number(after) <= max(before, 0):
                return meld
        return None

    def declare_riichi(self, view: SeatView, discard: Tile) -> bool:
        """Whether to declare riichi with ``discard`` (asked only when it is legal)."""
        return True

    def kita(self, view: SeatView, north: Tile) -> bool:
        """Whether to set ``north`` aside (asked only when it is legal): when the hand without
        it is as close to ready as after its best discard, the north is a free dora and a draw.

        >>> from app.core.shape.rules import rule_profile
        >>> from app.core.shape.tiles import parse_mpsz
        >>> rules = rule_profile("sanma")
        >>> def view(text):
        ...     return SeatView(0, Hand.from_tiles(parse_mpsz(text)), None, 1, (), (), 50, rules, Checker(rules))
        >>> Greedy().kita(view("19m123456p12345s4z"), 30)  # a lone north
        True
        >>> Greedy().kita(view("99m123456p12s4445z"), 30)  # a triplet of norths in a ready shape
        False
        """
        checker, hand = view.checker, view.hand
        return checker.shanten_number(hand.without((north,))) <= checker.shanten_number(hand)


VALUE_SHANTEN: Final = 1
"""Farthest from tenpai a hand the ``near`` advisor ranks by expected score; farther, the linear model ranks."""
VALUE_BUDGET: Final = DEFAULT_VALUE_BUDGET
"""States one expected-score search of the advisor may build."""
CALL_SHANTEN: Final = 2
"""Farthest from tenpai a hand whose calls and kans the ``near`` advisor values by the search."""
ADVISOR_VALUE_SHANTEN: Final = 4
"""Farthest from tenpai a hand whose discards, calls and kans the advisor values by the search
(farther: the linear model and the rules of thumb).  Without a detour (:data:`FAR_DETOURS`) a
four-shanten hand's search builds a median 27,947 states in 35 ms (15 random four-shanten hands
at turn 3, the slowest 117 ms; 40 at turn 1: 30,296 states, the slowest 246 ms on a busy
machine, none at the budget); a five-shanten hand's hits the 500,000-state budget in about
1.3 s.  Against ``near`` (issue #36's A/B, 2,000 hanchans, seed 36) searching at four-shanten
moved the advisor from +11.3 rank points a game (+4.1 to +18.5) to +16.1 (+8.9 to +23.2), its
wins from +3.1 points paired to +3.3 and its deal-ins from -1.1 to -1.6, at twice the cost a
hand of self-play (docs/table.md)."""
FAR_DETOURS: Final = 0
"""Detours per path of the advisor's searches at a decision two-shanten or farther from tenpai.
One detour multiplies the states by 70 there: a two-shanten hand's search builds a median 186
states without one and 13,635 with one (0.16 and 11.4 ms), a three-shanten hand's 2,123 and
142,395 (1.7 and 189 ms; ``bench/run_expected.py --extra 0`` and ``--extra 1``, seed 13)."""


class Advisor(ShantenCaller):
    """The advisor: every decision of a seat valued on one scale, told what the seat sees.

    Under rules the expected-score model values (riichi and sanma,
    :func:`~app.core.advice.expected_score.supports`), each decision is valued in points at
    the end of the hand (:mod:`app.core.advice.actions` has the formulas):

    * **Discards.**  A hand four-shanten or closer to tenpai (:data:`ADVISOR_VALUE_SHANTEN`) is
      ranked by expected score (``DiscardModel.EXPECTED_SCORE``, ``POST /discard``'s
      default), valued with this seat's wind and the round wind; two-shanten and farther the
      search allows no detour (:data:`FAR_DETOURS`), so a discard that raises the shanten is
      worth 0 there.  A hand farther away is ranked by the linear model with ``weights``.
    * **Push or fold.**  Against opponents in riichi (:func:`is_threat`) each discard is valued
      by :func:`~app.core.advice.actions.push_value`: its expected score where the hand
      survives, less the cost of dealing in (a dealer's costs half as much again).  When no
      discard is worth more than folding (0), or the hand is farther than four-shanten from
      tenpai, the advisor folds: it throws the tile least likely to deal in (genbutsu first),
      ties broken by the model's order.  (Folding from two-shanten on as well changed nothing
      measurable: over the 2,000 hanchans below, the same win and deal-in rates to 0.1 point.)
    * **Calls.**  A chi, pon or open kan that brings the hand nearer (as
      :class:`ShantenCaller` finds them) is valued by the search against passing
      (:func:`~app.core.advice.actions.call_values`), when the hand is four-shanten or
      closer to tenpai; the open hand counts its yaku (none: no win), fu and dora and loses
      riichi.  Farther away, the rule of :class:`ShantenCaller` (a yaku in sight) decides.
      Against a threat a call is made only when it leaves the hand ready.  Where no call
      helps, a ranking still values each against passing (:meth:`appraise_calls`).
    * **Riichi or dama** (:func:`~app.core.advice.actions.riichi_or_dama`), weighed with every
      discard that leaves the hand ready: riichi with one stands on that discard's figure dama
      plus what riichi adds over it, and is declared when that beats the same discard dama and
      the best discard dama (and a kan the advisor would declare instead).  After declaring, the
      seat throws that discard.
    * **Kans.**  A closed or added kan that keeps the hand as near ready is valued
      (:func:`~app.core.advice.actions.kan_value`: one draw more, its new dora, and for an added
      kan the chance each opponent robs it, the danger model's for its tile) against the hand's
      best discard, and declared when it is worth more.  Never while an opponent is in riichi
      and the hand is not ready: the new dora serves the threat, and the kan gives away four
      tiles of defence.  Under riichi (the kans offered keep the wait) and farther than
      four-shanten from tenpai, the rule of :class:`ShantenCaller` decides.
    * **Wins** and nine terminals are the table's decisions (:mod:`app.core.table.decide`:
      a win that ends the game in last place when a later one would not is declined).

    Under sanma the same values hold with three seats: the search's wall has no 2m-8m, its wins
    pay as three seats pay (tsumo loss) and count the norths the seat has set aside, and a push
    or a call weighs two opponents.  Figures measured at four-player tables are kept as they
    are: the other seats' win hazard of :func:`~app.core.advice.actions.contested` (two
    opponents instead of three, but sanma hands are made faster: which way it errs is not
    measured), the discard wins' share of :func:`~app.core.advice.actions.riichi_or_dama` and
    ``DEAL_IN_POINTS`` (a sanma hand is worth more, with more dora): the shared Tenhou games
    hold one sanma game, 6 hands, too few to measure them on.  Kita is :class:`ShantenCaller`'s
    rule.  Under other rules (Qiqihar, Chinese) it is the ``linear`` advisor.  Where a win needs
    fans (``view.minimum_fan``: MCR), the fan planner (:class:`~app.core.advice.mcr_targets.FanPlanner`) decides its discards,
    calls and kongs.

    Choices that make it fit the table:

    * **Where the search runs.**  Up to four-shanten (:data:`ADVISOR_VALUE_SHANTEN`), every
      discard, call and kan has a figure in points (issue #36).  With the search's one detour a
      path at two- and three-shanten as well, four advisors played 3.6 and 0.4 hands a second
      (seed 1, 2026-12-04); without detours beyond one-shanten the search costs little there
      (:data:`FAR_DETOURS`).  The search is bounded by :data:`VALUE_BUDGET` states and never by
      a clock, so a game stays a function of its seed on any machine.  The advisor before this,
      searching at one-shanten or closer only, is kept as ``near`` (:class:`NearAdvisor`).
    * **Who can deal a loss.**  Opponents in riichi (:func:`is_threat`) and, while nobody has
      declared, open seats, at their read ready chance and :attr:`open_seat_cost` of the cost
      (``near`` charges only riichi).  Charged for silent closed hands too, the advisor won a
      fifth less often than the ``linear`` one.  An open seat's ready chance is the fitted read
      (:mod:`app.core.advice.open_tenpai`; ``near`` keeps the published rate): against ``near``
      over 2,000 duplicate hanchans (``python -m app.selfplay --rules riichi --players
      advisor,near,advisor,near --games 500 --duplicate --length hanchan --seed 36``) it gave
      +11.3 rank points a game (+4.1 to +18.5), wins +3.1 points paired (+2.0 to +4.2),
      deal-ins -1.1 (-1.9 to -0.3), against +13.8, +2.5 and -1.2 with the published rate:
      within the runs' spread, and the reads are better (``docs/table.md``).
    * **Its figures are what it plays by.**  With nobody declared a discard's figure is the
      search's value alone against the wall less the open seats' charge
      (:func:`unthreatened_value`), the value it ranks by; riichi's and a kan's stand on the
      figure of the discard each is weighed against (:mod:`app.core.table.decide`).
    * **No points in sight.**  When no discard is worth any points (no win the model reaches
      by its last turn, or an open hand without a yaku), each is worth 0 less the open seats'
      charge, and the least charged goes first, equal figures in the linear model's order.
    * The search leaves red fives out (``_without_red_fives``): it was built for the one-hand
      table before the table machine, which dealt none.
    """

    name = "advisor"
    #: Whether hands near tenpai are ranked by expected score (where the rules have the model).
    ranks_by_value = True
    #: Whether calls, riichi, kans, folding and wins are valued (the ``linear`` advisor: the rules of thumb).
    values_every_decision = True
    #: Whether discards near tenpai are valued against every other seat as the seat reads it
    #: (:meth:`table_read`), folding valued beside them; else against the declared seats only.
    reads_the_table = False
    #: Whether discards near tenpai, calls and riichi are chosen by their figures in expected
    #: placement points (:meth:`placements`, :meth:`line_placements`) where the table plays for
    #: placement; else by their figures in points.
    decides_in_placement = False
    #: Farthest from tenpai a discard is ranked by expected score (farther: the linear model).
    value_shanten: int = ADVISOR_VALUE_SHANTEN
    #: Farthest from tenpai a call or a kan is valued by the search (farther: the rules of thumb).
    call_shanten: int = ADVISOR_VALUE_SHANTEN
    #: Detours per path the searches allow at a decision two-shanten or farther from tenpai
    #: (nearer, always the search's own one).
    far_detours: int = FAR_DETOURS
    #: Whether :meth:`rank` and :meth:`appraise_calls` give a figure in points to decisions the
    #: rules of thumb decide (no discard worth anything, no call that helps).
    figures_everywhere = True
    #: Whether riichi is weighed with every discard that leaves the hand ready, each on its own
    #: figure dama, against the best discard dama (:func:`~app.core.table.decide.decide`); else
    #: only with the best discard, where that leaves the hand ready.
    riichi_with_any_ready_discard = True
    #: Whether the danger model reads the dora, each other seat's value winds, a silent closed
    #: seat by the silent hands' own tenpai rate (published rates: :mod:`app.core.advice.safety`)
    #: and a seat with calls by the fitted read (:mod:`app.core.advice.open_tenpai`).
    danger_reads = True
    #: With nobody declared, what dealing into an open seat costs as a share of a deal-in into
    #: a declared one, charged at the seat's read chance of being ready (0: open seats cost
    #: nothing).  Measured on self-play: deal-ins into open guests cost 0.45 of those into
    #: declared guests (:data:`~app.core.advice.reads.OPEN_COST_FACTOR`).
    open_seat_cost: float = OPEN_COST_FACTOR

    def __init__(
        self,
        weights: Weights = DEFAULT_WEIGHTS,
        rng: random.Random | None = None,
        parameters: ActionParameters = DEFAULT_PARAMETERS,
    ) -> None:
        self.weights = weights
        self.parameters = parameters

    def _open_cost(self, view: SeatView) -> float:
        """:attr:`open_seat_cost` where the riichi model values the hand (the cost was measured at
        riichi tables), else 0."""
        return self.open_seat_cost if supports(view.rules) else 0.0

    def detours(self, shanten: int) -> int:
        """Detours per path the searches allow at a decision ``shanten`` from tenpai."""
        return DEFAULT_EXTRA if shanten <= 1 else self.far_detours

    def _valued(self, view: SeatView) -> bool:
        return self.values_every_decision and not view.minimum_fan and supports(view.rules)

    def call(self, view: SeatView, tile: Tile, options: Sequence[Meld]) -> Meld | None:
        """The call worth more than passing (see the class notes), or None."""
        return self.call_with_values(view, tile, options)[0]

    def call_with_values(
        self, view: SeatView, tile: Tile, options: Sequence[Meld]
    ) -> tuple[Meld | None, CallValues | None]:
        """:meth:`call`'s answer and, where the search valued the calls, every value."""
        if view.minimum_fan:
            return fan_planner(view).call(view.hand, tile, options), None
        if not self._valued(view):
            return super().call(view, tile, options), None
        checker, hand = view.checker, view.hand
        before = checker.shanten_number(hand)
        helping = []
        for meld in options:
            used = list(meld.tiles)
            used.remove(tile)
            after = checker.shanten_number(hand.without(used, meld))
            if after < before or (meld.kind.size == 4 and after <= before):
                helping.append((after, meld))
        if not helping:
            return None, None
        if before > self.call_shanten:
            return super().call(view, tile, options), None
        if any(is_threat(opponent) for opponent in view.opponents) and min(after for after, _ in helping) > 0:
            return None, None  # against a declared hand, a call that does not make the hand ready only weakens it
        found = call_values(hand, tile, [meld for _, meld in helping], self.situation(view), parameters=self.parameters)
        best = self._placed_best_call(view, found) if self.decides_in_placement else found.best()
        if best is not None:
            return best.meld, found._replace(verdict="the call is worth more than passing")
        # The search plays alone against the wall, and the other seats end a hand sooner than its
        # contested horizon allows; a call the rule of thumb approves (a yaku in sight) that can
        # win and wins more often than passing is taken for its speed.
        ruled = super().call(view, tile, [meld for _, meld in helping])
        line = next((call for call in found.calls if call.meld == ruled), None)
        if line is not None and line.value > 0 and line.win_probability > found.passing_win_probability:
            return line.meld, found._replace(verdict="the call wins more often than passing, with a yaku")
        return None, found._replace(verdict="passing is worth more than any call")

    def exchange(self, view: SeatView, options: Sequence[tuple[Tile, ...]]) -> tuple[Tile, ...]:
        """Sichuan's three tiles to pass: those leaving the hand nearest complete once its best
        suit is void (:func:`~app.core.advice.sichuan.choose_exchange`)."""
        chosen = choose_exchange(view.hand.counts)
        return chosen if chosen in options else plain_exchange(view.hand.counts, options)

    def void_suit(self, view: SeatView) -> int:
        """Sichuan's void suit: the one leaving the hand nearest complete
        (:func:`~app.core.advice.sichuan.choose_void_suit`)."""
        return choose_void_suit(view.hand.counts, melded_suits(view.hand), melds=len(view.hand.melds))

    def situation(self, view: SeatView) -> Situation:
        """The searches' view of the table from ``view``: the unseen tiles less the dora indicators."""
        unseen = bytearray(unseen_tiles(view))
        for indicator in view.dora_indicators:
            unseen[indicator] = max(0, unseen[indicator] - 1)
        return Situation(
            _without_red_fives(view.rules),
            bytes(unseen),
            view.dora_indicators,
            view.round_wind,
            view.seat_wind,
            view.turn,
            VALUE_BUDGET,
            view.stop,
            view.nuki,
            self.detours(view.checker.shanten_number(view.hand)),
        )

    def declare_riichi(self, view: SeatView, discard: Tile) -> bool:
        """Riichi when it is worth more than dama (see :meth:`riichi_choice`)."""
        choice = self.riichi_choice(view, discard)
        return True if choice is None else choice.riichi

    def riichi_choice(self, view: SeatView, discard: Tile) -> RiichiChoice | None:
        """Riichi against dama after ``discard`` (None: the rules have no value model: riichi)."""
        if not self._valued(view):
            return None
        hand = view.hand.without((discard,))
        situation = self.situation(view)
        waiting = waiting_value(hand, situation, self.parameters)
        return riichi_or_dama(hand, situation, win_probability=waiting.win_probability, parameters=self.parameters)

    def kan(self, view: SeatView, options: Sequence[Meld]) -> Meld | None:
        """The kan worth more than the hand's best discard (see the class notes), or None (MCR: the planner's)."""
        if view.minimum_fan:
            return fan_planner(view).kong(view.hand, options)
        wanted = super().kan(view, options)
        if wanted is None or not self._valued(view) or view.riichi:
            return wanted  # under riichi the only kans offered keep the wait: each is a draw and a dora more
        checker, hand = view.checker, view.hand
        before = max(checker.shanten_number(hand), 0)
        keeping = [meld for meld in options if checker.shanten_number(hand.with_kong(meld)) <= before]
        if any(is_threat(opponent) for opponent in view.opponents) and before > 0:
            return None
        if before > self.call_shanten:
            return wanted
        ranked = self.rank(view)
        kept = self.kan_reference(view, ranked[0])
        if kept is None or not _worth_points(ranked):  # no points in sight: the rule of thumb
            return wanted
        lines = [self._kan_line(view, meld, ranked) for meld in keeping]
        best = max(lines, key=lambda line: line.value)
        return best.meld if best.value > kept else None

    def discard_value(self, view: SeatView, candidate: Candidate) -> tuple[float, tuple[str, ...]] | None:
        """A discard's figure, with its reasons; None where the search did not value it.  With
        nobody declared, what the advisor ranks discards by (:func:`unthreatened_value`: the
        search alone against the wall, less the open seats' charge); against a riichi, the
        contested line less the risk of dealing in (:func:`~app.core.advice.actions.push_value`)."""
        line = self.contested_line(candidate)
        if line is None or candidate.expected is None or not self._valued(view):
            return None
        threats = [is_threat(opponent) for opponent in view.opponents]
        if not any(threats):
            # What the advisor ranks by (best_against_threats): the search alone against the wall
            # less the open seats' charge.  Ranked by the contested line instead, it won fewer
            # hands (docs/table.md).
            value, danger, charge = unthreatened_value(candidate, view.opponents, self._open_cost(view))
            reasons = [
                f"expected score {candidate.expected.expected_score:,.0f} alone against the wall "
                f"({line.expected_score:,.0f} with the other seats' wins)",
                f"shanten {candidate.shanten}, win {candidate.expected.win_probability:.1%} "
                f"({line.win_probability:.1%} with the other seats' wins)",
            ]
            if charge:
                reasons.append(f"against the open seats: deals in {danger:.1%} now, {charge:,.0f} charged")
            return value, tuple(reasons)
        reasons = [
            f"expected score {line.expected_score:,.0f} with the other seats' wins "
            f"(alone against the wall {candidate.expected.expected_score:,.0f})",
            f"shanten {candidate.shanten}, win {line.win_probability:.1%}",
        ]
        value = self._push_value(view, candidate, threats)
        danger = 1.0 - combined_safety(
            v for v, threat in zip(candidate.safety_by_opponent, threats, strict=True) if threat
        )
        reasons.append(f"against the riichi: deals in {danger:.1%} now; {value:,.0f} after the risk (folding: 0)")
        return value, tuple(reasons)

    def discard_outcomes(self, view: SeatView, candidate: Candidate) -> HandOutcomes | None:
        """How a discard's figure (:meth:`discard_value`) ends the hand, as chances: the outcomes
        whose :attr:`~app.core.advice.actions.HandOutcomes.points` are that figure; None where
        the figure is None.

        With nobody declared, the search's wins alone against the wall, less those lost where the
        discard deals into an open seat that has not declared (its read chance), each such
        deal-in paying :attr:`open_seat_cost` of ``DEAL_IN_POINTS``.  Against a riichi, the
        contested line's wins where the hand survives, and each threat dealt into now or on a
        later discard at its cost (:func:`~app.core.advice.actions.push_terms`).  The rest
        (another seat's win, a draw) moves none of the seat's points, as the figure counts none."""
        line = self.contested_line(candidate)
        if line is None or candidate.expected is None or not self._valued(view):
            return None
        threats = [is_threat(opponent) for opponent in view.opponents]
        if not any(threats):
            open_cost = self._open_cost(view)
            dealt = open_seat_dangers(candidate.safety_by_opponent, view.opponents, open_cost)
            win, value = candidate.expected.win_probability, candidate.expected.expected_score
            costs = (open_cost * DEAL_IN_POINTS,) * len(dealt)
            return HandOutcomes(win * (1.0 - sum(dealt)), value / win if win > 0 else 0.0, dealt, costs, 0, 0, 0, 0)
        costs = self._threat_costs(view, threats)
        survive, dealt = push_terms(candidate.shanten, candidate.safety_by_opponent, costs, self.parameters)
        win = line.win_probability
        value = line.expected_score / win if win > 0 else 0.0
        return HandOutcomes(survive * win, value, dealt, costs, 0, 0, 0, 0)

    def kan_value(self, view: SeatView, meld: Meld) -> tuple[float, tuple[str, ...]] | None:
        """A closed or added kan's value on the discards' scale (:func:`~app.core.advice.actions.kan_value`),
        with its reasons; None where the search does not value it."""
        line = self.kan_line(view, meld)
        return None if line is None else (line.value, line.reasons)

    def kan_line(self, view: SeatView, meld: Meld, ranked: Sequence[Candidate] | None = None) -> KanValue | None:
        """A closed or added kan's line (:meth:`kan_value`'s figure with its chance of winning);
        None where the search does not value it.  ``ranked`` is :meth:`rank`'s answer for
        ``view`` where the caller has it already (else it is ranked again)."""
        if not self._valued(view) or view.checker.shanten_number(view.hand) > self.call_shanten:
            return None
        return self._kan_line(view, meld, self.rank(view) if ranked is None else ranked)

    def contested_line(self, candidate: Candidate) -> Contested | None:
        """A searched discard's line with the other seats' wins (:func:`~app.core.advice.actions.contested`),
        deal-ins left out; None for a discard the search did not value."""
        return None if candidate.expected is None else contested(candidate.expected.detail.by_turn, self.parameters)

    def kan_reference(self, view: SeatView, candidate: Candidate) -> float | None:
        """The best discard's value a kan is weighed against, on the kan's scale (contested):
        with nobody declared its contested line less the open seats' charge on that scale,
        else its push (:meth:`discard_value`)."""
        line = self.contested_line(candidate)
        if line is None or not self._valued(view):
            return None
        if any(is_threat(opponent) for opponent in view.opponents):
            found = self.discard_value(view, candidate)
            return None if found is None else found[0]
        charge = open_seat_charge(
            candidate.safety_by_opponent, view.opponents, self._open_cost(view), line.expected_score
        )[1]
        return line.expected_score - charge

    def _kan_line(self, view: SeatView, meld: Meld, ranked: Sequence[Candidate]) -> KanValue:
        """A closed or added kan valued with one draw more, its new dora and, for an added kan,
        the chance each opponent robs it: the danger model's for its tile (``ranked``'s candidate)."""
        robbing: list[tuple[float, float]] = []
        if meld.kind is MeldKind.ADDED_KAN:
            added = next((candidate for candidate in ranked if candidate.tile == meld.tiles[0]), None)
            if added is not None:
                opponents = [True] * len(view.opponents)
                costs = self._threat_costs(view, opponents)
                robbing = [(v.danger, cost) for v, cost in zip(added.safety_by_opponent, costs, strict=True)]
        after = view.hand.with_kong(meld)
        return kan_value(
            after, meld, self.situation(view), extra_draw=True, robbing=robbing, parameters=self.parameters
        )

    def discard(self, view: SeatView) -> Tile:
        """The advisor's best discard."""
        if view.minimum_fan:
            return fan_planner(view).discard(view.hand)
        return self.rank(view)[0].tile

    def rank(self, view: SeatView) -> list[Candidate]:
        """Every distinct discard, the advisor's pick first, then in the model's order."""
        threats = [is_threat(opponent) for opponent in view.opponents]
        valued: list[Candidate] = []
        if self.values(view):
            valued = evaluate_discards(
                view.hand,
                _without_red_fives(view.rules),
                void_suit=view.void_suit,
                dora_indicators=view.dora_indicators,
                opponents=view.opponents,
                turn=view.turn,
                weights=self.weights,
                visible=view.visible,
                model=DiscardModel.EXPECTED_SCORE,
                seat_wind=view.seat_wind,
                round_wind=view.round_wind,
                nuki=view.nuki,
                value_budget=VALUE_BUDGET,
                value_detours=self.detours(view.checker.shanten_number(view.hand)),
                value_shanten=self.value_shanten,
                danger_reads=self.danger_reads,
                cancelled=view.stop,
            )
            # No discard worth any points (no win the model can reach by its last turn, or an
            # open hand without a yaku): the values cannot tell the discards apart, and their
            # tie-break puts safety and shape before shanten; the linear model keeps the shape.
            if _worth_points(valued):
                if self.reads_the_table and supports(view.rules):
                    best = self._read_push_or_fold(view, valued)
                elif self.decides_in_placement and standing_of(view) is not None:
                    best = self._placed_push_or_fold(view, valued, threats)
                elif any(threats) and self.values_every_decision:
                    best = self._push_or_fold(view, valued, threats)
                else:
                    best = best_against_threats(valued, view.opponents, open_cost=self._open_cost(view))
                return [best, *(candidate for candidate in valued if candidate is not best)]
        ranked = evaluate_discards(
            view.hand,
            view.rules,
            dora_indicators=view.dora_indicators,
            opponents=view.opponents,
            turn=view.turn,
            weights=self.weights,
            visible=view.visible,
            danger_reads=self.danger_reads,
        )
        if any(threats) and self._valued(view):
            best = self._fold(ranked, threats)
            ranked = [best, *(candidate for candidate in ranked if candidate is not best)]
        if self.figures_everywhere and valued and supports(view.rules):
            # Every discard is worth nothing: each with its figure (0 points, less the open seats'
            # charge); with nobody declared the one charged least goes first, equal figures (no
            # open seat) in the linear model's order.
            twins = {candidate.tile: candidate for candidate in valued}
            ranked = [twins.get(candidate.tile, candidate) for candidate in ranked]
            if not any(threats) and self._valued(view):
                best = best_against_threats(ranked, view.opponents, open_cost=self._open_cost(view))
                ranked = [best, *(candidate for candidate in ranked if candidate is not best)]
        return ranked

    def appraise_calls(self, view: SeatView, tile: Tile, options: Sequence[Meld]) -> CallValues | None:
        """Every call of ``options`` and passing valued by the search, for a ranking that shows a
        figure for every action where :meth:`call_with_values` gave none (no call brings the
        hand nearer): None unless :attr:`figures_everywhere`, the rules have the model and the
        hand is :attr:`call_shanten` or nearer."""
        if (
            not self.figures_everywhere
            or not options
            or not self._valued(view)
            or view.checker.shanten_number(view.hand) > self.call_shanten
        ):
            return None
        found = call_values(view.hand, tile, options, self.situation(view), parameters=self.parameters)
        return found._replace(verdict="no call brings the hand nearer: passing")

    def _threat_costs(self, view: SeatView, threats: Sequence[bool]) -> tuple[float, ...]:
        """What dealing into each opponent of ``view`` costs (:func:`~app.core.advice.actions.threat_costs`)."""
        return threat_costs(threats, _dealer_offsets(view), DEAL_IN_POINTS, self.parameters)

    def _push_value(self, view: SeatView, candidate: Candidate, threats: Sequence[bool]) -> float:
        """:func:`~app.core.advice.actions.push_value` of a candidate's contested line against ``threats``."""
        costs = self._threat_costs(view, threats)
        line = self.contested_line(candidate)
        expected = line.expected_score if line else 0.0
        return push_value(expected, candidate.shanten, candidate.safety_by_opponent, costs, self.parameters)

    def _push_or_fold(self, view: SeatView, valued: Sequence[Candidate], threats: Sequence[bool]) -> Candidate:
        values = {id(candidate): self._push_value(view, candidate, threats) for candidate in valued}
        best = min(valued, key=lambda candidate: -round(values[id(candidate)] * _VALUE_SCALE))
        if values[id(best)] > 0:
            return best
        return self._fold(valued, threats)

    def table_read(self, view: SeatView) -> TableRead:
        """The other seats as this seat reads them (:func:`~app.core.advice.reads.table_read`)."""
        return table_read(
            view.opponents,
            turn=view.turn,
            dealer_offsets=_dealer_offsets(view),
            dora_indicators=view.dora_indicators,
            silent_closed_factor=self.parameters.silent_closed_factor,
            open_factor=self.parameters.open_factor,
        )

    def read_values(self, view: SeatView, valued: Sequence[Candidate]) -> ReadValues:
        """Each valued candidate's push against the read table, and folding, in points and, where
        the table plays for placement (``view.scores``), in expected placement points.

        The fold throws the held tiles, each the least costly left, the first being the
        candidate :attr:`ReadValues.folding` (:func:`~app.core.advice.actions.fold_outcomes`)."""
        read = self.table_read(view)
        noten = view.noten_payment
        pushes = {}
        for candidate in valued:
            if candidate.expected is None:
                continue
            pushes[id(candidate)] = read_push_outcomes(
                candidate.expected.detail.by_turn,
                candidate.shanten,
                candidate.safety_by_opponent,
                read,
                noten,
                self.parameters,
            )
        ready = read.ready(view.turn)

        def cost(candidate: Candidate) -> float:
            return sum(
                chance * verdict.danger_if_ready * price
                for chance, verdict, price in zip(ready, candidate.safety_by_opponent, read.costs, strict=True)
            )

        by_cost = sorted(valued, key=cost)  # stable: ties keep the model's order
        held = view.hand.counts
        dangers = [
            tuple(verdict.danger_if_ready for verdict in candidate.safety_by_opponent)
            for candidate in by_cost
            for _ in range(held[candidate.tile])
        ]
        fold = fold_outcomes(dangers, read, noten)
        standing = standing_of(view)
        if standing is None:
            return ReadValues({key: line.points for key, line in pushes.items()}, by_cost[0], fold.points, pushes)
        # Who wins when another seat does: each seat by its ready chance halfway to the last turn.
        winners = read.ready((view.turn + LAST_TURN) // 2)
        placed = {key: line.placement(standing, winners) for key, line in pushes.items()}
        return ReadValues(placed, by_cost[0], fold.placement(standing, winners), pushes)

    def placements(self, view: SeatView, valued: Sequence[Candidate]) -> dict[int, float]:
        """Each of the searched ``valued`` candidates in expected placement points, keyed by ``id``;
        empty where the table plays for no placement.  Reading the table (:attr:`reads_the_table`),
        its push against the read table (:meth:`read_values`); else the outcomes of its figure in
        points (:meth:`discard_outcomes`), the rest of the hand moving nothing: near the start of a
        game these rank as the points do, and nearer its end by where they leave the seat."""
        standing = standing_of(view)
        if standing is None:
            return {}
        if self.reads_the_table:
            return self.read_values(view, valued).values
        found = {}
        for candidate in valued:
            outcomes = self.discard_outcomes(view, candidate)
            if outcomes is not None:
                found[id(candidate)] = outcomes.placement(standing, ())
        return found

    def line_placements(self, view: SeatView, lines: Sequence[tuple[float, float]]) -> list[float] | None:
        """Lines known only by their value in points and their chance of winning (``(value,
        win_probability)``: a call's, or passing's, :func:`~app.core.advice.actions.call_values`),
        each in expected placement points; None where the table plays for no placement.

        The seat wins with ``win_probability``, each win worth ``value`` over it on average.  The
        rest of the hand moves none of the scores, as the lines' points count nothing for it
        (:meth:`placements`' discards likewise).  Reading the table (:attr:`reads_the_table`, the
        ``reader``), the table is read once for all instead: the hand ends in an exhaustive draw
        with the read's chance that nobody wins (:func:`~app.core.advice.actions.draw_chance`),
        the scores unmoved, else in another seat's win, each by its read ready chance, the seat
        not paying.  Deal-ins and the noten payments are left out, as the lines' points leave
        them out."""
        standing = standing_of(view)
        if standing is None:
            return None
        if not self.reads_the_table:
            nothing = (0.0,) * (len(standing.scores) - 1)
            return [
                HandOutcomes(
                    min(max(win, 0.0), 1.0), value / win if win > 0 else 0.0, nothing, nothing, 0, 0, 0, 0
                ).placement(standing, ())
                for value, win in lines
            ]
        read = self.table_read(view)
        nobody_wins = draw_chance(read)
        winners = read.ready((view.turn + LAST_TURN) // 2)
        no_deal_in = (0.0,) * len(read.costs)
        placed = []
        for value, win_probability in lines:
            win = min(max(win_probability, 0.0), 1.0)
            outcomes = HandOutcomes(
                win,
                value / win if win > 0 else 0.0,
                no_deal_in,
                read.costs,
                nobody_wins * (1.0 - win),
                0.0,
                0.0,
                0.0,
            )
            placed.append(outcomes.placement(standing, winners))
        return placed

    def _placed_best_call(self, view: SeatView, found: CallValues) -> CallValue | None:
        """The call of ``found`` worth most in expected placement points (:meth:`line_placements`),
        where it is worth more than passing; else None (as :meth:`CallValues.best` in points, and
        so where the table plays for no placement)."""
        lines = [(found.passing, found.passing_win_probability)]
        lines += [(call.value, call.win_probability) for call in found.calls]
        placed = self.line_placements(view, lines)
        if placed is None:
            return found.best()
        passing, *calls = placed
        best = max(range(len(calls)), key=calls.__getitem__, default=None)
        return found.calls[best] if best is not None and calls[best] > passing else None

    def _placed_push_or_fold(self, view: SeatView, valued: Sequence[Candidate], threats: Sequence[bool]) -> Candidate:
        """The candidate worth most in expected placement points (:meth:`placements`), equal ones
        by the model's order; against a riichi the fold's first tile where no push is worth more
        than folding, which moves nothing (as its figure in points is 0)."""
        placed = self.placements(view, valued)
        pushing = [candidate for candidate in valued if id(candidate) in placed]
        best = min(pushing, key=lambda candidate: -round(placed[id(candidate)] * _VALUE_SCALE))
        if any(threats):
            standing = standing_of(view)
            assert standing is not None
            if placed[id(best)] <= placement_points(standing, (0.0,) * len(standing.scores)):
                return self._fold(valued, threats)
        return best

    def _read_push_or_fold(self, view: SeatView, valued: Sequence[Candidate]) -> Candidate:
        """The candidate worth most against the read table, or the fold's first tile when folding
        is worth more; equal values go to more points, then to the model's order."""
        found = self.read_values(view, valued)
        pushing = [candidate for candidate in valued if id(candidate) in found.values]

        def order(candidate: Candidate) -> tuple[float, float]:
            return (
                -round(found.values[id(candidate)] * _VALUE_SCALE),
                -round(found.pushes[id(candidate)].points * _VALUE_SCALE),
            )

        best = min(pushing, key=order)
        return best if found.values[id(best)] >= found.fold else found.folding

    @staticmethod
    def _fold(ranked: Sequence[Candidate], threats: Sequence[bool]) -> Candidate:
        """The candidate least likely to deal into a threat, the first of ``ranked`` among equals."""
        least = set(safest([(c.tile, c.safety_by_opponent) for c in ranked], threats))
        return next(candidate for candidate in ranked if candidate.tile in least)

    def values(self, view: SeatView) -> bool:
        """Whether this discard is ranked by expected score (else by the linear model)."""
        return (
            self.ranks_by_value
            and (supports(view.rules) or sichuan_value.supports(view.rules))
            # Sichuan's model searches with detours everywhere: its cut stays at one-shanten.
            and view.checker.shanten_number(view.hand)
            <= (self.value_shanten if supports(view.rules) else VALUE_SHANTEN)
        )


def _worth_points(candidates: Sequence[Candidate]) -> bool:
    """Whether any of ``candidates`` is worth points by the search."""
    return any(candidate.expected and candidate.expected.expected_score > 0 for candidate in candidates)


def _dealer_offsets(view: SeatView) -> list[bool]:
    """Which opponent (in ``view.opponents``' order) deals."""
    seats = len(view.opponents) + 1
    mine = view.seat_wind - EAST  # 0 when this seat deals
    return [(offset + mine) % seats == 0 for offset in range(1, seats)]


class ReadValues(NamedTuple):
    """:meth:`Advisor.read_values`' answer."""

    #: Each pushed candidate's value (keyed by ``id``): placement points where ``placed``, else points.
    values: dict[int, float]
    #: The candidate folding throws first.
    folding: Candidate
    #: Folding's value, in the same unit.
    fold: float
    #: Each pushed candidate's outcomes (keyed by ``id``).
    pushes: dict[int, HandOutcomes]


def standing_of(view: SeatView) -> Standing | None:
    """The rank model's view of the game from ``view`` (the seat first, then the others in play
    order), or None where the table plays for no placement."""
    if not view.scores:
        return None
    seats = len(view.scores)
    order = tuple((view.seat + offset) % seats for offset in range(seats))
    return Standing(
        tuple(view.scores[seat] for seat in order),
        view.hands_after,
        order,
        uma_for(seats, view.uma),
    )


class NearAdvisor(Advisor):
    """The advisor as it was before issue #36's figure for every decision (main at 468fec3),
    kept to compare with: discards ranked by expected score at one-shanten or closer
    (:data:`VALUE_SHANTEN`; the linear model farther), calls and kans valued at two-shanten or
    closer (:data:`CALL_SHANTEN`), every search with one detour, no figure for what the
    rules of thumb decide, and riichi weighed with the best discard only."""

    name = "near"
    value_shanten = VALUE_SHANTEN
    call_shanten = CALL_SHANTEN
    far_detours = DEFAULT_EXTRA
    figures_everywhere = False
    riichi_with_any_ready_discard = False
    danger_reads = False
    open_seat_cost = 0.0


class TableReader(NearAdvisor):
    """The ``near`` advisor reading every other seat (its figures were measured on it): its
    discards near tenpai are valued against each seat's chance of being ready and what dealing
    into it costs, the other seats' wins on each turn following the same reads, and folding is
    valued beside pushing (:meth:`Advisor.read_values`)."""

    name = "reader"
    reads_the_table = True


class PlacementAdvisor(Advisor):
    """The advisor deciding in expected placement points where the table plays for placement:
    its discards near tenpai by their placement figures (:meth:`Advisor.placements`: the
    outcomes of their figures in points through the rank model), pushing against a riichi only
    where that is worth more than folding; a call the search values against passing by each
    line's (:meth:`Advisor.line_placements`); riichi with a discard by that discard's figure
    moved by the riichi line's over the dama line's (:func:`~app.core.table.decide.decide`).
    Its kans, the rule of thumb that takes a call for its speed, and its wins are the advisor's."""

    name = "placer"
    decides_in_placement = True


class LinearAdvisor(NearAdvisor):
    """The advisor before the expected-score model: the linear model ranks every discard, and
    calls, riichi and kans follow :class:`ShantenCaller`'s rules of thumb."""

    name = "linear"
    ranks_by_value = False
    values_every_decision = False


def is_threat(opponent: Opponent) -> bool:
    """Whether the advisor charges for dealing into ``opponent``: only after a riichi declaration.

    Every strategy here but ``random`` declares riichi as soon as a closed hand is
    ready, so a closed hand that has not declared is rarely ready (only when it got
    ready with fewer than four tiles left to draw, or plays at random).  An open hand
    may be ready silently, but charging for it as for a riichi (``DEAL_IN_POINTS``, at
    the ready rate of a hand with that many calls) cost more wins than deal-ins: over
    2,000 hands of each of seeds 42 and 7, charging for open hands too won 1.1 and 2.3
    fewer hands per 100 seats and dealt in about 1 fewer time, and against the
    ``linear`` advisor took 85 points a hand more (seed 42) and 55 less (seed 7): no
    gain beyond the noise, and only the riichi-only charge beat ``linear`` on both seeds.
    """
    return opponent.riichi


def best_against_threats(
    ranked: Sequence[Candidate], opponents: Sequence[Opponent], *, open_cost: float = 0.0
) -> Candidate:
    """The best of ``ranked`` (expected-score candidates, best first), charging for dealing in
    only to the threats (:func:`is_threat`).

    The expected-score ranking charges a discard ``danger * (expected score + DEAL_IN_POINTS)``
    with the danger against every opponent, reading an opponent who has not declared
    as ready as often as players are at that turn (23% by the ninth discard, 41% by the
    fourteenth).  At this table a silent closed hand is rarely ready, and charging for
    it made the advisor give up a shanten on one discard in twelve with nobody
    declared, and win a fifth less often than the ``linear`` advisor.  Equal values keep
    ``ranked``'s order (its tie-break: value kept, safety, connections).

    ``open_cost`` charges each open seat that has not declared too: its chance of being dealt
    into (its read ready chance times the tile's danger) times the hand's value and
    ``open_cost`` of ``DEAL_IN_POINTS``.  Candidates the search did not value come last.
    """
    threats = [is_threat(opponent) for opponent in opponents]
    if all(threats):
        return ranked[0]

    def order(candidate: Candidate) -> float:
        expected = candidate.expected
        if expected is None:
            return float("inf")
        verdicts = (verdict for verdict, threat in zip(candidate.safety_by_opponent, threats, strict=True) if threat)
        danger = 1.0 - combined_safety(verdicts)
        worth = expected.expected_score - danger * (expected.expected_score + DEAL_IN_POINTS)
        return -round((worth - unthreatened_value(candidate, opponents, open_cost)[2]) * _VALUE_SCALE)

    return min(ranked, key=order)


def unthreatened_value(
    candidate: Candidate, opponents: Sequence[Opponent], open_cost: float
) -> tuple[float, float, float]:
    """(value, chance of dealing in, charge) of a searched ``candidate`` before any riichi
    danger: its expected score alone against the wall less the open seats' charge on that
    scale (:func:`open_seat_charge`).  What :func:`best_against_threats` ranks by with nobody
    declared, and the advisor's figure there (:meth:`Advisor.discard_value`)."""
    assert candidate.expected is not None
    score = candidate.expected.expected_score
    danger, charge = open_seat_charge(candidate.safety_by_opponent, opponents, open_cost, score)
    return score - charge, danger, charge


def open_seat_charge(
    safety: Sequence[TileSafety], opponents: Sequence[Opponent], open_cost: float, value: float
) -> tuple[float, float]:
    """(chance of dealing in, charge) of a discard (``safety``: its verdict against each of
    ``opponents``) against the open seats that have not declared: each seat's read ready chance
    times the tile's danger, times the hand's ``value`` lost and ``open_cost`` of
    ``DEAL_IN_POINTS`` paid.  (0, 0) without an open seat or a cost.

    >>> opened = Opponent(melds=(Meld.of("pon", (31, 31, 31)),))
    >>> risky = TileSafety(0.9, 0.1, 0.2, 0.5, ())
    >>> open_seat_charge([risky, risky], [opened, Opponent()], 0.45, 2000.0)
    (0.1, 447.5)
    """
    if not open_cost:
        return 0.0, 0.0
    danger = charge = 0.0
    for dealt in open_seat_dangers(safety, opponents, open_cost):
        if dealt:
            danger += dealt
            charge += dealt * (value + open_cost * DEAL_IN_POINTS)
    return danger, charge


def open_seat_dangers(
    safety: Sequence[TileSafety], opponents: Sequence[Opponent], open_cost: float
) -> tuple[float, ...]:
    """The chance a discard (``safety``: its verdict against each of ``opponents``) deals into each
    opponent the advisor charges with nobody declared: an open seat that has not declared, where
    it has a cost (``open_cost``); 0 for every other.

    >>> opened = Opponent(melds=(Meld.of("pon", (31, 31, 31)),))
    >>> risky = TileSafety(0.9, 0.1, 0.2, 0.5, ())
    >>> open_seat_dangers([risky, risky], [opened, Opponent()], 0.45)
    (0.1, 0.0)
    """
    return tuple(
        verdict.danger if open_cost and not opponent.riichi and opponent.called else 0.0
        for verdict, opponent in zip(safety, opponents, strict=True)
    )


#: Values equal to 1e-6 points tie (as the discard ranking's).
_VALUE_SCALE: Final = 1e6


@lru_cache(maxsize=8)
def _without_red_fives(rules: RuleProfile) -> RuleProfile:
    return replace(rules, red_fives=False) if rules.red_fives else rules


class Greedy(ShantenCaller):
    """Shanten only: any discard leaving the lowest shanten, chosen at random."""

    name = "greedy"

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(0)

    def discard(self, view: SeatView) -> Tile:
        """A random discard among those of lowest shanten."""
        options = shanten_after_discards(view.hand, view.checker)
        lowest = min(shanten for _, shanten in options)
        return self.rng.choice([tile for tile, shanten in options if shanten == lowest])


class Heuristic(ShantenCaller):
    """Seed 001's discard rule (lowest shanten, then the least useful tile)."""

    name = "heuristic"

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS, rng: random.Random | None = None) -> None:
        pass

    def discard(self, view: SeatView) -> Tile:
        """The tile with the best ``-100 * shanten - value``; ties go to the lower tile."""
        counts = view.hand.counts
        best_tile, best_score = -1, float("-inf")
        for tile, shanten in shanten_after_discards(view.hand, view.checker):
            after = counts[:tile] + bytes((counts[tile] - 1,)) + counts[tile + 1 :]
            score = -100 * shanten - tile_value(tile, after)
            if score > best_score:
                best_tile, best_score = tile, score
        return best_tile


def tile_value(tile: Tile, counts: bytes) -> int:
    """Seed 001's ``evaluateTileValue``: how much ``tile`` is worth beside ``counts``
    (the hand without it).

    >>> from app.core.shape.tiles import parse_mpsz, counts_from_tiles
    >>> counts = counts_from_tiles(parse_mpsz("24m1z"))  # 234m9p1z after 3m, say
    >>> tile_value(2, counts), tile_value(17, counts), tile_value(27, counts)
    (40, -15, -20)
    """
    value = 0
    if is_honor(tile):
        value -= 30
    position = tile % 9
    if not is_honor(tile) and position in (0, 8):
        value -= 15
    if not is_honor(tile):
        start = tile - position
        for neighbour in range(max(start, tile - 2), min(start + 9, tile + 3)):
            if neighbour != tile and counts[neighbour]:
                value += 20
    if counts[tile]:
        value += 10
    return value


class RandomPlayer:
    """Every decision at random among the legal ones (calls and kongs half the time)."""

    name = "random"

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(0)

    def discard(self, view: SeatView) -> Tile:
        """A random concealed tile."""
        return self.rng.choice([tile for tile, count in enumerate(view.hand.counts) for _ in range(count)])

    def call(self, view: SeatView, tile: Tile, options: Sequence[Meld]) -> Meld | None:
        """One of ``options`` half the time."""
        return self.rng.choice(options) if self.rng.random() < 0.5 else None

    def kan(self, view: SeatView, options: Sequence[Meld]) -> Meld | None:
        """One of ``options`` half the time."""
        return self.rng.choice(options) if self.rng.random() < 0.5 else None

    def declare_riichi(self, view: SeatView, discard: Tile) -> bool:
        """Half the time."""
        return self.rng.random() < 0.5

    def kita(self, view: SeatView, north: Tile) -> bool:
        """Half the time."""
        return self.rng.random() < 0.5

    def exchange(self, view: SeatView, options: Sequence[tuple[Tile, ...]]) -> tuple[Tile, ...]:
        """Any of ``options``."""
        return self.rng.choice(list(options))

    def void_suit(self, view: SeatView) -> int:
        """Any suit."""
        return self.rng.randrange(3)


_SUIT_SIZE: Final = 9


def plain_void_suit(counts: bytes) -> int:
    """The suit (0 m, 1 p, 2 s) with fewest tiles in ``counts``; the first among equals.

    >>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
    >>> plain_void_suit(counts_from_tiles(parse_mpsz("1234567m2399p55s")))
    2
    """
    sizes = [sum(counts[suit * _SUIT_SIZE : (suit + 1) * _SUIT_SIZE]) for suit in range(3)]
    return sizes.index(min(sizes))


def plain_exchange(counts: bytes, options: Sequence[tuple[Tile, ...]]) -> tuple[Tile, ...]:
    """Three tiles of the shortest suit that has three (``options`` are the legal choices), the
    least useful of it: fewest neighbours held within two and fewest copies
    (:func:`tile_value`), then the lowest tiles.

    >>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
    >>> hand = counts_from_tiles(parse_mpsz("1234567m2399p159s"))
    >>> plain_exchange(hand, [(0, 1, 2), (9, 10, 17), (18, 22, 26)])
    (18, 22, 26)
    """
    sizes = [sum(counts[suit * _SUIT_SIZE : (suit + 1) * _SUIT_SIZE]) for suit in range(3)]

    def key(option: tuple[Tile, ...]) -> tuple[int, int, tuple[Tile, ...]]:
        return (sizes[option[0] // _SUIT_SIZE], sum(tile_value(tile, counts) for tile in option), option)

    return min(options, key=key)


def unseen_tiles(view: SeatView) -> bytes:
    """Copies of each tile this seat has not seen: not in its hand or melds, the rivers, the
    other seats' melds, nor ``view.visible``; none of a kind the set does not have (sanma's 2m-8m).

    >>> from app.core.shape.rules import rule_profile
    >>> from app.core.shape.tiles import parse_mpsz
    >>> rules = rule_profile("mcr")
    >>> hand = Hand.from_tiles(parse_mpsz("111m"))
    >>> view = SeatView(0, hand, None, 1, (Opponent(river=(0, 1)),), (), 50, rules, Checker(rules))
    >>> list(unseen_tiles(view)[:3])
    [0, 3, 4]
    >>> sanma = rule_profile("sanma")
    >>> list(unseen_tiles(view._replace(rules=sanma, checker=Checker(sanma)))[:3])
    [0, 0, 0]
    """
    seen = bytearray(view.hand.all_counts())
    for opponent in view.opponents:
        for tile in opponent.river:
            seen[tile] += 1
        for meld in opponent.melds:
            for tile in meld.tiles:
                seen[tile] += 1
    if view.visible is not None:
        for tile, count in enumerate(view.visible):
            seen[tile] += count
    absent = frozenset(view.rules.absent_tiles)
    return bytes(0 if tile in absent else max(0, COPIES - count) for tile, count in enumerate(seen))


def fan_planner(view: SeatView) -> FanPlanner:
    """The fan planner of the seat that sees ``view`` (its winds, the unseen tiles, the rules'
    forms), counting a ready hand's fans with the MCR scorer."""
    return planner_for(
        view.checker,
        unseen_tiles(view),
        seat_wind=view.seat_wind,
        round_wind=view.round_wind,
        minimum_fan=view.minimum_fan,
    )


def keeps_a_yaku(hand: Hand, value_honors: Sequence[Tile], *, open_tanyao: bool = True) -> bool:
    """Whether an open ``hand`` has a yaku in sight, by a rule that is simple and safe
    rather than complete: a triplet of a value honour (melded, or three copies held), or,
    with ``open_tanyao``, only simples in the melds and at most one terminal or honour left
    among the concealed tiles (one discard from all simples).

    >>> from app.core.shape.tiles import parse_mpsz
    >>> pon = Meld.of("pon", parse_mpsz("555z"))
    >>> keeps_a_yaku(Hand.from_tiles(parse_mpsz("1239m456p78s"), (pon,)), DRAGONS)
    True
    >>> chi = Meld.of("chi", parse_mpsz("234m"))
    >>> keeps_a_yaku(Hand.from_tiles(parse_mpsz("567m456p78s11z"), (chi,)), DRAGONS)
    False
    >>> keeps_a_yaku(Hand.from_tiles(parse_mpsz("567m456p78s1z"), (chi,)), DRAGONS)
    True
    """
    counts = hand.counts
    if any(counts[tile] >= 3 for tile in value_honors):
        return True
    if any(meld.tiles[0] in value_honors and meld.tiles[0] == meld.tiles[1] for meld in hand.melds):
        return True
    if not open_tanyao:
        return False
    if any(tile in _ORPHAN_SET for meld in hand.melds for tile in meld.tiles):
        return False
    return sum(counts[tile] for tile in ORPHANS) <= 1


_ORPHAN_SET: Final = frozenset(ORPHANS)


def _needs_opening(hand: Hand, rules: RuleProfile) -> bool:
    required = rules.win_requires_meld
    return bool(required) and not any(meld.kind in required for meld in hand.melds)


Strategy = Advisor | Greedy | Heuristic | RandomPlayer

#: Strategy classes by name; each is built with the advisor weights and a seeded random source.
PLAYER_KINDS: Final[Mapping[str, Callable[[Weights, random.Random], Strategy]]] = MappingProxyType(
    {
        "advisor": Advisor,
        "greedy": Greedy,
        "heuristic": Heuristic,
        "linear": LinearAdvisor,
        "near": NearAdvisor,
        "placer": PlacementAdvisor,
        "random": RandomPlayer,
        "reader": TableReader,
    }
)


def make_player(name: str, weights: Weights = DEFAULT_WEIGHTS, rng: random.Random | None = None) -> Strategy:
    """The strategy called ``name``.

    >>> make_player("expert")
    Traceback (most recent call last):
    ...
    app.core.table.players.UnknownStrategy: unknown strategy 'expert'; strategies are advisor, greedy, heuristic, linear, near, placer, random, reader
    """
    try:
        kind = PLAYER_KINDS[name]
    except (KeyError, TypeError):
        raise UnknownStrategy(
            f"unknown strategy {name!r}; strategies are {', '.join(PLAYER_KINDS)}", field="players"
        ) from None
    return kind(weights, rng or random.Random(0))
