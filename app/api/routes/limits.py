"""GET /limits: every bound a client meets, in one answer (docs/limits.md lists the same)."""

from __future__ import annotations

from typing import Any

import annotated_types
from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from app.api.errors import error_responses
from app.api.routes.tables import MAX_WAIT_SECONDS, table_host
from app.api.schemas.common import (
    HAND_MAX_CHARS,
    HAND_MAX_ITEMS,
    MELD_MAX_CHARS,
    MELD_MAX_ITEMS,
    SEEN_MAX_CHARS,
    SEEN_MAX_ITEMS,
)
from app.api.schemas.tables import ClockSpec
from app.api.state import service_state
from app.core.advice.discard import DEFAULT_LOOKAHEAD_BUDGET, MAX_LOOKAHEAD_BUDGET

router = APIRouter(tags=["reference"])


def field_bounds(model: type[BaseModel], name: str) -> list[float]:
    """The least and most value a number field of ``model`` takes (its ``ge``/``le``), from the schema itself."""
    low = high = None
    for item in model.model_fields[name].metadata:
        if isinstance(item, annotated_types.Ge):
            low = float(item.ge)  # type: ignore[arg-type]
        elif isinstance(item, annotated_types.Le):
            high = float(item.le)  # type: ignore[arg-type]
    if low is None or high is None:
        raise TypeError(f"{model.__name__}.{name} has no ge/le bounds")
    return [low, high]


class TileFieldLimit(BaseModel):
    """How long one kind of tile field may be, checked before any parsing; longer: 422 at the field."""

    max_characters: int = Field(description="Most characters of tile text (any notation, separators included).")
    max_items: int = Field(description="Most items of a list of tile integers.")


class TileFieldLimits(BaseModel):
    """The length bounds of the request's tile fields, each several times what a valid request needs."""

    hand: TileFieldLimit = Field(description="`hand`, and each of a batch's `hands`.")
    seen: TileFieldLimit = Field(
        description="Tiles seen: `visible`, an opponent's `river`, `dora_indicators`, `ura_indicators`, and tile "
        "rule options such as `wildcards`."
    )
    meld: TileFieldLimit = Field(
        description="A meld's `tiles`, and the one-tile fields (`win_tile`, `seat_wind`, `round_wind`)."
    )


class ClockBounds(BaseModel):
    """What a table's clock may be set to (POST /tables ``clock``)."""

    decision_seconds: list[float] = Field(description="Least and most seconds for each decision.")
    bank_seconds: list[float] = Field(description="Least and most seconds of a seat's bank for the game.")
    autoplay_seconds: list[float] = Field(description="Least and most seconds a seat in auto-play is given.")


class TableLimits(BaseModel):
    """Where hosted tables live and how many, how long, how fast."""

    store: dict[str, Any] = Field(
        description="The table store (TENPAI_TABLE_STORE): kind sqlite with its file's path, or redis with its URL "
        "(no password)."
    )
    max_open_tables: int = Field(description="Most tables open at once (TENPAI_MAX_OPEN_TABLES); more: 503.")
    idle_seconds: float = Field(
        description="A table with no action for this long is abandoned, its record deleted (TENPAI_TABLE_IDLE_SECONDS)."
    )
    max_wait_seconds: float = Field(description="The longest a long poll (?wait=) holds its answer.")
    clock: ClockBounds


class LimitsResponse(BaseModel):
    """The bounds of this service process, from its settings (``TENPAI_*``) and the engine."""

    max_body_bytes: int = Field(description="Largest request body (TENPAI_MAX_BODY_BYTES); larger: 413.")
    max_batch_size: int = Field(description="Most hands or items in one batch request (TENPAI_MAX_BATCH_SIZE).")
    max_simulate_games: int = Field(description="Most games one POST /simulate plays (TENPAI_MAX_SIMULATE_GAMES).")
    max_events: int = Field(
        description="Most mjai events one POST /referee or /act sends (TENPAI_MAX_EVENTS); more: 422 too_many_events."
    )
    heavy_seconds: float = Field(
        description="Wall-clock budget of one heavy computation (TENPAI_HEAVY_SECONDS): a lookahead or "
        "expected-score search past it answers what it found, flagged complete: false; a /referee or /act "
        "replay that cannot finish by then is a 503 out_of_time."
    )
    simulate_seconds: float = Field(
        description="Wall-clock bound of one POST /simulate run (TENPAI_SIMULATE_SECONDS): past it, the report of "
        "the games finished, flagged complete: false with games_requested. A client that leaves stops its run "
        "within milliseconds."
    )
    max_heavy_requests: int = Field(
        description="Heavy requests (a lookahead, /simulate, /referee, /act, a /win of hands holding more than two "
        "wildcards) "
        "computed at once (TENPAI_MAX_HEAVY_REQUESTS); more: 503 with Retry-After. A /discard expected-score "
        "search also takes a slot; without one the linear score ranks."
    )
    lookahead_budget_default: int = Field(description="States a /discard lookahead may examine unless asked.")
    lookahead_budget_max: int = Field(description="Most states a /discard lookahead may be given.")
    decomposition_limit: int = Field(description="Most decompositions /win lists (TENPAI_DECOMPOSITION_LIMIT).")
    cache_size: int = Field(description="Answers the result cache keeps (TENPAI_CACHE_SIZE); 0: off.")
    cache_bytes: int = Field(
        description="Bytes of answers the result cache keeps (TENPAI_CACHE_BYTES); an answer over a sixteenth "
        "of it is not kept."
    )
    max_answer_bytes: int = Field(
        description="Largest answer one request gets (TENPAI_MAX_ANSWER_BYTES); a request whose answer could be "
        "larger (a /win batch of hands holding many wildcards) is a 422 answer_too_large, before the work."
    )
    tile_fields: TileFieldLimits = Field(description="Length bounds of the tile fields of a request.")
    tables: TableLimits = Field(description="Hosted tables: where they live and their bounds.")


@router.get("/limits", operation_id="limits", summary="The service's bounds", responses=error_responses(500))
async def limits(request: Request) -> LimitsResponse:
    """What one request may ask for, and how long heavy work may take, on this process."""
    # async, as /health: answered on the event loop even when every pool thread is busy.
    settings = service_state(request).settings
    return LimitsResponse(
        max_body_bytes=settings.max_body_bytes,
        max_batch_size=settings.max_batch_size,
        max_simulate_games=settings.max_simulate_games,
        max_events=settings.max_events,
        heavy_seconds=settings.heavy_seconds,
        simulate_seconds=settings.simulate_seconds,
        max_heavy_requests=settings.max_heavy_requests,
        lookahead_budget_default=DEFAULT_LOOKAHEAD_BUDGET,
        lookahead_budget_max=MAX_LOOKAHEAD_BUDGET,
        decomposition_limit=settings.decomposition_limit,
        cache_size=settings.cache_size,
        cache_bytes=settings.cache_bytes,
        max_answer_bytes=settings.max_answer_bytes,
        tile_fields=TileFieldLimits(
            hand=TileFieldLimit(max_characters=HAND_MAX_CHARS, max_items=HAND_MAX_ITEMS),
            seen=TileFieldLimit(max_characters=SEEN_MAX_CHARS, max_items=SEEN_MAX_ITEMS),
            meld=TileFieldLimit(max_characters=MELD_MAX_CHARS, max_items=MELD_MAX_ITEMS),
        ),
        tables=TableLimits(
            store=table_host(request).service.store.describe(),
            max_open_tables=settings.max_open_tables,
            idle_seconds=settings.table_idle_seconds,
            max_wait_seconds=MAX_WAIT_SECONDS,
            clock=ClockBounds(
                decision_seconds=field_bounds(ClockSpec, "decision_seconds"),
                bank_seconds=field_bounds(ClockSpec, "bank_seconds"),
                autoplay_seconds=field_bounds(ClockSpec, "autoplay_seconds"),
            ),
        ),
    )
