"""Seeded random hands for differential tests: melds, wildcards and near-complete shapes.

Hands are returned as plain data, ``(counts, melds)`` with ``melds`` a list of
``(kind, tiles)``, so the oracle and the engine get exactly the same question.
Several styles bias the draw toward the interesting cases (complete hands,
tenpai hands, seven pairs with quads, thirteen orphans), which uniform draws
almost never reach.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from oracles import CHOW_STARTS, NUM_KINDS, ORPHANS, Meld

MELD_KINDS = ("chi", "pon", "open_kan", "closed_kan", "added_kan")
STYLES = ("uniform", "near", "crowded", "pairs", "orphans")


class _Wall:
    """Copies left of each tile (hand and melds together hold at most four)."""

    def __init__(self) -> None:
        self.used = [0] * NUM_KINDS

    def free(self, tile: int) -> int:
        return 4 - self.used[tile]

    def take(self, tiles: Sequence[int]) -> bool:
        need = [0] * NUM_KINDS
        for t in tiles:
            need[t] += 1
        if any(need[t] > self.free(t) for t in set(tiles)):
            return False
        for t in tiles:
            self.used[t] += 1
        return True

    def give_back(self, tiles: Sequence[int]) -> None:
        for t in tiles:
            self.used[t] -= 1


def _random_meld(rng: random.Random, wall: _Wall) -> Meld | None:
    kind = rng.choice(MELD_KINDS)
    if kind == "chi":
        start = rng.choice(CHOW_STARTS)
        tiles: tuple[int, ...] = (start, start + 1, start + 2)
    else:
        tile = rng.randrange(NUM_KINDS)
        tiles = (tile,) * (3 if kind == "pon" else 4)
    return (kind, tiles) if wall.take(tiles) else None


def _group(rng: random.Random, non_wild: list[int]) -> tuple[int, ...]:
    starts = [t for t in CHOW_STARTS if all(x in non_wild for x in (t, t + 1, t + 2))]
    if starts and rng.random() < 0.55:
        start = rng.choice(starts)
        return (start, start + 1, start + 2)
    tile = rng.choice(non_wild)
    return (tile,) * 3


def random_hand(
    rng: random.Random,
    *,
    remainder: int,
    wild_tiles: Sequence[int] = (),
    max_wilds: int = 0,
    wilds: int | None = None,
    max_melds: int = 4,
    style: str | None = None,
    quad_pairs: bool = False,
) -> tuple[tuple[int, ...], list[Meld]]:
    """A random valid hand whose concealed size is 3n + ``remainder``.

    ``style``: ``uniform`` draws, ``near`` a complete hand with a few changes,
    ``crowded`` the same built around the melded tiles (so the 4-copy limit
    across hand and melds matters), ``pairs`` near seven pairs (quads allowed
    with ``quad_pairs``), ``orphans`` near thirteen orphans.  Closed styles
    have no melds.  Wildcards: exactly ``wilds`` if given (when they fit),
    else 0..``max_wilds``.
    """
    style = style or rng.choice(STYLES)
    while True:
        wall = _Wall()
        melds: list[Meld] = []
        if style in ("uniform", "near", "crowded"):
            wanted = rng.choice([0, 0, 0, 1, 1, 2, 3, 4][: max_melds * 2 + 1] or [0])
            if style == "crowded":
                wanted = rng.randint(1, max(1, max_melds))
            wanted = min(wanted, max_melds)
            attempts = 0
            while len(melds) < wanted and attempts < 50:
                attempts += 1
                meld = _random_meld(rng, wall)
                if meld:
                    melds.append(meld)
        limit = 14 - 3 * len(melds)
        sizes = [s for s in range(1, limit + 1) if s % 3 == remainder]
        size = sizes[-1] if rng.random() < 0.6 else rng.choice(sizes)
        count = rng.randint(0, max_wilds) if wilds is None else wilds
        hand = _draw_hand(rng, wall, style, size, wild_tiles, min(count, size), quad_pairs)
        if hand is not None:
            counts = [0] * NUM_KINDS
            for t in hand:
                counts[t] += 1
            return tuple(counts), melds


def _draw_hand(
    rng: random.Random,
    wall: _Wall,
    style: str,
    size: int,
    wild_tiles: Sequence[int],
    wilds: int,
    quad_pairs: bool,
) -> list[int] | None:
    non_wild = [t for t in range(NUM_KINDS) if t not in wild_tiles]
    wilds = wilds if wild_tiles else 0
    if style == "crowded":
        # Tiles at most two steps from a melded tile, in its suit.
        near = {
            t
            for t in non_wild
            for u in range(NUM_KINDS)
            if wall.used[u] and t // 9 == u // 9 and (t == u or (t < 27 and abs(t - u) <= 2))
        }
        non_wild = sorted(near) if len(near) >= 3 else non_wild
    target = 3 * (size // 3) + 2  # a complete hand one draw (or none) away from ``size``
    if style == "uniform":
        tiles: list[int] = []
    elif style in ("near", "crowded"):
        tiles = [rng.choice(non_wild)] * 2
        melded = [t for t in non_wild if wall.used[t] and wall.free(t)]
        if style == "crowded" and melded and rng.random() < 0.5:
            # The pair (or a lone tile waiting for its pair) is a tile the melds nearly use up.
            pair = rng.choice(melded)
            tiles = [pair] * min(2, wall.free(pair))
        for _ in range(size // 3):
            tiles += _group(rng, non_wild)
    elif style == "pairs":
        if size < 13:
            return None
        kinds = rng.sample(non_wild, 7) if not quad_pairs else [rng.choice(non_wild) for _ in range(7)]
        tiles = [t for k in kinds for t in (k, k)]
    else:
        if size < 13:
            return None
        tiles = [t for t in ORPHANS if t not in wild_tiles] + [rng.choice([t for t in ORPHANS if t not in wild_tiles])]
    # Wildcards stand in for some tiles of the planned shape (or are simply drawn).
    rng.shuffle(tiles)
    tiles = tiles[wilds:]
    for _ in range(rng.choice([0, 0, 1, 1, 2]) if tiles else 0):
        tiles[rng.randrange(len(tiles))] = rng.choice(non_wild)
    rng.shuffle(tiles)
    tiles = tiles[: max(0, size - wilds)] if len(tiles) + wilds > size else tiles
    if not wall.take(tiles):
        return None
    hand = list(tiles)
    wild_tile = wild_tiles[0] if wild_tiles else None
    if wilds and (wild_tile is None or not wall.take([wild_tile] * wilds)):
        return None
    hand += [wild_tile] * wilds if wilds else []
    while len(hand) < size:
        choices = [t for t in non_wild if wall.free(t)] or [
            t for t in range(NUM_KINDS) if wall.free(t) and t not in wild_tiles
        ]
        tile = rng.choice(choices)
        wall.take([tile])
        hand.append(tile)
    assert len(hand) == size and target >= size
    return hand
