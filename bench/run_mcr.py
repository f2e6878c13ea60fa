"""Time MCR fan counting: tenpai's ``count_fans`` and ``score_mcr`` against PyMahjongGB 1.4.0.

Run from the repository root, in the bench environment (see bench/README.md)::

    bench/.venv/bin/python bench/run_mcr.py [--hands N] [--seed S] [--repeat R] [--json out.json]

Both sides score the same seeded winning situations, built by the test suite's
generator (``tests/core/mcr_situations.py``: every form, every meld kind, flowers
and every situational flag, with styles biased toward the rare fans).  Each
situation is converted beforehand to each side's input (``Hand`` and
``WinContext`` for ours, PyMahjongGB's pack/hand/tile strings); conversion is not
timed.  Rows:

* ``count_fans``: our fan count of the best reading, no floor (what PyMahjongGB's
  ``MahjongFanCalculator`` computes);
* ``score_mcr``: the whole /score work in the core on the hands of 8 fans or more
  (validation, fans, the 8-fan floor, payments);
* ``MahjongFanCalculator``: PyMahjongGB (C++) on the same hands.

Each round gives every row a cold pass and then a warm pass over the same hands (the fan
counting is compiled and keeps no cache of its own since the kernel took it over: any
``functools`` cache left in the scorer's modules is still emptied before a cold pass);
rounds interleave the rows, with the garbage collector off.  The table shows the
median of each, in µs per hand, and the ratio to PyMahjongGB.  While timing, total fan
is compared and disagreements are counted.
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import platform
import statistics
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "core"))  # the suite's situation generator and PyMahjongGB adapter

from MahjongGB import MahjongFanCalculator  # noqa: E402
from mcr_oracle import pymahjonggb_arguments  # noqa: E402
from mcr_situations import Situation, situations  # noqa: E402
from timing import cpu_model, timed_pass_ns  # noqa: E402

import app.core.value.mcr_scoring as mcr  # noqa: E402
from app.core.errors import TenpaiError  # noqa: E402
from app.core.shape.rules import rule_profile  # noqa: E402


def _clear_caches() -> int:
    """Empty every ``functools`` cache of the MCR scorer's modules; how many there were."""
    cleared = 0
    for module in [mcr, *(m for name, m in sys.modules.items() if name.startswith("app.core.mcr_"))]:
        for value in vars(module).values():
            if isinstance(value, functools._lru_cache_wrapper):
                value.cache_clear()
                cleared += 1
    return cleared


def _pymahjonggb_total(arguments: tuple[Any, ...]) -> int | None:
    try:
        answer = MahjongFanCalculator(*arguments, verbose=True)
    except TypeError:
        return None  # PyMahjongGB refuses the hand (e.g. it counts under 8 fans without flowers)
    return sum(value * count for value, count, chinese, _ in answer if chinese != "花牌")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=5000, help="random winning situations (default 5000)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the situations (default 2026)")
    parser.add_argument("--repeat", type=int, default=5, help="timed rounds (default 5)")
    parser.add_argument("--json", type=Path, help="also write the environment and every pass as JSON")
    options = parser.parse_args(argv)

    rules = rule_profile("mcr")
    built: list[Situation] = situations(options.seed, options.hands)
    # Only the situations both sides score: PyMahjongGB refuses some (see _pymahjonggb_total).
    theirs_args = [pymahjonggb_arguments(s.hand, s.win_tile, s.context) for s in built]
    kept = [(s, a) for s, a in zip(built, theirs_args, strict=True) if _pymahjonggb_total(a) is not None]
    ours_in = [(s.hand, s.win_tile, s.context) for s, _ in kept]
    theirs_in = [a for _, a in kept]
    scorable = [item for item in ours_in if mcr.fan_total(*item) >= mcr.MINIMUM_FAN]

    disagreements = sum(
        mcr.fan_total(*item) != _pymahjonggb_total(arguments)
        for item, arguments in zip(ours_in, theirs_in, strict=True)
    )

    def ours_count(item: tuple[Any, ...]) -> None:
        mcr.count_fans(*item)

    def ours_score(item: tuple[Any, ...]) -> None:
        try:
            mcr.score_mcr(item[0], item[1], rules, item[2])
        except TenpaiError:
            raise AssertionError("a kept hand of 8+ fans was refused") from None

    def theirs(arguments: tuple[Any, ...]) -> None:
        MahjongFanCalculator(*arguments, verbose=True)

    rows: dict[str, tuple[Callable[[Any], None], list[Any], bool]] = {
        "tenpai count_fans": (ours_count, ours_in, True),
        "tenpai score_mcr (8+ fans)": (ours_score, scorable, True),
        "PyMahjongGB MahjongFanCalculator": (theirs, theirs_in, False),
    }
    passes: dict[str, dict[str, list[float]]] = {name: {"cold": [], "warm": []} for name in rows}
    for round_index in range(options.repeat):
        for name, (fn, inputs, cached) in rows.items():
            if cached:
                _clear_caches()
            gc.collect()
            passes[name]["cold"].append(timed_pass_ns(fn, inputs) / 1000 / len(inputs))
            passes[name]["warm"].append(timed_pass_ns(fn, inputs) / 1000 / len(inputs))
        print(f"round {round_index + 1}/{options.repeat} done", file=sys.stderr)

    baseline = statistics.median(passes["PyMahjongGB MahjongFanCalculator"]["warm"])
    print(f"# MCR fan counting, {len(ours_in)} situations ({len(scorable)} of 8+ fans), seed {options.seed}")
    print(f"# {cpu_model()}, Python {platform.python_version()}, PyMahjongGB {version('PyMahjongGB')}")
    print(f"# total fan disagreements with PyMahjongGB: {disagreements}")
    print()
    print("| row | cold µs/hand | warm µs/hand | warm time / PyMahjongGB's |")
    print("| --- | --- | --- | --- |")
    for name, timing in passes.items():
        cold, warm = statistics.median(timing["cold"]), statistics.median(timing["warm"])
        print(f"| {name} | {cold:.1f} | {warm:.1f} | {warm / baseline:.2f}x |")
    if options.json:
        options.json.parent.mkdir(parents=True, exist_ok=True)
        report = {
            "hands": len(ours_in),
            "scorable": len(scorable),
            "seed": options.seed,
            "cpu": cpu_model(),
            "python": platform.python_version(),
            "disagreements": disagreements,
            "passes_us_per_hand": passes,
        }
        options.json.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
