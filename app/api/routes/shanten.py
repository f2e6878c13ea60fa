"""POST /shanten and /shanten/batch: how far a hand is from tenpai."""

from __future__ import annotations

from fastapi import APIRouter, Response

from app.api.batch_fast import shanten_batch_json
from app.api.deps import BatchBody, CacheDep, SettingsDep, ShantenAsked
from app.api.errors import error_responses
from app.api.questions import Question, ask_batch
from app.api.schemas import ShantenBatchResponse, ShantenResponse
from app.core.engine import Checker

router = APIRouter(tags=["shanten"])
_ERRORS = error_responses(413, 422, 500)


def _shanten(checker: Checker, question: Question) -> ShantenResponse:
    return ShantenResponse.of(checker.shanten(question.hand, question.visible))


@router.post("/shanten", operation_id="shanten", summary="Shanten and ukeire of a hand", responses=_ERRORS)
def shanten(asked: ShantenAsked, cache: CacheDep) -> ShantenResponse:
    """Shanten overall and per form (-1 complete, 0 tenpai; `null` for a form the
    rules or the melds rule out) of a 3n+1 or 3n+2 hand. For 3n+1 hands also the
    ukeire: every draw that lowers the shanten, with its unseen copies."""
    (answer,) = asked.answer(cache, _shanten)
    return answer


@router.post(
    "/shanten/batch",
    response_model=ShantenBatchResponse,
    operation_id="shanten_batch",
    summary="/shanten for many hands at once",
    responses=_ERRORS,
)
def shanten_batch(body: BatchBody, settings: SettingsDep, cache: CacheDep) -> Response | ShantenBatchResponse:
    """One /shanten answer per hand, in request order; `melds`, `rules` and `visible`
    apply to every hand. A bad hand is a 422 whose `loc` is `["body", "hands", index]`."""
    fast = shanten_batch_json(body, max_batch_size=settings.max_batch_size)
    if fast is not None:
        return Response(fast, media_type="application/json")
    asked = ask_batch("shanten", body, max_batch_size=settings.max_batch_size)
    return ShantenBatchResponse(results=asked.answer(cache, _shanten))
