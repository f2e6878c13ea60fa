"""RiichiEnv's scored wins, 816 four-player and 402 three-player: our han, fu and yaku agree on every one.

The cases are read from ``../shared/testdata/riichienv-agari/`` (third-party data,
never copied here); the test skips, saying why, where that folder is absent.
"""

from __future__ import annotations

import pytest
from riichi_cases import DATA_DIR, YAKU_NAMES, case_inputs, load_cases

from app.core.shape.rules import RuleProfile, rule_profile
from app.core.value.riichi_scoring import score_riichi

pytestmark = pytest.mark.skipif(
    not (DATA_DIR / "agari_4p.json").exists(), reason=f"shared test data not found at {DATA_DIR}"
)

RIICHI = rule_profile("riichi")
SANMA = rule_profile("sanma")


@pytest.mark.parametrize(("name", "count", "rules"), [("agari_4p.json", 816, RIICHI), ("agari_3p.json", 402, SANMA)])
def test_every_case_scores_as_recorded(name: str, count: int, rules: RuleProfile) -> None:
    cases = load_cases(name)
    assert len(cases) == count
    disagreements = []
    for index, case in enumerate(cases):
        hand, win_tile, context = case_inputs(case)
        expected = case["expected"]
        result = score_riichi(hand, win_tile, rules, context)
        got = (result.han, result.fu, sorted(y.name for y in result.yaku))
        want = (expected["han"], expected["fu"], sorted(YAKU_NAMES[y] for y in expected["yaku"]))
        if got != want:
            disagreements.append((index, got, want))
    assert disagreements == []


def test_the_cases_cover_yakuman_and_limits() -> None:
    # The agreement above means something only if the data reach far: yakuman, doubles, kazoe.
    results = [
        score_riichi(*case_inputs(case)[:2], RIICHI, case_inputs(case)[2]) for case in load_cases("agari_4p.json")
    ]
    limits = {result.limit for result in results}
    assert {None, "mangan", "haneman", "baiman", "yakuman"} <= limits
    assert max(result.yakuman_count for result in results) >= 4


def test_the_three_player_cases_set_norths_aside() -> None:
    # Sanma's own parts are exercised: nukidora in most cases, and 1m indicators showing 9m.
    cases = load_cases("agari_3p.json")
    assert sum(1 for case in cases if case["conditions"]["kita_count"]) > 200
    results = [score_riichi(*case_inputs(case)[:2], SANMA, case_inputs(case)[2]) for case in cases]
    assert sum(1 for result in results if any(y.name == "nuki_dora" for y in result.yaku)) > 200
