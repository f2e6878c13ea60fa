"""The floor for bench/tables_load.py: a bare FastAPI app with the hosted tables' two seat routes.

Like ``bench/echo_app.py`` (the floor of run_http.py and run_table.py), it shares nothing with
the service but FastAPI, pydantic and uvicorn: no middleware, no error handlers, no store, no
game.  A seat's view (``GET /tables/{table}?after=V&wait=S``) answers at once with a view of the
same fields and one event more than ``after``, so a long poll never waits; an action (``POST
/tables/{table}/actions``) validates the body as the service's schema does and answers with it.
The routes are ``async def``, the cheapest way FastAPI can answer.

>>> from fastapi.testclient import TestClient
>>> client = TestClient(app)
>>> client.get("/tables/t_1", params={"after": 3, "wait": 10}).json()["version"]
4
>>> client.post("/tables/t_1/actions", json={"version": 4, "action": {"type": "none"}}).json()["version"]
4
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Query
from pydantic import BaseModel, ConfigDict, Field

app = FastAPI(title="echo-tables", docs_url=None, redoc_url=None, openapi_url=None)


def _view(table: str, version: int, after: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A view with the service's fields; its values are placeholders of the right shape."""
    return {
        "table": table,
        "seat": 0,
        "version": version,
        "after": after,
        "status": "playing",
        "events": [{"type": "tsumo", "actor": 0, "pai": "?"}] if version > after else [],
        "legal": legal,
        "deadline": None,
        "autoplay": False,
        "bank_seconds": 60.0,
        "scores": [25000, 25000, 25000, 25000],
        "rules": "riichi",
        "length": "hanchan",
        "seats": [{"seat": seat, "kind": "client"} for seat in range(4)],
        "commitment": "0" * 64,
    }


@app.get("/tables/{table}")
async def view(
    table: str, after: Annotated[int, Query(ge=0)] = 0, wait: Annotated[float, Query(ge=0, le=30)] = 0.0
) -> dict[str, Any]:
    """The view one event after ``after``, at once (``wait`` is validated and never needed)."""
    return _view(table, after + 1, after, [])


class ActionBody(BaseModel):
    """The fields of an action, refused as the service refuses them (``extra="forbid"``)."""

    model_config = ConfigDict(extra="forbid")

    version: int = Field(ge=0, le=10**9)
    action: dict[str, Any]


@app.post("/tables/{table}/actions")
async def act(table: str, body: ActionBody) -> dict[str, Any]:
    """The view at the body's version, the action echoed as its only legal one."""
    return _view(table, body.version, body.version, [body.action])
