"""What every benchmark here shares: one timed pass over prepared inputs."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Sequence
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
