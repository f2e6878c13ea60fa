"""RiichiEnv's 816 scored four-player wins: our han, fu and yaku agree on every one.

The cases are read from ``../shared/testdata/riichienv-agari/`` (third-party data,
never copied here); the test skips, saying why, where that folder is absent.
"""

from __future__ import annotations

import pytest

from app.core.riichi_scoring import score_riichi
from app.core.rules import rule_profile
from riichi_cases import DATA_DIR, YAKU_NAMES, case_inputs, load_cases

pytestmark = pytest.mark.skipif(
    not (DATA_DIR / "agari_4p.json").exists(), reason=f"shared test data not found at {DATA_DIR}"
)

RIICHI = rule_profile("riichi")


def test_every_four_player_case_scores_as_recorded() -> None:
    cases = load_cases("agari_4p.json")
    assert len(cases) == 816
    disagreements = []
    for index, case in enumerate(cases):
        hand, win_tile, context = case_inputs(case)
        expected = case["expected"]
        result = score_riichi(hand, win_tile, RIICHI, context)
        got = (result.han, result.fu, sorted(y.name for y in result.yaku))
        want = (expected["han"], expected["fu"], sorted(YAKU_NAMES[y] for y in expected["yaku"]))
        if got != want:
            disagreements.append((index, got, want))
    assert disagreements == []


def test_the_cases_cover_yakuman_and_limits() -> None:
    # The agreement above means something only if the data reach far: yakuman, doubles, kazoe.
    results = [score_riichi(*case_inputs(case)[:2], RIICHI, case_inputs(case)[2]) for case in load_cases("agari_4p.json")]
    limits = {result.limit for result in results}
    assert {None, "mangan", "haneman", "baiman", "yakuman"} <= limits
    assert max(result.yakuman_count for result in results) >= 4
