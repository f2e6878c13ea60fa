"""Helpers shared by the HTTP tests: started clients and error-envelope assertions."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings

READY_TIMEOUT_SECONDS = 120


def wait_ready(client: TestClient) -> None:
    """Poll /ready until the tables are built (bounded)."""
    deadline = time.monotonic() + READY_TIMEOUT_SECONDS
    while client.get("/ready").status_code != 200:
        assert time.monotonic() < deadline, "tables were not built in time"
        time.sleep(0.05)


def started(settings: Settings | None = None) -> TestClient:
    """A client whose app has run its start-up and is ready.

    ``raise_server_exceptions`` stays on: an exception escaping to the 500
    handler fails the test, which is how these tests show that user input
    never reaches it.
    """
    # A loopback client, as an operator on the same host: /cache/clear needs one (or an admin key).
    client = TestClient(create_app(settings or Settings()), client=("127.0.0.1", 50000))
    client.__enter__()
    wait_ready(client)
    return client


#: The keys of every error answer, and of every item of its ``detail`` (app.api.errors).
ENVELOPE_KEYS = ("error", "detail")
ITEM_KEYS = ("type", "loc", "msg", "input", "ctx")


def error_items(response: Any) -> list[dict[str, Any]]:
    """The items of an error answer, after checking that it has the one envelope's shape."""
    body = response.json()
    assert tuple(body) == ENVELOPE_KEYS, body
    assert isinstance(body["detail"], list) and body["detail"], body
    for item in body["detail"]:
        assert tuple(item) == ITEM_KEYS, item
        assert isinstance(item["type"], str) and isinstance(item["msg"], str) and item["msg"], item
        assert isinstance(item["loc"], list) and (item["ctx"] is None or isinstance(item["ctx"], dict)), item
    assert body["error"] == body["detail"][0]["type"], body
    return body["detail"]


def assert_error(response: Any, status: int, loc: list[Any], error_type: str | None = None) -> dict[str, Any]:
    """Assert an error answer whose first item is at ``loc`` (and of ``error_type``)."""
    assert response.status_code == status, response.text
    item = error_items(response)[0]
    assert item["loc"] == loc, item
    if error_type is not None:
        assert item["type"] == error_type, item
    return item
