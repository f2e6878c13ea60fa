"""GET /limits answers the process's own bounds, from its settings."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.core.discard import MAX_LOOKAHEAD_BUDGET
from app.main import create_app
from app.settings import Settings


def test_limits_come_from_the_settings() -> None:
    settings = Settings(max_batch_size=17, max_body_bytes=4096, heavy_seconds=0.5, max_heavy_requests=3)
    with TestClient(create_app(settings)) as client:
        body = client.get("/limits").json()
    assert body["max_batch_size"] == 17
    assert body["max_body_bytes"] == 4096
    assert body["heavy_seconds"] == 0.5
    assert body["max_heavy_requests"] == 3
    assert body["max_simulate_games"] == settings.max_simulate_games
    assert body["lookahead_budget_max"] == MAX_LOOKAHEAD_BUDGET
    assert set(body) == {
        "max_body_bytes", "max_batch_size", "max_simulate_games", "heavy_seconds", "simulate_seconds_per_game",
        "max_heavy_requests",
        "lookahead_budget_default", "lookahead_budget_max", "decomposition_limit", "cache_size",
    }  # fmt: skip
