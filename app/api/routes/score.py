"""POST /score and /score/batch: what a win pays, per seat, under a scoring profile.

Five profiles score today: Qiqihar (seed 004 section 4: doublings), riichi
(Tenhou: yaku, han, fu, limits, honba and riichi sticks), sanma (Tenhou's
three-player riichi: seats 0..2, no 2m-8m, norths set aside as ``nuki``, tsumo
loss), MCR (Chinese Official rules: the 81 fans, 8 at least, flowers) and Sichuan
(血战到底: one pattern, 根, the cap, the void suit; docs/sichuan.md).  All
take the same request (:class:`~app.api.schemas.common.WinSituation` plus the hand); a
situation field the profile does not read must keep its default, else it is a
422 at that field rather than silently ignored
(:data:`app.core.value.scoring.SITUATION_FIELDS`).  The request becomes core values in
:func:`app.api.questions.request_win`.
"""

from __future__ import annotations

from typing import Annotated, Final

from fastapi import APIRouter, Body, Request, Response

from app.api.errors import ApiError, Loc, error_responses, located
from app.api.questions import (
    RequestRules,
    batch_json,
    json_response,
    request_family_rules,
    request_tiles,
    request_win,
)
from app.api.request_path import BodyRoute
from app.api.schemas.score import (
    SCORE_ANSWER_EXAMPLES,
    SCORE_BATCH_EXAMPLES,
    SCORE_EXAMPLES,
    ScoreBatchRequest,
    ScoreBatchResponse,
    ScoreItem,
    ScoreItemError,
    ScoreRequest,
    ScoreResponse,
)
from app.api.state import service_state
from app.core.errors import InvalidNotation
from app.core.value.scoring import score
from app.core.value.scoring_context import InvalidWinContext

router = APIRouter(tags=["score"], route_class=BodyRoute)
_ERRORS = error_responses(400, 413, 422, 500)
_BATCH_ERRORS = error_responses(413, 422, 500)


def _score(item: ScoreItem, rules: RequestRules, at: Loc) -> ScoreResponse:
    family = rules.family
    revealed = request_tiles(item.revealed, *at, "revealed")
    if family is None:
        hand, win_tile, context = request_win(item, item.hand, item.melds, rules.profile, at)
        _refuse_unread(item, rules, at, kong_feeder=False, revealed=False)
        with located(*at):
            return ScoreResponse.of(score(hand, win_tile, rules.profile, context))
    hand, win_tile, context = request_win(item, item.hand, item.melds, rules.profile, at, read=family.situation_fields)
    _refuse_unread(
        item, rules, at, kong_feeder="kong_feeder" in family.situation_fields, revealed=family.reads_revealed
    )
    with located(*at):
        found = family.score_request(
            hand, win_tile, rules.profile, rules.options, context._replace(kong_feeder=item.kong_feeder), revealed
        )
    return ScoreResponse.of_family(found)


def _refuse_unread(item: ScoreItem, rules: RequestRules, at: Loc, *, kong_feeder: bool, revealed: bool) -> None:
    """``kong_feeder`` and ``revealed`` given under rules whose scorer does not read them: a 422 at the field."""
    for field, reads in (("kong_feeder", kong_feeder), ("revealed", revealed)):
        if not reads and getattr(item, field) not in (None, "", [], ()):
            raise ApiError(
                (*at, field),
                f"{field} is not used by {rules.profile.name} scoring; leave it out",
                InvalidWinContext.code,
            )


@router.post(
    "/score",
    response_model=ScoreResponse,
    operation_id="score",
    summary="What a win pays, per seat (Qiqihar, riichi, sanma, MCR, Sichuan)",
    responses={200: {"content": {"application/json": {"examples": SCORE_ANSWER_EXAMPLES}}}, **_ERRORS},
)
def score_win(body: Annotated[ScoreRequest, Body(openapi_examples=SCORE_EXAMPLES)]) -> Response:
    """**Riichi** (Tenhou's rules): the reading that scores highest, its yaku, han, fu
    (`fu_details`), `limit` and `base_points`, and the payments: a ron pays basic x4
    (x6 for the dealer) rounded up to 100 plus 300 a honba; on a self-draw each payer
    pays basic x1 (x2 when the payer or the winner is the dealer) rounded up to 100
    plus 100 a honba. Riichi sticks are not seat transfers: `riichi_sticks_won`.
    The seat wind follows from `winner` and `dealer`. `0m`/`0p`/`0s` are red fives.
    A complete hand with no yaku is a 400 `no_yaku`; a situation that cannot happen
    (ippatsu without riichi, riichi with an open hand, haitei on a kong replacement,
    a round wind that is not a wind, ...) is a 422 at its field.

    **Sanma** (Tenhou's three-player riichi): the same answer with three seats
    (0..2, `payments` has three entries; seat winds East, South, West). `nuki`
    norths set aside count a dora each (and one more per indicator showing north);
    a 1m indicator shows 9m. A ron's honba is 200 (100 from each other seat). On a
    self-draw the missing north's share is lost (tsumo loss); with the rule override
    `{"preset": "sanma", "tsumo_loss": false}` each payer adds half of it, rounded
    up to 100. A 2m-8m tile anywhere is a 422 `absent_tile` at its field.

    **MCR** (Chinese Official rules, 国标麻将): the best reading's fans after the
    exclusion rules (`fans`, each with its English and Chinese name, value and
    count; `fan` is their total), then Flower Tiles, one fan a flower, which do not
    count toward the minimum. With T = `fan` + `flowers`, a discarder pays T + 8 and
    the other two pay 8; on a self-draw each of the three pays T + 8. Under 8 fans
    the answer is a 400 `below_minimum_fan`. `seat_wind` may be given (MCR seats
    need not follow the dealer); absent, it follows from `winner` and `dealer`.
    Reads `round_wind`, `seat_wind`, `flowers`, `last_tile` (妙手回春 on a self-draw,
    海底捞月 on a discard), `last_copy` (和绝张), `kong_replacement` and
    `robbed_kong`; the riichi fields must keep their defaults.

    **Sichuan** (血战到底, the rule text docs/sichuan.md names; `GET /rules` gives it as
    the preset's `source`): the hand counts one pattern, the largest of 平胡 0, 对对胡 1,
    清一色 / 带幺九 / 七对 / 金钩钓 2, 清对 / 将对 3, 龙七对 / 清七对 / 清幺九 / 将金钩钓 /
    清金钩钓 4, 天胡 / 地胡 / 清龙七对 5, 十八罗汉 6 and 清十八罗汉 8 fans over every reading
    of the hand, then one fan per 根 (a kind held four times, concealed or melded; 龙七对's
    quad and 十八罗汉's kongs are in their pattern), 杠上花 (`kong_replacement` on a
    self-draw), 杠上炮 (`after_kong`, on a discard), 抢杠胡 (`robbed_kong`) and, with the
    options, 自摸 (`self_draw_bonus`: "fan") and 门清 / 断幺九 (`menqing_duanyao`).
    `fans` lists them (pinyin `name`, `chinese`), `fan` is their total and `multiplier`
    is 2 ** min(`fan`, `max_fan`): the discarder pays it, or on a self-draw each other
    seat pays it plus one base with `self_draw_bonus` "base" (自摸加底). `void_suit`
    (m, p or s) is the winner's 定缺: a hand holding a tile of it is a 400
    `void_suit_held`; without it, a hand of all three suits does not win. `first_turn`
    is 天胡 for the dealer, 地胡 for the others (self-draws only).

    **Qiqihar** (seed 004 section 4): base 1, doubled for self-draw (all three pay)
    or a win on a discard (the discarder alone pays), for 红中 held in the winning hand,
    a kong replacement win and robbing a kong, and per payer when the winner or that
    payer is the dealer. The riichi situation fields must keep their defaults.

    Either way a hand that does not win is a 400 `not_a_winning_hand`; `rules`
    defaults to riichi, as on every other route."""
    return json_response(_score(body, request_family_rules(body.rules), ("body",)).rendered())


# --- batch -----------------------------------------------------------------------


#: Errors that make an item malformed rather than unanswerable: tiles that are not tiles
#: (the schema's own rule for integer tiles), which fail the whole batch like a schema error.
_MALFORMED: Final = frozenset({InvalidNotation.code})


def _item_result(item: ScoreItem, rules: RequestRules, index: int) -> bytes:
    try:
        return _score(item, rules, ("body", "items", index)).rendered()
    except ApiError as error:
        if error.code in _MALFORMED:
            raise ApiError(error.loc, f"items[{index}]: {error.msg}", error.code, ctx={"index": index}) from error
        # Only the client's errors become results: a bug still answers 500 for the batch.
        failed = ScoreItemError(error=error.code, status=error.status, message=error.msg, loc=list(error.loc))
        return failed.model_dump_json().encode()


@router.post(
    "/score/batch",
    response_model=ScoreBatchResponse,
    operation_id="score_batch",
    summary="/score for many wins at once",
    responses=_BATCH_ERRORS,
)
def score_batch(
    body: Annotated[ScoreBatchRequest, Body(openapi_examples=SCORE_BATCH_EXAMPLES)], request: Request
) -> Response:
    """One result per item, in request order; `rules` (default riichi) applies to all.
    An item that /score would refuse although it is well formed (not a win, no yaku,
    an impossible situation, five copies of a tile, a meld that is not a meld) does
    not fail the batch: its result is `{"error", "status", "message", "loc"}`, with
    the status /score would answer and `loc` = `["body", "items", index, field...]`.
    A malformed item (a missing field, a wrong type, tiles in no notation) is a 422
    for the whole batch whose `loc` names its index; so is more than
    `max_batch_size` items (`batch_too_large`) or bad `rules`."""
    settings = service_state(request).settings
    if len(body.items) > settings.max_batch_size:
        raise ApiError(
            ("body", "items"),
            f"{len(body.items)} items in one batch; at most {settings.max_batch_size}",
            "batch_too_large",
            ctx={"max_batch_size": settings.max_batch_size},
        )
    rules = request_family_rules(body.rules)
    return json_response(batch_json([_item_result(item, rules, index) for index, item in enumerate(body.items)]))
