"""The hongzhong family's tests reuse the plain oracles of tests/core (oracles.py): put that folder
on the import path, as pytest does for the tests that live there."""

from __future__ import annotations

import sys
from pathlib import Path

_CORE_TESTS = str(Path(__file__).resolve().parents[2] / "core")
_API_TESTS = str(Path(__file__).resolve().parents[2] / "api")
for _folder in (_CORE_TESTS, _API_TESTS):
    if _folder not in sys.path:
        sys.path.append(_folder)
