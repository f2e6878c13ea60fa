"""What a seat's decisions other than the discard are worth: calls, riichi or dama, pushing or folding.

:mod:`~app.core.advice.discard` values a discard by its expected score (the search of
:mod:`~app.core.advice.expected_score`) less the expected cost of dealing in.  This module puts
the seat's other decisions on the same scale, points at the end of the hand, so that a table
strategy (:class:`app.core.table.players.Advisor`) can compare every legal action and say why:

**A call against passing** (:func:`call_values`).  Passing keeps the 3n+1 hand waiting for its
next draw; its value is the search's value of that draw state (:func:`waiting_value`).  A chi or
pon makes a 3n+2 open hand that discards at once; its value is the best discard the search finds
after the call, the tiles kuikae forbids left out.  An open kan makes a 3n+1 hand, valued as a
waiting one.  The search scores an open hand with its yaku (none: it can never win), its fu and
dora, and without riichi, so a call that opens a hand without a yaku is worth nothing, and one
that gives up riichi's value is worth less.  Not modelled: the defence a shorter hand gives up.

**A kan** (:func:`kan_value`): the hand after it waiting for its replacement draw (a closed or
added kan draws once more), its new dora as a factor on its wins (:func:`new_dora_factor`), and
an added kan's chance of being robbed at a deal-in's cost.

**Riichi or dama** (:func:`riichi_or_dama`) for a ready closed hand and the discard that keeps it
ready.  ``t`` is the search's chance of winning by self-draw by the last turn (contested); with a
share ``r`` of wins made on discards (:attr:`~ActionParameters.ron_share`), the hand has as
many chances on discards as ``r / (1 - r)`` times its draws, so it wins in all with
``w = 1 - (1 - t) ** (1 / (1 - r))``, ``d = w - t`` on a discard.  ``T`` and ``D`` are the mean
points of a self-draw and of a win on a discard over the waits' unseen copies::

    riichi = t * T_r + f * d * D_r + I - (1 - t - f * d) * h * stick
    dama   = t * T_d + d * D_d

Riichi's wins count its han and the ura dora as an expectation over the unseen tiles; a dama
hand without a yaku wins nothing on a discard (``D_d = 0``).  ``f``
(:attr:`~ActionParameters.riichi_win_factor`) is how much a declaration lowers the chance of a
win on a discard (opponents stop throwing dangerous tiles); the stick is lost when another seat
wins (``h``, :attr:`~ActionParameters.hands_won_share`: at a draw it stays on the table).
``I`` is ippatsu's han on a win before the seat's next discard: the next draw's share of ``t``
(``t1 = 1 - (1 - t) ** (1 / n)``, ``n`` draws left) times the self-draw's gain with ippatsu,
and as many chances on the go-around's discards (times ``f``) times the discard win's gain; a
call that breaks ippatsu is not modelled.  Left out, and said in the reasons: dama's freedom to
change the wait or fold.

**Push or fold** (:func:`push_value`, :func:`safest`): a discard's value against the
opponents who threaten (in riichi) is its expected score where the hand survives, less the
deal-in cost where it does not.  The hand survives this discard with the safety the danger
model gives and each discard it still needs to get ready with ``1 -``
:attr:`~ActionParameters.pushed_discard_danger`; a dealer's threat costs
:attr:`~ActionParameters.dealer_deal_in_factor` times as much.  Folding (the safest tile, no
value kept) is worth 0, so a hand pushes only while its value outweighs the risk.

>>> from app.core.shape.rules import rule_profile
>>> from app.core.shape.tiles import parse_mpsz
>>> rules = rule_profile("riichi", red_fives=False)
>>> hand = Hand.from_tiles(parse_mpsz("23m456p789s255s11z"))  # a pon of 5s brings it to one-shanten
>>> situation = Situation.of(hand, rules, turn=6, seat_wind=SOUTH)
>>> found = call_values(hand, 22, [Meld.of("pon", [22, 22, 22])], situation)
>>> found.calls[0].value < found.passing  # open, the hand has no yaku: it can never win
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, NamedTuple

from app.core.advice.expected_score import (
    DEFAULT_EXTRA,
    DEFAULT_MAX_STATES,
    LAST_TURN,
    ExpectedScores,
    TurnValue,
    expected_scores,
)
from app.core.advice.placement import Standing, placement_points
from app.core.advice.reads import TableRead
from app.core.advice.safety import TileSafety
from app.core.errors import TenpaiError
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld, MeldKind
from app.core.shape.rules import RuleProfile
from app.core.shape.tiles import COPIES, EAST, HONORS, NORTH, SOUTH, Tile, dora_from_indicator, format_tile
from app.core.value.riichi_scoring import RiichiScore, base_points_of, riichi_payments
from app.core.value.scoring import REFUSALS, score, win_payments
from app.core.value.scoring_context import WinContext, check_win_tile

RIICHI_STICK: Final = 1000
"""Points a riichi declaration puts on the table."""


@dataclass(frozen=True)
class ActionParameters:
    """The figures the decision values rest on that no source fixes; each is an option.

    >>> ActionParameters().riichi_win_factor
    0.8
    """

    #: How much a riichi declaration lowers the chance of winning on a discard, against dama:
    #: opponents who see a declaration throw fewer dangerous tiles.  Chosen (not measured
    #: here); at a table of players who never fold it would be 1.
    riichi_win_factor: float = 0.8
    #: The share of a ready hand's wins made on a discard (the rest self-drawn).  Chosen: in the
    #: project's self-play about three wins in five are on a discard (the advisor's
    #: ``self_draw_share`` 0.36-0.42 over 200 hanchans of seed 24), in the Tenhou games 264 of 456.
    ron_share: float = 0.5
    #: The share of hands that end with a win rather than a draw: the Tenhou games of the shared
    #: test data, 456 hands of 549 (the rest are draws, where a riichi stick stays on the table).
    hands_won_share: float = 0.83
    #: The chance of dealing in with each further discard a hand pushes to get ready against
    #: a declared opponent.  Chosen: about the danger of an unseen middle tile that is neither
    #: suji nor genbutsu in the danger model's tables at mid-game.
    pushed_discard_danger: float = 0.06
    #: A dealer's win costs this times a non-dealer's (Tenhou's payments: x6 against x4).
    dealer_deal_in_factor: float = 1.5
    #: The chance another seat ends the hand by winning in a turn: 0 before turn
    #: ``hazard_from_turn``, then ``hazard_per_turn`` more each turn, at most ``hazard_cap``.
    #: Measured on the 549 hands of the 54 Tenhou games in the shared test data
    #: (``scripts/measure_hand_ends.py``, three quarters of the chance any seat wins: 0.037 at
    #: turn 7, 0.089 at 10, 0.141 at 13, 0.12-0.14 after).  Four-player games: sanma (two
    #: opponents, faster hands) uses the same figures; the test data's one sanma game (6 hands)
    #: is too few to measure its own.
    hazard_from_turn: int = 4
    hazard_per_turn: float = 0.013
    hazard_cap: float = 0.13
    #: How much of the published ready chance a closed seat that has not declared keeps, when
    #: the advisor reads the table (:func:`~app.core.advice.reads.table_read`).  The published
    #: shares count every player, the declared ones too; how many ready closed hands stay silent
    #: is the table's habit.  Measured on self-play, where players declare almost every ready
    #: closed hand: 255 silent closed hands ready of 76,934 discards, against the 0.024 times as
    #: many the published shares expect at the same discards
    #: (``scripts/measure_ready_rates.py --rules riichi --games 2000 --seed 11 --silent``).
    #: Against players who often stay silent (people, more than bots) raise it toward 1.
    silent_closed_factor: float = 0.024
    #: The same for a seat with calls: 5,294 open seats ready of 18,828 discards in the same
    #: self-play, 0.695 times the published rates the danger model reads for them (the open-hand
    #: read ran high in the reader's calibration: 0.45 read where 0.29 were ready).
    open_factor: float = 0.695

    def others_win_hazard(self, turn: int) -> float:
        """The chance another seat wins in ``turn`` when the hand is still on.

        >>> [round(DEFAULT_PARAMETERS.others_win_hazard(turn), 3) for turn in (3, 6, 9, 12, 15)]
        [0.0, 0.026, 0.065, 0.104, 0.13]
        """
        return min(self.hazard_cap, max(0.0, (turn - self.hazard_from_turn) * self.hazard_per_turn))


DEFAULT_PARAMETERS: Final = ActionParameters()


class Contested(NamedTuple):
    """A line's value when the other seats may end the hand first."""

    expected_score: float
    win_probability: float


def contested(
    rows: Sequence[TurnValue], parameters: ActionParameters = DEFAULT_PARAMETERS, read: TableRead | None = None
) -> Contested:
    """The search's per-turn measures of one line (``rows``: its ``by_turn``, from the first turn
    to the last), each draw counted with the chance that the hand is still on when it comes.

    The search plays alone against the wall.  Its value from a later turn is the value of the
    same hand with fewer draws left, so the difference between two consecutive turns' values is
    what one more draw adds.  Each draw's addition is weighted by the chance that no other seat
    has won before it (:meth:`ActionParameters.others_win_hazard`).  This favours a fast line
    over a slow one of the same value, which the search alone does not.  Given the seat's
    ``read`` of the table, the hazard is the read's (:meth:`~app.core.advice.reads.TableRead.hazard`:
    from how likely each other seat is ready on each turn) instead of the constant one.

    >>> from app.core.advice.expected_score import TurnValue
    >>> rows = [TurnValue(t, 1.0, 0.1 * (19 - t), 100.0 * (19 - t)) for t in range(10, 19)]
    >>> found = contested(rows)
    >>> round(found.expected_score, 1), round(found.win_probability, 3)
    (540.0, 0.54)
    """
    hazard = read.hazard if read is not None else parameters.others_win_hazard
    expected = win = 0.0
    alive = 1.0
    for index, row in enumerate(rows):
        later = rows[index + 1] if index + 1 < len(rows) else None
        alive *= 1.0 - hazard(row.turn)
        expected += alive * (row.expected_score - (later.expected_score if later else 0.0))
        win += alive * (row.win_probability - (later.win_probability if later else 0.0))
    return Contested(expected, win)


class Situation(NamedTuple):
    """The seat's view the searches need: the wall it cannot see and the round's winds."""

    rules: RuleProfile
    #: Copies of each tile kind the seat has not seen.
    unseen: bytes
    dora_indicators: tuple[Tile, ...] = ()
    round_wind: Tile = EAST
    seat_wind: Tile = SOUTH
    #: The seat's turn: its discards so far plus one.
    turn: int = 1
    max_states: int = DEFAULT_MAX_STATES
    cancelled: Callable[[], bool] | None = None
    #: Norths the seat has set aside (sanma's kita), each a dora of its wins.
    nuki: int = 0
    #: Detours per path the searches allow (the search's ``extra``).
    detours: int = DEFAULT_EXTRA

    @classmethod
    def of(
        cls,
        hand: Hand,
        rules: RuleProfile,
        *,
        dora_indicators: Sequence[Tile] = (),
        seen: Sequence[Tile] = (),
        **fields: object,
    ) -> Situation:
        """A situation where the seat has seen its hand, the indicators and ``seen`` only (a
        kind the set does not have, as sanma's 2m-8m, has no copy unseen).

        >>> from app.core.shape.rules import rule_profile
        >>> list(Situation.of(Hand.from_tiles([0, 0, 8]), rule_profile("sanma")).unseen[:9])
        [2, 0, 0, 0, 0, 0, 0, 0, 3]
        """
        held = bytearray(hand.all_counts())
        for tile in (*dora_indicators, *seen):
            held[tile] += 1
        absent = frozenset(rules.absent_tiles)
        unseen = bytes(0 if tile in absent else max(0, COPIES - count) for tile, count in enumerate(held))
        return cls(rules, unseen, tuple(dora_indicators), **fields)  # type: ignore[arg-type]


class WaitingValue(NamedTuple):
    """A 3n+1 hand's value before its next draw, by the expected-score search."""

    expected_score: float
    win_probability: float
    tenpai_probability: float
    complete: bool


class CallValue(NamedTuple):
    """One call's value: the best line after it."""

    meld: Meld
    #: Expected points after the call (the best discard's, or the waiting hand's after a kan).
    value: float
    win_probability: float
    #: The discard the value is for (None after an open kan).
    discard: Tile | None
    shanten: int
    reasons: tuple[str, ...]


class CallValues(NamedTuple):
    """Passing and each call, on the same scale."""

    passing: float
    passing_win_probability: float
    calls: tuple[CallValue, ...]
    complete: bool
    #: Why the caller chose as it did (set by the caller; empty: not said).
    verdict: str = ""

    def best(self) -> CallValue | None:
        """The call worth more than passing (the most valuable), or None to pass."""
        best = max(self.calls, key=lambda call: call.value, default=None)
        return best if best is not None and best.value > self.passing else None


def _search(hand: Hand, situation: Situation, unseen: bytes) -> ExpectedScores:
    return expected_scores(
        hand,
        situation.rules,
        unseen=unseen,
        dora_indicators=situation.dora_indicators,
        round_wind=situation.round_wind,
        seat_wind=situation.seat_wind,
        nuki=situation.nuki,
        first_turn=situation.turn,
        extra=situation.detours,
        max_states=situation.max_states,
        cancelled=situation.cancelled,
    )


def waiting_value(hand: Hand, situation: Situation, parameters: ActionParameters = DEFAULT_PARAMETERS) -> WaitingValue:
    """The expected-score search's value of a 3n+1 ``hand`` waiting for its draw at
    ``situation.turn``, contested (:func:`contested`).

    The search values discards of a 3n+2 hand, so a placeholder is added and its discard read:
    an honour the hand does not hold, with a copy unseen (which the placeholder takes off the
    unseen, so the wall is the same); failing that, a tile the hand neither holds nor holds a
    neighbour of.  Such a tile joins no group, so the hand with it is as far from ready as
    without it.

    >>> from app.core.shape.rules import rule_profile
    >>> from app.core.shape.tiles import parse_mpsz
    >>> hand = Hand.from_tiles(parse_mpsz("123456789m1134p"))  # ready on 2p and 5p
    >>> found = waiting_value(hand, Situation.of(hand, rule_profile("riichi", red_fives=False)))
    >>> found.tenpai_probability, 0 < found.win_probability < 1
    (1.0, True)
    """
    counts = hand.all_counts()
    placeholder = next(
        (tile for tile in HONORS if counts[tile] == 0 and situation.unseen[tile] > 0),
        next((tile for tile in _LONE_FIRST if counts[tile] == 0 and not _has_neighbour(counts, tile)), None),
    )
    if placeholder is None:  # every kind is held or beside one held: a tile the hand does not hold
        placeholder = next(tile for tile in _LONE_FIRST if counts[tile] == 0)
    unseen = bytearray(situation.unseen)
    if unseen[placeholder]:
        unseen[placeholder] -= 1
    found = _search(hand.with_tile(placeholder), situation, bytes(unseen))
    entry = next((d for d in found.discards if d.tile == placeholder and not d.red), None)
    if entry is None:
        # The placeholder nears seven pairs or the orphans (a new kind), so throwing it back
        # raises the shanten: a search without detours does not follow it.  Allow one.
        found = _search(hand.with_tile(placeholder), situation._replace(detours=DEFAULT_EXTRA), bytes(unseen))
        entry = next(d for d in found.discards if d.tile == placeholder and not d.red)
    value = contested(entry.by_turn, parameters)
    return WaitingValue(value.expected_score, value.win_probability, entry.tenpai_probability, found.complete)


#: Placeholder candidates once no honour is free: honours, then terminals, then the rest.
_LONE_FIRST: Final = (
    *HONORS,
    *(t for t in range(27) if t % 9 in (0, 8)),
    *(t for t in range(27) if t % 9 not in (0, 8)),
)


def _has_neighbour(counts: bytes, tile: Tile) -> bool:
    """Whether the hand holds a tile of ``tile``'s suit within two of it (honours have none)."""
    if tile >= 27:
        return False
    start = tile - tile % 9
    return any(counts[other] for other in range(max(start, tile - 2), min(start + 9, tile + 3)) if other != tile)


def kuikae_tiles(meld: Meld, claimed: Tile) -> frozenset[Tile]:
    """The tiles a call forbids discarding at once (kuikae): the tile called and, after a chi
    that waits on both ends, the tile at the other end.

    >>> sorted(kuikae_tiles(Meld.of("chi", [3, 4, 5]), 3))  # 4m5m called 3m: 3m and 6m are forbidden
    [3, 6]
    >>> sorted(kuikae_tiles(Meld.of("pon", [30, 30, 30]), 30))
    [30]
    """
    forbidden = {claimed}
    if meld.kind is MeldKind.CHI:
        low = meld.tiles[0]
        if claimed == low and (low + 3) % 9 > low % 9:
            forbidden.add(low + 3)
        elif claimed == low + 2 and low % 9 > 0:
            forbidden.add(low - 1)
    return frozenset(forbidden)


def call_values(
    hand: Hand,
    claimed: Tile,
    options: Sequence[Meld],
    situation: Situation,
    *,
    passing: WaitingValue | None = None,
    parameters: ActionParameters = DEFAULT_PARAMETERS,
) -> CallValues:
    """Passing on ``claimed`` against each call in ``options`` (melds that take it), by the search.

    ``hand`` is the seat's 3n+1 hand before the call; ``passing`` may give its value when it is
    known already.
    """
    rules = situation.rules
    if passing is None:
        passing = waiting_value(hand, situation, parameters)
    complete = passing.complete
    values = []
    checker = Checker(rules)
    for meld in options:
        used = list(meld.tiles)
        used.remove(claimed)
        after = hand.without(used, meld)
        if meld.kind is MeldKind.OPEN_KAN:
            kan = kan_value(after, meld, situation, extra_draw=False, parameters=parameters)
            complete = complete and kan.complete
            shanten = checker.shanten_number(after)
            values.append(CallValue(meld, kan.value, kan.win_probability, None, shanten, kan.reasons))
            continue
        found = _search(after, situation, situation.unseen)
        complete = complete and found.complete
        forbidden = kuikae_tiles(meld, claimed)
        allowed = [d for d in found.discards if d.tile not in forbidden]
        if not allowed:  # every tile left is forbidden: the call cannot be made
            continue
        lines = [(contested(d.by_turn, parameters), d) for d in allowed]
        value, best = max(lines, key=lambda line: (line[0].expected_score, line[0].win_probability, -line[1].tile))
        reasons = [f"then {format_tile(best.tile)}: shanten {best.shanten}, win {value.win_probability:.1%}"]
        if best.win_probability == 0.0:
            reasons.append("the open hand has no yaku it can reach")
        values.append(
            CallValue(meld, value.expected_score, value.win_probability, best.tile, best.shanten, tuple(reasons))
        )
    return CallValues(passing.expected_score, passing.win_probability, tuple(values), complete)


# ------------------------------------------------------------------ kans


class KanValue(NamedTuple):
    """A kan's value: the hand after it, on the scale of the discards (:func:`kan_value`)."""

    meld: Meld
    #: Expected points after the kan, its replacement draw and its new dora, where nobody robs
    #: it, less what a robbing costs.
    value: float
    #: The chance the hand wins after the kan (and is not robbed first).
    win_probability: float
    #: The factor the new dora indicator puts on the hand's expected score (1: no gain counted).
    dora_factor: float
    #: The chance another seat wins on the added tile (0 for a closed or open kan).
    robbed: float
    complete: bool
    reasons: tuple[str, ...]


def new_dora_factor(whole: Hand, situation: Situation, mean_win: float, limit: float) -> float:
    """The factor one more dora indicator puts on the expected score of ``whole``, a hand whose
    wins average ``mean_win`` points.

    Below mangan (``limit``, the seat's mangan) a win's points are its fu times 2 ** (han + 2),
    so an indicator adding ``h`` han doubles them ``h`` times, up to the limit; the factor is the
    average over the indicator's kinds (:func:`indicator_gains`).  A hand whose wins already
    average the limit is counted as gaining nothing (above mangan a han is worth half a mangan
    or less, and only at some counts).

    >>> from app.core.shape.rules import rule_profile
    >>> from app.core.shape.tiles import parse_mpsz
    >>> hand = Hand.from_tiles(parse_mpsz("1111m234p567s1122z"))
    >>> situation = Situation.of(hand, rule_profile("riichi"))
    >>> round(new_dora_factor(hand, situation, 2000, 8000), 3)  # a 9m, 4z or 1z indicator makes it a mangan
    1.41
    >>> new_dora_factor(hand, situation, 8000, 8000)
    1.0
    """
    if mean_win <= 0 or mean_win >= limit:
        return 1.0
    gains = indicator_gains(whole, situation)
    gained = sum(chance * (min(mean_win * (1 << han), limit) - mean_win) for han, chance in gains.items())
    return 1.0 + gained / mean_win


def kan_value(
    after: Hand,
    meld: Meld,
    situation: Situation,
    *,
    extra_draw: bool,
    robbing: Sequence[tuple[float, float]] = (),
    parameters: ActionParameters = DEFAULT_PARAMETERS,
) -> KanValue:
    """What declaring ``meld`` is worth: ``after``, the 3n+1 hand with it, waiting for its
    replacement draw, valued by the search (contested, :func:`waiting_value`).

    * **The replacement draw.**  A closed or added kan (``extra_draw``) draws once more than the
      hand would have: its search starts a turn earlier.  An open kan's replacement takes the
      place of the seat's next draw, as a pon or chi takes the place of its discard, so its
      search starts at ``situation.turn``, where passing's does.
    * **The new dora**: the line's expected score times :func:`new_dora_factor`, its wins'
      mean from the search and the seat's mangan as the limit.
    * **Robbing** (``robbing``: per opponent, the chance it wins on the added tile, the danger
      model's for that tile thrown, and what paying it costs): the hand goes on only where
      nobody robs, and each robber's cost is paid at its chance.

    Not counted, and said in the advisor's notes: the new dora's worth to the other seats, the
    ura dora a kan adds under riichi, and the defence of four copies no one can wait on.

    >>> from app.core.shape.rules import rule_profile
    >>> from app.core.shape.tiles import parse_mpsz
    >>> hand = Hand.from_tiles(parse_mpsz("2222m345p678s5566z"))  # a closed kan of 2m
    >>> meld = Meld.of("closed_kan", [1, 1, 1, 1])
    >>> situation = Situation.of(hand, rule_profile("riichi", red_fives=False), turn=8)
    >>> after = hand.without([1, 1, 1, 1], meld)
    >>> kan = kan_value(after, meld, situation, extra_draw=True)
    >>> kan.value > waiting_value(after, situation).expected_score, kan.dora_factor > 1, kan.robbed
    (True, True, 0.0)
    >>> robbed = kan_value(after, meld, situation, extra_draw=True, robbing=[(0.1, 8000.0)])
    >>> round(robbed.value - 0.9 * kan.value, 6), round(robbed.robbed, 6)
    (-800.0, 0.1)
    """
    start = situation._replace(turn=max(1, situation.turn - 1)) if extra_draw else situation
    waiting = waiting_value(after, start, parameters)
    mean_win = waiting.expected_score / waiting.win_probability if waiting.win_probability > 0 else 0.0
    limit = _points(5, 30, 0 if situation.seat_wind == EAST else 1, False, situation.rules)
    factor = new_dora_factor(after, situation, mean_win, limit)
    survive = 1.0
    cost = 0.0
    for chance, points in robbing:
        survive *= 1.0 - chance
        cost += chance * points
    reasons = [
        f"after the kan and its replacement draw: win {waiting.win_probability:.1%}, "
        f"expected score {waiting.expected_score:,.0f}"
    ]
    if factor > 1:
        reasons.append(f"its new dora indicator raises the hand's wins by {factor - 1:.1%} on average")
    if survive < 1:
        reasons.append(f"robbed {1 - survive:.1%} of the time, paying {cost / (1 - survive):,.0f} on average")
    return KanValue(
        meld,
        survive * waiting.expected_score * factor - cost,
        survive * waiting.win_probability,
        factor,
        1.0 - survive,
        waiting.complete,
        tuple(reasons),
    )


class RiichiChoice(NamedTuple):
    """Riichi against dama for one ready hand."""

    riichi: bool
    riichi_value: float
    dama_value: float
    #: Mean points of a win with riichi (ura dora expected, the stick not counted) and without.
    riichi_points: float
    dama_points: float
    #: The chance of winning by the last turn, on a discard or by self-draw, without riichi.
    win_probability: float
    reasons: tuple[str, ...]
    #: The same chance with riichi (other seats stop throwing dangerous tiles).
    riichi_win_probability: float = 0.0


class NotReady(TenpaiError):
    """Riichi or dama was asked of a hand that is not ready after its discard."""

    code = "hand_not_ready"


def riichi_or_dama(
    hand: Hand,
    situation: Situation,
    *,
    win_probability: float,
    parameters: ActionParameters = DEFAULT_PARAMETERS,
) -> RiichiChoice:
    """Riichi or dama for the ready closed 3n+1 ``hand`` (after the discard), valued as the module
    says; ``win_probability`` is the search's (self-draws only).

    >>> from app.core.shape.rules import rule_profile
    >>> from app.core.shape.tiles import parse_mpsz
    >>> rules = rule_profile("riichi", red_fives=False)
    >>> cheap = Hand.from_tiles(parse_mpsz("234m567p2399s666z"))  # 1s-4s, hatsu: 1 han
    >>> riichi_or_dama(cheap, Situation.of(cheap, rules), win_probability=0.5).riichi
    True
    >>> big = Hand.from_tiles(parse_mpsz("1112345678999m"))  # chinitsu: 6 han dama on every wait
    >>> riichi_or_dama(big, Situation.of(big, rules), win_probability=0.5).riichi
    False
    """
    rules = situation.rules
    all_waits = Checker(rules).waits(hand).shape_waits
    if hand.has_open_meld or not all_waits:
        raise NotReady("riichi or dama is a choice of a ready closed hand", field="hand")
    waits = [tile for tile in all_waits if situation.unseen[tile] > 0]
    copies = sum(situation.unseen[tile] for tile in waits)
    if copies == 0:  # every wait is held or seen: no win either way, riichi only risks its stick
        lost = -parameters.hands_won_share * RIICHI_STICK
        return RiichiChoice(False, lost, 0.0, 0.0, 0.0, 0.0, ("no copy of the waits is left",))
    dealer = (-(situation.seat_wind - EAST)) % rules.seats
    # Mean points of a win over the waits' unseen copies: on a discard and by self-draw, with
    # riichi (ura dora expected) and without (0 on a discard without a yaku).
    mean = {
        (declared, drawn): sum(
            situation.unseen[tile]
            * _win_points(hand.with_tile(tile), tile, situation, dealer, riichi=declared, self_draw=drawn)
            for tile in waits
        )
        / copies
        for declared in (True, False)
        for drawn in (True, False)
    }
    ippatsu_mean = {
        drawn: sum(
            situation.unseen[tile]
            * _win_points(hand.with_tile(tile), tile, situation, dealer, riichi=True, self_draw=drawn, ippatsu=True)
            for tile in waits
        )
        / copies
        for drawn in (True, False)
    }
    # The search counts self-draws only.  A ready hand has as many chances on discards as on its
    # draws when a share r of the wins are on discards (r = 1/2: as many), so it fails to win
    # with the search's chance of failing to the power 1 / (1 - r).
    self_draw = win_probability
    won = 1.0 - (1.0 - self_draw) ** (1.0 / (1.0 - parameters.ron_share))
    on_discard = won - self_draw
    declared_on_discard = parameters.riichi_win_factor * on_discard
    riichi_won = self_draw + declared_on_discard
    # Ippatsu: a win before the seat's next discard (its next draw, and the discards of the
    # go-around, as many chances as a draw by the same reckoning) scores a han more.  The draws
    # left share the self-draw chance evenly.
    draws_left = max(1, LAST_TURN - situation.turn + 1)
    first_draw = 1.0 - (1.0 - self_draw) ** (1.0 / draws_left)
    first_discards = parameters.riichi_win_factor * (
        1.0 - (1.0 - first_draw) ** (parameters.ron_share / (1.0 - parameters.ron_share))
    )
    ippatsu = first_draw * (ippatsu_mean[True] - mean[True, True]) + first_discards * (
        ippatsu_mean[False] - mean[True, False]
    )
    # The stick is lost when another seat wins; at a draw it stays on the table.
    riichi_value = (
        self_draw * mean[True, True]
        + declared_on_discard * mean[True, False]
        + ippatsu
        - (1.0 - riichi_won) * parameters.hands_won_share * RIICHI_STICK
    )
    dama_value = self_draw * mean[False, True] + on_discard * mean[False, False]
    riichi_points = riichi_value / riichi_won if riichi_won else 0.0
    dama_points = dama_value / won if won else 0.0
    riichi = riichi_value > dama_value
    reasons = [
        f"win {won:.1%} by the last turn, {self_draw:.1%} by self-draw (riichi {riichi_won:.1%}: "
        "opponents stop throwing dangerous tiles)",
        f"riichi: {mean[True, False]:,.0f} on a discard, {mean[True, True]:,.0f} by self-draw, ura dora expected; "
        f"ippatsu adds {ippatsu:,.0f} ({first_draw + first_discards:.1%} to win within the go-around); "
        "the stick is lost when another seat wins",
        f"dama: {mean[False, False]:,.0f} on a discard"
        + (" (no yaku: it cannot win on one)" if mean[False, False] == 0 else "")
        + f", {mean[False, True]:,.0f} by self-draw; the wait can still change and the hand can fold",
    ]
    return RiichiChoice(riichi, riichi_value, dama_value, riichi_points, dama_points, won, tuple(reasons), riichi_won)


def _win_points(
    whole: Hand, tile: Tile, situation: Situation, dealer: int, *, riichi: bool, self_draw: bool, ippatsu: bool = False
) -> float:
    """Points the seat (0) takes winning ``whole`` on ``tile`` (0 where it has no yaku); with
    riichi, the ura dora as an expectation over the unseen tiles."""
    rules = situation.rules
    context = WinContext(
        winner=0,
        dealer=dealer,
        discarder=None if self_draw else 1,
        round_wind=situation.round_wind,
        dora_indicators=situation.dora_indicators,
        riichi=riichi,
        ippatsu=ippatsu,
        nuki=situation.nuki,
    )
    check_win_tile(whole.counts, tile)
    if not riichi or not situation.dora_indicators:  # no ura dora to weigh: the payments say it all
        try:
            return float(win_payments(whole, tile, rules, context)[0])
        except REFUSALS:
            return 0.0
    try:
        result = score(whole, tile, rules, context)
    except REFUSALS:
        return 0.0
    points = float(result.payments[0])
    if not isinstance(result, RiichiScore) or result.yakuman_count:
        return points
    han, fu = result.han, result.fu
    expected = 0.0
    for ura, chance in _ura_distribution(whole, situation).items():
        expected += chance * _points(han + ura, fu, dealer, self_draw, rules)
    return expected


def indicator_gains(whole: Hand, situation: Situation) -> dict[int, float]:
    """The chance of each number of han one new indicator adds to ``whole`` (its melds included):
    the indicator is one of the unseen tiles, each kind as likely as its unseen copies.

    >>> from app.core.shape.rules import rule_profile
    >>> from app.core.shape.tiles import parse_mpsz
    >>> hand = Hand.from_tiles(parse_mpsz("1111m"))  # 9m shows 1m: the four copies are dora
    >>> gains = indicator_gains(hand, Situation.of(hand, rule_profile("riichi")))
    >>> round(gains[4], 4), round(gains[0], 4)
    (0.0303, 0.9697)
    """
    counts = whole.all_counts()
    total = sum(situation.unseen)
    single: dict[int, float] = {}
    for indicator, copies in enumerate(situation.unseen):
        if copies:
            dora = dora_from_indicator(indicator, absent_tiles=situation.rules.absent_tiles)
            gain = counts[dora] + (situation.nuki if dora == NORTH else 0)  # a north set aside counts too
            single[gain] = single.get(gain, 0.0) + copies / total
    return single


def _ura_distribution(whole: Hand, situation: Situation) -> dict[int, float]:
    """The chance of each number of ura dora: one indicator per dora indicator, each an unseen
    tile (taken as independent draws)."""
    single = indicator_gains(whole, situation)
    spread = {0: 1.0}
    for _ in situation.dora_indicators:
        spread = {
            a + b: sum(pa * pb for (x, pa) in spread.items() for (y, pb) in single.items() if x + y == a + b)
            for a in spread
            for b in single
        }
    return spread


def _points(han: int, fu: int, dealer: int, self_draw: bool, rules: RuleProfile) -> float:
    base = base_points_of(min(han, 13), fu, rules)
    net, _ = riichi_payments(
        base, 0, dealer, None if self_draw else 1, 0, seats=rules.seats, tsumo_loss=rules.tsumo_loss
    )
    return float(net[0])


# ------------------------------------------------------------------ push or fold


def threat_costs(
    threats: Sequence[bool], dealer_offsets: Sequence[bool], deal_in_points: float, parameters: ActionParameters
) -> tuple[float, ...]:
    """What dealing into each opponent costs (0 for one who is no threat).

    >>> threat_costs([True, False, True], [False, False, True], 5500, DEFAULT_PARAMETERS)
    (5500, 0.0, 8250.0)
    """
    return tuple(
        (deal_in_points * (parameters.dealer_deal_in_factor if dealer else 1)) if threat else 0.0
        for threat, dealer in zip(threats, dealer_offsets, strict=True)
    )


def push_value(
    expected: float,
    shanten: int,
    safety: Sequence[TileSafety],
    costs: Sequence[float],
    parameters: ActionParameters = DEFAULT_PARAMETERS,
) -> float:
    """A discard's value against the threats (``costs``: a deal-in's cost per opponent, 0: none).

    The hand keeps ``expected`` where it survives this discard and the ``shanten`` more it needs
    to get ready; where it deals in, it loses that opponent's cost.

    >>> from app.core.advice.safety import TileSafety
    >>> safe, risky = TileSafety(1.0, 0.0, 0.0, 1.0, ()), TileSafety(0.9, 0.1, 0.1, 1.0, ())
    >>> round(push_value(2000, 1, [safe], [8250]), 1)  # genbutsu now, one more discard to push
    1385.0
    >>> round(push_value(2000, 1, [risky], [8250]), 1)
    421.5
    """
    survive, dealt = push_terms(shanten, safety, costs, parameters)
    loss = 0.0
    for chance, cost in zip(dealt, costs, strict=True):
        if cost > 0:
            loss += chance * cost
    return survive * expected - loss


def push_terms(
    shanten: int,
    safety: Sequence[TileSafety],
    costs: Sequence[float],
    parameters: ActionParameters = DEFAULT_PARAMETERS,
) -> tuple[float, tuple[float, ...]]:
    """:func:`push_value`'s chances: that the hand survives this discard and the ``shanten``
    more it needs to get ready, and of dealing into each opponent on the way (0 for one whose
    cost is 0).

    >>> from app.core.advice.safety import TileSafety
    >>> survive, dealt = push_terms(1, [TileSafety(0.9, 0.1, 0.1, 1.0, ())], [8250])
    >>> round(survive, 4), [round(chance, 4) for chance in dealt]
    (0.846, [0.154])
    """
    survive = 1.0
    dealt = []
    later = (1 - parameters.pushed_discard_danger) ** max(shanten, 0)
    for verdict, cost in zip(safety, costs, strict=True):
        if cost <= 0:
            dealt.append(0.0)
            continue
        dealt_now = verdict.danger
        dealt_later = (1 - dealt_now) * (1 - later)
        dealt.append(dealt_now + dealt_later)
        survive *= 1 - dealt_now - dealt_later
    return survive, tuple(dealt)


def safest(safety_of: Sequence[tuple[Tile, Sequence[TileSafety]]], threats: Sequence[bool]) -> list[Tile]:
    """The tiles whose chance of dealing into a threat is the least (to 1e-9), in the given order.

    >>> from app.core.advice.safety import TileSafety
    >>> safe, risky = TileSafety(1.0, 0.0, 0.0, 1.0, ()), TileSafety(0.9, 0.1, 0.1, 1.0, ())
    >>> safest([(3, [risky, safe]), (7, [safe, risky]), (9, [safe, safe])], [True, False])
    [7, 9]
    """

    def danger(verdicts: Sequence[TileSafety]) -> float:
        kept = 1.0
        for verdict, threat in zip(verdicts, threats, strict=True):
            if threat:
                kept *= verdict.safety
        return 1.0 - kept

    least = min((danger(v) for _, v in safety_of), default=0.0)
    return [tile for tile, verdicts in safety_of if math.isclose(danger(verdicts), least, abs_tol=1e-9)]


# Reading the table: every other seat charged by how likely it is ready, folding valued.


def noten_exchange(ready: Sequence[float], total: float) -> tuple[float, float]:
    """What the seat expects of the noten payments at an exhaustive draw, the other seats being
    ready independently with the chances ``ready``: (what it pays when it is not ready, what it
    receives when it is).  The noten seats share paying ``total``, the ready ones share it.

    >>> noten_exchange([1.0, 0.0, 0.0], 3000)  # one other seat ready
    (1000.0, 1500.0)
    >>> noten_exchange([0.0, 0.0, 0.0], 3000)
    (0.0, 3000.0)
    """
    seats = len(ready) + 1
    by_count = [1.0]  # the chance that k other seats are ready
    for chance in ready:
        grown = [0.0] * (len(by_count) + 1)
        for count, share in enumerate(by_count):
            grown[count] += share * (1.0 - chance)
            grown[count + 1] += share * chance
        by_count = grown
    pays = sum(share * total / (seats - count) for count, share in enumerate(by_count) if count)
    receives = sum(share * total / (count + 1) for count, share in enumerate(by_count) if count + 1 < seats)
    return pays, receives


def draw_chance(read: TableRead, last_turn: int = LAST_TURN) -> float:
    """The chance that no other seat wins from the seat's turn now to ``last_turn``."""
    alive = 1.0
    for turn in range(read.turn, last_turn + 1):
        alive *= 1.0 - read.hazard(turn)
    return alive


def read_push_outcomes(
    rows: Sequence[TurnValue],
    shanten: int,
    safety: Sequence[TileSafety],
    read: TableRead,
    noten_total: float,
    parameters: ActionParameters = DEFAULT_PARAMETERS,
) -> HandOutcomes:
    """How the hand ends after a push, every other seat read (``read``); its
    :attr:`~HandOutcomes.points` are the push's value in points at the end of the hand.

    ``rows`` is the discard's search (its ``by_turn``), contested with the read's hazard
    (:func:`contested`).  Dealing in now (the read's ready chance for a seat times the tile's
    ``danger_if_ready`` against it) costs the read's cost for that seat.  Every later discard
    while the hand is still on (no other seat has won, per the read's hazard, and the hand has
    not won, per the search) deals in with :attr:`~ActionParameters.pushed_discard_danger` times
    the seat's ready chance then: a pushing hand throws what it draws.  The hand keeps the line's
    value where it survives this discard and the ``shanten`` it still needs to get ready, and at
    an exhaustive draw (:func:`draw_chance`, times the line's chance of not winning) the noten
    payments: received with the search's chance of getting ready, paid without it.

    >>> from app.core.advice.reads import TableRead
    >>> from app.core.advice.safety import TileSafety
    >>> nobody = TableRead(17, ((0.0, 0.0, 0.0),), (5500.0,) * 3, 0.1)
    >>> safe = TileSafety(1.0, 0.0, 0.0, 0.0, ())
    >>> rows = [TurnValue(17, 1.0, 0.3, 2000.0), TurnValue(18, 1.0, 0.15, 1000.0)]
    >>> read_push_outcomes(rows, 0, [safe] * 3, nobody, 3000).points  # 2000 and 70% of 3000 received
    4100.0
    """
    line = contested(rows, parameters, read)
    tenpai_probability = min(max(rows[0].tenpai_probability, 0.0), 1.0) if rows else 0.0
    won_from_now = rows[0].win_probability if rows else 0.0
    ready_now = read.ready(read.turn)
    dangers = [ready * verdict.danger_if_ready for ready, verdict in zip(ready_now, safety, strict=True)]
    survive = 1.0
    dealt = list(dangers)
    for danger, ready in zip(dangers, ready_now, strict=True):
        survive *= (1.0 - danger) * (1.0 - parameters.pushed_discard_danger * ready) ** max(shanten, 0)
    alive = 1.0 - sum(dangers)
    for ahead, turn in enumerate(range(read.turn + 1, LAST_TURN + 1), start=1):
        alive *= 1.0 - read.hazard(turn - 1)
        won = won_from_now - (rows[ahead].win_probability if ahead < len(rows) else 0.0)
        on = alive * max(0.0, 1.0 - won)
        for index, ready in enumerate(ready_now):
            dealt[index] += on * parameters.pushed_discard_danger * ready
    pays, receives = noten_exchange(read.ready(LAST_TURN), noten_total)
    drawn = survive * draw_chance(read) * max(0.0, 1.0 - line.win_probability)
    win = survive * line.win_probability
    return HandOutcomes(
        win,
        line.expected_score / line.win_probability if line.win_probability > 0 else 0.0,
        tuple(dealt),
        read.costs,
        drawn * tenpai_probability,
        drawn * (1.0 - tenpai_probability),
        receives,
        pays,
    )


def fold_outcomes(
    dangers: Sequence[Sequence[float]], read: TableRead, noten_total: float, last_turn: int = LAST_TURN
) -> HandOutcomes:
    """How the hand ends when the seat folds from now to the end: never winning, throwing the
    held tiles safest first, and paying the noten payments at an exhaustive draw; its
    :attr:`~HandOutcomes.points` are folding's value.

    ``dangers`` holds, for each held tile in the order it would be thrown (safest first), its
    chance of dealing into each other seat *if that seat is ready*; the discards after them
    (tiles drawn later, unknown now) are taken as dangerous as the last.  Each turn a seat is
    ready with the read's chance for that turn, and another seat may end the hand
    (:meth:`~app.core.advice.reads.TableRead.hazard`).  Paying on another seat's self-draw is
    left out here as in the push (:func:`read_push_outcomes`): both lines pay it about alike.

    >>> from app.core.advice.reads import TableRead
    >>> nobody = TableRead(9, ((0.0, 0.0, 0.0),), (5500.0,) * 3, 0.1)
    >>> fold_outcomes([(0.1, 0.1, 0.1)], nobody, 3000).points  # nobody ready: nothing to lose or pay
    0.0
    >>> declared = TableRead(17, ((1.0, 0.0, 0.0),), (8000.0, 5500.0, 5500.0), 0.1)
    >>> round(fold_outcomes([(0.0, 0.0, 0.0), (0.05, 0.0, 0.0)], declared, 3000).points, 1)  # genbutsu, then a 5% tile
    -1129.5
    """
    pays, receives = noten_exchange(read.ready(last_turn), noten_total)
    dealt = [0.0] * len(read.costs)
    if not dangers:
        return HandOutcomes(0.0, 0.0, tuple(dealt), read.costs, 0.0, 0.0, receives, pays)
    alive = 1.0
    for step, turn in enumerate(range(read.turn, last_turn + 1)):
        tile = dangers[min(step, len(dangers) - 1)]
        kept = 1.0
        for index, (ready, danger) in enumerate(zip(read.ready(turn), tile, strict=True)):
            dealt[index] += alive * ready * danger
            kept *= 1.0 - ready * danger
        alive *= kept * (1.0 - read.hazard(turn))
    return HandOutcomes(0.0, 0.0, tuple(dealt), read.costs, 0.0, alive, receives, pays)


class HandOutcomes(NamedTuple):
    """How a line ends the hand for the seat, as chances: its own win, a deal-in into each other
    seat, an exhaustive draw ready or not; the rest is another seat winning without the seat
    paying (a discard of a third seat; a self-draw's share is left out, as in the points)."""

    win: float
    #: Points the seat's win brings on average.
    win_points: float
    #: The chance of dealing into each other seat (the view's order) and what each costs.
    deal_in: tuple[float, ...]
    costs: tuple[float, ...]
    draw_ready: float
    draw_not_ready: float
    #: The noten payments the seat receives ready, and pays not ready, at a draw.
    receives: float
    pays: float

    @property
    def points(self) -> float:
        """The line's value in points: its wins, less its deal-ins, with the noten payments."""
        value = self.win * self.win_points + self.draw_ready * self.receives - self.draw_not_ready * self.pays
        return 0.0 + value - sum(chance * cost for chance, cost in zip(self.deal_in, self.costs, strict=True))

    @property
    def others_win(self) -> float:
        """The chance that another seat wins and the seat does not pay (what the others leave)."""
        return max(0.0, 1.0 - self.win - sum(self.deal_in) - self.draw_ready - self.draw_not_ready)

    def placement(self, standing: Standing, winners: Sequence[float]) -> float:
        """The line's value in expected placement points (:mod:`app.core.advice.placement`).

        Each outcome moves the scores (the seat first, then the others in the view's order): the
        seat's win takes its points from the others in equal shares (who pays is not known); a
        deal-in moves its cost from the seat to that seat; another seat's win brings it its cost
        from the rest in equal shares, the winner drawn by ``winners`` (each other seat's share
        of the others' wins); a draw moves the noten payments.
        """
        seats = len(standing.scores)
        share = 1.0 / (seats - 1)
        value = 0.0
        if self.win > 0:
            points = self.win_points
            value += self.win * _placed(standing, (points, *(-points * share,) * (seats - 1)))
        for index, (chance, cost) in enumerate(zip(self.deal_in, self.costs, strict=True)):
            if chance > 0:
                value += chance * _placed(standing, _moved(seats, 0, index + 1, cost))
        others = self.others_win
        total = sum(winners)
        for index, weight in enumerate(winners):
            if others > 0 and total > 0 and weight > 0:
                cost = self.costs[index]
                deltas = tuple(cost if seat == index + 1 else -cost * share for seat in range(seats))
                value += others * weight / total * _placed(standing, deltas)
        if others > 0 and total <= 0:
            value += others * _placed(standing, (0.0,) * seats)
        if self.draw_ready > 0:
            value += self.draw_ready * _placed(standing, (self.receives, *(-self.receives * share,) * (seats - 1)))
        if self.draw_not_ready > 0:
            value += self.draw_not_ready * _placed(standing, (-self.pays, *(self.pays * share,) * (seats - 1)))
        return value


def _moved(seats: int, payer: int, winner: int, points: float) -> tuple[float, ...]:
    return tuple(points if seat == winner else -points if seat == payer else 0.0 for seat in range(seats))


def _placed(standing: Standing, deltas: tuple[float, ...]) -> float:
    """:func:`~app.core.advice.placement.placement_points` of ``deltas`` rounded to 100 points, remembered."""
    return _placement_cached(standing, tuple(round(delta, -2) for delta in deltas))


@lru_cache(maxsize=4096)
def _placement_cached(standing: Standing, deltas: tuple[float, ...]) -> float:
    return placement_points(standing, deltas)
