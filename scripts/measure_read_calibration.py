"""How well the advisor's reading of the table (:meth:`app.core.table.players.Advisor.table_read`)
is calibrated on self-play it was not fitted on: reliability by decile.

Four advisors play one hand a game (``--seed``: keep it apart from the seeds the read's figures
were measured on, 11 and 12).  At each seat's own draw the script reads the table from that
seat's view and scores two reads against what then happened:

* **ready**: each other seat's ready chance now, against that seat's real hand being ready
  (shanten 0, yaku not checked);
* **hazard**: the chance that another seat wins before this seat's next draw, against whether
  one did.

For each, the cases are cut into ten bins by the read's value (deciles of the cases), and each
bin shows the mean read beside the share that came true; the expected calibration error (ECE)
is the bins' mean gap, weighted by their cases, and the Brier score the mean squared error::

    .venv/bin/python scripts/measure_read_calibration.py --games 1000 --seed 77
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.core.families.registry import family_of  # noqa: E402
from app.core.shape.rules import rule_profile  # noqa: E402
from app.core.table.decide import replay, seat_view  # noqa: E402
from app.core.table.game import GameConfig, GameRecord  # noqa: E402
from app.core.table.machine import TableMachine  # noqa: E402
from app.core.table.players import Advisor  # noqa: E402
from app.selfplay.runner import available_cores, run_games  # noqa: E402

Case = tuple[float, bool]


def _ends_before_next_draw(events: Sequence[dict[str, Any]], index: int, seat: int) -> bool:
    """Whether another seat wins after event ``index`` and before ``seat`` draws again."""
    for event in events[index + 1 :]:
        kind = event["type"]
        if kind == "hora":
            return event["actor"] != seat
        if kind in ("ryukyoku", "end_kyoku") or (kind == "tsumo" and event["actor"] == seat):
            return False
    return False


def cases_of(record: GameRecord) -> dict[str, list[Case]]:
    """The (read, truth) cases of one game's log."""
    rules = rule_profile("riichi")
    machine = TableMachine(rules, family_of(rules))
    advisor = Advisor()
    found: dict[str, list[Case]] = {"ready": [], "hazard": []}
    events = list(record.events)
    for index, event in enumerate(events):
        replay([event], rules, machine=machine, first=index, family=family_of(rules))
        if event.get("type") != "tsumo":
            continue
        seat = event["actor"]
        view = seat_view(machine, seat)
        read = advisor.table_read(view)
        others = [(seat + offset) % machine.seats for offset in range(1, machine.seats)]
        for other, chance in zip(others, read.ready(view.turn), strict=True):
            found["ready"].append((chance, machine.hand_shanten(other) == 0))
        found["hazard"].append((read.hazard(view.turn), _ends_before_next_draw(events, index, seat)))
    return found


def reliability(cases: Sequence[Case], bins: int = 10) -> dict[str, Any]:
    """Mean read against the share that came true in ``bins`` bins of equal cases (by the read),
    with the expected calibration error and the Brier score.

    >>> report = reliability([(0.1, False)] * 9 + [(0.1, True)] + [(0.9, True)] * 10, bins=2)
    >>> report["bins"], report["ece"]
    [[10, 0.1, 0.1], [10, 0.9, 1.0]], 0.05
    """
    ordered = sorted(cases, key=lambda case: case[0])
    rows = []
    gap = 0.0
    for number in range(bins):
        part = ordered[number * len(ordered) // bins : (number + 1) * len(ordered) // bins]
        if not part:
            continue
        mean = sum(chance for chance, _ in part) / len(part)
        share = sum(1 for _, truth in part if truth) / len(part)
        gap += len(part) * abs(mean - share)
        rows.append([len(part), round(mean, 4), round(share, 4)])
    brier = sum((chance - truth) ** 2 for chance, truth in cases) / max(len(cases), 1)
    return {"bins": rows, "ece": round(gap / max(len(cases), 1), 4), "brier": round(brier, 4)}


def measure(games: int, seed: int, workers: int) -> dict[str, Any]:
    config = GameConfig("riichi", ("advisor",) * 4, seed, record_events=True, length="kyoku")
    pooled: dict[str, list[Case]] = {"ready": [], "hazard": []}
    for record in run_games(config, games, workers=workers):
        for name, cases in cases_of(record).items():
            pooled[name].extend(cases)
    return {"games": games, "seed": seed, **{name: reliability(cases) for name, cases in pooled.items()}}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=77)
    parser.add_argument("--workers", type=int, default=0, help="0: every core")
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.games, args.seed, args.workers or available_cores()), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
