"""Where the shared test vectors live: one answer for the conftest fixture and the helper modules.

A plain module, because ``import conftest`` finds whichever test folder's conftest was
imported first.
"""

from __future__ import annotations

import os
from pathlib import Path

#: ``/work/main/tests/core/shared_data.py`` -> ``/work/shared/testdata`` (next to the repository).
DEFAULT_TESTDATA = Path(__file__).resolve().parents[2].parent / "shared" / "testdata"


def shared_testdata_dir() -> Path:
    """Where the shared test vectors live (``TENPAI_TESTDATA`` overrides the default)."""
    override = os.environ.get("TENPAI_TESTDATA")
    return Path(override) if override else DEFAULT_TESTDATA
