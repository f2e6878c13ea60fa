"""POST /records/convert: a game log in any of the three formats in, any other out.

A thin route over :mod:`app.core.table.records` and the referee.  The log is read into mjai
events, judged as ``/referee`` judges them (its problems reported in the same form), and written
in the format asked for.  A heavy request like ``/referee``: the body is bounded
(TENPAI_MAX_BODY_BYTES), the events counted against TENPAI_MAX_EVENTS once read, and the work
runs off the event loop within TENPAI_HEAVY_SECONDS, stopped when its client leaves.
"""

from __future__ import annotations

from functools import partial
from typing import Annotated

from fastapi import APIRouter, Body, Request, Response

from app.api.errors import error_responses, located
from app.api.heavy import Budget, Finished, answer_heavy
from app.api.questions import request_table_rules
from app.api.request_path import BodyRoute
from app.api.routes.table import _log_out_of_time, _out_of_time, _within_bound
from app.api.schemas.records import ConvertRequest, ConvertResponse
from app.api.schemas.table import ProblemOut
from app.api.state import service_state
from app.core.families.registry import family_of
from app.core.shape.rules import RuleProfile
from app.core.table.records import ReadStopped, detect_format, read_log, write_log
from app.core.table.referee import RefereeStopped, judge

router = APIRouter(tags=["table"], route_class=BodyRoute)


@router.post(
    "/records/convert",
    response_model=ConvertResponse,
    operation_id="convert_record",
    summary="Convert a game log between mjai JSONL, tenhou.net/6 JSON and Tenhou's mjlog XML",
    responses=error_responses(413, 422, 500, 503),
)
async def convert(body: Annotated[ConvertRequest, Body()], request: Request) -> Response:
    """Read `log` (in `format`, or the format its first characters show), judge its game as `POST /referee`
    does, and write it in `to`. The answer carries the referee's `valid` and `problems` (each at its event's
    index, with its stable `type`) beside the converted `log`; a game with problems is still converted where
    its format can carry it. What each format keeps, and how the readers rebuild what it does not (the order of
    moves in tenhou.net/6, the `dora` and `reach_accepted` events), is in docs/records.md: every game in the
    shared Tenhou set comes back event for event through either.

    A log its format does not allow is a 422 `malformed_log` at `["body", "log", ...]` naming the place (a
    tenhou.net/6 path such as `log[0][5][0]`, an mjlog tag, an mjai event's index and field); events a format
    cannot carry (a game without `start_game`, say) a 422 `malformed_log` at `["body", "to"]`. More events than
    TENPAI_MAX_EVENTS: a 422 `too_many_events`. A heavy request: off the event loop within
    TENPAI_HEAVY_SECONDS, a 503 `out_of_time` past it (at `["body", "log"]` while the log is read, at
    `["body", "events"]` while it is judged), stopped when its client leaves."""
    settings = service_state(request).settings
    rules = request_table_rules(body.rules)
    work = partial(_converted, body, rules, settings.max_events, settings.heavy_seconds)
    return await answer_heavy(request, None, work, seconds=settings.heavy_seconds)


def _converted(body: ConvertRequest, rules: RuleProfile, max_events: int, seconds: float, budget: Budget) -> Finished:
    try:
        with located("body", "log"):
            source = body.format or detect_format(body.log)
            events = read_log(body.log, source, stop=budget.passed)
    except ReadStopped:
        raise _log_out_of_time(seconds, budget) from None
    _within_bound(events, max_events)
    try:
        with located("body", "log"):
            report = judge(events, rules, stop=budget.passed, family=family_of(rules))
    except RefereeStopped:
        raise _out_of_time(events, seconds, budget) from None
    with located("body", "to"):
        written = write_log(events, body.to, family_of("riichi"))
    answer = ConvertResponse(
        format=body.to,
        source_format=source,  # type: ignore[arg-type]  # one of FORMATS, as detect_format answers
        events=len(events),
        valid=report.valid,
        problems=[ProblemOut.of(problem) for problem in report.problems],
        log=written,
    )
    return Finished(answer.model_dump_json().encode(), True)
