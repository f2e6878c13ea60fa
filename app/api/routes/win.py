"""POST /win and /win/batch: does a 3n+2 hand win, and how.

Each hand lists up to ``decomposition_limit`` decompositions, and a hand holding many
wildcards has thousands, so a /win answer is bounded in bytes before the work
(:mod:`app.api.answer_size`): hands holding few wildcards are answered first, exactly;
the others only if their bound fits under TENPAI_MAX_ANSWER_BYTES, else the request is
a 422 ``answer_too_large`` that says how many hands, or which limit, would fit.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from functools import partial
from typing import Annotated

from fastapi import APIRouter, Body, Request, Response

from app.api.answer_size import CHEAP_WILDCARDS, AnswerTally, wildcards_held
from app.api.cache import ResultCache
from app.api.errors import error_responses
from app.api.heavy import Budget, heavy_slot, off_the_loop
from app.api.questions import (
    SITUATION_RENAMES,
    Asked,
    Question,
    ask_batch,
    ask_one,
    ask_situated,
    batch_json,
    json_response,
)
from app.api.request_path import BodyRoute, replayable
from app.api.schemas.hand import (
    WIN_BATCH_EXAMPLES,
    WIN_EXAMPLES,
    JudgedWinResponse,
    WinBatchRequest,
    WinBatchResponse,
    WinRequest,
    WinResponse,
)
from app.api.schemas.score import Refusal, judge
from app.api.state import service_state
from app.core.shape.engine import Checker
from app.core.shape.tiles import Tile
from app.core.value.scoring_context import WinContext
from app.settings import Settings

router = APIRouter(tags=["win"], route_class=BodyRoute)
_ERRORS = error_responses(413, 422, 500, 503)


def _win(limit: int) -> Callable[[Checker, Question], WinResponse | bytes]:
    def answer(checker: Checker, question: Question) -> WinResponse:
        return WinResponse.of(checker.win(question.hand, limit=limit))

    return answer


def _judged(limit: int, win_tile: Tile, context: WinContext) -> Callable[[Checker, Question], WinResponse | bytes]:
    """The /win answer for a hand asked with its situation: a complete shape is scored, and
    a profile's refusal (no yaku, under 8 fans) turns it into ``win: false`` with the reason."""

    def answer(checker: Checker, question: Question) -> bytes:
        result = checker.win(question.hand, limit=limit)
        judged = JudgedWinResponse.of(result)
        if result.win:
            verdict = judge(question.hand, win_tile, checker.rules, context, SITUATION_RENAMES)
            if isinstance(verdict, Refusal):
                update = {"win": False, "reason": verdict.code, "refusal": verdict.message}
                judged = judged.model_copy(update=update)
            else:
                judged = judged.model_copy(update={"score": verdict})
        return judged.rendered()

    return answer


def _limit(asked_for: int | None, settings: Settings) -> int:
    """The decomposition limit of a request: its own, at most the server's."""
    return settings.decomposition_limit if asked_for is None else min(asked_for, settings.decomposition_limit)


def _is_heavy(asked: Asked) -> bool:
    return any(wildcards_held(question) > CHEAP_WILDCARDS for question in asked.questions)


def _answers(
    asked: Asked,
    cache: ResultCache,
    *,
    compute: Callable[[Checker, Question], WinResponse | bytes],
    limit: int,
    max_answer_bytes: int,
) -> list[bytes]:
    """Every answer, in order, never more than ``max_answer_bytes`` together: hands holding
    few wildcards first, then, if their bound fits, the others."""
    loc = ("body", "hands") if asked.is_batch else ("body", "hand")
    tally = AnswerTally(max_answer_bytes, count=len(asked.questions), loc=loc, batch=asked.is_batch)
    answers = [b""] * len(asked.questions)
    heavy = []
    for index, question in enumerate(asked.questions):
        if wildcards_held(question) > CHEAP_WILDCARDS:
            heavy.append(index)
        else:
            answers[index] = tally.add(asked.answer_at(index, cache, compute))
    tally.expect_win([asked.questions[index] for index in heavy], limit)
    for index in heavy:
        answers[index] = tally.add(asked.answer_at(index, cache, compute))
    return answers


@router.post(
    "/win", response_model=JudgedWinResponse, operation_id="win", summary="Does a 3n+2 hand win?", responses=_ERRORS
)
@replayable
async def win(body: Annotated[WinRequest, Body(openapi_examples=WIN_EXAMPLES)], request: Request) -> Response:
    """Whether the hand (14 tiles, or 14 - 3k with k melds) wins under the rules, its
    form and every decomposition, with what each wildcard stands for. A complete
    shape that the rules still refuse answers `win: false` with a `reason`, e.g.
    `open_meld_required` in Qiqihar without a pon or open kong. An answer that could
    pass TENPAI_MAX_ANSWER_BYTES (many wildcards, a high `decomposition_limit`) is a
    422 `answer_too_large`.

    With a `situation` (the /score fields without the hand: `win_tile`, seats, flags),
    the answer also says whether the player may declare the win now under the rules'
    scoring profile: a complete shape the profile refuses is `win: false` with `reason`
    `below_minimum_fan` (MCR: under 8 fans, flowers not counted) or `no_yaku` (riichi)
    and a `refusal` message; a win carries `score`, the /score answer. Rules without a
    scoring profile (`chinese`) cannot take a situation (422). A hand holding more than two
    wildcards is a heavy request: beyond TENPAI_MAX_HEAVY_REQUESTS at once it is a 503
    `too_busy` with `Retry-After`."""
    state = service_state(request)
    limit = _limit(body.decomposition_limit, state.settings)
    compute = _win(limit)
    if body.situation is None:
        asked = ask_one("win", body, variant=limit)
    else:
        asked, win_tile, context = ask_situated(
            "win", body, body.situation, variant=lambda win_tile, context: (limit, win_tile, context)
        )
        assert win_tile is not None  # /win's situation is a WinSituation, which names it
        compute = _judged(limit, win_tile, context)
    cap = state.settings.max_answer_bytes
    if not _is_heavy(asked):
        (answer,) = _answers(asked, state.cache, compute=compute, limit=limit, max_answer_bytes=cap)
        return json_response(answer)
    # Many wildcards: milliseconds to enumerate, a heavy request (a slot, off the event loop),
    # unless it was answered before.
    cached = state.cache.peek(asked.key(asked.questions[0]))
    if isinstance(cached, bytes):
        return json_response(cached)
    with heavy_slot(request, state.settings.heavy_seconds) as slot:
        (answer,) = await off_the_loop(
            request,
            Budget(slot.deadline),
            partial(_answers, asked, state.cache, compute=compute, limit=limit, max_answer_bytes=cap),
        )
    return json_response(answer)


@router.post(
    "/win/batch",
    response_model=WinBatchResponse,
    operation_id="win_batch",
    summary="/win for many hands at once",
    responses=_ERRORS,
)
def win_batch(
    body: Annotated[WinBatchRequest, Body(openapi_examples=WIN_BATCH_EXAMPLES)], request: Request
) -> Response:
    """One /win answer per hand, in request order; `melds`, `rules` and `visible`
    apply to every hand. A bad hand is a 422 whose `loc` is `["body", "hands", index]`.
    A batch whose answer could pass TENPAI_MAX_ANSWER_BYTES (hands holding many wildcards,
    times `decomposition_limit`) is refused before the work with a 422 `answer_too_large`
    saying how many hands, or which limit, would fit. A batch holding a hand with more than
    two wildcards is a heavy request (503 `too_busy` beyond TENPAI_MAX_HEAVY_REQUESTS)."""
    state = service_state(request)
    settings, cache = state.settings, state.cache
    limit = _limit(body.decomposition_limit, settings)
    asked = ask_batch("win", body, max_batch_size=settings.max_batch_size, variant=limit)
    # A batch holding hands with many wildcards is a heavy request: it takes a slot (this
    # route runs in a worker thread already; the limiter is thread-safe).
    with heavy_slot(request, settings.heavy_seconds) if _is_heavy(asked) else nullcontext():
        answers = _answers(asked, cache, compute=_win(limit), limit=limit, max_answer_bytes=settings.max_answer_bytes)
    return json_response(batch_json(answers))
