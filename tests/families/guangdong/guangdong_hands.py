"""Seeded random Guangdong hands for the tests: declared pon and kongs, ghosts, near-complete shapes.

Plain data, ``(counts, melds, ghost)`` with ``melds`` a list of ``(kind, tiles)`` as the core
oracles take them (tests/core/oracles.py), so the oracle and the engine get the same question.
"""

from __future__ import annotations

import random

import oracles as O


def build_hand(
    rng: random.Random, size: int, ghost: int | None, ghosts: int, style: str
) -> tuple[tuple[int, ...], list[O.Meld], int | None]:
    """A legal hand of ``size`` concealed tiles (``ghosts`` of them the ghost), the rest declared
    pon and kongs.  ``near``: a complete hand's sets and pair (chows and pungs), a tile or two
    changed, then ``ghosts`` of its tiles turned into ghosts; ``uniform``: tiles at random."""
    used = [0] * 34
    melds: list[O.Meld] = []
    for _ in range((14 - size) // 3):
        kind = rng.choice(("pon", "open_kan", "closed_kan", "added_kan"))
        width = 3 if kind == "pon" else 4
        tile = rng.choice([t for t in range(34) if used[t] + width <= 4 and t != ghost])
        used[tile] += width
        melds.append((kind, (tile,) * width))
    counts = [0] * 34

    def free(tile: int) -> bool:
        return tile != ghost and used[tile] + counts[tile] < 4

    if style == "near":
        suits = rng.sample(range(4), rng.choice((1, 2)))
        kinds = [t for t in range(34) if t // 9 in suits or (3 in suits and t >= 27)]
        for _ in range(40):  # sets while they fit, then the pair
            if sum(counts) + 3 > size - 2:
                break
            start = rng.choice(kinds)
            chow = start < 27 and start % 9 <= 6 and rng.random() < 0.5
            group = (start, start + 1, start + 2) if chow else (start,) * 3
            if all(t != ghost and used[t] + counts[t] + group.count(t) <= 4 for t in group):
                for t in group:
                    counts[t] += 1
        pair = rng.choice(kinds)
        if pair != ghost and used[pair] + counts[pair] + 2 <= 4 and sum(counts) + 2 <= size:
            counts[pair] += 2
    while sum(counts) < size - ghosts:
        tile = rng.randrange(34)
        if free(tile):
            counts[tile] += 1
    for _ in range(rng.choice((0, 0, 1, 2))):  # swap a tile or two out
        held = [t for t in range(34) if counts[t]]
        fresh = [t for t in range(34) if free(t)]
        if held and fresh:
            counts[rng.choice(held)] -= 1
            counts[rng.choice(fresh)] += 1
    while sum(counts) > size - ghosts:  # make room for the ghosts
        counts[rng.choice([t for t in range(34) if counts[t]])] -= 1
    if ghost is not None:
        counts[ghost] = ghosts
    return tuple(counts), melds, ghost
