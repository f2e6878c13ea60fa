"""``python -m app.main`` for real on 127.0.0.1: JSON logs, worker count, graceful shutdown on SIGTERM."""

from __future__ import annotations

import json
import signal
import socket
import time
from pathlib import Path

import httpx
import pytest
from ops_helpers import HAND, live_server

pytestmark = pytest.mark.slow

STOP_TIMEOUT_SECONDS = 30
# After a clean shutdown uvicorn re-raises the signal it caught, so the exit says SIGTERM (143 in a shell).
STOPPED = {0, -signal.SIGTERM}


def _post_in_two_parts(base: str, body: bytes) -> tuple[socket.socket, bytes]:
    """Open a request to /shanten and send its headers and half its body; return the rest."""
    host, port = base.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=10)
    head = (
        f"POST /shanten HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nX-Request-ID: in-flight-1\r\n\r\n"
    ).encode()
    half = len(body) // 2
    sock.sendall(head + body[:half])
    return sock, body[half:]


def _read_response(sock: socket.socket) -> bytes:
    chunks = []
    while chunk := sock.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


def _wait_for_requests_in_progress(base: str, count: int) -> None:
    """Until the server answers ``count`` requests at once, this /metrics request among them.

    Polled rather than slept for: on a busy machine the server may take a while to read a request.
    """
    deadline = time.monotonic() + STOP_TIMEOUT_SECONDS
    while True:
        metrics = httpx.get(f"{base}/metrics", timeout=10, trust_env=False).text
        (line,) = [line for line in metrics.splitlines() if line.startswith("tenpai_http_requests_in_progress ")]
        if float(line.split()[1]) >= count:
            return
        assert time.monotonic() < deadline, f"no request in flight: {line}"
        time.sleep(0.05)


def _refuses_new_connections(base: str) -> bool:
    """Whether new connections are refused within the stop timeout (the signal is handled asynchronously)."""
    deadline = time.monotonic() + STOP_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        try:
            httpx.get(f"{base}/health", timeout=2, trust_env=False)
        except httpx.TransportError:
            return True
        time.sleep(0.1)
    return False


def test_sigterm_lets_an_in_flight_request_finish(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    with live_server({"TENPAI_GRACEFUL_SHUTDOWN_SECONDS": "20"}, log) as (process, base):
        sock, rest = _post_in_two_parts(base, json.dumps(HAND).encode())
        _wait_for_requests_in_progress(base, 2)  # the /shanten waits for the rest of its body
        process.send_signal(signal.SIGTERM)
        assert _refuses_new_connections(base), "new connections were still accepted after SIGTERM"
        assert process.poll() is None, "the server quit with a request in flight"
        sock.sendall(rest)
        response = _read_response(sock)
        sock.close()
        assert response.startswith(b"HTTP/1.1 200"), response
        assert b"x-request-id: in-flight-1" in response.lower()
        assert process.wait(timeout=STOP_TIMEOUT_SECONDS) in STOPPED
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    access = [line for line in lines if line["logger"] == "tenpai.access" and line["http"]["route"] == "/shanten"]
    assert access and access[0]["request_id"] == "in-flight-1" and access[0]["http"]["status"] == 200
    messages = [line["message"] for line in lines]
    assert any("Shutting down" in message for message in messages), messages


def test_workers_and_log_format_come_from_the_environment(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    env = {"TENPAI_WORKERS": "2", "TENPAI_LOG_FORMAT": "text", "TENPAI_ACCESS_LOG": "false"}
    with live_server(env, log) as (process, base):
        with httpx.Client(base_url=base, trust_env=False, timeout=10) as http:
            assert http.post("/shanten", json=HAND).status_code == 200
            assert "tenpai_http_requests_total" in http.get("/metrics").text
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=STOP_TIMEOUT_SECONDS) in STOPPED
    text = log.read_text()
    assert text.count("Application startup complete") == 2, text  # one per worker
    assert "POST /shanten" not in text  # no access lines
    assert not text.lstrip().startswith("{")  # plain text, not JSON
