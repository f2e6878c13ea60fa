"""One router per endpoint family."""

from fastapi import APIRouter

from app.api.routes import reference, service, shanten, ting, win

ROUTERS: tuple[APIRouter, ...] = (
    win.router,
    ting.router,
    shanten.router,
    reference.router,
    service.router,
)
