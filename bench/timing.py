"""What every benchmark here shares: one timed pass over prepared inputs, the machine's CPU."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any


def timed_pass_ns(fn: Callable[[Any], Any], inputs: Sequence[Any]) -> int:
    """One pass of ``fn`` over ``inputs`` with the garbage collector off, as ``timeit`` does."""
    gc.disable()
    try:
        start = time.perf_counter_ns()
        for item in inputs:
            fn(item)
        return time.perf_counter_ns() - start
    finally:
        gc.enable()


def cpu_model() -> str:
    """The processor's model name, as /proc/cpuinfo gives it ("unknown" elsewhere)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"
