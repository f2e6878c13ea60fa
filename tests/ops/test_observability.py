"""Request ids, Prometheus metrics and JSON log lines."""

from __future__ import annotations

import json
import logging
import re
import sys

import pytest
from fastapi.testclient import TestClient
from ops_helpers import HAND

from app.api.logs import ACCESS_LOGGER, REQUEST_ID, JsonFormatter, log_config
from app.main import create_app
from app.settings import Settings


def _sample(text: str, name: str, **labels: str) -> float:
    """The value of one series in a Prometheus text exposition (0 if absent)."""
    wanted = ",".join(f'{key}="{value}"' for key, value in sorted(labels.items()))
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        series, _, value = line.rpartition(" ")
        metric, _, label_text = series.partition("{")
        found = ",".join(sorted(label_text.rstrip("}").split(","))) if label_text else ""
        if metric == name and found == wanted:
            return float(value)
    return 0.0


def test_a_request_id_is_made_and_echoed(client: TestClient) -> None:
    first = client.post("/shanten", json=HAND).headers["x-request-id"]
    second = client.post("/shanten", json=HAND).headers["x-request-id"]
    assert re.fullmatch(r"[0-9a-f]{32}", first) and first != second


def test_an_incoming_request_id_is_kept(client: TestClient) -> None:
    response = client.get("/health", headers={"x-request-id": "lb-7f3a:42"})
    assert response.headers["x-request-id"] == "lb-7f3a:42"


@pytest.mark.parametrize("bad", [b"has space", b"x" * 129, "é".encode(), b""])
def test_an_unusable_request_id_is_replaced(client: TestClient, bad: bytes) -> None:
    response = client.get("/health", headers={"x-request-id": bad})
    assert re.fullmatch(r"[0-9a-f]{32}", response.headers["x-request-id"])


def test_errors_carry_the_request_id_too(client: TestClient) -> None:
    assert "x-request-id" in client.post("/shanten", json={"hand": "123x"}).headers
    assert "x-request-id" in client.get("/no/such/path").headers


def test_metrics_count_requests_by_route_template_and_status() -> None:
    client = TestClient(create_app(Settings()))
    with client:
        body = {"hand": "1112345678999m1p"}
        for _ in range(3):  # the 2nd and 3rd are answered by the replay cache, before routing
            assert client.post("/shanten", json=body).status_code == 200
        client.post("/shanten", json={"hand": "123x"})
        client.post("/shanten/batch", json={"hands": ["123m"]})
        client.get("/no/such/path/123")
        response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    text = response.text
    requests = "tenpai_http_requests_total"
    assert _sample(text, requests, method="POST", route="/shanten", status="200") == 3
    assert _sample(text, requests, method="POST", route="/shanten", status="422") == 1
    assert _sample(text, requests, method="POST", route="/shanten/batch", status="422") == 1
    assert _sample(text, requests, method="GET", route="unmatched", status="404") == 1
    assert "/no/such/path" not in text
    latency = "tenpai_http_request_duration_seconds_count"
    assert _sample(text, latency, method="POST", route="/shanten", status="200") == 3
    assert _sample(text, "tenpai_http_errors_total", code="invalid_notation") == 1
    assert _sample(text, "tenpai_http_errors_total", code="wrong_tile_count") == 1
    assert _sample(text, "tenpai_http_errors_total", code="not_found") == 1


def test_metrics_show_the_cache_counters_and_readiness(client: TestClient) -> None:
    client.post("/cache/clear")
    client.post("/ting", json={"hand": "123456789m1112z"})
    client.post("/ting", json={"hand": "123456789m1112z"})
    stats = client.get("/cache/stats").json()
    text = client.get("/metrics").text
    assert _sample(text, "tenpai_cache_hits_total") == stats["hits"] == 1
    assert _sample(text, "tenpai_cache_misses_total") == stats["misses"] == 1
    assert _sample(text, "tenpai_cache_entries") == stats["size"]
    assert _sample(text, "tenpai_cache_max_entries") == 4096
    assert _sample(text, "tenpai_ready") == 1 and _sample(text, "tenpai_tables_build_seconds") > 0
    assert _sample(text, "process_resident_memory_bytes") > 0


def test_a_500_is_counted_timed_and_carries_its_request_id(caplog: pytest.LogCaptureFixture) -> None:
    app = create_app(Settings())

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("secret internals")

    seen: list[str | None] = []

    class Remember(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(REQUEST_ID.get())

    handler = Remember(level=logging.ERROR)
    logging.getLogger("app.api").addHandler(handler)
    try:
        client = TestClient(app, raise_server_exceptions=False)
        response = client.get("/boom", headers={"x-request-id": "trace-500"})
    finally:
        logging.getLogger("app.api").removeHandler(handler)
    assert response.status_code == 500 and "secret internals" not in response.text
    assert response.headers["x-request-id"] == "trace-500"
    assert seen == ["trace-500"]  # the error log line knows the request
    text = client.get("/metrics").text
    assert _sample(text, "tenpai_http_requests_total", method="GET", route="/boom", status="500") == 1
    assert _sample(text, "tenpai_http_errors_total", code="internal_error") == 1


def test_access_lines_name_request_route_status_and_time(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger=ACCESS_LOGGER):
        client.post("/win", json={"hand": "123m456p789s11z"}, headers={"x-request-id": "abc-1"})
    (record,) = [r for r in caplog.records if r.name == ACCESS_LOGGER]
    line = json.loads(JsonFormatter().format(record))
    assert line["http"]["route"] == "/win" and line["http"]["status"] == 200
    assert line["http"]["method"] == "POST" and line["http"]["duration_ms"] >= 0
    assert line["level"] == "info" and line["logger"] == ACCESS_LOGGER


def test_the_access_log_is_silent_unless_configured(client: TestClient) -> None:
    # Served without log_config (e.g. plain `uvicorn app.main:app`), it costs nothing.
    assert not logging.getLogger(ACCESS_LOGGER).isEnabledFor(logging.INFO)


def test_json_lines_carry_exceptions_and_request_ids() -> None:
    token = REQUEST_ID.set("rid-9")
    try:
        try:
            raise ValueError("boom")
        except ValueError:
            record = logging.LogRecord("app.api", logging.ERROR, __file__, 1, "failed %s", ("x",), sys.exc_info())
        line = json.loads(JsonFormatter().format(record))
    finally:
        REQUEST_ID.reset(token)
    assert line["message"] == "failed x" and line["request_id"] == "rid-9" and line["level"] == "error"
    assert "ValueError: boom" in line["exception"]


@pytest.mark.parametrize("log_format", ["json", "text"])
def test_log_config_is_a_valid_dict_config(log_format: str) -> None:
    config = log_config(Settings(log_format=log_format, access_log=False))
    assert config["loggers"][ACCESS_LOGGER]["level"] == "WARNING"
    assert config["loggers"]["uvicorn.access"]["handlers"] == []
    formatter_spec = config["formatters"][config["handlers"]["default"]["formatter"]]
    formatter = formatter_spec["()"]()
    record = logging.LogRecord("app", logging.INFO, __file__, 1, "hello", (), None)
    assert "hello" in formatter.format(record)
