"""The opening of a hand-built mjai log, for the tests that write their logs by hand.

A plain module at the top of ``tests/`` (the suite's conftest puts it on the path), like
:mod:`shared_data`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def east_one(tehais: Sequence[Sequence[str]], dora_marker: str = "N") -> list[dict[str, Any]]:
    """``start_game`` and the first hand of the game: East 1, seat 0 deals, no honba or sticks,
    25,000 points each, the seats dealt ``tehais`` (mjai names, ``?`` for a hidden tile)."""
    return [
        {"type": "start_game"},
        {
            "type": "start_kyoku",
            "bakaze": "E",
            "dora_marker": dora_marker,
            "kyoku": 1,
            "honba": 0,
            "kyotaku": 0,
            "oya": 0,
            "scores": [25000] * 4,
            "tehais": [list(tehai) for tehai in tehais],
        },
    ]


def one_pon_then_discards(called: str = "E") -> list[dict[str, Any]]:
    """East 1 (dora marker 1s) where seat 1 pons seat 0's first discard, a ``called`` honour
    (East or the white dragon), and throws 9p on the call; then, a go-around each, seat 1 throws
    1s from its hand, the 9s it drew, and 1p from its hand.  Seats 2, 3 and 0 draw and throw a
    red dragon, a green dragon and a north each time; the log ends on seat 1's last discard."""
    other = "P" if called == "E" else "E"
    events = east_one(
        [
            "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p N".split(),
            f"{called} {called} 1p 2p 3p 4p 5p 6p 7p 8p 9p 1s 2s".split(),
            f"3s 4s 5s 6s 7s 8s 9s S S W W {other} {other}".split(),
            "1m 1m 2m 2m 3m 3m 4m 4m 5m 5m 6m 6m 7m".split(),
        ],
        dora_marker="1s",
    )
    events += [
        {"type": "tsumo", "actor": 0, "pai": called},
        {"type": "dahai", "actor": 0, "pai": called, "tsumogiri": True},
        {"type": "pon", "actor": 1, "target": 0, "pai": called, "consumed": [called, called]},
        {"type": "dahai", "actor": 1, "pai": "9p", "tsumogiri": False},
    ]
    for drawn, thrown, tsumogiri in (("3s", "1s", False), ("9s", "9s", True), ("4s", "1p", False)):
        events += [
            {"type": "tsumo", "actor": 2, "pai": "C"},
            {"type": "dahai", "actor": 2, "pai": "C", "tsumogiri": True},
            {"type": "tsumo", "actor": 3, "pai": "F"},
            {"type": "dahai", "actor": 3, "pai": "F", "tsumogiri": True},
            {"type": "tsumo", "actor": 0, "pai": "N"},
            {"type": "dahai", "actor": 0, "pai": "N", "tsumogiri": True},
            {"type": "tsumo", "actor": 1, "pai": drawn},
            {"type": "dahai", "actor": 1, "pai": thrown, "tsumogiri": tsumogiri},
        ]
    return events
