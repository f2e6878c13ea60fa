"""The floor for bench/run_http.py and bench/run_table.py: a bare FastAPI app that validates a body and answers.

It shares nothing with the service but FastAPI, pydantic and uvicorn: no middleware,
no error handlers, no dependencies, no engine.  ``run_http.py`` serves it with the
same uvicorn flags as ``app.main:app``, so the gap between the two is what the
service adds on top of the framework (parsing, the rules engine, the cache, the
larger response).

The route is ``async def``, the cheapest way FastAPI can answer; a plain ``def``
route would add a hop to the thread pool per request.

>>> from fastapi.testclient import TestClient
>>> TestClient(app).post("/shanten", json={"hand": "123m456p789s1122z"}).json()
{'hand': '123m456p789s1122z', 'rules': 'riichi'}
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict


class ShantenBody(BaseModel):
    """The fields of a /shanten request the benchmark sends; unknown ones are refused, as there."""

    model_config = ConfigDict(extra="forbid")

    hand: str | list[int]
    rules: str | dict[str, Any] = "riichi"


app = FastAPI(title="echo", docs_url=None, redoc_url=None, openapi_url=None)


@app.post("/shanten")
async def echo(body: ShantenBody) -> ShantenBody:
    """Answer the validated body."""
    return body


class ActBody(BaseModel):
    """The fields of an /act request the benchmark sends: the seat, its events, the rules."""

    model_config = ConfigDict(extra="forbid")

    seat: int
    events: list[dict[str, Any]]
    rules: str | dict[str, Any] = "riichi"


@app.post("/act")
async def echo_act(body: ActBody) -> dict[str, Any]:
    """Answer with the last event: the body is validated as /act's is, the answer stays small."""
    return {"seat": body.seat, "last": body.events[-1]}
