"""Time the reads of the other seats, per decision, on one core: ``/act``'s ``opponents``
(:func:`app.core.table.decide.opponent_reads`: each other seat's tenpai chance and each held
kind's deal-in chance) and the ``reader`` strategy's read of the table
(:meth:`app.core.table.players.Advisor.table_read`, with its rank-model standing).

Run from the repository root::

    .venv/bin/python bench/run_reads.py [--games N] [--seed S] [--repeat R]

Four advisors play ``--games`` hands of riichi from ``--seed`` (not timed); each hand's log is
then replayed, and at every seat's own draw the two reads are asked of the machine, only those
calls timed.  The table shows reads a second, best and median of ``--repeat`` passes.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.core.families.registry import TABLES, family_of  # noqa: E402
from app.core.shape.rules import rule_profile  # noqa: E402
from app.core.table.decide import opponent_reads, replay, seat_view  # noqa: E402
from app.core.table.game import GameConfig, play_game  # noqa: E402
from app.core.table.machine import TableMachine  # noqa: E402
from app.core.table.players import Advisor, standing_of  # noqa: E402


def one_pass(logs: list[list[dict]]) -> tuple[int, float, float]:
    """(decisions, seconds of opponent_reads, seconds of the table read) over ``logs``."""
    rules = rule_profile("riichi")
    advisor = Advisor()
    decisions = 0
    reads_seconds = table_seconds = 0.0
    for events in logs:
        machine = TableMachine(rules, family_of(rules))
        for index, event in enumerate(events):
            replay([event], rules, machine=machine, first=index, family=family_of(rules))
            if event.get("type") != "tsumo":
                continue
            seat = event["actor"]
            started = time.perf_counter()
            opponent_reads(machine, seat)
            middle = time.perf_counter()
            view = seat_view(machine, seat)
            advisor.table_read(view)
            standing_of(view)
            ended = time.perf_counter()
            reads_seconds += middle - started
            table_seconds += ended - middle
            decisions += 1
    return decisions, reads_seconds, table_seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    config = GameConfig("riichi", ("advisor",) * 4, args.seed, length="kyoku")
    logs = [list(play_game(config, game, TABLES).events) for game in range(args.games)]
    passes = [one_pass(logs) for _ in range(args.repeat)]
    decisions = passes[0][0]
    for name, column in (("opponent_reads (/act's opponents)", 1), ("table_read + standing (reader)", 2)):
        rates = [decisions / result[column] for result in passes]
        print(
            f"{name:<36} {max(rates):>10,.0f} reads/s best  {statistics.median(rates):>10,.0f} median"
            f"  ({decisions} decisions, {args.repeat} passes)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
