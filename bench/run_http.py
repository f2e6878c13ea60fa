"""Time the HTTP service: /shanten under load against a bare FastAPI echo, and /shanten/batch against mahjong 2.1.0.

Run from the repository root, in the bench environment (see bench/README.md)::

    bench/.venv/bin/python bench/run_http.py [--seconds S] [--connections C] [--hands N] [--json out.json]

Every server is a subprocess of this script on a free 127.0.0.1 port, started
with the same uvicorn flags (one worker, the same event loop and HTTP parser,
log level warning, no access log) and stopped when its part is done; the
client treats it as a black box and knows only the public endpoints.

1. Load: ``wrk`` with a generated Lua script that cycles through pre-written
   request bodies (random hands from a seeded 136-tile wall) for a fixed time,
   against ``bench/echo_app.py`` (a route that validates the same body and returns
   it) and against the service: ``/shanten`` (13 and 14 tiles mixed) with far more
   distinct hands than the result cache holds, then likewise ``/shanten`` with
   13-tile hands (answers with ukeire), ``/win`` with 14 and ``/ting`` with 13, and
   last ``/shanten`` with a few hands repeated (warm cache).
   wrk's ``done`` hook prints the exact latency percentiles.
2. Batch: ``--hands`` hands sent to ``/shanten/batch`` in requests of
   ``--batch-size`` (the service's default cap, 1000), one after another on one
   connection, timed client-side from sending the first pre-encoded body to the
   last byte of the last answer, best of ``--repeat``: 14-tile hands, 13-tile
   hands with their ukeire, and 13-tile hands with ``"ukeire": false``; against
   ``Shanten.calculate_shanten`` in this process on the same hands, with and
   without parsing the mpsz text.  Every shanten the server returns is checked
   against mahjong's.

Progress goes to stderr and the report to stdout.
"""

from __future__ import annotations

import argparse
import gc
import http.client
import json
import os
import platform
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from importlib.metadata import version
from importlib.util import find_spec
from pathlib import Path
from typing import Any, Final

from mahjong.shanten import Shanten
from timing import cpu_model, timed_pass_ns

HOST: Final = "127.0.0.1"
REPO: Final = Path(__file__).resolve().parent.parent
BENCH_DIR: Final = Path(__file__).resolve().parent

WALL_SIZE: Final = 136
COPIES: Final = 4
NUM_TILE_KINDS: Final = 34
SUITS: Final = "mpsz"  # 9 kinds each for m, p, s; 7 for z
HONOURS: Final = 7

READY_TIMEOUT_S: Final = 60.0
STOP_TIMEOUT_S: Final = 10.0
REQUEST_TIMEOUT_S: Final = 120.0
WRK_TIMEOUT: Final = "5s"  # a request slower than this counts as a wrk timeout error
WRK_GRACE_S: Final = 30.0  # wrk is killed if it runs this much longer than asked
WARMUP_REQUESTS: Final = 200
WARMUP_BATCH: Final = 100
MAX_PRINTED_MISMATCHES: Final = 5
BATCH_BODY_LIMIT: Final = 16_777_216  # TENPAI_MAX_BODY_BYTES of the batch server

UVICORN_LOG_LEVEL: Final = "warning"
LOOP: Final = "uvloop" if find_spec("uvloop") else "asyncio"
HTTP_PARSER: Final = "httptools" if find_spec("httptools") else "h11"

# --- hands and their text --------------------------------------------------------


def random_counts(rng: random.Random, size: int) -> list[int]:
    """34 counts of ``size`` tiles drawn from a freshly shuffled 136-tile wall."""
    counts = [0] * NUM_TILE_KINDS
    for tile_id in rng.sample(range(WALL_SIZE), size):
        counts[tile_id // COPIES] += 1
    return counts


def format_mpsz(counts: Sequence[int]) -> str:
    """mpsz text of 34 counts.

    >>> format_mpsz([1, 1, 1] + [0] * 24 + [2, 0, 0, 0, 0, 0, 1])
    '123m117z'
    """
    text = []
    for suit_index, suit in enumerate(SUITS):
        first = 9 * suit_index
        kinds = HONOURS if suit == "z" else 9
        digits = "".join(str(rank + 1) * counts[first + rank] for rank in range(kinds))
        if digits:
            text.append(digits + suit)
    return "".join(text)


def parse_mpsz(text: str) -> list[int]:
    """34 counts of plain mpsz text (digits 1-9, 0 as a red five; no spaces): mahjong's input.

    >>> parse_mpsz("123m117z") == [1, 1, 1] + [0] * 24 + [2, 0, 0, 0, 0, 0, 1]
    True
    """
    counts = [0] * NUM_TILE_KINDS
    pending: list[int] = []
    for char in text:
        if char.isdigit():
            pending.append(int(char) or 5)
        else:
            first = 9 * SUITS.index(char)
            for rank in pending:
                counts[first + rank - 1] += 1
            pending.clear()
    return counts


def shanten_body(hand: str) -> str:
    """One /shanten request body, on one line."""
    return json.dumps({"hand": hand, "rules": "riichi"}, separators=(",", ":"))


def random_hands(rng: random.Random, count: int, sizes: Sequence[int]) -> list[str]:
    """``count`` hands as mpsz text, their sizes taken in turn from ``sizes``."""
    return [format_mpsz(random_counts(rng, sizes[i % len(sizes)])) for i in range(count)]


# --- servers -------------------------------------------------------------------


@dataclass(frozen=True)
class ServerSpec:
    """An ASGI app to serve, the environment it gets, and how to tell it is ready."""

    name: str
    app: str  # uvicorn import string
    app_dir: Path
    env: dict[str, str]
    ready_method: str
    ready_path: str
    ready_body: bytes | None = None


def uvicorn_flags(port: int) -> list[str]:
    """The flags every server gets: only the port differs between them."""
    return [
        "--host",
        HOST,
        "--port",
        str(port),
        "--workers",
        "1",
        "--loop",
        LOOP,
        "--http",
        HTTP_PARSER,
        "--log-level",
        UVICORN_LOG_LEVEL,
        "--no-access-log",
    ]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def clean_environment(extra: dict[str, str]) -> dict[str, str]:
    """This process's environment without inherited TENPAI_* settings, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TENPAI_")}
    env.update(extra)
    return env


class Server:
    """A running uvicorn subprocess and a keep-alive connection to it."""

    def __init__(self, spec: ServerSpec, process: subprocess.Popen[bytes], port: int, log: Path) -> None:
        self.spec = spec
        self.process = process
        self.port = port
        self.log = log
        self.connection = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT_S)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def request(self, method: str, path: str, body: bytes | None = None) -> tuple[int, bytes]:
        """Status and body of one request; reconnects once if the server closed an idle connection."""
        headers = {"Content-Type": "application/json"} if body is not None else {}
        for attempt in (1, 2):
            try:
                self.connection.request(method, path, body=body, headers=headers)
                response = self.connection.getresponse()
                return response.status, response.read()
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.connection.close()  # uvicorn drops keep-alive connections idle for 5 s
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def reconnect(self) -> None:
        """A fresh connection, so that a timed request pays no reconnect."""
        self.connection.close()
        self.connection.connect()

    def json(self, method: str, path: str, body: bytes | None = None) -> Any:
        status, payload = self.request(method, path, body)
        if status != 200:
            raise RuntimeError(f"{self.spec.name}: {method} {path} answered {status}: {payload[:300]!r}")
        return json.loads(payload)

    def memory_kb(self) -> dict[str, int]:
        """VmRSS (now) and VmHWM (peak) of the server process, in kB."""
        found = {}
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0])
        return found

    def log_tail(self, lines: int = 20) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    def wait_ready(self) -> float:
        """Seconds until the ready probe answers 200; raises if the process dies or time runs out."""
        started = time.perf_counter()
        deadline = started + READY_TIMEOUT_S
        while time.perf_counter() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.spec.name} exited with {self.process.returncode}:\n{self.log_tail()}")
            try:
                status, _ = self.request(self.spec.ready_method, self.spec.ready_path, self.spec.ready_body)
                if status == 200:
                    return time.perf_counter() - started
            except (ConnectionError, http.client.HTTPException, OSError):
                self.connection.close()
            time.sleep(0.1)
        raise RuntimeError(f"{self.spec.name} not ready after {READY_TIMEOUT_S:.0f} s:\n{self.log_tail()}")

    def stop(self) -> None:
        self.connection.close()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # uvicorn's graceful shutdown
            try:
                self.process.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(STOP_TIMEOUT_S)


@contextmanager
def serving(spec: ServerSpec, workdir: Path) -> Iterator[Server]:
    """Start ``spec`` on a free port, wait until it is ready, and stop it afterwards."""
    port = free_port()
    log = workdir / f"{spec.name}.log"
    command = [sys.executable, "-m", "uvicorn", spec.app, "--app-dir", str(spec.app_dir), *uvicorn_flags(port)]
    with log.open("wb") as sink:
        process = subprocess.Popen(command, cwd=REPO, env=spec.env, stdout=sink, stderr=subprocess.STDOUT)
    server = Server(spec, process, port, log)
    try:
        seconds = server.wait_ready()
        print(f"  {spec.name} ready on port {port} after {seconds:.1f} s (pid {process.pid})", file=sys.stderr)
        yield server
    finally:
        server.stop()


def echo_spec(probe: bytes) -> ServerSpec:
    return ServerSpec("echo", "echo_app:app", BENCH_DIR, clean_environment({}), "POST", "/shanten", probe)


def tenpai_spec(name: str, **settings: str) -> ServerSpec:
    env = clean_environment({"TENPAI_LOG_LEVEL": UVICORN_LOG_LEVEL, **settings})
    return ServerSpec(name, "app.main:app", REPO, env, "GET", "/ready")


# --- load with wrk -------------------------------------------------------------

# Each wrk thread reads the bodies, formats every request once, and cycles through
# them from its own starting point; ``done`` prints the exact percentiles as JSON.
LUA_TEMPLATE: Final = """\
local bodies_path = {bodies_path}
local path = {path}
local thread_count = {threads}
local created = 0
local prepared = {{}}
local position = 1

function setup(thread)
  thread:set("thread_index", created)
  created = created + 1
end

function init(args)
  local headers = {{["Content-Type"] = "application/json"}}
  for line in io.lines(bodies_path) do
    prepared[#prepared + 1] = wrk.format("POST", path, headers, line)
  end
  position = math.floor(thread_index * #prepared / thread_count) % #prepared + 1
end

function request()
  local next_request = prepared[position]
  position = position % #prepared + 1
  return next_request
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'wrk-result {{"requests": %.0f, "duration_us": %.0f, "bytes": %.0f, "mean_us": %.1f, ' ..
    '"p50_us": %.0f, "p90_us": %.0f, "p99_us": %.0f, "max_us": %.0f, "connect_errors": %.0f, ' ..
    '"read_errors": %.0f, "write_errors": %.0f, "status_errors": %.0f, "timeouts": %.0f}}\\n',
    summary.requests, summary.duration, summary.bytes, latency.mean,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    e.connect, e.read, e.write, e.status, e.timeout))
end
"""


def lua_string(text: str) -> str:
    """A Lua string literal of ASCII ``text`` (JSON's escapes of ASCII are valid Lua)."""
    if not text.isascii():
        raise ValueError(f"not ASCII: {text!r}")
    return json.dumps(text)


@dataclass
class LoadRun:
    target: str
    bodies: int  # distinct request bodies cycled
    requests: int
    seconds: float
    requests_per_second: float
    p50_ms: float
    p90_ms: float
    p99_ms: float
    max_ms: float
    errors: dict[str, int]
    cache: dict[str, int] | None = None  # hits and misses during the run, and size after
    memory_kb: dict[str, int] = field(default_factory=dict)


def run_wrk(
    server: Server, target: str, bodies: Sequence[str], args: argparse.Namespace, workdir: Path, path: str = "/shanten"
) -> tuple[LoadRun, str]:
    """``args.seconds`` of wrk against ``server``'s ``path``, cycling through ``bodies``."""
    bodies_file = workdir / f"{target}.bodies"
    bodies_file.write_text("".join(body + "\n" for body in bodies))
    script = workdir / f"{target}.lua"
    script.write_text(
        LUA_TEMPLATE.format(bodies_path=lua_string(str(bodies_file)), path=lua_string(path), threads=args.threads)
    )
    command = [
        "wrk",
        "-t",
        str(args.threads),
        "-c",
        str(args.connections),
        "-d",
        f"{args.seconds}s",
        "--timeout",
        WRK_TIMEOUT,
        "-s",
        str(script),
        f"{server.url}/shanten",
    ]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=args.seconds + WRK_GRACE_S, check=False)
    line = next((text for text in finished.stdout.splitlines() if text.startswith("wrk-result ")), None)
    if finished.returncode != 0 or line is None:
        raise RuntimeError(f"wrk failed ({finished.returncode}):\n{finished.stdout}\n{finished.stderr}")
    result = json.loads(line.removeprefix("wrk-result "))
    seconds = result["duration_us"] / 1e6
    errors = {k: int(v) for k, v in result.items() if k.endswith("_errors") or k == "timeouts"}
    run = LoadRun(
        target=target,
        bodies=len(bodies),
        requests=int(result["requests"]),
        seconds=seconds,
        requests_per_second=result["requests"] / seconds,
        p50_ms=result["p50_us"] / 1000,
        p90_ms=result["p90_us"] / 1000,
        p99_ms=result["p99_us"] / 1000,
        max_ms=result["max_us"] / 1000,
        errors=errors,
    )
    print(
        f"  {target:<28} {run.requests_per_second:9.0f} req/s  p50 {run.p50_ms:6.2f} ms  p99 {run.p99_ms:6.2f} ms",
        file=sys.stderr,
        flush=True,
    )
    return run, finished.stdout


def warm_up(server: Server, bodies: Sequence[str], count: int, path: str = "/shanten") -> None:
    """``count`` sequential requests (cycling ``bodies``), each of which must answer 200."""
    for index in range(count):
        status, payload = server.request("POST", path, bodies[index % len(bodies)].encode())
        if status != 200:
            raise RuntimeError(f"{server.spec.name}: warm-up answered {status}: {payload[:300]!r}")


def cache_stats(server: Server) -> dict[str, int]:
    return server.json("GET", "/cache/stats")


def cache_delta(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {
        "hits": after["hits"] - before["hits"],
        "misses": after["misses"] - before["misses"],
        "size": after["size"],
        "max_size": after["max_size"],
    }


def load_section(args: argparse.Namespace, workdir: Path) -> tuple[list[LoadRun], dict[str, str]]:
    rng = random.Random(args.seed)
    distinct = [shanten_body(h) for h in random_hands(rng, args.distinct, (13, 14))]
    warm = [shanten_body(h) for h in random_hands(rng, args.warm_hands, (13, 14))]
    runs = []
    raw: dict[str, str] = {}

    with serving(echo_spec(distinct[0].encode()), workdir) as echo:
        warm_up(echo, distinct, WARMUP_REQUESTS)
        run, raw["echo"] = run_wrk(echo, "echo", distinct, args, workdir)
        run.memory_kb = echo.memory_kb()
        runs.append(run)

    with serving(tenpai_spec("tenpai"), workdir) as tenpai:
        max_size = cache_stats(tenpai)["max_size"]
        if args.distinct < 4 * max_size:
            print(f"  warning: {args.distinct} distinct bodies for a cache of {max_size}", file=sys.stderr)
        warm_up(tenpai, warm, WARMUP_REQUESTS)
        tenpai.json("POST", "/cache/clear")
        before = cache_stats(tenpai)
        run, raw["shanten distinct"] = run_wrk(tenpai, "/shanten, distinct hands", distinct, args, workdir)
        run.cache = cache_delta(before, cache_stats(tenpai))
        run.memory_kb = tenpai.memory_kb()
        runs.append(run)

        for path, tiles in (("/shanten", 13), ("/win", 14), ("/ting", 13)):
            bodies = [shanten_body(h) for h in random_hands(rng, args.distinct, (tiles,))]
            target = f"{path}, {tiles}-tile hands"
            warm_up(tenpai, bodies, WARMUP_REQUESTS, path)
            tenpai.json("POST", "/cache/clear")
            before = cache_stats(tenpai)
            run, raw[target] = run_wrk(tenpai, target, bodies, args, workdir, path)
            run.cache = cache_delta(before, cache_stats(tenpai))
            run.memory_kb = tenpai.memory_kb()
            runs.append(run)

        tenpai.json("POST", "/cache/clear")
        warm_up(tenpai, warm, len(warm))  # every warm hand cached before the run
        before = cache_stats(tenpai)
        run, raw["shanten warm"] = run_wrk(tenpai, "/shanten, warm cache", warm, args, workdir)
        run.cache = cache_delta(before, cache_stats(tenpai))
        run.memory_kb = tenpai.memory_kb()
        runs.append(run)
    return runs, raw


# --- one big batch against mahjong in-process ----------------------------------


@dataclass
class BatchRow:
    tiles: int
    ukeire: bool  # asked with ukeire (13 tiles; a 14-tile answer has none)
    batch_size: int  # hands per request
    hands: int
    request_bytes: int
    response_bytes: int
    ours_best_us: float  # per hand, HTTP wall time
    ours_median_us: float
    mahjong_best_us: float  # per hand, calculate_shanten on ready 34-lists
    mahjong_median_us: float
    mahjong_parse_best_us: float  # per hand, parse_mpsz then calculate_shanten
    mahjong_parse_median_us: float
    passes_ns: dict[str, list[int]]
    agree: int
    differs: list[str]
    memory_kb: dict[str, int] = field(default_factory=dict)
    note: str = ""


def timed_requests_ns(server: Server, path: str, bodies: Sequence[bytes]) -> tuple[int, list[bytes]]:
    """Wall time from sending the first encoded body to the last byte of the last 200 answer,
    the requests one after another on one connection."""
    server.reconnect()
    payloads = []
    start = time.perf_counter_ns()
    for body in bodies:
        status, payload = server.request("POST", path, body)
        if status != 200:
            raise RuntimeError(f"{server.spec.name}: POST {path} answered {status}: {payload[:300]!r}")
        payloads.append(payload)
    return time.perf_counter_ns() - start, payloads


def mahjong_of_text(hand: str) -> int:
    return Shanten.calculate_shanten(parse_mpsz(hand))


def batch_row(server: Server, rng: random.Random, tiles: int, ukeire: bool, args: argparse.Namespace) -> BatchRow:
    hands = random_hands(rng, args.hands, (tiles,))
    tiles_34 = [parse_mpsz(h) for h in hands]
    size = args.batch_size
    extra = {} if ukeire else {"ukeire": False}
    bodies = [
        json.dumps({"hands": hands[at : at + size], "rules": "riichi", **extra}, separators=(",", ":")).encode()
        for at in range(0, len(hands), size)
    ]
    if max(map(len, bodies)) > BATCH_BODY_LIMIT:
        raise RuntimeError(f"a batch body is over the server's limit {BATCH_BODY_LIMIT}")

    warm = json.dumps({"hands": hands[:WARMUP_BATCH], "rules": "riichi", **extra}).encode()
    timed_requests_ns(server, "/shanten/batch", [warm])
    for t in tiles_34[:WARMUP_BATCH]:
        Shanten.calculate_shanten(t)

    passes: dict[str, list[int]] = {"ours": [], "mahjong": [], "mahjong_parse": []}
    payloads: list[bytes] = []
    for _ in range(args.repeat):  # interleaved, so a busy moment hits all three
        gc.disable()
        try:
            elapsed, payloads = timed_requests_ns(server, "/shanten/batch", bodies)
        finally:
            gc.enable()
        passes["ours"].append(elapsed)
        passes["mahjong"].append(timed_pass_ns(Shanten.calculate_shanten, tiles_34))
        passes["mahjong_parse"].append(timed_pass_ns(mahjong_of_text, hands))

    results = [result for payload in payloads for result in json.loads(payload)["results"]]
    if len(results) != len(hands):
        raise RuntimeError(f"/shanten/batch answered {len(results)} results for {len(hands)} hands")
    ours = [r["shanten"] for r in results]
    theirs = [Shanten.calculate_shanten(t) for t in tiles_34]
    agree = sum(a == b for a, b in zip(ours, theirs, strict=True))
    differs = [f"{h}: ours={a}, mahjong={b}" for h, a, b in zip(hands, ours, theirs, strict=True) if a != b][
        :MAX_PRINTED_MISMATCHES
    ]

    def per_hand(key: str) -> tuple[float, float]:
        return min(passes[key]) / len(hands) / 1000, statistics.median(passes[key]) / len(hands) / 1000

    row = BatchRow(
        tiles,
        ukeire,
        size,
        len(hands),
        sum(map(len, bodies)),
        sum(map(len, payloads)),
        *per_hand("ours"),
        *per_hand("mahjong"),
        *per_hand("mahjong_parse"),
        passes,
        agree,
        differs,
        server.memory_kb(),
        note="ours includes ukeire; mahjong's call does not" if tiles % 3 == 1 and ukeire else "",
    )
    print(
        f"  batch, {tiles} tiles{'' if ukeire else ', no ukeire'}: ours {row.ours_best_us:.3f} µs/hand, mahjong {row.mahjong_best_us:.3f}, "
        f"mahjong + parse {row.mahjong_parse_best_us:.3f}",
        file=sys.stderr,
        flush=True,
    )
    return row


def batch_section(args: argparse.Namespace, workdir: Path) -> list[BatchRow]:
    spec = tenpai_spec(
        "tenpai-batch",
        TENPAI_MAX_BATCH_SIZE=str(max(args.batch_size, 1000)),
        TENPAI_MAX_BODY_BYTES=str(BATCH_BODY_LIMIT),
        # The answer cap's estimate allows every hand its longest answer (about 1.1 KB).
        TENPAI_MAX_ANSWER_BYTES=str(2048 * max(args.batch_size, 1000)),
        TENPAI_CACHE_SIZE="0",  # every pass computes every hand
    )
    rng = random.Random(args.seed + 1)
    with serving(spec, workdir) as server:
        return [batch_row(server, rng, tiles, ukeire, args) for tiles, ukeire in ((14, True), (13, True), (13, False))]


# --- report --------------------------------------------------------------------

#: The issue's targets: req/s against the echo, per route; batch speed-up over mahjong, per row.
ECHO_RATIO: Final = {
    "/shanten, distinct hands": 0.8,
    "/shanten, 13-tile hands": 0.8,
    "/win, 14-tile hands": 0.7,
    "/ting, 13-tile hands": 0.7,
}
BATCH_SPEEDUP: Final = {14: 20.0, 13: 10.0}


def environment() -> dict[str, Any]:
    cpu = cpu_model()
    wrk = subprocess.run(["wrk", "-v"], capture_output=True, text=True, check=False, timeout=10)
    return {
        "python": f"{platform.python_version()} ({platform.python_implementation()})",
        "platform": platform.platform(),
        "cpu": cpu,
        "cpus": os.cpu_count(),
        "cpus_usable": len(os.sched_getaffinity(0)),
        "load_average_before": os.getloadavg(),
        "wrk": (wrk.stdout or wrk.stderr).split("Copyright")[0].strip(),
        "versions": {p: version(p) for p in ("fastapi", "starlette", "pydantic", "uvicorn", "mahjong")},
        "uvicorn_flags": " ".join(uvicorn_flags(0)).replace("--port 0 ", ""),
    }


def evaluate_targets(loads: list[LoadRun], batches: list[BatchRow]) -> list[dict[str, Any]]:
    by_target = {run.target: run for run in loads}
    echo = by_target["echo"]
    verdicts = []
    for target, ratio in ECHO_RATIO.items():
        value = by_target[target].requests_per_second / echo.requests_per_second
        verdicts.append(
            {
                "target": f"{target} >= {ratio} x echo req/s",
                "value": value,
                "shown": f"{value:.2f}x",
                "met": value >= ratio,
            }
        )
    for row in batches:
        speedup = BATCH_SPEEDUP[row.tiles]
        asked = "" if row.tiles == 14 else (", with ukeire" if row.ukeire else ", ukeire: false")
        for peer, label in (("mahjong_parse", "mahjong + parse"), ("mahjong", "mahjong, lists ready")):
            value = getattr(row, f"{peer}_best_us") / row.ours_best_us
            verdicts.append(
                {
                    "target": f"batch {row.tiles} tiles{asked} >= {speedup:.0f}x faster than {label}",
                    "value": value,
                    "shown": f"{value:.1f}x",
                    "met": value >= speedup,
                }
            )
    return verdicts


def _mib(kb: int | None) -> str:
    return "-" if kb is None else f"{kb / 1024:.0f}"


def print_report(
    env: dict[str, Any],
    args: argparse.Namespace,
    loads: list[LoadRun],
    batches: list[BatchRow],
    verdicts: list[dict[str, Any]],
) -> None:
    load = env["load_average_before"]
    print(f"python {env['python']}, {env['platform']}")
    print(
        f"{env['cpu']}, {env['cpus']} cpus ({env['cpus_usable']} usable), "
        f"load average before {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    print(", ".join(f"{k} {v}" for k, v in env["versions"].items()) + f"; {env['wrk']}")
    print(f"every server: uvicorn {env['uvicorn_flags']}")
    print()
    print(
        f"load: wrk, {args.threads} threads, {args.connections} connections, {args.seconds} s per target; "
        'bodies {"hand": mpsz, "rules": "riichi"}, 13 and 14 tiles'
    )
    header = (
        f"{'target':<26} {'bodies':>7} {'requests':>9} {'req/s':>8} {'x echo':>7} {'p50 ms':>7} "
        f"{'p90 ms':>7} {'p99 ms':>7} {'cache hits':>10} {'RSS MiB':>7} {'errors':>6}"
    )
    print(header)
    print("-" * len(header))
    echo_rps = loads[0].requests_per_second
    for run in loads:
        hits = "-"
        if run.cache is not None:
            asked = run.cache["hits"] + run.cache["misses"]
            hits = f"{100 * run.cache['hits'] / asked:.1f}%" if asked else "-"
        print(
            f"{run.target:<26} {run.bodies:>7} {run.requests:>9} {run.requests_per_second:>8.0f} "
            f"{run.requests_per_second / echo_rps:>7.2f} {run.p50_ms:>7.2f} {run.p90_ms:>7.2f} "
            f"{run.p99_ms:>7.2f} {hits:>10} {_mib(run.memory_kb.get('VmRSS')):>7} {sum(run.errors.values()):>6}"
        )
    cache = next((r.cache for r in loads if r.cache), None)
    if cache:
        print(
            f"(result cache of {cache['max_size']} answers; hits counted by the server during each run; "
            "RSS read from /proc after the run)"
        )
    print()
    print(
        f"/shanten/batch: {args.hands} hands in requests of {args.batch_size}, one after another on one connection, "
        f"server cache off, best / median of {args.repeat}; ours = client wall time of the requests "
        "(bodies pre-encoded; response JSON read, not decoded) / hands"
    )
    print("mahjong = Shanten.calculate_shanten(tiles_34) in this process; '+ parse' starts from the same mpsz text")
    header = (
        f"{'hands':<22} {'ours µs':>8} {'median':>8} {'mahjong µs':>10} {'+ parse µs':>10} "
        f"{'x mahjong':>9} {'x +parse':>8} {'resp MiB':>8} {'peak RSS':>8} {'agree':>13}"
    )
    print(header)
    print("-" * len(header))
    for row in batches:
        label = f"{row.tiles} tiles" + (" (+ukeire, ours)" if row.note else "" if row.tiles == 14 else ", ukeire off")
        print(
            f"{label:<22} {row.ours_best_us:>8.3f} {row.ours_median_us:>8.3f} {row.mahjong_best_us:>10.3f} "
            f"{row.mahjong_parse_best_us:>10.3f} {row.mahjong_best_us / row.ours_best_us:>9.1f} "
            f"{row.mahjong_parse_best_us / row.ours_best_us:>8.1f} {row.response_bytes / 2**20:>8.1f} "
            f"{_mib(row.memory_kb.get('VmHWM')):>8} {f'{row.agree}/{row.hands}':>13}"
        )
        for example in row.differs:
            print(f"      differs: {example}")
    if any(row.note for row in batches):
        print("13-tile answers of /shanten include the ukeire list; mahjong's calculate_shanten gives the number only")
    print()
    print("targets:")
    for v in verdicts:
        print(f"  {v['target']:<58} {v['shown']:>8}  {'MET' if v['met'] else 'MISSED'}")


# --- main ----------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=15, help="wrk duration per target (default 15)")
    parser.add_argument("--connections", type=int, default=32, help="wrk connections (default 32)")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads (default 2)")
    parser.add_argument("--hands", type=int, default=20_000, help="hands per batch row (default 20000)")
    parser.add_argument(
        "--batch-size",
        type=int,
        default=1000,
        help="hands per /shanten/batch request (default 1000, the service's cap)",
    )
    parser.add_argument(
        "--distinct",
        type=int,
        default=40_000,
        help="distinct bodies of the load runs, far more than the server's cache (default 40000)",
    )
    parser.add_argument("--warm-hands", type=int, default=64, help="hands repeated in the warm-cache run (default 64)")
    parser.add_argument("--repeat", type=int, default=5, help="timed batch passes per row (default 5)")
    parser.add_argument("--seed", type=int, default=2024, help="random seed (default 2024)")
    parser.add_argument("--json", type=Path, help="also write the results to this JSON file")
    args = parser.parse_args(argv)
    if args.threads > args.connections:
        parser.error("--threads may not exceed --connections")
    for name in ("seconds", "connections", "threads", "hands", "batch_size", "distinct", "warm_hands", "repeat"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if shutil.which("wrk") is None:
        print("wrk is missing: apt-get install -y wrk", file=sys.stderr)
        return 2
    started = time.perf_counter()
    env = environment()
    with tempfile.TemporaryDirectory(prefix="tenpai-http-bench-") as tmp:
        workdir = Path(tmp)
        print("load (progress):", file=sys.stderr)
        loads, wrk_output = load_section(args, workdir)
        print("batch (progress):", file=sys.stderr)
        batches = batch_section(args, workdir)
    env["load_average_after"] = os.getloadavg()
    verdicts = evaluate_targets(loads, batches)
    print_report(env, args, loads, batches, verdicts)
    elapsed = time.perf_counter() - started
    after = env["load_average_after"]
    print(f"\nload average after {after[0]:.2f} {after[1]:.2f} {after[2]:.2f}; wall time {elapsed:.1f} s")
    if args.json:
        payload = {
            "environment": env,
            "config": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
            "load": [asdict(r) for r in loads],
            "wrk_output": wrk_output,
            "batch": [asdict(r) for r in batches],
            "targets": verdicts,
            "wall_seconds": elapsed,
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
