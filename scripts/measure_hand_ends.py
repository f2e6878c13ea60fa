"""How soon another seat ends a hand: the per-turn hazard behind ``ActionParameters``' ``hazard_*``.

Reads the whole Tenhou games of the shared test data (``tenhou-games/*.jsonl``, mjai events),
and prints, per turn (the hand's discards so far over four), the hands still on, the hands won
in that turn, the draws, the chance a hand still on is won in it, and three quarters of that:
the chance it is won by one of the three seats other than a given one.

    python scripts/measure_hand_ends.py [FOLDER]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from shared_data import shared_testdata_dir  # noqa: E402


def hand_ends(folder: Path) -> list[tuple[str, int]]:
    """(``win`` or ``draw``, turn) for every hand of every game in ``folder``."""
    ends: list[tuple[str, int]] = []
    for path in sorted(folder.glob("*.jsonl")):
        discards, done = 0, True
        for line in path.read_text().splitlines():
            event = json.loads(line)
            kind = event["type"]
            if kind == "start_kyoku":
                discards, done = 0, False
            elif kind == "dahai":
                discards += 1
            elif kind in ("hora", "ryukyoku") and not done:
                done = True
                ends.append(("win" if kind == "hora" else "draw", discards // 4))
    return ends


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else shared_testdata_dir() / "tenhou-games"
    ends = hand_ends(folder)
    alive = len(ends)
    print(f"{alive} hands in {folder}")
    print("turn  on  won  drawn  hazard  others")
    for turn in range(19):
        won = sum(1 for kind, at in ends if kind == "win" and at == turn)
        drawn = sum(1 for kind, at in ends if kind == "draw" and at == turn)
        hazard = won / alive if alive else 0.0
        print(f"{turn + 1:4d} {alive:4d} {won:4d} {drawn:6d}  {hazard:6.3f}  {hazard * 3 / 4:6.3f}")
        alive -= won + drawn


if __name__ == "__main__":
    main()
