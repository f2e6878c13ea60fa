"""``POST /simulate``: its request and response bodies (the report of ``python -m app.selfplay``)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from pydantic.config import JsonDict

from app.api.schemas.discard import WeightsSpec
from app.core.shape.rules import OPTIONS, SEAT_COUNTS
from app.core.table.flow import GameLength
from app.core.table.players import PLAYER_KINDS
from app.selfplay.runner import ONE_HAND_PRESETS, PLAYABLE_PRESETS

# Enumerations in the schema, so Swagger UI offers the valid names (taken from the registries;
# mypy cannot see members built at import, hence the ignores).
StrategyName = StrEnum("StrategyName", {name: name for name in PLAYER_KINDS})  # type: ignore[misc]
TableRules = StrEnum("TableRules", {name: name for name in PLAYABLE_PRESETS})  # type: ignore[misc]

_EXAMPLE: JsonDict = {
    "rules": "qiqihar",
    "players": ["advisor", "advisor", "greedy", "random"],
    "games": 20,
    "seed": 42,
}
_SANMA_EXAMPLE: JsonDict = {"rules": "sanma", "players": ["advisor", "greedy", "advisor"], "games": 20, "seed": 42}
_HANCHAN_EXAMPLE: JsonDict = {
    "rules": "riichi",
    "players": ["linear", "greedy", "linear", "random"],
    "games": 4,
    "seed": 7,
    "length": "hanchan",
}


class SimulateRequest(BaseModel):
    """Who sits at the table, under which rules, for how many seeded games."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [_EXAMPLE, _SANMA_EXAMPLE, _HANCHAN_EXAMPLE]}
    )

    rules: TableRules = Field(TableRules("qiqihar"), description="Rules preset of the table.")
    players: list[StrategyName] = Field(
        min_length=min(SEAT_COUNTS),
        max_length=max(SEAT_COUNTS),
        description=f"Strategy per seat, one for each seat of the rules (4; sanma 3): {', '.join(PLAYER_KINDS)}.",
        examples=[["advisor", "advisor", "greedy", "random"]],
    )
    games: int = Field(
        ge=1,
        description="Games to play (at most the service's TENPAI_MAX_SIMULATE_GAMES, whatever their length: a "
        "hanchan is about ten hands, so a long run usually meets TENPAI_SIMULATE_SECONDS first).",
    )
    length: GameLength = Field(
        GameLength.KYOKU,
        description="A game: one hand (kyoku), an East round (tonpuu) or East and South (hanchan), by Tenhou's "
        f"rules (riichi and sanma); {', '.join(ONE_HAND_PRESETS)} are played one hand a game (kyoku only).",
    )
    seed: int = Field(0, ge=0, le=2**63 - 1, description="Run seed: the same seed gives the same report.")
    weights: WeightsSpec = Field(default_factory=WeightsSpec, description="The advisor players' weights.")
    options: dict[str, Any] = Field(
        default_factory=dict,
        max_length=len(OPTIONS),
        description="Rule options over the preset, as GET /rules lists them, e.g. "
        '{"bloody_river": true} under sichuan (血流成河); an unknown option or a bad value is a 422 at its name.',
        examples=[{"bloody_river": True}],
    )


class Estimate(BaseModel):
    """A rate or an average with its 95% interval (Wilson for rates, normal for means)."""

    value: float | None
    ci95: list[float] | None
    n: int


class TableOut(BaseModel):
    """Rates of the hands (the four endings add up to 1), their discards, the hands a game."""

    exhaustive_draw_rate: Estimate
    abortive_draw_rate: Estimate = Field(
        description="Hands ended by an abortive draw (nine terminals, four winds, four riichi, four kans, triple ron)."
    )
    deal_in_rate: Estimate = Field(description="Hands won on a discard (a double ron is one hand).")
    self_draw_rate: Estimate
    average_turns: Estimate = Field(description="Discards a hand.")
    average_hands: Estimate = Field(description="Hands a game.")


class ShantenAtTurn(BaseModel):
    turn: int
    average: float | None
    ci95: list[float] | None
    hands: int


class Rates(BaseModel):
    win_rate: Estimate = Field(description="Hands won (per hand: each winner of a double ron won it).")
    deal_in_rate: Estimate
    self_draw_share: Estimate
    tenpai_rate: Estimate
    average_tenpai_turn: Estimate
    average_payment: Estimate = Field(
        description="A hand's score change (its own riichi stick counts against it, sticks won for it)."
    )
    average_win_payment: Estimate = Field(
        description="Points of a win: what the other seats pay the winner, honba included (riichi sticks not)."
    )
    average_han: Estimate = Field(description="Han of a win (riichi; n is 0 under rules whose scoring counts none).")
    average_fan: Estimate = Field(
        description="Fans of a win: MCR's first winner's, flowers not counted; Sichuan's every win, before the cap "
        "(n is 0 under rules whose scoring counts none)."
    )
    flush_win_share: Estimate = Field(
        description="Sichuan: the share of the wins that count a flush pattern (清一色 and the patterns built on it; "
        "n is 0 under other rules)."
    )
    riichi_rate: Estimate = Field(description="Hands with a riichi declaration that stood.")
    average_rank: Estimate = Field(description="Place at the end of a game, 1 first (per game).")
    average_rank_points: Estimate = Field(description="The report's `rank_points` of that place (per game).")
    place_rates: list[Estimate] = Field(description="Rate of each place, first place first (per game).")
    average_final_score: Estimate = Field(
        description="Points at the end of a game (presets played one hand a game: the hand's payments)."
    )


class SeatOut(Rates):
    seat: int = Field(
        description="Position in the lineup (`strategies`): the seat it holds when game 0 seats it; game g seats "
        "the lineup rotated by g, so each position deals first equally often."
    )
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
        description="Per game, the hands won per hand and seat of a's seats minus b's, averaged over the games "
        "(paired by game)."
    )
    paired_deal_in_difference: Estimate = Field(
        description="Per game, the hands dealt in per hand and seat of a's seats minus b's, averaged over the games "
        "(paired by game)."
    )
    rank_points_difference: Estimate = Field(
        description="Per game, the average rank points of a's seats minus b's, averaged over the games (paired by game)."
    )


class PlacementOut(BaseModel):
    """One game's end, by lineup position."""

    game: int
    rotation: int = Field(description="Seat s held the lineup's position (s + rotation) % seats.")
    hands: int
    scores: list[int]
    ranks: list[int] = Field(description="Place of each lineup position, 1 first.")


class SimulateResponse(BaseModel):
    """The self-play report (the same document as ``python -m app.selfplay --out``).

    A run that reached the service's wall-clock bound (``TENPAI_SIMULATE_SECONDS``) first
    answers the report of the games it finished: ``games`` of them, ``complete: false``,
    ``games_requested`` the games asked for; every figure is over the ``games`` played.
    """

    model_config = ConfigDict(extra="forbid")

    rules: str
    seed: int
    length: GameLength
    duplicate: bool = Field(description="Always false here: the duplicate mode is the command line's (--duplicate).")
    games: int = Field(
        description="Games played, over which every figure is computed: the games asked for, or fewer when "
        "`complete` is false (then the first `games` of the run: the report of a shorter run of the same seed; "
        "possibly 0, every figure then null)."
    )
    games_played: int = Field(description="Games played: `games` (the command line's --duplicate plays more).")
    hands: int = Field(description="Hands in all the games played.")
    rank_points: list[int | float] = Field(
        description="Points per place, first place first: Tenhou's at four seats (90, 45, 0, -135); at three, "
        "90, 0, -135."
    )
    strategies: list[str]
    weights: dict[str, float]
    table: TableOut
    players: list[SeatOut]
    by_strategy: dict[str, StrategyOut]
    comparisons: list[ComparisonOut]
    placements: list[PlacementOut] = Field(description="Each game's final scores and places, in game order.")
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
