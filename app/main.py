"""The HTTP service: ``create_app(settings)`` builds it, ``app`` is the default one.

Run it with ``python -m app.main`` (host, port, workers and log level from
``TENPAI_*`` variables) or ``uvicorn app.main:app``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.metadata import PackageNotFoundError, version

from fastapi import FastAPI

from app.api.body_limit import BodySizeLimit
from app.api.docs import install_docs
from app.api.errors import install_error_handlers
from app.api.replay import AnswerReplay
from app.api.routes import ROUTERS
from app.api.state import ServiceState
from app.settings import Settings

DESCRIPTION = """\
An exact mahjong rules engine: does a hand win, what does it wait on, how far is it
from tenpai, under riichi, Chinese or Qiqihar rules (or a preset with overrides).

* Tiles in requests may be written in mpsz (`123m406p789s1122z`), Chinese (`一万二万 东 中`),
  Unicode (`🀇🀈🀉`) or as integers 0..33; answers write every tile in mpsz (`"3m"`).
  See `GET /tiles` and `GET /rules`.
* Every valid question answers 200, including a "no". Errors use one envelope,
  `{"detail": [{"loc", "msg", "type"}]}`, whose `loc` names the field (and batch index).
"""

OPENAPI_TAGS = [
    {"name": "win", "description": "Does a 3n+2 hand win, and every way it does."},
    {"name": "ting", "description": "The waits of a 3n+1 hand."},
    {"name": "shanten", "description": "Distance from tenpai, and the draws that shorten it."},
    {"name": "reference", "description": "Rule presets and options, tile notations."},
    {"name": "service", "description": "Liveness, readiness and the result cache."},
]


def _version() -> str:
    try:
        return version("tenpai")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0.0.0"


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    readiness = app.state.service.readiness
    building = asyncio.create_task(readiness.build_tables())
    try:
        yield
    finally:
        # The build runs in a thread that cannot be interrupted; let it finish.
        with contextlib.suppress(Exception):
            await building


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the service; ``settings`` defaults to the validated ``TENPAI_*`` environment."""
    settings = settings or Settings()
    # uvicorn's "trace" is below DEBUG, which is as low as the standard levels go.
    logging.getLogger("app").setLevel(
        logging.DEBUG if settings.log_level == "trace" else settings.log_level.upper()
    )
    app = FastAPI(
        title="tenpai",
        version=_version(),
        description=DESCRIPTION,
        openapi_tags=OPENAPI_TAGS,
        docs_url=None,
        redoc_url=None,
        swagger_ui_oauth2_redirect_url=None,
        lifespan=_lifespan,
        strict_content_type=False,  # a JSON body sent without a Content-Type is still JSON
    )
    app.state.service = ServiceState.create(settings)
    install_error_handlers(app)
    # Added first, so it runs inside the body limit: oversized bodies never reach it.
    app.add_middleware(AnswerReplay, paths=frozenset({"/shanten", "/ting", "/win"}))
    app.add_middleware(BodySizeLimit, max_body_bytes=settings.max_body_bytes)
    for router in ROUTERS:
        app.include_router(router)
    install_docs(app)
    return app


app = create_app()


def run() -> None:
    """Serve ``app.main:app`` with uvicorn, configured from the environment."""
    import uvicorn

    settings = Settings()
    uvicorn.run(
        "app.main:app",
        host=settings.host,
        port=settings.port,
        workers=settings.workers,
        log_level=settings.log_level,
    )


if __name__ == "__main__":
    run()
