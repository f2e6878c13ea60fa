"""Seeded random riichi wins: a complete hand, its winning tile and a situation the scorer accepts.

Uniform tiles almost never make a winning hand, and uniform winning hands
almost never hold the rare yaku, so a hand is built group by group from a
*style* (one suit, triplets, honours, outside groups, ittsu or sanshoku shapes,
twin runs, seven pairs, thirteen orphans, yakuman shapes).  Groups may become
declared melds of every kind; the situation draws only the flag combinations
``app.core.value.riichi_scoring._check_situation`` accepts.  A hand holds at most one
red five per suit, as a real set has, so the same win can be handed to the
``mahjong`` package.

Given a rule profile with fewer seats or absent tiles (``sanma``: three seats, no
2m-8m, no chi), the same styles are drawn with those tiles refused by the wall,
runs never called as chi, seats 0..2 and a number of norths set aside (nuki).
Four-player wins draw exactly the random numbers they always have, so seeded
lists of them do not change.

>>> import random
>>> situation = random_situation(random.Random(7))
>>> situation.hand.tile_count + 3 * len(situation.hand.melds)
14
>>> from app.core.shape.rules import rule_profile
>>> sanma = random_situation(random.Random(7), rules=rule_profile("sanma"))
>>> any(sanma.hand.all_counts()[1:8]), max(sanma.context.winner, sanma.context.dealer) < 3
(False, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final, NamedTuple

from app.core.shape.hand import Hand, Meld
from app.core.shape.rules import RuleProfile, rule_profile
from app.core.shape.tiles import Tile
from app.core.value.scoring_context import WinContext

EAST: Final = 27
NORTH: Final = 30
WINDS: Final = (27, 28, 29, 30)
DRAGONS: Final = (31, 32, 33)
HONORS: Final = WINDS + DRAGONS
TERMINALS: Final = (0, 8, 9, 17, 18, 26)
ORPHANS: Final = TERMINALS + HONORS
FIVES: Final = (4, 13, 22)
GREEN: Final = (19, 20, 21, 23, 25, 32)
RUN_STARTS: Final = tuple(t for t in range(27) if t % 9 <= 6)

#: (is_run, first tile): a run's lowest tile or a triplet's tile.
Group = tuple[bool, Tile]


class Situation(NamedTuple):
    """One random win, ready for ``score_riichi(hand, win_tile, rules, context)``."""

    hand: Hand
    win_tile: Tile
    context: WinContext
    #: The style that built the hand (for messages and per-style counts).
    style: str


class Wall:
    """Copies of each tile still free: hand, melds and indicators hold at most four.

    A tile the set does not have starts with all four copies used, so it is never taken.
    """

    def __init__(self, absent: Sequence[Tile] = ()) -> None:
        self.used = [4 if tile in absent else 0 for tile in range(34)]

    def take(self, tiles: Sequence[Tile]) -> bool:
        need = [0] * 34
        for tile in tiles:
            need[tile] += 1
        if any(self.used[t] + need[t] > 4 for t in set(tiles)):
            return False
        for tile in tiles:
            self.used[tile] += 1
        return True


def group_tiles(group: Group) -> tuple[Tile, ...]:
    is_run, first = group
    return (first, first + 1, first + 2) if is_run else (first,) * 3


def suit_tiles(suit: int) -> list[Tile]:
    return list(range(9 * suit, 9 * suit + 9))


def _any_group(rng: random.Random, pool: Sequence[Tile], run_share: float) -> Group:
    starts = [t for t in RUN_STARTS if t in pool and t + 2 in pool]
    if starts and rng.random() < run_share:
        return True, rng.choice(starts)
    return False, rng.choice(pool)


# -- styles: each returns (groups, pair) or None (the wall refused; try again) --

Shape = tuple[list[Group], Tile]


def _from_pool(rng: random.Random, pool: Sequence[Tile], run_share: float) -> Shape:
    return [_any_group(rng, pool, run_share) for _ in range(4)], rng.choice(pool)


def _mixed(rng: random.Random) -> Shape:
    return _from_pool(rng, range(34), 0.6)


def _simples(rng: random.Random) -> Shape:
    pool = [t for t in range(27) if 1 <= t % 9 <= 7]
    if rng.random() < 0.3:  # a wind or dragon pair for pinfu's "no value pair" rule
        groups, _ = _from_pool(rng, pool, 0.85)
        return groups, rng.choice(HONORS)
    return _from_pool(rng, pool, 0.85)


def _one_suit(rng: random.Random) -> Shape:
    suit = suit_tiles(rng.randrange(3))
    pool = suit + list(HONORS) if rng.random() < 0.5 else suit
    return _from_pool(rng, pool, 0.6 if len(pool) == 9 else 0.45)


def _triplets(rng: random.Random) -> Shape:
    return _from_pool(rng, range(34), 0.15)


def _honors(rng: random.Random) -> Shape:
    pool = list(HONORS) + suit_tiles(rng.randrange(3)) * (rng.random() < 0.6)
    if rng.random() < 0.3:  # two dragon triplets: shousangen with a dragon pair
        dragons = list(DRAGONS)
        rng.shuffle(dragons)
        groups: list[Group] = [(False, dragons[0]), (False, dragons[1]), _any_group(rng, pool, 0.5)]
        return groups + [_any_group(rng, pool, 0.5)], dragons[2] if rng.random() < 0.7 else rng.choice(pool)
    groups = [(False, rng.choice(HONORS)) for _ in range(rng.randint(2, 4))]
    groups += [_any_group(rng, pool, 0.5) for _ in range(4 - len(groups))]
    return groups, rng.choice(HONORS if rng.random() < 0.7 else pool)


def _outside(rng: random.Random) -> Shape:
    honors = rng.random() < 0.5
    orphans = list(ORPHANS if honors else TERMINALS)
    groups: list[Group] = []
    for _ in range(4):
        if rng.random() < 0.6:
            groups.append((True, rng.choice([t for t in RUN_STARTS if t % 9 in (0, 6)])))
        else:
            groups.append((False, rng.choice(orphans)))
    return groups, rng.choice(orphans)


def _ittsu(rng: random.Random) -> Shape:
    base = 9 * rng.randrange(3)
    groups: list[Group] = [(True, base), (True, base + 3), (True, base + 6)]
    pool = suit_tiles(base // 9) if rng.random() < 0.5 else list(range(34))
    return groups + [_any_group(rng, pool, 0.6)], rng.choice(pool)


def _sanshoku(rng: random.Random) -> Shape:
    if rng.random() < 0.7:
        number = rng.randrange(7)
        groups: list[Group] = [(True, number), (True, number + 9), (True, number + 18)]
    else:
        number = rng.randrange(9)
        groups = [(False, number), (False, number + 9), (False, number + 18)]
    return groups + [_any_group(rng, range(34), 0.5)], rng.randrange(34)


def _twins(rng: random.Random) -> Shape:
    first = rng.choice(RUN_STARTS)
    groups: list[Group] = [(True, first), (True, first)]
    if rng.random() < 0.5:
        second = rng.choice(RUN_STARTS)
        groups += [(True, second), (True, second)]
    else:
        groups += [_any_group(rng, range(34), 0.6) for _ in range(2)]
    return groups, rng.randrange(34)


def _yakuman(rng: random.Random) -> Shape:
    kind = rng.choice(("daisangen", "suushii", "ryuuiisou", "tsuuiisou", "chinroutou", "concealed", "kans"))
    if kind == "daisangen":
        groups: list[Group] = [(False, t) for t in DRAGONS]
        return groups + [_any_group(rng, range(34), 0.5)], rng.randrange(34)
    if kind == "suushii":
        winds = list(WINDS)
        rng.shuffle(winds)
        if rng.random() < 0.5:
            return [(False, t) for t in winds], rng.randrange(34)
        return [(False, t) for t in winds[:3]] + [_any_group(rng, range(34), 0.5)], winds[3]
    if kind == "ryuuiisou":
        groups = [(True, 19) if rng.random() < 0.3 else (False, rng.choice(GREEN)) for _ in range(4)]
        return groups, rng.choice(GREEN)
    if kind == "tsuuiisou":
        return _from_pool(rng, HONORS, 0.0)
    if kind == "chinroutou":
        return _from_pool(rng, TERMINALS, 0.0)
    # Four triplets (suuankou if they stay concealed) or, below, kans.
    return _from_pool(rng, range(34), 0.0)


STYLES: Final[dict[str, Callable[[random.Random], Shape]]] = {
    "mixed": _mixed,
    "simples": _simples,
    "one_suit": _one_suit,
    "triplets": _triplets,
    "honors": _honors,
    "outside": _outside,
    "ittsu": _ittsu,
    "sanshoku": _sanshoku,
    "twins": _twins,
    "yakuman": _yakuman,
}
#: How often each style is drawn (seven pairs, orphans and nine gates are built apart).
WEIGHTS: Final = {
    "mixed": 14,
    "simples": 12,
    "one_suit": 12,
    "triplets": 10,
    "honors": 9,
    "outside": 9,
    "ittsu": 5,
    "sanshoku": 6,
    "twins": 6,
    "yakuman": 7,
    "seven_pairs": 6,
    "kokushi": 2,
    "chuuren": 2,
}


def _meld_kind(rng: random.Random, group: Group, wall: Wall, kan_share: float, chi: bool) -> str | None:
    """A declared kind for ``group`` (None: it stays concealed; so does a run where chi is not allowed)."""
    is_run, first = group
    if is_run:
        return "chi" if chi else None
    if rng.random() < kan_share and wall.take([first]):
        return rng.choice(("open_kan", "closed_kan", "added_kan"))
    return "pon"


def _regular(rng: random.Random, style: str, wall: Wall, chi: bool) -> tuple[list[Tile], list[Meld]] | None:
    groups, pair = STYLES[style](rng)
    tiles = [t for g in groups for t in group_tiles(g)] + [pair, pair]
    if not wall.take(tiles):
        return None
    # Kans on three or four of the triplets: sankantsu and suukantsu.
    kans_wanted = rng.choice((3, 4)) if style in ("yakuman", "triplets") and rng.random() < 0.2 else 0
    meld_share = rng.choice((0.0, 0.0, 0.25, 0.5, 0.8))
    concealed: list[Tile] = [pair, pair]
    melds: list[Meld] = []
    for group in groups:
        kind = None
        if kans_wanted and not group[0]:
            if wall.take([group[1]]):
                kans_wanted -= 1
                kind = rng.choice(("open_kan", "closed_kan", "closed_kan", "added_kan"))
        elif rng.random() < meld_share:
            kind = _meld_kind(rng, group, wall, 0.35, chi)
        elif not group[0] and rng.random() < 0.08 and wall.take([group[1]]):
            kind = "closed_kan"  # a closed kan keeps the hand concealed
        if kind is None:
            concealed += group_tiles(group)
        else:
            size = 3 if kind in ("chi", "pon") else 4
            tiles_of = group_tiles(group) if group[0] else (group[1],) * size
            melds.append(Meld.of(kind, tiles_of))
    return concealed, melds


def _seven_pairs(rng: random.Random, wall: Wall) -> tuple[list[Tile], list[Meld]] | None:
    pool = rng.choice(
        (
            list(range(34)),
            suit_tiles(rng.randrange(3)) + list(HONORS),
            list(ORPHANS),
            [t for t in range(27) if 1 <= t % 9 <= 7],
            list(HONORS),
        )
    )
    if len(pool) < 7:
        return None
    pairs = rng.sample(pool, 7)
    tiles = [t for t in pairs for _ in range(2)]
    return (tiles, []) if wall.take(tiles) else None


def _kokushi(rng: random.Random, wall: Wall) -> tuple[list[Tile], list[Meld]] | None:
    tiles = list(ORPHANS) + [rng.choice(ORPHANS)]
    return (tiles, []) if wall.take(tiles) else None


def _chuuren(rng: random.Random, wall: Wall) -> tuple[list[Tile], list[Meld]] | None:
    base = 9 * rng.randrange(3)
    tiles = [base + n for n, copies in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3)) for _ in range(copies)]
    tiles.append(base + rng.randrange(9))
    return (tiles, []) if wall.take(tiles) else None


def _indicators(rng: random.Random, wall: Wall, count: int) -> tuple[Tile, ...]:
    out: list[Tile] = []
    while len(out) < count:
        tile = rng.randrange(34)
        if wall.take([tile]):
            out.append(tile)
    return tuple(out)


def _red_fives(rng: random.Random, held: Sequence[int]) -> tuple[Tile, ...]:
    """At most one red five per suit; a suit's four fives always include the red one."""
    return tuple(t for t in FIVES if held[t] == 4 or (held[t] and rng.random() < 0.5))


FOUR_PLAYER: Final = rule_profile("riichi")


def random_situation(rng: random.Random, style: str | None = None, *, rules: RuleProfile = FOUR_PLAYER) -> Situation:
    """A complete riichi hand with a situation ``_check_situation`` accepts (maybe without a yaku).

    ``rules`` gives the table: its seats, the tiles the set lacks and whether chi is called.
    """
    # The style is drawn once: retrying with a fresh style would favour styles the wall refuses less.
    chosen = style or rng.choices(list(WEIGHTS), weights=list(WEIGHTS.values()))[0]
    while True:
        wall = Wall(rules.absent_tiles)
        if chosen == "seven_pairs":
            built = _seven_pairs(rng, wall)
        elif chosen == "kokushi":
            built = _kokushi(rng, wall)
        elif chosen == "chuuren":
            built = _chuuren(rng, wall)
        else:
            built = _regular(rng, chosen, wall, rules.chi_allowed)
        if built is not None:
            break
    concealed, melds = built
    hand = Hand.from_tiles(concealed, melds)
    win_tile = rng.choice(concealed)
    return Situation(hand, win_tile, _context(rng, hand, win_tile, wall, rules.seats), chosen)


def _context(rng: random.Random, hand: Hand, win_tile: Tile, wall: Wall, seats: int) -> WinContext:
    """Seats, winds, flags, dora, nuki and sticks, drawn only in combinations the scorer accepts."""
    winner, dealer = rng.randrange(seats), rng.randrange(seats)
    if rng.random() < 0.3:
        dealer = winner
    tsumo = rng.random() < 0.5
    discarder = None if tsumo else rng.choice([s for s in range(seats) if s != winner])
    closed = not hand.has_open_meld
    has_kan = any(meld.kind.size == 4 for meld in hand.melds)
    riichi = double_riichi = ippatsu = kong_replacement = robbed_kong = last_tile = first_turn = False
    if closed and rng.random() < 0.5:
        if rng.random() < 0.2:
            double_riichi = True
        else:
            riichi = True
        ippatsu = rng.random() < 0.3
    if tsumo and has_kan and rng.random() < 0.35:
        kong_replacement = True
        ippatsu = False  # a kong ends ippatsu
    # Robbing a kong: the robbed tile's other three copies are in the kong, so the
    # winner holds only this one and nobody else may show it (reserve them on the wall).
    if (
        not tsumo
        and rng.random() < 0.15
        and hand.counts[win_tile] == 1
        and not any(win_tile in meld.tiles for meld in hand.melds)
        and wall.used[win_tile] == 1
    ):
        robbed_kong = True
        wall.take([win_tile] * 3)
    if not kong_replacement and not robbed_kong and rng.random() < 0.1:
        last_tile = True
    if (
        tsumo
        and not hand.melds
        and not (riichi or double_riichi or kong_replacement or last_tile)
        and rng.random() < 0.1
    ):
        first_turn = True
    held = list(hand.all_counts())
    # Three seats: norths set aside (kita), taken from the wall before any indicator can show one.
    nuki = 0
    if seats == 3:
        nuki = min(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)), 4 - wall.used[NORTH])
        wall.take([NORTH] * nuki)
    dora = _indicators(rng, wall, rng.choice((0, 1, 1, 1, 2, 3, 5)))
    ura = _indicators(rng, wall, len(dora) if rng.random() < 0.8 else rng.randint(0, 2))
    return WinContext(
        winner=winner,
        dealer=dealer,
        discarder=discarder,
        kong_replacement=kong_replacement,
        robbed_kong=robbed_kong,
        round_wind=rng.choice((EAST, EAST, 28, 28, 29, NORTH)),
        dora_indicators=dora,
        ura_indicators=ura,
        red_fives=_red_fives(rng, held),
        riichi=riichi,
        double_riichi=double_riichi,
        ippatsu=ippatsu,
        last_tile=last_tile,
        first_turn=first_turn,
        honba=rng.choice((0, 0, 0, 1, 2, 5)),
        riichi_sticks=rng.choice((0, 0, 1, 2)),
        nuki=nuki,
    )


def situations(seed: int, count: int, *, rules: RuleProfile = FOUR_PLAYER) -> list[Situation]:
    """``count`` random situations from ``seed`` (the same list on every run).

    >>> [s.style for s in situations(1, 3)] == [s.style for s in situations(1, 3)]
    True
    """
    rng = random.Random(seed)
    return [random_situation(rng, rules=rules) for _ in range(count)]
