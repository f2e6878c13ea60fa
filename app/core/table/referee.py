"""The referee: is this mjai log a legal game, and what does each hand pay?

The referee replays a whole log through one :class:`~app.core.table.machine.TableMachine`.
Every event the machine refuses becomes a :class:`Problem` at the event's index, with the
machine's stable code; the referee then applies that event without checking it
(``lenient``) and judges the rest of the game, so one bad event does not hide the
next.  When even that fails (the log no longer describes a table it can follow), it
skips to the next ``start_kyoku`` and says so (``desynchronised``).

Beside the events themselves it checks what the table computes:

* ``deltas_differ``: a ``hora`` or ``ryukyoku`` whose logged ``deltas`` differ from the
  rules' (honba, riichi sticks, double ron, noten payments, nagashi mangan and pao
  included);
* ``wrong_start``: a ``start_kyoku`` whose scores, round, dealer, honba or sticks are
  not what the last hand leaves (:func:`app.core.table.flow.next_hand`);
* ``game_not_over`` / ``game_over``: with the game's ``length`` given, an ``end_game``
  before the rules end the game, or a hand after they did.

The final ``scores`` are Tenhou's: the riichi sticks left on the table go to the leader.

>>> from app.core.shape.rules import rule_profile
>>> from app.core.families.registry import family_of
>>> rules = rule_profile("riichi")
>>> report = judge([{"type": "start_game"}, {"type": "end_game"}], rules, family=family_of(rules))
>>> report.valid, report.problems
(True, [])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from app.core.errors import TenpaiError
from app.core.shape.rules import RuleProfile
from app.core.table.family import Family
from app.core.table.flow import (
    GameEnd,
    GameLength,
    RoundWind,
    TableRules,
    TableState,
    first_hand,
    next_hand,
    tenhou_rules,
)
from app.core.table.machine import Foul, HandResult, TableMachine
from app.core.table.mjai import Event, MalformedEvent, read_event, tile_name

#: How many events the referee replays between two looks at its stop signal.
STOP_CHECK_EVERY: Final = 64


#: What a log the machine cannot follow any more may raise (besides a Foul).
_LOST: Final = (AssertionError, KeyError, IndexError)


class RefereeStopped(Exception):
    """The caller's stop signal fired (its deadline passed, its client left)."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One event a Tenhou-rules table would not allow, or whose figures are wrong."""

    index: int
    type: str
    msg: str


@dataclass(frozen=True, slots=True)
class HandReport:
    """One hand: its round, how it ended, the table's deltas beside the log's."""

    kyoku: int
    bakaze: int
    honba: int
    result: str
    deltas: tuple[int, ...]
    logged_deltas: tuple[int, ...] | None


@dataclass(slots=True)
class Report:
    """The referee's verdict on a log."""

    problems: list[Problem] = field(default_factory=list)
    hands: list[HandReport] = field(default_factory=list)
    scores: tuple[int, ...] = ()

    @property
    def valid(self) -> bool:
        return not self.problems


def read_events(objects: Sequence[object], seats: int) -> list[Event]:
    """Type every event first, so that a malformed one is refused before any judging."""
    return [read_event(obj, index, seats) for index, obj in enumerate(objects)]


def judge(
    objects: Sequence[object],
    rules: RuleProfile,
    *,
    family: Family,
    length: GameLength | None = None,
    stop: Callable[[], bool] | None = None,
) -> Report:
    """Replay ``objects`` (mjai events) and report every problem and each hand's deltas.

    ``length`` (kyoku, tonpuu, hanchan) lets the referee say when the game must end; without
    it, it checks that each hand follows from the last (a hanchan's flow, which a continuing
    tonpuu shares) but not where the game ends.  Raises
    :class:`~app.core.table.machine.NoTable` for rules the table does not play,
    :class:`~app.core.table.mjai.MalformedEvent` for an event that is not mjai (at
    ``events[index]`` and its field), and :class:`RefereeStopped` when ``stop`` says so.
    """
    machine = TableMachine(rules, family)
    events = read_events(objects, rules.seats)
    table = tenhou_rules(seats=rules.seats, length=length or GameLength.HANCHAN)
    report = Report()
    lost = False
    expected: TableState | GameEnd | None = first_hand(table) if length is not None else None
    for index, event in enumerate(events):
        if stop is not None and index % STOP_CHECK_EVERY == 0 and stop():
            raise RefereeStopped
        if event.kind == "start_kyoku":
            _check_start(event, expected, index, report, length is not None)
        elif event.kind == "end_game" and isinstance(expected, TableState) and length is not None and machine.results:
            report.problems.append(
                Problem(index, "game_not_over", f"a {length.value} goes on after this hand: {_describe(expected)}")
            )
        if lost and event.kind not in ("start_kyoku", "end_game"):
            continue
        if lost:
            machine.phase = "idle"
            lost = False
        hands_before = len(machine.results)
        try:
            _apply(machine, event, index, report)
        except MalformedEvent as error:
            raise error.of_event(index) from None
        except Foul as foul:
            report.problems.append(Problem(index, foul.code, foul.message))
            machine.lenient = True
            try:
                _apply(machine, event, index, report)
            except MalformedEvent as error:
                raise error.of_event(index) from None
            except (TenpaiError, *_LOST):
                lost = True
                report.problems.append(
                    Problem(index, "desynchronised", "the log cannot be followed from here to the next start_kyoku")
                )
            finally:
                machine.lenient = False
        except (TenpaiError, *_LOST) as error:
            # Only after an earlier foul: the state the lenient replay left cannot take this event.
            report.problems.append(Problem(index, "desynchronised", f"the log cannot be followed here: {error}"))
            lost = True
        if len(machine.results) > hands_before:
            expected = _following(machine, table)
    final = expected if isinstance(expected, GameEnd) else None
    if final is None and machine.results and machine.phase in ("idle", "over"):
        final = _ended_here(machine, table)
    report.scores = final.scores if final is not None else tuple(machine.scores)
    return report


def _state_after(machine: TableMachine) -> TableState:
    result = machine.results[-1]
    return TableState(
        RoundWind(tile_name(result.bakaze)),
        result.kyoku,
        result.honba,
        machine.kyotaku,
        result.oya,
        tuple(machine.scores),
    )


def _following(machine: TableMachine, table: TableRules) -> TableState | GameEnd | None:
    """What the hand just ended leaves: the next hand's start, or the end of the game."""
    try:
        return next_hand(_state_after(machine), machine.results[-1].outcome(), table)
    except TenpaiError:
        return None  # a hand the rules cannot follow (already reported as a foul)


def _ended_here(machine: TableMachine, table: TableRules) -> GameEnd | None:
    """The game as it stands, ended after its last hand: the sticks left go to the leader."""
    ended = replace(table, length=GameLength.KYOKU)
    try:
        result = next_hand(_state_after(machine), machine.results[-1].outcome(), ended)
    except TenpaiError:
        return None
    return result if isinstance(result, GameEnd) else None


def _describe(state: TableState) -> str:
    return (
        f"{state.bakaze.value}{state.kyoku}, honba {state.honba}, {state.kyotaku} sticks, "
        f"dealer {state.oya}, scores {list(state.scores)}"
    )


def _check_start(
    event: Event, expected: TableState | GameEnd | None, index: int, report: Report, knows_length: bool
) -> None:
    if expected is None:
        return
    if isinstance(expected, GameEnd):
        if knows_length:
            report.problems.append(
                Problem(index, "game_over", f"the game ended before this hand ({expected.reason.value})")
            )
        return
    raw = event.raw
    logged = (
        raw.get("bakaze"),
        raw.get("kyoku"),
        raw.get("honba"),
        raw.get("kyotaku"),
        raw.get("oya"),
        raw.get("scores"),
    )
    wanted = (
        expected.bakaze.value,
        expected.kyoku,
        expected.honba,
        expected.kyotaku,
        expected.oya,
        list(expected.scores),
    )
    if logged != wanted:
        names = ("bakaze", "kyoku", "honba", "kyotaku", "oya", "scores")
        differ = [
            f"{name} {got!r} (the rules: {want!r})"
            for name, got, want in zip(names, logged, wanted, strict=True)
            if got != want
        ]
        report.problems.append(
            Problem(index, "wrong_start", "this hand does not follow from the last: " + "; ".join(differ))
        )


def _apply(machine: TableMachine, event: Event, index: int, report: Report) -> None:
    hands_before = len(machine.results)
    machine.apply(event)
    if event.kind in ("hora", "ryukyoku"):
        _check_deltas(machine, event, index, report)
    if len(machine.results) > hands_before:
        report.hands.append(_hand_report(machine.results[-1]))


def _check_deltas(machine: TableMachine, event: Event, index: int, report: Report) -> None:
    logged: Any = event.raw.get("deltas")
    result = machine.result
    if logged is None or result is None:
        return
    if event.kind == "hora":
        ours = list(result.wins[-1].deltas)
    else:
        ours = list(result.deltas if result.draw_deltas is None else result.draw_deltas)
    if list(logged) != ours:
        report.problems.append(
            Problem(index, "deltas_differ", f"the log's deltas {list(logged)} differ from the rules' {ours}")
        )


def _hand_report(result: HandResult) -> HandReport:
    return HandReport(
        result.kyoku,
        result.bakaze,
        result.honba,
        result.kind if result.kind == "hora" else "ryukyoku",
        tuple(result.deltas),
        None if result.logged_deltas is None else tuple(result.logged_deltas),
    )
