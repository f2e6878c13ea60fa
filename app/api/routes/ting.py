"""POST /ting and /ting/batch: the waits of a 3n+1 hand."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from app.api.answer_size import LARGEST_TING
from app.api.batch_fast import ting_batch_json
from app.api.deps import BatchBody, CacheDep, SettingsDep, TingAsked
from app.api.errors import error_responses
from app.api.questions import Question, answer_batch, json_response
from app.api.render import ting_json
from app.api.schemas import TingBatchResponse, TingResponse
from app.api.state import service_state
from app.core.engine import Checker

router = APIRouter(tags=["ting"])
_ERRORS = error_responses(413, 422, 500)


def _ting(checker: Checker, question: Question) -> bytes:
    return ting_json(checker.waits(question.hand, question.visible))


@router.post(
    "/ting",
    response_model=TingResponse,
    operation_id="ting",
    summary="Which tiles complete a 3n+1 hand?",
    responses=_ERRORS,
)
async def ting(asked: TingAsked, request: Request) -> Response:
    """The waits of a 13-tile hand (13 - 3k with k melds) with their unseen copies
    (`remaining` = 4 minus copies in hand, melds and `visible`). `karaten` is tenpai
    with no copy left of any wait."""
    (answer,) = asked.answer(service_state(request).cache, _ting)
    return json_response(answer)


@router.post(
    "/ting/batch",
    response_model=TingBatchResponse,
    operation_id="ting_batch",
    summary="/ting for many hands at once",
    responses=_ERRORS,
)
def ting_batch(body: BatchBody, settings: SettingsDep, cache: CacheDep) -> Response:
    """One /ting answer per hand, in request order; `melds`, `rules` and `visible`
    apply to every hand. A bad hand is a 422 whose `loc` is `["body", "hands", index]`."""
    return answer_batch(
        "ting",
        body,
        max_batch_size=settings.max_batch_size,
        max_answer_bytes=settings.max_answer_bytes,
        largest_answer=LARGEST_TING,
        cache=cache,
        vectorised=ting_batch_json,
        compute=_ting,
    )
