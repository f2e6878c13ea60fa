"""Seeded random MCR wins: a complete hand, its winning tile and a situation that can happen at a table.

Uniform tiles almost never make a winning hand, and uniform winning hands
almost never hold the rare fans, so a hand is built from a *style*:

- a regular hand group by group: mixed groups, one suit, pungs, honours,
  terminals, straights, identical or shifted chows, shifted pungs, terminal
  chows, all green, tile ranges, even pungs, fives, reversible tiles, all
  five types, chicken-hand shapes, kongs;
- nine gates (1112345678999 and any tile of the suit);
- a regular hand of 14 tiles drawn at random from a few kinds until they win
  (many readings, many waits);
- one of the other forms: seven pairs (a quad counting as two pairs), thirteen
  orphans, knitted straight with a concealed or declared set, honours and
  knitted tiles (lesser and greater).

A regular hand's groups may be declared as chi, pon, open, added or closed kan.

The situation draws only what can happen together:

- a kong replacement win is a self-draw by a hand with a kong;
- a robbed kong is a discard win on a tile the winner holds once and shows in
  no meld (the other three copies are the robbed pon), never on the last tile;
- the last tile of the wall (``last_tile``) may be a kong's replacement tile,
  never a robbed kong's (no kong is declared once the wall is empty);
- the last copy (和绝张) needs the winner to hold no other copy concealed (all
  three others are on the table), and is forced when the winner's own melds
  show the other three;
- flowers 0..8, every seat and round wind; the seat wind is given or left to
  follow from winner and dealer.

>>> import random
>>> situation = random_situation(random.Random(7))
>>> situation.hand.tile_count + 3 * len(situation.hand.melds)
14
>>> [s.form for s in situations(3, 4)] == [s.form for s in situations(3, 4)]
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final, NamedTuple

from riichi_situations import Wall, group_tiles, suit_tiles

from app.core.shape.hand import Hand, Meld
from app.core.shape.tiles import DRAGONS, EAST, HONORS, ORPHANS, TERMINALS, WINDS, Tile
from app.core.value.scoring_context import WinContext

#: (is_run, first tile): a run's lowest tile or a pung's tile.
Group = tuple[bool, Tile]
#: Four groups and the pair's tile.
Shape = tuple[list[Group], Tile]

FORMS: Final = ("regular", "seven_pairs", "thirteen_orphans", "knitted_straight", "honors_and_knitted")
RUN_STARTS: Final = tuple(t for t in range(27) if t % 9 <= 6)
GREEN_TILES: Final = (19, 20, 21, 23, 25, 32)
REVERSIBLE_TILES: Final = (9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31)


class Situation(NamedTuple):
    """One random win, ready for ``count_fans(hand, win_tile, context)``."""

    hand: Hand
    win_tile: Tile
    context: WinContext
    #: regular, seven_pairs, thirteen_orphans, knitted_straight or honors_and_knitted.
    form: str
    #: The style that built the hand (for messages and per-style counts).
    style: str


def _any_group(rng: random.Random, pool: Sequence[Tile], run_share: float) -> Group:
    members = set(pool)
    starts = [t for t in RUN_STARTS if t in members and t + 1 in members and t + 2 in members]
    if starts and rng.random() < run_share:
        return True, rng.choice(starts)
    return False, rng.choice(pool)


def _from_pool(rng: random.Random, pool: Sequence[Tile], run_share: float, groups: int = 4) -> list[Group]:
    return [_any_group(rng, pool, run_share) for _ in range(groups)]


def _suits(rng: random.Random) -> list[int]:
    order = [0, 1, 2]
    rng.shuffle(order)
    return order


# -- regular styles: each returns four groups and a pair tile --


def _mixed(rng: random.Random) -> Shape:
    return _from_pool(rng, range(34), 0.6), rng.randrange(34)


def _one_suit(rng: random.Random) -> Shape:
    suit = suit_tiles(rng.randrange(3))
    pool = suit + list(HONORS) if rng.random() < 0.5 else suit
    return _from_pool(rng, pool, rng.choice((0.2, 0.6, 0.8))), rng.choice(pool)


def _pungs(rng: random.Random) -> Shape:
    pool = list(range(34)) if rng.random() < 0.6 else suit_tiles(rng.randrange(3)) + suit_tiles(rng.randrange(3))
    return _from_pool(rng, pool, 0.1), rng.choice(pool)


def _honors(rng: random.Random) -> Shape:
    kind = rng.choice(("big_winds", "little_winds", "three_winds", "big_dragons", "little_dragons", "two_dragons"))
    rest = list(HONORS) if rng.random() < 0.3 else list(range(34))
    winds, dragons = list(WINDS), list(DRAGONS)
    rng.shuffle(winds)
    rng.shuffle(dragons)
    if kind == "big_winds":
        return [(False, t) for t in winds], rng.choice(rest)
    if kind == "little_winds":
        return [(False, t) for t in winds[:3]] + [_any_group(rng, rest, 0.5)], winds[3]
    if kind == "three_winds":
        return [(False, t) for t in winds[:3]] + [_any_group(rng, rest, 0.5)], rng.choice(rest)
    if kind == "big_dragons":
        return [(False, t) for t in dragons] + [_any_group(rng, rest, 0.5)], rng.choice(rest)
    if kind == "little_dragons":
        return [(False, t) for t in dragons[:2]] + _from_pool(rng, rest, 0.5, 2), dragons[2]
    return [(False, t) for t in dragons[:2]] + _from_pool(rng, rest, 0.5, 2), rng.choice(rest)


def _terminals(rng: random.Random) -> Shape:
    orphans = list(rng.choice((TERMINALS, ORPHANS)))
    groups: list[Group] = []
    run_share = rng.choice((0.0, 0.5))
    for _ in range(4):
        if rng.random() < run_share:
            groups.append((True, rng.choice([t for t in RUN_STARTS if t % 9 in (0, 6)])))
        else:
            groups.append((False, rng.choice(orphans)))
    return groups, rng.choice(orphans)


def _straight(rng: random.Random) -> Shape:
    if rng.random() < 0.5:
        base = 9 * rng.randrange(3)
        groups: list[Group] = [(True, base), (True, base + 3), (True, base + 6)]
        pool = suit_tiles(base // 9) if rng.random() < 0.5 else list(range(34))
    else:
        suits = _suits(rng)
        groups = [(True, 9 * suits[0]), (True, 9 * suits[1] + 3), (True, 9 * suits[2] + 6)]
        pool = list(range(34))
    return groups + [_any_group(rng, pool, 0.6)], rng.choice(pool)


def _same_chows(rng: random.Random) -> Shape:
    number = rng.randrange(7)
    if rng.random() < 0.5:  # pure double / triple / quadruple chow
        start = 9 * rng.randrange(3) + number
        copies = rng.choice((2, 3, 3, 4))
        groups: list[Group] = [(True, start)] * copies
    else:  # mixed double / triple chow
        suits = _suits(rng)
        groups = [(True, 9 * s + number) for s in suits[: rng.choice((2, 3, 3))]]
    pool = list(range(34)) if rng.random() < 0.5 else suit_tiles(rng.randrange(3))
    return groups + _from_pool(rng, pool, 0.6, 4 - len(groups)), rng.choice(pool)


def _shifted_chows(rng: random.Random) -> Shape:
    kind = rng.choice(("pure", "pure", "four", "mixed"))
    if kind == "mixed":
        suits = _suits(rng)
        first = rng.randrange(5)
        groups: list[Group] = [(True, 9 * s + first + i) for i, s in enumerate(suits)]
    else:
        step = rng.choice((1, 2))
        runs = 4 if kind == "four" else 3
        first = rng.randrange(7 - step * (runs - 1))
        base = 9 * rng.randrange(3)
        groups = [(True, base + first + step * i) for i in range(runs)]
    pool = list(range(34)) if rng.random() < 0.5 else suit_tiles(rng.randrange(3))
    return groups + _from_pool(rng, pool, 0.6, 4 - len(groups)), rng.choice(pool)


def _shifted_pungs(rng: random.Random) -> Shape:
    kind = rng.choice(("pure", "four", "mixed", "triple", "double"))
    if kind in ("pure", "four"):
        pungs = 4 if kind == "four" else 3
        base = 9 * rng.randrange(3) + rng.randrange(10 - pungs)
        groups: list[Group] = [(False, base + i) for i in range(pungs)]
    elif kind == "mixed":
        first = rng.randrange(7)
        groups = [(False, 9 * s + first + i) for i, s in enumerate(_suits(rng))]
    else:
        number = rng.randrange(9)
        groups = [(False, 9 * s + number) for s in _suits(rng)[: 3 if kind == "triple" else 2]]
    pool = list(range(34))
    return groups + _from_pool(rng, pool, 0.4, 4 - len(groups)), rng.choice(pool)


def _terminal_chows(rng: random.Random) -> Shape:
    kind = rng.choice(("pure", "three_suited", "two"))
    suits = _suits(rng)
    # Without the five pair the same chows make two 老少副 instead.
    pair = rng.randrange(34) if rng.random() < 0.3 else 9 * suits[2 if kind == "three_suited" else 0] + 4
    if kind == "pure":
        base = 9 * suits[0]
        return [(True, base), (True, base), (True, base + 6), (True, base + 6)], pair
    if kind == "three_suited":
        a, b = 9 * suits[0], 9 * suits[1]
        return [(True, a), (True, a + 6), (True, b), (True, b + 6)], pair
    base = 9 * suits[0]
    return [(True, base), (True, base + 6)] + _from_pool(rng, range(34), 0.6, 2), rng.randrange(34)


def _green(rng: random.Random) -> Shape:
    groups = [(True, 19) if rng.random() < 0.35 else (False, rng.choice(GREEN_TILES)) for _ in range(4)]
    return groups, rng.choice(GREEN_TILES)


def _ranges(rng: random.Random) -> Shape:
    numbers = rng.choice(((6, 7, 8), (3, 4, 5), (0, 1, 2), (5, 6, 7, 8), (0, 1, 2, 3)))
    pool = [9 * s + n for s in range(3) for n in numbers]
    return _from_pool(rng, pool, 0.5), rng.choice(pool)


def _even_pungs(rng: random.Random) -> Shape:
    pool = [9 * s + n for s in range(3) for n in (1, 3, 5, 7)]
    return _from_pool(rng, pool, 0.0), rng.choice(pool)


def _fives(rng: random.Random) -> Shape:
    groups: list[Group] = []
    for _ in range(4):
        suit = 9 * rng.randrange(3)
        groups.append((True, suit + rng.choice((2, 3, 4))) if rng.random() < 0.75 else (False, suit + 4))
    return groups, 9 * rng.randrange(3) + 4


def _reversible(rng: random.Random) -> Shape:
    return _from_pool(rng, REVERSIBLE_TILES, 0.5), rng.choice(REVERSIBLE_TILES)


def _all_types(rng: random.Random) -> Shape:
    parts: list[list[Tile]] = [suit_tiles(s) for s in range(3)] + [list(WINDS), list(DRAGONS)]
    rng.shuffle(parts)
    groups = [_any_group(rng, part, 0.6) for part in parts[:4]]
    return groups, rng.choice(parts[4])


def _chows(rng: random.Random) -> Shape:
    pool = [t for t in range(27) if 1 <= t % 9 <= 7] if rng.random() < 0.5 else list(range(27))
    return _from_pool(rng, pool, 0.9), rng.choice(pool)


def _plain(rng: random.Random) -> Shape:
    """Simple groups in all three suits and an honour pair: the shape of a chicken hand (无番和)."""
    suits = _suits(rng) + [rng.randrange(3)]
    groups = [_any_group(rng, suit_tiles(suit)[1:8], 0.75) for suit in suits]
    return groups, rng.choice(HONORS)


def _decompose(counts: list[int], groups: list[Group], pair: Tile | None) -> Shape | None:
    """One reading of ``counts`` as sets and a pair (lowest tile first), or None."""
    tile = next((t for t, n in enumerate(counts) if n), None)
    if tile is None:
        return (list(groups), pair) if pair is not None else None
    if pair is None and counts[tile] >= 2:
        counts[tile] -= 2
        found = _decompose(counts, groups, tile)
        counts[tile] += 2
        if found:
            return found
    options: list[tuple[Group, tuple[Tile, ...]]] = []
    if counts[tile] >= 3:
        options.append(((False, tile), (tile,) * 3))
    if tile < 27 and tile % 9 <= 6 and counts[tile + 1] and counts[tile + 2]:
        options.append(((True, tile), (tile, tile + 1, tile + 2)))
    for group, tiles in options:
        for t in tiles:
            counts[t] -= 1
        found = _decompose(counts, [*groups, group], pair)
        for t in tiles:
            counts[t] += 1
        if found:
            return found
    return None


def _dense(rng: random.Random) -> Shape:
    """Fourteen tiles drawn at random from a few kinds until they win: hands with many readings and waits."""
    kind = rng.randrange(3)
    if kind == 0:
        pool = suit_tiles(rng.randrange(3))
    elif kind == 1:
        pool = suit_tiles(rng.randrange(3)) + rng.sample(HONORS, 2)
    else:
        low = rng.randrange(5)
        pool = [9 * suit + low + n for suit in _suits(rng)[:2] for n in range(5)]
    for _ in range(1000):
        counts = [0] * 34
        drawn = 0
        while drawn < 14:
            tile = rng.choice(pool)
            if counts[tile] < 4:
                counts[tile] += 1
                drawn += 1
        found = _decompose(counts, [], None)
        if found:
            return found
    return _one_suit(rng)


def _kongs(rng: random.Random) -> Shape:
    return _from_pool(rng, range(34), 0.15), rng.randrange(34)


STYLES: Final[dict[str, Callable[[random.Random], Shape]]] = {
    "mixed": _mixed,
    "one_suit": _one_suit,
    "pungs": _pungs,
    "honors": _honors,
    "terminals": _terminals,
    "straight": _straight,
    "same_chows": _same_chows,
    "shifted_chows": _shifted_chows,
    "shifted_pungs": _shifted_pungs,
    "terminal_chows": _terminal_chows,
    "green": _green,
    "ranges": _ranges,
    "even_pungs": _even_pungs,
    "fives": _fives,
    "reversible": _reversible,
    "all_types": _all_types,
    "chows": _chows,
    "plain": _plain,
    "dense": _dense,
    "kongs": _kongs,
}
#: How often each style is drawn; the last five build the other forms and nine gates.
WEIGHTS: Final = {
    "mixed": 16,
    "one_suit": 8,
    "pungs": 6,
    "honors": 5,
    "terminals": 4,
    "straight": 4,
    "same_chows": 4,
    "shifted_chows": 4,
    "shifted_pungs": 4,
    "terminal_chows": 3,
    "green": 2,
    "ranges": 4,
    "even_pungs": 2,
    "fives": 2,
    "reversible": 2,
    "all_types": 3,
    "chows": 5,
    "plain": 6,
    "dense": 8,
    "kongs": 3,
    "nine_gates": 2,
    "seven_pairs": 6,
    "thirteen_orphans": 2,
    "knitted_straight": 4,
    "honors_and_knitted": 3,
}

Built = tuple[list[Tile], list[Meld]]


def _declare(rng: random.Random, group: Group, wall: Wall, meld_share: float, kong_share: float) -> Meld | None:
    """A declared meld for ``group``, or None: it stays concealed."""
    is_run, first = group
    if is_run:
        return Meld.of("chi", group_tiles(group)) if rng.random() < meld_share else None
    if rng.random() < kong_share and wall.take([first]):
        kind = rng.choice(("open_kan", "added_kan", "closed_kan"))
        return Meld.of(kind, [first] * 4)
    return Meld.of("pon", [first] * 3) if rng.random() < meld_share else None


def _regular(rng: random.Random, style: str, wall: Wall) -> Built | None:
    groups, pair = STYLES[style](rng)
    tiles = [t for g in groups for t in group_tiles(g)] + [pair, pair]
    if not wall.take(tiles):
        return None
    # A chicken hand needs a call: a concealed hand scores 门前清 or 不求人.
    meld_share = rng.choice((0.5, 0.8, 1.0) if style == "plain" else (0.0, 0.0, 0.25, 0.5, 0.8, 1.0))
    kong_share = rng.choice((0.6, 0.9)) if style == "kongs" else rng.choice((0.0, 0.05, 0.15))
    concealed: list[Tile] = [pair, pair]
    melds: list[Meld] = []
    for group in groups:
        meld = _declare(rng, group, wall, meld_share, kong_share)
        if meld is None:
            concealed += group_tiles(group)
        else:
            melds.append(meld)
    return concealed, melds


def _nine_gates(rng: random.Random, wall: Wall) -> Built | None:
    base = 9 * rng.randrange(3)
    tiles = [base + n for n, copies in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3)) for _ in range(copies)]
    tiles.append(base + rng.randrange(9))
    return (tiles, []) if wall.take(tiles) else None


def _seven_pairs(rng: random.Random, wall: Wall) -> Built | None:
    if rng.random() < 0.12:  # seven shifted pairs
        start = 9 * rng.randrange(3) + rng.randrange(3)
        pairs = list(range(start, start + 7))
    else:
        pool = rng.choice(
            (
                list(range(34)),
                list(range(34)),
                suit_tiles(rng.randrange(3)) + list(HONORS),
                suit_tiles(rng.randrange(3)),
                list(ORPHANS),
                list(HONORS),
                list(GREEN_TILES) + [18, 22, 24],
                [t for t in range(27) if 1 <= t % 9 <= 7],
            )
        )
        pairs = rng.sample(pool, 7)
        if rng.random() < 0.3:  # a quad counts as two pairs
            pairs[1] = pairs[0]
        if rng.random() < 0.05:  # and now and then a second quad
            pairs[3] = pairs[2]
    tiles = [t for t in pairs for _ in range(2)]
    return (tiles, []) if wall.take(tiles) else None


def _thirteen_orphans(rng: random.Random, wall: Wall) -> Built | None:
    tiles = list(ORPHANS) + [rng.choice(ORPHANS)]
    return (tiles, []) if wall.take(tiles) else None


def _knitted_tiles(rng: random.Random) -> list[Tile]:
    """147 in one suit, 258 in another, 369 in the third."""
    suits = _suits(rng)
    return [9 * suit + offset + step for offset, suit in enumerate(suits) for step in (0, 3, 6)]


def _knitted_straight(rng: random.Random, wall: Wall) -> Built | None:
    knitted = _knitted_tiles(rng)
    group = _any_group(rng, range(34), 0.5)
    pair = rng.randrange(34)
    if not wall.take(knitted + list(group_tiles(group)) + [pair, pair]):
        return None
    meld = _declare(rng, group, wall, 0.4, 0.2)
    concealed = knitted + [pair, pair] + ([] if meld else list(group_tiles(group)))
    return concealed, [meld] if meld else []


def _honors_and_knitted(rng: random.Random, wall: Wall) -> Built | None:
    knitted = _knitted_tiles(rng)
    if rng.random() < 0.35:  # greater: all seven honours
        tiles = rng.sample(knitted, 7) + list(HONORS)
    else:
        tiles = rng.sample(knitted + list(HONORS), 14)
    return (tiles, []) if wall.take(tiles) else None


SPECIAL: Final[dict[str, tuple[str, Callable[[random.Random, Wall], Built | None]]]] = {
    "nine_gates": ("regular", _nine_gates),
    "seven_pairs": ("seven_pairs", _seven_pairs),
    "thirteen_orphans": ("thirteen_orphans", _thirteen_orphans),
    "knitted_straight": ("knitted_straight", _knitted_straight),
    "honors_and_knitted": ("honors_and_knitted", _honors_and_knitted),
}


def random_situation(rng: random.Random, style: str | None = None) -> Situation:
    """A complete MCR hand, its winning tile and a situation that can happen (maybe under 8 fans)."""
    # The style is drawn once: retrying with a fresh style would favour styles the wall refuses less.
    chosen = style or rng.choices(list(WEIGHTS), weights=list(WEIGHTS.values()))[0]
    form = SPECIAL[chosen][0] if chosen in SPECIAL else "regular"
    while True:
        wall = Wall()
        built = SPECIAL[chosen][1](rng, wall) if chosen in SPECIAL else _regular(rng, chosen, wall)
        if built is not None:
            break
    concealed, melds = built
    hand = Hand.from_tiles(concealed, melds)
    win_tile = rng.choice(concealed)
    return Situation(hand, win_tile, _context(rng, hand, win_tile), form, chosen)


def _context(rng: random.Random, hand: Hand, win_tile: Tile) -> WinContext:
    """Seats, winds, flowers and the win's flags, drawn only in combinations that can happen."""
    winner, dealer = rng.randrange(4), rng.randrange(4)
    if rng.random() < 0.3:
        dealer = winner
    self_draw = rng.random() < 0.45
    discarder = None if self_draw else rng.choice([s for s in range(4) if s != winner])
    held = hand.counts[win_tile]
    shown = sum(meld.tiles.count(win_tile) for meld in hand.melds)
    has_kong = any(meld.kind.size == 4 for meld in hand.melds)
    kong_replacement = self_draw and has_kong and rng.random() < 0.35
    # The robbed tile's other three copies are the pon being added to.
    robbed_kong = not self_draw and held == 1 and shown == 0 and rng.random() < 0.15
    # No kong is declared once the wall is empty, but a replacement tile can be its last one.
    last_tile = not robbed_kong and rng.random() < 0.12
    if shown == 3:
        last_copy = True  # the winner's own melds show the other three
    elif held == 1:
        last_copy = rng.random() < (0.5 if robbed_kong else 0.2)
    else:
        last_copy = False
    derived_seat = EAST + (winner - dealer) % 4
    return WinContext(
        winner=winner,
        dealer=dealer,
        discarder=discarder,
        kong_replacement=kong_replacement,
        robbed_kong=robbed_kong,
        round_wind=rng.choice(WINDS),
        last_tile=last_tile,
        seat_wind=derived_seat if rng.random() < 0.5 else None,
        flowers=rng.choice((0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 3, 4, 5, 6, 7, 8)),
        last_copy=last_copy,
    )


def seat_wind_of(context: WinContext) -> Tile:
    """The winner's seat wind: given, or East plus the winner's distance from the dealer.

    >>> seat_wind_of(WinContext(winner=2, dealer=3))
    30
    """
    return context.seat_wind if context.seat_wind is not None else EAST + (context.winner - context.dealer) % 4


def situations(seed: int, count: int) -> list[Situation]:
    """``count`` random situations from ``seed`` (the same list on every run).

    >>> [s.style for s in situations(1, 3)] == [s.style for s in situations(1, 3)]
    True
    """
    rng = random.Random(seed)
    return [random_situation(rng) for _ in range(count)]
