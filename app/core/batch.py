"""Shanten for many hands at once, with numpy.

Each suit's counts become a base-5 key with one matrix product; the keys index
the same class tables as the single-hand path, so the two agree by
construction (and a test checks it).  Seven pairs and thirteen orphans are
closed formulas over count histograms.

>>> import numpy as np
>>> from app.core.tiles import counts_from_tiles, parse_mpsz
>>> hands = np.array([list(counts_from_tiles(parse_mpsz(h))) for h in ("123456789m1111z", "11223344556677z")])
>>> shanten_batch(hands).tolist()
[1, -1]
"""

from __future__ import annotations

from typing import Final

import numpy as np

from app.core.errors import TooManyCopies, WrongTileCount
from app.core.tables import tables

_POWERS9: Final = (5 ** np.arange(9, dtype=np.int64)).reshape(9, 1)
_POWERS7: Final = (5 ** np.arange(7, dtype=np.int64)).reshape(7, 1)
_ORPHANS: Final = np.array([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33])


def _validated(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    array = np.asarray(counts)
    if array.ndim != 2 or array.shape[1] != 34:
        raise WrongTileCount(f"expected an (N, 34) array of counts, got shape {array.shape}", field="hands")
    if array.size and (array.min() < 0 or array.max() > 4):
        row = int(np.argwhere((array < 0) | (array > 4))[0][0])
        raise TooManyCopies(f"hand {row} has a count outside 0..4", field=f"hands[{row}]")
    array = array.astype(np.int64, copy=False)
    sizes = array.sum(axis=1)
    bad = (sizes % 3 == 0) | (sizes > 14)
    if bad.any():
        row = int(np.argmax(bad))
        raise WrongTileCount(f"hand {row} has {int(sizes[row])} tiles; shanten needs 3n+1 or 3n+2 (<= 14)", field=f"hands[{row}]")
    return array, sizes


def regular_distance_batch(counts: np.ndarray, melds_wanted: np.ndarray | None = None) -> np.ndarray:
    """Regular-form distance of each row (``melds_wanted`` defaults to tiles // 3)."""
    array, sizes = _validated(counts)
    t = tables()
    suit_classes = t.number_suit.class_array
    keys_m = (array[:, 0:9] @ _POWERS9)[:, 0]
    keys_p = (array[:, 9:18] @ _POWERS9)[:, 0]
    keys_s = (array[:, 18:27] @ _POWERS9)[:, 0]
    keys_h = (array[:, 27:34] @ _POWERS7)[:, 0]
    man_pin = t.man_pin_array[suit_classes[keys_m], suit_classes[keys_p]]
    sou_honors = t.sou_honors_array[suit_classes[keys_s], t.honors.class_array[keys_h]]
    wanted = sizes // 3 if melds_wanted is None else np.asarray(melds_wanted)
    return t.final_array[man_pin, sou_honors, wanted].astype(np.int16)


def shanten_batch(counts: np.ndarray, *, seven_pairs: bool = True, thirteen_orphans: bool = True) -> np.ndarray:
    """Minimum shanten over the allowed forms for each row of an (N, 34) count array.

    Closed hands only (the forms need no melds); rows of any legal size.
    """
    array, sizes = _validated(counts)
    best = regular_distance_batch(array)
    closed = sizes >= 13
    if seven_pairs:
        free = (array >= 2).sum(axis=1)
        singles = (array == 1).sum(axis=1)
        needed = np.maximum(7 - free, 0)
        cheap = np.minimum(singles, needed)
        pairs = cheap + 2 * (needed - cheap)
        best = np.where(closed, np.minimum(best, pairs), best)
    if thirteen_orphans:
        held = array[:, _ORPHANS]
        kinds = (held > 0).sum(axis=1)
        has_pair = (held >= 2).any(axis=1)
        orphans = 14 - kinds - has_pair
        best = np.where(closed, np.minimum(best, orphans), best)
    return (best - 1).astype(np.int8)
