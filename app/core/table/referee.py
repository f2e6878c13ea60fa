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
* ``game_not_over`` / ``game_over``: an ``end_game`` before the rules end the game, or
  a hand after they did.

>>> from app.core.shape.rules import rule_profile
>>> report = judge([{"type": "start_game"}, {"type": "end_game"}], rule_profile("riichi"))
>>> report.valid, report.problems
(True, [])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from app.core.errors import TenpaiError
from app.core.shape.rules import RuleProfile
from app.core.table.machine import Foul, HandResult, TableMachine
from app.core.table.mjai import Event, MalformedEvent, read_event

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
    stop: Callable[[], bool] | None = None,
) -> Report:
    """Replay ``objects`` (mjai events) and report every problem and each hand's deltas.

    Raises :class:`~app.core.table.machine.UnsupportedRules` for rules the table does not
    play, :class:`~app.core.table.mjai.MalformedEvent` for an event that is not mjai (at
    ``events[index]`` and its field), and :class:`RefereeStopped` when ``stop`` says so.
    """
    machine = TableMachine(rules)
    events = read_events(objects, rules.seats)
    report = Report()
    lost = False
    for index, event in enumerate(events):
        if stop is not None and index % STOP_CHECK_EVERY == 0 and stop():
            raise RefereeStopped
        if lost and event.kind not in ("start_kyoku", "end_game"):
            continue
        if lost:
            machine.phase = "idle"
            lost = False
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
    report.scores = tuple(machine.scores)
    return report


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
    ours = list(result.wins[-1].deltas) if event.kind == "hora" else list(result.deltas)
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
