"""Hot answers written straight to JSON.

``/shanten`` and ``/ting`` answers are mostly lists of ``{"tile", "remaining"}``;
building a pydantic model per entry and serialising it costs more than the
rules question itself.  These writers produce the same JSON from precomputed
fragments; a test checks them against the response models on random hands, and
the OpenAPI schema still documents the models.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Final

from app.core.shape.engine import ShantenResult, TileCount, WaitResult
from app.core.shape.tiles import NUM_TILE_KINDS, format_tile
from app.core.shape.void_suit import SUITS, format_suit

#: ``"3m"`` with its quotes, per tile.
TILE_JSON: Final = tuple(json.dumps(format_tile(tile)) for tile in range(NUM_TILE_KINDS))
#: ``{"tile":"3m","remaining":2}`` per tile and remaining count.
REMAINING_JSON: Final = tuple(
    tuple(f'{{"tile":{TILE_JSON[tile]},"remaining":{left}}}' for left in range(5)) for tile in range(NUM_TILE_KINDS)
)


#: ``,"void_suit":"m"`` per suit; nothing where the rules have no void suit (None).
_VOID_SUIT_JSON: Final[dict[int | None, str]] = {
    None: "",
    **{suit: f',"void_suit":"{format_suit(suit)}"' for suit in SUITS},
}


def _counts(entries: Iterable[TileCount]) -> str:
    return "[" + ",".join([REMAINING_JSON[tile][left] for tile, left in entries]) + "]"


def _value(value: int | str | None) -> str:
    if value is None:
        return "null"
    return str(value) if type(value) is int else json.dumps(value)


def shanten_json(result: ShantenResult) -> bytes:
    """The /shanten answer for ``result``.

    >>> from app.core.shape.engine import ShantenResult, TileCount
    >>> shanten_json(ShantenResult(0, 0, 4, None, (TileCount(27, 2),), None))
    b'{"shanten":0,"forms":{"regular":0,"seven_pairs":4,"thirteen_orphans":null,"knitted_straight":null,"honors_and_knitted":null},"ukeire":[{"tile":"1z","remaining":2}],"ukeire_count":2,"reason":null}'
    """
    ukeire = "null" if result.ukeire is None else _counts(result.ukeire)
    return (
        f'{{"shanten":{result.shanten},"forms":{{"regular":{result.regular},'
        f'"seven_pairs":{_value(result.seven_pairs)},"thirteen_orphans":{_value(result.thirteen_orphans)},'
        f'"knitted_straight":{_value(result.knitted_straight)},'
        f'"honors_and_knitted":{_value(result.honors_and_knitted)}}},'
        f'"ukeire":{ukeire},"ukeire_count":{_value(result.ukeire_count)},"reason":{_value(result.reason)}'
        f"{_VOID_SUIT_JSON[result.void_suit]}}}"
    ).encode()


def ting_json(result: WaitResult) -> bytes:
    """The /ting answer for ``result``.

    >>> from app.core.shape.engine import TileCount, WaitResult
    >>> ting_json(WaitResult(True, (TileCount(0, 0),), True, None, (0,)))
    b'{"tenpai":true,"waits":[{"tile":"1m","remaining":0}],"karaten":true,"reason":null,"shape_waits":["1m"]}'
    """
    shape = ",".join([TILE_JSON[tile] for tile in result.shape_waits])
    return (
        f'{{"tenpai":{"true" if result.tenpai else "false"},"waits":{_counts(result.waits)},'
        f'"karaten":{"true" if result.karaten else "false"},"reason":{_value(result.reason)},'
        f'"shape_waits":[{shape}]{_VOID_SUIT_JSON[result.void_suit]}}}'
    ).encode()
