"""GET /limits answers the process's own bounds, from its settings."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.api.schemas.common import (
    HAND_MAX_CHARS,
    HAND_MAX_ITEMS,
    MELD_MAX_CHARS,
    MELD_MAX_ITEMS,
    SEEN_MAX_CHARS,
    SEEN_MAX_ITEMS,
)
from app.core.advice.discard import MAX_LOOKAHEAD_BUDGET
from app.main import create_app
from app.settings import Settings


def test_limits_come_from_the_settings() -> None:
    settings = Settings(
        max_batch_size=17,
        max_body_bytes=4096,
        heavy_seconds=0.5,
        simulate_seconds=7.5,
        max_heavy_requests=3,
        cache_bytes=1 << 20,
        max_answer_bytes=1 << 21,
        max_events=321,
        max_open_tables=12,
        table_idle_seconds=600,
    )
    with TestClient(create_app(settings)) as client:
        body = client.get("/limits").json()
    assert body["max_batch_size"] == 17
    assert body["max_body_bytes"] == 4096
    assert body["heavy_seconds"] == 0.5
    assert body["simulate_seconds"] == 7.5
    assert body["max_heavy_requests"] == 3
    assert body["max_simulate_games"] == settings.max_simulate_games
    assert body["max_events"] == 321
    assert body["lookahead_budget_max"] == MAX_LOOKAHEAD_BUDGET
    assert body["cache_bytes"] == 1 << 20 and body["max_answer_bytes"] == 1 << 21
    assert body["tile_fields"] == {
        "hand": {"max_characters": HAND_MAX_CHARS, "max_items": HAND_MAX_ITEMS},
        "seen": {"max_characters": SEEN_MAX_CHARS, "max_items": SEEN_MAX_ITEMS},
        "meld": {"max_characters": MELD_MAX_CHARS, "max_items": MELD_MAX_ITEMS},
    }
    tables = body["tables"]
    assert tables["store"]["kind"] == "sqlite" and tables["store"]["path"].endswith(".sqlite3")
    assert tables["max_open_tables"] == 12 and tables["idle_seconds"] == 600
    assert tables["max_wait_seconds"] == 30
    assert tables["clock"]["decision_seconds"][0] > 0 and tables["clock"]["bank_seconds"][0] == 0
    assert set(body) == {
        "max_body_bytes", "max_batch_size", "max_simulate_games", "max_events", "heavy_seconds", "simulate_seconds",
        "max_heavy_requests",
        "lookahead_budget_default", "lookahead_budget_max", "decomposition_limit", "cache_size",
        "cache_bytes", "max_answer_bytes", "tile_fields", "tables",
    }  # fmt: skip
