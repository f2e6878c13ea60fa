"""The Guangdong tests read the core tests' brute-force oracles (tests/core/oracles.py)."""

from __future__ import annotations

import sys
from pathlib import Path

_CORE_TESTS = str(Path(__file__).resolve().parents[2] / "core")
if _CORE_TESTS not in sys.path:
    sys.path.append(_CORE_TESTS)
