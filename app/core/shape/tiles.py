"""Tiles: the 34 kinds, their names, and every notation the service accepts.

A tile is an ``int`` from 0 to 33 in Tenhou order::

    0..8    1m..9m   characters   万 (萬)
    9..17   1p..9p   dots         筒 (饼, 餅)
    18..26  1s..9s   bamboo       条 (條, 索)
    27..30  1z..4z   winds        东 南 西 北   East South West North
    31..33  5z..7z   dragons      白 发 中      White Green Red (红中)

Every ``parse_*`` has a ``format_*`` twin with ``parse(format(tiles)) == tiles``
(``format_mpsz`` sorts, so there the round trip gives the tiles sorted).

mpsz
    ``"123m406p789s1122z"``: runs of ASCII digits, each closed by a suit letter
    m, p, s or z (either case). ``0`` is a red five (5m, 5p or 5s) and reads as a
    five; honours are ``1z``..``7z``. Whitespace may separate groups but not split one.
Chinese
    One name per tile: a number 一..九, 1..9 or full-width １..９, then a suit:
    万/萬, 筒/饼/餅, 条/條/索 (``"五筒"``, ``"1万"``). A run of numbers may share one
    suit (``"一二三万"`` and ``"123万"`` are 1m 2m 3m): numbers and suits never
    double as other tiles, so this reads only one way. Honours and aliases:
    东/東 南 西 北, 白/白板, 发/發/发财/發財/青发/青發, 中/红中/紅中, and 幺鸡/幺雞/么鸡
    for 1s. Tiles may be separated by whitespace (including the ideographic space),
    ``,``, ``，`` or ``、``. There are no red fives in this notation.
Unicode
    The Mahjong Tiles block, one character per tile (``"🀇🀈🀉🀀🀀"``). A variation
    selector (U+FE0E or U+FE0F) right after a tile is ignored, because 🀄 often
    arrives as ``"🀄\\ufe0f"``. Separators as for Chinese.
Integers
    A list of ints 0..33.

Two more encodings are here for exchanging tiles with other programs, not as request
notations (a request's list of ints is always read as 0..33): 136-tile ids
(``tile = id // 4``; :func:`parse_ids136` reads RiichiEnv's scored cases in the tests)
and the seed-003 codes of the source documents' Java (11-19 万, 21-29 条, 31-39 筒,
41/43/45/47 东南西北, 51 中, 53 发, 55 白; :func:`parse_seed_codes`).

Bad input raises :class:`~app.core.errors.InvalidNotation` whose message names the
offending character and its position (0-based, counted in characters) or the
offending list item and its index (0-based).

>>> parse_tiles("123m406p789s1122z") == parse_tiles("一二三万 四五六筒 七八九条 东东南南")
True
>>> format_chinese(parse_mpsz("19m7z"))
'一万 九万 中'
"""

from __future__ import annotations

import operator
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from functools import lru_cache
from typing import Final, TypeAlias

from app.core.errors import InvalidNotation, TooManyCopies

Tile: TypeAlias = int
"""A tile kind, 0..33 in Tenhou order."""

Counts: TypeAlias = bytes
"""Copies held of each tile kind: 34 bytes, indexed by tile."""

M1, M2, M3, M4, M5, M6, M7, M8, M9 = range(0, 9)
P1, P2, P3, P4, P5, P6, P7, P8, P9 = range(9, 18)
S1, S2, S3, S4, S5, S6, S7, S8, S9 = range(18, 27)
EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = range(27, 34)

NUM_TILE_KINDS: Final = 34
COPIES: Final = 4
"""Copies of each tile kind in a set."""
MAX_MELDS: Final = 4
"""Melds a complete hand has besides its pair (declared or concealed)."""

MAN: Final[tuple[Tile, ...]] = tuple(range(M1, M9 + 1))
PIN: Final[tuple[Tile, ...]] = tuple(range(P1, P9 + 1))
SOU: Final[tuple[Tile, ...]] = tuple(range(S1, S9 + 1))
HONORS: Final[tuple[Tile, ...]] = tuple(range(EAST, RED + 1))
WINDS: Final[tuple[Tile, ...]] = (EAST, SOUTH, WEST, NORTH)
DRAGONS: Final[tuple[Tile, ...]] = (WHITE, GREEN, RED)
TERMINALS: Final[tuple[Tile, ...]] = (M1, M9, P1, P9, S1, S9)
ORPHANS: Final[tuple[Tile, ...]] = TERMINALS + HONORS
"""The 13 terminal and honour kinds (thirteen orphans), ascending."""

_FIVES: Final = (M5, P5, S5)  # the tiles a red five counts as
_SUIT_LETTERS: Final = "mpsz"
_SEPARATORS: Final = frozenset(",，、")  # besides whitespace; Chinese and Unicode only


def suit_of(tile: Tile) -> int:
    """Return the suit of ``tile``: 0 for m, 1 for p, 2 for s, 3 for honours (z).

    >>> suit_of(M3), suit_of(P9), suit_of(S1), suit_of(RED)
    (0, 1, 2, 3)
    """
    return tile // 9


def number_of(tile: Tile) -> int:
    """Return the number of ``tile``: 1..9 in a suit, 1..7 for honours (as in ``1z``..``7z``).

    >>> number_of(M1), number_of(P5), number_of(S9), number_of(EAST), number_of(RED)
    (1, 5, 9, 1, 7)
    """
    return tile % 9 + 1


def is_honor(tile: Tile) -> bool:
    """Return whether ``tile`` is a wind or a dragon.

    >>> is_honor(S9), is_honor(EAST), is_honor(RED)
    (False, True, True)
    """
    return tile >= EAST


def _build_next_tiles() -> tuple[Tile, ...]:
    """Each tile's successor in its cycle: 1-9 in a suit, the four winds, the three dragons."""
    nexts = []
    for tile in range(NUM_TILE_KINDS):
        if tile < EAST:
            nexts.append(tile - tile % 9 + (tile % 9 + 1) % 9)
        elif tile in WINDS:
            nexts.append(EAST + (tile - EAST + 1) % 4)
        else:
            nexts.append(DRAGONS[(DRAGONS.index(tile) + 1) % 3])
    return tuple(nexts)


_NEXT_TILE: Final = _build_next_tiles()


@lru_cache(maxsize=16)
def dora_table(absent_tiles: tuple[Tile, ...] = ()) -> tuple[Tile, ...]:
    """Indicator -> dora for every tile, stepping over tiles the set does not have (sanma: 1m -> 9m).

    Each step stays in the indicator's cycle (a suit's nine, the four winds, the three dragons),
    so the walk takes at most the cycle's length.  A cycle with no tile left in the set (every
    honour under ``sichuan``; every dragon in a riichi room without them) has no dora: each of
    its indicators names itself, a tile no hand can hold, so it adds nothing.

    >>> table = dora_table()
    >>> [format_tile(table[t]) for t in (8, 4, 30, 33)]
    ['1m', '6m', '1z', '5z']
    >>> format_tile(dora_table(tuple(range(EAST, NUM_TILE_KINDS)))[EAST])  # no honours at all
    '1z'
    """
    absent = frozenset(absent_tiles)
    nexts = []
    for tile in range(NUM_TILE_KINDS):
        dora = _NEXT_TILE[tile]
        # The walk returns to ``tile`` after one lap of its cycle: a bound whatever is absent.
        while dora in absent and dora != tile:
            dora = _NEXT_TILE[dora]
        nexts.append(dora)
    return tuple(nexts)


def dora_from_indicator(indicator: Tile, *, absent_tiles: tuple[Tile, ...] = ()) -> Tile:
    """The dora an indicator names: the next tile of its cycle that exists.

    >>> [format_tile(dora_from_indicator(t)) for t in (8, 4, 30, 33)]
    ['1m', '6m', '1z', '5z']
    >>> format_tile(dora_from_indicator(0, absent_tiles=tuple(range(1, 8))))  # sanma: 1m names 9m
    '9m'
    """
    return dora_table(absent_tiles)[indicator]


def _build_tile_names() -> tuple[str, ...]:
    return tuple(f"{number_of(tile)}{_SUIT_LETTERS[suit_of(tile)]}" for tile in range(NUM_TILE_KINDS))


TILE_NAMES: Final[tuple[str, ...]] = _build_tile_names()
"""The mpsz name of every tile, indexed by tile: ``"1m"`` .. ``"7z"``."""


# --- validation shared by every notation -------------------------------------------


def _char(char: str) -> str:
    """Quote one character for an error message, by code point if it would not show."""
    if char.isprintable() and not char.isspace() and not unicodedata.category(char).startswith("M"):
        return repr(char)
    return f"U+{ord(char):04X}"


#: The most characters of one request value an error message quotes: a message names
#: what it refuses, but a megabyte string is answered with its start and its length.
ECHO_LIMIT: Final = 80

# Integers shorter than this print quickly and well inside Python's limit on printing
# an int (sys.get_int_max_str_digits(), 4300 digits by default); 10,000 bits is 3,011 digits.
_PRINTABLE_BITS: Final = 10_000
_LOG10_2: Final = 0.30102999566398120


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and ``noun`` for a message, the noun plural unless the count is one.

    >>> counted(1, "meld"), counted(2, "meld"), counted(0, "concealed tile"), counted(1, "copy", "copies")
    ('1 meld', '2 melds', '0 concealed tiles', '1 copy')
    """
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def clipped(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` for an error message: its first ``limit`` characters, then its length.

    >>> clipped("123m")
    '123m'
    >>> clipped("1m" * 50, limit=6)
    '1m1m1m… (100 characters)'
    """
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text)} characters)"


def _digit_count(magnitude: int) -> int:
    """Decimal digits of a non-negative int, without printing one too long to print."""
    if magnitude.bit_length() < _PRINTABLE_BITS:
        return len(str(magnitude))
    # 2**(b-1) <= magnitude < 2**b, so the estimate is the count or one more.
    estimate = int(magnitude.bit_length() * _LOG10_2) + 1
    return estimate if magnitude >= 10 ** (estimate - 1) else estimate - 1


def quoted(value: object, limit: int = ECHO_LIMIT) -> str:
    """``repr(value)`` for an error message, cut after about ``limit`` characters.

    A long integer is described by its size: Python refuses to print one past 4300 digits.

    >>> quoted("1m2m"), quoted(33)
    ("'1m2m'", '33')
    >>> quoted("1m" * 50, limit=6)
    "'1m1m1m'… (100 characters)"
    >>> quoted(10**5000)
    'an integer of 5001 digits'
    """
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}… ({len(value)} characters)"
    if isinstance(value, int) and not isinstance(value, bool):
        digits = _digit_count(abs(value))
        return repr(value) if digits <= limit else f"an integer of {digits} digits"
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # holds an integer too long to print, or nests too deep
        return f"a {type(value).__name__} too large or too deep to show"
    return clipped(text, limit)


def _describe(value: object) -> str:
    """Show a value of the wrong kind, with its type, briefly."""
    if value is None:
        return "None"
    return f"{quoted(value, limit=40)} ({type(value).__name__})"


def _as_int(value: object) -> int | None:
    """Return ``value`` as a plain int, or None if it is not an integer.

    bool is an int subclass, but ``true`` in a tile list is a client bug, not tile 1.
    ``operator.index`` also admits numpy integers, which other core modules produce.
    """
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def _integers(values: object, what: str) -> list[int]:
    """Return the items of ``values`` as plain ints, naming the first item that is not one."""
    # Strings, mappings and sets are iterable but do not list tiles in order.
    if isinstance(values, (str, bytes, bytearray, Mapping, AbstractSet)) or not isinstance(values, Iterable):
        raise InvalidNotation(f"expected a list of {what}, got {_describe(values)}")
    numbers = []
    for index, value in enumerate(values):
        number = _as_int(value)
        if number is None:
            raise InvalidNotation(f"item {index} is {_describe(value)}, not an integer; expected {what}")
        numbers.append(number)
    return numbers


# --- integers 0..33 ----------------------------------------------------------------


def parse_int_list(values: Iterable[object]) -> list[Tile]:
    """Return the tiles of a list of ints 0..33, checking every item.

    >>> parse_int_list([0, 8, 27, 33])
    [0, 8, 27, 33]
    >>> parse_int_list([3, 34])
    Traceback (most recent call last):
    app.core.errors.InvalidNotation: item 1 is 34, which is not a tile; tiles are integers 0..33
    """
    tiles = _integers(values, "tile integers 0..33")
    for index, tile in enumerate(tiles):
        if not 0 <= tile < NUM_TILE_KINDS:
            raise InvalidNotation(f"item {index} is {quoted(tile)}, which is not a tile; tiles are integers 0..33")
    return tiles


def format_int_list(tiles: Iterable[Tile]) -> list[int]:
    """Return ``tiles`` as a plain list of ints, checking every item.

    The twin of :func:`parse_int_list`, for symmetry with the other notations.

    >>> format_int_list((M1, RED))
    [0, 33]
    """
    return parse_int_list(tiles)


def format_tile(tile: Tile) -> str:
    """Return the mpsz name of one tile.

    >>> format_tile(M3), format_tile(RED)
    ('3m', '7z')
    """
    number = _as_int(tile)
    if number is None or not 0 <= number < NUM_TILE_KINDS:
        raise InvalidNotation(f"{_describe(tile)} is not a tile; tiles are integers 0..33")
    return TILE_NAMES[number]


def parse_tile(name: str) -> Tile:
    """Return the tile with mpsz name ``name`` (``"0m"`` is the red five, read as 5m).

    >>> parse_tile("3m") == M3, parse_tile("7z") == RED, parse_tile("0p") == P5
    (True, True, True)
    """
    tiles = parse_mpsz(name)
    if len(tiles) != 1:
        raise InvalidNotation(f"{quoted(name)} names {len(tiles)} tiles; expected exactly one, e.g. '3m'")
    return tiles[0]


# --- mpsz --------------------------------------------------------------------------

_DIGITS: Final = frozenset("0123456789")


#: The mpsz grammar's one table: suit letter -> digit -> tile (``0`` is the red five, a five).
#: Every mpsz reader reads it: the checking parser below, the compact fast path of
#: :func:`parse_tiles` and the vectorised batch parser (``app.core.shape.batch``).
MPSZ_TILES: Final = {
    suit: {str(digit): (_FIVES[index] if digit == 0 else index * 9 + digit - 1) for digit in range(10)}
    for index, suit in enumerate("mps")
} | {"z": {str(digit): EAST + digit - 1 for digit in range(1, 8)}}


def _mpsz_tile(digit: str, suit: int, position: int) -> tuple[Tile, bool]:
    """Return the tile a digit names in ``suit``, and whether it is a red five."""
    tile = MPSZ_TILES[_SUIT_LETTERS[suit]].get(digit)
    if tile is not None:
        return tile, digit == "0"
    # Only honours lack digits: 0 (red fives are m, p and s only) and 8, 9.
    if digit == "0":
        raise InvalidNotation(
            f"digit '0' at position {position} is not an honour: 0 marks a red five, "
            "which only m, p and s have (honours are 1z..7z)"
        )
    raise InvalidNotation(
        f"digit '{digit}' at position {position} is not an honour: honours are "
        "1z..7z (East South West North White Green Red)"
    )


def _unfinished_group(text: str, start: int, stop: int) -> InvalidNotation:
    digits = text[start:stop]
    noun = "digit" if len(digits) == 1 else "digits"
    return InvalidNotation(
        f"{noun} {quoted(digits)} at position {start} must be followed by a suit letter (m, p, s or z), e.g. '123m'"
    )


def parse_mpsz_with_red(text: str) -> tuple[list[Tile], tuple[Tile, ...]]:
    """Return the tiles of an mpsz string and its red fives.

    The red fives come as a sorted tuple of tiles, one entry per ``0`` digit (5m, 5p
    or 5s); the tiles list counts each red five as an ordinary five, in text order.

    >>> tiles, red = parse_mpsz_with_red("406p 0s")
    >>> [format_tile(tile) for tile in tiles], [format_tile(tile) for tile in red]
    (['4p', '5p', '6p', '5s'], ['5p', '5s'])
    """
    tiles: list[Tile] = []
    red: list[Tile] = []
    group_start = -1  # position of the first digit still waiting for its suit letter
    for position, char in enumerate(text):
        if char in _DIGITS:
            if group_start < 0:
                group_start = position
        elif char in "mpszMPSZ":
            if group_start < 0:
                raise InvalidNotation(
                    f"suit letter {char!r} at position {position} has no digits before it, e.g. '123m'"
                )
            suit = _SUIT_LETTERS.index(char.lower())
            for digit_position in range(group_start, position):
                tile, is_red = _mpsz_tile(text[digit_position], suit, digit_position)
                tiles.append(tile)
                if is_red:
                    red.append(tile)
            group_start = -1
        elif char.isspace():
            if group_start >= 0:
                raise _unfinished_group(text, group_start, position)
        else:
            raise InvalidNotation(
                f"unexpected character {_char(char)} at position {position}; mpsz notation "
                "is digits followed by m, p, s or z, e.g. '123m406p789s1122z'"
            )
    if group_start >= 0:
        raise _unfinished_group(text, group_start, len(text))
    return tiles, tuple(sorted(red))


def parse_mpsz(text: str) -> list[Tile]:
    """Return the tiles of an mpsz string, in text order (a ``0`` reads as a five).

    >>> [format_tile(tile) for tile in parse_mpsz("12m 0p 7Z")]
    ['1m', '2m', '5p', '7z']
    """
    return parse_mpsz_with_red(text)[0]


def _red_counts(red: Iterable[Tile], tiles: Sequence[Tile]) -> Counter[Tile]:
    """Count the red fives to write, checking each is a five that ``tiles`` holds."""
    wanted: Counter[Tile] = Counter()
    for index, value in enumerate(_integers(red, "red fives (tiles 5m, 5p or 5s)")):
        if value not in _FIVES:
            raise InvalidNotation(f"red item {index} is {quoted(value)}, not a five of m, p or s (4, 13 or 22)")
        wanted[value] += 1
    held = Counter(tiles)
    for five, count in wanted.items():
        if count > held[five]:
            raise InvalidNotation(
                f"{count} red {TILE_NAMES[five]} asked for, but the tiles hold {held[five]} {TILE_NAMES[five]}"
            )
    return wanted


def format_mpsz(tiles: Iterable[Tile], *, red: Iterable[Tile] = ()) -> str:
    """Return ``tiles`` in mpsz, grouped m p s z and sorted within each group.

    ``red`` lists red fives as tiles (as :func:`parse_mpsz_with_red` returns them):
    each entry writes one of the held fives of its suit as ``0``.

    >>> format_mpsz([S3, M2, EAST, M1])
    '12m3s1z'
    >>> format_mpsz([P4, P5, P6, M5], red=[P5])
    '5m406p'
    >>> format_mpsz([])
    ''
    """
    checked = sorted(parse_int_list(tiles))
    red_left = _red_counts(red, checked)
    groups: list[list[str]] = [[] for _ in _SUIT_LETTERS]
    for tile in checked:
        if red_left[tile]:  # the red five goes first among the fives: "0556p"
            red_left[tile] -= 1
            groups[suit_of(tile)].append("0")
        else:
            groups[suit_of(tile)].append(str(number_of(tile)))
    return "".join("".join(digits) + letter for digits, letter in zip(groups, _SUIT_LETTERS, strict=True) if digits)


# --- Chinese -----------------------------------------------------------------------

_CHINESE_NUMERALS: Final = "一二三四五六七八九"
_CANONICAL_SUITS: Final = "万筒条"
_CANONICAL_HONORS: Final = "东南西北白发中"


def _build_chinese_numbers() -> dict[str, int]:
    numbers: dict[str, int] = {}
    for number in range(1, 10):
        numbers[_CHINESE_NUMERALS[number - 1]] = number
        numbers[str(number)] = number
        numbers[chr(ord("０") + number)] = number  # full-width, as IMEs often type
    return numbers


def _build_chinese_suits() -> dict[str, int]:
    aliases = {"万": "萬", "筒": "饼餅", "条": "條索"}
    suits: dict[str, int] = {}
    for suit, canonical in enumerate(_CANONICAL_SUITS):
        for char in canonical + aliases[canonical]:
            suits[char] = suit
    return suits


def _build_chinese_words() -> dict[str, Tile]:
    """Names that spell a whole tile without a suit character."""
    aliases: dict[Tile, tuple[str, ...]] = {
        EAST: ("東",),
        WHITE: ("白板",),
        GREEN: ("發", "发财", "發財", "青发", "青發"),
        RED: ("红中", "紅中"),
    }
    words: dict[str, Tile] = {}
    for tile, canonical in zip(HONORS, _CANONICAL_HONORS, strict=True):
        for word in (canonical, *aliases.get(tile, ())):
            words[word] = tile
    for word in ("幺鸡", "幺雞", "么鸡"):  # the 1s is drawn as a bird
        words[word] = S1
    return words


def _build_chinese_hints(words: Mapping[str, Tile]) -> dict[str, str]:
    """Map a character that only starts a longer name (红, 幺, ...) to that name."""
    hints: dict[str, str] = {}
    for word in words:
        if len(word) > 1 and word[0] not in words:
            hints.setdefault(word[0], word)
    return hints


def _build_chinese_names() -> tuple[str, ...]:
    suited = (f"{_CHINESE_NUMERALS[number_of(tile) - 1]}{_CANONICAL_SUITS[suit_of(tile)]}" for tile in range(EAST))
    return (*suited, *_CANONICAL_HONORS)


_CHINESE_NUMBERS: Final = _build_chinese_numbers()
_CHINESE_SUITS: Final = _build_chinese_suits()
_CHINESE_WORDS: Final = _build_chinese_words()
_CHINESE_WORD_LENGTHS: Final = tuple(sorted({len(word) for word in _CHINESE_WORDS}, reverse=True))
_CHINESE_HINTS: Final = _build_chinese_hints(_CHINESE_WORDS)
CHINESE_NAMES: Final[tuple[str, ...]] = _build_chinese_names()
"""The canonical Chinese name of every tile, indexed by tile: ``"一万"`` .. ``"中"``."""


def _chinese_error(text: str, position: int) -> InvalidNotation:
    char = text[position]
    if char in "0０":
        return InvalidNotation(
            f"{_char(char)} at position {position}: Chinese notation has no red fives; write 5 or 五"
        )
    if char in _CHINESE_HINTS:
        return InvalidNotation(
            f"{_char(char)} at position {position} is not a tile on its own; did you mean {_CHINESE_HINTS[char]}?"
        )
    return InvalidNotation(
        f"unexpected character {_char(char)} at position {position}; expected a tile name "
        "such as 一万, 5筒, 九条, 东 or 中"
    )


def _numbers_without_suit(text: str, start: int, stop: int) -> InvalidNotation:
    numbers = text[start:stop]
    if stop == len(text):
        return InvalidNotation(f"{quoted(numbers)} at position {start} has no suit after it; add 万, 筒 or 条")
    return InvalidNotation(
        f"{quoted(numbers)} at position {start} must be followed by a suit (万, 筒 or 条), "
        f"not {_char(text[stop])} at position {stop}"
    )


def parse_chinese(text: str) -> list[Tile]:
    """Return the tiles named in Chinese, in text order (see the module docstring).

    >>> [format_tile(tile) for tile in parse_chinese("一二三万 五筒，1条、東 发财 紅中 幺鸡")]
    ['1m', '2m', '3m', '5p', '1s', '1z', '6z', '7z', '1s']
    """
    tiles: list[Tile] = []
    numbers: list[int] = []  # numbers still waiting for their suit
    numbers_start = 0
    position = 0
    while position < len(text):
        char = text[position]
        if char in _CHINESE_NUMBERS:
            if not numbers:
                numbers_start = position
            numbers.append(_CHINESE_NUMBERS[char])
            position += 1
            continue
        if char in _CHINESE_SUITS:
            if not numbers:
                raise InvalidNotation(
                    f"suit {_char(char)} at position {position} has no number before it, e.g. 三{char}"
                )
            base = _CHINESE_SUITS[char] * 9
            tiles.extend(base + number - 1 for number in numbers)
            numbers.clear()
            position += 1
            continue
        if numbers and char not in "0０":
            raise _numbers_without_suit(text, numbers_start, position)
        if char.isspace() or char in _SEPARATORS:
            position += 1
            continue
        for length in _CHINESE_WORD_LENGTHS:  # longest first: 白板 before 白
            word = text[position : position + length]
            if word in _CHINESE_WORDS:
                tiles.append(_CHINESE_WORDS[word])
                position += length
                break
        else:
            raise _chinese_error(text, position)
    if numbers:
        raise _numbers_without_suit(text, numbers_start, len(text))
    return tiles


def format_chinese(tiles: Iterable[Tile]) -> str:
    """Return ``tiles`` as canonical Chinese names separated by spaces, in order.

    >>> format_chinese([M1, M2, EAST, RED, GREEN, WHITE, P9, S1])
    '一万 二万 东 中 发 白 九筒 一条'
    """
    return " ".join(CHINESE_NAMES[tile] for tile in parse_int_list(tiles))


# --- Unicode -----------------------------------------------------------------------

_MAHJONG_BLOCK: Final = range(0x1F000, 0x1F030)
_VARIATION_SELECTORS: Final = frozenset("\ufe0e\ufe0f")


def _build_unicode_chars() -> tuple[str, ...]:
    # The Unicode block runs winds, dragons Red Green White, then m s p: not our order.
    man = [chr(0x1F007 + offset) for offset in range(9)]
    pin = [chr(0x1F019 + offset) for offset in range(9)]
    sou = [chr(0x1F010 + offset) for offset in range(9)]
    winds = [chr(0x1F000 + offset) for offset in range(4)]
    dragons = [chr(0x1F006), chr(0x1F005), chr(0x1F004)]  # White, Green, Red
    return (*man, *pin, *sou, *winds, *dragons)


UNICODE_CHARS: Final[tuple[str, ...]] = _build_unicode_chars()
"""The Unicode mahjong character of every tile, indexed by tile: 🀇 .. 🀄."""

_UNICODE_TILES: Final = {char: tile for tile, char in enumerate(UNICODE_CHARS)}


def parse_unicode(text: str) -> list[Tile]:
    """Return the tiles of a string of Unicode mahjong tiles, in order.

    >>> [format_tile(tile) for tile in parse_unicode("🀇🀈 🀙🀐🀀🀄\\ufe0f")]
    ['1m', '2m', '1p', '1s', '1z', '7z']
    """
    tiles: list[Tile] = []
    for position, char in enumerate(text):
        tile = _UNICODE_TILES.get(char)
        if tile is not None:
            tiles.append(tile)
        elif char in _VARIATION_SELECTORS and position > 0 and text[position - 1] in _UNICODE_TILES:
            continue  # presentation only: "🀄\ufe0f" is the emoji form of 🀄
        elif char.isspace() or char in _SEPARATORS:
            continue
        elif ord(char) in _MAHJONG_BLOCK:
            raise InvalidNotation(
                f"{_char(char)} (U+{ord(char):04X}) at position {position} is not one of the "
                "34 tiles (flowers, seasons, jokers and tile backs are not played)"
            )
        else:
            raise InvalidNotation(
                f"unexpected character {_char(char)} at position {position}; expected "
                "Unicode mahjong tiles such as 🀇🀙🀐🀀🀄"
            )
    return tiles


def format_unicode(tiles: Iterable[Tile]) -> str:
    """Return ``tiles`` as Unicode mahjong characters, in order, without separators.

    >>> format_unicode([M1, M2, M3, EAST, EAST])
    '🀇🀈🀉🀀🀀'
    """
    return "".join(UNICODE_CHARS[tile] for tile in parse_int_list(tiles))


# --- 136-tile ids ------------------------------------------------------------------


def parse_ids136(values: Iterable[object]) -> list[Tile]:
    """Return the tiles of a list of 136-tile ids 0..135 (``tile = id // 4``).

    Each id is one physical tile, so an id may appear only once.

    >>> parse_ids136([0, 3, 135])
    [0, 0, 33]
    """
    ids = _integers(values, "136-tile ids 0..135")
    first_index: dict[int, int] = {}
    for index, tile_id in enumerate(ids):
        if not 0 <= tile_id < NUM_TILE_KINDS * COPIES:
            raise InvalidNotation(f"item {index} is {tile_id}, which is not a 136-tile id; ids are 0..135")
        if tile_id in first_index:
            raise InvalidNotation(
                f"item {index} repeats id {tile_id} (first at item {first_index[tile_id]}); "
                "each id is one physical tile"
            )
        first_index[tile_id] = index
    return [tile_id // COPIES for tile_id in ids]


def format_ids136(tiles: Iterable[Tile]) -> list[int]:
    """Return 136-tile ids for ``tiles``, in order, using the lowest unused copy of each.

    Raises :class:`~app.core.errors.TooManyCopies` for a fifth copy of a tile.

    >>> format_ids136([M1, M1, RED, M1])
    [0, 1, 132, 2]
    """
    used = [0] * NUM_TILE_KINDS
    ids = []
    for index, tile in enumerate(parse_int_list(tiles)):
        if used[tile] == COPIES:
            raise TooManyCopies(f"item {index} is a fifth {TILE_NAMES[tile]}; there are only 4 copies of each tile")
        ids.append(tile * COPIES + used[tile])
        used[tile] += 1
    return ids


# --- seed-003 integer codes --------------------------------------------------------


def _build_seed_codes() -> tuple[int, ...]:
    codes = [0] * NUM_TILE_KINDS
    for offset in range(9):
        # Seed 003 orders the suits 万 条 筒, where Tenhou orders m p s.
        codes[M1 + offset] = 11 + offset
        codes[S1 + offset] = 21 + offset
        codes[P1 + offset] = 31 + offset
    # Honour codes step by 2 so that no three honours look like a run.
    for offset, wind in enumerate(WINDS):
        codes[wind] = 41 + 2 * offset
    codes[RED], codes[GREEN], codes[WHITE] = 51, 53, 55
    return tuple(codes)


SEED_CODES: Final[tuple[int, ...]] = _build_seed_codes()
"""The seed-003 integer code of every tile, indexed by tile: 11 (一万) .. 51 (中)."""

_SEED_TILES: Final = {code: tile for tile, code in enumerate(SEED_CODES)}


def parse_seed_codes(values: Iterable[object]) -> list[Tile]:
    """Return the tiles of a list of seed-003 codes.

    >>> [format_tile(tile) for tile in parse_seed_codes([11, 21, 31, 41, 51, 53, 55])]
    ['1m', '1s', '1p', '1z', '7z', '6z', '5z']
    """
    codes = _integers(values, "seed-003 tile codes")
    tiles = []
    for index, code in enumerate(codes):
        tile = _SEED_TILES.get(code)
        if tile is None:
            raise InvalidNotation(
                f"item {index} is {code}, which is not a seed-003 tile code; codes are "
                "11-19 (万), 21-29 (条), 31-39 (筒), 41/43/45/47 (东南西北) and 51/53/55 (中发白)"
            )
        tiles.append(tile)
    return tiles


def format_seed_codes(tiles: Iterable[Tile]) -> list[int]:
    """Return the seed-003 codes of ``tiles``, in order.

    >>> format_seed_codes([M9, P1, S1, NORTH, WHITE])
    [19, 31, 21, 47, 55]
    """
    return [SEED_CODES[tile] for tile in parse_int_list(tiles)]


# --- auto-detection ----------------------------------------------------------------

_NOTATION_LABELS: Final = {"unicode": "Unicode tile", "chinese": "Chinese", "mpsz": "mpsz"}


def _is_cjk_ideograph(char: str) -> bool:
    return "\u3400" <= char <= "\u9fff" or "\uf900" <= char <= "\ufaff" or "\U00020000" <= char <= "\U0003ffff"


def _marker_notation(char: str) -> str | None:
    """Return the notation ``char`` belongs to alone; digits and separators are shared."""
    if ord(char) in _MAHJONG_BLOCK:
        return "unicode"
    if _is_cjk_ideograph(char):
        return "chinese"
    if char in "mpszMPSZ":
        return "mpsz"
    return None


def detect_notation(text: str) -> str:
    """Return which notation ``text`` is written in: ``"unicode"``, ``"chinese"`` or ``"mpsz"``.

    Text with no marker of any notation (empty, digits only) counts as mpsz.

    >>> detect_notation("🀇🀈"), detect_notation("1万2万"), detect_notation("12m"), detect_notation("")
    ('unicode', 'chinese', 'mpsz', 'mpsz')
    >>> detect_notation("123m一万")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    app.core.errors.InvalidNotation: '一' at position 4 is Chinese notation, but 'm' at ...
    """
    first_marker: dict[str, int] = {}
    for position, char in enumerate(text):
        notation = _marker_notation(char)
        if notation is None or notation in first_marker:
            continue
        if first_marker:
            ((earlier, earlier_position),) = first_marker.items()
            raise InvalidNotation(
                f"{_char(char)} at position {position} is {_NOTATION_LABELS[notation]} "
                f"notation, but {_char(text[earlier_position])} at position "
                f"{earlier_position} is {_NOTATION_LABELS[earlier]}; "
                "write the tiles in one notation"
            )
        first_marker[notation] = position
    return next(iter(first_marker), "mpsz")


_TEXT_PARSERS: Final = {"unicode": parse_unicode, "chinese": parse_chinese, "mpsz": parse_mpsz}

# The common request spelling, lowercase mpsz without spaces, skips the general
# parser; anything else (including every error) goes through it.
_COMPACT_MPSZ: Final = re.compile(r"(?:[0-9]+[mps]|[1-7]+z)+")
_MPSZ_GROUP: Final = re.compile(r"([0-9]+)([mpsz])")


def _parse_compact_mpsz(text: str) -> list[Tile]:
    tiles: list[Tile] = []
    for digits, suit in _MPSZ_GROUP.findall(text):
        tiles.extend(map(MPSZ_TILES[suit].__getitem__, digits))
    return tiles


def parse_tiles(value: object) -> list[Tile]:
    """Return the tiles of a request value in any notation, detected automatically.

    A string is Unicode if it holds mahjong tile characters, else Chinese if it holds
    CJK ideographs, else mpsz; a list or tuple must hold ints 0..33.

    >>> parse_tiles("1m2m") == parse_tiles("一万二万") == parse_tiles("🀇🀈") == parse_tiles([0, 1])
    True
    >>> parse_tiles(None)
    Traceback (most recent call last):
    app.core.errors.InvalidNotation: expected tiles as a string or a list of integers, got None
    """
    if isinstance(value, str):
        if _COMPACT_MPSZ.fullmatch(value):
            return _parse_compact_mpsz(value)
        return _TEXT_PARSERS[detect_notation(value)](value)
    if isinstance(value, (list, tuple)):
        return parse_int_list(value)
    raise InvalidNotation(f"expected tiles as a string or a list of integers, got {_describe(value)}")


def parse_counts(value: object) -> Counts:
    """The counts of a request value's tiles: ``counts_from_tiles(parse_tiles(value))``,
    without the list in between for the common spelling (compact mpsz).

    >>> parse_counts("406p11z") == counts_from_tiles(parse_tiles("406p11z"))
    True
    """
    if isinstance(value, str) and len(value) < 256 and _COMPACT_MPSZ.fullmatch(value):
        counts = bytearray(NUM_TILE_KINDS)  # under 256 characters: no count can pass 255
        for digits, suit in _MPSZ_GROUP.findall(value):
            tile_of = MPSZ_TILES[suit]
            for digit in digits:
                counts[tile_of[digit]] += 1
        return bytes(counts)
    return counts_from_tiles(parse_tiles(value))


# --- counts ------------------------------------------------------------------------


def counts_from_tiles(tiles: Iterable[Tile]) -> Counts:
    """Return how many of each tile kind ``tiles`` holds, as 34 bytes.

    The 4-copy limit is a rules question checked elsewhere; a count only saturates
    at 255, which still reads as far too many.

    >>> counts_from_tiles([M1, M1, RED])[M1], counts_from_tiles([M1, M1, RED])[RED]
    (2, 1)
    """
    if not isinstance(tiles, list):
        tiles = list(tiles)
    if set(map(type, tiles)) <= _INT_TYPE and set(tiles) <= _TILE_SET and len(tiles) < 256:
        counts = bytearray(NUM_TILE_KINDS)  # the common case: valid tiles, no count can pass 255
        for tile in tiles:
            counts[tile] += 1
        return bytes(counts)
    slow = [0] * NUM_TILE_KINDS
    for tile in parse_int_list(tiles):
        slow[tile] += 1
    return bytes(min(count, 255) for count in slow)


_INT_TYPE: Final = frozenset({int})
_TILE_SET: Final = frozenset(range(NUM_TILE_KINDS))


def tiles_from_counts(counts: Counts) -> list[Tile]:
    """Return the tiles that ``counts`` holds, ascending.

    >>> tiles_from_counts(counts_from_tiles([RED, M1, M1]))
    [0, 0, 33]
    """
    # bytes are the usual Counts, but _integers refuses them because bytes usually mean text.
    if isinstance(counts, (bytes, bytearray)):
        numbers = list(counts)
    else:
        numbers = _integers(counts, "34 tile counts")
    if len(numbers) != NUM_TILE_KINDS:
        raise InvalidNotation(f"expected 34 tile counts, got {len(numbers)}")
    for tile, count in enumerate(numbers):
        if count < 0:
            raise InvalidNotation(f"the count of {TILE_NAMES[tile]} is {count}; counts are >= 0")
    return [tile for tile, count in enumerate(numbers) for _ in range(count)]
