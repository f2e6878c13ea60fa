"""Shared fixtures for the core tests: the external test data folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

#: ``/work/main/tests/core/conftest.py`` -> ``/work/shared/testdata`` (next to the repository).
DEFAULT_TESTDATA = Path(__file__).resolve().parents[2].parent / "shared" / "testdata"


def testdata_root() -> Path:
    """Where the shared test vectors live (``TENPAI_TESTDATA`` overrides the default)."""
    override = os.environ.get("TENPAI_TESTDATA")
    return Path(override) if override else DEFAULT_TESTDATA


@pytest.fixture(scope="session")
def testdata() -> Path:
    """The shared test-data folder; skips the test when it is not there."""
    root = testdata_root()
    if not root.is_dir():
        pytest.skip(f"shared test data not found at {root} (set TENPAI_TESTDATA to its folder)")
    return root
