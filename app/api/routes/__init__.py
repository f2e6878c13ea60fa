"""One router per endpoint family."""

from fastapi import APIRouter

from app.api.routes import (
    analyze,
    discard,
    limits,
    metrics,
    records,
    reference,
    review,
    score,
    service,
    shanten,
    simulate,
    table,
    tables,
    ting,
    win,
)

# Request routing tries routers in this order: the busiest first.
ROUTERS: tuple[APIRouter, ...] = (
    shanten.router,
    ting.router,
    win.router,
    discard.router,
    score.router,
    simulate.router,
    table.router,
    tables.router,
    review.router,
    records.router,
    reference.router,
    limits.router,
    service.router,
    metrics.router,
    analyze.router,
)
