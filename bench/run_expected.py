"""Time the expected-score search and compare its choices with mahjong-cpp's.

Run from the repository root::

    .venv/bin/python bench/run_expected.py [--tenpai 20] [--one 150] [--two 150] [--three 20] [--seed 13]
        [--peer /work/peers/driver/build/esdriver] [--repeat 3] [--json out.json]

Hands: one fresh shuffle of the 136 tiles per try (one red five per suit), 14 tiles
dealt, one dora indicator turned, a seat wind 1z-4z; a try is kept while its shanten's
quota is open.  Both sides get the same hand, dora indicator, round (East) and seat.

For each hand the script times :func:`app.core.advice.expected_score.expected_scores` (best
of ``--repeat`` runs, garbage collector off) and, when the peer driver exists, reads
mahjong-cpp's own timing of ``ExpectedScoreCalculator::calc`` (one thread) from it.

A search cut by the state budget (``--max-states``, the core's default) is counted in
the ``cut`` column; its numbers are lower bounds.

Agreement: our pick is the discard with our highest expected score; it agrees when
mahjong-cpp's expected score for that discard is within 1% of mahjong-cpp's best.
"Given up" is the share of mahjong-cpp's best expected score that our pick loses
(by mahjong-cpp's numbers).  The largest probability differences per discard are
reported too (they are equal by construction where both model the same moves).
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import random
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Final

from app.core.advice.expected_score import DEFAULT_MAX_STATES, ExpectedScores, expected_scores
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand
from app.core.shape.rules import rule_profile
from app.core.shape.tiles import EAST, NUM_TILE_KINDS, format_tile

RULES: Final = rule_profile("riichi")
CHECKER: Final = Checker(RULES)
FIVES: Final = (4, 13, 22)
DEFAULT_PEER: Final = "/work/peers/driver/build/esdriver"
AGREEMENT: Final = 0.01


class Deal:
    """One generated hand: tiles, red fives held, dora indicator, seat wind."""

    def __init__(self, tiles: list[int], reds: tuple[int, ...], indicator: int, seat: int) -> None:
        self.tiles = sorted(tiles)
        self.reds = reds
        self.indicator = indicator
        self.seat = seat
        self.hand = Hand.from_tiles(self.tiles)
        self.shanten = CHECKER.shanten(self.hand).shanten

    def mpsz(self) -> str:
        """The hand in mpsz with ``0`` for each red five held."""
        parts = []
        for suit, letter in enumerate("mpsz"):
            digits = [str(tile - 9 * suit + 1) for tile in self.tiles if tile // 9 == suit]
            if suit < 3 and 9 * suit + 4 in self.reds:
                digits[digits.index("5")] = "0"
            if digits:
                parts.append("".join(digits) + letter)
        return "".join(parts)

    def line(self) -> str:
        return f"hand={self.mpsz()} dora={format_tile(self.indicator)} round=1z seat={format_tile(self.seat)}"


def deal_hands(seed: int, quotas: dict[int, int]) -> list[Deal]:
    """Hands by shanten until every quota is met (tries are seeded, so the list is reproducible)."""
    rng = random.Random(seed)
    wall = [tile for tile in range(NUM_TILE_KINDS) for _ in range(4)]
    kept: list[Deal] = []
    left = dict(quotas)
    while any(left.values()):
        # Copy 0 of each five is its red one.
        order = list(range(len(wall)))
        rng.shuffle(order)
        drawn = order[:14]
        tiles = [wall[i] for i in drawn]
        reds = tuple(sorted(wall[i] for i in drawn if wall[i] in FIVES and i % 4 == 0))
        indicator = wall[order[14]]
        seat = EAST + rng.randrange(4)
        deal = Deal(tiles, reds, indicator, seat)
        if left.get(deal.shanten, 0) > 0:
            left[deal.shanten] -= 1
            kept.append(deal)
    return kept


def ours(deal: Deal, repeat: int, extra: int, max_states: int) -> tuple[ExpectedScores, float]:
    best = math.inf
    found = None
    gc.disable()
    try:
        for _ in range(repeat):
            started = time.perf_counter()
            found = expected_scores(
                deal.hand,
                RULES,
                red_fives=deal.reds,
                dora_indicators=(deal.indicator,),
                seat_wind=deal.seat,
                extra=extra,
                max_states=max_states,
            )
            best = min(best, time.perf_counter() - started)
    finally:
        gc.enable()
    assert found is not None
    return found, best * 1000


def label(tile: int, red: bool) -> str:
    return f"0{'mps'[tile // 9]}" if red else format_tile(tile)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tenpai", type=int, default=20)
    parser.add_argument("--one", type=int, default=150)
    parser.add_argument("--two", type=int, default=150)
    parser.add_argument("--three", type=int, default=20)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--peer", default=DEFAULT_PEER)
    parser.add_argument("--extra", type=int, default=1, help="our detours per path (mahjong-cpp's stays 1)")
    parser.add_argument("--max-states", type=int, default=DEFAULT_MAX_STATES, help="our state budget per search")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    deals = deal_hands(args.seed, {0: args.tenpai, 1: args.one, 2: args.two, 3: args.three})
    peer_answers: list[dict[str, Any] | None] = [None] * len(deals)
    if Path(args.peer).exists():
        lines = "".join(deal.line() + "\n" for deal in deals)
        output = subprocess.run([args.peer], input=lines, capture_output=True, text=True, check=True).stdout
        peer_answers = [json.loads(line) for line in output.splitlines()]
    else:
        print(f"peer driver {args.peer} not found: timing ours only", file=sys.stderr)
    expected_scores(deals[0].hand, RULES)  # warm the tables
    times: dict[int, list[float]] = defaultdict(list)
    peer_times: dict[int, list[float]] = defaultdict(list)
    states: dict[int, list[int]] = defaultdict(list)
    agree: dict[int, list[bool]] = defaultdict(list)
    given_up: dict[int, list[float]] = defaultdict(list)
    incomplete: dict[int, int] = defaultdict(int)
    worst_probability = 0.0
    worst_score = 0.0
    rows = []
    for deal, peer in zip(deals, peer_answers, strict=True):
        found, ms = ours(deal, args.repeat, args.extra, args.max_states)
        if not found.complete:
            incomplete[deal.shanten] += 1
        times[deal.shanten].append(ms)
        states[deal.shanten].append(found.states)
        row: dict[str, Any] = {"hand": deal.line(), "shanten": deal.shanten, "ms": ms, "states": found.states}
        if peer is not None and "discards" in peer:
            peer_times[deal.shanten].append(peer["elapsed_ns"] / 1e6)
            theirs = {d["tile"]: d for d in peer["discards"]}
            pick = max(found.discards, key=lambda d: (d.expected_score, -d.tile))
            best = max(d["exp_score"][0] for d in theirs.values())
            got = theirs[label(pick.tile, pick.red)]["exp_score"][0]
            agree[deal.shanten].append(got >= (1 - AGREEMENT) * best)
            given_up[deal.shanten].append((best - got) / best if best > 0 else 0.0)
            for d in found.discards:
                other = theirs.get(label(d.tile, d.red))
                if other is not None and found.complete:  # a cut search gives lower bounds
                    worst_probability = max(
                        worst_probability,
                        abs(d.win_probability - other["win_prob"][0]),
                        abs(d.tenpai_probability - other["tenpai_prob"][0]),
                    )
                    scale = max(1.0, abs(other["exp_score"][0]))
                    worst_score = max(worst_score, abs(d.expected_score - other["exp_score"][0]) / scale)
            row.update(
                pick=label(pick.tile, pick.red), peer_ms=peer["elapsed_ns"] / 1e6, given_up=given_up[deal.shanten][-1]
            )
        rows.append(row)
    print(f"hands: {len(deals)} (seed {args.seed}); ours: best of {args.repeat} runs, one thread")
    print(
        "shanten  hands  ours median ms  ours p95 ms  peer median ms  peer p95 ms  ours/peer  median states  cut  "
        "agree  given up"
    )
    for shanten in sorted(times):
        mine = times[shanten]
        theirs_ms = peer_times.get(shanten, [])
        rate = statistics.mean(agree[shanten]) if agree.get(shanten) else float("nan")
        lost = statistics.mean(given_up[shanten]) if given_up.get(shanten) else float("nan")
        print(
            f"{shanten:7d}  {len(mine):5d}  {statistics.median(mine):14.2f}  {percentile(mine, 0.95):11.2f}  "
            f"{statistics.median(theirs_ms) if theirs_ms else float('nan'):14.2f}  "
            f"{percentile(theirs_ms, 0.95) if theirs_ms else float('nan'):11.2f}  "
            f"{statistics.median(mine) / statistics.median(theirs_ms) if theirs_ms else float('nan'):9.3f}  "
            f"{statistics.median(states[shanten]):13.0f}  {incomplete[shanten]:3d}  {rate:5.1%}  {lost:8.3%}"
        )
    everything = [a for values in agree.values() for a in values]
    if everything:
        lost_all = [g for values in given_up.values() for g in values]
        print(
            f"all: agreement {statistics.mean(everything):.1%}, mean share given up {statistics.mean(lost_all):.3%}, "
            f"largest probability difference {worst_probability:.2e}, largest relative expected-score "
            f"difference {worst_score:.2e} (searches not cut)"
        )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
