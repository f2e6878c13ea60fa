"""Measure, by self-play, how often a declared (ready) seat wins in one turn (the figure the
advisor's reading of the table takes for a ready seat: ``READY_WIN_PER_TURN`` in
:mod:`app.core.advice.reads`), and what a deal-in costs by the winner's state (declared,
open, closed and silent; the read's cost model: ``OPEN_COST_FACTOR``).

A declared seat's turns at risk are its discards from the declaration tile on: each starts a
go-around in which it may win on another seat's discard or on its next draw.  The rate is its
wins over those turns, over every declaration of every hand.  Four advisors play one hand a
game on the table machine::

    .venv/bin/python scripts/measure_ready_wins.py --games 2000 --seed 12

A deal-in's cost is what the discarder paid (its delta, honba included), split by whether the
winner dealt.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.core.table.game import GameConfig, GameRecord  # noqa: E402
from app.selfplay.runner import available_cores, run_games  # noqa: E402


def tally(records: list[GameRecord]) -> tuple[int, int, int]:
    """(declarations, turns at risk, wins) over every hand of ``records``."""
    declarations = turns = wins = 0
    for record in records:
        declared: set[int] = set()
        for event in record.events:
            kind = event["type"]
            if kind == "start_kyoku":
                declared = set()
            elif kind == "reach":
                declared.add(event["actor"])
                declarations += 1
            elif kind == "dahai" and event["actor"] in declared:
                turns += 1
            elif kind == "hora" and event["actor"] in declared:
                wins += 1
    return declarations, turns, wins


def deal_in_costs(records: list[GameRecord]) -> dict[str, tuple[int, float]]:
    """(deal-ins, mean cost) by the winner's state and whether it dealt, e.g. ``open, guest``."""
    found: dict[str, list[int]] = {}
    declared: set[int] = set()
    opened: set[int] = set()
    dealer = 0
    for record in records:
        for event in record.events:
            kind = event["type"]
            if kind == "start_kyoku":
                declared, opened, dealer = set(), set(), event["oya"]
            elif kind == "reach":
                declared.add(event["actor"])
            elif kind in ("chi", "pon", "daiminkan"):
                opened.add(event["actor"])
            elif kind == "hora" and event["target"] != event["actor"]:
                winner = event["actor"]
                state = "declared" if winner in declared else "open" if winner in opened else "silent closed"
                key = f"{state}, {'dealer' if winner == dealer else 'guest'}"
                found.setdefault(key, []).append(-event["deltas"][event["target"]])
    return {key: (len(costs), sum(costs) / len(costs)) for key, costs in sorted(found.items())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="riichi")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--workers", type=int, default=0, help="0: every core")
    args = parser.parse_args()
    config = GameConfig(args.rules, ("advisor",) * 4, args.seed, record_events=True)
    records = run_games(config, args.games, workers=args.workers or available_cores())
    declarations, turns, wins = tally(records)
    print(
        f"{args.rules}, {args.games} games, seed {args.seed}, advisor x4: {declarations} declarations, "
        f"{turns} turns at risk, {wins} wins: {wins / max(turns, 1):.3f} a turn"
    )
    for key, (count, mean) in deal_in_costs(records).items():
        print(f"deal-in into {key}: {count} times, {mean:,.0f} points on average")


if __name__ == "__main__":
    main()
