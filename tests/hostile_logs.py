"""tenhou.net/6 logs built to make the reader's search for the order of moves work hard (issue 33).

Every tile is a 1m (the reader does not count copies: that is the referee's question), and each
seat discards a 1m after each draw or pon.  Shared by the core tests (tests/table) and the HTTP
tests (tests/api).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from app.core.table.records.tenhou6 import call_string

#: A move: (seat, None) draws and discards a 1m; (seat, target) pons target's 1m and discards a 1m.
Move = tuple[int, int | None]


def hand_log(moves: Sequence[Move], *, extra_discard: bool = True) -> str:
    """A tenhou.net/6 log of one hand of ``moves``, in order; with ``extra_discard`` seat 0 has one discard
    too many at the end, so that no reading of the lists adds up and the search must try them all."""
    draws: list[list[Any]] = [[] for _ in range(4)]
    discards: list[list[Any]] = [[] for _ in range(4)]
    for seat, target in moves:
        if target is None:
            draws[seat].append(11)
        else:
            pon = {"type": "pon", "actor": seat, "target": target, "pai": "1m", "consumed": ["1m", "1m"]}
            draws[seat].append(call_string(pon, 4))
        discards[seat].append(11)
    if extra_discard:
        discards[0].append(11)
    hand: list[Any] = [[0, 0, 0], [25000] * 4, [11], []]
    for seat in range(4):
        hand += [[11] * 13, draws[seat], discards[seat]]
    hand.append(["流局", [0, 0, 0, 0]])
    return json.dumps({"name": ["a", "b", "c", "d"], "log": [hand]})


def go_arounds(count: int, first: int = 0) -> list[Move]:
    return [((first + step) % 4, None) for step in range(4 * count)]


def pon_chain_log() -> str:
    """Issue 33's hand: seat 0 draws and throws a 1m; 16 pons of 1m go round the seats (each seat pons
    the seat on its left); then 1,000 go-arounds of draws and discards; seat 0 has one discard too many.

    Each pon could be read as made now or after passing the tile on, and both are the same reading:
    the old search tried 2000 of them, each replaying 4,000 turns (19.7 s of CPU for these 33 kB).
    """
    moves: list[Move] = [(0, None)]
    moves += [((step + 1) % 4, step % 4) for step in range(16)]
    moves += go_arounds(1000, first=17 % 4)
    return hand_log(moves)


def deep_choices_log(gadgets: int = 5, *, extra_discard: bool = True) -> str:
    """1,000 go-arounds, then ``gadgets`` times a pon that takes the second of two 1m's of seat 0.

    Seat 0 lets a 1m go; seat 1 draws and lets one go; seat 0 pons it and lets a 1m go; seat 3 pons
    that one.  Read greedily, seat 3's pon takes the first 1m and the hand stops adding up a turn
    later, so each gadget costs one more reading, and every reading replays the 4,000 turns before.
    """
    moves = go_arounds(1000)
    for _ in range(gadgets):
        moves += [(0, None), (1, None), (0, 1), (3, 0)]
    return hand_log(moves, extra_discard=extra_discard)
