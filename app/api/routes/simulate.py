"""POST /simulate: a small seeded self-play run, answered with the same report as the CLI.

Each game costs 3 to 20 milliseconds of CPU, so the number of games one request
may ask for is capped (``TENPAI_MAX_SIMULATE_GAMES``); bigger runs belong to
``python -m app.selfplay``, which uses every core.  Reports are deterministic,
so a finished one is kept in the result cache under its exact settings.

A run is a heavy request (:mod:`app.api.heavy`): it counts against
``TENPAI_MAX_HEAVY_REQUESTS``, and it stops between games when its client leaves
or its wall-clock budget, :func:`simulate_seconds`, runs out.  The budget grows
with the games asked for, at :data:`SECONDS_PER_GAME` (over twice the slowest
lineup's cost), so a run finishes unless the process is overloaded; one cut
short answers the report of the games it played (the same as a shorter run of the
same seed), flagged ``complete: false`` with ``games_requested``, and is not cached.
"""

from __future__ import annotations

from enum import StrEnum
from functools import partial
from typing import Annotated, Final

from fastapi import APIRouter, Body, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from pydantic.config import JsonDict

from app.api.discard_schemas import WeightsSpec
from app.api.errors import ApiError, error_responses, located
from app.api.heavy import Budget, Finished, answer_heavy
from app.api.request_path import BodyRoute
from app.api.state import service_state
from app.core.players import PLAYER_KINDS
from app.core.rules import PRESETS, SEAT_COUNTS
from app.core.simulator import TABLE_SETTINGS, GameConfig, validate_config
from app.selfplay.report import build_report
from app.selfplay.runner import run_games

router = APIRouter(tags=["simulate"], route_class=BodyRoute)
_ERRORS = error_responses(413, 422, 500, 503)

SECONDS_PER_GAME: Final = 1.2
"""Wall-clock budget of one game in a /simulate run: over twice the slowest lineup's mean
(four riichi advisors, whose expected-score searches take 0.58 s a game; the linear
strategies 3 to 20 ms; MCR's fan planner up to about 100 ms)."""


def simulate_seconds(games: int, heavy_seconds: float) -> float:
    """The wall-clock budget of a /simulate run of ``games``: ``heavy_seconds`` or
    :data:`SECONDS_PER_GAME` a game, whichever is longer.

    >>> simulate_seconds(1, 2.0), simulate_seconds(200, 2.0)
    (2.0, 240.0)
    """
    return max(heavy_seconds, games * SECONDS_PER_GAME)


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
    complete: bool = Field(
        True,
        description="Present, and false, only when the run was cut short by its wall-clock budget "
        "(the process was overloaded): the report is of the first `games` games.",
    )
    games_requested: int | None = Field(
        None, description="Present only with `complete: false`: the games asked for (`games` were played)."
    )


@router.post(
    "/simulate",
    response_model=SimulateResponse,
    operation_id="simulate",
    summary="Seeded self-play: win, deal-in and tenpai statistics per seat",
    responses=_ERRORS,
)
async def simulate(body: Annotated[SimulateRequest, Body()], request: Request) -> Response:
    """Play `games` hands of one strategy per seat under `rules` (four seats; three under sanma,
    with kita), dealer rotating, seeded from
    `seed`, and report per seat: win rate, deal-in rate, self-draw share, tenpai rate and
    average tenpai turn, average payment, the average points and han of a win (riichi pays
    Tenhou's points: dora, ura dora, riichi, ippatsu and the situational yaku), the riichi
    rate, the shanten curve by turn, with 95% intervals;
    per table the exhaustive-draw and deal-in rates; and pairwise win-rate and payment differences
    between strategies. The same request always gives the same report; a lineup that does not
    seat the rules' players is a 422 at `players`.

    A run is a heavy request: its wall-clock budget is TENPAI_HEAVY_SECONDS or 1.2 s a game,
    whichever is longer (a run cut short reports the games it played, with `complete: false`),
    and beyond TENPAI_MAX_HEAVY_REQUESTS at once the answer is a 503 `too_busy` with `Retry-After`."""
    settings = service_state(request).settings
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
    seconds = simulate_seconds(body.games, settings.heavy_seconds)
    return await answer_heavy(request, key, partial(play_report, config, body.games), seconds=seconds)


def play_report(config: GameConfig, games: int, budget: Budget) -> Finished:
    """The report of ``games`` games of ``config``, rendered, stopping between games when ``budget``
    says so (its deadline passed, its client left); a short run's report is flagged and its ``complete`` false."""
    results = run_games(config, games, stop=budget.passed)
    report = build_report(config, results)
    complete = len(results) == games
    if not complete:
        report |= {"complete": False, "games_requested": games}
    # exclude_unset: a complete report is exactly the CLI's document, without the two flags.
    return Finished(SimulateResponse.model_validate(report).model_dump_json(exclude_unset=True).encode(), complete)
