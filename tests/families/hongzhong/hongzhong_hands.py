"""Seeded random hongzhong hands for the oracle tests: suit tiles, 0-4 红中, pon and kong melds.

A hand is ``(counts, melds)``: 34 counts (suit tiles and 红中 only) and the melds as
``(kind, tiles)``; every size a hand can have (1, 2, 4, 5, 7, 8, 10, 11, 13, 14 concealed tiles,
the rest melded). Styles bias toward the interesting hands: ``near`` (a complete hand with a
tile or two changed), ``pairs`` (near seven pairs, quads allowed) and ``uniform``.
"""

from __future__ import annotations

import random

RED = 33
SUIT_KINDS = 27
SIZES = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)
MELD_KINDS = ("pon", "open_kan", "closed_kan", "added_kan")
STYLES = ("near", "near", "pairs", "uniform")


def _group(rng: random.Random) -> list[int]:
    if rng.random() < 0.5:
        start = rng.choice([t for t in range(SUIT_KINDS) if t % 9 <= 6])
        return [start, start + 1, start + 2]
    return [rng.randrange(SUIT_KINDS)] * 3


def random_hand(
    rng: random.Random, size: int, reds: int, style: str
) -> tuple[tuple[int, ...], list[tuple[str, tuple[int, ...]]]]:
    """A valid hand of ``size`` concealed tiles holding ``reds`` 红中 (at most ``size``)."""
    melds_count = (14 - size) // 3
    complete = size + (1 if size % 3 == 1 else 0)
    while True:
        physical = [0] * 34
        melds = []
        for _ in range(melds_count):
            tile = rng.randrange(SUIT_KINDS)
            kind = rng.choice(MELD_KINDS)
            width = 3 if kind == "pon" else 4
            melds.append((kind, (tile,) * width))
            physical[tile] += width
        tiles: list[int] = []
        if style == "pairs" and complete == 14:
            for _ in range(7):
                tiles += [rng.randrange(SUIT_KINDS)] * 2
        elif style == "uniform":
            tiles = [rng.randrange(SUIT_KINDS) for _ in range(complete)]
        else:
            tiles = [rng.randrange(SUIT_KINDS)] * 2
            while len(tiles) < complete:
                tiles += _group(rng)
        for _ in range(rng.choice((0, 1, 1, 2))):
            tiles[rng.randrange(len(tiles))] = rng.randrange(SUIT_KINDS)
        rng.shuffle(tiles)
        for index in range(min(reds, len(tiles))):
            tiles[index] = RED
        if size % 3 == 1:
            # Keep the 红中: drop a suit tile when there is one.
            drop = next((i for i in range(len(tiles) - 1, -1, -1) if tiles[i] != RED), len(tiles) - 1)
            tiles.pop(drop)
        counts = [0] * 34
        for tile in tiles:
            counts[tile] += 1
        if counts[RED] == min(reds, size) and all(counts[t] + physical[t] <= 4 for t in range(34)):
            return tuple(counts), melds
