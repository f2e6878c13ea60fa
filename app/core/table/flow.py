"""The table between hands: who deals next, honba and sticks, draw payments, liability, the game's end.

Everything here is arithmetic on a finished hand; the game machine decides what happened in it
and calls these functions.  Tenhou's rules are the defaults.  Each point where rooms differ is a
field of :class:`TableRules`; :func:`tenhou_rules` gives Tenhou's four- and three-player tables.

Seats are 0..seats-1 in turn order, seat 0 the first dealer, as in mjai: the dealer of hand
``kyoku`` is seat ``kyoku - 1``, and ties in the standings go to the seat nearer the first dealer.

Fixed choices, all Tenhou's (the tests replay Tenhou's own games; where those hold no case, the
choice follows Tenhou's published rules and mjx, an engine checked against Tenhou's logs):

* **Renchan.** The dealer keeps the deal after winning (any of the winners of a double ron) or
  being tenpai at an exhaustive draw, nagashi mangan included (it is a draw: the dealer's tenpai
  decides).  Honba go up by one after a renchan or any draw, and back to 0 after a non-dealer's win.
* **The end of the game**, checked after each hand in this order: a seat below zero ends it
  (``busting``); an abortive draw the dealer keeps the deal after never does (the hand is
  replayed); before the last scheduled hand (East 4, South 4; sanma East 3, South 3) nothing else
  does.  From that hand on (all-last, and every hand of the extension):

  - when the dealer keeps the deal by a win or by tenpai, the game ends only if the dealer is
    first (ties broken by seat order) with at least ``target_points`` (``dealer_stops_on_win``,
    ``dealer_stops_on_tenpai``); otherwise the dealer plays on, even when another seat has reached
    the target;
  - otherwise it ends when a seat has at least ``target_points`` or the hand was the last one
    the length allows (South 4 of a hanchan with its West round, East 4 of a tonpuu with its
    South round); else the next hand is played.  There is no North round.

  Scores here are after every riichi stick put down: sticks on the table count for no one.
* **Leftover sticks** go to the first seat at the end (``leftover_sticks_to_top``).
* **Nagashi mangan** is paid as a mangan self-draw by each seat that has it, in place of the
  noten payments, with no honba; the riichi sticks stay on the table.
* **Liability (pao)** for daisangen and daisuushii covers the whole hand, every yakuman in it: on a
  self-draw the liable seat pays it all, as if it had dealt in; on a discard by another seat the
  discarder and the liable seat pay half each.  The liable seat pays the honba either way.
* A honba is worth 100 points from each other seat: a discarder or a liable seat pays them all
  (300, sanma 200), as the riichi scorer counts them (``HONBA_EACH``).  Riichi scoring's own rule
  options (``kiriage``, sanma's ``tsumo_loss``) stay on the scoring profile
  (:class:`~app.core.shape.rules.RuleProfile`); nagashi payments take ``tsumo_loss`` from it.

>>> rules = tenhou_rules()
>>> state = first_hand(rules)
>>> after = TableState(state.bakaze, 1, 0, 0, 0, (33000, 22000, 25000, 20000))
>>> next_hand(after, Wins((0,)), rules)
TableState(bakaze=<RoundWind.EAST: 'E'>, kyoku=1, honba=1, kyotaku=0, oya=0, scores=(33000, 22000, 25000, 20000))
>>> next_hand(after, Wins((1,)), rules).kyoku
2
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from app.core.errors import InvalidRuleOption, InvalidTableState
from app.core.value.riichi_scoring import (
    HONBA_EACH,
    LIMIT_BASE,
    STICK_POINTS,
    RiichiScore,
    YakuHan,
    net_payments,
    riichi_payments,
)

__all__ = [
    "PAO_YAKU",
    "AbortiveDraw",
    "AbortiveDrawKind",
    "ExhaustiveDraw",
    "GameEnd",
    "GameEndReason",
    "GameLength",
    "HandOutcome",
    "RoundWind",
    "TableRules",
    "TableState",
    "Wins",
    "dealer_keeps_deal",
    "exhaustive_draw_payments",
    "first_hand",
    "has_pao_yaku",
    "nagashi_payments",
    "next_hand",
    "noten_payments",
    "pao_payments",
    "placements",
    "ron_order",
    "scheduled_after",
    "tenhou_rules",
    "with_liability",
]


class GameLength(StrEnum):
    """How many hands a game is scheduled for."""

    #: One hand, whatever happens in it (self-play of single hands).
    KYOKU = "kyoku"
    #: The East round (東風戦).
    TONPUU = "tonpuu"
    #: The East and South rounds (半荘戦).
    HANCHAN = "hanchan"


class RoundWind(StrEnum):
    """The round (bakaze), spelled as mjai spells it."""

    EAST = "E"
    SOUTH = "S"
    WEST = "W"
    NORTH = "N"


class AbortiveDrawKind(StrEnum):
    """The draws that end a hand before the wall runs out."""

    #: Nine different terminals and honours on a first draw (九種九牌), by the holder's choice.
    NINE_TERMINALS = "nine_terminals"
    #: The same wind discarded by every seat on the first go-round (四風連打).
    FOUR_WINDS = "four_winds"
    #: A fourth seat's riichi stands (四家立直).
    FOUR_RIICHI = "four_riichi"
    #: The fourth kong, by more than one seat, is followed by a discard (四開槓).
    FOUR_KANS = "four_kans"
    #: Three seats win on one discard, with ``triple_ron_draw`` (三家和).
    TRIPLE_RON = "triple_ron"


class GameEndReason(StrEnum):
    """Why the game ended after a hand."""

    #: The last scheduled hand ended without the dealer keeping the deal (or the one hand of ``kyoku``).
    LAST_HAND = "last_hand"
    #: A seat went below zero (``busting``).
    BUST = "bust"
    #: The dealer kept the deal at all-last as the first seat with the target (agari-yame, tenpai-yame).
    DEALER_STOPS = "dealer_stops"
    #: A seat reached ``target_points`` in the extension.
    TARGET_REACHED = "target_reached"
    #: The extension's last hand ended without anyone reaching the target.
    EXTENSION_OVER = "extension_over"


_SEAT_COUNTS: Final = (3, 4)
_ROUNDS: Final = tuple(RoundWind)
#: Winds of hands each length schedules; the extension adds one more (``TableRules.extension``).
_SCHEDULED_ROUNDS: Final = {GameLength.KYOKU: 0, GameLength.TONPUU: 1, GameLength.HANCHAN: 2}
PAO_YAKU: Final = frozenset({"daisangen", "daisuushii"})
"""The yakuman a liable seat pays for (the scorer's yaku names)."""


@dataclass(frozen=True, slots=True)
class TableRules:
    """The rules of the table between hands, where rooms differ.  Defaults: Tenhou's four-player table.

    >>> TableRules().target_points, tenhou_rules(seats=3).target_points
    (30000, 40000)
    >>> TableRules(seats=5)
    Traceback (most recent call last):
    ...
    app.core.errors.InvalidRuleOption: seats must be 3 or 4, got 5
    """

    seats: int = field(default=4, metadata={"doc": "Seats at the table: 4, or 3 (sanma)."})
    length: GameLength = field(
        default=GameLength.HANCHAN,
        metadata={"doc": "The scheduled hands: one hand, the East round (tonpuu) or East and South (hanchan)."},
    )
    start_points: int = field(
        default=25_000, metadata={"doc": "Points each seat starts with (Tenhou: 25,000; sanma 35,000)."}
    )
    target_points: int = field(
        default=30_000,
        metadata={
            "doc": "Points the first seat needs for the game to end at or after all-last (Tenhou: 30,000; sanma 40,000): below it the extension is played, and the dealer does not stop.  Without the extension it plays no part."
        },
    )
    busting: bool = field(default=True, metadata={"doc": "A seat below zero points ends the game (Tenhou: on)."})
    busting_at_zero: bool = field(
        default=False,
        metadata={
            "doc": "With ``busting``, exactly zero points ends the game too (Tenhou: off, a seat on 0 plays on)."
        },
    )
    dealer_stops_on_win: bool = field(
        default=True,
        metadata={
            "doc": "At all-last (and in the extension) the game ends when the dealer wins and is then the first seat with ``target_points`` (agari-yame, automatic at Tenhou: on)."
        },
    )
    dealer_stops_on_tenpai: bool = field(
        default=True,
        metadata={
            "doc": "The same when the dealer is tenpai at an exhaustive draw (tenpai-yame; Tenhou: on, since June 2010: before, the dealer played on)."
        },
    )
    extension: bool = field(
        default=True,
        metadata={
            "doc": "When no seat has ``target_points`` after the last scheduled hand, the next round is played (hanchan: West; tonpuu: South) until a hand ends with a seat at the target, at most to its fourth hand (Tenhou: on).  Off: the game ends at the last scheduled hand."
        },
    )
    renchan_on_abortive_draw: bool = field(
        default=True,
        metadata={
            "doc": "After an abortive draw the dealer keeps the deal, honba + 1 (Tenhou: on).  Off: the deal passes."
        },
    )
    noten_payment: int = field(
        default=3_000,
        metadata={
            "doc": "Points the noten seats pay the tenpai seats at an exhaustive draw, in all (Tenhou: 3,000; sanma 2,000)."
        },
    )
    nagashi_mangan: bool = field(
        default=True, metadata={"doc": "Nagashi mangan is paid, in place of the noten payments (Tenhou: on)."}
    )
    double_ron: bool = field(default=True, metadata={"doc": "Two seats may win on one discard (Tenhou: on)."})
    triple_ron_draw: bool = field(
        default=True, metadata={"doc": "Three seats winning on one discard is an abortive draw instead (Tenhou: on)."}
    )
    leftover_sticks_to_top: bool = field(
        default=True,
        metadata={
            "doc": "Riichi sticks left on the table at the end go to the first seat (Tenhou: on).  Off: they are lost."
        },
    )
    pao: bool = field(
        default=True,
        metadata={
            "doc": "A seat that fed the last dragon or wind set of a daisangen or daisuushii is liable (Tenhou: on)."
        },
    )
    uma: tuple[int, ...] | None = field(
        default=None,
        metadata={
            "doc": "Placement points per final place, first first, that the advisor plays for (the oka included).  None: Tenhou's Phoenix room, [90, 45, 0, -135]; sanma [90, 0, -135]."
        },
    )

    def __post_init__(self) -> None:
        if self.seats not in _SEAT_COUNTS:
            raise InvalidRuleOption(f"seats must be 3 or 4, got {self.seats}", field="seats")
        if self.length not in tuple(GameLength):
            raise InvalidRuleOption(
                f"length must be one of {', '.join(GameLength)}, got {self.length!r}", field="length"
            )
        # A length given by name ("hanchan") is kept as the enum, so comparisons by identity hold.
        object.__setattr__(self, "length", GameLength(self.length))
        for name in ("start_points", "target_points"):
            if getattr(self, name) <= 0:
                raise InvalidRuleOption(f"{name} must be above 0, got {getattr(self, name)}", field=name)
        if self.uma is not None:
            uma = tuple(self.uma)
            if len(uma) != self.seats or any(not isinstance(value, int) for value in uma):
                raise InvalidRuleOption(
                    f"uma must be {self.seats} whole numbers, one per place, got {list(uma)}", field="uma"
                )
            if list(uma) != sorted(uma, reverse=True):
                raise InvalidRuleOption(f"uma must not rise from first place to last, got {list(uma)}", field="uma")
            object.__setattr__(self, "uma", uma)
        # Each tenpai seat takes an equal share and each noten seat pays one, in 100-point units.
        if self.noten_payment < 0 or any(self.noten_payment % (100 * n) for n in range(1, self.seats)):
            shares = ", ".join(str(100 * n) for n in range(1, self.seats))
            raise InvalidRuleOption(
                f"noten_payment must be 0 or more and split evenly ({shares}), got {self.noten_payment}",
                field="noten_payment",
            )


def tenhou_rules(*, seats: int = 4, length: GameLength = GameLength.HANCHAN) -> TableRules:
    """Tenhou's table for ``seats`` players: sanma starts at 35,000, targets 40,000, pays 2,000 noten.

    >>> sanma = tenhou_rules(seats=3, length=GameLength.TONPUU)
    >>> sanma.start_points, sanma.target_points, sanma.noten_payment, sanma.length
    (35000, 40000, 2000, <GameLength.TONPUU: 'tonpuu'>)
    """
    if seats == 3:
        return TableRules(seats=3, length=length, start_points=35_000, target_points=40_000, noten_payment=2_000)
    return TableRules(seats=seats, length=length)


# -- the state between hands and what a hand did -------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableState:
    """The table at a hand's boundary, in mjai ``start_kyoku``'s terms.

    Given to :func:`next_hand` it is the hand that just ended, after its payments: ``scores`` after
    its deltas and the riichi sticks put down, ``kyotaku`` the sticks still on the table (0 after a
    win: the first winner takes them).  Returned by it, it is the next hand's ``start_kyoku``.
    """

    bakaze: RoundWind
    #: The hand's number in its round, 1..seats; its dealer is seat ``kyoku - 1``.
    kyoku: int
    honba: int
    #: Riichi sticks on the table (1,000 points each).
    kyotaku: int
    oya: int
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Wins:
    """The hand ended with wins: one winner, or two on one discard (a double ron), in any order."""

    winners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ExhaustiveDraw:
    """The wall ran out: who was tenpai, by seat, and the seats with nagashi mangan."""

    tenpai: tuple[bool, ...]
    nagashi: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class AbortiveDraw:
    """The hand was abandoned: an abortive draw of ``kind``."""

    kind: AbortiveDrawKind


HandOutcome = Wins | ExhaustiveDraw | AbortiveDraw


@dataclass(frozen=True, slots=True)
class GameEnd:
    """The game is over."""

    reason: GameEndReason
    #: Final points: the last hand's scores, plus the leftover sticks for the first seat (when the rule says).
    scores: tuple[int, ...]
    #: Seats from first place to last (equal points: the seat nearer the first dealer first).
    placements: tuple[int, ...]
    #: Riichi sticks left on the table after the last hand.
    leftover_sticks: int


def first_hand(rules: TableRules) -> TableState:
    """East 1, seat 0 dealing, no honba and no sticks, every seat at ``start_points``.

    >>> first_hand(tenhou_rules(seats=3))
    TableState(bakaze=<RoundWind.EAST: 'E'>, kyoku=1, honba=0, kyotaku=0, oya=0, scores=(35000, 35000, 35000))
    """
    return TableState(RoundWind.EAST, 1, 0, 0, 0, (rules.start_points,) * rules.seats)


def placements(scores: Sequence[int]) -> tuple[int, ...]:
    """Seats from first place to last; equal points rank by seat order from the first dealer (seat 0).

    >>> placements([25000, 30300, 30300, 14400])
    (1, 2, 0, 3)
    """
    return tuple(sorted(range(len(scores)), key=lambda seat: (-scores[seat], seat)))


def ron_order(discarder: int, winners: Iterable[int], seats: int) -> tuple[int, ...]:
    """Winners on one discard in turn order from the discarder: the first takes the honba and the sticks.

    >>> ron_order(2, [1, 3], 4), ron_order(0, [2, 1], 3)
    ((3, 1), (1, 2))
    """
    return tuple(sorted(winners, key=lambda seat: (seat - discarder) % seats))


def dealer_keeps_deal(outcome: HandOutcome, oya: int, rules: TableRules) -> bool:
    """Renchan: the dealer won (any winner of a double ron), was tenpai at the wall's end, or the hand
    was abandoned (``renchan_on_abortive_draw``).

    >>> rules = tenhou_rules()
    >>> dealer_keeps_deal(Wins((2, 0)), 0, rules), dealer_keeps_deal(ExhaustiveDraw((False, True, True, True)), 0, rules)
    (True, False)
    >>> dealer_keeps_deal(AbortiveDraw(AbortiveDrawKind.NINE_TERMINALS), 3, rules)
    True
    """
    if isinstance(outcome, Wins):
        return oya in outcome.winners
    if isinstance(outcome, ExhaustiveDraw):
        return outcome.tenpai[oya]
    return rules.renchan_on_abortive_draw


def next_hand(state: TableState, outcome: HandOutcome, rules: TableRules) -> TableState | GameEnd:
    """The next hand's ``start_kyoku`` fields, or the end of the game, after a hand ended as ``outcome``.

    ``state`` is the hand that ended, after its payments (see :class:`TableState`).  The rules of
    renchan, honba and the game's end are in the module's docstring.  Raises
    :class:`~app.core.errors.InvalidTableState` for a state or an outcome that cannot happen under
    ``rules``.

    >>> rules = tenhou_rules()
    >>> south4 = TableState(RoundWind.SOUTH, 4, 0, 1, 3, (31000, 24000, 20000, 24000))
    >>> end = next_hand(south4, Wins((1,)), rules)
    >>> end.reason, end.scores, end.placements
    (<GameEndReason.LAST_HAND: 'last_hand'>, (32000, 24000, 20000, 24000), (0, 1, 3, 2))
    >>> below_target = TableState(RoundWind.SOUTH, 4, 0, 0, 3, (29000, 24000, 23000, 24000))
    >>> next_hand(below_target, Wins((1,)), rules)
    TableState(bakaze=<RoundWind.WEST: 'W'>, kyoku=1, honba=0, kyotaku=0, oya=0, scores=(29000, 24000, 23000, 24000))
    """
    _check_state(state, rules)
    _check_outcome(outcome, rules)
    keeps_deal = dealer_keeps_deal(outcome, state.oya, rules)
    if rules.length is GameLength.KYOKU:
        return _game_end(state, GameEndReason.LAST_HAND, rules)
    if rules.busting and min(state.scores) < (1 if rules.busting_at_zero else 0):
        return _game_end(state, GameEndReason.BUST, rules)
    # An abandoned hand the dealer keeps is replayed: no one won or paid, so nothing is decided.
    replayed = isinstance(outcome, AbortiveDraw) and keeps_deal
    if not replayed and _hand_index(state, rules.seats) >= _last_scheduled_hand(rules):
        reason = _all_last_end(state, outcome, keeps_deal, rules)
        if reason is not None:
            return _game_end(state, reason, rules)
    return _following_hand(state, outcome, keeps_deal, rules)


def scheduled_after(round_index: int, kyoku: int, rules: TableRules) -> int:
    """Scheduled hands after hand ``kyoku`` of round ``round_index`` (0 East, 1 South, 2 West...):
    none at all-last, in the extension or in a one-hand game; repeats not counted.

    >>> scheduled_after(0, 1, tenhou_rules()), scheduled_after(1, 4, tenhou_rules()), scheduled_after(2, 1, tenhou_rules())
    (7, 0, 0)
    """
    if rules.length is GameLength.KYOKU:
        return 0
    return max(_last_scheduled_hand(rules) - (round_index * rules.seats + kyoku - 1), 0)


def _hand_index(state: TableState, seats: int) -> int:
    """Hands from East 1 (0) to this one, as if none were repeated."""
    return _ROUNDS.index(state.bakaze) * seats + state.kyoku - 1


def _last_scheduled_hand(rules: TableRules) -> int:
    return max(_SCHEDULED_ROUNDS[rules.length] * rules.seats - 1, 0)


def _last_possible_hand(rules: TableRules) -> int:
    extension = rules.seats if rules.extension and rules.length is not GameLength.KYOKU else 0
    return _last_scheduled_hand(rules) + extension


def _all_last_end(state: TableState, outcome: HandOutcome, keeps_deal: bool, rules: TableRules) -> GameEndReason | None:
    """Whether the game ends after a hand at or past all-last (the rules in the module's docstring)."""
    first = placements(state.scores)[0]
    if keeps_deal:
        may_stop = rules.dealer_stops_on_win if isinstance(outcome, Wins) else rules.dealer_stops_on_tenpai
        # Without the extension no target stands between the first seat and the end.
        has_target = not rules.extension or state.scores[state.oya] >= rules.target_points
        stops = may_stop and first == state.oya and has_target
        return GameEndReason.DEALER_STOPS if stops else None
    if not rules.extension:
        return GameEndReason.LAST_HAND
    index = _hand_index(state, rules.seats)
    if state.scores[first] >= rules.target_points:
        return GameEndReason.LAST_HAND if index == _last_scheduled_hand(rules) else GameEndReason.TARGET_REACHED
    if index >= _last_possible_hand(rules):
        return GameEndReason.EXTENSION_OVER
    return None


def _following_hand(state: TableState, outcome: HandOutcome, keeps_deal: bool, rules: TableRules) -> TableState:
    honba = 0 if isinstance(outcome, Wins) and not keeps_deal else state.honba + 1
    bakaze, kyoku = state.bakaze, state.kyoku
    if not keeps_deal:
        kyoku += 1
        if kyoku > rules.seats:
            bakaze, kyoku = _ROUNDS[_ROUNDS.index(bakaze) + 1], 1
    return TableState(bakaze, kyoku, honba, state.kyotaku, kyoku - 1, state.scores)


def _game_end(state: TableState, reason: GameEndReason, rules: TableRules) -> GameEnd:
    order = placements(state.scores)
    scores = list(state.scores)
    if rules.leftover_sticks_to_top:
        scores[order[0]] += STICK_POINTS * state.kyotaku
    return GameEnd(reason, tuple(scores), order, state.kyotaku)


def _check_state(state: TableState, rules: TableRules) -> None:
    seats = rules.seats
    if len(state.scores) != seats:
        raise InvalidTableState(f"scores has {len(state.scores)} entries for {seats} seats", field="scores")
    if state.bakaze not in _ROUNDS:
        raise InvalidTableState(f"bakaze must be one of E, S, W, N, got {state.bakaze!r}", field="bakaze")
    if not 1 <= state.kyoku <= seats:
        raise InvalidTableState(f"kyoku must be 1..{seats}, got {state.kyoku}", field="kyoku")
    if state.oya != state.kyoku - 1:
        raise InvalidTableState(f"hand {state.kyoku} is dealt by seat {state.kyoku - 1}, not {state.oya}", field="oya")
    for name in ("honba", "kyotaku"):
        if getattr(state, name) < 0:
            raise InvalidTableState(f"{name} must be 0 or more, got {getattr(state, name)}", field=name)
    # A single-hand game may be any hand (self-play rotates the deal); a longer one stops somewhere.
    if rules.length is not GameLength.KYOKU and _hand_index(state, seats) > _last_possible_hand(rules):
        raise InvalidTableState(
            f"{state.bakaze.value}{state.kyoku} is past the last hand a {rules.length.value} game can reach",
            field="bakaze",
        )


def _check_seat_list(seats_given: Sequence[int], seats: int, name: str) -> None:
    if len(set(seats_given)) != len(seats_given) or not all(0 <= seat < seats for seat in seats_given):
        raise InvalidTableState(f"{name} must be distinct seats 0..{seats - 1}, got {list(seats_given)}", field=name)


def _check_outcome(outcome: HandOutcome, rules: TableRules) -> None:
    seats = rules.seats
    if isinstance(outcome, Wins):
        _check_seat_list(outcome.winners, seats, "winners")
        if not 1 <= len(outcome.winners) < seats:
            raise InvalidTableState(f"a hand has 1..{seats - 1} winners, got {len(outcome.winners)}", field="winners")
        if len(outcome.winners) > 1 and not rules.double_ron:
            raise InvalidTableState("one discard has one winner under these rules (double_ron off)", field="winners")
        if len(outcome.winners) == 3 and rules.triple_ron_draw:
            raise InvalidTableState(
                "three winners on one discard is an abortive draw (triple_ron_draw)", field="winners"
            )
    elif isinstance(outcome, ExhaustiveDraw):
        if len(outcome.tenpai) != seats:
            raise InvalidTableState(f"tenpai has {len(outcome.tenpai)} entries for {seats} seats", field="tenpai")
        _check_seat_list(outcome.nagashi, seats, "nagashi")
        if outcome.nagashi and not rules.nagashi_mangan:
            raise InvalidTableState("nagashi mangan is not played under these rules", field="nagashi")
    elif outcome.kind is AbortiveDrawKind.TRIPLE_RON and not rules.triple_ron_draw:
        raise InvalidTableState("a triple ron is three wins under these rules (triple_ron_draw off)", field="kind")


# -- payments at a draw --------------------------------------------------------------------------


def noten_payments(tenpai: Sequence[bool], rules: TableRules) -> tuple[int, ...]:
    """Each seat's points from the noten payments at an exhaustive draw (none when all or none are tenpai).

    >>> noten_payments([True, False, False, False], tenhou_rules())
    (3000, -1000, -1000, -1000)
    >>> noten_payments([True, False, True], tenhou_rules(seats=3))
    (1000, -2000, 1000)
    """
    if len(tenpai) != rules.seats:
        raise InvalidTableState(f"tenpai has {len(tenpai)} entries for {rules.seats} seats", field="tenpai")
    ready = sum(map(bool, tenpai))
    if ready in (0, rules.seats):
        return (0,) * rules.seats
    receive, pay = rules.noten_payment // ready, rules.noten_payment // (rules.seats - ready)
    return tuple(receive if is_ready else -pay for is_ready in tenpai)


def nagashi_payments(
    nagashi: Iterable[int], oya: int, rules: TableRules, *, tsumo_loss: bool = True
) -> tuple[int, ...]:
    """Each seat's points when ``nagashi`` seats have nagashi mangan: a mangan self-draw for each, no honba.

    ``tsumo_loss`` is the scoring profile's (sanma: the missing seat's share is not paid).

    >>> nagashi_payments([2], 3, tenhou_rules())
    (-2000, -2000, 8000, -4000)
    >>> nagashi_payments([0], 0, tenhou_rules(seats=3))
    (8000, -4000, -4000)
    """
    winners = tuple(nagashi)
    _check_seat_list(winners, rules.seats, "nagashi")
    if winners and not rules.nagashi_mangan:
        raise InvalidTableState("nagashi mangan is not played under these rules", field="nagashi")
    _check_seat(oya, rules.seats, "oya")
    totals = [0] * rules.seats
    for winner in winners:
        payments, _ = riichi_payments(
            LIMIT_BASE["mangan"], winner, oya, None, 0, seats=rules.seats, tsumo_loss=tsumo_loss
        )
        totals = [total + paid for total, paid in zip(totals, payments, strict=True)]
    return tuple(totals)


def exhaustive_draw_payments(
    draw: ExhaustiveDraw, oya: int, rules: TableRules, *, tsumo_loss: bool = True
) -> tuple[int, ...]:
    """Each seat's points at an exhaustive draw: nagashi mangan when a seat has it, else the noten payments.

    >>> rules = tenhou_rules()
    >>> exhaustive_draw_payments(ExhaustiveDraw((False, True, False, True)), 0, rules)
    (-1500, 1500, -1500, 1500)
    >>> exhaustive_draw_payments(ExhaustiveDraw((False, True, False, True), nagashi=(0,)), 0, rules)
    (12000, -4000, -4000, -4000)
    """
    if draw.nagashi:
        return nagashi_payments(draw.nagashi, oya, rules, tsumo_loss=tsumo_loss)
    return noten_payments(draw.tenpai, rules)


# -- liability -----------------------------------------------------------------------------------


def has_pao_yaku(yaku: Iterable[YakuHan]) -> bool:
    """Whether a scored hand holds a yakuman a seat can be liable for (daisangen, daisuushii).

    >>> has_pao_yaku([YakuHan("daisangen", 13, 1), YakuHan("tsuuiisou", 13, 1)])
    True
    """
    return any(item.name in PAO_YAKU for item in yaku)


def pao_payments(
    base_points: int, *, winner: int, dealer: int, discarder: int | None, liable: int, honba: int, seats: int
) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """A yakuman win with a liable seat: net per seat (honba included, sticks not) and what each payer pays.

    ``base_points`` is the whole hand's (every yakuman in it, as the scorer reports them);
    ``discarder`` is None for a self-draw.  Self-draw: the liable seat pays it all, as a discarder
    would.  Discard by another seat: the discarder and the liable seat pay half each, the liable
    seat the honba too.  Discard by the liable seat: an ordinary win on its discard.  Give ``honba``
    0 to a winner of a double ron who is not the first (:func:`ron_order`).  The same two fields as
    :class:`~app.core.value.riichi_scoring.RiichiScore`'s ``payments`` and ``per_payer``.

    >>> pao_payments(8000, winner=2, dealer=3, discarder=None, liable=0, honba=1, seats=4)
    ((-32300, 0, 32300, 0), ((0, 32300),))
    >>> pao_payments(8000, winner=2, dealer=3, discarder=1, liable=0, honba=1, seats=4)
    ((-16300, -16000, 32300, 0), ((1, 16000), (0, 16300)))
    """
    for name, seat in (("winner", winner), ("dealer", dealer), ("liable", liable)):
        _check_seat(seat, seats, name)
    if discarder is not None:
        _check_seat(discarder, seats, "discarder")
    if liable == winner or discarder == winner:
        raise InvalidTableState(f"seat {winner} cannot pay for its own win", field="liable")
    if base_points <= 0 or base_points % LIMIT_BASE["yakuman"]:
        raise InvalidTableState(
            f"liability is for yakuman: base points a multiple of 8000, got {base_points}", field="base_points"
        )
    if honba < 0:
        raise InvalidTableState(f"honba must be 0 or more, got {honba}", field="honba")
    # What the hand is worth on a discard, honba apart: the amount a liable seat is answerable for.
    value = riichi_payments(base_points, winner, dealer, liable, 0, seats=seats)[1][0][1]
    honba_points = HONBA_EACH * (seats - 1) * honba
    if discarder is None or discarder == liable:
        per_payer: tuple[tuple[int, int], ...] = ((liable, value + honba_points),)
    else:
        per_payer = ((discarder, value // 2), (liable, value - value // 2 + honba_points))
    return net_payments(winner, per_payer, seats), per_payer


def with_liability(
    score: RiichiScore,
    *,
    winner: int,
    dealer: int,
    discarder: int | None,
    liable: int | None,
    honba: int,
    rules: TableRules,
) -> RiichiScore:
    """``score`` with its payments moved onto a liable seat, where the rules and the hand call for it.

    Unchanged when ``liable`` is None, ``rules.pao`` is off or the hand has no daisangen or
    daisuushii; ``honba`` as the scorer was given it.

    >>> from app.core.shape.hand import Hand, Meld
    >>> from app.core.shape.rules import rule_profile
    >>> from app.core.shape.tiles import parse_mpsz
    >>> from app.core.value.riichi_scoring import score_riichi
    >>> from app.core.value.scoring_context import WinContext
    >>> melds = [Meld.of("pon", [31] * 3), Meld.of("pon", [32] * 3), Meld.of("pon", [33] * 3)]
    >>> hand = Hand.from_tiles(parse_mpsz("234m55p"), melds)
    >>> score = score_riichi(hand, 13, rule_profile("riichi"), WinContext(winner=1, dealer=0, honba=2))
    >>> score.payments
    (-16200, 32600, -8200, -8200)
    >>> with_liability(score, winner=1, dealer=0, discarder=None, liable=3, honba=2, rules=tenhou_rules()).payments
    (0, 32600, 0, -32600)
    """
    if liable is None or not rules.pao or not has_pao_yaku(score.yaku):
        return score
    payments, per_payer = pao_payments(
        score.base_points,
        winner=winner,
        dealer=dealer,
        discarder=discarder,
        liable=liable,
        honba=honba,
        seats=rules.seats,
    )
    return score._replace(payments=payments, per_payer=per_payer)


def _check_seat(seat: int, seats: int, name: str) -> None:
    if not 0 <= seat < seats:
        raise InvalidTableState(f"{name} must be a seat 0..{seats - 1}, got {seat}", field=name)
