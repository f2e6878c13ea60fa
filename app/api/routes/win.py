"""POST /win and /win/batch: does a 3n+2 hand win, and how."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter

from app.api.deps import CacheDep, SettingsDep, WinAsked, WinBatchAsked
from app.api.errors import error_responses
from app.api.questions import Question
from app.api.schemas import WinBatchResponse, WinResponse
from app.core.engine import Checker

router = APIRouter(tags=["win"])
_ERRORS = error_responses(413, 422, 500)


def _win(limit: int) -> Callable[[Checker, Question], WinResponse]:
    def answer(checker: Checker, question: Question) -> WinResponse:
        return WinResponse.of(checker.win(question.hand, limit=limit))

    return answer


@router.post("/win", operation_id="win", summary="Does a 3n+2 hand win?", responses=_ERRORS)
def win(asked: WinAsked, cache: CacheDep, settings: SettingsDep) -> WinResponse:
    """Whether the hand (14 tiles, or 14 - 3k with k melds) wins under the rules, its
    form and every decomposition, with what each wildcard stands for. A complete
    shape that the rules still refuse answers `win: false` with a `reason`, e.g.
    `open_meld_required` in Qiqihar without a pon or open kong."""
    (answer,) = asked.answer(cache, _win(settings.decomposition_limit))
    return answer


@router.post(
    "/win/batch", operation_id="win_batch", summary="/win for many hands at once", responses=_ERRORS
)
def win_batch(asked: WinBatchAsked, cache: CacheDep, settings: SettingsDep) -> WinBatchResponse:
    """One /win answer per hand, in request order; `melds`, `rules` and `visible`
    apply to every hand. A bad hand is a 422 whose `loc` is `["body", "hands", index]`."""
    return WinBatchResponse(results=asked.answer(cache, _win(settings.decomposition_limit)))
