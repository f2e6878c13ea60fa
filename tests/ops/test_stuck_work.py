"""Work that never stops cannot take the service with it (issue 33, point 3).

A real uvicorn process (``stuck_service.py``: the service plus routes whose work never ends)
shows what the service guarantees whatever a request's work does:

* heavy work that ignores its budget is stopped by the watchdog, answered 503 ``out_of_time``
  within its budget plus the grace, its slot given back, and the process idle again after;
* heavy work stuck in native code gives its slot back all the same;
* ``/health`` and ``/ready`` answer while every pool thread is blocked;
* SIGTERM ends the process within its drain, even with a request spinning on the event loop.
"""

from __future__ import annotations

import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from ops_helpers import live_server

from app.api.heavy import CHEAP_WORK_SECONDS, OVERRUN_GRACE_SECONDS, RELEASE_WAIT_SECONDS
from app.api.shutdown import EXIT_MARGIN_SECONDS, FORCED_EXIT_STATUS

pytestmark = pytest.mark.slow

SCRIPT = Path(__file__).with_name("stuck_service.py")
HEAVY_SECONDS = 1.0
DRAIN_SECONDS = 2
#: Room for a busy machine on top of each bound (the bounds themselves are what is asserted).
SLACK_SECONDS = 3.0
ENV = {
    "TENPAI_HEAVY_SECONDS": str(HEAVY_SECONDS),
    "TENPAI_MAX_HEAVY_REQUESTS": "1",
    "TENPAI_GRACEFUL_SHUTDOWN_SECONDS": str(DRAIN_SECONDS),
}


def _cpu_seconds(pid: int) -> float:
    """User and system CPU time the process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _healthy(base: str) -> bool:
    return httpx.get(f"{base}/health", timeout=2, trust_env=False).status_code == 200


def test_heavy_work_that_ignores_its_budget_is_stopped(tmp_path: Path) -> None:
    with live_server(ENV, tmp_path / "server.log", script=SCRIPT) as (process, base):
        with ThreadPoolExecutor(1) as pool:
            started = time.monotonic()
            spinning = pool.submit(httpx.post, f"{base}/spin-heavy", timeout=30, trust_env=False)
            time.sleep(0.3)
            assert _healthy(base)  # the loop answers meanwhile
            busy = httpx.post(f"{base}/spin-heavy", timeout=10, trust_env=False)
            assert busy.status_code == 503 and busy.json()["error"] == "too_busy"
            # The slot is back by its deadline, the grace and the wait: Retry-After says so.
            assert int(busy.headers["retry-after"]) <= HEAVY_SECONDS + OVERRUN_GRACE_SECONDS + RELEASE_WAIT_SECONDS + 1
            answer = spinning.result(timeout=30)
            took = time.monotonic() - started
        assert answer.status_code == 503, answer.text
        assert answer.json()["error"] == "out_of_time"
        assert took < HEAVY_SECONDS + OVERRUN_GRACE_SECONDS + SLACK_SECONDS
        assert _healthy(base)
        # The runaway thread is gone: the process is idle in the 3 s after the answer.
        before = _cpu_seconds(process.pid)
        time.sleep(3)
        assert _cpu_seconds(process.pid) - before < 1.0
        # And the slot is free again: the next heavy request is admitted (and stopped in turn).
        again = httpx.post(f"{base}/spin-heavy", timeout=30, trust_env=False)
        assert again.json()["error"] == "out_of_time"


def test_heavy_work_stuck_in_native_code_gives_its_slot_back(tmp_path: Path) -> None:
    with live_server(ENV, tmp_path / "server.log", script=SCRIPT) as (process, base):
        started = time.monotonic()
        answer = httpx.post(f"{base}/sleep-heavy", timeout=30, trust_env=False)
        took = time.monotonic() - started
        assert answer.status_code == 503 and answer.json()["error"] == "out_of_time"
        assert took < HEAVY_SECONDS + OVERRUN_GRACE_SECONDS + RELEASE_WAIT_SECONDS + SLACK_SECONDS
        # Its thread still sleeps, but the slot is free: another heavy request is admitted.
        again = httpx.post(f"{base}/spin-heavy", timeout=30, trust_env=False)
        assert again.json()["error"] == "out_of_time"
        # The sleeping thread is a daemon: a stop signal ends the process as usual.
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=DRAIN_SECONDS + EXIT_MARGIN_SECONDS + SLACK_SECONDS) in {0, -signal.SIGTERM}


def test_a_sync_route_that_spins_is_stopped(tmp_path: Path) -> None:
    with live_server(ENV, tmp_path / "server.log", script=SCRIPT) as (process, base):
        started = time.monotonic()
        answer = httpx.post(f"{base}/spin-sync", json={"spins": 0}, timeout=30, trust_env=False)
        took = time.monotonic() - started
        assert answer.status_code == 503, answer.text
        assert answer.json()["error"] == "out_of_time"
        assert CHEAP_WORK_SECONDS <= took < CHEAP_WORK_SECONDS + SLACK_SECONDS
        before = _cpu_seconds(process.pid)
        time.sleep(3)
        assert _cpu_seconds(process.pid) - before < 1.0  # its pool thread is free and idle again


def test_health_and_ready_answer_with_every_pool_thread_blocked(tmp_path: Path) -> None:
    with live_server(ENV, tmp_path / "server.log", script=SCRIPT) as (process, base):
        assert httpx.post(f"{base}/few-threads", timeout=10, trust_env=False).status_code == 200
        with ThreadPoolExecutor(3) as pool:
            for _ in range(3):  # two take the pool's two threads, the third waits for one
                pool.submit(httpx.post, f"{base}/block-thread", timeout=DRAIN_SECONDS + 30, trust_env=False)
            time.sleep(0.5)
            assert _healthy(base)
            assert httpx.get(f"{base}/ready", timeout=2, trust_env=False).status_code == 200
            assert httpx.get(f"{base}/limits", timeout=2, trust_env=False).status_code == 200
            process.send_signal(signal.SIGTERM)
            # Ended within the drain and the margin (by uvicorn's re-raised signal or the deadline).
            status = process.wait(timeout=DRAIN_SECONDS + EXIT_MARGIN_SECONDS + SLACK_SECONDS)
        assert status in {0, -signal.SIGTERM, FORCED_EXIT_STATUS}


def test_sigterm_ends_the_process_with_a_request_spinning_on_the_loop(tmp_path: Path) -> None:
    with live_server(ENV, tmp_path / "server.log", script=SCRIPT) as (process, base):
        with ThreadPoolExecutor(1) as pool:
            pool.submit(httpx.post, f"{base}/spin-loop", timeout=DRAIN_SECONDS + 30, trust_env=False)
            time.sleep(0.5)
            stopped_at = time.monotonic()
            process.send_signal(signal.SIGTERM)
            status = process.wait(timeout=DRAIN_SECONDS + EXIT_MARGIN_SECONDS + SLACK_SECONDS)
            took = time.monotonic() - stopped_at
        assert status == FORCED_EXIT_STATUS
        assert took < DRAIN_SECONDS + EXIT_MARGIN_SECONDS + SLACK_SECONDS
        assert "ending the process now" in (tmp_path / "server.log").read_text()
