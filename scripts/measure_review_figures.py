"""How many of a review's decisions have a figure in points (issue #36, point 4).

Reviews every seat of the shared Tenhou games with one strategy and counts, by the hand's
shanten and the kind of the pick:

* decisions whose pick and action taken both have a value in points (a loss is given);
* decisions left to the linear model or to a rule of thumb (no loss);
* decisions where the review's pick is not the strategy's own action (the ranking values
  another action more: the advisor followed a rule of thumb there).

The games are read in place (third-party data, never copied) and only judged here: nothing is
fitted on them.

    .venv/bin/python scripts/measure_review_figures.py --strategy advisor [--games 54]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.core.families.registry import family_of  # noqa: E402
from app.core.shape.engine import Checker  # noqa: E402
from app.core.shape.hand import Hand  # noqa: E402
from app.core.shape.rules import rule_profile  # noqa: E402
from app.core.shape.tiles import parse_mpsz  # noqa: E402
from app.core.table.players import Advisor, make_player  # noqa: E402
from app.core.table.review import review  # noqa: E402

GAMES = ROOT.parent / "shared" / "testdata" / "tenhou-games"
OVERRIDDEN = "the ranking values this higher"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strategy", default="advisor", help="the strategy that reviews (default advisor)")
    parser.add_argument("--games", type=int, default=0, help="the first N four-player games (default all)")
    args = parser.parse_args(argv)
    index = GAMES / "index.json"
    if not index.is_file():
        print(f"the shared Tenhou games are not here ({GAMES})", file=sys.stderr)
        return 2
    rules = rule_profile("riichi")
    family, checker = family_of(rules), Checker(rules)
    strategy = make_player(args.strategy, rng=random.Random(0))
    assert isinstance(strategy, Advisor), "a review needs an advisor"
    listed = json.loads(index.read_text())["games"]
    paths = [GAMES / game["file"] for game in listed if game["players"] == 4]
    if args.games:
        paths = paths[: args.games]
    counts: Counter[str] = Counter()
    by_shanten: Counter[tuple[int, bool]] = Counter()
    started = time.process_time()
    for path in paths:
        events = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        for seat in range(4):
            for decision in review(events, seat, rules, family=family, strategy=strategy).decisions:
                tiles = parse_mpsz(decision.tiles.replace("0", "5"))
                shanten = min(checker.shanten_number(Hand.from_tiles(tiles)), 5)
                valued = decision.loss is not None
                counts["decisions"] += 1
                counts["with a figure"] += valued
                counts["review pick is not the strategy's action"] += OVERRIDDEN in (decision.note or "")
                by_shanten[(shanten, valued)] += 1
    seconds = time.process_time() - started
    total = counts["decisions"]
    print(f"{args.strategy}: {len(paths)} games, {total} decisions reviewed in {seconds:.0f} CPU-s")
    for key in ("with a figure", "review pick is not the strategy's action"):
        print(f"  {key}: {counts[key]} ({counts[key] / max(total, 1):.1%})")
    print("  by shanten (5 means 5 or more): with a figure / all")
    for shanten in range(-1, 6):
        figured = by_shanten[(shanten, True)]
        seen = figured + by_shanten[(shanten, False)]
        if seen:
            print(f"    {shanten:>2}: {figured} / {seen} ({figured / seen:.1%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
