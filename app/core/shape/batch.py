"""Shanten, per-form shanten and ukeire for many hands at once, with numpy.

Each suit's counts become a base-5 key (Horner's rule over columns); the keys
index the same class tables as the single-hand path, so the two agree by
construction (and a test checks it on random hands).  Seven pairs and
thirteen orphans are closed formulas over count histograms; the knitted forms
(rules with ``knitted_forms``) take each knitted straight's tiles out of the
suit keys and look the rest up in the same tables.  Ukeire moves one suit key
by ``5**i`` per candidate tile, exactly like the single-hand path.

>>> import numpy as np
>>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
>>> hands = np.array([list(counts_from_tiles(parse_mpsz(h))) for h in ("123456789m1111z", "11223344556677z")])
>>> shanten_batch(hands).tolist()
[1, -1]
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Final, NamedTuple

import numpy as np

from app.core.errors import TooManyCopies, WrongTileCount
from app.core.shape.rules import RuleProfile, SevenPairs
from app.core.shape.shanten import (
    HONORS_AND_KNITTED_SIZE,
    KNITTED_ASSIGNMENTS,
    KNITTED_PATTERNS,
    KNITTED_STRAIGHTS,
    shanten_from_distance,
)
from app.core.shape.tables import tables
from app.core.shape.tiles import HONORS, MAX_MELDS, MPSZ_TILES, counted

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
    #: The knitted forms (rules with ``knitted_forms``; else all :data:`NOT_APPLICABLE`).
    knitted_straight: np.ndarray
    honors_and_knitted: np.ndarray
    #: The wildcards-held form (rules with ``wildcards_held_win`` and wildcards; else all
    #: :data:`NOT_APPLICABLE`, as where the hand cannot hold that many wildcards).
    wildcards_held: np.ndarray


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
    # Look up in the tables as they are and widen the N results: widening a whole table
    # (5^9 suit keys) cost more than the rest of a 1000-hand batch.
    suit_classes, honor_classes = t.number_suit.class_array, t.honors.class_array
    man, pin, sou = (suit_classes[keyed[:, suit]].astype(np.intp) for suit in range(3))
    honors = honor_classes[keyed[:, 3]].astype(np.intp)
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


def analyse_batch(
    counts: np.ndarray, rules: RuleProfile, *, declared_melds: int = 0, with_ukeire: bool = True
) -> BatchAnalysis:
    """Shanten per form and ukeire of every row of an (N, 34) concealed-count array.

    ``declared_melds`` is the number of melds every hand has declared (they
    only shape the allowed sizes and rule out the closed forms).  Without
    ``with_ukeire`` the ukeire are not computed (all False), about half the work.  The rules'
    ``melded_tiles_count_toward_limit`` is not applied here: callers with that
    option and melds use :class:`~app.core.shape.engine.Checker`, as do callers whose
    rules have absent tiles (sanma), which raise ``ValueError`` here.

    >>> import numpy as np
    >>> from app.core.shape.rules import rule_profile
    >>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
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
            f"hand {row} has {counted(int(sizes[row]), 'concealed tile')} with {counted(declared_melds, 'meld')}; "
            f"shanten needs 3n+1 or 3n+2 tiles, at most {limit}",
            field=f"hands[{row}]",
        )
    melds_wanted = sizes // 3
    classes = _classes(keyed)
    regular = _final(classes.man_pin, classes.sou_honors, melds_wanted)
    closed = (sizes >= 13) & (declared_melds == 0)
    seven_pairs_on = rules.seven_pairs is not SevenPairs.OFF
    quad_as_two = rules.seven_pairs is SevenPairs.QUAD_AS_TWO
    # With the wildcards plain in seven pairs (Hunan's 红中), seven pairs reads the whole counts
    # and takes no credit for them; every other form reads the counts without them.
    pairs_plain = bool(rules.wildcards) and not rules.wildcards_in_seven_pairs
    pairs_held = array if pairs_plain else plain
    pairs_features = _keys_and_features(array)[:, 4] if pairs_plain and seven_pairs_on else features
    pairs_distance, free, one_draw = _seven_pairs(pairs_features, quad_as_two)
    pairs_wilds = 0 if pairs_plain else wild_counts
    orphans_distance, orphan_paired = _thirteen_orphans(features)

    def credited(distance: np.ndarray, wilds: np.ndarray | int = wild_counts) -> np.ndarray:
        """Distances with the wildcards covering missing tiles (255, ruled out, stays)."""
        return np.where(distance >= _IMPOSSIBLE, distance, np.maximum(distance - wilds, 0))

    best = credited(regular)
    if seven_pairs_on:
        best = np.where(closed, np.minimum(best, credited(pairs_distance, pairs_wilds)), best)
    if rules.thirteen_orphans:
        best = np.where(closed, np.minimum(best, credited(orphans_distance)), best)
    knitted = _Knitted.of(keyed, classes, melds_wanted, closed) if rules.knitted_forms else None
    if knitted is not None:
        best = np.minimum(best, np.minimum(credited(knitted.straight), credited(knitted.honors)))
    ready = sizes % 3 == 1
    held = _held_distance(rules, wild_counts, sizes, ready)
    if held is not None:
        best = np.minimum(best, held)

    def effective(distance: np.ndarray) -> np.ndarray:
        return np.asarray(shanten_from_distance(distance, wild_counts)).astype(np.int8)

    if with_ukeire and ready.any():
        # The raw distance a form that reads wildcards as any tile has when it ties for the best.
        best_raw = best + wild_counts
        ukeire, pairs_draws = _ukeire(
            plain, pairs_held, keyed, classes, melds_wanted, regular, best_raw,
            closed & seven_pairs_on & (credited(pairs_distance, pairs_wilds) == best), quad_as_two, free, one_draw,
            closed & rules.thirteen_orphans & (orphans_distance == best_raw), orphan_paired,
        )  # fmt: skip
        wild_wanted = (regular == best_raw) | (closed & rules.thirteen_orphans & (orphans_distance == best_raw))
        if seven_pairs_on and not pairs_plain:
            wild_wanted |= closed & (pairs_distance == best_raw)
        if knitted is not None:
            ukeire |= knitted.draws(plain, best_raw, ready)
            wild_wanted |= (knitted.straight == best_raw) | (knitted.honors == best_raw)
        if held is not None:
            holding = held == best
            wild_wanted |= holding
            # A 3n+1 hand holding enough wildcards wins on any tile drawn.
            ukeire |= (holding & (wild_counts >= (rules.wildcards_held_win or 0)))[:, None]
        for tile in rules.wildcards:
            # One more wildcard covers one more missing tile of every form that reads it as any
            # tile; plain in seven pairs, it is wanted there only as a tile of its kind.
            ukeire[:, tile] = wild_wanted | (pairs_draws[:, tile] if pairs_plain else False)
        ukeire &= (best > 0)[:, None] & (array < 4) & ready[:, None]
    else:
        ukeire = np.zeros(array.shape, dtype=bool)
    return BatchAnalysis(
        shanten=(best - 1).astype(np.int8),
        regular=effective(regular),
        seven_pairs=np.where(closed & seven_pairs_on, credited(pairs_distance, pairs_wilds) - 1, NOT_APPLICABLE).astype(
            np.int8
        ),
        thirteen_orphans=np.where(closed & rules.thirteen_orphans, effective(orphans_distance), NOT_APPLICABLE).astype(
            np.int8
        ),
        ukeire=ukeire,
        sizes=sizes,
        knitted_straight=_applicable(knitted, "straight", effective, len(array)),
        honors_and_knitted=_applicable(knitted, "honors", effective, len(array)),
        wildcards_held=np.full(len(array), NOT_APPLICABLE, dtype=np.int8)
        if held is None
        else np.where(held == _IMPOSSIBLE, NOT_APPLICABLE, held - 1).astype(np.int8),
    )


def _held_distance(rules: RuleProfile, wilds: np.ndarray, sizes: np.ndarray, ready: np.ndarray) -> np.ndarray | None:
    """The wildcards-held form's distance per row (255 where a hand of that size cannot hold that
    many wildcards; see :meth:`app.core.shape.engine.Checker._held_distance`), or None without the form."""
    need = rules.wildcards_held_win
    if need is None or not rules.wildcards:
        return None
    ready_sizes = sizes + ready
    enough_room = (ready_sizes >= need) & (4 * len(rules.wildcards) >= need)
    distance = np.maximum(need - wilds, ready.astype(np.int64))
    return np.where(enough_room, distance, _IMPOSSIBLE)


def _ukeire(
    plain: np.ndarray,
    pairs_held: np.ndarray,
    keyed: np.ndarray,
    classes: _Classes,
    melds_wanted: np.ndarray,
    regular: np.ndarray,
    best: np.ndarray,
    pairs_tie: np.ndarray,
    quad_as_two: bool,
    free: np.ndarray,
    one_draw: np.ndarray,
    orphans_tie: np.ndarray,
    orphan_paired: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """(N, 34) bool twice: draws that shorten the regular form, seven pairs (counts ``pairs_held``)
    or thirteen orphans where they tie for the best raw distance ``best``, and those of seven pairs
    alone; a wildcard's own column is the caller's to set."""
    improving: np.ndarray = _regular_draws(keyed, classes, melds_wanted, regular) & (regular == best)[:, None]
    pairs_draws = np.zeros(improving.shape, dtype=bool)
    if pairs_tie.any():
        held = pairs_held
        # Seven pairs: completing a pair always helps; a new candidate only while candidates are short.
        completing = (held == 1) | (quad_as_two & (held == 3))
        candidate = (held == 0) | (quad_as_two & (held == 2))
        short = (one_draw < 7 - free)[:, None]
        pairs_draws = (pairs_tie & (free < 7))[:, None] & (completing | (candidate & short))
        improving |= pairs_draws
    if orphans_tie.any():
        orphan_draws = (plain == 0) | ((plain == 1) & ~orphan_paired[:, None])
        improving |= orphans_tie[:, None] & _IS_ORPHAN[None, :] & orphan_draws
    return improving, pairs_draws


def _regular_draws(keyed: np.ndarray, classes: _Classes, melds_wanted: np.ndarray, distance: np.ndarray) -> np.ndarray:
    """(N, 34) bool: draws that lower each row's regular ``distance`` (its suit keys in ``keyed[:, :4]``).

    Suit by suit: each row's "class after drawing tile i" (255 where the tile
    cannot be drawn) for the whole suit at once, then the combined distance.
    """
    t = tables()
    n_number, n_honor = len(t.number_suit.vectors), len(t.honors.vectors)
    n_sou_honors = len(t.sou_honors_vectors)
    man_pin_flat = t.man_pin_array.ravel()
    sou_honors_flat = t.sou_honors_array.ravel()
    final_flat = t.final_array.ravel()
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
        parts.append(drawable & (after < distance[:, None]))
    return np.concatenate(parts, axis=1)


_IMPOSSIBLE: Final = 255
#: The six knitted straights' tiles, and with the honours (honours and knitted tiles' sixteen).
_STRAIGHT_TILES: Final = np.array(KNITTED_STRAIGHTS, dtype=np.intp)
_HONORS_AND_KNITTED_TILES: Final = np.array([(*straight, *HONORS) for straight in KNITTED_STRAIGHTS], dtype=np.intp)


class _Knitted(NamedTuple):
    """The knitted forms of a batch (see :mod:`app.core.shape.shanten` for the split they rest on).

    ``straight``/``honors`` hold 255 where the hand cannot hold the form; the
    per-assignment arrays let :meth:`draws` find the draws of the tying ones.
    """

    straight: np.ndarray
    honors: np.ndarray
    #: (N, 6): the knitted-straight distance per assignment (255: not applicable).
    by_straight: np.ndarray
    #: (N, 6): the honours-and-knitted distance per assignment (255: not applicable).
    by_honors: np.ndarray
    #: (N, 6, 3): per assignment, the man, pin and sou keys of the rest (the hand less the straight).
    rest_keys: np.ndarray
    honor_keys: np.ndarray
    #: Melds the rest needs besides its pair (0 or 1).
    rest_melds: np.ndarray

    @classmethod
    def of(cls, keyed: np.ndarray, classes: _Classes, melds_wanted: np.ndarray, closed: np.ndarray) -> _Knitted:
        """The forms of rows keyed as :func:`_keys_and_features` does (plain tiles, wildcards out)."""
        t = tables()
        suit_classes = t.number_suit.class_array.astype(np.intp)
        n_number, n_honor = len(t.number_suit.vectors), len(t.honors.vectors)
        n_sou_honors = len(t.sou_honors_vectors)
        rows = len(keyed)
        held = np.zeros((3, rows, 3), dtype=np.int64)  # [suit, row, pattern]
        rest = np.repeat(keyed[None, :, :3].transpose(2, 1, 0), 3, axis=2)  # [suit, row, pattern] keys
        for suit in range(3):
            for pattern, positions in enumerate(KNITTED_PATTERNS):
                for position in positions:
                    present = (keyed[:, suit] // 5**position) % 5 > 0
                    held[suit, :, pattern] += present
                    rest[suit, :, pattern] -= present * 5**position
        straight_ok = melds_wanted >= 3
        rest_melds = np.where(straight_ok, melds_wanted - 3, 0)
        honor_features = _suit_features()[1][keyed[:, 3]]
        honors_held = _field(honor_features, 6) + _field(honor_features, 12)  # kinds held once, or more
        by_straight = np.empty((rows, 6), dtype=np.int64)
        by_honors = np.empty((rows, 6), dtype=np.int64)
        rest_keys = np.empty((rows, 6, 3), dtype=np.int64)
        for index, (a, b, c) in enumerate(KNITTED_ASSIGNMENTS):
            knitted_held = held[0, :, a] + held[1, :, b] + held[2, :, c]
            rest_keys[:, index] = np.stack([rest[0, :, a], rest[1, :, b], rest[2, :, c]], axis=1)
            man_pin = t.man_pin_array.ravel()[
                suit_classes[rest[0, :, a]] * n_number + suit_classes[rest[1, :, b]]
            ].astype(np.intp)
            sou_honors = t.sou_honors_array.ravel()[suit_classes[rest[2, :, c]] * n_honor + classes.honors].astype(
                np.intp
            )
            rest_distance = t.final_array.ravel()[(man_pin * n_sou_honors + sou_honors) * (MAX_MELDS + 1) + rest_melds]
            by_straight[:, index] = np.where(straight_ok, 9 - knitted_held + rest_distance, _IMPOSSIBLE)
            distinct = np.minimum(knitted_held + honors_held, HONORS_AND_KNITTED_SIZE)
            by_honors[:, index] = np.where(closed, HONORS_AND_KNITTED_SIZE - distinct, _IMPOSSIBLE)
        return cls(
            by_straight.min(axis=1),
            by_honors.min(axis=1),
            by_straight,
            by_honors,
            rest_keys,
            keyed[:, 3],
            rest_melds,
        )

    def draws(self, plain: np.ndarray, best: np.ndarray, ready: np.ndarray) -> np.ndarray:
        """(N, 34) bool: draws that shorten an assignment of a knitted form at the ``best`` distance."""
        out = np.zeros(plain.shape, dtype=bool)
        missing = plain == 0
        live = ready & (best > 0)
        for index in range(6):
            straight_tie = live & (self.by_straight[:, index] == best)
            if straight_tie.any():
                tiles = _STRAIGHT_TILES[index]
                out[:, tiles] |= straight_tie[:, None] & missing[:, tiles]
                rows = np.flatnonzero(straight_tie)
                keys = np.concatenate([self.rest_keys[rows, index], self.honor_keys[rows, None]], axis=1)
                out[rows] |= _regular_lowering(keys, self.rest_melds[rows])
            honors_tie = live & (self.by_honors[:, index] == best)
            if honors_tie.any():
                tiles = _HONORS_AND_KNITTED_TILES[index]
                out[:, tiles] |= honors_tie[:, None] & missing[:, tiles]
        out &= plain < 4  # the rest may hold three of a tile the hand holds four times
        return out


def _regular_lowering(keys: np.ndarray, melds_wanted: np.ndarray) -> np.ndarray:
    """(N, 34) bool: draws that lower the regular distance of hands given by their (N, 4) suit keys."""
    classes = _classes(keys)
    distance = _final(classes.man_pin, classes.sou_honors, melds_wanted)
    return _regular_draws(keys, classes, melds_wanted, distance)


def _applicable(
    knitted: _Knitted | None, form: str, effective: Callable[[np.ndarray], np.ndarray], rows: int
) -> np.ndarray:
    """A knitted form's shanten per row, :data:`NOT_APPLICABLE` where the rules or the hand rule it out."""
    if knitted is None:
        return np.full(rows, NOT_APPLICABLE, dtype=np.int8)
    distance = getattr(knitted, form)
    return np.where(distance == _IMPOSSIBLE, NOT_APPLICABLE, effective(np.minimum(distance, 127))).astype(np.int8)


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
            f"hand {row} has {counted(int(sizes[row]), 'tile')}; shanten needs 3n+1 or 3n+2 (<= 14)",
            field=f"hands[{row}]",
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
    """The tile of suit ``s`` and digit ``d`` at ``10 * s + d`` (-1: no such tile)."""
    table = np.full((4, 10), -1, dtype=np.int32)
    for suit, letter in enumerate("mpsz"):
        for digit, tile in MPSZ_TILES[letter].items():
            table[suit, int(digit)] = tile
    return table.ravel()


_DIGIT_TILES: Final = _digit_tiles()


def parse_mpsz_batch(texts: list[str]) -> np.ndarray | None:
    """(N, 34) counts of many compact mpsz strings at once, or None.

    Only the plain form is taken (lowercase, no spaces, at most four copies):
    anything else returns None, and the caller parses hand by hand with
    :func:`app.core.shape.tiles.parse_tiles`, which explains any error precisely.

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
    # The text is read backwards, so that "the suit letter after each digit" becomes a running
    # maximum forwards over a contiguous array; narrow integer types throughout, and take()
    # rather than fancy indexing: a batch is tens of kilobytes, every pass streams through it.
    chars = np.ascontiguousarray(np.frombuffer(raw, dtype=np.uint8)[::-1])
    values = chars - np.uint8(48)  # digits become 0..9; everything else wraps past 9
    is_digit = values < 10
    suit_letter = _SUIT_LETTER.take(chars)
    if ((suit_letter == 255) & ~is_digit).any():
        return None
    positions = np.arange(len(chars), dtype=np.int32)
    # Each digit takes the suit of the first non-digit after it in the text, which must be a letter.
    suits = suit_letter.take(np.maximum.accumulate(np.where(is_digit, np.int32(0), positions)))
    is_letter = ~is_digit & (suit_letter < 4)
    # ... and each letter follows a digit in the text (the next character backwards).
    if (is_digit & (suits > 3)).any() or (is_letter & ~np.append(is_digit[1:], False)).any():
        return None
    digits = np.flatnonzero(is_digit)
    # The grammar's own table (tiles.MPSZ_TILES): -1 where a digit names no tile (0z, 8z, 9z).
    tiles = _DIGIT_TILES.take(suits.take(digits).astype(np.int32) * 10 + values.take(digits))
    if (tiles < 0).any():
        return None
    # Hand k is followed by N - k separators (each hand ends with one).
    hand_of = len(texts) - np.cumsum(chars == _SEPARATOR, dtype=np.int32).take(digits)
    counts = np.bincount(hand_of * 34 + tiles, minlength=len(texts) * 34)
    if counts.max(initial=0) > 4:
        return None
    return counts.reshape(len(texts), 34).astype(np.uint8)


def warm() -> None:
    """Build everything the batch path reads (the core tables and the suit features), now."""
    tables()
    _suit_features()
