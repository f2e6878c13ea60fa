"""Fit the read of how likely a seat with calls is ready (:mod:`app.core.advice.open_tenpai`) on
self-play, and check it on hands it was not fitted on.

Four ``near`` advisors play ``--games`` hands (one a game, from ``--seed``; ``--strategy`` another
player).  ``near`` reads every seat by the published rates, so the hands it plays do not depend
on the weights fitted here.  The script follows each hand
on one machine with every tile shown (the truth) and on one per seat with the others' tiles
hidden (what the seat sees).  At every seat's own draw, each other seat with an open meld that
has not declared is a case: its inputs (:func:`~app.core.advice.open_tenpai.open_ready_features`,
from what the drawing seat sees) against whether its real hand is ready (shanten 0, yaku not
checked).  The first half of the hands fits two logistic regressions (Newton's method, L2
``--l2``, the bias not penalised): one on those inputs, one with how the seat discarded added
(:func:`~app.core.advice.open_tenpai.drawn_features`: which discards were the tile just drawn,
where it called).  The second half checks them: AUC of the published rate and of each fitted
read (``measure_reads.auc``), and the reliability of each by decile
(``measure_read_calibration.reliability``: cases, mean read and share ready per decile, with the
expected calibration error and the Brier score).  It prints the weights as
``OPEN_READY_WEIGHTS`` and ``OPEN_READY_WEIGHTS_WITH_DRAWN`` want them::

    .venv/bin/python scripts/fit_open_tenpai.py --games 3000 --seed 41

``--check`` scores the committed weights on every hand of ``--games`` from ``--seed`` instead
(a seed apart from the one they were fitted on)::

    .venv/bin/python scripts/fit_open_tenpai.py --check --games 1000 --seed 77

The Tenhou games of the shared test data are never read here (issue #36: they only judge).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from measure_read_calibration import reliability  # noqa: E402
from measure_reads import auc, follow  # noqa: E402

from app.core.advice.open_tenpai import (  # noqa: E402
    DRAWN_FEATURES,
    FEATURES,
    OPEN_READY_WEIGHTS,
    OPEN_READY_WEIGHTS_WITH_DRAWN,
    DrawnDiscards,
    drawn_features,
    open_ready_features,
)
from app.core.advice.safety import OpenRates, ready_probability  # noqa: E402
from app.core.table.decide import opponent_as_read  # noqa: E402
from app.core.table.game import GameConfig  # noqa: E402
from app.selfplay.runner import available_cores, run_games  # noqa: E402

Case = tuple[tuple[float, ...], tuple[float, ...], float, bool]


def hand_cases(events: Sequence[dict[str, Any]]) -> list[Case]:
    """Every case of one game's events: (inputs, the inputs of how it discarded, published rate,
    ready).  Self-play's logs flag every discard, so the second inputs are always there."""
    cases: list[Case] = []
    for event, truth, views in follow(events):
        if event.get("type") != "tsumo":
            continue
        seat = event["actor"]
        for other in range(len(views)):
            if other == seat:
                continue
            opponent = opponent_as_read(views[seat], other)
            if opponent.riichi or not opponent.called or len(opponent.melds) >= 4:
                continue
            published = ready_probability(opponent, len(opponent.river), open_rates=OpenRates.PUBLISHED)
            features = open_ready_features(
                opponent.river, opponent.melds, opponent.hand_discards_after_call, published, opponent.value_winds
            )
            drawn = DrawnDiscards.of(opponent.tsumogiri, opponent.calls_at)
            assert drawn is not None, "self-play flags every discard"
            cases.append((features, drawn_features(drawn), published, truth.hand_shanten(other) == 0))
    return cases


def fit(inputs: np.ndarray, truth: np.ndarray, l2: float) -> np.ndarray:
    """Logistic regression by Newton's method, the first input (the bias) not penalised."""
    weights = np.zeros(inputs.shape[1])
    penalty = np.full(inputs.shape[1], l2)
    penalty[0] = 0.0
    for _ in range(50):
        chance = 1.0 / (1.0 + np.exp(-inputs @ weights))
        gradient = inputs.T @ (chance - truth) + penalty * weights
        hessian = (inputs * (chance * (1.0 - chance))[:, None]).T @ inputs + np.diag(penalty)
        step = np.linalg.solve(hessian, gradient)
        weights -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    return weights


def _cases(games: int, seed: int, workers: int, strategy: str) -> tuple[list[Case], list[Case]]:
    """The cases of the first and of the second half of ``games`` hands of four ``strategy`` players."""
    config = GameConfig("riichi", (strategy,) * 4, seed, record_events=True, length="kyoku")
    halves: tuple[list[Case], list[Case]] = ([], [])
    for number, record in enumerate(run_games(config, games, workers=workers)):
        halves[0 if number < games // 2 else 1].extend(hand_cases(record.events))
    return halves


def _arrays(cases: Sequence[Case], *, with_drawn: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The inputs (with how the seat discarded, or without), the published rates and the truths."""
    return (
        np.array([case[0] + case[1] if with_drawn else case[0] for case in cases]),
        np.array([case[2] for case in cases]),
        np.array([case[3] for case in cases], dtype=bool),
    )


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def checked(weights: Sequence[float], cases: Sequence[Case]) -> dict[str, Any]:
    """``weights``' read against the published rate on ``cases``: AUC of each, reliability by decile
    (weights as long as :data:`FEATURES` read without how the seat discarded, longer ones with it)."""
    inputs, published, truth = _arrays(cases, with_drawn=len(weights) > len(FEATURES))
    chances = 1.0 / (1.0 + np.exp(-inputs @ np.asarray(weights)))
    fitted_cases = list(zip(chances.tolist(), truth.tolist(), strict=True))
    published_cases = list(zip(published.tolist(), truth.tolist(), strict=True))
    return {
        "cases": len(truth),
        "ready": int(truth.sum()),
        "auc_published": _rounded(auc(published_cases)),
        "auc_fitted": _rounded(auc(fitted_cases)),
        "reliability_fitted": reliability(fitted_cases),
        "reliability_published": reliability(published_cases),
    }


def measure(games: int, seed: int, l2: float = 1.0, workers: int = 1, strategy: str = "near") -> dict[str, Any]:
    """Fit on the first half of ``games`` hands of four ``strategy`` players, check on the second half."""
    fitting, checking = _cases(games, seed, workers, strategy)
    found: dict[str, Any] = {"games": games, "seed": seed, "l2": l2, "strategy": strategy}
    for key, names in (("", FEATURES), ("_with_drawn", FEATURES + DRAWN_FEATURES)):
        inputs, _, truth = _arrays(fitting, with_drawn=bool(key))
        weights = [round(float(w), 4) for w in fit(inputs, truth.astype(float), l2)]
        found["fit"] = {"cases": len(truth), "ready": int(truth.sum())}
        found[f"weights{key}"] = dict(zip(names, weights, strict=True))
        found[f"check{key}"] = checked(weights, checking)
    return found


def check_committed(games: int, seed: int, workers: int = 1, strategy: str = "advisor") -> dict[str, Any]:
    """The committed reads (``OPEN_READY_WEIGHTS``, ``OPEN_READY_WEIGHTS_WITH_DRAWN``) on ``games``
    hands of four ``strategy`` players from ``seed``."""
    first, second = _cases(games, seed, workers, strategy)
    return {
        "without_drawn": checked(OPEN_READY_WEIGHTS, first + second),
        "with_drawn": checked(OPEN_READY_WEIGHTS_WITH_DRAWN, first + second),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--workers", type=int, default=0, help="0: every core")
    parser.add_argument("--strategy", help="the four players (default: near to fit, advisor to --check)")
    parser.add_argument(
        "--check", action="store_true", help="check the committed weights on every hand instead of fitting"
    )
    args = parser.parse_args(argv)
    workers = args.workers or available_cores()
    if args.check:
        print(json.dumps(check_committed(args.games, args.seed, workers, args.strategy or "advisor")))
        return 0
    found = measure(args.games, args.seed, args.l2, workers, args.strategy or "near")
    print(json.dumps(found))
    print("OPEN_READY_WEIGHTS =", tuple(found["weights"].values()))
    print("OPEN_READY_WEIGHTS_WITH_DRAWN =", tuple(found["weights_with_drawn"].values()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
