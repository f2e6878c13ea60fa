"""Shared fixtures for the core tests: the external test data folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from shared_data import shared_testdata_dir


@pytest.fixture(scope="session")
def testdata() -> Path:
    """The shared test-data folder; skips the test when it is not there."""
    root = shared_testdata_dir()
    if not root.is_dir():
        pytest.skip(f"shared test data not found at {root} (set TENPAI_TESTDATA to its folder)")
    return root
