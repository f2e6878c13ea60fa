"""The knitted forms of the Chinese Official rules (``mcr``): shanten, ukeire, waits, win, discards.

Knitted straight (组合龙): 147, 258 and 369, one pattern per suit (six
assignments), plus a meld (it may be declared) and a pair.  Honours and knitted
tiles (全不靠): 14 distinct tiles of one assignment's nine and the seven honours.

Two independent checks:

* an oracle written here from those definitions: every complete knitted hand is
  enumerated, and a hand's distance is ``min over them of sum max(0, W - h)``
  (the regular, seven-pairs and orphans forms come from ``oracles.py``);
* PyMahjongGB 1.4.0 (a test-only dependency): ``MahjongShanten`` and its
  per-form functions, which take 3n+1 hands only (regular 1..13 tiles, knitted
  straight 10 or 13, the closed forms 13).  A 3n+2 hand's shanten is read from
  it as the best over its discards, and -1 when a discard leaves a ready hand
  waiting on that very tile.  Its regular count (block counting) ignores the
  4-copy limit; where that alone makes it differ (a "wait" on a fifth copy),
  the rules decide: a tile has four copies.  Such cases are pinned below.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from itertools import combinations

import numpy as np
import oracles as O
import pytest
from oracle_sample import scaled

from app.core.advice.discard import evaluate_discards
from app.core.shape.batch import NOT_APPLICABLE, analyse_batch
from app.core.shape.engine import HONORS_AND_KNITTED, KNITTED_STRAIGHT, Checker, ShantenResult
from app.core.shape.hand import Hand, Meld, MeldKind
from app.core.shape.rules import rule_profile
from app.core.shape.shanten import KNITTED_STRAIGHTS
from app.core.shape.tiles import HONORS, format_tile, parse_mpsz

MCR = rule_profile("mcr")
CHECKER = Checker(MCR)
#: The tile codes of PyMahjongGB by our tile index: W man, B pin (饼), T sou (条), F winds,
#: J1 中 (red), J2 发 (green), J3 白 (white).
GB_NAMES = (
    *(f"W{i}" for i in range(1, 10)),
    *(f"B{i}" for i in range(1, 10)),
    *(f"T{i}" for i in range(1, 10)),
    "F1",
    "F2",
    "F3",
    "F4",
    "J3",
    "J2",
    "J1",
)
GB_TILES = {name: tile for tile, name in enumerate(GB_NAMES)}
FORM_NAMES = ("regular", "seven_pairs", "thirteen_orphans", "knitted_straight", "honors_and_knitted")
#: Every legal concealed size, each with the most melds it allows.
SIZES = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)
UNCAPPED = (14,) * 34

MeldSpec = tuple[str, tuple[int, ...]]


def _hand(text: str, *melds: tuple[str, str]) -> Hand:
    return Hand.from_tiles(parse_mpsz(text), tuple(Meld.of(MeldKind(kind), parse_mpsz(tiles)) for kind, tiles in melds))


def _counts(tiles: Sequence[int]) -> tuple[int, ...]:
    counts = [0] * 34
    for tile in tiles:
        counts[tile] += 1
    return tuple(counts)


# --- the oracle: complete knitted hands, enumerated ------------------------------------


Reading = tuple[tuple[int, ...], tuple[int, ...], int]


@cache
def knitted_straight_table(
    melds_wanted: int, caps: tuple[int, ...] = O.FULL_CAPS
) -> tuple[np.ndarray, tuple[Reading, ...]]:
    """Every complete knitted-straight hand of ``melds_wanted`` (0 or 1) melds under ``caps``,
    with its reading (straight, meld, pair)."""
    rows = []
    readings = []
    meld_choices: list[tuple[int, ...]] = [()] if melds_wanted == 0 else list(O.MELD_SHAPES)
    for straight in KNITTED_STRAIGHTS:
        for meld in meld_choices:
            for pair in range(34):
                row = _counts([*straight, *meld, pair, pair])
                if all(c <= cap for c, cap in zip(row, caps, strict=True)):
                    rows.append(row)
                    readings.append((straight, meld, pair))
    return np.array(rows, dtype=np.int8), tuple(readings)


def knitted_straight_rows(melds_wanted: int, caps: tuple[int, ...] = O.FULL_CAPS) -> np.ndarray:
    return knitted_straight_table(melds_wanted, caps)[0]


@cache
def honors_and_knitted_rows(caps: tuple[int, ...] = O.FULL_CAPS) -> np.ndarray:
    """Every complete honours-and-knitted hand under ``caps``."""
    rows = []
    for straight in KNITTED_STRAIGHTS:
        for tiles in combinations((*straight, *HONORS), 14):
            if all(caps[tile] for tile in tiles):
                rows.append(_counts(tiles))
    return np.array(rows, dtype=np.int8).reshape(-1, 34)


def enumerated_distance(counts: Sequence[int], rows: np.ndarray) -> int | None:
    """``min over the rows W of sum max(0, W - h)``; None when no row exists."""
    if not len(rows):
        return None
    return int(np.maximum(rows - np.asarray(counts, dtype=np.int8), 0).sum(axis=1).min())


def oracle_distances(
    counts: Sequence[int], melds: int, caps: tuple[int, ...] = O.FULL_CAPS, *, regular: int | None = None
) -> dict[str, int | None]:
    """Each mcr form's distance by the definitions (None: ruled out by the hand's size or melds)."""
    size = sum(counts)
    melds_wanted = size // 3
    closed = melds == 0 and size >= 13
    return {
        "regular": O.regular_distance(counts, melds_wanted, caps) if regular is None else regular,
        "seven_pairs": O.seven_pairs_distance(counts, quad_as_two=True) if closed else None,
        "thirteen_orphans": O.thirteen_orphans_distance(counts) if closed else None,
        "knitted_straight": enumerated_distance(counts, knitted_straight_rows(melds_wanted - 3, caps))
        if melds_wanted >= 3
        else None,
        "honors_and_knitted": enumerated_distance(counts, honors_and_knitted_rows(caps)) if closed else None,
    }


def oracle_best(counts: Sequence[int], melds: int, regular: int) -> int:
    return min(d for d in oracle_distances(counts, melds, regular=regular).values() if d is not None)


def per_form(result: ShantenResult) -> dict[str, int | None]:
    return {form: getattr(result, form) for form in FORM_NAMES}


# --- random hands ----------------------------------------------------------------------------

_KINDS = ("chi", "pon", "open_kan", "closed_kan", "added_kan")
_GB_PACK = {"chi": "CHI", "pon": "PENG", "open_kan": "GANG", "added_kan": "GANG", "closed_kan": "GANG"}


def random_situation(rng: random.Random, size: int, style: str) -> tuple[list[int], list[MeldSpec]]:
    """A hand of ``size`` concealed tiles with the melds that size implies (4 copies in all).

    Styles: ``uniform``; ``knitted`` (most tiles from one knitted straight and the
    honours); ``near`` (a complete knitted hand with a few tiles replaced).
    """
    while True:
        used = [0] * 34
        melds: list[MeldSpec] = []
        while len(melds) < (14 - size) // 3:
            kind = rng.choice(_KINDS)
            if kind == "chi":
                start = rng.choice(O.CHOW_STARTS)
                tiles: tuple[int, ...] = (start, start + 1, start + 2)
            else:
                tile = rng.randrange(34)
                tiles = (tile,) * (3 if kind == "pon" else 4)
            if all(used[t] + tiles.count(t) <= 4 for t in tiles):
                for t in tiles:
                    used[t] += 1
                melds.append((kind, tiles))
        straight = rng.choice(KNITTED_STRAIGHTS)
        pool = [*straight, *HONORS]
        if style == "near":
            if size >= 13 and rng.random() < 0.5:
                hand = rng.sample(pool, 14)
            else:
                meld = rng.choice(O.MELD_SHAPES) if size >= 13 else ()
                pair = rng.randrange(34)
                hand = [*straight, *meld, pair, pair]
            rng.shuffle(hand)
            hand = hand[:size]
            for index in rng.sample(range(len(hand)), min(len(hand), rng.randint(0, 3))):
                hand[index] = rng.randrange(34)
            hand += [rng.randrange(34) for _ in range(size - len(hand))]
        else:
            hand = []
            while len(hand) < size:
                if style == "knitted" and rng.random() < 0.8:
                    hand.append(rng.choice(pool))
                else:
                    hand.append(rng.randrange(34))
        if all(used[t] + hand.count(t) <= 4 for t in set(hand)):
            return hand, melds


def engine_hand(tiles: Sequence[int], melds: Sequence[MeldSpec]) -> Hand:
    return Hand.from_tiles(list(tiles), tuple(Meld.of(MeldKind(kind), list(t)) for kind, t in melds))


def gb_packs(rng: random.Random, melds: Sequence[MeldSpec]) -> tuple[tuple[str, str, int], ...]:
    packs = []
    for kind, tiles in melds:
        middle = tiles[1]
        offer = 0 if kind == "closed_kan" else rng.randint(1, 3)
        packs.append((_GB_PACK[kind], GB_NAMES[middle], offer))
    return tuple(packs)


# --- PyMahjongGB's answers --------------------------------------------------------------


@pytest.fixture(scope="module")
def gb():  # type: ignore[no-untyped-def]
    return pytest.importorskip("MahjongGB", reason="PyMahjongGB (the test extra) is not installed")


def gb_ready_forms(gb, tiles: Sequence[int]) -> dict[str, tuple[int, frozenset[int]]]:  # type: ignore[no-untyped-def]
    """PyMahjongGB's (shanten, useful tiles) per form for a 3n+1 hand, for the forms its size allows."""
    names = tuple(GB_NAMES[t] for t in tiles)
    functions = {"regular": gb.RegularShanten}
    if len(tiles) in (10, 13):
        functions["knitted_straight"] = gb.KnittedStraightShanten
    if len(tiles) == 13:
        functions["seven_pairs"] = gb.SevenPairsShanten
        functions["thirteen_orphans"] = gb.ThirteenOrphansShanten
        functions["honors_and_knitted"] = gb.HonorsAndKnittedTilesShanten
    out = {}
    for form, function in functions.items():
        shanten, useful = function(names)
        out[form] = (shanten, frozenset(GB_TILES[name] for name in useful))
    return out


def gb_complete_forms(gb, tiles: Sequence[int]) -> dict[str, int]:  # type: ignore[no-untyped-def]
    """PyMahjongGB's shanten per form of a 3n+2 hand: the best over its discards, -1 when
    some discard leaves the form ready and waiting on the discarded tile."""
    out: dict[str, int] = {}
    for discard in set(tiles):
        rest = list(tiles)
        rest.remove(discard)
        for form, (shanten, useful) in gb_ready_forms(gb, rest).items():
            value = -1 if shanten == 0 and discard in useful else shanten
            out[form] = min(out.get(form, value), value)
    return out


def uncapped_distance(form: str, counts: Sequence[int]) -> int:
    """A form's distance with the 4-copy limit lifted (what block counting measures)."""
    melds_wanted = sum(counts) // 3
    if form == "regular":
        return O.regular_distance(counts, melds_wanted, UNCAPPED)
    assert form == "knitted_straight", form  # the other forms never use a fourth copy
    best = 99
    for straight in KNITTED_STRAIGHTS:
        rest = list(counts)
        missing = 0
        for tile in straight:
            if rest[tile]:
                rest[tile] -= 1
            else:
                missing += 1
        best = min(best, missing + O.regular_distance(rest, melds_wanted - 3, UNCAPPED))
    return best


def compare_with_gb(gb, rng: random.Random, count: int, size: int) -> dict[str, int]:  # type: ignore[no-untyped-def]
    """Compare ``count`` random hands of ``size`` tiles with PyMahjongGB; return the tallies.

    Every difference must come from the 4-copy limit: our answer is then the
    exact one, and PyMahjongGB's equals the distance with the limit lifted.
    """
    tally = {"hands": 0, "knitted_best": 0, "fifth_copy": 0}
    styles = ("uniform", "knitted", "near")
    for index in range(count):
        tiles, melds = random_situation(rng, size, styles[index % 3])
        hand = engine_hand(tiles, melds)
        ours = CHECKER.shanten(hand)
        mine = per_form(ours)
        names = tuple(GB_NAMES[t] for t in tiles)
        packs = gb_packs(rng, melds)
        if size % 3 == 1:
            forms = gb_ready_forms(gb, tiles)
            theirs = {form: shanten for form, (shanten, _) in forms.items()}
            overall = gb.MahjongShanten(packs, names)
        else:
            theirs = gb_complete_forms(gb, tiles)
            overall = min(gb.MahjongShanten(packs, tuple(GB_NAMES[t] for t in _without(tiles, d))) for d in set(tiles))
            overall = min(overall, min(theirs.values()))
        assert set(theirs) == {form for form, value in mine.items() if value is not None}, (tiles, melds)
        assert overall == min(theirs.values())
        tally["hands"] += 1
        knitted = [mine[form] for form in (KNITTED_STRAIGHT, HONORS_AND_KNITTED) if mine[form] is not None]
        if knitted and min(knitted) == ours.shanten:
            tally["knitted_best"] += 1
        counts = _counts(tiles)
        differs = False
        for form, value in theirs.items():
            if mine[form] != value:
                # Only the 4-copy limit may separate us, and then only upward.
                differs = True
                assert mine[form] > value, (form, tiles, mine, theirs)
                assert uncapped_distance(form, counts) - 1 == value, (form, tiles, mine, theirs)
        if differs:
            tally["fifth_copy"] += 1
            continue
        assert ours.shanten == overall, (tiles, melds)
        if size % 3 == 1:
            best = ours.shanten
            useful = frozenset().union(*(u for s, u in forms.values() if s == best))
            assert ours.ukeire is not None
            # PyMahjongGB may count a tile the hand holds four times (a fifth copy cannot be drawn).
            fifth = {tile for tile in useful if counts[tile] == 4}
            assert {t.tile for t in ours.ukeire} == useful - fifth, (tiles, melds)
            tally["fifth_copy"] += bool(fifth)
    return tally


def _without(tiles: Sequence[int], tile: int) -> list[int]:
    rest = list(tiles)
    rest.remove(tile)
    return rest


@pytest.mark.parametrize("size", SIZES)
def test_agrees_with_pymahjonggb(gb, size: int) -> None:  # type: ignore[no-untyped-def]
    """A few hundred hands of each size, a third of them near a knitted form."""
    tally = compare_with_gb(gb, random.Random(1200 + size), 300, size)
    assert tally["hands"] == 300
    if size >= 10:
        assert tally["knitted_best"] >= 30, tally


#: Hands of each size compared at scale: the first 2,000 of the seeded stream, all 20,000 under --full-oracles.
AT_SCALE = scaled(full=20_000, sample=2_000)


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
def test_agrees_with_pymahjonggb_at_scale(gb, size: int) -> None:  # type: ignore[no-untyped-def]
    """2,000 (20,000) hands of every legal size (with 4..0 declared melds), overall and per form, and the ukeire."""
    tally = compare_with_gb(gb, random.Random(5200 + size), AT_SCALE, size)
    assert tally["hands"] == AT_SCALE
    if size >= 10:
        assert tally["knitted_best"] >= AT_SCALE // 10, tally


def test_pymahjonggb_counts_a_fifth_copy() -> None:
    """The pinned disagreements: block counting waits on a tile whose four copies the hand holds.

    A tile has four copies (MCR's rule book counts 136 tiles, 144 with flowers), so a
    hand can never draw a fifth.  PyMahjongGB calls these hands ready; they are not.
    """
    gb = pytest.importorskip("MahjongGB", reason="PyMahjongGB (the test extra) is not installed")
    # Regular: four Easts are one pung and a lone tile whose pair would be a fifth East.
    hand = _hand("123456789m1111z")
    assert gb.RegularShanten(tuple(GB_NAMES[t] for t in parse_mpsz("123456789m1111z"))) == (0, ("F1",))
    assert CHECKER.shanten(hand).regular == 1
    assert not CHECKER.waits(hand).tenpai
    # Knitted straight: the same rest after a complete 147m258p369s.
    tiles = parse_mpsz("147m258p369s1111z")
    assert gb.KnittedStraightShanten(tuple(GB_NAMES[t] for t in tiles)) == (0, ("F1",))
    result = CHECKER.shanten(Hand.from_tiles(tiles))
    assert result.knitted_straight == 1 and result.shanten == 1
    assert uncapped_distance("knitted_straight", _counts(tiles)) - 1 == 0  # what block counting sees


def test_pymahjonggb_useful_fifth_copy() -> None:
    """Pinned: with the shanten equal, PyMahjongGB's knitted-straight useful tiles may name a tile
    the hand holds four times.  Its rest (the hand less the straight) is ready with a pung of
    Reds and a lone tile, and it tries a fifth Red there; a fifth copy cannot be drawn."""
    gb = pytest.importorskip("MahjongGB", reason="PyMahjongGB (the test extra) is not installed")
    tiles = parse_mpsz("369m2588p17s7777z")
    shanten, useful = gb.KnittedStraightShanten(tuple(GB_NAMES[t] for t in tiles))
    result = CHECKER.shanten(Hand.from_tiles(tiles))
    assert shanten == result.knitted_straight == result.shanten == 1
    assert sorted(format_tile(GB_TILES[name]) for name in useful) == ["4s", "7z", "8p"]
    assert [format_tile(t.tile) for t in result.ukeire or ()] == ["8p", "4s"]


# --- against the oracle ---------------------------------------------------------------------


@pytest.mark.parametrize("size", [10, 11, 13, 14])
def test_knitted_distances_match_enumeration(size: int) -> None:
    rng = random.Random(70 + size)
    styles = ("uniform", "knitted", "near")
    for index in range(600):
        tiles, melds = random_situation(rng, size, styles[index % 3])
        result = CHECKER.shanten(engine_hand(tiles, melds))
        expected = oracle_distances(_counts(tiles), len(melds), regular=0)
        for form in (KNITTED_STRAIGHT, HONORS_AND_KNITTED):
            distance = expected[form]
            assert getattr(result, form) == (None if distance is None else distance - 1), (form, tiles, melds)


def _oracle_shanten_and_draws(
    counts: tuple[int, ...], melds: int, caps: tuple[int, ...] = O.FULL_CAPS
) -> tuple[int, set[int], dict[str, int | None]]:
    """The oracle's shanten, ukeire (draws that lower it) and per-form distances of a hand."""
    draws = [t for t in range(34) if counts[t] < caps[t]]
    rows = [counts] + [tuple(c + (t == d) for t, c in enumerate(counts)) for d in draws]
    wanted = np.array([sum(row) // 3 for row in rows])
    regular = O.regular_distance_batch(np.array(rows), wanted, np.array([caps] * len(rows)))
    forms = oracle_distances(counts, melds, caps, regular=int(regular[0]))
    best = min(d for d in forms.values() if d is not None)
    lowered = set()
    for draw, row, plain_regular in zip(draws, rows[1:], regular[1:], strict=True):
        after = oracle_distances(row, melds, caps, regular=int(plain_regular))
        if min(d for d in after.values() if d is not None) < best:
            lowered.add(draw)
    return best - 1, lowered, forms


@pytest.mark.parametrize("size", [1, 4, 7, 10, 13])
def test_shanten_ukeire_and_waits_match_the_oracle(size: int) -> None:
    rng = random.Random(90 + size)
    styles = ("uniform", "knitted", "near")
    for index in range(75):
        tiles, melds = random_situation(rng, size, styles[index % 3])
        hand = engine_hand(tiles, melds)
        shanten, lowered, forms = _oracle_shanten_and_draws(_counts(tiles), len(melds))
        result = CHECKER.shanten(hand)
        assert result.shanten == shanten, (tiles, melds)
        assert per_form(result) == {f: None if d is None else d - 1 for f, d in forms.items()}, (tiles, melds)
        assert {t.tile for t in result.ukeire or ()} == lowered, (tiles, melds)
        waits = CHECKER.waits(hand)
        assert set(waits.shape_waits) == (lowered if shanten == 0 else set()), (tiles, melds)
        assert waits.tenpai == (shanten == 0)


@pytest.mark.parametrize(
    ("overrides", "meld"),
    [
        ({"absent_tiles": "5p"}, None),
        ({"absent_tiles": "4m5p6s"}, None),
        ({"melded_tiles_count_toward_limit": True}, ("pon", (0, 0, 0))),
        ({"melded_tiles_count_toward_limit": True}, ("chi", (9, 10, 11))),
    ],
)
def test_capped_knitted_forms_match_the_oracle(overrides: dict[str, object], meld: MeldSpec | None) -> None:
    """Absent tiles and melded copies cap the complete hand: the knitted forms obey the caps."""
    checker = Checker(rule_profile("mcr", **overrides))
    rng = random.Random(11)
    styles = ("knitted", "near")
    checked = 0
    while checked < 45:
        size = 13 if meld is None else 10
        tiles, _ = random_situation(rng, size, styles[checked % 2])
        melds = [] if meld is None else [meld]
        caps = [4] * 34
        for tile in checker.rules.absent_tiles:
            caps[tile] = 0
        if checker.rules.melded_tiles_count_toward_limit:
            for tile in meld[1] if meld else ():
                caps[tile] -= 1
        if any(_counts(tiles)[t] > caps[t] for t in range(34)):
            continue
        checked += 1
        shanten, lowered, forms = _oracle_shanten_and_draws(_counts(tiles), len(melds), tuple(caps))
        result = checker.shanten(engine_hand(tiles, melds))
        assert result.shanten == shanten, (tiles, melds)
        for form in (KNITTED_STRAIGHT, HONORS_AND_KNITTED):
            distance = forms[form]
            assert getattr(result, form) == (None if distance is None else distance - 1), (form, tiles)
        assert {t.tile for t in result.ukeire or ()} == lowered, (tiles, melds)


def test_wildcards_cover_missing_knitted_tiles() -> None:
    """A wildcard stands for any tile: each form's distance drops by one, checked against
    replacing the wildcard by every tile."""
    checker = Checker(rule_profile("mcr", wildcards="7z"))
    rng = random.Random(5)
    for index in range(80):
        drawn, _ = random_situation(rng, 14, ("knitted", "near")[index % 2])
        plain = [t for t in drawn if t != 33][:13]
        if len(plain) < 13:
            continue
        tiles = [*plain, 33]
        hand = Hand.from_tiles(tiles)
        result = checker.shanten(hand)
        best = 99
        for stand_in in range(34):
            full = _counts([*plain, stand_in])
            if max(full) <= 4:
                distances = oracle_distances(full, 0, regular=99)
                best = min(best, *(d for f, d in distances.items() if f != "regular" and d is not None))
        knitted = min(result.knitted_straight, result.honors_and_knitted, result.seven_pairs, result.thirteen_orphans)
        assert knitted == best - 1, tiles
        win = checker.win(hand)
        if knitted == -1:
            assert win.win
            for reading in win.decompositions:
                if reading.form in (KNITTED_STRAIGHT, HONORS_AND_KNITTED):
                    assert [w for w, _ in reading.wildcards] == [33]
                    assert sorted(_reading_tiles(reading)) == sorted(plain + [s for _, s in reading.wildcards])


# --- win and decompositions --------------------------------------------------------------


def _reading_tiles(reading) -> list[int]:  # type: ignore[no-untyped-def]
    tiles = [*reading.knitted, *reading.singles, *(t for meld in reading.melds for t in meld)]
    if reading.pair is not None:
        tiles += [reading.pair, reading.pair]
    return tiles


def test_knitted_straight_wins_closed_and_with_a_declared_meld() -> None:
    result = CHECKER.win(_hand("147m258p369s55777z"))
    assert result.win and result.form == KNITTED_STRAIGHT
    (reading,) = result.decompositions
    assert [format_tile(t) for t in reading.knitted] == "1m 4m 7m 2p 5p 8p 3s 6s 9s".split()
    assert reading.melds == ((33, 33, 33),) and reading.pair == 31
    # The meld may reuse the straight's suits and tiles.
    (reading,) = CHECKER.win(_hand("147m258p369s456m11z")).decompositions
    assert reading.melds == ((3, 4, 5),) and reading.pair == 27
    # One declared meld: eleven concealed tiles, the straight and a pair.
    result = CHECKER.win(_hand("369m147p258s77z", ("chi", "345m")))
    assert result.win and result.form == KNITTED_STRAIGHT
    assert result.decompositions[0].melds == () and result.decompositions[0].pair == 33
    # Two declared melds leave eight tiles: no room for a straight.
    assert CHECKER.shanten(_hand("147m258p369s5z", ("pon", "111z"))).knitted_straight is not None
    assert CHECKER.shanten(_hand("147m258p3s5z", ("pon", "111z"), ("pon", "222z"))).knitted_straight is None


def test_honors_and_knitted_wins_closed_only() -> None:
    result = CHECKER.win(_hand("147m25p36s1234567z"))
    assert result.win and result.form == HONORS_AND_KNITTED
    (reading,) = result.decompositions
    assert len(reading.singles) == 14 and reading.pair is None and reading.knitted == ()
    # Seven stars (七星不靠) is the same form with all seven honours; five honours suffice too.
    assert CHECKER.is_win(_hand("147m258p369s12345z"))
    # Two tiles of one kind are no longer honours and knitted.
    assert not CHECKER.is_win(_hand("147m258p369s12344z"))
    assert CHECKER.shanten(_hand("147m258p369s1z", ("pon", "222z"))).honors_and_knitted is None


def test_other_rules_lack_the_knitted_forms() -> None:
    for name in ("riichi", "chinese", "qiqihar", "sanma"):
        checker = Checker(rule_profile(name))
        result = checker.shanten(_hand("19m147p258s12345z"))
        assert result.knitted_straight is None and result.honors_and_knitted is None
        if name != "sanma":  # sanma has no 4m
            assert not checker.is_win(_hand("147m258p369s55777z"))
    enabled = Checker(rule_profile("riichi", knitted_forms=True))
    assert enabled.is_win(_hand("147m258p369s55777z"))
    assert rule_profile("mcr").describe()["knitted_forms"] is True


@pytest.mark.parametrize("size", [11, 14])
def test_win_readings_match_enumeration(size: int) -> None:
    """Every complete knitted hand, found by ``is_win`` and ``win`` with each reading exactly once."""
    rng = random.Random(3 + size)
    for index in range(180):
        straight = rng.choice(KNITTED_STRAIGHTS)
        if size == 14 and index % 3 == 0:
            tiles = rng.sample([*straight, *HONORS], 14)
            melds: list[MeldSpec] = []
        else:
            pair = rng.randrange(34)
            meld = rng.choice(O.MELD_SHAPES)
            tiles = [*straight, pair, pair] + (list(meld) if size == 14 else [])
            melds = [] if size == 14 else [("pon", (27, 27, 27))]
        if index % 4 == 0:  # near misses too
            tiles[rng.randrange(len(tiles))] = rng.randrange(34)
        counts = _counts(tiles)
        if max(counts) > 4 or (melds and counts[27] > 1):
            continue
        hand = engine_hand(tiles, melds)
        rows, readings = knitted_straight_table(size // 3 - 3)
        expected: set[tuple[str, tuple[int, ...], tuple[int, ...], int | None]] = {
            (KNITTED_STRAIGHT, *readings[row]) for row in np.flatnonzero((rows == np.array(counts)).all(axis=1))
        }
        for candidate in KNITTED_STRAIGHTS:
            if size == 14 and max(counts) == 1 and all(t in (*candidate, *HONORS) for t in tiles):
                expected.add((HONORS_AND_KNITTED, (), (), None))
        result = CHECKER.win(hand)
        found = {
            (r.form, r.knitted, r.melds[0] if r.melds else (), r.pair)
            for r in result.decompositions
            if r.form in (KNITTED_STRAIGHT, HONORS_AND_KNITTED)
        }
        assert found == expected, tiles
        assert CHECKER.is_win(hand) == result.win
        regular = int(O.regular_distance_batch(np.array([counts]), np.array([size // 3]))[0])
        assert result.win == (oracle_best(counts, len(melds), regular) == 0)


# --- discards and the batch path ---------------------------------------------------------


def test_discards_aim_for_the_knitted_forms() -> None:
    """/discard's engine under mcr: each candidate's shanten and ukeire are the 13-tile hand's."""
    hand = _hand("147m258p369s12m55z7z")  # ready for a knitted straight after 7z
    candidates = evaluate_discards(hand, MCR)
    assert format_tile(candidates[0].tile) == "7z" and candidates[0].shanten == 0
    assert {format_tile(t.tile) for t in candidates[0].ukeire} == {"3m"}
    rng = random.Random(8)
    for index in range(40):
        tiles, melds = random_situation(rng, 14 if index % 2 else 11, ("knitted", "near")[index % 2])
        hand = engine_hand(tiles, melds)
        for option in CHECKER.discards(hand):
            after = CHECKER.shanten(engine_hand(_without(tiles, option.tile), melds))
            assert option.shanten == after.shanten
            assert [t.tile for t in option.ukeire] == [t.tile for t in after.ukeire or ()]


@pytest.mark.parametrize("rules", [MCR, rule_profile("mcr", wildcards="7z")], ids=["mcr", "mcr+wild"])
@pytest.mark.parametrize("size", SIZES)
def test_the_batch_path_equals_the_checker(rules: object, size: int) -> None:
    """analyse_batch (numpy, for /shanten/batch and /ting/batch) gives the Checker's answers under mcr."""
    checker = Checker(rules)  # type: ignore[arg-type]
    rng = random.Random(size)
    styles = ("uniform", "knitted", "near")
    hands = [random_situation(rng, size, styles[index % 3])[0] for index in range(240)]
    result = analyse_batch(np.array([_counts(tiles) for tiles in hands], dtype=np.uint8), rules)  # type: ignore[arg-type]
    for row, tiles in enumerate(hands):
        expected = checker.shanten(Hand.from_tiles(tiles))
        assert result.shanten[row] == expected.shanten, tiles
        for form in FORM_NAMES:
            value = int(getattr(result, form)[row])
            assert (None if value == NOT_APPLICABLE else value) == getattr(expected, form), (form, tiles)
        wanted = [] if expected.ukeire is None else [t.tile for t in expected.ukeire]
        assert np.flatnonzero(result.ukeire[row]).tolist() == wanted, tiles
