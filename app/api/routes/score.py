"""POST /score and /score/batch: what a win pays, per seat, under a scoring profile.

Four profiles score today: Qiqihar (seed 004 section 4: doublings), riichi
(Tenhou: yaku, han, fu, limits, honba and riichi sticks), sanma (Tenhou's
three-player riichi: seats 0..2, no 2m-8m, norths set aside as ``nuki``, tsumo
loss) and MCR (Chinese Official rules: the 81 fans, 8 at least, flowers).  All
take the same request (:class:`~app.api.schemas.WinSituation` plus the hand); a
situation field the profile does not read must keep its default, else it is a
422 at that field rather than silently ignored
(:data:`app.core.scoring.SITUATION_FIELDS`).  The request becomes core values in
:func:`app.api.questions.request_win`.
"""

from __future__ import annotations

from typing import Annotated, Final

from fastapi import APIRouter, Body, Request, Response
from fastapi.openapi.models import Example
from pydantic import BaseModel, ConfigDict, Field
from pydantic.config import JsonDict

from app.api.errors import ApiError, Loc, error_responses, located
from app.api.questions import batch_json, json_response, request_rules, request_win
from app.api.request_path import BodyRoute
from app.api.schemas import HandTiles, MeldSpec, Rules, WinSituation
from app.api.score_schemas import SCORE_ANSWER_EXAMPLES, ScoreResponse
from app.api.state import service_state
from app.core.errors import InvalidNotation
from app.core.rules import RuleProfile
from app.core.scoring import score

router = APIRouter(tags=["score"], route_class=BodyRoute)
_ERRORS = error_responses(400, 413, 422, 500)
_BATCH_ERRORS = error_responses(413, 422, 500)

_QIQIHAR_EXAMPLE: Final[JsonDict] = {
    "hand": "123m456p78s99s7z",
    "melds": [{"kind": "pon", "tiles": "111z"}],
    "win_tile": "9s",
    "rules": "qiqihar",
    "winner": 0,
    "dealer": 0,
    "discarder": None,
    "kong_replacement": False,
    "robbed_kong": False,
}
# The contract's example: South seat wins on West's discard with 中 pon, a red 5m and
# dora 5p (indicator 4p): chun 1 + dora 1 + aka_dora 1 = 3 han, 20 base + 4 for the open
# honor pon = 24, rounded to 30 fu; 30 x 2^5 = 960 base, x4 rounded up = 3900 from West.
_RIICHI_EXAMPLE: Final[JsonDict] = {
    "hand": "233440m567p11s",
    "melds": [{"kind": "pon", "tiles": "777z"}],
    "win_tile": "4m",
    "rules": "riichi",
    "winner": 1,
    "dealer": 0,
    "discarder": 3,
    "round_wind": "1z",
    "dora_indicators": "4p",
    "ura_indicators": "",
    "riichi": False,
    "double_riichi": False,
    "ippatsu": False,
    "last_tile": False,
    "first_turn": False,
    "kong_replacement": False,
    "robbed_kong": False,
    "honba": 0,
    "riichi_sticks": 0,
}
# A closed dealer self-draw in riichi with one honba and one stick on the table.
_RIICHI_TSUMO_EXAMPLE: Final[JsonDict] = {
    "hand": "123456789m11p406s",
    "win_tile": "9m",
    "rules": "riichi",
    "winner": 0,
    "dealer": 0,
    "riichi": True,
    "dora_indicators": "9p",
    "ura_indicators": "3z",
    "honba": 1,
    "riichi_sticks": 1,
}
# Three-player: seat 1 self-draws with two norths set aside; a 1m indicator shows 9m.
_SANMA_EXAMPLE: Final[JsonDict] = {
    "hand": "111999m123p45677s",
    "win_tile": "7s",
    "rules": "sanma",
    "winner": 1,
    "dealer": 0,
    "dora_indicators": "1m",
    "nuki": 2,
}
# MCR: South (seat 1, dealer seat 0) wins on West's discard with a pure straight in man and
# two flowers: 清龙 16 + 门前清 2 + 平和 2 + 喜相逢 1 = 21 fans; T = 23, so West pays 31
# and the other two pay 8 each.
_MCR_EXAMPLE: Final[JsonDict] = {
    "hand": "123456789m123p55s",
    "win_tile": "9m",
    "rules": "mcr",
    "winner": 1,
    "dealer": 0,
    "discarder": 2,
    "seat_wind": "2z",
    "round_wind": "1z",
    "flowers": 2,
    "last_tile": False,
    "last_copy": False,
    "kong_replacement": False,
    "robbed_kong": False,
}
SCORE_EXAMPLES: Final = {
    "riichi": Example(summary="Riichi: the contract's example (open hand, ron)", value=_RIICHI_EXAMPLE),
    "riichi_tsumo": Example(
        summary="Riichi: dealer riichi tsumo with a red five, honba and a stick", value=_RIICHI_TSUMO_EXAMPLE
    ),
    "sanma": Example(
        summary="Sanma: a self-draw with two norths set aside and a 1m indicator (9m is dora)", value=_SANMA_EXAMPLE
    ),
    "mcr": Example(summary="MCR: a pure straight on a discard, with two flowers", value=_MCR_EXAMPLE),
    "qiqihar": Example(summary="Qiqihar: the seed's dealer self-draw holding 红中", value=_QIQIHAR_EXAMPLE),
}


class ScoreItem(WinSituation):
    """A winning hand and how it was won (a /score request without `rules`)."""

    model_config = ConfigDict(extra="forbid")

    hand: HandTiles = Field(description="The concealed tiles, including win_tile. In mpsz, `0` is a red five.")
    melds: list[MeldSpec] = Field([], description="Declared melds (in mpsz, `0` is a red five).")


class ScoreRequest(ScoreItem):
    """A winning hand, how it was won, and the rules whose scoring applies."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [_QIQIHAR_EXAMPLE, _RIICHI_EXAMPLE]})

    rules: Rules = Field(
        "qiqihar",
        validate_default=True,
        description="The rules whose scoring applies: qiqihar (the default here, for compatibility), riichi, "
        'sanma or mcr, or {preset, ...overrides} such as {"preset": "riichi", "kiriage": true} or '
        '{"preset": "sanma", "tsumo_loss": false}.',
    )


def _score(item: ScoreItem, rules: RuleProfile, at: Loc) -> ScoreResponse:
    hand, win_tile, context = request_win(item, item.hand, item.melds, rules, at)
    with located(*at):
        return ScoreResponse.of(score(hand, win_tile, rules, context))


@router.post(
    "/score",
    response_model=ScoreResponse,
    operation_id="score",
    summary="What a win pays, per seat (Qiqihar, riichi, sanma, MCR)",
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

    **Qiqihar** (seed 004 section 4): base 1, doubled for self-draw (all three pay)
    or a win on a discard (the discarder alone pays), for 红中 held in the winning hand,
    a kong replacement win and robbing a kong, and per payer when the winner or that
    payer is the dealer. The riichi situation fields must keep their defaults.

    Either way a hand that does not win is a 400 `not_a_winning_hand`; `rules`
    defaults to qiqihar here (the first profile this route had)."""
    return json_response(_score(body, request_rules(body.rules), ("body",)).rendered())


# --- batch -----------------------------------------------------------------------


_BATCH_EXAMPLE: Final[JsonDict] = {
    "rules": "riichi",
    "items": [
        {key: value for key, value in _RIICHI_EXAMPLE.items() if key != "rules"},
        # Open, with terminals and no value pair: complete but no yaku, so this item is an error result.
        {
            "hand": "456p23478999s",
            "melds": [{"kind": "chi", "tiles": "123m"}],
            "win_tile": "2s",
            "winner": 0,
            "dealer": 0,
            "discarder": 1,
        },
    ],
}


class ScoreBatchRequest(BaseModel):
    """Many /score questions under the same rules."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [_BATCH_EXAMPLE]})

    items: list[ScoreItem] = Field(
        description="The questions, each a /score request without `rules`; answers in this order."
    )
    rules: Rules = Field(
        "riichi",
        validate_default=True,
        description="The rules for every item (default riichi, as elsewhere in the API).",
    )


class ScoreItemError(BaseModel):
    """Why one batch item has no score: the error /score would have answered for it alone."""

    error: str = Field(
        description="The error code: no_yaku, not_a_winning_hand, invalid_win_context, too_many_copies, "
        "wrong_tile_count, invalid_meld, ...",
        examples=["no_yaku"],
    )
    status: int = Field(description="The status /score would answer with: 400 or 422.", examples=[400])
    message: str = Field(description="What is wrong, for a person.")
    loc: list[str | int] = Field(
        description='Where: ["body", "items", index, field...].', examples=[["body", "items", 1, "hand"]]
    )


class ScoreBatchResponse(BaseModel):
    """One result per item, in request order: a score, or the item's error."""

    results: list[ScoreResponse | ScoreItemError]


_BATCH_EXAMPLES: Final = {
    "riichi": Example(summary="Riichi: a scored hand and an open hand without yaku", value=_BATCH_EXAMPLE),
}


#: Errors that make an item malformed rather than unanswerable: tiles that are not tiles
#: (the schema's own rule for integer tiles), which fail the whole batch like a schema error.
_MALFORMED: Final = frozenset({InvalidNotation.code})


def _item_result(item: ScoreItem, rules: RuleProfile, index: int) -> bytes:
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
    body: Annotated[ScoreBatchRequest, Body(openapi_examples=_BATCH_EXAMPLES)], request: Request
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
    rules = request_rules(body.rules)
    return json_response(batch_json([_item_result(item, rules, index) for index, item in enumerate(body.items)]))
