"""POST /ting and /ting/batch: the waits of a 3n+1 hand."""

from __future__ import annotations

from fastapi import APIRouter, Response

from app.api.batch_fast import ting_batch_json
from app.api.deps import BatchBody, CacheDep, SettingsDep, TingAsked
from app.api.errors import error_responses
from app.api.questions import Question, ask_batch
from app.api.schemas import TingBatchResponse, TingResponse
from app.core.engine import Checker

router = APIRouter(tags=["ting"])
_ERRORS = error_responses(413, 422, 500)


def _ting(checker: Checker, question: Question) -> TingResponse:
    return TingResponse.of(checker.waits(question.hand, question.visible))


@router.post("/ting", operation_id="ting", summary="Which tiles complete a 3n+1 hand?", responses=_ERRORS)
def ting(asked: TingAsked, cache: CacheDep) -> TingResponse:
    """The waits of a 13-tile hand (13 - 3k with k melds) with their unseen copies
    (`remaining` = 4 minus copies in hand, melds and `visible`). `karaten` is tenpai
    with no copy left of any wait."""
    (answer,) = asked.answer(cache, _ting)
    return answer


@router.post(
    "/ting/batch",
    response_model=TingBatchResponse, operation_id="ting_batch", summary="/ting for many hands at once", responses=_ERRORS
)
def ting_batch(body: BatchBody, settings: SettingsDep, cache: CacheDep) -> Response | TingBatchResponse:
    """One /ting answer per hand, in request order; `melds`, `rules` and `visible`
    apply to every hand. A bad hand is a 422 whose `loc` is `["body", "hands", index]`."""
    fast = ting_batch_json(body, max_batch_size=settings.max_batch_size)
    if fast is not None:
        return Response(fast, media_type="application/json")
    asked = ask_batch("ting", body, max_batch_size=settings.max_batch_size)
    return TingBatchResponse(results=asked.answer(cache, _ting))
