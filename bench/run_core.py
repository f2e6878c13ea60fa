"""Time the rules core against mahjong 2.1.0 and riichienv on the same hands.

Run from the repository root, in the bench environment (see bench/README.md)::

    bench/.venv/bin/python bench/run_core.py [--hands N] [--seed S] [--json out.json]

Every implementation gets the same hands, converted ahead of time into its own
input format (``Hand`` for ours, 34-count lists for mahjong, sorted 136-ids
for riichienv); conversion is not timed.  Each timing is a plain Python loop
over the hands, warmed up first, repeated ``--repeat`` times with the garbage
collector off (as ``timeit`` does); the table shows the best pass and the
median pass, in microseconds per hand.  While timing, the answers are compared
and the disagreements are counted and printed.
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
from dataclasses import asdict, dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import Any, Final

import numpy as np
import riichienv
from mahjong.agari import Agari
from mahjong.shanten import Shanten
from timing import cpu_model, timed_pass_ns

from app.core.shape.engine import Checker
from app.core.shape.hand import Hand
from app.core.shape.rules import rule_profile
from app.core.shape.shanten import regular_distance, seven_pairs_distance, thirteen_orphans_distance
from app.core.shape.tiles import NUM_TILE_KINDS, format_mpsz, tiles_from_counts

try:  # written alongside this harness; the batch rows are skipped without it
    from app.core.shape.batch import shanten_batch
except ImportError:  # pragma: no cover - depends on the state of app/
    shanten_batch = None

WALL_SIZE: Final = 136
COPIES: Final = 4
MELD_KINDS: Final = 34 + 3 * 7  # every triplet and every chow
APRICOT_DIR: Final = Path(__file__).resolve().parent.parent.parent / "shared" / "testdata" / "apricot-handgen"
APRICOT_FILES: Final = ("normal", "half_flush", "full_flush", "thirteen_orphans")
MAX_PRINTED_MISMATCHES: Final = 5
WARMUP_HANDS: Final = 50

OURS: Final = "tenpai Checker"
OURS_RAW: Final = "tenpai raw functions"
OURS_BATCH: Final = "tenpai shanten_batch"
MAHJONG: Final = "mahjong 2.1.0"
RIICHIENV: Final = "riichienv"

# --- hands ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BenchHand:
    """One closed hand in every input format the implementations take."""

    ids: list[int]  # sorted 136-ids (riichienv)
    counts: list[int]  # 34 counts (mahjong)
    hand: Hand  # ours
    spare: list[int | None]  # per kind, a 136-id not in the hand (None: all four held)

    @property
    def notation(self) -> str:
        return format_mpsz(tiles_from_counts(bytes(self.counts)))


def bench_hand(ids: Sequence[int]) -> BenchHand:
    ids = sorted(ids)
    counts = [0] * NUM_TILE_KINDS
    for tile_id in ids:
        counts[tile_id // COPIES] += 1
    held = set(ids)
    spare = [
        next((k * COPIES + c for c in range(COPIES) if k * COPIES + c not in held), None) for k in range(NUM_TILE_KINDS)
    ]
    return BenchHand(ids, counts, Hand(bytes(counts)), spare)


def random_hands(rng: random.Random, count: int, size: int) -> list[BenchHand]:
    """``count`` hands of ``size`` tiles, each drawn from a freshly shuffled 136-tile wall."""
    wall = list(range(WALL_SIZE))
    hands = []
    for _ in range(count):
        rng.shuffle(wall)
        hands.append(bench_hand(wall[:size]))
    return hands


def complete_hands(rng: random.Random, count: int) -> list[BenchHand]:
    """Random 4 melds + a pair (melds uniform over the 55 kinds), kept under the 4-copy limit."""
    hands = []
    while len(hands) < count:
        counts = [0] * NUM_TILE_KINDS
        counts[rng.randrange(NUM_TILE_KINDS)] += 2
        for _ in range(4):
            meld = rng.randrange(MELD_KINDS)
            if meld < NUM_TILE_KINDS:
                counts[meld] += 3
            else:
                suit, start = divmod(meld - NUM_TILE_KINDS, 7)
                for tile in range(suit * 9 + start, suit * 9 + start + 3):
                    counts[tile] += 1
        if max(counts) <= COPIES:
            hands.append(bench_hand([k * COPIES + c for k in range(NUM_TILE_KINDS) for c in range(counts[k])]))
    return hands


def apricot_hands(limit: int) -> dict[str, list[BenchHand]]:
    """The shared Apricot-S handgen hands (14 tiles as 34-kinds), if the folder is there."""
    sets = {}
    for name in APRICOT_FILES:
        path = APRICOT_DIR / f"hands_{name}_10000.txt"
        if not path.exists():
            continue
        hands = []
        for line in path.read_text().splitlines()[:limit]:
            kinds = [int(t) for t in line.split()]
            copies = [0] * NUM_TILE_KINDS
            ids = []
            for kind in kinds:
                ids.append(kind * COPIES + copies[kind])
                copies[kind] += 1
            hands.append(bench_hand(ids))
        sets[f"apricot {name}"] = hands
    return sets


def batch_counts(seed: int, count: int, size: int) -> np.ndarray:
    """(count, 34) uint8 counts of ``size``-tile hands drawn from shuffled walls."""
    generator = np.random.default_rng(seed)
    draws = np.argsort(generator.random((count, WALL_SIZE)), axis=1)[:, :size] // COPIES
    offsets = (np.arange(count) * NUM_TILE_KINDS)[:, None]
    flat = np.bincount((draws + offsets).ravel(), minlength=count * NUM_TILE_KINDS)
    return flat.reshape(count, NUM_TILE_KINDS).astype(np.uint8)


# --- the implementations, one small function per question --------------------

CHECKER: Final = Checker(rule_profile("riichi"))
mahjong_shanten = Shanten.calculate_shanten
mahjong_is_agari = Agari().is_agari
riichienv_shanten = riichienv.calculate_shanten


def ours_shanten(h: BenchHand) -> int:
    return CHECKER.shanten(h.hand).shanten


def raw_shanten_of_counts(counts: bytes) -> int:
    return min(regular_distance(counts, 4), seven_pairs_distance(counts), thirteen_orphans_distance(counts)) - 1


def ours_ukeire(h: BenchHand) -> tuple[int, tuple[tuple[int, int], ...]]:
    result = CHECKER.shanten(h.hand)
    return result.shanten, tuple((t.tile, t.remaining) for t in result.ukeire)


def mahjong_ukeire(h: BenchHand) -> tuple[int, tuple[tuple[int, int], ...]]:
    work = list(h.counts)
    now = mahjong_shanten(work)
    found = []
    for tile in range(NUM_TILE_KINDS):
        if work[tile] < COPIES:
            work[tile] += 1
            if mahjong_shanten(work) < now:
                found.append((tile, COPIES - h.counts[tile]))
            work[tile] -= 1
    return now, tuple(found)


def riichienv_ukeire(h: BenchHand) -> tuple[int, tuple[tuple[int, int], ...]]:
    ids = h.ids
    now = riichienv_shanten(ids)
    found = []
    for tile, extra in enumerate(h.spare):
        if extra is not None and riichienv_shanten(ids + [extra]) < now:
            found.append((tile, COPIES - h.counts[tile]))
    return now, tuple(found)


Discards = list[tuple[int, int, tuple[tuple[int, int], ...]]]


def ours_discards(h: BenchHand) -> Discards:
    return [(o.tile, o.shanten, tuple((t.tile, t.remaining) for t in o.ukeire)) for o in CHECKER.discards(h.hand)]


def mahjong_discards(h: BenchHand) -> Discards:
    held = h.counts
    work = list(held)
    options = []
    for discard in range(NUM_TILE_KINDS):
        if not work[discard]:
            continue
        work[discard] -= 1
        after = mahjong_shanten(work)
        found = []
        for tile in range(NUM_TILE_KINDS):
            if work[tile] < COPIES:
                work[tile] += 1
                if mahjong_shanten(work) < after:
                    found.append((tile, COPIES - held[tile]))
                work[tile] -= 1
        work[discard] += 1
        options.append((discard, after, tuple(found)))
    return options


def riichienv_discards(h: BenchHand) -> Discards:
    ids, spare, held = h.ids, h.spare, h.counts
    options = []
    previous = -1
    for position, tile_id in enumerate(ids):
        discard = tile_id // COPIES
        if discard == previous:  # ids are sorted: one option per kind
            continue
        previous = discard
        rest = ids[:position] + ids[position + 1 :]
        after = riichienv_shanten(rest)
        found = []
        for tile in range(NUM_TILE_KINDS):
            extra = spare[tile]
            if extra is None:
                if tile != discard:
                    continue
                extra = tile_id  # all four were held; the discarded copy can come back
            if riichienv_shanten(rest + [extra]) < after:
                found.append((tile, COPIES - held[tile]))
        options.append((discard, after, tuple(found)))
    return options


# --- timing and bookkeeping ----------------------------------------------------


@dataclass
class Row:
    case: str
    impl: str
    hands: int
    best_us: float
    median_us: float
    passes_ns: list[int] = field(default_factory=list)
    note: str = ""


@dataclass
class Agreement:
    check: str
    hands: int
    agree: int
    examples: list[str] = field(default_factory=list)


Contender = tuple[str, Callable[[Any], Any], Sequence[Any]]  # (implementation, function, its inputs)


class Bench:
    def __init__(self, repeat: int) -> None:
        self.repeat = repeat
        self.rows: list[Row] = []
        self.agreements: list[Agreement] = []

    def time(self, case: str, contenders: Sequence[Contender], note: str = "") -> list[Row]:
        """Time every contender on its inputs; passes are interleaved so that a
        slow moment of a shared machine hits all of them, not one."""
        for _, fn, inputs in contenders:
            for item in inputs[:WARMUP_HANDS]:
                fn(item)
        passes: list[list[int]] = [[] for _ in contenders]
        for _ in range(self.repeat):
            for slot, (_, fn, inputs) in enumerate(contenders):
                passes[slot].append(timed_pass_ns(fn, inputs))
        rows = []
        for (impl, _, inputs), samples in zip(contenders, passes, strict=True):
            n = len(inputs)
            row = Row(case, impl, n, min(samples) / n / 1000, statistics.median(samples) / n / 1000, samples, note)
            rows.append(row)
            print(f"  {case:<44} {impl:<26} {row.best_us:10.3f} µs/hand", file=sys.stderr, flush=True)
        self.rows.extend(rows)
        return rows

    def time_batch(self, case: str, impl: str, fn: Callable[[np.ndarray], Any], array: np.ndarray) -> Row:
        fn(array[:1000])
        passes = [timed_pass_ns(fn, (array,)) for _ in range(self.repeat)]
        n = len(array)
        row = Row(case, impl, n, min(passes) / n / 1000, statistics.median(passes) / n / 1000, passes, "one call")
        self.rows.append(row)
        print(f"  {case:<44} {impl:<26} {row.best_us:10.3f} µs/hand", file=sys.stderr, flush=True)
        return row

    def agree(self, check: str, labels: Sequence[str], answers: Sequence[Sequence[Any]], hands: Sequence[str]) -> None:
        """Count hands on which every answer list agrees; keep a few disagreements."""
        agreement = Agreement(check, len(hands), 0)
        for index, notation in enumerate(hands):
            values = [a[index] for a in answers]
            if all(v == values[0] for v in values):
                agreement.agree += 1
            elif len(agreement.examples) < MAX_PRINTED_MISMATCHES:
                shown = ", ".join(f"{label}={_short(v)}" for label, v in zip(labels, values, strict=True))
                agreement.examples.append(f"{notation}: {shown}")
        self.agreements.append(agreement)

    def find(self, case: str, impl: str) -> Row | None:
        return next((r for r in self.rows if r.case == case and r.impl == impl), None)


def _short(value: Any) -> str:
    text = str(value)
    return text if len(text) <= 160 else text[:157] + "..."


# --- the workloads -------------------------------------------------------------


def shanten_section(bench: Bench, case: str, hands: list[BenchHand]) -> None:
    ids = [h.ids for h in hands]
    counts = [h.counts for h in hands]
    raw = [h.hand.counts for h in hands]
    # Checker.shanten also lists the ukeire of a 13-tile hand; the label says so.
    checker = OURS if hands[0].hand.tile_count % 3 == 2 else f"{OURS} (+ukeire)"
    bench.time(
        case,
        (
            (checker, ours_shanten, hands),
            (OURS_RAW, raw_shanten_of_counts, raw),
            (MAHJONG, mahjong_shanten, counts),
            (RIICHIENV, riichienv_shanten, ids),
        ),
    )
    ours = [ours_shanten(h) for h in hands]
    names = [h.notation for h in hands]
    bench.agree(
        f"{case}: Checker = raw functions", ("checker", "raw"), (ours, [raw_shanten_of_counts(c) for c in raw]), names
    )
    bench.agree(f"{case}: ours = mahjong", ("ours", "mahjong"), (ours, [mahjong_shanten(c) for c in counts]), names)
    bench.agree(f"{case}: ours = riichienv", ("ours", "riichienv"), (ours, [riichienv_shanten(i) for i in ids]), names)


def batch_section(bench: Bench, seed: int, count: int) -> None:
    if shanten_batch is None:
        print("  app.core.shape.batch.shanten_batch is missing: batch rows skipped", file=sys.stderr)
        return
    array = batch_counts(seed, count, 14)
    case = "batch shanten, 14 tiles"
    bench.time_batch(case, OURS_BATCH, shanten_batch, array)
    got = np.asarray(shanten_batch(array)).tolist()
    rows = [bytes(r) for r in array.tolist()]
    expected = [raw_shanten_of_counts(r) for r in rows]
    names = [format_mpsz(tiles_from_counts(r)) for r in rows]
    bench.agree(f"{case}: batch = raw functions", ("batch", "raw"), (got, expected), names)


def win_section(bench: Bench, hands: list[BenchHand]) -> None:
    case = "win check, complete 14 tiles"
    bench.time(
        case,
        (
            (OURS, lambda h: CHECKER.is_win(h.hand), hands),
            (MAHJONG, mahjong_is_agari, [h.counts for h in hands]),
            (RIICHIENV, lambda ids: riichienv_shanten(ids) == -1, [h.ids for h in hands]),
        ),
        note="riichienv: calculate_shanten(ids) == -1",
    )
    names = [h.notation for h in hands]
    bench.agree(
        f"{case}: all three say win",
        ("expected", "ours", "mahjong", "riichienv"),
        (
            [True] * len(hands),
            [CHECKER.is_win(h.hand) for h in hands],
            [mahjong_is_agari(h.counts) for h in hands],
            [riichienv_shanten(h.ids) == -1 for h in hands],
        ),
        names,
    )


def composed_section(
    bench: Bench,
    case: str,
    hands: list[BenchHand],
    ours: Callable[[BenchHand], Any],
    peers: Sequence[tuple[str, Callable[[BenchHand], Any]]],
) -> None:
    bench.time(
        case,
        [(OURS, ours, hands), *((impl, fn, hands) for impl, fn in peers)],
        note="peers composed from one shanten call per discard and draw",
    )
    names = [h.notation for h in hands]
    mine = [ours(h) for h in hands]
    for impl, fn in peers:
        bench.agree(f"{case}: ours = {impl}", ("ours", impl), (mine, [fn(h) for h in hands]), names)


# --- report --------------------------------------------------------------------

TARGETS: Final = (
    # (label, case prefix, impl, kind, bound)
    ("single-hand shanten >= 10x faster than mahjong 2.1.0", "shanten, 14 tiles (random)", OURS, "speedup", 10.0),
    ("  (raw function path)", "shanten, 14 tiles (random)", OURS_RAW, "speedup", 10.0),
    ("batch shanten <= 0.3 µs/hand", "batch shanten, 14 tiles", OURS_BATCH, "max_us", 0.3),
    ("win check on complete hands <= 1 µs", "win check, complete 14 tiles", OURS, "max_us", 1.0),
    ("14-tile per-discard analysis with ukeire <= 165 µs", "discards + ukeire, 14 tiles", OURS, "max_us", 165.0),
)


def environment() -> dict[str, str]:
    cpu = cpu_model()
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "numpy": np.__version__,
        "mahjong": version("mahjong"),
        "riichienv": version("riichienv"),
        "platform": platform.platform(),
        "cpu": cpu,
        "cpus": str(os.cpu_count()),
    }


def evaluate_targets(bench: Bench) -> list[dict[str, Any]]:
    verdicts = []
    for label, case, impl, kind, bound in TARGETS:
        row = bench.find(case, impl)
        if row is None:
            verdicts.append({"target": label, "value": None, "met": None})
            continue
        if kind == "speedup":
            peer = bench.find(case, MAHJONG)
            value = peer.best_us / row.best_us
            met = value >= bound
            shown = f"{value:.1f}x"
        else:
            value = row.best_us
            met = value <= bound
            shown = f"{value:.3f} µs"
        verdicts.append({"target": label, "value": value, "shown": shown, "met": met})
    return verdicts


def print_report(bench: Bench, env: dict[str, str], verdicts: list[dict[str, Any]]) -> None:
    print(
        f"python {env['python']} ({env['implementation']}), numpy {env['numpy']}, "
        f"mahjong {env['mahjong']}, riichienv {env['riichienv']}"
    )
    print(f"{env['cpu']}, {env['cpus']} cpus, {env['platform']}")
    print(f"best / median of {bench.repeat} passes; 'x mahjong' = mahjong time / this time (>1: faster)")
    print("batch row: 'x riichienv' compares with one riichienv call per hand (14-tile random case)")
    print()
    width = max(len(r.case) for r in bench.rows)
    header = (
        f"{'case':<{width}} {'implementation':<25} {'hands':>7} {'best µs':>10} {'median µs':>10} "
        f"{'x mahjong':>9} {'x riichienv':>11}"
    )
    print(header)
    print("-" * len(header))
    last_case = None
    for row in bench.rows:
        if last_case is not None and row.case != last_case:
            print()
        last_case = row.case
        mahjong_row = bench.find(row.case, MAHJONG)
        riichienv_row = bench.find(row.case, RIICHIENV)
        if row.case.startswith("batch") and riichienv_row is None:
            riichienv_row = bench.find("shanten, 14 tiles (random)", RIICHIENV)
        vs_mahjong = f"{mahjong_row.best_us / row.best_us:9.2f}" if mahjong_row else f"{'':9}"
        vs_riichienv = f"{riichienv_row.best_us / row.best_us:11.2f}" if riichienv_row else f"{'':11}"
        print(
            f"{row.case:<{width}} {row.impl:<25} {row.hands:>7} {row.best_us:>10.3f} {row.median_us:>10.3f} "
            f"{vs_mahjong} {vs_riichienv}"
        )
    print()
    print("targets (ours, best pass):")
    for v in verdicts:
        state = "n/a" if v["met"] is None else ("MET" if v["met"] else "MISSED")
        print(f"  {v['target']:<52} {v.get('shown', '-'):>12}  {state}")
    print()
    print("agreement:")
    for a in bench.agreements:
        print(f"  {a.check:<70} {a.agree:>7}/{a.hands}")
        for example in a.examples:
            print(f"      differs: {example}")


# --- main ----------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000, help="random hands per single-hand case (default 2000)")
    parser.add_argument("--seed", type=int, default=2024, help="random seed (default 2024)")
    parser.add_argument("--json", type=Path, help="also write the results to this JSON file")
    parser.add_argument("--repeat", type=int, default=5, help="timed passes per row (default 5)")
    parser.add_argument("--batch", type=int, default=100_000, help="hands in the batch case (default 100000)")
    parser.add_argument(
        "--composed-hands",
        type=int,
        default=200,
        help="hands for the ukeire and discard cases, where the peers are slow (default 200)",
    )
    parser.add_argument(
        "--apricot",
        type=int,
        default=10_000,
        help="hands per shared apricot-handgen file, if present; 0 skips them (default and max 10000)",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    rng = random.Random(args.seed)
    fourteen = random_hands(rng, args.hands, 14)
    thirteen = random_hands(rng, args.hands, 13)
    complete = complete_hands(rng, args.hands)
    composed_14 = fourteen[: args.composed_hands]
    composed_13 = thirteen[: args.composed_hands]
    bench = Bench(args.repeat)
    env = environment()

    print("timing (progress):", file=sys.stderr)
    shanten_section(bench, "shanten, 14 tiles (random)", fourteen)
    shanten_section(bench, "shanten, 13 tiles (random)", thirteen)
    if args.apricot > 0:
        for name, hands in apricot_hands(args.apricot).items():
            shanten_section(bench, f"shanten, 14 tiles ({name})", hands)
    batch_section(bench, args.seed, args.batch)
    win_section(bench, complete)
    composed_section(
        bench,
        "shanten + ukeire, 13 tiles",
        composed_13,
        ours_ukeire,
        ((MAHJONG, mahjong_ukeire), (RIICHIENV, riichienv_ukeire)),
    )
    composed_section(
        bench,
        "discards + ukeire, 14 tiles",
        composed_14,
        ours_discards,
        ((MAHJONG, mahjong_discards), (RIICHIENV, riichienv_discards)),
    )

    verdicts = evaluate_targets(bench)
    print_report(bench, env, verdicts)
    elapsed = time.perf_counter() - started
    print(f"\nwall time {elapsed:.1f} s")
    if args.json:
        payload = {
            "environment": env,
            "config": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
            "rows": [asdict(r) for r in bench.rows],
            "targets": verdicts,
            "agreement": [asdict(a) for a in bench.agreements],
            "wall_seconds": elapsed,
        }
        args.json.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
