"""Walls anyone can check: every hand's shuffle follows from one seed string by Tenhou's derivation.

A hosted table draws a secret seed (:func:`new_seed`), publishes its SHA-256
(:func:`seed_commitment`) before the first tile is dealt, and reveals the seed in the record;
anyone can then deal every hand again (``docs/hosted-tables.md``, "Dealing you can check").

The derivation is the one Tenhou publishes, ``mt19937ar-sha512-n288-base64``:

* the seed's key is 624 32-bit words (:func:`seed_key`): a seed in Tenhou's own form
  ``mt19937ar-sha512-n288-base64,<base64>`` carries them as 2496 bytes, read little-endian; any
  other seed (``"duplicate-7"``) is first expanded to 2496 bytes by SHA-512 in counter mode;
* MT19937 is initialised with ``init_by_array(key)``; its state runs on from hand to hand;
* each hand draws 288 words, hashes them (their little-endian bytes) in 9 blocks of 128 bytes
  with SHA-512, and reads the 576 digest bytes as 144 little-endian words ``rnd``;
* the wall of ``n`` tiles (``n`` <= 144; Tenhou's 136) is ``yama = list(range(n))`` shuffled by
  ``swap(yama[i], yama[i + rnd[i] % (n - i)])`` for ``i`` in ``0..n-1``, the dice are
  ``rnd[135] % 6 + 1`` and ``rnd[136] % 6 + 1``, and Sichuan's exchange direction is
  ``rnd[143] % (seats - 1) + 1`` (:meth:`SeedWalls.direction`).

>>> walls = SeedWalls("duplicate-7")
>>> walls.dice(0), walls.direction(0, 4)
((2, 2), 3)
>>> walls.shuffle(0, list("abcdef"))
['b', 'f', 'd', 'a', 'c', 'e']
>>> seed_commitment("duplicate-7")[:16]
'e908a18be113b9b8'
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import random
import secrets
import struct
import threading
from collections.abc import Sequence
from typing import Final, TypeVar

from app.core.errors import TenpaiError
from app.core.table.mjai import UNKNOWN, TableTile, is_red, kind_of

#: What starts a seed in Tenhou's own form; the base64 of the key's 2496 bytes follows it.
TENHOU_SEED_PREFIX: Final = "mt19937ar-sha512-n288-base64,"
#: MT19937's state size, and so the words of a seed's key.
KEY_WORDS: Final = 624
KEY_BYTES: Final = KEY_WORDS * 4
#: Longest seed accepted: a Tenhou seed is 29 + 3328 characters; a longer one is no one's seed.
MAX_SEED_CHARS: Final = 4096
#: Words drawn from MT19937 for each hand, and the words of ``rnd`` their hashes give.
WORDS_PER_HAND: Final = 288
RND_WORDS: Final = 144
#: SHA-512 hashes 128 bytes (32 words) of the draw per 64-byte digest (16 words of ``rnd``).
_BLOCK_BYTES: Final = 128
#: The most tiles a wall may have: one ``rnd`` word per position (MCR's 144 with the flowers).
MAX_WALL_TILES: Final = RND_WORDS
#: Tenhou's 136-tile wall, whose dice words follow its shuffle words.
TENHOU_WALL_TILES: Final = 136
_DICE_WORDS: Final = (135, 136)
#: Sichuan's exchange direction reads the last word: a shuffle of n <= 144 tiles swaps position 143
#: (if it has one) with itself, so this word never moves a tile.
_DIRECTION_WORD: Final = 143
_DIE_FACES: Final = 6

_MASK32: Final = 0xFFFFFFFF
#: init_genrand's seed inside init_by_array, and the reference code's multipliers.
_INIT_SEED: Final = 19650218
_INIT_MULTIPLIER: Final = 1812433253
_FIRST_MIX: Final = 1664525
_SECOND_MIX: Final = 1566083941
#: ``random.Random.setstate``'s format: version 3, the 624 words then the index (624: start afresh).
_STATE_VERSION: Final = 3

_T = TypeVar("_T")


class InvalidSeed(TenpaiError):
    """A seed that cannot deal: not ASCII, empty, too long, or a malformed Tenhou-form seed."""

    code = "invalid_seed"


def new_seed() -> str:
    """A fresh secret seed in Tenhou's form: 2496 bytes from the operating system's random source.

    >>> seed = new_seed()
    >>> seed.startswith(TENHOU_SEED_PREFIX), len(seed)
    (True, 3357)
    """
    return TENHOU_SEED_PREFIX + base64.b64encode(secrets.token_bytes(KEY_BYTES)).decode("ascii")


def _checked_seed_bytes(seed: str) -> bytes:
    """The seed's ASCII bytes, once the seed is known to be one a table can deal from."""
    if not isinstance(seed, str):
        raise InvalidSeed(f"a seed is a string, got {type(seed).__name__}", field="seed")
    if not seed:
        raise InvalidSeed("a seed is at least one character", field="seed")
    if len(seed) > MAX_SEED_CHARS:
        raise InvalidSeed(f"a seed is at most {MAX_SEED_CHARS} characters, got {len(seed)}", field="seed")
    try:
        return seed.encode("ascii")
    except UnicodeEncodeError as error:
        # The commitment hashes the seed's bytes: ASCII leaves one way to write them.
        raise InvalidSeed(f"a seed is ASCII; character {error.start} is not", field="seed") from None


def seed_commitment(seed: str) -> str:
    """The lowercase hex SHA-256 of the seed's ASCII bytes, published before the first deal.

    >>> seed_commitment("duplicate-7") == hashlib.sha256(b"duplicate-7").hexdigest()
    True
    >>> seed_commitment("")
    Traceback (most recent call last):
    ...
    app.core.table.wall.InvalidSeed: a seed is at least one character
    """
    return hashlib.sha256(_checked_seed_bytes(seed)).hexdigest()


def expanded_key_bytes(seed: str) -> bytes:
    """The 2496 key bytes of a seed not in Tenhou's form: SHA-512 in counter mode over its bytes.

    Block ``c`` (0..38) is ``SHA-512(c as 4 big-endian bytes + the seed's ASCII bytes)``; the 39
    digests of 64 bytes, in counter order, are the 2496 bytes.  ``TENHOU_SEED_PREFIX`` plus their
    base64 is a Tenhou-form seed that deals the same walls.

    >>> key = expanded_key_bytes("duplicate-7")
    >>> len(key), key[:64] == hashlib.sha512(bytes(4) + b"duplicate-7").digest()
    (2496, True)
    """
    text = _checked_seed_bytes(seed)
    blocks = KEY_BYTES // hashlib.sha512().digest_size
    return b"".join(hashlib.sha512(counter.to_bytes(4, "big") + text).digest() for counter in range(blocks))


def seed_key(seed: str) -> tuple[int, ...]:
    """The 624 words MT19937's ``init_by_array`` takes for this seed.

    A Tenhou-form seed's base64 must decode to exactly 2496 bytes (else ``invalid_seed``: a
    mistyped Tenhou seed must not quietly deal other walls); they are read as little-endian
    words, as Tenhou reads them.  Any other seed's bytes come from :func:`expanded_key_bytes`.

    >>> key = seed_key("duplicate-7")
    >>> len(key), key[0] == int.from_bytes(expanded_key_bytes("duplicate-7")[:4], "little")
    (624, True)
    >>> seed_key(TENHOU_SEED_PREFIX + "AAAA")
    Traceback (most recent call last):
    ...
    app.core.table.wall.InvalidSeed: a Tenhou-form seed carries the base64 of 2496 bytes, got 3
    """
    _checked_seed_bytes(seed)
    if seed.startswith(TENHOU_SEED_PREFIX):
        try:
            key_bytes = base64.b64decode(seed[len(TENHOU_SEED_PREFIX) :], validate=True)
        except binascii.Error:
            raise InvalidSeed("a Tenhou-form seed carries standard base64 after the comma", field="seed") from None
        if len(key_bytes) != KEY_BYTES:
            raise InvalidSeed(
                f"a Tenhou-form seed carries the base64 of {KEY_BYTES} bytes, got {len(key_bytes)}", field="seed"
            )
    else:
        key_bytes = expanded_key_bytes(seed)
    return struct.unpack(f"<{KEY_WORDS}I", key_bytes)


def mt19937_state(key: Sequence[int]) -> list[int]:
    """MT19937's 624 state words after the reference ``init_by_array(key)``.

    CPython's ``random.seed(int)`` runs the same routine but drops the int's high zero words,
    so a key whose last word is 0 would be seeded as a shorter key: the state is built here and
    handed to ``random.Random.setstate``, whose C generator then draws the words.

    >>> state = mt19937_state([0x123, 0x234, 0x345, 0x456])
    >>> generator = random.Random()
    >>> generator.setstate((3, (*state, KEY_WORDS), None))
    >>> generator.getrandbits(32)  # the reference mt19937ar.c's first output for this key
    1067595299
    """
    if not key:
        raise ValueError("init_by_array needs at least one key word")
    state = [0] * KEY_WORDS
    state[0] = _INIT_SEED
    for index in range(1, KEY_WORDS):
        previous = state[index - 1]
        state[index] = (_INIT_MULTIPLIER * (previous ^ (previous >> 30)) + index) & _MASK32
    index, key_index = 1, 0
    for _ in range(max(KEY_WORDS, len(key))):
        previous = state[index - 1]
        state[index] = (
            (state[index] ^ ((previous ^ (previous >> 30)) * _FIRST_MIX)) + key[key_index] + key_index
        ) & _MASK32
        index += 1
        key_index += 1
        if index >= KEY_WORDS:
            state[0] = state[KEY_WORDS - 1]
            index = 1
        if key_index >= len(key):
            key_index = 0
    for _ in range(KEY_WORDS - 1):
        previous = state[index - 1]
        state[index] = ((state[index] ^ ((previous ^ (previous >> 30)) * _SECOND_MIX)) - index) & _MASK32
        index += 1
        if index >= KEY_WORDS:
            state[0] = state[KEY_WORDS - 1]
            index = 1
    state[0] = 0x80000000  # the reference's "MSB is 1, assuring a non-zero initial array"
    return state


def hand_rnd(generator: random.Random) -> tuple[int, ...]:
    """Draw one hand's 288 words from ``generator`` and hash them into its 144 ``rnd`` words."""
    # getrandbits(n) fills its int from the least significant 32 bits up, one generator word each:
    # its little-endian bytes are the 288 words' little-endian bytes in drawing order.
    drawn = generator.getrandbits(WORDS_PER_HAND * 32).to_bytes(WORDS_PER_HAND * 4, "little")
    digests = b"".join(
        hashlib.sha512(drawn[start : start + _BLOCK_BYTES]).digest() for start in range(0, len(drawn), _BLOCK_BYTES)
    )
    return struct.unpack(f"<{RND_WORDS}I", digests)


def yama_order(rnd: Sequence[int], tiles: int = TENHOU_WALL_TILES) -> list[int]:
    """Tenhou's yama for a wall of ``tiles`` positions: ``range(tiles)`` shuffled by ``rnd``.

    >>> yama_order(range(144), 4)  # rnd[i] % (4 - i): 0, 1, 2 % 2 = 0, 0
    [0, 2, 1, 3]
    """
    if not 0 <= tiles <= min(len(rnd), MAX_WALL_TILES):
        raise ValueError(f"a wall has 0..{MAX_WALL_TILES} tiles, one rnd word each; asked for {tiles}")
    yama = list(range(tiles))
    for position in range(tiles - 1):  # the last position could only swap with itself
        other = position + rnd[position] % (tiles - position)
        yama[position], yama[other] = yama[other], yama[position]
    return yama


def _tenhou_sort_key(tile: TableTile) -> tuple[int, bool]:
    if tile == UNKNOWN:
        raise ValueError("the unknown tile '?' is no tile of a wall")
    # kind_of keeps a flower's own int (38..45), past every kind; a red five leads its kind (copy 0).
    return kind_of(tile), not is_red(tile)


def tenhou_tile_order(tiles: Sequence[TableTile]) -> list[TableTile]:
    """The set's tiles in Tenhou's id order (id = 4 * kind + copy, a red five is copy 0), flowers last.

    Shuffling the riichi set in this order gives, at every position, the tile whose Tenhou id
    Tenhou's yama holds there (the red fives are ids 16, 52 and 88).

    >>> tenhou_tile_order([4, 4, 34, 4, 0, 38])
    [0, 34, 4, 4, 4, 38]
    """
    return sorted(tiles, key=_tenhou_sort_key)


class SeedWalls:
    """Every hand's ``rnd`` words, wall, dice and exchange direction from one seed.

    Hands are numbered from 0 in the order the game deals them.  The generator's state after
    the last hand asked is kept, so hand ``k`` after hand ``k - 1`` costs one hand's work; an
    earlier hand starts again from the seed and replays.  One lock makes it safe to share.

    >>> walls = SeedWalls("duplicate-7")
    >>> walls.rnd(1) == SeedWalls("duplicate-7").rnd(1), walls.commitment == seed_commitment("duplicate-7")
    (True, True)
    """

    def __init__(self, seed: str) -> None:
        self.seed = seed
        self.commitment = seed_commitment(seed)
        self._initial_state = (_STATE_VERSION, (*mt19937_state(seed_key(seed)), KEY_WORDS), None)
        self._lock = threading.Lock()
        self._generator = random.Random()
        self._generator.setstate(self._initial_state)
        self._next_hand = 0
        self._latest: tuple[int, tuple[int, ...]] | None = None

    def rnd(self, hand: int) -> tuple[int, ...]:
        """The 144 ``rnd`` words of hand number ``hand`` (0-based)."""
        if hand < 0:
            raise ValueError(f"hands are numbered from 0, got {hand}")
        with self._lock:
            if self._latest is not None and self._latest[0] == hand:
                return self._latest[1]
            if hand < self._next_hand:
                self._generator.setstate(self._initial_state)
                self._next_hand = 0
            while True:
                words = hand_rnd(self._generator)
                self._next_hand += 1
                if self._next_hand > hand:
                    self._latest = (hand, words)
                    return words

    def yama(self, hand: int, tiles: int = TENHOU_WALL_TILES) -> list[int]:
        """Tenhou's yama of hand ``hand`` for a wall of ``tiles`` positions (136: Tenhou's own)."""
        return yama_order(self.rnd(hand), tiles)

    def shuffle(self, hand: int, tiles: Sequence[_T]) -> list[_T]:
        """Hand ``hand``'s wall: ``result[i] = tiles[yama[i]]`` (at most 144 tiles).

        Given the riichi set in :func:`tenhou_tile_order`, ``result[i]`` is the tile of Tenhou id
        ``yama[i]``.
        """
        return [tiles[position] for position in self.yama(hand, len(tiles))]

    def dice(self, hand: int) -> tuple[int, int]:
        """Hand ``hand``'s two dice, 1..6 each, as Tenhou rolls them."""
        rnd = self.rnd(hand)
        first, second = (rnd[word] % _DIE_FACES + 1 for word in _DICE_WORDS)
        return first, second

    def direction(self, hand: int, seats: int) -> int:
        """Hand ``hand``'s exchange direction for Sichuan's 换三张: 1..seats-1, from ``rnd[143]``."""
        if seats < 2:
            raise ValueError(f"an exchange needs at least two seats, got {seats}")
        return self.rnd(hand)[_DIRECTION_WORD] % (seats - 1) + 1
