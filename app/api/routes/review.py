"""POST /review: one seat's decisions over a game's mjai log, each beside tenpai's pick.

A thin route over :func:`app.core.table.review.review`.  A heavy request like ``/referee`` and
``/act`` (:mod:`app.api.routes.table`): the number of events is capped before any work, the
review runs off the event loop within TENPAI_HEAVY_SECONDS and stops when its client leaves.
A review the clock cut short answers the decisions it finished, flagged ``complete: false``
(a hanchan takes 0.1 to 1.5 s for one seat here, so the default 2 s bound usually suffices;
``kyoku`` reviews one hand at a time).  The answer is at most TENPAI_MAX_ANSWER_BYTES: a larger
one is a 422 ``answer_too_large`` that asks for one hand at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Annotated

from fastapi import APIRouter, Body, Request, Response

from app.api.answer_size import ANSWER_TOO_LARGE
from app.api.errors import ApiError, error_responses, located
from app.api.heavy import Budget, Finished, answer_heavy
from app.api.questions import request_table_rules
from app.api.request_path import BodyRoute
from app.api.routes.table import _log_out_of_time, _out_of_time, _within_bound
from app.api.schemas.review import REVIEW_EXAMPLES, ReviewRequest, ReviewResponse
from app.api.state import service_state
from app.core.families.registry import family_of
from app.core.shape.rules import RuleProfile
from app.core.table.records import ReadStopped, read_log
from app.core.table.review import review

router = APIRouter(tags=["table"], route_class=BodyRoute)


@router.post(
    "/review",
    response_model=ReviewResponse,
    operation_id="review",
    summary="Review a seat's decisions over a game's mjai log: the action taken, tenpai's pick, the value lost",
    responses=error_responses(413, 422, 500, 503),
)
async def review_game(
    body: Annotated[ReviewRequest, Body(openapi_examples=REVIEW_EXAMPLES)], request: Request
) -> Response:
    """Replay the log as `seat` saw it and, at each of its decisions with more than one legal action (its
    draws, its discard after a call, another seat's discard or kan it may claim), rank every legal action as
    `/act` does (docs/table.md, "The advisor's decisions") and set the action the log took beside tenpai's pick:
    both values in points from the same ranking, the `loss` between them (at least 0) and the reasons of both
    (the danger against a riichi, the shape and win chance given up, a yaku lost by a call). A pass is the
    action taken when the seat did not claim. Where the ranking gives no figure in points, `loss` is null and
    `note` says why. `summary` counts the decisions, the agreements and the losses (the largest ones by event
    index); `hands` gives each hand's result and the log's deltas.

    A malformed event is a 422 `malformed_event` at `["body", "events", index, field]`, an event the table does
    not allow a 422 `illegal_event`; a seat the rules do not seat or a `kyoku` past the log's last hand a 422
    `out_of_range` at that field. A heavy request: off the event loop within TENPAI_HEAVY_SECONDS (a review cut
    short answers what it finished, `complete: false`; a `log` whose reading the clock cut short, a 503
    `out_of_time` at `["body", "log"]`), stopped when its client leaves."""
    settings = service_state(request).settings
    if body.events is not None:
        _within_bound(body.events, settings.max_events)
    rules = request_table_rules(body.rules)
    reviewed = partial(_reviewed, body, rules, settings.max_events, settings.heavy_seconds, settings.max_answer_bytes)
    return await answer_heavy(request, None, reviewed, seconds=settings.heavy_seconds)


def _reviewed(
    body: ReviewRequest,
    rules: RuleProfile,
    max_events: int,
    seconds: float,
    max_answer_bytes: int,
    budget: Budget,
) -> Finished:
    events: Sequence[object]
    if body.events is not None:
        events = body.events
    else:
        assert body.log is not None  # the request's validator asks for one of them
        try:
            with located("body", "log"):
                events = read_log(body.log, body.format, stop=budget.passed)
        except ReadStopped:  # a review of no events would be no review: as a stopped replay, a 503
            raise _log_out_of_time(seconds, budget) from None
        _within_bound(events, max_events)
    with located("body"):
        report = review(events, body.seat, rules, hand=body.kyoku, stop=budget.passed, family=family_of(rules))
    if budget.cancelled():  # nobody is waiting for the answer
        raise _out_of_time(events, seconds, budget)
    answer = ReviewResponse.of(report).model_dump_json().encode()
    if len(answer) > max_answer_bytes:
        raise ApiError(
            ("body", "kyoku"),
            f"the review of {len(report.decisions)} decisions would be {len(answer)} bytes, over the "
            f"{max_answer_bytes}-byte limit (TENPAI_MAX_ANSWER_BYTES): review one hand at a time (`kyoku`)",
            ANSWER_TOO_LARGE,
            ctx={"max_answer_bytes": max_answer_bytes},
        )
    return Finished(answer, report.complete)
