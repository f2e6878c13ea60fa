"""Time /act on a growing log: backends driving hanchans decision by decision, before and after
the machine cache (issue #35 point 7), against a bare FastAPI echo with the same client.

Run from the repository root, in the bench environment (see bench/README.md)::

    bench/.venv/bin/python bench/run_act_growing.py [--clients C] [--json out.json]

``--clients`` seeded hanchans of four ``linear`` advisors are played (``app.core.table.game``).
Each client is one backend: a thread with its own keep-alive ``httpx.Client`` that sends its
hanchan's ``/act`` requests in game order, each the whole log up to the point as that seat
sees it (the others' tiles hidden), and waits for each answer before the next.  The same
bodies go, one server after another, to:

* ``before``: ``app.main:app`` with ``TENPAI_ACT_MACHINES=0`` (every request replays its log);
* ``after``: ``app.main:app`` with the default machine cache;
* ``echo``: ``bench/echo_app.py``'s ``/act`` (validates the same body with pydantic, answers
  the last event).

Each server is a uvicorn subprocess with the flags of ``run_http.py``, with as many heavy slots
as clients.  The report gives requests/s over the whole run (all clients), p50 and p99 of
each request's time, each tenpai row's ratio to the echo, the machine cache's hits, and
whether ``before`` and ``after`` answered every request with the same bytes.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
from run_http import BENCH_DIR, Server, ServerSpec, clean_environment, serving, tenpai_spec

from app.core.families.registry import TABLES, family_of
from app.core.shape.rules import rule_profile
from app.core.table.decide import NotADecisionPoint, require_decision_point, seat_sees
from app.core.table.game import GameConfig, play_game
from app.core.table.machine import TableMachine

HEADERS = {"content-type": "application/json"}


def growing_bodies(events: list[dict[str, Any]]) -> list[bytes]:
    """Every /act a backend sends through one game, in order: each point where a seat acts."""
    machine = TableMachine(rule_profile("riichi"), family_of(rule_profile("riichi")))
    bodies = []
    for index, event in enumerate(events):
        machine.apply_object(event, index)
        for seat in machine.decision_seats():
            try:
                require_decision_point(events[: index + 1], seat)
            except NotADecisionPoint:
                continue
            body = {"seat": seat, "events": seat_sees(events[: index + 1], seat), "rules": "riichi"}
            bodies.append(json.dumps(body, separators=(",", ":")).encode())
    return bodies


def drive(server: Server, games: Sequence[list[bytes]]) -> dict[str, Any]:
    """One thread per game sends its bodies in order; every answer's time and bytes."""
    answers: list[list[bytes]] = [[] for _ in games]
    times: list[list[float]] = [[] for _ in games]
    failures: list[str] = []

    def backend(number: int) -> None:
        with httpx.Client(base_url=server.url, timeout=60.0) as client:
            for body in games[number]:
                began = time.perf_counter()
                response = client.post("/act", content=body, headers=HEADERS)
                times[number].append(time.perf_counter() - began)
                if response.status_code != 200:
                    failures.append(f"{response.status_code} {response.text[:200]}")
                answers[number].append(response.content)

    threads = [threading.Thread(target=backend, args=(number,)) for number in range(len(games))]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - began
    every = sorted(t for per_game in times for t in per_game)
    return {
        "requests": len(every),
        "seconds": round(wall, 2),
        "requests_per_second": round(len(every) / wall, 1),
        "p50_ms": round(1000 * statistics.median(every), 2),
        "p99_ms": round(1000 * every[int(0.99 * (len(every) - 1))], 2),
        "errors": len(failures),
        "first_error": failures[0] if failures else None,
        "answers": answers,
    }


def machine_hits(server: Server) -> dict[str, float]:
    """The machine cache's counters from /metrics."""
    with httpx.Client(base_url=server.url) as client:
        text = client.get("/metrics").text
    wanted = ("tenpai_act_machine_hits_total", "tenpai_act_machine_misses_total", "tenpai_act_machine_bytes")
    return {line.split()[0]: float(line.split()[1]) for line in text.splitlines() if line.split(" ")[0] in wanted}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=2, help="backends at once, one hanchan each (default 2)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    report: dict[str, Any] = {"load_average_before": os.getloadavg(), "clients": args.clients}

    logs = [
        play_game(GameConfig("riichi", ("linear",) * 4, seed=args.seed, length="hanchan"), game, TABLES).events
        for game in range(args.clients)
    ]
    games = [growing_bodies(log) for log in logs]
    report["games"] = [
        {"events": len(log), "requests": len(bodies), "last_body_kb": round(len(bodies[-1]) / 1024, 1)}
        for log, bodies in zip(logs, games, strict=True)
    ]
    print(f"{sum(map(len, games))} /act requests in {args.clients} hanchans", file=sys.stderr)

    slots = str(max(2, args.clients))
    specs = [
        ServerSpec("echo", "echo_app:app", BENCH_DIR, clean_environment({}), "POST", "/act", games[0][0]),
        tenpai_spec("before", TENPAI_ACT_MACHINES="0", TENPAI_MAX_HEAVY_REQUESTS=slots),
        tenpai_spec("after", TENPAI_MAX_HEAVY_REQUESTS=slots),
    ]
    runs: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="tenpai-act-growing-") as tmp:
        for spec in specs:
            with serving(spec, Path(tmp)) as server:
                runs[spec.name] = drive(server, games)
                if spec.name != "echo":
                    runs[spec.name]["machine_cache"] = machine_hits(server)
                print(f"  {spec.name}: {runs[spec.name]['requests_per_second']} requests/s", file=sys.stderr)
    same = runs["before"]["answers"] == runs["after"]["answers"]
    for run in runs.values():
        del run["answers"]
    echo = runs["echo"]["requests_per_second"]
    for name in ("before", "after"):
        runs[name]["over_echo"] = round(runs[name]["requests_per_second"] / echo, 4)
    runs["after"]["over_before"] = round(
        runs["after"]["requests_per_second"] / runs["before"]["requests_per_second"], 2
    )
    report["runs"] = runs
    report["before_and_after_answer_the_same_bytes"] = same
    report["load_average_after"] = os.getloadavg()
    print(json.dumps(report, indent=2))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0 if same and not runs["before"]["errors"] and not runs["after"]["errors"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
