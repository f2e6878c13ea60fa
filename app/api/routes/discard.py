"""POST /discard: every distinct discard of a 3n+2 hand, scored and explained."""

from __future__ import annotations

from functools import partial
from typing import Annotated

from fastapi import APIRouter, Body, Depends, Request, Response
from starlette.concurrency import run_in_threadpool

from app.api.discard_schemas import (
    DISCARD_EXAMPLES,
    DiscardQuestion,
    DiscardRequest,
    DiscardResponse,
    ask_discard,
)
from app.api.errors import error_responses, located
from app.api.heavy import Budget, Finished, answer_heavy
from app.api.questions import json_response
from app.api.state import service_state
from app.core.discard import Candidate, evaluate_discards
from app.core.engine import Checker
from app.core.lookahead import StopReason

router = APIRouter(tags=["discard"])
_ERRORS = error_responses(413, 422, 500, 503)


async def _asked(body: Annotated[DiscardRequest, Body(openapi_examples=DISCARD_EXAMPLES)]) -> DiscardQuestion:
    return ask_discard(body)


DiscardAsked = Annotated[DiscardQuestion, Depends(_asked)]


def _evaluate(question: DiscardQuestion, budget: Budget | None = None) -> list[Candidate]:
    with located("body"):
        return evaluate_discards(
            question.hand,
            question.rules,
            visible=question.visible,
            dora_indicators=question.dora_indicators,
            opponents=question.opponents,
            turn=question.turn,
            weights=question.weights,
            options=question.options,
            red_fives=question.red_fives,
            value_winds=question.value_winds,
            deadline=None if budget is None else budget.deadline,
            cancelled=None if budget is None else budget.cancelled,
        )


def _render(question: DiscardQuestion, candidates: list[Candidate]) -> bytes:
    shanten = Checker(question.rules).shanten(question.hand).shanten
    return DiscardResponse.of(candidates, shanten, question.weights).model_dump_json().encode()


def _answer(question: DiscardQuestion) -> bytes:
    return _render(question, _evaluate(question))


def _lookahead_answer(question: DiscardQuestion, budget: Budget) -> Finished:
    candidates = _evaluate(question, budget)
    # Complete unless the clock cut a search short: an answer cut by the request's own
    # state budget is the same every time, one cut by time depends on the load.
    timed_out = any(c.lookahead is not None and c.lookahead.stopped_by is StopReason.TIME for c in candidates)
    return Finished(_render(question, candidates), not timed_out)


@router.post(
    "/discard",
    response_model=DiscardResponse,
    operation_id="discard",
    summary="Rank every discard of a 3n+2 hand",
    responses=_ERRORS,
)
async def discard(question: DiscardAsked, request: Request) -> Response:
    """Every distinct discard of the hand, best first, with its shanten, ukeire (unseen copies:
    4 minus the 14-tile hand, melds, `visible`, dora indicators and every opponent's river and
    melds), safety against each opponent, dora and honour value kept, and the score of seed 000,
    `-10·shanten + 0.8·ukeire/4 + 1.2·safety + 1.5·dora + 0.6·honors` by default, term by term.

    Safety is the probability of not dealing in, from published Tenhou deal-in tables by turn
    (genbutsu, suji, kabe / no chance, one chance, honours by copies seen, early outside tiles),
    scaled by how likely an opponent who has not declared is ready, and rule-aware: without
    furiten (`chinese`, `qiqihar`) a tile in the river is not fully safe. Extras (`options`)
    take milliseconds to seconds and run off the event loop. A lookahead is a heavy request:
    it stops at the service's wall-clock budget (TENPAI_HEAVY_SECONDS) with what it found,
    flagged `complete: false`, and beyond TENPAI_MAX_HEAVY_REQUESTS at once the answer is a 503
    `too_busy` with `Retry-After`."""
    state = service_state(request)
    key = question.key()
    if question.options.lookahead:
        return await answer_heavy(
            request, key, partial(_lookahead_answer, question), seconds=state.settings.heavy_seconds
        )
    if question.heavy:
        answer = await run_in_threadpool(state.cache.get_or_compute, key, lambda: _answer(question))
    else:
        answer = state.cache.get_or_compute(key, lambda: _answer(question))
    return json_response(answer)
