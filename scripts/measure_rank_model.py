"""Fit the rank model's figures on self-play hanchans and check the model on the real games.

**Fit** (:mod:`app.core.advice.placement`'s ``HAND_SPREAD`` and ``HANDS_PER_ROUND_HAND``): four
advisors play ``--hanchans`` hanchans of Tenhou's rules from ``--seed``; the spread is the root
mean square of every seat's score change over every hand (its mean is 0), and the hands per
scheduled hand the hands played over the eight scheduled.

**Check** (report only: the real games never feed the model): at the start of every hand of the
54 four-player Tenhou games of the shared test data, the model gives each seat's chance of each
final place from the scores then and the hands left (this one included), read against the
place the seat really finished in (Tenhou's final scores, equal scores to the seat nearer the
first dealer).  Printed: the mean log-likelihood of the real place and how often the likeliest
place was it, beside two reads without the model: every place equally likely, and the order of
the scores at that moment taken as the final one::

    .venv/bin/python scripts/measure_rank_model.py --hanchans 400 --seed 3
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from shared_data import shared_testdata_dir  # noqa: E402

from app.core.advice.placement import Standing, hands_after, place_chances  # noqa: E402
from app.core.table.flow import GameLength, scheduled_after, tenhou_rules  # noqa: E402
from app.core.table.game import GameConfig  # noqa: E402
from app.selfplay.runner import available_cores, run_games  # noqa: E402

#: Tenhou's lobby bit for a game of East only (go_type & 8: a hanchan has it set).
HANCHAN_BIT = 8


def fit(hanchans: int, seed: int, workers: int) -> dict[str, float]:
    config = GameConfig("riichi", ("advisor",) * 4, seed, record_events=False, length="hanchan")
    squares = 0.0
    changes = hands = 0
    for record in run_games(config, hanchans, workers=workers):
        for hand in record.hands:
            for delta in hand.payments:
                squares += delta * delta
                changes += 1
            hands += 1
    return {
        "hanchans": hanchans,
        "seed": seed,
        "hands": hands,
        "hand_spread": round(math.sqrt(squares / changes), 1),
        "hands_per_round_hand": round(hands / (8 * hanchans), 3),
    }


def _places(scores: Sequence[int]) -> list[int]:
    """Each seat's place (0 first), equal scores to the lower seat."""
    order = sorted(range(len(scores)), key=lambda seat: (-scores[seat], seat))
    return [order.index(seat) for seat in range(len(scores))]


def check(folder: Path) -> dict[str, Any]:
    index = {game["file"]: game for game in json.loads((folder / "index.json").read_text(encoding="utf-8"))["games"]}
    cases = model_log = uniform_log = 0.0
    model_hits = order_hits = 0
    for name, game in sorted(index.items()):
        path = folder / name
        if "/" in name or not path.exists() or len(game["final_scores"]) != 4:
            continue
        table = tenhou_rules(length=GameLength.HANCHAN if game["go_type"] & HANCHAN_BIT else GameLength.TONPUU)
        final = _places(game["final_scores"])
        for line in path.read_text(encoding="utf-8").splitlines():
            event = json.loads(line)
            if event["type"] != "start_kyoku":
                continue
            after = (
                hands_after(scheduled_after("ESWN".index(event["bakaze"]), event["kyoku"], table)) + 1.0
            )  # this one too
            scores = event["scores"]
            now = _places(scores)
            for seat in range(4):
                order = [(seat + offset) % 4 for offset in range(4)]
                standing = Standing(tuple(scores[s] for s in order), after, tuple(order))
                chances = place_chances(standing, (0, 0, 0, 0))
                cases += 1
                model_log += math.log(max(chances[final[seat]], 1e-12))
                uniform_log += math.log(0.25)
                model_hits += max(range(4), key=lambda place: chances[place]) == final[seat]
                order_hits += now[seat] == final[seat]
    return {
        "cases": int(cases),
        "model_log_likelihood": round(model_log / cases, 4),
        "uniform_log_likelihood": round(uniform_log / cases, 4),
        "model_likeliest_place_right": round(model_hits / cases, 4),
        "order_now_right": round(order_hits / cases, 4),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hanchans", type=int, default=400)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--workers", type=int, default=0, help="0: every core")
    parser.add_argument("--no-fit", action="store_true", help="only the check on the real games")
    args = parser.parse_args(argv)
    report: dict[str, Any] = {}
    if not args.no_fit:
        report["fit"] = fit(args.hanchans, args.seed, args.workers or available_cores())
    folder = shared_testdata_dir() / "tenhou-games"
    if (folder / "index.json").exists():
        report["check"] = check(folder)
    else:
        print(f"no Tenhou games at {folder}: the check is skipped", file=sys.stderr)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
