"""Play check of a family's advisor: one ``advisor`` seat against three shanten-``greedy`` seats.

Every wall is played four times, once per rotation of the lineup, so the advisor sits in every
seat (and deals once) on the same tiles; those four hands are one block.  The report gives the
advisor's mean points a hand (``HandRecord.payments``: every payment of the hand, mid-hand ones
included) with a 95% confidence interval over the blocks' means.  Blocking by wall is why the
interval is read over blocks: the four hands of a wall are not independent, the walls are.

    PYTHONPATH=. python scripts/family_play.py --rules guangdong --hands 2000 --seed 1

``--hands`` is rounded up to a whole number of blocks.  The exit status is 0 when the interval
lies above zero, 1 otherwise, so a run can gate on it.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Sequence
from typing import NamedTuple

from app.core.families.registry import TABLES, table_rules_of
from app.core.table.game import GameConfig, play_game

ADVISOR = "advisor"
OPPONENT = "greedy"
Z_95 = 1.959964
"""The normal quantile of a two-sided 95% interval: hundreds of blocks make the t quantile this."""


class Check(NamedTuple):
    """What the run measured: per block (one wall, every rotation), the advisor's mean points."""

    rules: str
    blocks: tuple[float, ...]
    hands: int
    wins: int

    @property
    def mean(self) -> float:
        return statistics.fmean(self.blocks)

    @property
    def half_width(self) -> float:
        """Half the 95% interval of the mean; infinite with fewer than two blocks (no spread known)."""
        if len(self.blocks) < 2:
            return math.inf
        return Z_95 * statistics.stdev(self.blocks) / math.sqrt(len(self.blocks))


def advisor_seat(rotation: int, seats: int) -> int:
    """The seat holding the lineup's first player: seat s plays ``players[(s + rotation) % seats]``."""
    return (-rotation) % seats


def play_check(rules: str, hands: int, seed: int) -> Check:
    """Play ``hands`` hands (rounded up to whole blocks) of ``rules`` and measure the advisor."""
    seats = table_rules_of(rules).seats
    players = (ADVISOR,) + (OPPONENT,) * (seats - 1)
    blocks: list[float] = []
    played = wins = 0
    for wall in range(math.ceil(hands / seats)):
        points = 0
        for rotation in range(seats):
            config = GameConfig(rules=rules, players=players, seed=seed, rotation=rotation, record_events=False)
            record = play_game(config, wall, TABLES)
            seat = advisor_seat(rotation, seats)
            for hand in record.hands:
                points += hand.payments[seat]
                wins += seat in hand.winners
                played += 1
        blocks.append(points / seats)
    return Check(rules, tuple(blocks), played, wins)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", required=True, choices=sorted(TABLES))
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    started = time.monotonic()
    check = play_check(args.rules, args.hands, args.seed)
    low, high = check.mean - check.half_width, check.mean + check.half_width
    print(
        f"{check.rules}: {check.hands} hands ({len(check.blocks)} walls x every seat), seed {args.seed}, "
        f"{ADVISOR} vs 3 {OPPONENT}"
    )
    print(f"advisor wins {check.wins} hands ({check.wins / check.hands:.1%})")
    print(f"advisor mean points a hand {check.mean:+.3f}, 95% CI [{low:+.3f}, {high:+.3f}]")
    print(f"above zero with 95% confidence: {'yes' if low > 0 else 'no'} ({time.monotonic() - started:.0f} s)")
    return 0 if low > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
