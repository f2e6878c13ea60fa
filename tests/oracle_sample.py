"""How much of a large comparison a run checks: a fixed sample by default, everything on request.

The comparisons with outside oracles (tens of thousands of hands against ``mahjong``,
riichienv, PyMahjongGB, the nyanten / ara-shanten / apricot vectors, brute force, long
seeded replays) would make the default run take most of its time re-proving what a
sample of them already shows.  So by default each takes a sample, and
``pytest --full-oracles`` (or ``TENPAI_FULL_ORACLES=1`` in the environment) runs every
case.  A sample is always the same cases: a prefix of a seeded stream, or every k-th
vector of a file, never a random draw per run.

A plain module (not the conftest), because ``import conftest`` finds whichever folder's
conftest was imported first; ``tests/conftest.py`` turns the option into the variable.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from typing import Final, TypeVar

FULL_ORACLES_ENV: Final = "TENPAI_FULL_ORACLES"

T = TypeVar("T")


def full_oracles() -> bool:
    """Whether this run asked for every case (``--full-oracles`` or ``TENPAI_FULL_ORACLES=1``)."""
    return os.environ.get(FULL_ORACLES_ENV) == "1"


def scaled(full: int, sample: int) -> int:
    """``full`` under ``--full-oracles``, else ``sample``: how many cases of a seeded stream to check.

    The stream is seeded, so the sample is its first ``sample`` cases: the same on every run.
    """
    assert 0 < sample <= full, (sample, full)
    return full if full_oracles() else sample


def every_kth(items: Sequence[T], sample: int) -> list[T]:
    """Every item under ``--full-oracles``; else every k-th (first included), about ``sample`` of them.

    Spread over the whole file rather than its head, whose rows are often sorted by kind.
    """
    if full_oracles() or len(items) <= sample:
        return list(items)
    return list(items[:: math.ceil(len(items) / sample)])
