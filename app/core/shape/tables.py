"""Precomputed tables behind exact shanten, win and ukeire answers.

The regular form (m melds + a pair) is solved suit by suit.  For one suit
holding counts ``h`` (nine counts for m/p/s, seven for honours) and a target of
``m`` melds and ``p`` pairs (``p`` in 0..1), the *suit distance* is

    d(h, m, p) = min over complete suit shapes w of  sum_i max(0, w_i - h_i)

where ``w`` ranges over the multisets made of exactly ``m`` melds (chows only in
number suits) and ``p`` pairs, **with at most four copies of each tile**.  It is
the number of tiles the suit still has to draw.  The whole hand's distance is
a min-plus combination of its four suits; shanten is that distance minus one.
Because the 4-copy limit lives in ``w``, the answers are exact (no "waiting on
a fifth tile"), which block-counting heuristics are not.

Building ``d`` for every reachable suit (counts 0..4, at most 14 tiles) is a
max-overlap dynamic program over the count lattice, vectorised with numpy:
``S`` = every sub-multiset of some complete shape (closed downwards), then
``g(h)`` = the largest ``|s|`` with ``s <= h`` and ``s`` in ``S``, and
``d = 3m + 2p - g``.

Only 126 distinct distance vectors occur among the 405,350 reachable number
suits (55 among honours), and pairs of them combine into 180 (man+pin) and 165
(sou+honours) classes.  So the full min-plus combination is precomputed too:
a hand's regular distance is a handful of index look-ups.

All tables are immutable after import; nothing here is per-request state.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Final

import numpy as np

from app.core import _kernel
from app.core.shape.tiles import MAX_MELDS

MAX_SUIT_TILES: Final = 14
#: Index of (melds, pairs) in a distance vector: ``m * 2 + p``.
VECTOR_LENGTH: Final = (MAX_MELDS + 1) * 2
#: Distance vector of a suit: ``vector[m * 2 + p]`` for m in 0..4, p in 0..1.
DistanceVector = tuple[int, ...]


def _count_vectors(width: int, max_total: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every count vector of ``width`` tiles (each 0..4, sum <= max_total).

    Returns ``(keys, digits, totals)`` sorted by total, where ``keys`` are the
    base-5 indices ``sum(c_i * 5**i)`` into the full ``5**width`` lattice.
    """
    keys = np.arange(5**width, dtype=np.int64)
    totals = np.zeros(keys.shape, dtype=np.int16)
    rest = keys.copy()
    for _ in range(width):
        totals += (rest % 5).astype(np.int16)
        rest //= 5
    reachable = keys[totals <= max_total]
    order = np.argsort(totals[reachable], kind="stable")
    reachable = reachable[order]
    digits = np.stack([(reachable // 5**i) % 5 for i in range(width)], axis=1).astype(np.int8)
    return reachable, digits, totals[reachable]


def _meld_shapes(width: int, *, chows: bool) -> np.ndarray:
    shapes = []
    for tile in range(width):
        pung = np.zeros(width, dtype=np.int64)
        pung[tile] = 3
        shapes.append(pung)
    if chows:
        for tile in range(width - 2):
            chow = np.zeros(width, dtype=np.int64)
            chow[tile : tile + 3] = 1
            shapes.append(chow)
    return np.array(shapes)


def _distance_grid(width: int, *, chows: bool) -> tuple[np.ndarray, np.ndarray]:
    """``d(h, m, p)`` for every reachable suit ``h``: array (reachable, 10).

    Returns ``(keys, distances)`` with ``keys`` as in :func:`_count_vectors`.
    """
    keys, digits, totals = _count_vectors(width, MAX_SUIT_TILES)
    powers = 5 ** np.arange(width, dtype=np.int64)
    layer_bounds = np.searchsorted(totals, np.arange(MAX_SUIT_TILES + 2))
    layers = [
        (keys[layer_bounds[t] : layer_bounds[t + 1]], digits[layer_bounds[t] : layer_bounds[t + 1]])
        for t in range(MAX_SUIT_TILES + 1)
    ]
    melds = _meld_shapes(width, chows=chows)
    pairs = 2 * np.eye(width, dtype=np.int64)
    in_closure = np.zeros(5**width, dtype=bool)
    overlap = np.zeros(5**width, dtype=np.int8)
    distances = np.empty((len(keys), VECTOR_LENGTH), dtype=np.uint8)
    position = np.full(5**width, -1, dtype=np.int64)
    position[keys] = np.arange(len(keys))

    shapes = np.zeros((1, width), dtype=np.int64)  # all shapes of m melds, m = 0
    for melds_wanted in range(MAX_MELDS + 1):
        if melds_wanted:
            grown = (shapes[:, None, :] + melds[None, :, :]).reshape(-1, width)
            shapes = np.unique(grown[(grown <= 4).all(axis=1)], axis=0)
        for pairs_wanted in (0, 1):
            complete = shapes if not pairs_wanted else (shapes[:, None, :] + pairs[None]).reshape(-1, width)
            complete = complete[(complete <= 4).all(axis=1)]
            # S: sub-multisets of a complete shape, closed downwards layer by layer.
            in_closure[:] = False
            in_closure[complete @ powers] = True
            for total in range(MAX_SUIT_TILES - 1, -1, -1):
                layer_keys, layer_digits = layers[total]
                reached = in_closure[layer_keys]
                for tile in range(width):
                    can_grow = layer_digits[:, tile] < 4
                    reached |= can_grow & in_closure[np.where(can_grow, layer_keys + powers[tile], 0)]
                in_closure[layer_keys] = reached
            # g(h): the largest member of S below h.
            overlap[:] = 0
            for total in range(MAX_SUIT_TILES + 1):
                layer_keys, layer_digits = layers[total]
                best = np.zeros(len(layer_keys), dtype=np.int8)
                for tile in range(width):
                    can_shrink = layer_digits[:, tile] > 0
                    below = overlap[np.where(can_shrink, layer_keys - powers[tile], 0)]
                    np.maximum(best, np.where(can_shrink, below, 0), out=best)
                overlap[layer_keys] = np.where(in_closure[layer_keys], total, best)
            size = 3 * melds_wanted + 2 * pairs_wanted
            distances[:, melds_wanted * 2 + pairs_wanted] = size - overlap[keys]
    return keys, distances


def min_plus(left: DistanceVector, right: DistanceVector) -> DistanceVector:
    """Combine two independent parts: the cheapest split of (m, p) between them.

    >>> min_plus((0, 2, 3, 5, 6, 8, 9, 11, 12, 14), (0, 2, 3, 5, 6, 8, 9, 11, 12, 14))
    (0, 2, 3, 5, 6, 8, 9, 11, 12, 14)
    """
    out = [255] * VECTOR_LENGTH
    for m1 in range(MAX_MELDS + 1):
        for m2 in range(MAX_MELDS + 1 - m1):
            base = (m1 + m2) * 2
            a0, a1 = left[m1 * 2], left[m1 * 2 + 1]
            b0, b1 = right[m2 * 2], right[m2 * 2 + 1]
            if a0 + b0 < out[base]:
                out[base] = a0 + b0
            best_pair = min(a0 + b1, a1 + b0)
            if best_pair < out[base + 1]:
                out[base + 1] = best_pair
    return tuple(out)


def _pack(vectors: np.ndarray) -> np.ndarray:
    """One int64 per vector (distances fit in 5 bits), so numpy can unique 1-D."""
    packed = np.zeros(len(vectors), dtype=np.int64)
    for column in range(vectors.shape[1]):
        packed = (packed << 5) | vectors[:, column].astype(np.int64)
    return packed


def _classes(vectors: np.ndarray) -> tuple[np.ndarray, list[DistanceVector]]:
    """Distinct rows of ``vectors`` (in packed order) and each row's class."""
    _, first, class_of = np.unique(_pack(vectors), return_index=True, return_inverse=True)
    return class_of.reshape(-1).astype(np.int64), [tuple(int(x) for x in vectors[i]) for i in first]


def _pair_table(left: list[DistanceVector], right: list[DistanceVector]) -> tuple[np.ndarray, list[DistanceVector]]:
    """Class of ``min_plus(left[a], right[b])`` for every class pair (a, b)."""
    a = np.array(left, dtype=np.int64).reshape(len(left), 1, MAX_MELDS + 1, 2)
    b = np.array(right, dtype=np.int64).reshape(1, len(right), MAX_MELDS + 1, 2)
    out = np.full((len(left), len(right), MAX_MELDS + 1, 2), 255, dtype=np.int64)
    for m1 in range(MAX_MELDS + 1):
        for m2 in range(MAX_MELDS + 1 - m1):
            out[:, :, m1 + m2, 0] = np.minimum(out[:, :, m1 + m2, 0], a[:, :, m1, 0] + b[:, :, m2, 0])
            pair = np.minimum(a[:, :, m1, 0] + b[:, :, m2, 1], a[:, :, m1, 1] + b[:, :, m2, 0])
            out[:, :, m1 + m2, 1] = np.minimum(out[:, :, m1 + m2, 1], pair)
    class_of, vectors = _classes(out.reshape(-1, VECTOR_LENGTH))
    return class_of.reshape(len(left), len(right)), vectors


@dataclass(frozen=True, slots=True)
class SuitTable:
    """Lookup from a suit's counts (as ``bytes``) to its distance class.

    ``index[counts]`` is the base-5 key; ``class_of[key]`` the class (255 for
    unreachable keys); ``vectors[class]`` the distance vector.  Adding one tile
    ``i`` to a suit moves its key by ``5**i``, which is how ukeire finds the
    class after a draw without building new keys.
    """

    width: int
    index: dict[bytes, int]
    class_of: bytes
    class_array: np.ndarray
    vectors: tuple[DistanceVector, ...]
    #: ``next_classes[key * width + i]``: class after drawing tile ``i`` (255: a fifth copy).
    next_classes: bytes
    #: Complete suit shapes (melds only -> 0, melds and a pair -> 1), for the win check.
    complete: dict[bytes, int]

    def vector(self, counts: bytes) -> DistanceVector:
        """Distance vector of a suit given its counts."""
        return self.vectors[self.class_of[self.index[counts]]]


def _suit_table(width: int, *, chows: bool) -> SuitTable:
    keys, distances = _distance_grid(width, chows=chows)
    class_of_reachable, vectors = _classes(distances)
    class_array = np.full(5**width, 255, dtype=np.uint8)
    class_array[keys] = class_of_reachable
    digits = np.stack([(keys // 5**i) % 5 for i in range(width)], axis=1).astype(np.uint8)
    raw = digits.tobytes()
    names = [raw[i : i + width] for i in range(0, len(raw), width)]
    index = dict(zip(names, keys.tolist(), strict=True))
    following = np.full((5**width, width), 255, dtype=np.uint8)
    for tile in range(width):
        grows = digits[:, tile] < 4
        following[keys[grows], tile] = class_array[keys[grows] + 5**tile]
    totals = digits.sum(axis=1).astype(np.int64)
    with_pair = totals % 3 == 2
    slot = np.minimum(totals // 3, MAX_MELDS) * 2 + with_pair
    is_complete = (totals % 3 != 1) & (totals // 3 <= MAX_MELDS) & (distances[np.arange(len(keys)), slot] == 0)
    complete = {names[i]: int(with_pair[i]) for i in np.flatnonzero(is_complete).tolist()}
    return SuitTable(width, index, class_array.tobytes(), class_array, tuple(vectors), following.tobytes(), complete)


def _translation(values: np.ndarray) -> bytes:
    """A 256-byte table for ``bytes.translate``: ``values`` first, 255 after."""
    table = np.full(256, 255, dtype=np.uint8)
    table[: len(values)] = values
    return table.tobytes()


def _flag_tiles(width: int, offset: int) -> dict[bytes, tuple[int, ...]]:
    """Every 0/1 flag string of ``width`` bytes -> the tiles flagged (plus ``offset``)."""
    out = {}
    for mask in range(2**width):
        flags = bytes((mask >> i) & 1 for i in range(width))
        out[flags] = tuple(offset + i for i in range(width) if flags[i])
    return out


@dataclass(frozen=True, slots=True)
class Tables:
    """Every table the engine reads; built once per process by :func:`build`."""

    number_suit: SuitTable
    honors: SuitTable
    #: ``man_pin[a * n_number + b]``: class of the man+pin combination.
    man_pin: bytes
    #: ``sou_honors[a * n_honor + b]``: class of the sou+honours combination.
    sou_honors: bytes
    man_pin_vectors: tuple[DistanceVector, ...]
    sou_honors_vectors: tuple[DistanceVector, ...]
    #: ``final[(mp * n_sou_honors + sh) * 5 + m]``: whole-hand distance to m melds + a pair.
    final: bytes
    #: ``bytes.translate`` tables for ukeire, each mapping a class to the next stage:
    #: man (or pin) class -> man+pin class, given the other number suit's class;
    man_pin_with: tuple[bytes, ...]
    #: sou class -> sou+honours class, given the honours class;
    sou_honors_with_honor: tuple[bytes, ...]
    #: honours class -> sou+honours class, given the sou class;
    sou_honors_with_sou: tuple[bytes, ...]
    #: man+pin class -> hand distance, given ``sou_honors * 5 + melds``;
    final_by_man_pin: tuple[bytes, ...]
    #: sou+honours class -> hand distance, given ``man_pin * 5 + melds``;
    final_by_sou_honors: tuple[bytes, ...]
    #: distance -> 1 if below ``d`` else 0, for each ``d``.
    below: tuple[bytes, ...]
    #: flag strings of the four suits -> tiles flagged.
    flag_tiles: tuple[dict[bytes, tuple[int, ...]], ...]
    #: numpy twins of the byte tables for the batch path.
    man_pin_array: np.ndarray
    sou_honors_array: np.ndarray
    final_array: np.ndarray
    build_seconds: float
    #: Class counts, the strides of the combined look-ups: number-suit and honour classes,
    #: and sou+honours classes times the 5 meld counts (``final``'s stride per man+pin class).
    number_classes: int = 0
    honor_classes: int = 0
    final_stride: int = 0


def build() -> Tables:
    """Build every table (about a second; call :func:`tables` instead)."""
    started = time.perf_counter()
    number_suit = _suit_table(9, chows=True)
    honors = _suit_table(7, chows=False)
    man_pin, man_pin_vectors = _pair_table(list(number_suit.vectors), list(number_suit.vectors))
    sou_honors, sou_honors_vectors = _pair_table(list(number_suit.vectors), list(honors.vectors))
    final = np.empty((len(man_pin_vectors), len(sou_honors_vectors), MAX_MELDS + 1), dtype=np.uint8)
    left = np.array(man_pin_vectors, dtype=np.int64).reshape(-1, MAX_MELDS + 1, 2)
    right = np.array(sou_honors_vectors, dtype=np.int64).reshape(-1, MAX_MELDS + 1, 2)
    for melds in range(MAX_MELDS + 1):
        best = np.full((len(left), len(right)), 255, dtype=np.int64)
        for m1 in range(melds + 1):
            m2 = melds - m1
            pair_left = left[:, None, m1, 1] + right[None, :, m2, 0]
            pair_right = left[:, None, m1, 0] + right[None, :, m2, 1]
            best = np.minimum(best, np.minimum(pair_left, pair_right))
        final[:, :, melds] = best
    assert max(len(man_pin_vectors), len(sou_honors_vectors)) < 255
    n_sh = len(sou_honors_vectors)
    n_mp = len(man_pin_vectors)
    return Tables(
        number_suit=number_suit,
        honors=honors,
        man_pin=man_pin.astype(np.uint8).tobytes(),
        sou_honors=sou_honors.astype(np.uint8).tobytes(),
        man_pin_vectors=tuple(man_pin_vectors),
        sou_honors_vectors=tuple(sou_honors_vectors),
        final=final.tobytes(),
        man_pin_with=tuple(_translation(man_pin[:, c]) for c in range(man_pin.shape[1])),
        sou_honors_with_honor=tuple(_translation(sou_honors[:, c]) for c in range(sou_honors.shape[1])),
        sou_honors_with_sou=tuple(_translation(sou_honors[c, :]) for c in range(sou_honors.shape[0])),
        final_by_man_pin=tuple(_translation(final[:, sh, m]) for sh in range(n_sh) for m in range(MAX_MELDS + 1)),
        final_by_sou_honors=tuple(_translation(final[mp, :, m]) for mp in range(n_mp) for m in range(MAX_MELDS + 1)),
        below=tuple((np.arange(256) < d).astype(np.uint8).tobytes() for d in range(32)),  # 255 (no draw) is never below
        flag_tiles=(_flag_tiles(9, 0), _flag_tiles(9, 9), _flag_tiles(9, 18), _flag_tiles(7, 27)),
        man_pin_array=man_pin,
        sou_honors_array=sou_honors,
        final_array=final,
        build_seconds=time.perf_counter() - started,
        number_classes=len(number_suit.vectors),
        honor_classes=len(honors.vectors),
        final_stride=n_sh * (MAX_MELDS + 1),
    )


def _install_in_kernel(built: Tables) -> None:
    """Give the compiled kernel (:mod:`app.core._kernel`) these tables: one build defines a distance."""
    _kernel.install_shape_tables(
        built.number_suit.class_of,
        built.number_suit.next_classes,
        built.honors.class_of,
        built.honors.next_classes,
        built.man_pin,
        built.sou_honors,
        built.final,
        built.number_classes,
        built.honor_classes,
        built.final_stride,
    )


_TABLES: Tables | None = None
_BUILDING = threading.Lock()


def tables() -> Tables:
    """The process-wide tables, built once on first use (other callers wait)."""
    global _TABLES
    if _TABLES is None:
        with _BUILDING:
            if _TABLES is None:
                built = build()
                _install_in_kernel(built)
                _TABLES = built
    return _TABLES


compiled_regular_draws: Final = _kernel.regular_draws
"""(regular distance, 34 flag bytes of the draws that lower it) of 34 counts and a meld count: the
compiled look-up into the tables :func:`tables` installs (call :func:`tables` first).

>>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
>>> _ = tables()
>>> distance, flags = compiled_regular_draws(counts_from_tiles(parse_mpsz("123m456p789s1112z")), 4)
>>> distance, [tile for tile, flag in enumerate(flags) if flag]
(1, [28])
"""
