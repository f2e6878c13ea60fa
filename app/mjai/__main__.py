"""``python -m app.mjai SEAT [--strategy NAME]``: one seat of an mjai game on stdin/stdout."""

from __future__ import annotations

import argparse

from app.core.table.players import PLAYER_KINDS
from app.mjai.bot import run


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m app.mjai", description=__doc__)
    parser.add_argument("seat", type=int, choices=range(4), help="the seat this bot plays (0-3)")
    parser.add_argument("--strategy", default="advisor", choices=sorted(PLAYER_KINDS), help="who decides")
    args = parser.parse_args(argv)
    run(args.seat, strategy=args.strategy)


if __name__ == "__main__":
    main()
