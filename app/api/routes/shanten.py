"""POST /shanten and /shanten/batch: how far a hand is from tenpai.

The whole path of a /shanten request: :class:`~app.api.request_path.BodyRoute`
reads and validates the body (or replays its cached answer), :func:`shanten`
turns it into core values and asks through the result cache
(:mod:`app.api.questions`), :meth:`Checker.shanten <app.core.shape.engine.Checker.shanten>`
answers, and :func:`~app.api.render.shanten_json` writes the JSON.
"""

from __future__ import annotations

from functools import partial

from fastapi import APIRouter, Request, Response

from app.api.answer_size import LARGEST_SHANTEN
from app.api.batch_fast import shanten_batch_json
from app.api.errors import error_responses
from app.api.questions import Question, answer_batch, ask_one, json_response
from app.api.render import shanten_json
from app.api.request_path import BodyRoute, replayable
from app.api.schemas.hand import ShantenBatchBody, ShantenBatchResponse, ShantenBody, ShantenResponse
from app.api.state import service_state
from app.core.shape.engine import Checker

router = APIRouter(tags=["shanten"], route_class=BodyRoute)
_ERRORS = error_responses(413, 422, 500)


def _shanten(checker: Checker, question: Question) -> bytes:
    return shanten_json(checker.shanten(question.hand, question.visible))


def _shanten_alone(checker: Checker, question: Question) -> bytes:
    return shanten_json(checker.shanten(question.hand, with_ukeire=False))


@router.post(
    "/shanten",
    response_model=ShantenResponse,
    operation_id="shanten",
    summary="Shanten and ukeire of a hand",
    responses=_ERRORS,
)
@replayable
async def shanten(body: ShantenBody, request: Request) -> Response:
    """Shanten overall and per form (-1 complete, 0 tenpai; `null` for a form the
    rules or the melds rule out) of a 3n+1 or 3n+2 hand. For 3n+1 hands also the
    ukeire: every draw that lowers the shanten, with its unseen copies."""
    (answer,) = ask_one("shanten", body).answer(service_state(request).cache, _shanten)
    return json_response(answer)


@router.post(
    "/shanten/batch",
    response_model=ShantenBatchResponse,
    operation_id="shanten_batch",
    summary="/shanten for many hands at once",
    responses=_ERRORS,
)
def shanten_batch(body: ShantenBatchBody, request: Request) -> Response:
    """One /shanten answer per hand, in request order; `melds`, `rules` and `visible`
    apply to every hand. A bad hand is a 422 whose `loc` is `["body", "hands", index]`.
    With `ukeire: false` each answer has the shanten and forms alone (`ukeire` and
    `ukeire_count` null), about twice as fast for clients that need the distance only."""
    state = service_state(request)
    return answer_batch(
        "shanten",
        body,
        settings=state.settings,
        largest_answer=LARGEST_SHANTEN,
        cache=state.cache,
        vectorised=partial(shanten_batch_json, with_ukeire=body.ukeire),
        compute=_shanten if body.ukeire else _shanten_alone,
        variant=None if body.ukeire else "no ukeire",
    )
