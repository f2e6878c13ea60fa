"""Helpers of the operations tests: started in-process clients, live servers, tool look-ups."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import httpx
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
#: The container kit next to the repository; ``TENPAI_CONTAINER_KIT`` points elsewhere (a worktree's checkout).
KIT = Path(os.environ.get("TENPAI_CONTAINER_KIT") or ROOT.parent / "shared" / "container")
READY_TIMEOUT_SECONDS = 120
HAND = {"hand": "123m456p789s1122z"}


def started(settings: Settings | None = None) -> TestClient:
    """An in-process client whose app has built its tables (close it with ``__exit__``)."""
    # A loopback client, as an operator on the same host: /cache/clear needs one (or an admin key).
    client = TestClient(create_app(settings or Settings()), client=("127.0.0.1", 50000))
    client.__enter__()
    deadline = time.monotonic() + READY_TIMEOUT_SECONDS
    while client.get("/ready").status_code != 200:
        assert time.monotonic() < deadline, "tables were not built in time"
        time.sleep(0.05)
    return client


def venv_tool(name: str) -> str | None:
    """A console script installed beside this interpreter (the test extra's), or on PATH."""
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.exists() else shutil.which(name)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def clean_environment(**tenpai: str) -> dict[str, str]:
    """This process's environment without TENPAI_* and proxy variables, plus ``tenpai``; hosted
    tables in a fresh file of their own unless ``tenpai`` names a store (the default, the working
    directory's tenpai-tables.sqlite3, would be shared by every server the suite starts there, and
    one server's clock would play the bots of another's tables)."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("TENPAI_") and key.lower() not in {"http_proxy", "https_proxy", "all_proxy"}
    }
    env["TENPAI_TABLE_STORE"] = private_table_store()
    env.update(tenpai)
    return env


def private_table_store() -> str:
    """A table store URL of a new temporary SQLite file."""
    return f"sqlite:///{tempfile.mkdtemp(prefix='tenpai-test-tables-')}/tables.sqlite3"


@contextmanager
def live_server(
    env: Mapping[str, str], log_path: Path, *, script: Path | None = None
) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``python -m app.main`` (or ``python script``, serving on TENPAI_HOST and TENPAI_PORT) on a
    free 127.0.0.1 port, ready; stopped (SIGKILL at worst) on exit."""
    port = free_port()
    full_env = clean_environment(TENPAI_HOST="127.0.0.1", TENPAI_PORT=str(port), **env)
    command = [sys.executable, "-m", "app.main"] if script is None else [sys.executable, str(script)]
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, cwd=ROOT, env=full_env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + READY_TIMEOUT_SECONDS
        while True:
            assert process.poll() is None, log_path.read_text()
            try:
                if httpx.get(f"{base}/ready", timeout=2, trust_env=False).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the server did not get ready"
            time.sleep(0.1)
        yield process, base
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)
