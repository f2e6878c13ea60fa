"""Operations: GET /health, GET /ready, and the result cache.

Anyone who may ask questions may read the cache counters; emptying the cache is an
administrator's: an ``X-Admin-Key`` from ``TENPAI_ADMIN_KEYS``, or, when none is
configured, a client on the loopback interface (see :func:`app.api.auth.admin_refusal`).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Header, Request, Response, status
from pydantic import BaseModel, Field

from app.api.auth import ADMIN_KEY_HEADER, admin_refusal
from app.api.cache import CacheStats
from app.api.errors import ApiError, error_responses
from app.api.state import service_state

router = APIRouter(tags=["service"])


class HealthResponse(BaseModel):
    """The process is up and answering."""

    status: str = Field(examples=["ok"])


class CacheStatsResponse(BaseModel):
    """Counters of the result cache since start or the last clear."""

    hits: int = Field(ge=0)
    misses: int = Field(ge=0)
    size: int = Field(ge=0, description="Answers stored now.")
    max_size: int = Field(ge=0, description="Answers stored at most (TENPAI_CACHE_SIZE); 0: off.")
    bytes: int = Field(ge=0, description="Bytes of the answers stored now.")
    max_bytes: int = Field(
        ge=0,
        description="Bytes of answers stored at most (TENPAI_CACHE_BYTES); an answer over a sixteenth of it "
        "is served but not kept.",
    )

    @classmethod
    def of(cls, stats: CacheStats) -> CacheStatsResponse:
        return cls(
            hits=stats.hits,
            misses=stats.misses,
            size=stats.size,
            max_size=stats.max_size,
            bytes=stats.bytes,
            max_bytes=stats.max_bytes,
        )


class ReadyResponse(BaseModel):
    """Whether the lookup tables are built, so that answers come at full speed."""

    ready: bool
    tables_build_seconds: float | None = Field(description="How long the tables took to build.")
    cache: CacheStatsResponse


@router.get("/health", operation_id="health", summary="Liveness", responses=error_responses(500))
async def health() -> HealthResponse:
    """200 whenever the process can answer at all."""
    # async: answered on the event loop, never queued behind busy worker threads.
    return HealthResponse(status="ok")


@router.get(
    "/ready",
    operation_id="ready",
    summary="Readiness",
    responses={503: {"model": ReadyResponse, "description": "The lookup tables are still being built."}},
)
async def ready(request: Request, response: Response) -> ReadyResponse:
    """200 once the lookup tables are built at start-up, 503 until then."""
    # async, as /health: the cache's lock is held only for a few dictionary operations.
    state = service_state(request)
    readiness = state.readiness
    if not readiness.tables_built:
        response.status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    return ReadyResponse(
        ready=readiness.tables_built,
        tables_build_seconds=readiness.build_seconds,
        cache=CacheStatsResponse.of(state.cache.stats()),
    )


@router.get("/cache/stats", operation_id="cache_stats", summary="Result cache counters", responses=error_responses(500))
def cache_stats(request: Request) -> CacheStatsResponse:
    """Hits, misses and size of the cache of finished answers."""
    return CacheStatsResponse.of(service_state(request).cache.stats())


async def _admin(
    request: Request,
    x_admin_key: Annotated[
        str | None,
        Header(
            description="A key of TENPAI_ADMIN_KEYS; without admin keys configured, only loopback clients may clear."
        ),
    ] = None,
) -> None:
    """Refuse, with a 403, a request that may not administer the service."""
    client = request.client.host if request.client else None
    keys = [key.get_secret_value() for key in service_state(request).settings.admin_keys]
    refusal = admin_refusal(x_admin_key, client, keys)
    if refusal is not None:
        raise ApiError(("header", ADMIN_KEY_HEADER.lower()), refusal, "forbidden")


@router.post(
    "/cache/clear",
    operation_id="cache_clear",
    summary="Empty the result cache",
    responses=error_responses(403, 422, 500),
    dependencies=[Depends(_admin)],
)
def cache_clear(request: Request) -> CacheStatsResponse:
    """Drop every cached answer and reset the counters; answers the counters after. The table
    machines `/act` keeps for growing logs are dropped too (their counters are in `/metrics`).

    Needs an admin key in `X-Admin-Key` (TENPAI_ADMIN_KEYS); when no admin key is
    configured, only a client on the loopback interface (127.0.0.0/8, ::1) may clear.
    """
    state = service_state(request)
    cache = state.cache
    cache.clear()
    state.machines.clear()
    return CacheStatsResponse.of(cache.stats())
