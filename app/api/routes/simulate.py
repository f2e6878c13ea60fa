"""POST /simulate: a small seeded self-play run, answered with the same report as the CLI.

Each game costs tens of milliseconds of CPU, so the number of games one request
may ask for is capped (``TENPAI_MAX_SIMULATE_GAMES``); bigger runs belong to
``python -m app.selfplay``, which uses every core.  Reports are deterministic,
so a finished one is kept in the result cache under its exact settings.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

from fastapi import APIRouter, Body
from pydantic import BaseModel, ConfigDict, Field
from pydantic.config import JsonDict

from app.api.deps import CacheDep, SettingsDep
from app.api.discard_schemas import WeightsSpec
from app.api.errors import ApiError, error_responses, located
from app.core.players import PLAYER_KINDS
from app.core.rules import PRESETS, SEAT_COUNTS
from app.core.simulator import TABLE_SETTINGS, GameConfig, validate_config
from app.selfplay.report import build_report
from app.selfplay.runner import run_games

router = APIRouter(tags=["simulate"])
_ERRORS = error_responses(413, 422, 500)

# Enumerations in the schema, so Swagger UI offers the valid names (taken from the registries;
# mypy cannot see members built at import, hence the ignores).
StrategyName = StrEnum("StrategyName", {name: name for name in PLAYER_KINDS})  # type: ignore[misc]
TableRules = StrEnum("TableRules", {name: name for name in PRESETS if name in TABLE_SETTINGS})  # type: ignore[misc]

_EXAMPLE: JsonDict = {
    "rules": "qiqihar",
    "players": ["advisor", "advisor", "greedy", "random"],
    "games": 20,
    "seed": 42,
}
_SANMA_EXAMPLE: JsonDict = {"rules": "sanma", "players": ["advisor", "greedy", "advisor"], "games": 20, "seed": 42}


class SimulateRequest(BaseModel):
    """Who sits at the table, under which rules, for how many seeded games."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [_EXAMPLE, _SANMA_EXAMPLE]})

    rules: TableRules = Field(TableRules("qiqihar"), description="Rules preset of the table.")
    players: list[StrategyName] = Field(
        min_length=min(SEAT_COUNTS),
        max_length=max(SEAT_COUNTS),
        description=f"Strategy per seat, one for each seat of the rules (4; sanma 3): {', '.join(PLAYER_KINDS)}.",
        examples=[["advisor", "advisor", "greedy", "random"]],
    )
    games: int = Field(ge=1, description="Games to play (at most the service's TENPAI_MAX_SIMULATE_GAMES).")
    seed: int = Field(0, ge=0, le=2**63 - 1, description="Run seed: the same seed gives the same report.")
    weights: WeightsSpec = Field(default_factory=WeightsSpec, description="The advisor players' weights.")


class Estimate(BaseModel):
    """A rate or an average with its 95% interval (Wilson for rates, normal for means)."""

    value: float | None
    ci95: list[float] | None
    n: int


class TableOut(BaseModel):
    exhaustive_draw_rate: Estimate
    deal_in_rate: Estimate
    self_draw_rate: Estimate
    average_turns: Estimate


class ShantenAtTurn(BaseModel):
    turn: int
    average: float | None
    ci95: list[float] | None
    hands: int


class Rates(BaseModel):
    win_rate: Estimate
    deal_in_rate: Estimate
    self_draw_share: Estimate
    tenpai_rate: Estimate
    average_tenpai_turn: Estimate
    average_payment: Estimate
    average_win_payment: Estimate = Field(
        description="Points of a win: what the other seats pay the winner (riichi sticks not included)."
    )
    average_han: Estimate = Field(description="Han of a win (riichi; n is 0 under rules whose scoring counts none).")
    riichi_rate: Estimate = Field(description="Hands with a riichi declaration that stood.")


class SeatOut(Rates):
    seat: int
    strategy: str
    tenpai_turn_histogram: dict[str, int] = Field(
        description="Games by the own turn the seat got ready (0: dealt ready)."
    )
    shanten_by_turn: list[ShantenAtTurn]


class StrategyOut(Rates):
    seats: list[int]


class Difference(BaseModel):
    value: float | None
    ci95: list[float] | None


class ComparisonOut(BaseModel):
    a: str
    b: str
    a_seats: list[int]
    b_seats: list[int]
    a_win_rate: Estimate
    b_win_rate: Estimate
    win_rate_difference: Difference
    payment_difference: Estimate = Field(
        description="Per game, the average payment of a's seats minus b's, averaged over the games (paired by game)."
    )


class SimulateResponse(BaseModel):
    """The self-play report (the same document as ``python -m app.selfplay --out``)."""

    model_config = ConfigDict(extra="forbid")

    rules: str
    seed: int
    games: int
    strategies: list[str]
    weights: dict[str, float]
    table: TableOut
    players: list[SeatOut]
    by_strategy: dict[str, StrategyOut]
    comparisons: list[ComparisonOut]


@router.post(
    "/simulate",
    operation_id="simulate",
    summary="Seeded self-play: win, deal-in and tenpai statistics per seat",
    responses=_ERRORS,
)
def simulate(body: Annotated[SimulateRequest, Body()], settings: SettingsDep, cache: CacheDep) -> SimulateResponse:
    """Play `games` hands of one strategy per seat under `rules` (four seats; three under sanma,
    with kita), dealer rotating, seeded from
    `seed`, and report per seat: win rate, deal-in rate, self-draw share, tenpai rate and
    average tenpai turn, average payment, the average points and han of a win (riichi pays
    Tenhou's points: dora, ura dora, riichi, ippatsu and the situational yaku), the riichi
    rate, the shanten curve by turn, with 95% intervals;
    per table the exhaustive-draw and deal-in rates; and pairwise win-rate and payment differences
    between strategies. The same request always gives the same report; a lineup that does not
    seat the rules' players is a 422 at `players`."""
    if body.games > settings.max_simulate_games:
        raise ApiError(
            ("body", "games"),
            f"games is {body.games}; this service plays at most {settings.max_simulate_games} per request "
            "(run python -m app.selfplay for more)",
            "too_many_games",
        )
    players = tuple(player.value for player in body.players)
    config = GameConfig(body.rules.value, players, body.seed, weights=body.weights.core())
    with located("body"):
        validate_config(config)
    key = ("simulate", config, body.games)
    report: dict[str, Any] = cache.get_or_compute(key, lambda: build_report(config, run_games(config, body.games)))
    return SimulateResponse.model_validate(report)
