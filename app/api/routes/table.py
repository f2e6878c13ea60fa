"""POST /referee and POST /act: the table as a service, mjai events in.

The service stays stateless: the client sends a game's events and the service
replays them through one table machine (:mod:`app.core.table.machine`), for the
referee's verdict (:func:`app.core.table.referee.judge`) or for one seat's decision
(:func:`app.core.table.decide.act`).  A replay costs about 60-70 µs an event here (a
hanchan of 1763 events: 0.12 s through /referee; an /act adds the advisor's search, up
to its state budget: 41 ms at the median over a hanchan's draws), so both are bounded
three ways:

* the body (TENPAI_MAX_BODY_BYTES, :class:`~app.api.request_path.BodyRoute`) and the
  number of events (TENPAI_MAX_EVENTS: a 422 ``too_many_events`` before any work);
* time: each is a heavy request (:mod:`app.api.heavy`), replayed off the event loop in
  a heavy slot within TENPAI_HEAVY_SECONDS, and stopped within 64 events of its
  client leaving.  A replay that cannot finish is a 503 ``out_of_time`` (a verdict on
  part of a game would be no verdict); an /act whose advisor's search the clock cut
  short answers what it found, flagged ``complete: false``.

Neither answer is cached: the exact key of a game is its events, tens of kilobytes, and the
result cache bounds the bytes of its answers, not of its keys (a hash code is no key).  But
/act keeps the table machine it replayed (:mod:`app.api.machine_cache`), keyed by the rules,
the seat and the SHA-256 of the events' canonical bytes: a backend that sends one game's
growing log has only the new events applied, and gets the answer a whole replay gives.
/referee replays whole: its verdict carries more state than the machine (every problem so
far, the hands' tallies, the recovery after a foul), and a game is judged once, at its end.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Annotated

from fastapi import APIRouter, Body, Request, Response

from app.api.errors import ApiError, error_responses, located
from app.api.heavy import Budget, Finished, answer_heavy
from app.api.machine_cache import MachineCache
from app.api.questions import request_table_rules
from app.api.request_path import BodyRoute
from app.api.schemas.table import (
    ACT_EXAMPLES,
    REFEREE_EXAMPLES,
    ActRequest,
    ActResponse,
    RefereeRequest,
    RefereeResponse,
)
from app.api.state import service_state
from app.core.families.registry import PLAY_RULES, family_of
from app.core.shape.rules import RuleProfile
from app.core.shape.tiles import counted
from app.core.table.decide import act
from app.core.table.flow import GameLength
from app.core.table.game import InvalidGameConfig
from app.core.table.referee import RefereeStopped, judge

router = APIRouter(tags=["table"], route_class=BodyRoute)
_ERRORS = error_responses(413, 422, 500, 503)
_AT_EVENTS = ("body", "events")


def _within_bound(events: Sequence[object], max_events: int) -> None:
    """Refuse more than ``max_events`` events before any is read (as batches are capped)."""
    if len(events) > max_events:
        raise ApiError(
            _AT_EVENTS,
            f"{counted(len(events), 'event')} in one request; this service replays at most {max_events} "
            "(TENPAI_MAX_EVENTS; a hanchan has 1000 to 2000)",
            "too_many_events",
            ctx={"max_events": max_events},
        )


def _why_stopped(seconds: float, budget: Budget, smaller: str) -> str:
    if budget.cancelled():
        return "its client left"
    return (
        f"it did not finish within {seconds:g} s (TENPAI_HEAVY_SECONDS) on this process, loaded as it was; "
        f"ask again, or send {smaller}"
    )


def _out_of_time(events: Sequence[object], seconds: float, budget: Budget) -> ApiError:
    """The 503 for a replay stopped before its end (sent to no one when its client left)."""
    return ApiError(
        _AT_EVENTS,
        f"the replay of {counted(len(events), 'event')} stopped: {_why_stopped(seconds, budget, 'fewer events')}",
        "out_of_time",
        ctx={"seconds": seconds},
    )


def _log_out_of_time(seconds: float, budget: Budget) -> ApiError:
    """The 503 for a game log whose reading was stopped (:class:`~app.core.table.records.ReadStopped`:
    the tenhou.net/6 reader's search for the order of moves), as :func:`_out_of_time` for a replay."""
    return ApiError(
        ("body", "log"),
        f"the reading of the log stopped: {_why_stopped(seconds, budget, 'a shorter log')}",
        "out_of_time",
        ctx={"seconds": seconds},
    )


@router.post(
    "/referee",
    response_model=RefereeResponse,
    operation_id="referee",
    summary="Judge a game's mjai log: every foul at its event, each hand's deltas",
    responses=_ERRORS,
)
async def referee(
    body: Annotated[RefereeRequest, Body(openapi_examples=REFEREE_EXAMPLES)], request: Request
) -> Response:
    """Replay the events through the table (Tenhou's rules for riichi and sanma) and report every event it
    would not allow, at its index, with a stable `type`: out of turn, a tile the actor does not
    hold, a call that is not offered, a missing `dora` after a kan, a discard forbidden after a
    call (kuikae), a win that is not a win or is furiten, a riichi while not ready, ...; and every
    `hora` or `ryukyoku` whose logged `deltas` differ from the rules' (`deltas_differ`). After a
    problem the referee goes on judging the rest of the game.

    `hands` has one entry per hand: its `deltas` are the service's own for the whole hand (a double
    ron's wins, honba, riichi sticks, noten payments, nagashi mangan and pao included),
    `logged_deltas` the sum of the log's. Each hand's start is checked against the last hand's end
    (`wrong_start`), and, given the game's `length`, the end of the game (`game_not_over`,
    `game_over`); the final `scores` are Tenhou's, the sticks left on the table to the leader.
    Any well-formed list of events answers 200; `valid` is
    true when there is no problem. A malformed event is a 422 `malformed_event` at
    `["body", "events", index, field]`.

    A heavy request: it runs off the event loop within TENPAI_HEAVY_SECONDS (a hanchan takes about
    0.1 s), a 503 `out_of_time` past it, and stops when its client leaves; beyond
    TENPAI_MAX_HEAVY_REQUESTS at once, a 503 `too_busy` with `Retry-After`."""
    settings = service_state(request).settings
    _within_bound(body.events, settings.max_events)
    rules = request_table_rules(body.rules)
    _check_length(body.length, rules)
    judged = partial(_judged, body.events, rules, body.length, settings.heavy_seconds)
    return await answer_heavy(request, None, judged, seconds=settings.heavy_seconds)


def _check_length(length: GameLength | None, rules: RuleProfile) -> None:
    """Refuse a length the rules' table does not play (the Chinese rules: one hand at a time)."""
    play = PLAY_RULES.get(rules.name)
    if length is not None and play is not None and length.value not in play.lengths:
        raise ApiError(
            ("body", "length"),
            f"{rules.name} is played {' or '.join(play.lengths)} here: its flow between hands is not modelled",
            InvalidGameConfig.code,
        )


def _judged(
    events: Sequence[object], rules: RuleProfile, length: GameLength | None, seconds: float, budget: Budget
) -> Finished:
    try:
        with located("body"):
            report = judge(events, rules, length=length, stop=budget.passed, family=family_of(rules))
    except RefereeStopped:
        raise _out_of_time(events, seconds, budget) from None
    return Finished(RefereeResponse.of(report).model_dump_json().encode(), True)


@router.post(
    "/act",
    response_model=ActResponse,
    operation_id="act",
    summary="A seat's legal actions at this point of the game, and the one to take",
    responses=_ERRORS,
)
async def act_now(body: Annotated[ActRequest, Body(openapi_examples=ACT_EXAMPLES)], request: Request) -> Response:
    """`legal` is every action the rules allow `seat` after the last event, each once, in mjai form;
    `action` is the one the service picks, and `ranked` orders them all best first with the value it
    gives each, in points, and the reasons. Under riichi and sanma every decision is valued
    (docs/table.md, "The advisor's decisions"): discards by today's `/discard` model, folding to
    the safest tile when no discard is worth the risk against a riichi; a chi, pon or open kan by
    the expected score after it against passing; riichi against dama (ura dora, ippatsu, the stick); a
    closed or added kan by its replacement draw, new dora and the chance it is robbed, against the
    best discard; a win on a discard is passed
    at all-last when it would end the game in last place and another win of the hand would not.
    Under other rules calls and kans follow simple rules and every win is taken.

    The answer depends only on what the seat sees: the other seats' dealt and drawn tiles are hidden
    before the replay, so they may be sent as `?` or shown. The events must end where the seat acts
    (else a 422 `not_a_decision_point`); an event the table does not allow is a 422 `illegal_event`
    at its index, a malformed one a 422 `malformed_event`.

    A backend may send one game's growing log at every decision: the service keeps the table it
    replayed (TENPAI_ACT_MACHINES) and applies only the events after the longest prefix it holds for
    the same rules and seat; the answer is the one a whole replay gives.

    A heavy request, like `/referee`: off the event loop within TENPAI_HEAVY_SECONDS; an advisor's
    search cut short by that clock answers what it found with `complete: false`."""
    settings = service_state(request).settings
    _within_bound(body.events, settings.max_events)
    rules = request_table_rules(body.rules)
    machines = service_state(request).machines
    decided = partial(
        _decided, body.seat, body.events, rules, settings.heavy_seconds, machines if machines.enabled else None
    )
    return await answer_heavy(request, None, decided, seconds=settings.heavy_seconds)


def _decided(
    seat: int,
    events: Sequence[object],
    rules: RuleProfile,
    seconds: float,
    machines: MachineCache | None,
    budget: Budget,
) -> Finished:
    try:
        with located("body"):
            answer = act(events, seat, rules, stop=budget.passed, shelf=machines, family=family_of(rules))
    except TimeoutError:  # act's replay heard the stop before the seat's point
        raise _out_of_time(events, seconds, budget) from None
    # The advisor's search stops quietly when told to: past the deadline its ranking may be partial.
    complete = not budget.passed()
    return Finished(ActResponse.of(answer, complete=complete).model_dump_json().encode(), complete)
