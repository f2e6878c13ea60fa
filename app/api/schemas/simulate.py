"""``POST /simulate``: its request and response bodies (the report of ``python -m app.selfplay``)."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field
from pydantic.config import JsonDict

from app.api.schemas.discard import WeightsSpec
from app.core.shape.rules import PRESETS, SEAT_COUNTS
from app.core.table.players import PLAYER_KINDS
from app.core.table.simulator import TABLE_SETTINGS

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
    average_fan: Estimate = Field(
        description="Fans of a win, flowers not counted (MCR; n is 0 under rules whose scoring counts none)."
    )
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
    paired_win_difference: Estimate = Field(
        description="Per game, the hands won per seat of a's seats minus b's, averaged over the games (paired by game)."
    )


class SimulateResponse(BaseModel):
    """The self-play report (the same document as ``python -m app.selfplay --out``).

    A run that reached the service's wall-clock bound (``TENPAI_SIMULATE_SECONDS``) first
    answers the report of the games it finished: ``games`` of them, ``complete: false``,
    ``games_requested`` the games asked for; every figure is over the ``games`` played.
    """

    model_config = ConfigDict(extra="forbid")

    rules: str
    seed: int
    games: int = Field(
        description="Games played, over which every figure is computed: the games asked for, or fewer when "
        "`complete` is false (then the first `games` of the run: the report of a shorter run of the same seed; "
        "possibly 0, every figure then null)."
    )
    strategies: list[str]
    weights: dict[str, float]
    table: TableOut
    players: list[SeatOut]
    by_strategy: dict[str, StrategyOut]
    comparisons: list[ComparisonOut]
    complete: bool = Field(
        True,
        description="Present, and false, only when the run was cut short by the service's wall-clock bound "
        "(TENPAI_SIMULATE_SECONDS, GET /limits `simulate_seconds`) before it played every game asked for; "
        "such an answer depends on the load, so it is not cached (`Cache-Control: no-store`). Absent: "
        "every game was played.",
    )
    games_requested: int | None = Field(
        None,
        description="Present only with `complete: false`: the games asked for, of which `games` were played.",
    )
