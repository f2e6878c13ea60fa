"""Tenhou's tile codes, kept here and nowhere else.

Two numberings, both Tenhou's, both unrelated to seed 003's 11..55 codes (there ``21`` is
1-bamboo; in Tenhou ``21`` is 1-pin), so no table here is shared with it:

* the **136-id** of mjlog XML: ``id // 4`` is the kind in the order 1m..9m, 1p..9p, 1s..9s,
  E S W N, white green red; with red fives the ids 16, 52 and 88 are the red 5m, 5p and 5s;
* the **tenhou.net/6 code**: 11-19 man, 21-29 pin, 31-39 sou, 41-47 E S W N white green red,
  51/52/53 the red 5m/5p/5s; in a discard list 60 stands for "the tile just drawn".

Tiles are written here by their mjai names (``"5mr"``, ``"E"``), the form the records convert to.

>>> tenhou6_code("5pr"), tenhou6_name(21), tenhou6_name(47)
(52, '1p', 'C')
>>> name_of_id(16, red=True), name_of_id(16, red=False), name_of_id(135, red=True)
('5mr', '5m', 'C')
"""

from __future__ import annotations

import json
from typing import Final

from app.core.shape.tiles import NUM_TILE_KINDS, ORPHANS
from app.core.table.mjai import MJAI_NAMES

#: The mjai names of the 34 kinds, in Tenhou's order (the 136-id's ``id // 4``), which is tenpai's.
KIND_NAMES: Final = MJAI_NAMES[:NUM_TILE_KINDS]
KIND_OF_NAME: Final = {name: kind for kind, name in enumerate(KIND_NAMES)} | {"5mr": 4, "5pr": 13, "5sr": 22}
#: The red fives' names, and the 136-id each is when the lobby plays with red fives.
RED_IDS: Final = {"5mr": 16, "5pr": 52, "5sr": 88}
RED_BY_ID: Final = {tile_id: name for name, tile_id in RED_IDS.items()}

#: tenhou.net/6's "the tile just drawn" in a discard list.
TSUMOGIRI_CODE: Final = 60


def _tenhou6_codes() -> dict[str, int]:
    codes = {}
    for kind, name in enumerate(KIND_NAMES):
        suit, number = divmod(kind, 9)
        codes[name] = 41 + number if suit == 3 else 10 * (suit + 1) + number + 1
    codes.update({"5mr": 51, "5pr": 52, "5sr": 53})
    return codes


_CODE_OF_NAME: Final = _tenhou6_codes()
_NAME_OF_CODE: Final = {code: name for name, code in _CODE_OF_NAME.items()}


def tenhou6_code(name: str) -> int:
    """The tenhou.net/6 code of an mjai tile name (KeyError for a name with none)."""
    return _CODE_OF_NAME[name]


def tenhou6_name(code: int) -> str | None:
    """The mjai name of a tenhou.net/6 tile code, or None when the number is no tile."""
    return _NAME_OF_CODE.get(code)


def kind_of_name(name: str) -> int:
    """The kind 0-33 (Tenhou's order) of an mjai tile name; a red five is its suit's five."""
    return KIND_OF_NAME[name]


def name_of_id(tile_id: int, *, red: bool) -> str:
    """The mjai name of a 136-id (``red``: the lobby plays with red fives, so 16, 52, 88 are red)."""
    if red and tile_id in RED_BY_ID:
        return RED_BY_ID[tile_id]
    return KIND_NAMES[tile_id // 4]


def is_terminal_or_honour(name: str) -> bool:
    """1, 9 or an honour: the tiles of nine terminals and of nagashi mangan."""
    return KIND_OF_NAME[name] in ORPHANS


def shows_red(*texts: object) -> bool:
    """Whether a red five's mjai name appears in ``texts`` (events or their parts), written as JSON.

    >>> shows_red({"type": "dahai", "pai": "5pr"}), shows_red([["5p", "E"]])
    (True, False)
    """
    written = json.dumps(texts)
    return any(f'"{name}"' in written for name in RED_IDS)
