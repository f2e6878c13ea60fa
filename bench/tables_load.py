"""Load on hosted tables: many tables of client seats, one thread per seat, against a bare echo.

Run from the repository root with the project's environment (it has the ``redis`` client the
service's Redis store needs)::

    .venv/bin/python bench/tables_load.py [--tables 16] [--seconds 20] [--rounds 2] [--json out.json]

Issue 35's load bar: ``--tables`` tables of four client seats each (riichi, hanchan), one client
thread per seat, doing what a seat's client does: a long poll of its view (``GET /tables/{t}?
after=V&wait=S``), and when the view lists ``legal`` actions, one of them, chosen at random
(``POST /tables/{t}/actions``); when the answer lists ``legal`` again (a riichi's discard) it acts
again at once.  Every thread keeps one keep-alive connection (``http.client``, the client of
``bench/run_http.py``).  A table that ends is replaced by a new one, opened by its seat 0.

Each round runs the service (uvicorn, one worker, default settings, ``app.main:app`` as
``run_http.py`` serves it) on a fresh SQLite file in a temporary folder, then on a fresh
``redis-server`` started here on a free port (``--appendonly yes --appendfsync everysec``, as
``docker-compose.yml`` runs it; skipped where ``redis-server`` is missing), then the bare echo
(``bench/echo_tables_app.py``) driven by the same threads replaying the request sequence each
thread sent to the SQLite service (the same methods, paths, query strings and bodies, in the
same order).  Rounds alternate so that other work on the machine weighs on every target.

Only the window after ``--warmup`` seconds is counted: the requests answered in it per second,
and per method the median and p99 latency; a GET's latency holds its long poll's wait for the
next event, so only the POST latency is the service's.  An error is any answer other than 200
(a 409 ``stale_version`` too), or a failed connection.

Progress goes to stderr and the report to stdout.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from run_http import HOST, Server, ServerSpec, clean_environment, serving, tenpai_spec
from timing import cpu_model

BENCH_DIR: Final = Path(__file__).resolve().parent
SEATS: Final = 4
#: A request slower than this is an error (a long poll answers within ``--wait`` seconds).
REQUEST_TIMEOUT_S: Final = 60.0
REDIS_START_TIMEOUT_S: Final = 15.0
#: Answers other than 200 kept whole per connection, to show in the report.
MAX_KEPT_ERRORS: Final = 3
#: The clock's decisions are long enough that no seat of a loaded table runs out of time: a
#: seat acted for by the clock would be a different load (the advisor's decisions).
CLOCK: Final = {"decision_seconds": 120, "bank_seconds": 600}


# --- the client ------------------------------------------------------------------------


@dataclass(frozen=True)
class Sent:
    """One request as a seat's thread sent it: what, and how it went."""

    method: str
    path: str
    body: bytes | None
    started: float
    ended: float
    status: int  # 0: no answer (a connection error or a timeout)


@dataclass
class Table:
    """One table of the load: its id, the seats' tokens, and the barrier its seats meet at to
    replace it when it ends."""

    table: str
    tokens: list[str]
    barrier: threading.Barrier = field(default_factory=lambda: threading.Barrier(SEATS))


class Connection:
    """A seat's keep-alive connection, with every request it sends kept as :class:`Sent`."""

    def __init__(self, port: int, token: str | None) -> None:
        self.port = port
        self.token = token
        self.connection = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT_S)
        self.sent: list[Sent] = []
        self.failed: list[str] = []  # the first few answers other than 200, for the report

    def request(self, method: str, path: str, body: bytes | None = None) -> tuple[int, bytes]:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        if body is not None:
            headers["Content-Type"] = "application/json"
        started = time.perf_counter()
        status, payload = 0, b""
        try:
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
            status, payload = response.status, response.read()
        except (OSError, http.client.HTTPException):
            self.connection.close()  # the next request connects again
        self.sent.append(Sent(method, path, body, started, time.perf_counter(), status))
        if status != 200 and len(self.failed) < MAX_KEPT_ERRORS:
            self.failed.append(f"{method} {path} -> {status}: {payload[:300].decode(errors='replace')}")
        return status, payload

    def close(self) -> None:
        self.connection.close()


def open_table(port: int, seed: str) -> Table:
    """A new table of four client seats (POST /tables, not counted in the load)."""
    body = json.dumps(
        {"rules": "riichi", "length": "hanchan", "seats": ["client"] * SEATS, "clock": CLOCK, "seed": seed}
    ).encode()
    connection = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT_S)
    try:
        connection.request("POST", "/tables", body=body, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        payload = response.read()
    finally:
        connection.close()
    if response.status != 201:
        raise RuntimeError(f"POST /tables answered {response.status}: {payload[:300]!r}")
    opened = json.loads(payload)
    return Table(opened["table"], [seat["token"] for seat in opened["seats"]])


class Seat(threading.Thread):
    """One client seat: long-polls its view and plays a random legal action whenever asked."""

    def __init__(self, port: int, slot: list[Table], seat: int, wait: float, stop: threading.Event, seed: str) -> None:
        super().__init__(name=f"seat-{seed}-{seat}", daemon=True)
        self.port = port
        self.slot = slot  # [the table in play]: seat 0 replaces it when the game ends
        self.seat = seat
        self.wait = wait
        self.stop = stop
        self.seed = seed
        self.rng = random.Random(f"{seed}/{seat}")
        self.sent: list[Sent] = []
        self.failed: list[str] = []
        self.games = 0
        self.failure: str | None = None

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                table = self.slot[0]
                self.play(table)
                if self.stop.is_set():
                    return
                self.games += 1
                table.barrier.wait()  # every seat saw the end
                if self.seat == 0:
                    self.slot[0] = open_table(self.port, f"{self.seed}/{self.games}")
                table.barrier.wait()  # the others start on the new table
        except threading.BrokenBarrierError:
            return
        except Exception as error:  # noqa: BLE001 - reported by the run, which fails
            self.failure = f"{type(error).__name__}: {error}"
            self.stop.set()

    def play(self, table: Table) -> None:
        """Until the game is over or the run stops."""
        connection = Connection(self.port, table.tokens[self.seat])
        version = 0
        try:
            while not self.stop.is_set():
                wait = self.wait if version else 0  # after a refused action: the view now
                status, payload = connection.request("GET", f"/tables/{table.table}?after={version}&wait={wait}")
                if status != 200:
                    time.sleep(0.05)  # counted as an error; read the view again
                    continue
                view = json.loads(payload)
                version = view["version"]
                while view["legal"] and view["status"] == "playing" and not self.stop.is_set():
                    action = self.rng.choice(view["legal"])
                    body = json.dumps({"version": view["version"], "action": action}).encode()
                    status, payload = connection.request("POST", f"/tables/{table.table}/actions", body)
                    if status != 200:
                        version = 0  # counted as an error; read the whole view again, at once
                        break
                    view = json.loads(payload)
                    version = view["version"]
                if view["status"] != "playing":
                    return
        finally:
            connection.close()
            self.sent.extend(connection.sent)
            self.failed.extend(connection.failed)


class Replay(threading.Thread):
    """One seat's thread replaying the requests a service seat sent, in order, cycling."""

    def __init__(self, port: int, requests: Sequence[Sent], stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.connection = Connection(port, "echo-token-" + "x" * 32)
        self.requests = requests
        self.stop = stop
        self.sent: list[Sent] = []

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                for request in self.requests:
                    if self.stop.is_set():
                        break
                    self.connection.request(request.method, request.path, request.body)
        finally:
            self.connection.close()
            self.sent = self.connection.sent


# --- measuring -------------------------------------------------------------------------


def percentile(sorted_values: Sequence[float], share: float) -> float:
    """Nearest-rank percentile of an ascending list (0 for an empty one)."""
    if not sorted_values:
        return 0.0
    rank = max(1, round(share * len(sorted_values) + 0.5))
    return sorted_values[min(rank, len(sorted_values)) - 1]


@dataclass(frozen=True)
class Window:
    """The counted part of a run, and the CPU the server and this client spent in it."""

    start: float
    end: float
    server_cpu_seconds: float
    client_cpu_seconds: float


def process_cpu_seconds(pid: int) -> float:
    """User plus system CPU time of process ``pid`` (all its threads), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def summarize(sent: Sequence[Sent], window: Window) -> dict[str, Any]:
    """The requests answered within ``window``: rate, errors, latency per method (ms), CPU per request."""
    counted = [request for request in sent if window.start <= request.ended < window.end]
    seconds = window.end - window.start
    summary: dict[str, Any] = {
        "requests": len(counted),
        "requests_per_second": round(len(counted) / seconds, 1),
        "errors": sum(request.status != 200 for request in counted),
        "statuses": dict(sorted(_count(str(request.status) for request in counted).items())),
        "server_cpu_share": round(window.server_cpu_seconds / seconds, 2),
        "server_cpu_ms_per_request": round(1000 * window.server_cpu_seconds / max(1, len(counted)), 3),
        "client_cpu_ms_per_request": round(1000 * window.client_cpu_seconds / max(1, len(counted)), 3),
    }
    for method in ("GET", "POST"):
        times = sorted(1000 * (r.ended - r.started) for r in counted if r.method == method)
        summary[method] = {
            "requests": len(times),
            "per_second": round(len(times) / seconds, 1),
            "p50_ms": round(statistics.median(times), 2) if times else 0.0,
            "p99_ms": round(percentile(times, 0.99), 2),
            "max_ms": round(times[-1], 2) if times else 0.0,
        }
    return summary


def _count(keys: Iterator[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for key in keys:
        counts[key] = counts.get(key, 0) + 1
    return counts


def run_threads(
    threads: Sequence[threading.Thread], stop: threading.Event, args: argparse.Namespace, server_pid: int
) -> Window:
    """Start ``threads``, let them run ``--warmup`` and ``--seconds``, stop them; the counted window."""
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    stop.wait(args.warmup)
    server_cpu, client_cpu = process_cpu_seconds(server_pid), time.process_time()
    start = time.perf_counter()
    stop.wait(max(0.0, began + args.warmup + args.seconds - start))
    window = Window(
        start,
        time.perf_counter(),
        process_cpu_seconds(server_pid) - server_cpu,
        time.process_time() - client_cpu,
    )
    stop.set()
    for thread in threads:
        thread.join(REQUEST_TIMEOUT_S + 5)
    return window


def load_tables(server: Server, args: argparse.Namespace, round_index: int) -> tuple[list[Seat], Window]:
    """The tables' load on a running service; its seats (with what they sent) and the window."""
    stop = threading.Event()
    seats: list[Seat] = []
    for number in range(args.tables):
        seed = f"{args.seed}/{round_index}/{number}"
        slot = [open_table(server.port, seed)]
        seats += [Seat(server.port, slot, seat, args.wait, stop, seed) for seat in range(SEATS)]
    window = run_threads(seats, stop, args, server.process.pid)
    for table in {id(seat.slot): seat.slot[0] for seat in seats}.values():
        table.barrier.abort()
    failures = [seat.failure for seat in seats if seat.failure]
    if failures:
        raise RuntimeError(f"{len(failures)} seat threads failed, the first: {failures[0]}")
    return seats, window


def load_echo(
    server: Server, patterns: Sequence[Sequence[Sent]], args: argparse.Namespace
) -> tuple[list[Replay], Window]:
    """The same threads replaying ``patterns`` (one per seat) on the echo; the threads and the window."""
    stop = threading.Event()
    threads = [Replay(server.port, pattern, stop) for pattern in patterns if pattern]
    return threads, run_threads(threads, stop, args, server.process.pid)


# --- servers ---------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def answers_ping(port: int) -> bool:
    try:
        with socket.create_connection((HOST, port), timeout=1.0) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@contextmanager
def redis_server(folder: Path) -> Iterator[str]:
    """A private ``redis-server`` on a free port, its files in ``folder``; its URL."""
    executable = shutil.which("redis-server")
    assert executable is not None
    port = free_port()
    log = folder / "redis.log"
    process = subprocess.Popen(
        [
            executable,
            "--bind",
            HOST,
            "--port",
            str(port),
            "--save",
            "",
            "--appendonly",
            "yes",
            "--appendfsync",
            "everysec",
            "--dir",
            str(folder),
            "--logfile",
            str(log),
        ],
        stdin=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + REDIS_START_TIMEOUT_S
        while not answers_ping(port):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not start:\n{log.read_text(errors='replace')[-2000:]}")
            time.sleep(0.05)
        print(f"  redis-server on port {port} (pid {process.pid})", file=sys.stderr)
        yield f"redis://{HOST}:{port}/0"
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def echo_spec() -> ServerSpec:
    return ServerSpec("echo", "echo_tables_app:app", BENCH_DIR, clean_environment({}), "GET", "/tables/t_probe?after=0")


# --- the report ------------------------------------------------------------------------


def table_rows(rounds: Sequence[dict[str, Any]]) -> str:
    """The report as a Markdown table, one row per target and round."""
    lines = [
        "| round | target | requests/s | / echo | GET/s | POST/s | POST p50 ms | POST p99 ms | GET p50 ms "
        "| GET p99 ms | errors | server CPU | server CPU ms/request |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for number, result in enumerate(rounds, 1):
        echo_rate = result["echo"]["requests_per_second"]
        for target, run in result.items():
            ratio = run["requests_per_second"] / echo_rate if echo_rate else 0.0
            lines.append(
                f"| {number} | {target} | {run['requests_per_second']:,.0f} | {ratio:.2f}x | "
                f"{run['GET']['per_second']:,.0f} | {run['POST']['per_second']:,.0f} | "
                f"{run['POST']['p50_ms']:.1f} | {run['POST']['p99_ms']:.1f} | "
                f"{run['GET']['p50_ms']:.1f} | {run['GET']['p99_ms']:.1f} | {run['errors']} | "
                f"{run['server_cpu_share']:.0%} | {run['server_cpu_ms_per_request']:.2f} |"
            )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=16, help="tables of four client seats (default 16)")
    parser.add_argument("--seconds", type=float, default=20.0, help="counted seconds per target (default 20)")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds run before counting (default 3)")
    parser.add_argument("--rounds", type=int, default=2, help="alternating rounds of every target (default 2)")
    parser.add_argument("--wait", type=float, default=10.0, help="a long poll's wait= (default 10 s)")
    parser.add_argument("--stores", default="sqlite,redis", help="service stores, comma-separated (default both)")
    parser.add_argument("--seed", default="load")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    stores = [store for store in args.stores.split(",") if store]
    if "redis" in stores and shutil.which("redis-server") is None:
        print("redis-server is missing (apt-get install -y redis-server): the Redis store is skipped", file=sys.stderr)
        stores.remove("redis")
    if not stores:
        parser.error("no store to run")
    report: dict[str, Any] = {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "python": sys.version.split()[0],
        "load_average_before": os.getloadavg(),
        "tables": args.tables,
        "threads": args.tables * SEATS,
        "seconds": args.seconds,
        "warmup": args.warmup,
        "wait": args.wait,
        "rounds": [],
    }
    with tempfile.TemporaryDirectory(prefix="tenpai-tables-load-") as tmp:
        workdir = Path(tmp)
        for round_index in range(args.rounds):
            result: dict[str, Any] = {}
            patterns: list[list[Sent]] = []
            for store in stores:
                folder = workdir / f"{round_index}-{store}"
                folder.mkdir()
                with store_url(store, folder) as url:
                    spec = tenpai_spec(f"tenpai-{store}", TENPAI_TABLE_STORE=url)
                    with serving(spec, folder) as server:
                        seats, window = load_tables(server, args, round_index)
                sent = [request for seat in seats for request in seat.sent]
                result[f"tables, {store}"] = summarize(sent, window)
                result[f"tables, {store}"]["games_finished"] = sum(seat.games for seat in seats) // SEATS
                result[f"tables, {store}"]["first_errors"] = [error for seat in seats for error in seat.failed][:5]
                print(
                    f"  round {round_index + 1} {store}: {result[f'tables, {store}']['requests_per_second']} req/s",
                    file=sys.stderr,
                )
                if not patterns:
                    patterns = [seat.sent for seat in seats]
            with serving(echo_spec(), workdir) as server:
                replays, window = load_echo(server, patterns, args)
            result["echo"] = summarize([request for replay in replays for request in replay.sent], window)
            result["echo"]["first_errors"] = [error for replay in replays for error in replay.connection.failed][:5]
            print(f"  round {round_index + 1} echo: {result['echo']['requests_per_second']} req/s", file=sys.stderr)
            report["rounds"].append(result)
    report["load_average_after"] = os.getloadavg()
    print(table_rows(report["rounds"]))
    print(json.dumps(report, indent=2))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


@contextmanager
def store_url(store: str, folder: Path) -> Iterator[str]:
    """The ``TENPAI_TABLE_STORE`` URL of a fresh store of kind ``store`` in ``folder``."""
    if store == "sqlite":
        yield f"sqlite:///{folder / 'tables.sqlite3'}"
    elif store == "redis":
        with redis_server(folder) as url:
            yield url
    else:
        raise ValueError(f"a store is sqlite or redis, not {store!r}")


if __name__ == "__main__":
    raise SystemExit(main())
