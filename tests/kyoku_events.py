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
