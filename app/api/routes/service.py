"""Operations: GET /health, GET /ready, and the result cache."""

from __future__ import annotations

from fastapi import APIRouter, Response, status
from pydantic import BaseModel, Field

from app.api.cache import CacheStats
from app.api.deps import CacheDep, StateDep
from app.api.errors import error_responses

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

    @classmethod
    def of(cls, stats: CacheStats) -> CacheStatsResponse:
        return cls(hits=stats.hits, misses=stats.misses, size=stats.size, max_size=stats.max_size)


class ReadyResponse(BaseModel):
    """Whether the lookup tables are built, so that answers come at full speed."""

    ready: bool
    tables_build_seconds: float | None = Field(description="How long the tables took to build.")
    cache: CacheStatsResponse


@router.get("/health", operation_id="health", summary="Liveness", responses=error_responses(500))
def health() -> HealthResponse:
    """200 whenever the process can answer at all."""
    return HealthResponse(status="ok")


@router.get(
    "/ready",
    operation_id="ready",
    summary="Readiness",
    responses={503: {"model": ReadyResponse, "description": "The lookup tables are still being built."}},
)
def ready(state: StateDep, response: Response) -> ReadyResponse:
    """200 once the lookup tables are built at start-up, 503 until then."""
    readiness = state.readiness
    if not readiness.tables_built:
        response.status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    return ReadyResponse(
        ready=readiness.tables_built,
        tables_build_seconds=readiness.build_seconds,
        cache=CacheStatsResponse.of(state.cache.stats()),
    )


@router.get("/cache/stats", operation_id="cache_stats", summary="Result cache counters", responses=error_responses(500))
def cache_stats(cache: CacheDep) -> CacheStatsResponse:
    """Hits, misses and size of the cache of finished answers."""
    return CacheStatsResponse.of(cache.stats())


@router.post(
    "/cache/clear", operation_id="cache_clear", summary="Empty the result cache", responses=error_responses(500)
)
def cache_clear(cache: CacheDep) -> CacheStatsResponse:
    """Drop every cached answer and reset the counters; answers the counters after."""
    cache.clear()
    return CacheStatsResponse.of(cache.stats())
