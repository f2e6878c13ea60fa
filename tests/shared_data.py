"""Where the shared test vectors live: one answer for every test folder's fixtures and helpers.

A plain module at the top of ``tests/`` (which the suite's conftest puts on the path), because
``import conftest`` finds whichever test folder's conftest was imported first.
"""

from __future__ import annotations

import os
from pathlib import Path

#: ``/work/main/tests/shared_data.py`` -> ``/work/shared/testdata`` (next to the repository).
DEFAULT_TESTDATA = Path(__file__).resolve().parents[1].parent / "shared" / "testdata"


def shared_testdata_dir() -> Path:
    """Where the shared test vectors live (``TENPAI_TESTDATA`` overrides the default)."""
    override = os.environ.get("TENPAI_TESTDATA")
    return Path(override) if override else DEFAULT_TESTDATA
