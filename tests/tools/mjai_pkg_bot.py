"""One of the mjai package's own bots behind mjai.app's stdin/stdout protocol: the arena's self-check.

A test tool, run by the Python of the mjai virtual environment (``scripts/mjai_venv.sh``).
``python tests/tools/mjai_pkg_bot.py [--bot rulebase|riichibot] SEAT`` reads one line per
message (a JSON array of events, or a single event) and writes one JSON action per line,
as mjai.app runs ``bot.py SEAT``.  Played through ``arena.py``'s pipe, a bot the package
ships must score 0 illegal replies: anything else is a fault of the pipe.

``--flaw`` makes it misbehave on purpose, so the tests can see that the arena notices:
``tedashi`` marks every discard of the drawn tile ``tsumogiri: false`` (libriichi's
``validate_reaction`` lets that pass before riichi, the legal set does not), and at the ``--at``-th
decision ``garbage`` answers a line that is not JSON, ``exit`` ends the process, and
``sleep`` answers ``--sleep`` seconds late.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from loguru import logger
from mjai.bot.riichibot import RiichiBot
from mjai.bot.rulebase import RulebaseBot

BOTS = {"rulebase": RulebaseBot, "riichibot": RiichiBot}
FLAWS = ("tedashi", "garbage", "exit", "sleep")
#: The messages that ask for nothing: no decision is counted for them.
IDLE = frozenset({"start_game", "end_kyoku", "end_game"})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("seat", type=int, choices=range(4))
    parser.add_argument("--bot", choices=sorted(BOTS), default="rulebase")
    parser.add_argument("--flaw", choices=FLAWS)
    parser.add_argument("--at", type=int, default=10, help="the decision (1-based) a one-off flaw strikes at")
    parser.add_argument("--sleep", type=float, default=5.0, help="seconds the sleep flaw waits")
    args = parser.parse_args(argv)
    # The package's bots log every discard through loguru; the arena keeps stderr for faults.
    logger.remove()
    bot = BOTS[args.bot](args.seat)
    decisions = 0
    for line in sys.stdin:
        message = json.loads(line)
        events = message if isinstance(message, list) else [message]
        reply = bot.react(json.dumps(events))
        if events and events[-1]["type"] not in IDLE:
            decisions += 1
            if decisions == args.at and args.flaw == "garbage":
                reply = "this is not json"
            elif decisions == args.at and args.flaw == "exit":
                return 3
            elif decisions == args.at and args.flaw == "sleep":
                time.sleep(args.sleep)
        if args.flaw == "tedashi" and not bot.self_riichi_accepted:
            # (After riichi libriichi refuses a tedashi outright, which would end the game.)
            action = json.loads(reply)
            if action.get("type") == "dahai" and action.get("tsumogiri"):
                reply = json.dumps({**action, "tsumogiri": False})
        sys.stdout.write(reply + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
