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

_ORPHANS: Final = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def _feature_tables() -> tuple[np.ndarray, np.ndarray]:
    """Packed per-tile features, summed over a hand column by column.

    For a tile held ``c`` times: bits 0-5 count ``c`` (the hand size), 6-11
    count kinds held once, 12-17 kinds held twice or more, and for orphans
    18-23 kinds held, 24-29 kinds held twice or more.  No field can overflow.
    """
    plain = np.zeros(5, dtype=np.int64)
    orphan = np.zeros(5, dtype=np.int64)
    for count in range(5):
        plain[count] = count + ((count == 1) << 6) + ((count >= 2) << 12)
        orphan[count] = plain[count] + ((count >= 1) << 18) + ((count >= 2) << 24)
    return plain, orphan


_PLAIN_FEATURES, _ORPHAN_FEATURES = _feature_tables()
_FEATURE_TABLE: Final = tuple(_ORPHAN_FEATURES if tile in _ORPHANS else _PLAIN_FEATURES for tile in range(34))


def _validated(counts: np.ndarray) -> np.ndarray:
    array = np.asarray(counts)
    if array.ndim != 2 or array.shape[1] != 34:
        raise WrongTileCount(f"expected an (N, 34) array of counts, got shape {array.shape}", field="hands")
    if array.size and (array.min() < 0 or array.max() > 4):
        row = int(np.argwhere((array < 0) | (array > 4))[0][0])
        raise TooManyCopies(f"hand {row} has a count outside 0..4", field=f"hands[{row}]")
    return array.astype(np.uint8, copy=False)


def _keys_and_features(array: np.ndarray) -> np.ndarray:
    """(N, 5) int64: the four suit keys and the packed features of each row.

    Horner's rule and table look-ups over columns: plain integer vector
    operations, which beat a matrix product here (numpy's integer matmul is
    slow, and BLAS's float kernels vary a lot between machines for such thin
    matrices).
    """
    keyed = np.zeros((len(array), 5), dtype=np.int64)
    for suit, (start, width) in enumerate(((0, 9), (9, 9), (18, 9), (27, 7))):
        key = keyed[:, suit]
        for tile in range(start + width - 1, start - 1, -1):
            key *= 5
            key += array[:, tile]
    features = keyed[:, 4]
    for tile in range(34):
        features += _FEATURE_TABLE[tile][array[:, tile]]
    sizes = features & 63
    bad = (sizes % 3 == 0) | (sizes > 14)
    if bad.any():
        row = int(np.argmax(bad))
        raise WrongTileCount(
            f"hand {row} has {int(sizes[row])} tiles; shanten needs 3n+1 or 3n+2 (<= 14)", field=f"hands[{row}]"
        )
    return keyed


def _regular(keyed: np.ndarray) -> np.ndarray:
    t = tables()
    suit_classes = t.number_suit.class_array.astype(np.intp)
    honor_classes = t.honors.class_array.astype(np.intp)
    n_number = len(t.number_suit.vectors)
    man_pin = t.man_pin_array.ravel()[suit_classes[keyed[:, 0]] * n_number + suit_classes[keyed[:, 1]]]
    sou_honors = t.sou_honors_array.ravel()[
        suit_classes[keyed[:, 2]] * len(t.honors.vectors) + honor_classes[keyed[:, 3]]
    ]
    rows = (man_pin * len(t.sou_honors_vectors) + sou_honors) * 5 + (keyed[:, 4] & 63) // 3
    return t.final_array.ravel()[rows].astype(np.int16)


def regular_distance_batch(counts: np.ndarray) -> np.ndarray:
    """Regular-form distance (to ``tiles // 3`` melds and a pair) of each row."""
    return _regular(_keys_and_features(_validated(counts)))


def shanten_batch(counts: np.ndarray, *, seven_pairs: bool = True, thirteen_orphans: bool = True) -> np.ndarray:
    """Minimum shanten over the allowed forms for each row of an (N, 34) count array.

    Closed hands only (the forms need no melds); rows of any legal size.
    Seven pairs are distinct pairs (riichi); four of a kind is one pair.
    """
    keyed = _keys_and_features(_validated(counts))
    best = _regular(keyed)
    features = keyed[:, 4]
    closed = (features & 63) >= 13
    if seven_pairs:
        singles = (features >> 6) & 63
        needed = np.maximum(7 - ((features >> 12) & 63), 0)
        cheap = np.minimum(singles, needed)
        best = np.where(closed, np.minimum(best, cheap + 2 * (needed - cheap)), best)
    if thirteen_orphans:
        orphans = 14 - ((features >> 18) & 63) - (((features >> 24) & 63) > 0)
        best = np.where(closed, np.minimum(best, orphans), best)
    return (best - 1).astype(np.int8)
