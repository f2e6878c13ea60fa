"""Time the table: /act under load against a bare FastAPI echo, and the machine in process.

Run from the repository root, in the bench environment (see bench/README.md)::

    bench/.venv/bin/python bench/run_table.py [--hanchans N] [--seconds S] [--json out.json]

1. Decision points: ``--hanchans`` seeded hanchans of four ``linear`` advisors are played
   (``app.core.table.game``); every point where a seat may act becomes an ``/act`` body as
   that seat's client would send it (the other seats' tiles hidden, the events up to the
   point).
2. In process: the replay of every log through the table machine (events per second), the
   legal actions at every decision point, and ``act()`` on the recorded points (median, p95
   and p99 per call: the whole answer, every legal action valued and ranked).
3. Load: ``wrk`` cycles through the recorded bodies for ``--seconds`` against the service's
   ``POST /act`` and against ``bench/echo_app.py``'s ``/act`` (which validates the same
   body with pydantic and answers the last event), both served with the same uvicorn flags.

Progress goes to stderr and the report to stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from run_http import ServerSpec, clean_environment, run_wrk, serving, tenpai_spec, warm_up

from app.core.families.registry import TABLES, family_of
from app.core.shape.rules import rule_profile
from app.core.table.decide import NotADecisionPoint, act, require_decision_point, seat_sees
from app.core.table.game import GameConfig, play_game
from app.core.table.machine import TableMachine

BENCH_DIR = Path(__file__).resolve().parent
WARMUP_REQUESTS = 50


def decision_bodies(events: list[dict[str, Any]], seats: int) -> list[tuple[int, int]]:
    """(event index, seat) of every point of a log where a seat may act."""
    machine = TableMachine(rule_profile("riichi"), family_of("riichi"))
    points = []
    for index, event in enumerate(events):
        machine.apply_object(event, index)
        for seat in machine.decision_seats():
            try:
                require_decision_point(events[: index + 1], seat)  # /act is asked at the event that gives the turn
            except NotADecisionPoint:
                continue
            points.append((index, seat))
    return points


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hanchans", type=int, default=3, help="seeded hanchans whose decision points are timed")
    parser.add_argument("--points", type=int, default=400, help="decision points timed in process and sent by wrk")
    parser.add_argument("--seconds", type=int, default=15, help="wrk duration per target (default 15)")
    parser.add_argument("--connections", type=int, default=8, help="wrk connections (default 8)")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads (default 2)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    report: dict[str, Any] = {"load_average_before": os.getloadavg()}

    started = time.process_time()
    logs = [
        play_game(GameConfig("riichi", ("linear",) * 4, seed=args.seed, length="hanchan"), game, TABLES).events
        for game in range(args.hanchans)
    ]
    played = time.process_time() - started
    events = sum(len(log) for log in logs)
    report["hanchans"] = {
        "games": args.hanchans,
        "events": events,
        "cpu_seconds": round(played, 3),
        "hanchans_per_second": round(args.hanchans / played, 3),
    }

    started = time.process_time()
    points = [(log, index, seat) for log in logs for index, seat in decision_bodies(log, 4)]
    replay = time.process_time() - started
    report["replay"] = {"events": events, "decision_points": len(points), "events_per_second": round(events / replay)}
    chosen = rng.sample(points, min(args.points, len(points)))
    bodies = [
        json.dumps({"seat": seat, "events": seat_sees(log[: index + 1], seat), "rules": "riichi"})
        for log, index, seat in chosen
    ]
    print(f"{len(points)} decision points in {args.hanchans} hanchans; timing {len(chosen)}", file=sys.stderr)

    timings = []
    for log, index, seat in chosen:
        began = time.perf_counter()
        act(log[: index + 1], seat, rule_profile("riichi"), family=family_of("riichi"))
        timings.append(time.perf_counter() - began)
    timings.sort()
    report["act_in_process_ms"] = {
        "median": round(1000 * statistics.median(timings), 2),
        "p95": round(1000 * timings[int(0.95 * (len(timings) - 1))], 2),
        "p99": round(1000 * timings[int(0.99 * (len(timings) - 1))], 2),
        "max": round(1000 * timings[-1], 2),
        "mean_body_kb": round(statistics.mean(len(b) for b in bodies) / 1024, 1),
    }

    if shutil.which("wrk") is None:
        print("wrk is missing (apt-get install -y wrk): the load section is skipped", file=sys.stderr)
    else:
        with tempfile.TemporaryDirectory(prefix="tenpai-table-bench-") as tmp:
            workdir = Path(tmp)
            load = {}
            echo = ServerSpec(
                "echo", "echo_app:app", BENCH_DIR, clean_environment({}), "POST", "/act", bodies[0].encode()
            )
            # /act is a heavy request: with fewer slots than wrk's connections most answers would
            # be 503 too_busy, timed as if they were decisions.
            slots = str(args.connections)
            for spec in (echo, tenpai_spec("tenpai", TENPAI_CACHE_SIZE="0", TENPAI_MAX_HEAVY_REQUESTS=slots)):
                with serving(spec, workdir) as server:
                    warm_up(server, bodies, WARMUP_REQUESTS, path="/act")
                    run, _ = run_wrk(server, spec.name, bodies, args, workdir, path="/act")
                    if run.errors.get("status_errors"):
                        print(
                            f"{spec.name}: {run.errors['status_errors']} answers were not 2xx; the figures count them",
                            file=sys.stderr,
                        )
                    load[spec.name] = {
                        "requests_per_second": round(run.requests_per_second, 1),
                        "p50_ms": run.p50_ms,
                        "p99_ms": run.p99_ms,
                        "errors": run.errors,
                    }
            load["tenpai_over_echo"] = round(
                load["tenpai"]["requests_per_second"] / load["echo"]["requests_per_second"], 4
            )
            report["load"] = load
    report["load_average_after"] = os.getloadavg()
    print(json.dumps(report, indent=2))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
