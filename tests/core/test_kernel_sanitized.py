"""The compiled kernel under AddressSanitizer and UBSan, as part of the suite.

``scripts/kernel_sanitize.sh`` builds ``app.core._kernel`` with both sanitizers into a scratch
copy of the project and runs the kernel's fuzzing and differential tests against that build;
an out-of-bounds access, a use after free or undefined behaviour ends the run with a report.
About two minutes on the 2-core machine, most of it compiling.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _why_not() -> str | None:
    if os.environ.get("CI") == "true":
        return None  # under CI a missing compiler is a failure, not a skip
    if shutil.which("g++") is None:
        return "g++ is not installed: the sanitized build needs it"
    return None


@pytest.mark.slow
@pytest.mark.skipif(_why_not() is not None, reason=_why_not() or "")
def test_the_kernel_is_clean_under_the_sanitizers() -> None:
    result = subprocess.run(
        ["bash", str(ROOT / "scripts" / "kernel_sanitize.sh")], capture_output=True, text=True, timeout=1500
    )
    report = (result.stdout + result.stderr)[-6000:]
    assert result.returncode == 0, report
    assert " passed" in result.stdout and "failed" not in result.stdout, report
