"""The libriichi oracle (tests/tools/libriichi_oracle.py) reproduces the recorded legal actions.

``../shared/testdata/tenhou-games/legal-actions.jsonl.gz`` holds libriichi's legal actions at
every decision point of 54 real games; the oracle, which the table's ``/act`` will be
judged by on arena games too, must give the same sets, point for point.  By default a fixed
sample of games (every k-th, plus the first game holding each rare kind of point);
``--full-oracles`` runs all of them (34,266 points, about 10 s).
"""

from __future__ import annotations

import gzip
import json
import subprocess
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from oracle_sample import every_kth

#: The ``run_tool`` fixture (tests/table/conftest.py): a script of tests/tools/ under the mjai venv.
RunTool = Callable[..., subprocess.CompletedProcess[str]]

#: About this many games, spread over the folder, besides the rare kinds' games.
SAMPLE_GAMES = 6


def reference_points(folder: Path) -> dict[str, list[dict[str, Any]]]:
    by_game: dict[str, list[dict[str, Any]]] = defaultdict(list)
    with gzip.open(folder / "legal-actions.jsonl.gz", "rt") as f:
        for line in f:
            point = json.loads(line)
            by_game[point["game"]].append(point)
    return by_game


def rare_kinds(point: dict[str, Any]) -> set[str]:
    """The kinds of point few games hold: a robbed kan, nine terminals, kans, a kan in riichi, ..."""
    types = {action["type"] for action in point["legal"]}
    kinds = {f"after {point['after']}"} | {f"may {t}" for t in types & {"ryukyoku", "daiminkan", "kakan", "ankan"}}
    if point["after"] == "tsumo" and {"reach", "ankan"} <= types:
        kinds.add("ankan beside reach")
    if point["taken"] is None:
        kinds.add("unknown claim")
    return kinds


def sample_games(folder: Path, by_game: dict[str, list[dict[str, Any]]]) -> list[Path]:
    games = sorted(folder.glob("*.jsonl"))
    chosen = {path.name.removesuffix(".jsonl") for path in every_kth(games, SAMPLE_GAMES)}
    seen: set[str] = set()
    for game in sorted(by_game):
        for point in by_game[game]:
            new = rare_kinds(point) - seen
            if new:
                seen |= new
                chosen.add(game)
    return [path for path in games if path.name.removesuffix(".jsonl") in chosen]


def test_the_oracle_gives_the_recorded_legal_actions_at_every_point(run_tool: RunTool, tenhou_games: Path) -> None:
    by_game = reference_points(tenhou_games)
    games = sample_games(tenhou_games, by_game)
    done = run_tool(
        "libriichi_oracle",
        "--games",
        *map(str, games),
        "--compare",
        str(tenhou_games / "legal-actions.jsonl.gz"),
    )
    assert done.stderr == ""
    summary = json.loads(done.stdout)
    expected = sum(len(by_game[path.name.removesuffix(".jsonl")]) for path in games)
    assert summary["games"] == len(games)
    assert summary["points"] == expected > 0
    assert summary["differences"] == []
    assert summary["legal_agree"] == summary["taken_agree"] == expected
    assert summary["extra_points"] == 0
    assert done.returncode == 0


def test_a_game_on_stdin_gives_the_recorded_points(run_tool: RunTool, tenhou_games: Path) -> None:
    # The form the lead's comparison uses on an arena log: one game in, its points out.
    by_game = reference_points(tenhou_games)
    game = min(by_game, key=lambda g: len(by_game[g]))  # the shortest game: quick
    done = run_tool("libriichi_oracle", stdin=(tenhou_games / f"{game}.jsonl").read_text())
    assert done.returncode == 0, done.stderr
    points = [json.loads(line) for line in done.stdout.splitlines()]
    want = [{key: value for key, value in row.items() if key != "game"} for row in by_game[game]]
    assert len(points) == len(want) > 0

    def as_sets(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
        return [
            (r["index"], r["seat"], r["after"], sorted(json.dumps(a, sort_keys=True) for a in r["legal"]), r["taken"])
            for r in rows
        ]

    assert sorted(as_sets(points)) == sorted(as_sets(want))


def test_the_comparison_notices_a_changed_point(run_tool: RunTool, tenhou_games: Path, tmp_path: Path) -> None:
    # The agreement above means something only if a difference shows: drop one legal action
    # from one point and change another point's taken action, in a copy of the reference.
    by_game = reference_points(tenhou_games)
    game = min(by_game, key=lambda g: len(by_game[g]))
    rows = [dict(row) for row in by_game[game]]
    wide = next(i for i, row in enumerate(rows) if len(row["legal"]) > 1)
    rows[wide]["legal"] = rows[wide]["legal"][1:]
    other = next(i for i, row in enumerate(rows) if i != wide and row["taken"] is not None)
    rows[other]["taken"] = None
    changed = tmp_path / "changed.jsonl"
    changed.write_text("".join(json.dumps(row) + "\n" for row in rows))
    done = run_tool("libriichi_oracle", "--games", str(tenhou_games / f"{game}.jsonl"), "--compare", str(changed))
    summary = json.loads(done.stdout)
    assert summary["points"] == len(rows)
    assert summary["legal_agree"] == len(rows) - 1
    assert summary["taken_agree"] == len(rows) - 1
    assert done.returncode == 1
