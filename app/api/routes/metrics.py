"""GET /metrics: the Prometheus metrics of this process (see app.api.metrics).

Left out of the OpenAPI document: it is for the scraper, not part of the HTTP
contract, and its text format is Prometheus's, not JSON.
"""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from app.api.metrics import CONTENT_TYPE, Metrics

router = APIRouter(tags=["service"])


@router.get("/metrics", operation_id="metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    """Requests and latency per route template and status, error answers by code, result
    cache hits, misses and size, readiness, and the process's memory and CPU."""
    app_metrics: Metrics = request.app.state.metrics
    return Response(app_metrics.exposition(), media_type=CONTENT_TYPE)
