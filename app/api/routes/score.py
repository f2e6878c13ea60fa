"""POST /score: what a win pays, per seat, under a scoring profile (first: Qiqihar)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body
from pydantic import BaseModel, ConfigDict, Field

from app.api.errors import ApiError, error_responses, located
from app.api.questions import request_melds, request_rules, request_tiles
from app.api.schemas import MeldSpec, Rules, Tiles
from app.core.hand import Hand
from app.core.scoring import ScoreResult, WinContext, score

router = APIRouter(tags=["score"])
_ERRORS = error_responses(400, 413, 422, 500)

_EXAMPLE = {
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


class ScoreRequest(BaseModel):
    """A winning hand and how it was won."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [_EXAMPLE]})

    hand: Tiles = Field(description="The concealed tiles, including win_tile.")
    melds: list[MeldSpec] = Field([], description="Declared melds.")
    win_tile: Tiles = Field(description="The winning tile (one tile, any notation).", examples=["9s"])
    rules: Rules = Field("qiqihar", validate_default=True, description="The rules whose scoring applies.")
    winner: int = Field(ge=0, le=3, description="Seat of the winner, 0..3.")
    dealer: int = Field(ge=0, le=3, description="Seat of the dealer, 0..3.")
    discarder: int | None = Field(
        None, ge=0, le=3, description="Seat that discarded the winning tile (for a robbed kong: who declared it); null: self-draw."
    )
    kong_replacement: bool = Field(False, description="Won on a kong replacement tile (杠上开花).")
    robbed_kong: bool = Field(False, description="Won by robbing another player's added kong (抢杠胡).")


class MultiplierOut(BaseModel):
    """One doubling and why."""

    name: str = Field(examples=["self_draw"])
    factor: int = Field(examples=[2])


class PayerOut(BaseModel):
    """What one losing seat pays the winner."""

    seat: int
    pays: int


class ScoreResponse(BaseModel):
    """Net payments per seat (summing to zero), the multipliers, and each payer's share."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "payments": [24, -8, -8, -8],
                    "multipliers": [
                        {"name": "self_draw", "factor": 2},
                        {"name": "red_dragon_held", "factor": 2},
                        {"name": "dealer", "factor": 2},
                    ],
                    "per_payer": [{"seat": 1, "pays": 8}, {"seat": 2, "pays": 8}, {"seat": 3, "pays": 8}],
                }
            ]
        }
    )

    payments: list[int]
    multipliers: list[MultiplierOut]
    per_payer: list[PayerOut]

    @classmethod
    def of(cls, result: ScoreResult) -> "ScoreResponse":
        return cls(
            payments=list(result.payments),
            multipliers=[MultiplierOut(name=m.name, factor=m.factor) for m in result.multipliers],
            per_payer=[PayerOut(seat=seat, pays=pays) for seat, pays in result.per_payer],
        )


@router.post("/score", operation_id="score", summary="What a win pays, per seat", responses=_ERRORS)
def score_win(body: Annotated[ScoreRequest, Body()]) -> ScoreResponse:
    """Qiqihar scoring (seed 004 section 4): base 1, doubled for self-draw (all three pay)
    or a win on a discard (the discarder alone pays), for 红中 held in the winning hand,
    a kong replacement win and robbing a kong, and per payer when the winner or that
    payer is the dealer. A hand that does not win is a 400 `not_a_winning_hand`."""
    rules = request_rules(body.rules)
    melds = request_melds(body.melds)
    tiles = request_tiles(body.hand, "body", "hand")
    win_tile = request_tiles(body.win_tile, "body", "win_tile")
    if len(win_tile) != 1:
        raise ApiError(("body", "win_tile"), f"win_tile is one tile, got {len(win_tile)}", "invalid_notation")
    with located("body"):
        hand = Hand.from_tiles(tiles, melds)
        context = WinContext(body.winner, body.dealer, body.discarder, body.kong_replacement, body.robbed_kong)
        return ScoreResponse.of(score(hand, win_tile[0], rules, context))
