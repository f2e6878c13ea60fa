"""POST /discard: every distinct discard of a 3n+2 hand, scored and explained."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Annotated

from fastapi import APIRouter, Body, Request, Response
from starlette.concurrency import run_in_threadpool

from app.api.errors import error_responses, located
from app.api.heavy import Budget, Finished, TooBusy, answer_heavy, bounded_call
from app.api.questions import ask_discard, asks_extras, discard_key, json_response
from app.api.request_path import BodyRoute, replayable
from app.api.schemas.discard import DISCARD_EXAMPLES, DiscardRequest, DiscardResponse
from app.api.state import service_state
from app.core.advice.discard import (
    Candidate,
    DiscardModel,
    DiscardQuestion,
    ValueSearch,
    advise,
    ranking_model,
    void_suit_of,
)
from app.core.advice.expected_score import SearchStop
from app.core.advice.lookahead import LookaheadStop
from app.core.shape.engine import Checker
from app.core.shape.tiles import counted
from app.core.value.scoring import self_draw

router = APIRouter(tags=["discard"], route_class=BodyRoute)
_ERRORS = error_responses(413, 422, 500, 503)


def _evaluate(
    question: DiscardQuestion, budget: Budget | None = None, deadline: float | None = None
) -> tuple[list[Candidate], ValueSearch]:
    with located("body"):
        if budget is None:
            return advise(question, deadline=deadline)
        return advise(question, deadline=budget.deadline, cancelled=budget.cancelled)


def _render(question: DiscardQuestion, candidates: list[Candidate], search: ValueSearch) -> bytes:
    void_suit = void_suit_of(question)
    shanten = Checker(question.rules, void_suit).shanten(question.hand).shanten
    verdict = None
    if shanten == -1:  # complete as it stands: may it be declared instead of a discard?
        with located("body"):
            verdict = self_draw(
                question.hand, question.rules, seat_wind=question.seat_wind, round_wind=question.round_wind
            )
    answer = DiscardResponse.of(
        candidates,
        shanten,
        question.weights,
        search,
        verdict=verdict,
        rules_name=question.rules.name,
        void_suit=void_suit,
    )
    return answer.model_dump_json().encode()


def _answer(question: DiscardQuestion) -> bytes:
    return _render(question, *_evaluate(question))


def _valued_answer(question: DiscardQuestion, budget: Budget) -> Finished:
    """An expected-score answer within ``budget`` (complete unless the clock or a client that
    left cut the search short)."""
    candidates, search = _evaluate(question, budget)
    return Finished(_render(question, candidates, search), search.stopped_by is not SearchStop.TIME)


def _busy_answer(question: DiscardQuestion, capacity: int) -> bytes:
    """The linear ranking, for an expected-score question asked while every heavy slot is taken."""
    candidates, _ = _evaluate(replace(question, model=DiscardModel.LINEAR))
    note = (
        f"ranked by the linear score: this process was running {counted(capacity, 'heavy request')}, as many as it "
        "runs at once (TENPAI_MAX_HEAVY_REQUESTS), so the expected-score search was skipped; ask again later"
    )
    return _render(question, candidates, ValueSearch(DiscardModel.LINEAR, fallback=note))


def _lookahead_answer(question: DiscardQuestion, budget: Budget) -> Finished:
    candidates, search = _evaluate(question, budget)
    # Complete unless the clock cut a search short: an answer cut by the request's own
    # state budget is the same every time, one cut by time depends on the load.
    timed_out = search.stopped_by is SearchStop.TIME or any(
        c.lookahead is not None and c.lookahead.stopped_by is LookaheadStop.TIME for c in candidates
    )
    return Finished(_render(question, candidates, search), not timed_out)


@router.post(
    "/discard",
    response_model=DiscardResponse,
    operation_id="discard",
    summary="Rank every discard of a 3n+2 hand",
    responses=_ERRORS,
)
@replayable
async def discard(
    body: Annotated[DiscardRequest, Body(openapi_examples=DISCARD_EXAMPLES)], request: Request
) -> Response:
    """Every distinct discard of the hand, best first, with its shanten, ukeire (unseen copies:
    4 minus the 14-tile hand, melds, `visible`, dora indicators and every opponent's river and
    melds), safety against each opponent, dora and honour value kept, and the score of seed 000,
    `-10·shanten + 0.8·ukeire/4 + 1.2·safety + 1.5·dora + 0.6·honors`, term by term.

    Under riichi rules (`riichi`, `sanma`) the default ranking (`model: expected_score`) is each discard's expected
    points over the rest of the hand, after mahjong-cpp's expected-score model: tenpai and win
    probability by turn 18 from an exact search over the unseen tiles that also swaps tiles at
    equal shanten and steps back once, riichi declared at tenpai, every win valued by the riichi
    scorer (yaku, dora, red fives, expected ura dora), less the expected cost of dealing in when
    opponents are given. Under `sanma` the search's wall has no 2m-8m, the 1m indicator names 9m,
    a self-draw pays as three seats pay, and a north is an ordinary honour (kita is not modelled).
    Hands more than three from tenpai, other rules, and `model: linear` are ranked by the linear
    score. The search runs off the event loop within TENPAI_HEAVY_SECONDS;
    a bound that cut it short is flagged in `value_search`. It is a heavy request: with
    TENPAI_MAX_HEAVY_REQUESTS already running, the linear score ranks at once (`model: linear`,
    `model_note` says why, `Cache-Control: no-store`).

    Under `sichuan` a held tile of the hand's void suit (`void_suit`, or the best suit to void)
    is thrown first: while one is held only those tiles are candidates, and their `reasons` say
    why. The rest is ranked by expected base points by the hand's end, each win valued by the
    Sichuan scorer as a win on a discard (`2 ** min(fan, max_fan)`), so a flush or a 根 in reach
    may beat a faster plain hand.

    Where a win needs fans (`mcr`: 8, flowers not counted) the default ranking is the fan plan
    (`model: fan_plan`): the distance to the nearest pattern worth the minimum, then the unseen
    tiles that bring it nearer, and once ready the waits that score 8 by the MCR scorer
    (`seat_wind`, default East, and `round_wind` count); each candidate's `fan_plan` shows it.

    A hand complete as it stands (`shanten: -1`) need not discard at all: `win` says it may be
    declared a self-draw win (tsumo) under the rules' shape conditions, `win_declarable` what the
    rules' scoring profile says of it (a yaku, 8 fans), `win_reason` why not and `win_note` says
    it in words; the candidates still rank the discards.

    Safety is the probability of not dealing in, from published Tenhou deal-in tables by turn
    (genbutsu, suji, kabe / no chance, one chance, honours by copies seen, early outside tiles),
    scaled by how likely an opponent who has not declared is ready, and rule-aware: without
    furiten (`chinese`, `qiqihar`) a tile in the river is not fully safe. Extras (`options`)
    take milliseconds to seconds and run off the event loop. A lookahead is a heavy request:
    it stops at the service's wall-clock budget (TENPAI_HEAVY_SECONDS) with what it found,
    flagged `complete: false`, and beyond TENPAI_MAX_HEAVY_REQUESTS at once the answer is a 503
    `too_busy` with `Retry-After`."""
    question = ask_discard(body)
    state = service_state(request)
    key = discard_key(question)
    if question.rules.void_suit and question.void_suit is None:
        question = replace(question, void_suit=void_suit_of(question))  # found once, for the advice and the answer
    if question.options.lookahead:
        return await answer_heavy(
            request, key, partial(_lookahead_answer, question), seconds=state.settings.heavy_seconds
        )
    ranked_by = ranking_model(question.rules, question.model, valued=question.value_model is not None).model
    if ranked_by is DiscardModel.EXPECTED_SCORE:
        # The value search takes milliseconds to a second: a heavy request (a slot, off the loop,
        # within the heavy budget, stopped when its client leaves), cached only when complete.
        # With no slot free the linear score ranks, at once.
        try:
            return await answer_heavy(
                request, key, partial(_valued_answer, question), seconds=state.settings.heavy_seconds
            )
        except TooBusy as busy:
            response = json_response(_busy_answer(question, busy.capacity))
            response.headers["cache-control"] = "no-store"  # depends on the load
            return response
    if asks_extras(question) or ranked_by is DiscardModel.FAN_PLAN:  # the fan plan takes milliseconds
        answer = await run_in_threadpool(bounded_call, state.cache.get_or_compute, key, lambda: _answer(question))
    else:
        answer = state.cache.get_or_compute(key, lambda: _answer(question))
    return json_response(answer)
