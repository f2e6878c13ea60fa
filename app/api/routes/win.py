"""POST /win and /win/batch: does a 3n+2 hand win, and how."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter, Request, Response

from app.api.deps import CacheDep, SettingsDep, WinAsked, WinBatchAsked
from app.api.errors import error_responses
from app.api.questions import Question, batch_json, json_response
from app.api.schemas import WinBatchResponse, WinResponse
from app.api.state import service_state
from app.core.engine import Checker

router = APIRouter(tags=["win"])
_ERRORS = error_responses(413, 422, 500)


def _win(limit: int) -> Callable[[Checker, Question], WinResponse]:
    def answer(checker: Checker, question: Question) -> WinResponse:
        return WinResponse.of(checker.win(question.hand, limit=limit))

    return answer


@router.post("/win", response_model=WinResponse, operation_id="win", summary="Does a 3n+2 hand win?", responses=_ERRORS)
async def win(asked: WinAsked, request: Request) -> Response:
    """Whether the hand (14 tiles, or 14 - 3k with k melds) wins under the rules, its
    form and every decomposition, with what each wildcard stands for. A complete
    shape that the rules still refuse answers `win: false` with a `reason`, e.g.
    `open_meld_required` in Qiqihar without a pon or open kong."""
    state = service_state(request)
    (answer,) = asked.answer(state.cache, _win(state.settings.decomposition_limit))
    return json_response(answer)


@router.post(
    "/win/batch",
    response_model=WinBatchResponse,
    operation_id="win_batch",
    summary="/win for many hands at once",
    responses=_ERRORS,
)
def win_batch(asked: WinBatchAsked, cache: CacheDep, settings: SettingsDep) -> Response:
    """One /win answer per hand, in request order; `melds`, `rules` and `visible`
    apply to every hand. A bad hand is a 422 whose `loc` is `["body", "hands", index]`."""
    return json_response(batch_json(asked.answer(cache, _win(settings.decomposition_limit))))
