"""One router per endpoint family."""

from fastapi import APIRouter

from app.api.routes import reference, service, shanten, ting, win

# Request routing tries routers in this order: the busiest first.
ROUTERS: tuple[APIRouter, ...] = (
    shanten.router,
    ting.router,
    win.router,
    reference.router,
    service.router,
)
