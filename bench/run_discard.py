"""Time the discard advisor's core against its own engine call and the mahjong package.

Run from the repository root, in the bench environment (see bench/README.md)::

    bench/.venv/bin/python bench/run_discard.py [--hands N] [--seed S] [--json out.json]

Three contenders get the same seeded 14-tile hands (one fresh shuffle of the
136-tile wall per hand), each converted beforehand to its own input:

* ``evaluate_discards``: the default advisor (no options, no opponents): every
  distinct discard's shanten, ukeire and score, sorted;
* ``Checker.discards``: the engine call it is built on, alone;
* ``mahjong`` 2.1.0 composed the same way: for each distinct discard one
  ``calculate_shanten``, then one per drawable tile, counts summed, sorted by
  shanten then ukeire (the peer is slow, so it gets ``--peer-hands`` hands).

Each timing is a plain Python loop over the hands after a warm-up, repeated
``--repeat`` times with the garbage collector off, passes interleaved across
contenders; the table shows the best and the median pass in µs per hand.  The
answers are compared (tile, shanten, ukeire count per discard) while benchmarking.

With ``--lookahead`` it also times the lookahead option on mahjong-cpp's sample
one- and two-shanten hands, beside mahjong-cpp's published C++ figures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Any, Final

from mahjong.shanten import Shanten
from timing import timed_pass_ns

from app.core.advice.discard import DiscardOptions, evaluate_discards
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand
from app.core.shape.rules import rule_profile
from app.core.shape.tables import tables
from app.core.shape.tiles import NUM_TILE_KINDS, format_mpsz, parse_mpsz, tiles_from_counts

TARGET_US: Final = 165.0
WARMUP_HANDS: Final = 50
COPIES: Final = 4
RULES: Final = rule_profile("riichi")
CHECKER: Final = Checker(RULES)
mahjong_shanten = Shanten.calculate_shanten

#: mahjong-cpp's sample hands (src/sample) and its published C++ timings of the
#: expected-value calculation, as quoted in issue 4.
CPP_HANDS: Final = (
    ("one-shanten", "222567m34p33667s4z", 18.0),
    ("two-shanten", "123349m3688p1245s", 213.0),
)

Ranked = list[tuple[int, int, int]]  # (tile, shanten, ukeire count), best first


def random_hands(seed: int, count: int) -> list[bytes]:
    rng = random.Random(seed)
    wall = list(range(136))
    hands = []
    for _ in range(count):
        rng.shuffle(wall)
        counts = bytearray(NUM_TILE_KINDS)
        for tile_id in wall[:14]:
            counts[tile_id // COPIES] += 1
        hands.append(bytes(counts))
    return hands


def ours(hand: Hand) -> Ranked:
    return [(c.tile, c.shanten, c.ukeire_count) for c in evaluate_discards(hand, RULES)]


def engine_only(hand: Hand) -> Ranked:
    return [(o.tile, o.shanten, o.ukeire_count) for o in CHECKER.discards(hand)]


def mahjong_composed(counts: list[int]) -> Ranked:
    work = list(counts)
    options = []
    for discard in range(NUM_TILE_KINDS):
        if not work[discard]:
            continue
        work[discard] -= 1
        after = mahjong_shanten(work)
        copies = 0
        for tile in range(NUM_TILE_KINDS):
            if work[tile] < COPIES:
                work[tile] += 1
                if mahjong_shanten(work) < after:
                    copies += COPIES - counts[tile]
                work[tile] -= 1
        work[discard] += 1
        options.append((discard, after, copies))
    options.sort(key=lambda o: (o[1], -o[2], o[0]))
    return options


def time_contenders(contenders: Sequence[tuple[str, Callable[[Any], Any], Sequence[Any]]], repeat: int) -> list[dict]:
    for _, fn, inputs in contenders:
        for item in inputs[:WARMUP_HANDS]:
            fn(item)
    passes: list[list[int]] = [[] for _ in contenders]
    for _ in range(repeat):
        for slot, (_, fn, inputs) in enumerate(contenders):
            passes[slot].append(timed_pass_ns(fn, inputs))
    rows = []
    for (name, _, inputs), samples in zip(contenders, passes, strict=True):
        n = len(inputs)
        rows.append(
            {
                "impl": name,
                "hands": n,
                "best_us": min(samples) / n / 1000,
                "median_us": statistics.median(samples) / n / 1000,
                "passes_ns": samples,
            }
        )
        print(f"  {name:<34} {rows[-1]['best_us']:10.1f} µs/hand", file=sys.stderr, flush=True)
    return rows


def agreement(hands: Sequence[bytes], peer_hands: int) -> dict[str, Any]:
    """Ours against the engine alone (every hand) and against mahjong (the peer's hands)."""
    checked = mismatches = 0
    examples = []
    for index, counts in enumerate(hands):
        mine = sorted(ours(Hand(counts)))
        engine = sorted(engine_only(Hand(counts)))
        peer = sorted(mahjong_composed(list(counts))) if index < peer_hands else engine
        checked += 1
        if not (mine == engine == peer):
            mismatches += 1
            if len(examples) < 5:
                examples.append(format_mpsz(tiles_from_counts(counts)))
    return {"hands": checked, "disagree": mismatches, "examples": examples}


def lookahead_section(draws: int, repeat: int) -> list[dict]:
    rows = []
    options = DiscardOptions(lookahead=True, lookahead_draws=draws, lookahead_budget=200_000)
    for label, text, cpp_ms in CPP_HANDS:
        hand = Hand.from_tiles(parse_mpsz(text))
        samples = []
        for _ in range(repeat):
            start = time.perf_counter()
            ranked = evaluate_discards(hand, RULES, options=options)
            samples.append((time.perf_counter() - start) * 1000)
        best = ranked[0]
        rows.append(
            {
                "hand": text,
                "shanten": CHECKER.shanten(hand).shanten,
                "label": label,
                "draws": draws,
                "best_ms": min(samples),
                "median_ms": statistics.median(samples),
                "mahjong_cpp_ms": cpp_ms,
                "states": sum(c.lookahead.states for c in ranked),
                "complete": all(c.lookahead.complete for c in ranked),
                "best_discard": format_mpsz([best.tile]),
                "tenpai": best.lookahead.tenpai_probability,
                "win": best.lookahead.win_probability,
            }
        )
        print(f"  lookahead {label:<12} {rows[-1]['best_ms']:8.1f} ms", file=sys.stderr, flush=True)
    return rows


def environment() -> dict[str, str]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "cpus": str(os.cpu_count()),
        "load_average": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "mahjong": version("mahjong"),
    }


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands for our two rows (default 2000)")
    parser.add_argument("--peer-hands", type=int, default=100, help="hands for the mahjong row (default 100)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of every hand (default 2024)")
    parser.add_argument("--repeat", type=int, default=7, help="timed passes per row (default 7)")
    parser.add_argument("--lookahead", action="store_true", help="also time the lookahead on mahjong-cpp's hands")
    parser.add_argument("--draws", type=int, default=17, help="lookahead draws (default 17)")
    parser.add_argument("--json", type=Path, help="also write everything as JSON")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    tables()
    hands = random_hands(args.seed, args.hands)
    ours_inputs = [Hand(counts) for counts in hands]
    peer_inputs = [list(counts) for counts in hands[: args.peer_hands]]
    print(f"timing {len(hands)} hands (mahjong: {len(peer_inputs)}), {args.repeat} passes", file=sys.stderr)
    rows = time_contenders(
        [
            ("evaluate_discards (default)", ours, ours_inputs),
            ("Checker.discards alone", engine_only, ours_inputs),
            ("mahjong 2.1.0 composed", mahjong_composed, peer_inputs),
        ],
        args.repeat,
    )
    agree = agreement(hands, args.peer_hands)
    ahead = lookahead_section(args.draws, max(1, args.repeat // 2)) if args.lookahead else []
    env = environment()

    ours_row, engine_row, peer_row = rows
    print(
        f"\n# /discard core, 14-tile hands, seed {args.seed}  ({env['python']}, {env['cpus']} cpus, "
        f"load {env['load_average']})\n"
    )
    print("| implementation | hands | best µs/hand | median µs/hand | x mahjong |")
    print("| --- | --- | --- | --- | --- |")
    for row in rows:
        print(
            f"| {row['impl']} | {row['hands']} | {row['best_us']:.1f} | {row['median_us']:.1f} | "
            f"{peer_row['best_us'] / row['best_us']:.0f} |"
        )
    overhead = ours_row["best_us"] - engine_row["best_us"]
    verdict = "meets" if ours_row["best_us"] <= TARGET_US else "misses"
    print(
        f"\ntarget: default evaluation <= {TARGET_US:.0f} µs/hand; measured {ours_row['best_us']:.1f} µs "
        f"(best pass) -> {verdict} it; scoring adds {overhead:.1f} µs to Checker.discards"
    )
    print(
        f"agreement (tile, shanten, ukeire per discard): {agree['hands'] - agree['disagree']}/{agree['hands']} hands"
        + (f"; e.g. {', '.join(agree['examples'])}" if agree["examples"] else "")
    )
    if ahead:
        print("\n| lookahead | hand | shanten | draws | ours best ms | median ms | states | mahjong-cpp (C++) ms |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")
        for row in ahead:
            print(
                f"| {row['label']} | {row['hand']} | {row['shanten']} | {row['draws']} | {row['best_ms']:.1f} | "
                f"{row['median_ms']:.1f} | {row['states']} | {row['mahjong_cpp_ms']:.0f} |"
            )
        print(
            "(ours: every discard, tenpai and win probability, no tile swaps at equal shanten; "
            "mahjong-cpp: expected score with swaps and backtracking; different work, same order of questions)"
        )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps(
                {
                    "environment": env,
                    "seed": args.seed,
                    "target_us": TARGET_US,
                    "rows": rows,
                    "agreement": agree,
                    "lookahead": ahead,
                },
                indent=2,
            ),
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
