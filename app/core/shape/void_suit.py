"""The void suit (定缺) of Sichuan rules: a suit the hand declares it will not win with.

Under rules whose profile has ``void_suit`` on, every hand names one of the three
number suits (0 m, 1 p, 2 s) before its first discard, and it wins only when it holds
no tile of that suit, concealed or melded.  A tile of the void suit is junk: the hand
must throw it, so shanten counts it as a tile to replace and it is never a wait.

Where a question gives no void suit, the hand may void any suit it does not meld:
shanten takes the best of them, and a hand holding all three suits cannot win.

>>> [format_suit(suit) for suit in SUITS], parse_suit("p"), suit_tiles(2)[:3]
(['m', 'p', 's'], 1, (18, 19, 20))
>>> from app.core.shape.tiles import parse_mpsz
>>> from app.core.shape.hand import Hand
>>> [holds_suit(Hand.from_tiles(parse_mpsz("123m456m789p11p")), suit) for suit in SUITS]
[True, True, False]
"""

from __future__ import annotations

from typing import Final

from app.core.errors import TenpaiError
from app.core.shape.hand import Hand
from app.core.shape.tiles import Tile, quoted

#: The number suits, as ints: 0 m (characters), 1 p (dots), 2 s (bamboo).
SUITS: Final = (0, 1, 2)
SUIT_NAMES: Final = "mps"
#: The reason a hand that holds a tile of its void suit does not win (or waits on nothing).
VOID_SUIT_HELD: Final = "void_suit_held"


class InvalidVoidSuit(TenpaiError):
    """A void suit that is not m, p or s, or one given under rules without a void suit."""

    code = "invalid_void_suit"


class VoidSuitMelded(TenpaiError):
    """A meld of the void suit: such a hand can never win, so it has no shanten or waits."""

    code = "void_suit_melded"


def suit_tiles(suit: int) -> tuple[Tile, ...]:
    """The nine tiles of a number suit.

    >>> suit_tiles(0)
    (0, 1, 2, 3, 4, 5, 6, 7, 8)
    """
    return tuple(range(9 * suit, 9 * suit + 9))


def format_suit(suit: int) -> str:
    """The suit's letter: ``m``, ``p`` or ``s``."""
    return SUIT_NAMES[suit]


def parse_suit(value: object, *, field: str = "void_suit") -> int:
    """The suit ``m``, ``p`` or ``s`` (or its int 0-2) as an int; :class:`InvalidVoidSuit` otherwise.

    >>> parse_suit("s"), parse_suit(0)
    (2, 0)
    >>> parse_suit("z")
    Traceback (most recent call last):
    ...
    app.core.shape.void_suit.InvalidVoidSuit: void_suit is one of m, p, s; got 'z'
    """
    if isinstance(value, str) and len(value) == 1 and value in SUIT_NAMES:
        return SUIT_NAMES.index(value)
    if type(value) is int and value in SUITS:
        return value
    raise InvalidVoidSuit(f"{field} is one of m, p, s; got {quoted(value)}", field=field)


def melded_suits(hand: Hand) -> tuple[int, ...]:
    """The number suits of the hand's declared melds, ascending."""
    return tuple(sorted({meld.tiles[0] // 9 for meld in hand.melds if meld.tiles[0] // 9 in SUITS}))


def holds_suit(hand: Hand, suit: int) -> bool:
    """Whether the hand holds a tile of ``suit``, concealed or melded.

    >>> from app.core.shape.tiles import parse_mpsz
    >>> holds_suit(Hand.from_tiles(parse_mpsz("19m")), 0), holds_suit(Hand.from_tiles(parse_mpsz("19m")), 1)
    (True, False)
    """
    if any(hand.counts[9 * suit : 9 * suit + 9]):
        return True
    return any(meld.tiles[0] // 9 == suit for meld in hand.melds)


def forced_discards(counts: bytes, void_suit: int | None) -> tuple[Tile, ...]:
    """The discards the table forces (定缺): while the hand holds a tile of its void suit, only
    such tiles may be thrown; empty when it holds none (or has no void suit).

    >>> from app.core.shape.tiles import counts_from_tiles, parse_mpsz
    >>> forced_discards(counts_from_tiles(parse_mpsz("19m234p")), 0), forced_discards(counts_from_tiles(parse_mpsz("234p")), 0)
    ((0, 8), ())
    """
    if void_suit is None:
        return ()
    return tuple(tile for tile in suit_tiles(void_suit) if counts[tile])


def without_suit(counts: bytes, suit: int) -> bytes:
    """``counts`` with the suit's nine counts zeroed: the hand as the shape sees it, its void
    tiles thrown (each one a tile the complete hand still lacks).

    >>> list(without_suit(bytes(range(34)), 1)[8:19])
    [8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 18]
    """
    start = 9 * suit
    return counts[:start] + _NINE_ZEROS + counts[start + 9 :]


_NINE_ZEROS: Final = bytes(9)
