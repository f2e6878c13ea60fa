"""What the headless-Chromium tests share: a live service and a browser for it.

Import after ``pytest.importorskip("selenium.webdriver")``: this module needs selenium.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium")
CHROMEDRIVER = shutil.which("chromedriver")
START_TIMEOUT_SECONDS = 120
PAGE_TIMEOUT_SECONDS = 60

#: Under CI=true a browser test that cannot run fails (in headless_chrome) instead of skipping,
#: so a green CI run means the browser tests ran.
IN_CI: bool = os.environ.get("CI") == "true"
needs_chromium = pytest.mark.skipif(
    (CHROMIUM is None or CHROMEDRIVER is None) and not IN_CI,
    reason="headless Chromium not found: apt-get install -y chromium chromium-driver",
)
browser_tests = [pytest.mark.browser, needs_chromium]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def uvicorn_service(log_dir: Path, settings: Mapping[str, str] | None = None) -> Iterator[str]:
    """``app.main:app`` under uvicorn on a free 127.0.0.1 port, ready; its base URL.

    The service reads none of this process's ``TENPAI_*`` settings, only ``settings`` (e.g. a
    ``TENPAI_TABLE_STORE`` of the test's own)."""
    port = _free_port()
    log_path = log_dir / "uvicorn.log"
    env = {key: value for key, value in os.environ.items() if not key.startswith("TENPAI_")}
    # Tables of its own, never the working directory's default file other servers share.
    env["TENPAI_TABLE_STORE"] = f"sqlite:///{log_dir}/tables.sqlite3"
    env.update(settings or {})
    with log_path.open("wb") as log:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "app.main:app",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while True:
            assert server.poll() is None, log_path.read_text(errors="replace")
            try:
                if httpx.get(f"{url}/ready", timeout=2, trust_env=False).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "uvicorn did not become ready"
            time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def headless_chrome(tmp_path: Path, window: str) -> webdriver.Chrome:
    """Debian's Chromium, headless, logging network events, in a fresh profile."""
    if CHROMIUM is None or CHROMEDRIVER is None:
        pytest.fail("CI=true and headless Chromium is not installed (apt-get install -y chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})  # the network events
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--no-proxy-server",  # the service is on loopback; never route through a proxy
        f"--window-size={window}",
        f"--user-data-dir={tmp_path / 'profile'}",
    ):
        options.add_argument(flag)
    # An explicit driver path, so that selenium never tries to download one.
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(PAGE_TIMEOUT_SECONDS)
    return driver
