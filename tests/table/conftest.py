"""Fixtures for the table tests: the mjai judge's Python, its tools, and the recorded Tenhou games.

The judge is the PyPI package mjai 0.2.1 (Mortal's libriichi, AGPL), in a venv of its own
(``scripts/mjai_venv.sh``, which ``scripts/test.sh`` runs first).  These tests never import
it: they run ``tests/tools/*.py`` under that venv's Python.  Where the venv cannot be made,
they fail under ``CI=true`` (so a green CI run means they ran) and skip elsewhere.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from shared_data import shared_testdata_dir

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tests" / "tools"
IN_CI: bool = os.environ.get("CI") == "true"
#: Making the venv the first time downloads mjai and its wheels.
VENV_TIMEOUT_SECONDS = 600

RunTool = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture(scope="session")
def mjai_python() -> Path:
    """The Python of the mjai venv, made (or reused: instant) by scripts/mjai_venv.sh."""
    try:
        made = subprocess.run(
            ["bash", str(ROOT / "scripts" / "mjai_venv.sh")],
            capture_output=True,
            text=True,
            timeout=VENV_TIMEOUT_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        made = None
    if made is None or made.returncode != 0:
        why = "scripts/mjai_venv.sh could not make .venv-mjai (mjai==0.2.1)"
        detail = made.stderr[-2000:] if made is not None else f"timed out after {VENV_TIMEOUT_SECONDS} s"
        if IN_CI:
            pytest.fail(f"CI=true and {why}:\n{detail}")
        pytest.skip(f"{why}: {detail.strip().splitlines()[-1] if detail.strip() else 'no output'}")
    return Path(made.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="session")
def run_tool(mjai_python: Path) -> RunTool:
    """Run ``tests/tools/NAME.py ARGS...`` under the mjai venv's Python, in the project root."""

    def run(name: str, *args: str, stdin: str | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(mjai_python), str(TOOLS / f"{name}.py"), *args],
            cwd=ROOT,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    return run


@pytest.fixture(scope="session")
def tenhou_games() -> Path:
    """The folder of whole Tenhou games in mjai form; skips the test when it is not there."""
    folder = shared_testdata_dir() / "tenhou-games"
    if not (folder / "legal-actions.jsonl.gz").is_file():
        pytest.skip(f"the Tenhou games are not at {folder} (set TENPAI_TESTDATA to the shared test data folder)")
    return folder
