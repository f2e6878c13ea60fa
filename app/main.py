"""The HTTP service: ``create_app(settings)`` builds it, ``app`` is the default one.

Run it with ``python -m app.main`` (every setting from ``TENPAI_*`` variables,
JSON logs, graceful shutdown) or ``uvicorn app.main:app``.

Each request passes, outermost first: :class:`~app.api.observe.Observe` (request
id, metrics, access log), Starlette's error middleware, CORS (if configured), the
API-key check (if configured), the body limit, then routing; every route is a
:class:`~app.api.request_path.BodyRoute` (see :mod:`app.api`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.metadata import PackageNotFoundError, version

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from starlette.routing import Route
from starlette.types import ASGIApp

from app.api.auth import ApiKeyAuth
from app.api.body_limit import BodySizeLimit
from app.api.docs import install_docs
from app.api.errors import install_error_handlers
from app.api.heavy import HeavyLimiter, share_the_gil
from app.api.logs import log_config
from app.api.metrics import Metrics
from app.api.observe import REQUEST_ID_HEADER, Observe
from app.api.routes import ROUTERS
from app.api.shutdown import arm_exit_deadline
from app.api.state import ServiceState
from app.api.table_host import TableHost
from app.core.families.registry import TYPED_PRESETS
from app.settings import Settings

DESCRIPTION = """\
An exact mahjong rules engine: does a hand win (`/win`), what does it wait on (`/ting`), how far
is it from tenpai (`/shanten`), which tile to throw (`/discard`) and what a win pays (`/score`),
with batch forms of each, seeded self-play (`/simulate`) and reference pages. The table speaks
mjai: is a game's log legal and what does each hand pay (`/referee`), what may a seat do now and
what should it do (`/act`). It also hosts tables (`/tables`): it deals from a secret wall, shows
each seat its view, runs the clock and keeps the game.

**Rules.** `rules` names a preset, `riichi` unless a request says otherwise, or takes
`{"preset": name, ...overrides}`; `GET /rules` lists the presets and every option:

* `riichi`: Japanese riichi, as Tenhou plays it (yaku, han, fu and points by `/score`);
* `sanma`: three-player riichi: 108 tiles (no 2m-8m), three seats, no chi, norths set aside;
* `chinese`: Chinese shape rules: a quad counts as two pairs in seven pairs, no furiten;
* `qiqihar`: Qiqihar rules: 红中 (`7z`) is a wildcard, a win needs an exposed pon or kong,
  no seven pairs or thirteen orphans;
* `mcr`: Chinese Official rules (国标麻将): the knitted forms, 81 fans, a win needs 8;
* `sichuan`: Sichuan bloody rules (血战到底): 108 tiles, no chi, a void suit (`void_suit`),
  one pattern plus 根 and situational fans, capped (`max_fan`); its rule text is the preset's `source`.
{family_presets}
**Tiles** in requests may be written in mpsz (`123m406p789s1122z`), Chinese (`一万二万 东 中`),
Unicode (`🀇🀈🀉`) or as integers 0..33; answers write every tile in mpsz (`"3m"`). See `GET /tiles`.
Bodies are JSON, sent with `content-type: application/json`.

**Status codes.**

* 200: every valid question, including a "no" (not a win, no waits, a complete hand whose
  scoring refuses it under `/win` with a situation, or a batch item's error under `/score/batch`).
* 400: `/score` for a well-formed hand it cannot score: not a win (`not_a_winning_hand`),
  no yaku (`no_yaku`, riichi and sanma), under 8 fans (`below_minimum_fan`, mcr), a tile of
  the hand's void suit (`void_suit_held`, sichuan).
* 413: a body over the size limit (`body_too_large`). 415: a body not sent as JSON
  (`unsupported_media_type`). 422: malformed or impossible input, at its field.
* 503: the lookup tables are still being built (`not_ready`; see `GET /ready`), too many
  heavy requests run at once (`too_busy`, with `Retry-After`), a replay of events that could
  not finish in its time (`out_of_time`), or, where
  TENPAI_LIMIT_CONCURRENCY is set, more requests than it at once; for hosted tables, as many
  open as the service keeps (`too_many_tables`), a table store that cannot be reached
  (`store_unavailable`), or a table changed by others under every attempt (`table_busy`).
* 401: a missing or wrong API key, where API keys are configured, or a hosted table's request
  without its seat token (`missing_token`); 403: `POST /cache/clear` from a client that is not
  an administrator, a token that is not the table's (`not_your_table`), an action for another
  seat (`not_your_seat`); 404: a path the service does not have, or a table it does not (`table_not_found`);
  405: a method it does not have; 409: a hosted table's action at a version it has left
  (`stale_version`), after its end (`table_over`), or its record before the end (`table_not_over`);
  500: a bug or a table store altered behind the service's back, never the input's.

Every error answer has one envelope, `{"error": code, "detail": [{"type", "loc", "msg", "input",
"ctx"}]}`: `error` is the first item's `type`, `loc` names the field (and batch index), `input`
is what the request holds there.
"""
# The presets the families bring themselves, one line each in the family's words.
DESCRIPTION = DESCRIPTION.replace(
    "{family_presets}",
    "".join(f"* `{name}`: {family.preset_summaries[name]}\n" for name, family in TYPED_PRESETS.items()),
)

OPENAPI_TAGS = [
    {"name": "win", "description": "Does a 3n+2 hand win, and every way it does."},
    {"name": "ting", "description": "The waits of a 3n+1 hand."},
    {"name": "shanten", "description": "Distance from tenpai, and the draws that shorten it."},
    {"name": "discard", "description": "Every discard of a 3n+2 hand, ranked; whether the hand may declare a win."},
    {
        "name": "score",
        "description": "What a win pays, per seat, under a scoring profile (riichi, sanma, mcr, qiqihar).",
    },
    {"name": "simulate", "description": "Seeded self-play between strategies, with statistics per seat."},
    {
        "name": "table",
        "description": "mjai events in: the referee's verdict on a game, a seat's legal actions and the pick.",
    },
    {
        "name": "tables",
        "description": "Hosted tables: the service deals from a secret wall, shows each seat its view, runs the clock "
        "and keeps the game (SQLite by default, Redis to share tables between replicas).",
    },
    {"name": "reference", "description": "Rule presets and options, tile notations, the service's bounds."},
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
    # Under uvicorn (the main thread, its signal handlers in place): a stop signal ends the
    # process within the drain, even with a request stuck (app.api.shutdown).
    arm_exit_deadline(app.state.service.settings.graceful_shutdown_seconds)
    building = asyncio.create_task(readiness.build_tables())
    tables: TableHost = app.state.tables
    await tables.start()
    try:
        yield
    finally:
        await tables.stop()
        # The build runs in a thread that cannot be interrupted; let it finish.
        with contextlib.suppress(Exception):
            await building


class Service(FastAPI):
    """FastAPI with :class:`~app.api.observe.Observe` around everything, Starlette's error
    middleware included, so that a 500 is counted, timed and carries its request id too."""

    def build_middleware_stack(self) -> ASGIApp:
        return Observe(super().build_middleware_stack(), self.state.metrics, self.state.route_paths)


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the service; ``settings`` defaults to the validated ``TENPAI_*`` environment."""
    settings = settings or Settings()
    # uvicorn's "trace" is below DEBUG, which is as low as the standard levels go.
    logging.getLogger("app").setLevel(logging.DEBUG if settings.log_level == "trace" else settings.log_level.upper())
    app = Service(
        title="tenpai",
        version=_version(),
        description=DESCRIPTION,
        openapi_tags=OPENAPI_TAGS,
        docs_url=None,
        redoc_url=None,
        swagger_ui_oauth2_redirect_url=None,
        lifespan=_lifespan,
        strict_content_type=False,  # a JSON body sent without a Content-Type is still JSON
        # The service observes itself (/metrics, request ids in every log line); FastAPI's native
        # OpenTelemetry hooks asked three global providers on every request: 9 µs of the 62 µs a
        # fresh /shanten took in-process, beside a bare echo's 50 µs.
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    app.state.service = ServiceState.create(settings)
    app.state.heavy = HeavyLimiter(settings.max_heavy_requests)
    app.state.tables = TableHost(settings)
    share_the_gil()  # heavy work runs in threads: keep the event loop's waits for the GIL short
    app.state.metrics = Metrics(app.state.service, app.state.tables)
    install_error_handlers(app)
    # Middleware added later runs earlier. Outermost (after Observe): CORS, which answers
    # preflights and labels 401s too; the API-key check, before any body is read or a
    # cached answer replayed; the body limit.
    app.add_middleware(BodySizeLimit, max_body_bytes=settings.max_body_bytes)
    if settings.api_keys:
        app.add_middleware(
            ApiKeyAuth,
            keys=[key.get_secret_value() for key in settings.api_keys],
            protect_docs=settings.protect_docs,
        )
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(settings.cors_origins),
            allow_methods=["GET", "POST"],
            allow_headers=["authorization", "content-type", "x-api-key", "x-request-id"],
            expose_headers=[REQUEST_ID_HEADER.decode()],
            max_age=600,
        )
    # The routes join the app's own table rather than coming in through include_router:
    # FastAPI nests an included router and matches each request level by level, which
    # cost about 8 µs a request; the routers add no prefix, dependency or tag of their own
    # (each route already carries its router's tags), so the OpenAPI document is the same.
    for router in ROUTERS:
        app.router.routes.extend(router.routes)
    install_docs(app)
    # Paths a middleware may answer before routing (401, 413), counted under their route.
    app.state.route_paths = frozenset(
        route.path
        for route in (*app.routes, *(route for router in ROUTERS for route in router.routes))
        if isinstance(route, Route) and "{" not in route.path
    )
    return app


app = create_app()


def run() -> None:
    """Serve ``app.main:app`` with uvicorn, configured from the environment.

    On SIGTERM uvicorn stops accepting connections, lets in-flight requests
    finish for up to ``TENPAI_GRACEFUL_SHUTDOWN_SECONDS`` (uvicorn's
    ``--timeout-graceful-shutdown``), then exits; a process still there a few
    seconds later (a request stuck in its work) is ended (:mod:`app.api.shutdown`).
    """
    import uvicorn

    settings = Settings()
    uvicorn.run(
        "app.main:app",
        host=settings.host,
        port=settings.port,
        workers=settings.workers,
        log_level=settings.log_level,
        log_config=log_config(settings),
        access_log=False,  # the app logs each request itself, with its request id
        timeout_graceful_shutdown=settings.graceful_shutdown_seconds,
        limit_concurrency=settings.limit_concurrency,
        server_header=False,
    )


if __name__ == "__main__":
    run()
