"""POST /discard: every distinct discard of a 3n+2 hand, scored and explained."""

from __future__ import annotations

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
from app.api.questions import json_response
from app.api.state import service_state
from app.core.discard import evaluate_discards
from app.core.engine import Checker

router = APIRouter(tags=["discard"])
_ERRORS = error_responses(413, 422, 500)


async def _asked(body: Annotated[DiscardRequest, Body(openapi_examples=DISCARD_EXAMPLES)]) -> DiscardQuestion:
    return ask_discard(body)


DiscardAsked = Annotated[DiscardQuestion, Depends(_asked)]


def _answer(question: DiscardQuestion) -> bytes:
    with located("body"):
        candidates = evaluate_discards(
            question.hand,
            question.rules,
            visible=question.visible,
            dora_indicators=question.dora_indicators,
            opponents=question.opponents,
            turn=question.turn,
            weights=question.weights,
            options=question.options,
            red_fives=question.red_fives,
        )
    shanten = Checker(question.rules).shanten(question.hand).shanten
    return DiscardResponse.of(candidates, shanten, question.weights).model_dump_json().encode()


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
    take milliseconds to seconds and run off the event loop."""
    cache = service_state(request).cache
    key = question.key()
    if question.heavy:
        answer = await run_in_threadpool(cache.get_or_compute, key, lambda: _answer(question))
    else:
        answer = cache.get_or_compute(key, lambda: _answer(question))
    return json_response(answer)
