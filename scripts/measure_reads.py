"""An outside check of /act's opponent reads on the 54 shared Tenhou games: AUC against the truth.

Report only: nothing here feeds the model, and the games must never be used to fit or tune it
(issue #36).  For each game the script follows the whole log on one machine (every tile
shown: the truth) and each seat's view on a machine of its own (the other seats' tiles
hidden, as ``/act`` sees them).  At a sample of decision points (a seat's own draw, drawn
with ``--seed``), it asks the core for the seat's reads (:func:`app.core.table.decide.opponent_reads`,
what ``/act`` answers as ``opponents``) and scores them:

* tenpai AUC, over (point, other seat): the truth is that seat's real hand being ready
  (shanten 0) at that point;
* deal-in AUC, over (point, other seat, held kind): the truth is that discarding the kind now
  would let that seat win by ron (one of its waits, and it is not furiten; yaku not checked);
  overall and against seats in riichi only.

    .venv/bin/python scripts/measure_reads.py --seed 36 --share 0.3

The games are read in place from the shared test data (``TENPAI_TESTDATA`` overrides where);
without them the script says so and stops.

``--selfplay N`` scores the same reads on ``N`` self-play hands of four ``near`` advisors
instead (seed ``--seed``; ``--strategy`` another player): the set to develop the model on, since
the Tenhou games only judge it.  ``near``'s play does not read the dora, so changing the reads
leaves these games as they are.  The advisors declare every closed ready hand, so silent
closed hands are rarely ready there.

    .venv/bin/python scripts/measure_reads.py --selfplay 2000 --seed 5

``--judge 600`` draws the sample as the issue's check does instead (``--draws`` times, from
every draw of the games): 600 decision points, half with a really ready opponent, and reports
each read's AUC over the draws (mean, lowest, share at or above the issue's floor).

    .venv/bin/python scripts/measure_reads.py --judge 600 --draws 200 --seed 36
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Final

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from shared_data import shared_testdata_dir  # noqa: E402

from app.core.families.registry import family_of  # noqa: E402
from app.core.shape.rules import rule_profile  # noqa: E402
from app.core.table.decide import opponent_reads, replay, seat_sees  # noqa: E402
from app.core.table.game import GameConfig  # noqa: E402
from app.core.table.machine import TableMachine  # noqa: E402
from app.selfplay.runner import available_cores, run_games  # noqa: E402

Scored = dict[str, list[tuple[float, bool]]]


def auc(scored: Sequence[tuple[float, bool]]) -> float | None:
    """The chance that a random positive scores above a random negative (ties count half):
    the Mann-Whitney statistic, by ranks with ties averaged.  None without both classes.

    >>> auc([(0.9, True), (0.1, False), (0.5, True), (0.5, False)])
    0.875
    """
    positives = sum(1 for _, truth in scored if truth)
    negatives = len(scored) - positives
    if not positives or not negatives:
        return None
    ordered = sorted(scored, key=lambda item: item[0])
    rank_sum = 0.0
    start = 0
    while start < len(ordered):
        end = start
        while end < len(ordered) and ordered[end][0] == ordered[start][0]:
            end += 1
        mean_rank = (start + 1 + end) / 2  # ranks start..end-1, 1-based
        rank_sum += mean_rank * sum(1 for _, truth in ordered[start:end] if truth)
        start = end
    return (rank_sum - positives * (positives + 1) / 2) / (positives * negatives)


def follow(events: Sequence[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], TableMachine, list[TableMachine]]]:
    """Each event of one riichi game's log with the machines after it: the truth (every tile
    shown) and each seat's view (the other seats' tiles hidden, as ``/act`` sees them)."""
    rules = rule_profile("riichi")
    truth = TableMachine(rules, family_of(rules))
    views = [TableMachine(rules, family_of(rules)) for _ in range(rules.seats)]
    for index, event in enumerate(events):
        replay([event], rules, machine=truth, first=index, family=family_of(rules))
        for seat, view in enumerate(views):
            replay(seat_sees([event], seat), rules, machine=view, first=index, family=family_of(rules))
        yield event, truth, views


def measure_game(
    events: list[dict[str, Any]], share: float, rng: random.Random, *, diagnose: bool = False
) -> list[Scored]:
    """Each sampled decision point's scored reads (``share`` of the seats' draws, drawn by ``rng``).

    With ``diagnose``, also the tenpai read among the seats that have not declared, by whether
    they called (``tenpai_open``, ``tenpai_silent``), the danger if ready alone (the deal-in read over the tenpai read)
    against seats really ready, by kind of seat (``danger_if_ready_riichi``, ``_open``,
    ``_silent``), and the deal-in read with the tenpai read replaced by the truth
    (``deal_in_if_tenpai_known``): where the overall deal-in read loses."""
    points: list[Scored] = []
    for event, truth, views in follow(events):
        if event.get("type") != "tsumo" or rng.random() >= share:
            continue
        seat = event["actor"]
        found: Scored = {"tenpai": [], "deal_in": [], "deal_in_riichi": []}
        points.append(found)
        for read in opponent_reads(views[seat], seat):
            other = read.seat
            ready = truth.hand_shanten(other) == 0
            found["tenpai"].append((read.tenpai, ready))
            if diagnose and truth.players[other].riichi != 2:
                seen = "silent" if truth.players[other].closed else "open"
                found.setdefault(f"tenpai_{seen}", []).append((read.tenpai, ready))
            waits = truth.waits_of(other) if ready and not truth.furiten(other) else frozenset()
            declared = truth.players[other].riichi == 2
            for kind, chance in read.deal_in:
                found["deal_in"].append((chance, kind in waits))
                if declared:
                    found["deal_in_riichi"].append((chance, kind in waits))
                if diagnose:
                    danger = chance / read.tenpai if read.tenpai > 0 else 0.0
                    found.setdefault("deal_in_if_tenpai_known", []).append((danger if ready else 0.0, kind in waits))
                    if ready:
                        seen = truth.players[other]
                        how = "riichi" if declared else "open" if seen.melds else "silent"
                        found.setdefault(f"danger_if_ready_{how}", []).append((danger, kind in waits))
    return points


def pooled_report(points: Sequence[Scored]) -> dict[str, dict[str, Any]]:
    """Each read's AUC, cases and positives over ``points`` pooled."""
    pooled: Scored = {"tenpai": [], "deal_in": [], "deal_in_riichi": []}
    for point in points:
        for name, scored in point.items():
            pooled.setdefault(name, []).extend(scored)
    return {
        name: {
            "auc": None if (value := auc(scored)) is None else round(value, 4),
            "cases": len(scored),
            "positives": sum(1 for _, truth in scored if truth),
        }
        for name, scored in pooled.items()
    }


def judge_like(points: Sequence[Scored], size: int, draws: int, seed: int) -> dict[str, Any]:
    """The issue's check, drawn ``draws`` times: ``size`` decision points, half of them with an
    opponent really ready (a tenpai truth among the point's reads), half without; each read's AUC
    per draw, with the mean, the lowest and the share of draws at or above the issue's floor."""
    ready = [point for point in points if any(truth for _, truth in point["tenpai"])]
    calm = [point for point in points if not any(truth for _, truth in point["tenpai"])]
    rng = random.Random(seed)
    by_read: dict[str, list[float]] = {"tenpai": [], "deal_in": [], "deal_in_riichi": []}
    for _ in range(draws):
        drawn = rng.sample(ready, size // 2) + rng.sample(calm, size - size // 2)
        for name, figures in pooled_report(drawn).items():
            if figures["auc"] is not None:
                by_read.setdefault(name, []).append(figures["auc"])
    return {
        "points": {"with_a_ready_opponent": len(ready), "without": len(calm)},
        "size": size,
        "draws": draws,
        **{
            name: {
                "mean": round(sum(values) / len(values), 4),
                "lowest": min(values),
                "highest": max(values),
            }
            | (
                {"at_or_above_floor": round(sum(value >= FLOORS[name] for value in values) / len(values), 3)}
                if name in FLOORS
                else {}
            )
            for name, values in by_read.items()
            if values
        },
    }


#: Issue #36's floors for the reads.
FLOORS: Final = {"tenpai": 0.92, "deal_in": 0.93, "deal_in_riichi": 0.75}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=36, help="the sample's seed")
    parser.add_argument("--share", type=float, default=0.3, help="share of the seats' draws sampled")
    parser.add_argument("--selfplay", type=int, default=0, help="score N self-play hands instead of the Tenhou games")
    parser.add_argument("--strategy", default="near", help="the four self-play seats' strategy")
    parser.add_argument(
        "--judge",
        type=int,
        default=0,
        help="instead of --share: draw N points as issue #36 judges (half with a ready opponent), --draws times",
    )
    parser.add_argument("--draws", type=int, default=20, help="how many judge-like samples to draw")
    parser.add_argument("--diagnose", action="store_true", help="add the reads' parts (see measure_game)")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    share = 1.0 if args.judge else args.share
    if args.selfplay:
        config = GameConfig("riichi", (args.strategy,) * 4, args.seed, record_events=True, length="kyoku")
        logs = [list(record.events) for record in run_games(config, args.selfplay, workers=available_cores())]
        source = "selfplay"
    else:
        folder = shared_testdata_dir() / "tenhou-games"
        paths = sorted(folder.glob("*.jsonl"))
        if not paths:
            print(f"no Tenhou games at {folder}: nothing to measure", file=sys.stderr)
            return 1
        logs = [
            [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
            for path in paths
        ]
        source = "tenhou"
    points = [point for events in logs for point in measure_game(events, share, rng, diagnose=args.diagnose)]
    report: dict[str, Any] = {"source": source, "games": len(logs), "seed": args.seed}
    if args.judge:
        report |= judge_like(points, args.judge, args.draws, args.seed)
    else:
        report |= {"share": args.share, **pooled_report(points)}
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
