"""The shared Tenhou games as the table tests read them (third-party data: read in place, never copied)."""

from __future__ import annotations

import gzip
import importlib.util
import json
import sys
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _shared_testdata() -> Path:
    if "shared_data" not in sys.modules:
        spec = importlib.util.spec_from_file_location("shared_data", ROOT / "tests" / "core" / "shared_data.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules["shared_data"] = module
    folder: Path = sys.modules["shared_data"].shared_testdata_dir()
    return folder


def games_dir() -> Path:
    """The folder of whole Tenhou games, or a skip saying why there is none."""
    folder = _shared_testdata() / "tenhou-games"
    if not (folder / "index.json").is_file():
        pytest.skip(f"the shared Tenhou games are not here ({folder}): third-party data, read in place, never copied")
    return folder


def four_player_games() -> list[Path]:
    return sorted(games_dir().glob("*.jsonl"))


def sanma_games() -> list[Path]:
    return sorted((games_dir() / "sanma").glob("*.jsonl"))


def events_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def legal_points() -> dict[str, list[dict[str, Any]]]:
    """libriichi's legal actions at every decision point, by game id."""
    points: dict[str, list[dict[str, Any]]] = defaultdict(list)
    with gzip.open(games_dir() / "legal-actions.jsonl.gz", "rt") as lines:
        for line in lines:
            point = json.loads(line)
            points[point["game"]].append(point)
    return points


def each_event(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    yield from enumerate(events_of(path))
