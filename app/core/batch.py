"""Shanten, per-form shanten and ukeire for many hands at once, with numpy.

Each suit's counts become a base-5 key (Horner's rule over columns); the keys
index the same class tables as the single-hand path, so the two agree by
construction (and a test checks it on random hands).  Seven pairs and
thirteen orphans are closed formulas over count histograms.  Ukeire moves one
suit key by ``5**i`` per candidate tile, exactly like the single-hand path.

>>> import numpy as np
>>> from app.core.tiles import counts_from_tiles, parse_mpsz
>>> hands = np.array([list(counts_from_tiles(parse_mpsz(h))) for h in ("123456789m1111z", "11223344556677z")])
>>> shanten_batch(hands).tolist()
[1, -1]
"""

from __future__ import annotations

import functools
from typing import Final, NamedTuple

import numpy as np

from app.core.errors import TooManyCopies, WrongTileCount
from app.core.rules import RuleProfile, SevenPairs
from app.core.shanten import shanten_from_distance
from app.core.tables import tables
from app.core.tiles import MAX_MELDS, MPSZ_TILES

_ORPHANS: Final = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_IS_ORPHAN: Final = np.array([tile in _ORPHANS for tile in range(34)])
_SUITS: Final = ((0, 9), (9, 9), (18, 9), (27, 7))
#: Marks a form the rules or the hand size rule out in per-form arrays.
NOT_APPLICABLE: Final = 127


@functools.cache
def _suit_features() -> tuple[np.ndarray, np.ndarray]:
    """Packed per-suit features by suit key, summed over a hand's four suits.

    For a suit shape: bits 0-5 count its tiles (the hand size), 6-11 kinds held
    once, 12-17 kinds held twice or more, 18-23 kinds held three times, 24-29
    four times, and for orphans (terminals, every honour) 30-35 kinds held and
    36-41 kinds held twice or more.  No field can overflow in a hand.  Built
    once, from every base-5 key of a number suit (9 tiles) and of the honours.
    """
    out = []
    for width, orphan_positions in ((9, (0, 8)), (7, tuple(range(7)))):
        keys = np.arange(5**width, dtype=np.int64)
        packed = np.zeros(len(keys), dtype=np.int64)
        for position in range(width):
            count = (keys // 5**position) % 5
            packed += count + ((count == 1) << 6) + ((count >= 2) << 12) + ((count == 3) << 18) + ((count == 4) << 24)
            if position in orphan_positions:
                packed += ((count >= 1) << 30) + ((count >= 2) << 36)
        out.append(packed)
    return out[0], out[1]


def _field(packed: np.ndarray, shift: int) -> np.ndarray:
    return (packed >> shift) & 63


class BatchAnalysis(NamedTuple):
    """Per-hand answers of :func:`analyse_batch` (forms ruled out hold :data:`NOT_APPLICABLE`)."""

    shanten: np.ndarray
    regular: np.ndarray
    seven_pairs: np.ndarray
    thirteen_orphans: np.ndarray
    #: (N, 34) bool: draws that lower the shanten (3n+1 rows only; all False elsewhere).
    ukeire: np.ndarray
    #: Concealed tiles of each hand (wildcards included).
    sizes: np.ndarray


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

    Keys by Horner's rule over columns: plain integer vector operations, which
    beat a matrix product here (numpy's integer matmul is slow, and BLAS's float
    kernels vary a lot between machines for such thin matrices).  Features by
    suit key (see :func:`_suit_features`).
    """
    # Columns made contiguous first: every step below then streams through memory.
    columns = np.ascontiguousarray(array.T)
    parts = []
    for start, width in _SUITS:
        key = columns[start + width - 1].astype(np.int64)
        for tile in range(start + width - 2, start - 1, -1):
            key *= 5
            key += columns[tile]
        parts.append(key)
    number_features, honor_features = _suit_features()
    parts.append(
        number_features[parts[0]] + number_features[parts[1]] + number_features[parts[2]] + honor_features[parts[3]]
    )
    return np.stack(parts, axis=1)


class _Classes(NamedTuple):
    man: np.ndarray
    pin: np.ndarray
    sou: np.ndarray
    honors: np.ndarray
    man_pin: np.ndarray
    sou_honors: np.ndarray


def _classes(keyed: np.ndarray) -> _Classes:
    t = tables()
    suit_classes = t.number_suit.class_array.astype(np.intp)
    honor_classes = t.honors.class_array.astype(np.intp)
    man, pin, sou = suit_classes[keyed[:, 0]], suit_classes[keyed[:, 1]], suit_classes[keyed[:, 2]]
    honors = honor_classes[keyed[:, 3]]
    man_pin = t.man_pin_array.ravel()[man * len(t.number_suit.vectors) + pin]
    sou_honors = t.sou_honors_array.ravel()[sou * len(t.honors.vectors) + honors]
    return _Classes(man, pin, sou, honors, man_pin, sou_honors)


def _final(man_pin: np.ndarray, sou_honors: np.ndarray, melds_wanted: np.ndarray) -> np.ndarray:
    t = tables()
    rows = (man_pin * len(t.sou_honors_vectors) + sou_honors) * (MAX_MELDS + 1) + melds_wanted
    final: np.ndarray = t.final_array.ravel()[rows].astype(np.int16)
    return final


def _seven_pairs(features: np.ndarray, quad_as_two: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(distance, kinds that are free pairs, one-draw candidates) per row."""
    singles = _field(features, 6)
    free = _field(features, 12)
    one_draw = singles
    if quad_as_two:
        free = free + _field(features, 24)
        one_draw = singles + _field(features, 18)
    needed = np.maximum(7 - free, 0)
    cheap = np.minimum(one_draw, needed)
    return cheap + 2 * (needed - cheap), free, one_draw


def _thirteen_orphans(features: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distance, whether an orphan is paired) per row."""
    paired = _field(features, 36) > 0
    return 14 - _field(features, 30) - paired, paired


def analyse_batch(counts: np.ndarray, rules: RuleProfile, *, declared_melds: int = 0) -> BatchAnalysis:
    """Shanten per form and ukeire of every row of an (N, 34) concealed-count array.

    ``declared_melds`` is the number of melds every hand has declared (they
    only shape the allowed sizes and rule out the closed forms).  The rules'
    ``melded_tiles_count_toward_limit`` is not applied here: callers with that
    option and melds use :class:`~app.core.engine.Checker`, as do callers whose
    rules have absent tiles (sanma), which raise ``ValueError`` here.

    >>> import numpy as np
    >>> from app.core.rules import rule_profile
    >>> from app.core.tiles import counts_from_tiles, parse_mpsz
    >>> hands = np.array([list(counts_from_tiles(parse_mpsz("123456789m1112z")))])
    >>> result = analyse_batch(hands, rule_profile("riichi"))
    >>> result.shanten.tolist(), np.flatnonzero(result.ukeire[0]).tolist()
    ([0], [28])
    """
    if rules.absent_tiles:
        # The four-player tables would count runs through absent tiles (sanma's 2m-8m).
        raise ValueError(f"analyse_batch does not model absent tiles ({rules.name}); use Checker")
    array = _validated(counts)
    plain = array
    wild_counts = np.zeros(len(array), dtype=np.int64)
    if rules.wildcards:
        plain = array.copy()
        for tile in rules.wildcards:
            wild_counts += array[:, tile]
            plain[:, tile] = 0
    keyed = _keys_and_features(plain)
    features = keyed[:, 4]
    sizes = (features & 63) + wild_counts
    limit = 14 - 3 * declared_melds
    bad = (sizes % 3 == 0) | (sizes > limit)
    if bad.any():
        row = int(np.argmax(bad))
        raise WrongTileCount(
            f"hand {row} has {int(sizes[row])} concealed tiles with {declared_melds} melds; "
            f"shanten needs 3n+1 or 3n+2 tiles, at most {limit}",
            field=f"hands[{row}]",
        )
    melds_wanted = sizes // 3
    classes = _classes(keyed)
    regular = _final(classes.man_pin, classes.sou_honors, melds_wanted)
    closed = (sizes >= 13) & (declared_melds == 0)
    best = regular.copy()
    seven_pairs_on = rules.seven_pairs is not SevenPairs.OFF
    quad_as_two = rules.seven_pairs is SevenPairs.QUAD_AS_TWO
    pairs_distance, free, one_draw = _seven_pairs(features, quad_as_two)
    orphans_distance, orphan_paired = _thirteen_orphans(features)
    if seven_pairs_on:
        best = np.where(closed, np.minimum(best, pairs_distance), best)
    if rules.thirteen_orphans:
        best = np.where(closed, np.minimum(best, orphans_distance), best)

    def effective(distance: np.ndarray) -> np.ndarray:
        return np.asarray(shanten_from_distance(distance, wild_counts)).astype(np.int8)

    ready = sizes % 3 == 1
    if ready.any():
        ukeire = _ukeire(
            array, plain, keyed, classes, melds_wanted, regular, best, rules,
            closed & seven_pairs_on & (pairs_distance == best), quad_as_two, free, one_draw,
            closed & rules.thirteen_orphans & (orphans_distance == best), orphan_paired,
        )  # fmt: skip
        ukeire &= ready[:, None]
    else:
        ukeire = np.zeros(array.shape, dtype=bool)
    return BatchAnalysis(
        shanten=effective(best),
        regular=effective(regular),
        seven_pairs=np.where(closed & seven_pairs_on, effective(pairs_distance), NOT_APPLICABLE).astype(np.int8),
        thirteen_orphans=np.where(closed & rules.thirteen_orphans, effective(orphans_distance), NOT_APPLICABLE).astype(
            np.int8
        ),
        ukeire=ukeire,
        sizes=sizes,
    )


def _ukeire(
    array: np.ndarray,
    plain: np.ndarray,
    keyed: np.ndarray,
    classes: _Classes,
    melds_wanted: np.ndarray,
    regular: np.ndarray,
    best: np.ndarray,
    rules: RuleProfile,
    pairs_tie: np.ndarray,
    quad_as_two: bool,
    free: np.ndarray,
    one_draw: np.ndarray,
    orphans_tie: np.ndarray,
    orphan_paired: np.ndarray,
) -> np.ndarray:
    """(N, 34) bool: draws that shorten a form tying for the best distance.

    Suit by suit: each row's "class after drawing tile i" (255 where the tile
    cannot be drawn) for the whole suit at once, then the combined distance.
    """
    t = tables()
    n_number, n_honor = len(t.number_suit.vectors), len(t.honors.vectors)
    n_sou_honors = len(t.sou_honors_vectors)
    man_pin_flat = t.man_pin_array.ravel()
    sou_honors_flat = t.sou_honors_array.ravel()
    final_flat = t.final_array.ravel()
    regular_tie = (regular == best)[:, None]
    wanted = melds_wanted[:, None]
    parts = []
    for suit, (_start, width) in enumerate(_SUITS):
        table = t.honors if suit == 3 else t.number_suit
        following = np.frombuffer(table.next_classes, dtype=np.uint8).reshape(-1, width)[keyed[:, suit]]
        drawable = following != 255
        grown = np.where(drawable, following, 0).astype(np.intp)
        if suit == 0:
            man_pin = man_pin_flat[grown * n_number + classes.pin[:, None]]
            sou_honors = classes.sou_honors[:, None]
        elif suit == 1:
            man_pin = man_pin_flat[classes.man[:, None] * n_number + grown]
            sou_honors = classes.sou_honors[:, None]
        elif suit == 2:
            man_pin = classes.man_pin[:, None]
            sou_honors = sou_honors_flat[grown * n_honor + classes.honors[:, None]]
        else:
            man_pin = classes.man_pin[:, None]
            sou_honors = sou_honors_flat[classes.sou[:, None] * n_honor + grown]
        after = final_flat[(man_pin * n_sou_honors + sou_honors) * (MAX_MELDS + 1) + wanted]
        parts.append(drawable & regular_tie & (after < regular[:, None]))
    improving = np.concatenate(parts, axis=1)
    if pairs_tie.any() or orphans_tie.any():
        held = plain
        # Seven pairs: completing a pair always helps; a new candidate only while candidates are short.
        completing = (held == 1) | (quad_as_two & (held == 3))
        candidate = (held == 0) | (quad_as_two & (held == 2))
        short = (one_draw < 7 - free)[:, None]
        improving |= (pairs_tie & (free < 7))[:, None] & (completing | (candidate & short))
        orphan_draws = (held == 0) | ((held == 1) & ~orphan_paired[:, None])
        improving |= orphans_tie[:, None] & _IS_ORPHAN[None, :] & orphan_draws
        improving &= held < 4
    improving &= (best > 0)[:, None]  # a form at distance 0 draws nothing
    for tile in rules.wildcards:
        # One more wildcard covers one more missing tile.
        improving[:, tile] = (array[:, tile] < 4) & (best > 0)
    return improving


def shanten_batch(counts: np.ndarray, *, seven_pairs: bool = True, thirteen_orphans: bool = True) -> np.ndarray:
    """Minimum shanten over the allowed forms for each row of an (N, 34) count array.

    Closed hands only (the forms need no melds); rows of any legal size.
    Seven pairs are distinct pairs (riichi); four of a kind is one pair.
    No ukeire: the fastest path.
    """
    array = _validated(counts)
    keyed = _keys_and_features(array)
    features = keyed[:, 4]
    sizes = features & 63
    bad = (sizes % 3 == 0) | (sizes > 14)
    if bad.any():
        row = int(np.argmax(bad))
        raise WrongTileCount(
            f"hand {row} has {int(sizes[row])} tiles; shanten needs 3n+1 or 3n+2 (<= 14)", field=f"hands[{row}]"
        )
    classes = _classes(keyed)
    best = _final(classes.man_pin, classes.sou_honors, sizes // 3)
    closed = sizes >= 13
    if seven_pairs:
        best = np.where(closed, np.minimum(best, _seven_pairs(features, False)[0]), best)
    if thirteen_orphans:
        best = np.where(closed, np.minimum(best, _thirteen_orphans(features)[0]), best)
    return (best - 1).astype(np.int8)


_SEPARATOR: Final = ord("|")
_SUIT_LETTER: Final = np.full(256, 255, dtype=np.uint8)
for _suit, _letter in enumerate("mpsz"):
    _SUIT_LETTER[ord(_letter)] = _suit
_SUIT_LETTER[_SEPARATOR] = 4


def _digit_tiles() -> np.ndarray:
    table = np.full((4, 10), -1, dtype=np.int64)
    for suit, letter in enumerate("mpsz"):
        for digit, tile in MPSZ_TILES[letter].items():
            table[suit, int(digit)] = tile
    return table


_DIGIT_TILES: Final = _digit_tiles()


def parse_mpsz_batch(texts: list[str]) -> np.ndarray | None:
    """(N, 34) counts of many compact mpsz strings at once, or None.

    Only the plain form is taken (lowercase, no spaces, at most four copies):
    anything else returns None, and the caller parses hand by hand with
    :func:`app.core.tiles.parse_tiles`, which explains any error precisely.

    >>> parse_mpsz_batch(["123m406p789s1122z", "11m"])[:, [0, 1, 13, 27, 28]].tolist()
    [[1, 1, 1, 2, 2], [2, 0, 0, 0, 0]]
    >>> parse_mpsz_batch(["123 m"]) is None
    True
    """
    if not texts:
        return np.zeros((0, 34), dtype=np.uint8)
    try:
        raw = ("|".join(texts) + "|").encode("ascii")
    except UnicodeEncodeError:
        return None
    chars = np.frombuffer(raw, dtype=np.uint8)
    is_digit = (chars >= 48) & (chars <= 57)
    suit_letter = _SUIT_LETTER[chars]
    if ((suit_letter == 255) & ~is_digit).any():
        return None
    positions = np.arange(len(chars))
    # Each digit takes the suit of the first non-digit after it, which must be a letter.
    next_other = np.minimum.accumulate(np.where(is_digit, len(chars) - 1, positions)[::-1])[::-1]
    suits = suit_letter[next_other]
    is_letter = ~is_digit & (suit_letter < 4)
    if (is_digit & (suits > 3)).any() or (is_letter & ~np.concatenate(([False], is_digit[:-1]))).any():
        return None
    values = chars.astype(np.int64) - 48
    # The grammar's own table (tiles.MPSZ_TILES): -1 where a digit names no tile (0z, 8z, 9z).
    tiles = _DIGIT_TILES[np.where(is_digit, suits, 0), np.where(is_digit, values, 0)]
    if (is_digit & (tiles < 0)).any():
        return None
    hand_of = np.cumsum(chars == _SEPARATOR) - (chars == _SEPARATOR)
    counts = np.bincount(hand_of[is_digit] * 34 + tiles[is_digit], minlength=len(texts) * 34)
    if counts.max(initial=0) > 4:
        return None
    return counts.reshape(len(texts), 34).astype(np.uint8)


def warm() -> None:
    """Build everything the batch path reads (the core tables and the suit features), now."""
    tables()
    _suit_features()
