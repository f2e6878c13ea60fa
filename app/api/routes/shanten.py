"""POST /shanten and /shanten/batch: how far a hand is from tenpai."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from app.api.answer_size import LARGEST_SHANTEN
from app.api.batch_fast import shanten_batch_json
from app.api.deps import BatchBody, CacheDep, SettingsDep, ShantenAsked
from app.api.errors import error_responses
from app.api.questions import Question, answer_batch, json_response
from app.api.render import shanten_json
from app.api.schemas import ShantenBatchResponse, ShantenResponse
from app.api.state import service_state
from app.core.engine import Checker

router = APIRouter(tags=["shanten"])
_ERRORS = error_responses(413, 422, 500)


def _shanten(checker: Checker, question: Question) -> bytes:
    return shanten_json(checker.shanten(question.hand, question.visible))


@router.post(
    "/shanten",
    response_model=ShantenResponse,
    operation_id="shanten",
    summary="Shanten and ukeire of a hand",
    responses=_ERRORS,
)
async def shanten(asked: ShantenAsked, request: Request) -> Response:
    """Shanten overall and per form (-1 complete, 0 tenpai; `null` for a form the
    rules or the melds rule out) of a 3n+1 or 3n+2 hand. For 3n+1 hands also the
    ukeire: every draw that lowers the shanten, with its unseen copies."""
    (answer,) = asked.answer(service_state(request).cache, _shanten)
    return json_response(answer)


@router.post(
    "/shanten/batch",
    response_model=ShantenBatchResponse,
    operation_id="shanten_batch",
    summary="/shanten for many hands at once",
    responses=_ERRORS,
)
def shanten_batch(body: BatchBody, settings: SettingsDep, cache: CacheDep) -> Response:
    """One /shanten answer per hand, in request order; `melds`, `rules` and `visible`
    apply to every hand. A bad hand is a 422 whose `loc` is `["body", "hands", index]`."""
    return answer_batch(
        "shanten",
        body,
        max_batch_size=settings.max_batch_size,
        max_answer_bytes=settings.max_answer_bytes,
        largest_answer=LARGEST_SHANTEN,
        cache=cache,
        vectorised=shanten_batch_json,
        compute=_shanten,
    )
