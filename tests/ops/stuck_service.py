"""The service with three routes that never finish on their own, served by uvicorn as ``run()`` serves it.

The tests of :mod:`test_stuck_work` start it to see what the service does with work that does not
stop: no input of the real routes gets there any more (issue 33 fixed each one), and the
guarantees must hold for the next one too.  ``TENPAI_HOST``, ``TENPAI_PORT``, the heavy budget and
the drain come from the environment, as for ``python -m app.main``.

* ``POST /spin-heavy``: heavy work (a slot, its own thread, a budget) that never checks its budget;
* ``POST /sleep-heavy``: heavy work blocked in native code (``time.sleep``), which nothing can interrupt;
* ``POST /spin-loop``: a request that spins on the event loop itself;
* ``POST /spin-sync``: a plain sync route of the service's own kind (a body model, as ``/score``)
  whose work spins in its pool thread;
* ``POST /block-thread``: a plain sync route that blocks its pool thread until the process ends
  (``POST /few-threads`` first leaves two threads in the pool).
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import anyio.to_thread  # noqa: E402
import uvicorn  # noqa: E402
from fastapi import APIRouter, Request, Response  # noqa: E402
from pydantic import BaseModel  # noqa: E402

from app.api.heavy import Budget, Finished, answer_heavy  # noqa: E402
from app.api.request_path import BodyRoute  # noqa: E402
from app.main import create_app  # noqa: E402
from app.settings import Settings  # noqa: E402

settings = Settings()
app = create_app(settings)
forever = threading.Event()


def _spin(budget: Budget) -> Finished:
    spins = 0
    while True:  # never looks at its budget
        spins += 1


def _sleep(budget: Budget) -> Finished:
    time.sleep(3600)
    return Finished(b"{}", True)


@app.post("/spin-heavy")
async def spin_heavy(request: Request) -> Response:
    return await answer_heavy(request, None, _spin, seconds=settings.heavy_seconds)


@app.post("/sleep-heavy")
async def sleep_heavy(request: Request) -> Response:
    return await answer_heavy(request, None, _sleep, seconds=settings.heavy_seconds)


@app.post("/spin-loop")
async def spin_loop() -> None:
    while True:
        pass


@app.post("/block-thread")
def block_thread() -> None:
    forever.wait()


class Spin(BaseModel):
    spins: int = 0


sync_routes = APIRouter(route_class=BodyRoute)


@sync_routes.post("/spin-sync")
def spin_sync(body: Spin) -> None:
    spins = body.spins
    while True:
        spins += 1


app.router.routes.extend(sync_routes.routes)


@app.post("/few-threads")
async def few_threads() -> None:
    # Two threads in Starlette's pool, so that two blocked sync requests take all of it.
    anyio.to_thread.current_default_thread_limiter().total_tokens = 2


if __name__ == "__main__":
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        log_level="warning",
        timeout_graceful_shutdown=settings.graceful_shutdown_seconds,
    )
