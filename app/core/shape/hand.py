"""Hands and melds as immutable values.

A :class:`Hand` is the concealed tiles as 34 counts plus its declared melds
(chi, pon, open/closed/added kan).  Construction validates everything a table
would refuse: meld shapes, the number of melds, the 4-copy limit across hand
and melds.  Whether the tile *count* fits a question (13 tiles to ``/win``) is
checked by the question, not here.

>>> hand = Hand.from_tiles([0, 1, 2], melds=[Meld.of("pon", [27, 27, 27])])
>>> hand.tile_count, hand.melds_wanted, hand.has_open_meld
(3, 1, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence, Sized
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final, cast

from app.core import _kernel
from app.core.errors import InvalidMeld, TooManyCopies, WrongTileCount
from app.core.shape.tiles import (
    MAX_MELDS,
    NUM_TILE_KINDS,
    Tile,
    counted,
    counts_from_tiles,
    format_tile,
    is_honor,
    quoted,
)

MAX_CONCEALED: Final = 14
_SHOWN_TILES: Final = 16


class MeldKind(StrEnum):
    """The kinds of declared meld."""

    CHI = "chi"
    PON = "pon"
    OPEN_KAN = "open_kan"
    CLOSED_KAN = "closed_kan"
    ADDED_KAN = "added_kan"

    @property
    def size(self) -> int:
        """Tiles in a meld of this kind."""
        return 3 if self in (MeldKind.CHI, MeldKind.PON) else 4

    @property
    def is_open(self) -> bool:
        """Whether the meld was made from another player's tile (every kind but a closed kan)."""
        return self is not MeldKind.CLOSED_KAN

    @property
    def with_article(self) -> str:
        """The kind after its indefinite article, for messages.

        >>> MeldKind.PON.with_article, MeldKind.OPEN_KAN.with_article, MeldKind.ADDED_KAN.with_article
        ('a pon', 'an open_kan', 'an added_kan')
        """
        return f"{'an' if self.value[0] in 'aeiou' else 'a'} {self.value}"


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared meld: its kind and its tiles, sorted."""

    kind: MeldKind
    tiles: tuple[Tile, ...]

    @classmethod
    def of(cls, kind: str | MeldKind, tiles: Iterable[Tile]) -> Meld:
        """Validate and build a meld.

        >>> Meld.of("chi", [2, 0, 1]).tiles
        (0, 1, 2)
        >>> Meld.of("chi", [0, 1, 3])
        Traceback (most recent call last):
        ...
        app.core.errors.InvalidMeld: a chi needs three consecutive tiles of one suit, got 1m2m4m
        """
        try:
            meld_kind = _MELD_KIND_OF.get(kind) or MeldKind(kind)
        except (ValueError, TypeError):
            names = ", ".join(k.value for k in MeldKind)
            raise InvalidMeld(f"unknown meld kind {quoted(kind)}; expected one of {names}", field="kind") from None
        ordered = tuple(sorted(tiles))
        # Every meld there can be is made once, at import: a valid one is looked up rather than
        # checked and built again.  Its tiles must be ints, not merely equal to them (True == 1,
        # but a bool is no tile, as the checks below say); indexes 0, 1, -2, -1 are all 3 or 4.
        try:
            made = _EVERY_MELD.get((meld_kind, ordered))
        except TypeError:  # unhashable tiles: not a meld, as the checks below say
            made = None
        if (
            made is not None
            and cls is Meld
            and type(ordered[0]) is type(ordered[1]) is type(ordered[-2]) is type(ordered[-1]) is int
        ):
            return made
        # A meld has at most 4 tiles; a message shows a few more, and the count says the rest.
        shown = "".join(format_tile(t) for t in ordered[:_SHOWN_TILES]) + ("…" if len(ordered) > _SHOWN_TILES else "")
        if len(ordered) != meld_kind.size:
            raise InvalidMeld(
                f"{meld_kind.with_article} has {meld_kind.size} tiles, got {len(ordered)} ({shown or 'none'})",
                field="tiles",
            )
        if meld_kind is MeldKind.CHI:
            first = ordered[0]
            if is_honor(first) or first % 9 > 6 or ordered != (first, first + 1, first + 2):
                raise InvalidMeld(f"a chi needs three consecutive tiles of one suit, got {shown}", field="tiles")
        elif len(set(ordered)) != 1:
            raise InvalidMeld(
                f"{meld_kind.with_article} needs {meld_kind.size} identical tiles, got {shown}", field="tiles"
            )
        return cls(meld_kind, ordered)

    @property
    def is_open(self) -> bool:
        """Whether this meld opens the hand."""
        return self.kind.is_open


_MELD_KIND_OF: Final[dict[str, MeldKind]] = {kind.value: kind for kind in MeldKind}
_EVERY_MELD: Final[dict[tuple[MeldKind, tuple[Tile, ...]], Meld]] = {
    (kind, tiles): Meld(kind, tiles)
    for kind in MeldKind
    for first in range(NUM_TILE_KINDS)
    if kind is not MeldKind.CHI or (not is_honor(first) and first % 9 <= 6)
    for tiles in [(first, first + 1, first + 2) if kind is MeldKind.CHI else (first,) * kind.size]
}


@dataclass(frozen=True, slots=True)
class Hand:
    """Concealed tile counts plus declared melds."""

    counts: bytes
    melds: tuple[Meld, ...] = ()
    #: Concealed tiles (derived from ``counts``; every question starts from it).
    tile_count: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tile_count", sum(self.counts))

    @classmethod
    def from_counts(cls, counts: bytes, melds: Sequence[Meld] = ()) -> Hand:
        """Build and validate a hand from its concealed counts (34 bytes) and melds."""
        hand = cls(counts, tuple(melds))
        hand.validate()
        return hand

    @classmethod
    def from_tiles(cls, tiles: Iterable[Tile], melds: Sequence[Meld] = ()) -> Hand:
        """Build and validate a hand from concealed tiles and melds.

        >>> Hand.from_tiles([0] * 5)
        Traceback (most recent call last):
        ...
        app.core.errors.TooManyCopies: 5 copies of 1m (hand); a tile has 4
        """
        declared = tuple(melds)
        counts = _kernel.hand_counts(tiles, declared)
        if counts is not None and cls is Hand:
            # The kernel counted and checked as validate() does: no second look, no __init__.
            return _valid_hand(counts, declared, len(cast("Sized", tiles)))
        hand = cls(counts_from_tiles(tiles), declared)
        hand.validate()
        return hand

    def validate(self) -> None:
        """Raise a typed error unless this is a possible hand."""
        if len(self.counts) != NUM_TILE_KINDS:
            raise WrongTileCount(f"counts must have {NUM_TILE_KINDS} entries, got {len(self.counts)}", field="hand")
        if len(self.melds) > MAX_MELDS:
            raise InvalidMeld(f"a hand has at most {MAX_MELDS} melds, got {len(self.melds)}", field="melds")
        total = self.all_counts() if self.melds else self.counts
        if max(total) <= 4 and self.tile_count <= MAX_CONCEALED - 3 * len(self.melds):
            return
        for tile, count in enumerate(total):
            if count > 4:
                where = "hand and melds together" if self.melds else "hand"
                raise TooManyCopies(
                    f"{count} copies of {format_tile(tile)} ({where}); a tile has 4",
                    field="hand" if self.counts[tile] > 4 or not self.melds else "melds",
                )
        if self.tile_count > MAX_CONCEALED - 3 * len(self.melds):
            raise WrongTileCount(
                f"{counted(self.tile_count, 'concealed tile')} with {counted(len(self.melds), 'meld')}; at most "
                f"{MAX_CONCEALED - 3 * len(self.melds)}",
                field="hand",
            )

    @property
    def melds_wanted(self) -> int:
        """Melds the concealed tiles must still form (besides the pair).

        Follows the tile count, so a 7-tile hand without declared melds is
        treated like one with two melds that are not shown (as nyanten does).
        """
        return self.tile_count // 3

    @property
    def has_open_meld(self) -> bool:
        """Whether any meld was made from another player's discard."""
        return any(meld.is_open for meld in self.melds)

    def without(self, tiles: Iterable[Tile], meld: Meld | None = None) -> Hand:
        """This hand with ``tiles`` taken out of the concealed part and ``meld`` declared.

        Not validated: for callers that know the tiles are held (a discard, a call).

        >>> after = Hand.from_tiles([0, 0, 1, 1]).without([0, 0], Meld.of("pon", [0, 0, 0]))
        >>> list(after.counts[:2]), [m.kind.value for m in after.melds]
        ([0, 2], ['pon'])
        """
        counts = bytearray(self.counts)
        for tile in tiles:
            counts[tile] -= 1
        return Hand(bytes(counts), self.melds if meld is None else self.melds + (meld,))

    def with_tile(self, tile: Tile) -> Hand:
        """This hand with one more ``tile`` in the concealed part (a draw, a claimed win).  Not validated.

        >>> Hand.from_tiles([0, 0]).with_tile(0).counts[0]
        3
        """
        counts = bytearray(self.counts)
        counts[tile] += 1
        return Hand(bytes(counts), self.melds)

    def with_kong(self, kong: Meld) -> Hand:
        """This hand after declaring ``kong`` from its own tiles: a closed kan of four held
        copies, or an added kan growing its pon with the held fourth copy.  Not validated.

        >>> pon = Meld.of("pon", [27] * 3)
        >>> after = Hand.from_tiles([27, 0, 0], [pon]).with_kong(Meld.of("added_kan", [27] * 4))
        >>> after.tile_count, [m.kind.value for m in after.melds]
        (2, ['added_kan'])
        """
        if kong.kind is MeldKind.CLOSED_KAN:
            return self.without(kong.tiles, kong)
        tile = kong.tiles[0]
        return Hand(self.without((tile,)).counts, added_kong(self.melds, tile))

    def melded_counts(self) -> bytes:
        """Copies of each tile locked in melds."""
        return counts_from_tiles(tile for meld in self.melds for tile in meld.tiles)

    def all_counts(self) -> bytes:
        """Copies of each tile in hand and melds together (capped at 255: the counts are bytes)."""
        if not self.melds:
            return self.counts
        total = bytearray(self.counts)
        for meld in self.melds:
            for tile in meld.tiles:
                if total[tile] < 255:
                    total[tile] += 1
        return bytes(total)


_new_hand: Final = object.__new__
_set_counts: Final[Callable[[Hand, bytes], None]] = vars(Hand)["counts"].__set__
_set_melds: Final[Callable[[Hand, tuple[Meld, ...]], None]] = vars(Hand)["melds"].__set__
_set_tile_count: Final[Callable[[Hand, int], None]] = vars(Hand)["tile_count"].__set__


def _valid_hand(counts: bytes, melds: tuple[Meld, ...], tile_count: int) -> Hand:
    """A hand of fields known to be valid (``tile_count`` the sum of ``counts``), its slots set
    directly: the dataclass's ``__init__`` sets each through ``object.__setattr__`` (the class
    is frozen) and sums the counts again, which costs more than the counting."""
    hand: Hand = _new_hand(Hand)
    _set_counts(hand, counts)
    _set_melds(hand, melds)
    _set_tile_count(hand, tile_count)
    return hand


def added_kong(melds: Sequence[Meld], tile: Tile) -> tuple[Meld, ...]:
    """``melds`` with the pon of ``tile`` grown into an added kong.

    >>> [m.kind.value for m in added_kong((Meld.of("chi", [0, 1, 2]), Meld.of("pon", [27] * 3)), 27)]
    ['chi', 'added_kan']
    """
    kong = Meld(MeldKind.ADDED_KAN, (tile,) * 4)
    return tuple(kong if meld.kind is MeldKind.PON and meld.tiles[0] == tile else meld for meld in melds)
