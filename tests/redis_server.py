"""A private, real ``redis-server`` for the tests that need Redis (``tests/conftest.py``'s ``redis_url``).

It listens on 127.0.0.1 at a free port and on a Unix socket in its own folder, keeps nothing on
disk (``--save ''``, ``--appendonly no``) and is stopped when the session ends.  Where
``redis-server`` is missing the tests skip, saying how to install it, except under ``CI=true``,
where they fail: a green CI run means the Redis tests ran.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis

REDIS_SERVER = shutil.which("redis-server")
IN_CI: bool = os.environ.get("CI") == "true"
START_TIMEOUT_SECONDS = 15.0
MISSING = "redis-server not found: apt-get install -y redis-server (scripts/test.sh does it when it can)"


@dataclass(frozen=True)
class RedisServer:
    """Where the private server listens."""

    port: int
    socket_path: Path

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def unix_url(self) -> str:
        return f"unix://{self.socket_path}?db=0"


def require_redis_server() -> str:
    """The path of ``redis-server``; skip the test without it (fail under ``CI=true``)."""
    if REDIS_SERVER is None:
        if IN_CI:
            pytest.fail(MISSING)
        pytest.skip(MISSING)
    return REDIS_SERVER


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _answers_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1.0) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@contextmanager
def redis_server(folder: Path) -> Iterator[RedisServer]:
    """A ``redis-server`` answering PING, its files in ``folder``; stopped on exit."""
    executable = require_redis_server()
    # A free port can be taken by another process before the server binds it: try a few.
    for _ in range(5):
        server = RedisServer(_free_port(), folder / "redis.sock")
        log_path = folder / f"redis-{server.port}.log"
        process = subprocess.Popen(
            [
                executable,
                "--bind",
                "127.0.0.1",
                "--port",
                str(server.port),
                "--unixsocket",
                str(server.socket_path),
                "--unixsocketperm",
                "700",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(folder),
                "--logfile",
                str(log_path),
            ],
            stdin=subprocess.DEVNULL,
        )
        started_at = time.monotonic()
        while process.poll() is None and time.monotonic() - started_at < START_TIMEOUT_SECONDS:
            if _answers_ping(server.port):
                break
            time.sleep(0.05)
        if process.poll() is None and _answers_ping(server.port):
            break
        process.kill()
        process.wait()
    else:
        log = log_path.read_text(errors="replace") if log_path.exists() else ""
        pytest.fail(f"redis-server did not start:\n{log[-2000:]}")
    try:
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def empty_database(url: str) -> None:
    """Delete every key of the database that ``url`` names."""
    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()
