"""Hold a stated rate of POST /shanten for a while, with zero errors, and report latency and RSS.

    .venv/bin/python scripts/load.py                       # 1000 requests/s for 60 s
    .venv/bin/python scripts/load.py --rate 1500 --seconds 30 --workers 2

Starts ``python -m app.main`` on a free 127.0.0.1 port (as the image runs it: JSON
logs with one access line per request, written to a temporary file), waits for
/ready, then runs ``wrk`` (the Debian package) for ``--seconds`` with a Lua script
that paces every thread to its share of ``--rate`` on the monotonic clock (LuaJIT's
FFI), cycling through ``--distinct`` random 13- and 14-tile hands, far more than the
result cache holds, so nearly every request is computed. wrk's latency runs from
sending a request to its answer; it does not count time a request waited behind a
late one. The server's RSS (all its processes) is sampled every second. The run
fails (exit 1) on any error (connect, read, write, timeout, non-2xx), on a
request count the server's own /metrics does not confirm, or below 95% of the rate.

Only 127.0.0.1 is ever contacted, and everything stops by itself: wrk after
``--seconds``, the server when the script ends.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

import httpx

ROOT: Final = Path(__file__).resolve().parent.parent
HOST: Final = "127.0.0.1"
WALL: Final = 136
SUITS: Final = "mpsz"
READY_TIMEOUT_S: Final = 60.0
STOP_TIMEOUT_S: Final = 30.0
MIN_RATE_SHARE: Final = 0.95

# Every thread sends at its own steady pace: slot after slot, `interval` ms apart, on
# the monotonic clock; a connection that comes back waits for the next free slot.
LUA: Final = """\
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_nsec; } load_timespec;
int clock_gettime(int clock_id, load_timespec *tp);
]]
local clock = ffi.new("load_timespec")
local function now_ms()
  ffi.C.clock_gettime(1, clock)  -- CLOCK_MONOTONIC
  return tonumber(clock.tv_sec) * 1000 + tonumber(clock.tv_nsec) / 1e6
end

local threads = {}
local thread_count = %(threads)d
local next_id = 0
function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end

local requests = {}
local position = 1
local interval = 1000.0 * thread_count / %(rate)f
local next_slot = nil
local non_2xx = 0

function init(args)
  for line in io.lines(%(bodies)s) do
    requests[#requests + 1] = wrk.format("POST", "/shanten", {["Content-Type"] = "application/json"}, line)
  end
  position = 1 + math.floor(#requests * id / thread_count)
end

function request()
  local r = requests[position]
  position = position %% #requests + 1
  return r
end

function delay()
  local now = now_ms()
  if next_slot == nil or next_slot < now - 1000 then
    next_slot = now  -- start, or more than a second behind: do not burst to catch up
  end
  local wait = next_slot - now
  next_slot = next_slot + interval
  if wait < 0 then return 0 end
  return wait
end

function response(status, headers, body)
  if status < 200 or status > 299 then non_2xx = non_2xx + 1 end
end

function done(summary, latency, requests)
  local p = {}
  for _, q in ipairs({50, 90, 99, 99.9}) do p[tostring(q)] = latency:percentile(q) end
  io.write("LOAD_RESULT ", string.format(
    '{"requests": %%d, "duration_us": %%d, "errors": {"connect": %%d, "read": %%d, "write": %%d, "status": %%d, "timeout": %%d}, ' ..
    '"latency_us": {"p50": %%d, "p90": %%d, "p99": %%d, "p99.9": %%d, "max": %%d, "mean": %%.1f}}\\n',
    summary.requests, summary.duration, summary.errors.connect, summary.errors.read, summary.errors.write,
    summary.errors.status, summary.errors.timeout,
    p["50"], p["90"], p["99"], p["99.9"], latency.max, latency.mean))
end
"""


def random_hand(rng: random.Random, size: int) -> str:
    """mpsz text of ``size`` tiles drawn from a shuffled 136-tile wall."""
    counts = [0] * 34
    for tile in rng.sample(range(WALL), size):
        counts[tile // 4] += 1
    groups = []
    for index, suit in enumerate(SUITS):
        ranks = 7 if suit == "z" else 9
        digits = "".join(str(rank + 1) * counts[9 * index + rank] for rank in range(ranks))
        if digits:
            groups.append(digits + suit)
    return "".join(groups)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def process_tree_rss_mib(pid: int) -> float:
    """VmRSS of ``pid`` and its descendants (uvicorn's workers), in MiB."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    total_kib, stack = 0, [pid]
    while stack:
        current = stack.pop()
        stack.extend(children.get(current, []))
        try:
            for line in Path(f"/proc/{current}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total_kib += int(line.split()[1])
        except OSError:
            pass
    return total_kib / 1024


@contextmanager
def server(env: dict[str, str], log_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``python -m app.main`` on a free loopback port, ready; stopped with SIGTERM afterwards."""
    port = free_port()
    full_env = {key: value for key, value in os.environ.items() if not key.startswith("TENPAI_")}
    full_env.update(env, TENPAI_HOST=HOST, TENPAI_PORT=str(port))
    with log_path.open("wb") as log:
        process = subprocess.Popen([sys.executable, "-m", "app.main"], cwd=ROOT, env=full_env, stderr=log, stdout=log)
    base = f"http://{HOST}:{port}"
    try:
        deadline = time.monotonic() + READY_TIMEOUT_S
        while True:
            if process.poll() is not None:
                raise SystemExit(f"the server exited; see {log_path}")
            try:
                if httpx.get(f"{base}/ready", timeout=2, trust_env=False).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server did not get ready")
            time.sleep(0.1)
        yield process, base
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def shanten_200s(base: str) -> float:
    """The server's own count of answered POST /shanten with status 200."""
    text = httpx.get(f"{base}/metrics", timeout=10, trust_env=False).text
    wanted = 'tenpai_http_requests_total{method="POST",route="/shanten",status="200"}'
    for line in text.splitlines():
        if line.startswith(wanted):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=1000.0, help="requests per second to hold (default 1000)")
    parser.add_argument("--seconds", type=int, default=60, help="how long to hold it (default 60)")
    parser.add_argument("--connections", type=int, default=32, help="wrk connections (default 32)")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads (default 2)")
    parser.add_argument("--distinct", type=int, default=50_000, help="distinct hands cycled (default 50000)")
    parser.add_argument("--workers", type=int, default=1, help="TENPAI_WORKERS of the server (default 1)")
    parser.add_argument("--no-access-log", action="store_true", help="TENPAI_ACCESS_LOG=false")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    wrk = shutil.which("wrk")
    if wrk is None:
        raise SystemExit("wrk is not installed (apt-get install -y wrk)")
    if args.rate <= 0 or args.seconds <= 0 or args.connections < args.threads:
        raise SystemExit("--rate and --seconds must be positive, --connections at least --threads")

    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="tenpai-load-") as tmp:
        work = Path(tmp)
        bodies = work / "bodies.jsonl"
        bodies.write_text(
            "".join(
                json.dumps({"hand": random_hand(rng, 13 + i % 2)}, separators=(",", ":")) + "\n"
                for i in range(args.distinct)
            )
        )
        script = work / "pace.lua"
        script.write_text(LUA % {"threads": args.threads, "rate": args.rate, "bodies": json.dumps(str(bodies))})
        env = {"TENPAI_WORKERS": str(args.workers), "TENPAI_ACCESS_LOG": str(not args.no_access_log).lower()}
        log_path = work / "server.log"
        with server(env, log_path) as (process, base):
            rss: list[tuple[float, float]] = [(0.0, process_tree_rss_mib(process.pid))]
            stop = threading.Event()
            started = time.monotonic()

            def sample() -> None:
                while not stop.wait(1.0):
                    rss.append((time.monotonic() - started, process_tree_rss_mib(process.pid)))

            sampler = threading.Thread(target=sample, daemon=True)
            before = shanten_200s(base)
            sampler.start()
            command = [
                wrk,
                f"-t{args.threads}",
                f"-c{args.connections}",
                f"-d{args.seconds}s",
                "--timeout",
                "5s",
                "-s",
                str(script),
                f"{base}/shanten",
            ]
            print("$ " + " ".join(command), file=sys.stderr)
            run = subprocess.run(command, capture_output=True, text=True, timeout=args.seconds + 60)
            stop.set()
            sampler.join()
            counted = shanten_200s(base) - before
            log_lines = sum(1 for _ in log_path.open("rb"))
        output = run.stdout
        if run.returncode != 0 or "LOAD_RESULT " not in output:
            print(output, run.stderr, file=sys.stderr)
            raise SystemExit("wrk failed")
        result: dict[str, Any] = json.loads(output.split("LOAD_RESULT ", 1)[1].splitlines()[0])

    seconds = result["duration_us"] / 1e6
    achieved = result["requests"] / seconds
    errors = sum(result["errors"].values())
    latency = result["latency_us"]
    rss_values = [value for _, value in rss]
    report = {
        "target_rate": args.rate,
        "achieved_rate": round(achieved, 1),
        "seconds": round(seconds, 1),
        "requests": result["requests"],
        "server_counted": int(counted),
        "errors": result["errors"],
        "latency_ms": {key: round(value / 1000, 2) for key, value in latency.items()},
        "rss_mib": {
            "start": round(rss_values[0], 1),
            "max": round(max(rss_values), 1),
            "end": round(rss_values[-1], 1),
        },
        "workers": args.workers,
        "connections": args.connections,
        "threads": args.threads,
        "distinct_hands": args.distinct,
        "access_log": not args.no_access_log,
        "server_log_lines": log_lines,
        "cpus": os.cpu_count(),
        "load_average_after": os.getloadavg(),
    }
    print(
        f"POST /shanten at {args.rate:.0f} req/s for {args.seconds} s ({args.connections} connections, "
        f"{args.threads} wrk threads, {args.distinct} distinct hands, {args.workers} worker(s), "
        f"access log {'on' if report['access_log'] else 'off'})\n"
        f"achieved {achieved:.0f} req/s: {result['requests']} requests, server counted {int(counted)}, "
        f"errors {errors} {result['errors']}\n"
        f"latency ms: p50 {latency['p50'] / 1000:.2f}  p90 {latency['p90'] / 1000:.2f}  "
        f"p99 {latency['p99'] / 1000:.2f}  p99.9 {latency['p99.9'] / 1000:.2f}  max {latency['max'] / 1000:.2f}\n"
        f"server RSS MiB: start {rss_values[0]:.0f}, max {max(rss_values):.0f}, end {rss_values[-1]:.0f}; "
        f"load average after {os.getloadavg()[0]:.2f}"
    )
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    # The server may also have answered requests wrk was still waiting for when it stopped.
    confirmed = 0 <= int(counted) - result["requests"] <= args.connections
    failed = errors > 0 or not confirmed or achieved < MIN_RATE_SHARE * args.rate
    if failed:
        print("FAILED: errors, an unconfirmed count, or the rate was not held", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
