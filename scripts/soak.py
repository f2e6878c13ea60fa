"""Soak: a million distinct hands through POST /shanten, showing that memory stays bounded.

    .venv/bin/python scripts/soak.py                          # 1,000,000 hands, cache of 4096
    .venv/bin/python scripts/soak.py --hands 200000 --cache-size 100000

Starts ``python -m app.main`` on a free 127.0.0.1 port (access log off, so the
figures are the service's own) and drives it with ``wrk`` as fast as it answers:
each wrk thread makes random 13- and 14-tile hands in Lua from its own seed (a
partial shuffle of a 136-tile wall per hand) and stops itself after its share of
``--hands`` answers. Random hands of 13 or 14 tiles almost never repeat, which the
server's cache counters confirm (hits stay near zero). Every ``--every`` seconds
the script prints the server's RSS next to its request count and cache size; the
result cache is an LRU bounded by ``TENPAI_CACHE_SIZE``, so once it is full the RSS
must stay flat. The run fails (exit 1) on any error or if the RSS grows more than
``--max-growth`` MiB between the time the cache filled and the end.

Only 127.0.0.1 is contacted; wrk is stopped after the hands (or ``--limit`` seconds).
"""

from __future__ import annotations

import argparse
import json
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Final

import httpx
from load import process_tree_rss_mib, server

LUA: Final = """\
local thread_count = %(threads)d
local per_thread = %(per_thread)d
local next_id = 0
function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
end

local wall = {}
local answered = 0
local sent = 0
local suits = {"m", "p", "s", "z"}
local headers = {["Content-Type"] = "application/json"}

function init(args)
  math.randomseed(%(seed)d + 7919 * id)
  for tile = 0, 135 do wall[tile + 1] = tile end
end

local function hand(size)
  local counts = {}
  for kind = 1, 34 do counts[kind] = 0 end
  for i = 1, size do
    local j = math.random(i, 136)
    wall[i], wall[j] = wall[j], wall[i]
    local kind = math.floor(wall[i] / 4) + 1
    counts[kind] = counts[kind] + 1
  end
  local text = {}
  for suit = 1, 4 do
    local ranks = (suit == 4) and 7 or 9
    local digits = {}
    for rank = 1, ranks do
      for _ = 1, counts[(suit - 1) * 9 + rank] do digits[#digits + 1] = tostring(rank) end
    end
    if #digits > 0 then text[#text + 1] = table.concat(digits) .. suits[suit] end
  end
  return table.concat(text)
end

function request()
  sent = sent + 1
  return wrk.format("POST", "/shanten", headers, '{"hand":"' .. hand(13 + sent %% 2) .. '"}')
end

function response(status, headers, body)
  answered = answered + 1
  if answered >= per_thread then wrk.thread:stop() end
end

function done(summary, latency, requests)
  io.write("SOAK_RESULT ", string.format(
    '{"requests": %%d, "duration_us": %%d, "errors": %%d, "p50_us": %%d, "p99_us": %%d}\\n',
    summary.requests, summary.duration,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.status + summary.errors.timeout,
    latency:percentile(50), latency:percentile(99)))
end
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000, help="distinct hands to send (default 1000000)")
    parser.add_argument("--cache-size", type=int, default=4096, help="TENPAI_CACHE_SIZE (default 4096)")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--every", type=float, default=15.0, help="seconds between samples (default 15)")
    parser.add_argument("--limit", type=int, default=3600, help="stop wrk after this many seconds (default 3600)")
    parser.add_argument("--max-growth", type=float, default=16.0, help="allowed RSS growth once the cache is full, MiB")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--json", type=Path, help="also write the samples here")
    args = parser.parse_args()
    wrk = shutil.which("wrk")
    if wrk is None:
        raise SystemExit("wrk is not installed (apt-get install -y wrk)")

    with tempfile.TemporaryDirectory(prefix="tenpai-soak-") as tmp:
        work = Path(tmp)
        script = work / "hands.lua"
        per_thread = -(-args.hands // args.threads)
        script.write_text(LUA % {"threads": args.threads, "per_thread": per_thread, "seed": args.seed})
        env = {"TENPAI_CACHE_SIZE": str(args.cache_size), "TENPAI_ACCESS_LOG": "false"}
        with (
            server(env, work / "server.log") as (process, base),
            httpx.Client(base_url=base, trust_env=False, timeout=10) as http,
        ):
            samples: list[dict[str, float]] = []
            started = time.monotonic()

            def sample() -> None:
                stats = http.get("/cache/stats").json()
                samples.append(
                    {
                        "seconds": round(time.monotonic() - started, 1),
                        "answered": stats["hits"] + stats["misses"],
                        "cache_size": stats["size"],
                        "cache_hits": stats["hits"],
                        "rss_mib": round(process_tree_rss_mib(process.pid), 1),
                    }
                )
                row = samples[-1]
                print(
                    f"{row['seconds']:8.0f} s  {row['answered']:>9.0f} answered  cache {row['cache_size']:>7.0f}"
                    f"  hits {row['cache_hits']:>5.0f}  RSS {row['rss_mib']:7.1f} MiB",
                    flush=True,
                )

            stop = threading.Event()

            def sampler() -> None:
                while not stop.wait(args.every):
                    sample()

            sample()
            thread = threading.Thread(target=sampler, daemon=True)
            thread.start()
            command = [
                wrk,
                f"-t{args.threads}",
                f"-c{args.connections}",
                f"-d{args.limit}s",
                "--timeout",
                "5s",
                "-s",
                str(script),
                f"{base}/shanten",
            ]
            # wrk's threads stop themselves after their share, but wrk itself waits out its
            # duration: interrupt it (it then reports) once the server has answered them all.
            with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as run:
                deadline = time.monotonic() + args.limit + 60
                while run.poll() is None:
                    answered = sum(http.get("/cache/stats").json()[key] for key in ("hits", "misses"))
                    if answered >= args.hands or time.monotonic() > deadline:
                        run.send_signal(signal.SIGINT)
                        break
                    time.sleep(1.0)
                output, errors_text = run.communicate(timeout=60)
            stop.set()
            thread.join()
            sample()
        if "SOAK_RESULT " not in output:
            print(output, errors_text, file=sys.stderr)
            raise SystemExit("wrk failed")
        result = json.loads(output.split("SOAK_RESULT ", 1)[1].splitlines()[0])

    full = next((row for row in samples if row["cache_size"] >= args.cache_size), samples[-1])
    growth = samples[-1]["rss_mib"] - full["rss_mib"]
    rate = result["requests"] / (result["duration_us"] / 1e6)
    print(
        f"\n{result['requests']} hands in {result['duration_us'] / 1e6:.0f} s ({rate:.0f}/s), errors {result['errors']}, "
        f"p50 {result['p50_us'] / 1000:.2f} ms, p99 {result['p99_us'] / 1000:.2f} ms; cache hits {samples[-1]['cache_hits']:.0f}\n"
        f"RSS: {samples[0]['rss_mib']:.1f} MiB at start, {full['rss_mib']:.1f} MiB when the cache was full "
        f"({full['answered']:.0f} answered), {samples[-1]['rss_mib']:.1f} MiB at the end "
        f"(max {max(row['rss_mib'] for row in samples):.1f}): growth after the cache filled {growth:+.1f} MiB"
    )
    if args.json:
        args.json.write_text(json.dumps({"result": result, "samples": samples}, indent=2) + "\n")
    failed = result["errors"] > 0 or growth > args.max_growth or result["requests"] < args.hands
    if failed:
        print("FAILED: errors, fewer hands than asked, or memory kept growing", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
