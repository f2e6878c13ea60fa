"""FastAPI dependencies, as ``Annotated`` aliases the routes declare.

Each hand question gets its own :class:`~app.core.engine.Checker`, built here from
the request's rules: checkers hold no mutable state, and nothing is shared
between requests but the immutable core tables and the app's result cache.

Single-hand dependencies are ``async``: they take microseconds, and a plain
``def`` would cost a trip to the thread pool each.  Batch dependencies stay
plain functions, so a large batch runs in the pool, not on the event loop.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Body, Depends, Request

from app.api.cache import ResultCache
from app.api.questions import Asked, ask_one
from app.api.schemas import (
    BATCH_EXAMPLES,
    SHANTEN_EXAMPLES,
    BatchRequest,
    HandRequest,
)
from app.api.state import ServiceState, service_state
from app.settings import Settings


async def _state(request: Request) -> ServiceState:
    return service_state(request)


async def _settings(state: Annotated[ServiceState, Depends(_state)]) -> Settings:
    return state.settings


async def _cache(state: Annotated[ServiceState, Depends(_state)]) -> ResultCache:
    return state.cache


StateDep = Annotated[ServiceState, Depends(_state)]
SettingsDep = Annotated[Settings, Depends(_settings)]
CacheDep = Annotated[ResultCache, Depends(_cache)]


async def _shanten(body: Annotated[HandRequest, Body(openapi_examples=SHANTEN_EXAMPLES)]) -> Asked:
    return ask_one("shanten", body)


#: A batch body, parsed but not yet turned into core values (the batch routes try a vectorised path first).
BatchBody = Annotated[BatchRequest, Body(openapi_examples=BATCH_EXAMPLES)]

ShantenAsked = Annotated[Asked, Depends(_shanten)]
