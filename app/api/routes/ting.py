"""POST /ting and /ting/batch: the waits of a 3n+1 hand."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, Body, Request, Response

from app.api.answer_size import LARGEST_TING
from app.api.batch_fast import ting_batch_json
from app.api.errors import error_responses
from app.api.questions import (
    SITUATION_RENAMES,
    Question,
    answer_batch,
    ask_one,
    ask_situated,
    json_response,
)
from app.api.render import ting_json
from app.api.request_path import BodyRoute, replayable
from app.api.schemas.hand import (
    TING_EXAMPLES,
    BatchBody,
    JudgedTingResponse,
    TingBatchResponse,
    TingRequest,
    WaitJudgement,
)
from app.api.schemas.score import Refusal, judge
from app.api.state import service_state
from app.core.shape.engine import Checker
from app.core.shape.tiles import format_tile
from app.core.value.scoring_context import WinContext

router = APIRouter(tags=["ting"], route_class=BodyRoute)
_ERRORS = error_responses(413, 422, 500)


def _ting(checker: Checker, question: Question) -> bytes:
    return ting_json(checker.waits(question.hand, question.visible))


def _judged(context: WinContext) -> Callable[[Checker, Question], bytes]:
    """The /ting answer for a hand asked with its situation: each shape wait is scored as the
    winning tile, and only those the scoring profile lets win stay among the waits."""

    def answer(checker: Checker, question: Question) -> bytes:
        shape = checker.waits(question.hand, question.visible)
        judged = []
        winning = set()
        for tile in shape.shape_waits:
            verdict = judge(question.hand.with_tile(tile), tile, checker.rules, context, SITUATION_RENAMES)
            if isinstance(verdict, Refusal):
                judged.append(
                    WaitJudgement(
                        tile=format_tile(tile), win=False, reason=verdict.code, refusal=verdict.message, score=None
                    )
                )
            else:
                judged.append(WaitJudgement(tile=format_tile(tile), win=True, reason=None, refusal=None, score=verdict))
                winning.add(tile)
        waits = tuple(wait for wait in shape.waits if wait.tile in winning)
        refusals = sorted({item.reason for item in judged if item.reason is not None})
        reason = shape.reason or (refusals[0] if shape.shape_waits and not waits and refusals else None)
        result = shape._replace(
            tenpai=bool(waits),
            waits=waits,
            karaten=bool(waits) and all(wait.remaining == 0 for wait in waits),
            reason=reason,
        )
        return JudgedTingResponse.of(result).model_copy(update={"judged": judged}).rendered()

    return answer


@router.post(
    "/ting",
    response_model=JudgedTingResponse,
    operation_id="ting",
    summary="Which tiles complete a 3n+1 hand?",
    responses=_ERRORS,
)
@replayable
async def ting(body: Annotated[TingRequest, Body(openapi_examples=TING_EXAMPLES)], request: Request) -> Response:
    """The waits of a 13-tile hand (13 - 3k with k melds) with their unseen copies
    (`remaining` = 4 minus copies in hand, melds and `visible`). `karaten` is tenpai
    with no copy left of any wait.

    With a `situation` (the /score fields without the hand and the winning tile), each
    shape wait is scored as the winning tile under the rules' scoring profile: `waits`
    keeps the tiles the hand may be declared a win on (MCR: 8 fans; riichi: a yaku),
    `judged` gives every shape wait's verdict and score, and a hand ready in shape whose
    waits all fall short answers `tenpai: false` with `reason` `below_minimum_fan` or
    `no_yaku`."""
    if body.situation is None:
        asked = ask_one("ting", body)
        compute: Callable[[Checker, Question], bytes] = _ting
    else:
        asked, _, context = ask_situated("ting", body, body.situation, variant=lambda _, context: context)
        compute = _judged(context)
    (answer,) = asked.answer(service_state(request).cache, compute)
    return json_response(answer)


@router.post(
    "/ting/batch",
    response_model=TingBatchResponse,
    operation_id="ting_batch",
    summary="/ting for many hands at once",
    responses=_ERRORS,
)
def ting_batch(body: BatchBody, request: Request) -> Response:
    """One /ting answer per hand, in request order; `melds`, `rules` and `visible`
    apply to every hand. A bad hand is a 422 whose `loc` is `["body", "hands", index]`."""
    state = service_state(request)
    return answer_batch(
        "ting",
        body,
        settings=state.settings,
        largest_answer=LARGEST_TING,
        cache=state.cache,
        vectorised=ting_batch_json,
        compute=_ting,
    )
