"""Measure, by self-play, how often a player is ready after their n-th discard, by melds held.

The danger model (:mod:`app.core.advice.safety`) needs, for an opponent who has not
declared, the chance that they are ready.  For riichi it reads published Tenhou
statistics; for rules with no such statistics (Chinese, Qiqihar) it reads the
rates this script measures on our own table, which
``app/core/advice/safety_tables.py`` keeps as ``SELFPLAY_READY_BY_TURN`` together with
the command that produced them::

    .venv/bin/python scripts/measure_ready_rates.py --games 2000 --seed 7

A hand counts as ready after a discard when its shanten is 0 and the rules let
it win (Qiqihar: it holds an exposed pon or kong).  Each game is one hand on the table
machine (:mod:`app.core.table.game`); the rates kept in ``safety_tables.py`` were measured on
the one-hand simulator before it, so a new run may differ from them.  Cells with fewer than
``--min-hands`` hands are printed as None (the model then uses the nearest
earlier turn).  Four advisors play with the default weights.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Final

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.core.advice.safety import Opponent, ready_probability  # noqa: E402
from app.core.shape.hand import Meld  # noqa: E402
from app.core.shape.rules import rule_profile  # noqa: E402
from app.core.table.game import GameConfig, GameRecord  # noqa: E402
from app.selfplay.runner import available_cores, run_games  # noqa: E402

MAX_TURN = 19
MAX_MELDS = 3  # rows 0..3 melds; four melds always wait (one tile left)
#: mjai's calls and kans as meld kinds (app.core.shape.hand.MeldKind values).
MELD_OF_EVENT = {"chi": "chi", "pon": "pon", "daiminkan": "open_kan", "ankan": "closed_kan", "kakan": "added_kan"}


def tally(records: list[GameRecord], rules_name: str, silent: bool = False) -> tuple[list[list[int]], list[list[int]]]:
    """(hands, ready) per [melds][turn] over every seat of every hand, read from the games' mjai logs
    (``silent``: only seats that have not declared riichi, as a reader who sees no declaration counts them)."""
    required = {kind.value for kind in rule_profile(rules_name).win_requires_meld}
    hands = [[0] * (MAX_TURN + 1) for _ in range(MAX_MELDS + 1)]
    ready = [[0] * (MAX_TURN + 1) for _ in range(MAX_MELDS + 1)]
    for record in records:
        seats = len(record.players)
        hand_index = -1
        for event in record.events:
            kind = event["type"]
            if kind == "start_kyoku":
                hand_index += 1
                shanten_by_turn = record.hands[hand_index].shanten_by_turn
                melds, opened, discards = [0] * seats, [not required] * seats, [0] * seats
                declared = [False] * seats
            elif kind == "reach":
                declared[event["actor"]] = True
            elif kind in MELD_OF_EVENT:
                seat, meld = event["actor"], MELD_OF_EVENT[kind]
                if meld != "added_kan":  # an added kan turns a pon into a kan: no new meld
                    melds[seat] += 1
                opened[seat] = opened[seat] or meld in required
            elif kind == "dahai":
                seat = event["actor"]
                discards[seat] += 1
                turn = discards[seat]
                if turn > MAX_TURN or melds[seat] > MAX_MELDS or (silent and declared[seat]):
                    continue
                shanten = shanten_by_turn[seat][turn - 1]
                hands[melds[seat]][turn] += 1
                ready[melds[seat]][turn] += shanten == 0 and opened[seat]
    return hands, ready


def published_ready(turn: int, melds: int) -> float:
    """The ready chance the danger model reads for a seat with ``melds`` calls after ``turn``
    discards (none: the published share of every player)."""
    return ready_probability(Opponent(river=(0,) * turn, melds=(_ANY_CALL,) * melds), turn)


_ANY_CALL: Final = Meld.of("pon", (27, 27, 27))


def rates(hands: list[list[int]], ready: list[list[int]], min_hands: int) -> list[list[float | None]]:
    """Percentages, None where fewer than ``min_hands`` hands were seen."""
    return [
        [round(100 * r / h, 1) if h >= min_hands else None for h, r in zip(row_hands, row_ready, strict=True)]
        for row_hands, row_ready in zip(hands, ready, strict=True)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="chinese,qiqihar", help="comma-separated presets (default: chinese,qiqihar)")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--min-hands", type=int, default=100)
    parser.add_argument("--workers", type=int, default=0, help="0: every core")
    parser.add_argument("--json", type=Path, help="also write the counts and rates here")
    parser.add_argument(
        "--silent", action="store_true", help="count only seats that have not declared (riichi's silent hands)"
    )
    args = parser.parse_args()
    document = {}
    for rules_name in args.rules.split(","):
        config = GameConfig(rules_name, ("advisor",) * 4, args.seed, record_events=True)
        records = run_games(config, args.games, workers=args.workers or available_cores())
        hands, ready = tally(records, rules_name, silent=args.silent)
        table = rates(hands, ready, args.min_hands)
        document[rules_name] = {"hands": hands, "ready": ready, "rates": table}
        print(f"    {rules_name!r}: (  # {args.games} games, seed {args.seed}, advisor x4")
        for melds, row in enumerate(table):
            print(f"        # {melds} melds, turns 0..{MAX_TURN}")
            print(f"        {tuple(row)!r},")
        print("    ),")
        if args.silent:
            # The advisor's reading of the table scales the published share for a silent closed
            # hand by this (ActionParameters.silent_closed_factor): ready silent closed hands seen
            # over those the published shares expect at the same discards.
            expected = sum(count * published_ready(turn, 0) for turn, count in enumerate(hands[0]))
            print(
                f"    silent closed factor: {sum(ready[0]) / expected:.3f} ({sum(ready[0])} ready of {sum(hands[0])})"
            )
            # The same for seats with calls (ActionParameters.open_factor), against the published
            # rates the danger model reads for them (the larger of the closed share and the call's).
            calls = range(1, MAX_MELDS + 1)
            opened = sum(sum(ready[melds]) for melds in calls)
            seen = sum(sum(hands[melds]) for melds in calls)
            expected = sum(
                count * published_ready(turn, melds) for melds in calls for turn, count in enumerate(hands[melds])
            )
            print(f"    open factor: {opened / expected:.3f} ({opened} ready of {seen})")
    if args.json:
        args.json.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
