"""Wins Tenhou's own server scored in real games: POST /score answers each as the record says.

The cases are read from ``../shared/testdata/tenhou-wins/`` (6,241 four-player and 5
three-player wins; third-party game records, never copied here; see its README), and the
test skips, saying why, where that folder is absent.  Each case's ``body`` is a /score
request; the answer must match the record as the README's bar does: the han, the fu
below 5 han, the yaku with their han (Tenhou counts a north set aside as dora), and every
seat's point change (the riichi sticks
the winner takes included; under pao, whose split /score does not model, the winner's
change only).  By default every 5th case is checked; ``--full-oracles`` checks all.
"""

from __future__ import annotations

import json
from typing import Any, Final

import pytest
from fastapi.testclient import TestClient
from oracle_sample import every_kth
from shared_data import shared_testdata_dir

WINS_DIR: Final = shared_testdata_dir() / "tenhou-wins"
FILES: Final = {"riichi4.jsonl": 6241, "sanma.jsonl": 5}

pytestmark = pytest.mark.skipif(
    not (WINS_DIR / "riichi4.jsonl").exists(), reason=f"shared test data not found at {WINS_DIR}"
)


def load_cases(name: str) -> list[dict[str, Any]]:
    with (WINS_DIR / name).open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def as_recorded(case: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
    """The parts of our answer the record has, in the record's shape."""
    expected = case["expected"]
    winner = case["body"]["winner"]
    deltas = list(answer["payments"])
    deltas[winner] += answer["riichi_sticks_won"]
    # Tenhou's record counts a north set aside among the dora; we name it nuki_dora.
    yaku = {yaku["name"]: yaku["han"] for yaku in answer["yaku"]}
    if "nuki_dora" in yaku:
        yaku["dora"] = yaku.get("dora", 0) + yaku.pop("nuki_dora")
    return {
        "han": answer["han"],
        "fu": answer["fu"] if expected["han"] < 5 else expected["fu"],
        "yaku": sorted(yaku.items()),
        "deltas": deltas if expected["pao"] is None else deltas[winner],
    }


def recorded(case: dict[str, Any]) -> dict[str, Any]:
    expected = case["expected"]
    winner = case["body"]["winner"]
    return {
        "han": expected["han"],
        "fu": expected["fu"],
        "yaku": sorted((yaku["name"], yaku["han"]) for yaku in expected["yaku"]),
        "deltas": expected["deltas"] if expected["pao"] is None else expected["deltas"][winner],
    }


@pytest.mark.slow
@pytest.mark.parametrize(("name", "count"), FILES.items())
def test_every_recorded_win_scores_as_tenhou_scored_it(client: TestClient, name: str, count: int) -> None:
    cases = load_cases(name)
    assert len(cases) == count
    checked = every_kth(cases, 1200)
    disagreements = []
    for case in checked:
        answer = client.post("/score", json=case["body"])
        assert answer.status_code == 200, (case["id"], answer.text)
        if as_recorded(case, answer.json()) != recorded(case):
            disagreements.append((case["id"], as_recorded(case, answer.json()), recorded(case)))
    assert disagreements == [], f"{len(disagreements)} of {len(checked)} disagree; first: {disagreements[:3]}"
