"""The compiled MCR fan counting (app/core/kernel/mcr.cpp) against the Python it replaced.

``mcr_reference`` is the plain Python scorer the kernel was ported from; here Hypothesis
builds wins of every form (regular with chows, pungs and every kind of declared meld,
concealed kongs included; seven pairs with and without a quad; thirteen orphans; knitted
straight with a concealed or declared set; honours and knitted tiles, lesser and greater;
nine gates; hands drawn from a few kinds that may or may not win) in every situation,
impossible flag combinations included (``count_fans`` reads those as the rule book does),
and the two must list the same fans, in the same order, with the same total, or both
refuse the hand.  ``score_mcr`` must answer what the reference's fans give under the
payment rule.  The seeded situations of the PyMahjongGB comparison are compared too, and
misuse of the binding must fail as a Python error, never a crash.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import mcr_reference
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from mcr_situations import situations

from app.core import _kernel
from app.core.errors import BelowMinimumFan, NotAWinningHand
from app.core.shape.hand import Hand, Meld, MeldKind
from app.core.shape.rules import rule_profile
from app.core.shape.tiles import EAST, NORTH, NUM_TILE_KINDS, Tile, format_mpsz
from app.core.value.mcr_scoring import (
    BASE_PAYMENT,
    FAN_TABLE,
    MINIMUM_FAN,
    SEATS,
    Fan,
    McrScore,
    check_mcr_context,
    count_fans,
    fan_total,
    score_mcr,
)
from app.core.value.scoring_context import InvalidWinContext, WinContext

MCR = rule_profile("mcr")
RUN_STARTS = [t for t in range(27) if t % 9 <= 6]
WINDS = list(range(EAST, NORTH + 1))

#: (is_run, first tile) of a regular hand's group.
Group = tuple[bool, Tile]


def answer(count: Callable[[Hand, Tile, WinContext], object], hand: Hand, tile: Tile, context: WinContext) -> object:
    """What a scorer answers, a refusal included, so two scorers' answers compare with ==."""
    try:
        return count(hand, tile, context)
    except NotAWinningHand as refusal:
        return ("NotAWinningHand", str(refusal))


def describe(hand: Hand, tile: Tile, context: WinContext) -> str:
    melds = " ".join(f"{m.kind.value}:{format_mpsz(m.tiles)}" for m in hand.melds)
    return f"{format_mpsz(list(_tiles(hand.counts)))} {melds} win {tile} {context}"


def _tiles(counts: bytes) -> list[Tile]:
    return [tile for tile in range(NUM_TILE_KINDS) for _ in range(counts[tile])]


def assert_same(hand: Hand, tile: Tile, context: WinContext) -> None:
    theirs = answer(mcr_reference.count_fans, hand, tile, context)
    ours = answer(count_fans, hand, tile, context)
    assert ours == theirs, describe(hand, tile, context)
    assert answer(fan_total, hand, tile, context) == answer(mcr_reference.fan_total, hand, tile, context)


# --------------------------------------------------------------------------- strategies


@st.composite
def contexts(draw: st.DrawFn) -> WinContext:
    """Any situation: the flags are drawn freely, impossible combinations included."""
    winner = draw(st.integers(0, 3))
    discarder = draw(st.none() | st.sampled_from([seat for seat in range(4) if seat != winner]))
    return WinContext(
        winner=winner,
        dealer=draw(st.integers(0, 3)),
        discarder=discarder,
        kong_replacement=draw(st.booleans()),
        robbed_kong=draw(st.booleans()),
        round_wind=draw(st.sampled_from(WINDS)),
        last_tile=draw(st.booleans()),
        seat_wind=draw(st.none() | st.sampled_from(WINDS)),
        flowers=draw(st.integers(0, 8)),
        last_copy=draw(st.booleans()),
    )


def _fits(counts: list[int]) -> bool:
    return max(counts) <= 4


@st.composite
def regular_wins(draw: st.DrawFn) -> tuple[Hand, Tile]:
    """Four groups and a pair, some groups declared (chi, pon, open, added or closed kan)."""
    pool = draw(
        st.sampled_from(
            [
                list(range(34)),  # anything
                list(range(9)),  # one suit
                list(range(9)) + list(range(27, 34)),  # one suit and honours
                list(range(27, 34)),  # honours
                [0, 8, 9, 17, 18, 26, *range(27, 34)],  # terminals and honours
                [1, 3, 5, 7, 10, 12, 14, 16, 19, 21, 23, 25],  # even
                [19, 20, 21, 23, 25, 32],  # green
                [3, 4, 5, 12, 13, 14, 21, 22, 23],  # middle
            ]
        )
    )
    members = set(pool)
    starts = [t for t in RUN_STARTS if {t, t + 1, t + 2} <= members]
    group = st.tuples(st.just(False), st.sampled_from(pool))
    if starts:
        group = group | st.tuples(st.just(True), st.sampled_from(starts))
    groups: list[Group] = draw(st.lists(group, min_size=4, max_size=4))
    pair = draw(st.sampled_from(pool))
    counts = [0] * NUM_TILE_KINDS
    counts[pair] += 2
    concealed = list(counts)
    melds: list[Meld] = []
    for is_run, first in groups:
        tiles = [first, first + 1, first + 2] if is_run else [first] * 3
        for tile in tiles:
            counts[tile] += 1
        kind = draw(
            st.sampled_from(
                ["concealed", "chi"] if is_run else ["concealed", "pon", "open_kan", "added_kan", "closed_kan"]
            )
        )
        if kind == "concealed":
            for tile in tiles:
                concealed[tile] += 1
        elif kind == "chi" or kind == "pon":
            melds.append(Meld.of(kind, tiles))
        else:
            counts[first] += 1
            melds.append(Meld.of(kind, [first] * 4))
    assume(_fits(counts))  # no such win: more than four copies
    tile = draw(st.sampled_from(sorted({t for t in range(NUM_TILE_KINDS) if concealed[t]})))
    return Hand.from_counts(bytes(concealed), melds), tile


@st.composite
def seven_pairs_wins(draw: st.DrawFn) -> tuple[Hand, Tile]:
    shifted = draw(st.booleans())
    if shifted:
        suit, low = draw(st.integers(0, 2)), draw(st.integers(0, 2))
        kinds = [suit * 9 + low + i for i in range(7)]
        counts = [0] * NUM_TILE_KINDS
        for tile in kinds:
            counts[tile] = 2
    else:
        pool = draw(st.sampled_from([list(range(34)), list(range(9)), list(range(9, 18)) + list(range(27, 34))]))
        pairs = draw(st.lists(st.sampled_from(pool), min_size=7, max_size=7))
        counts = [0] * NUM_TILE_KINDS
        for tile in pairs:
            counts[tile] += 2
        assume(_fits(counts))
    tile = draw(st.sampled_from([t for t in range(NUM_TILE_KINDS) if counts[t]]))
    return Hand.from_counts(bytes(counts)), tile


@st.composite
def thirteen_orphans_wins(draw: st.DrawFn) -> tuple[Hand, Tile]:
    orphans = [0, 8, 9, 17, 18, 26, *range(27, 34)]
    counts = [0] * NUM_TILE_KINDS
    for tile in orphans:
        counts[tile] = 1
    counts[draw(st.sampled_from(orphans))] += 1
    return Hand.from_counts(bytes(counts)), draw(st.sampled_from(orphans))


def _knitted_straight(order: list[int]) -> list[Tile]:
    return [suit * 9 + first + step for first, suit in enumerate(order) for step in (0, 3, 6)]


@st.composite
def knitted_wins(draw: st.DrawFn) -> tuple[Hand, Tile]:
    """Knitted straight plus a set (concealed or declared) and a pair, or honours and knitted tiles."""
    straight = _knitted_straight(draw(st.permutations([0, 1, 2])))
    counts = [0] * NUM_TILE_KINDS
    melds: list[Meld] = []
    if draw(st.booleans()):
        # 全不靠 / 七星不靠: 14 different tiles out of the straight's 9 and the 7 honours.
        chosen = draw(st.sets(st.sampled_from(straight + list(range(27, 34))), min_size=14, max_size=14))
        for tile in chosen:
            counts[tile] = 1
        concealed = counts
    else:
        for tile in straight:
            counts[tile] += 1
        concealed = list(counts)
        pair = draw(st.integers(0, 33))
        counts[pair] += 2
        concealed[pair] += 2
        is_run = draw(st.booleans())
        first = draw(st.sampled_from(RUN_STARTS)) if is_run else draw(st.integers(0, 33))
        tiles = [first, first + 1, first + 2] if is_run else [first] * 3
        for tile in tiles:
            counts[tile] += 1
        kind = draw(st.sampled_from(["concealed", "chi"] if is_run else ["concealed", "pon", "closed_kan"]))
        if kind == "concealed":
            for tile in tiles:
                concealed[tile] += 1
        elif kind == "closed_kan":
            counts[first] += 1
            melds.append(Meld.of(kind, [first] * 4))
        else:
            melds.append(Meld.of(kind, tiles))
        assume(_fits(counts))
    tile = draw(st.sampled_from([t for t in range(NUM_TILE_KINDS) if concealed[t]]))
    return Hand.from_counts(bytes(concealed), melds), tile


@st.composite
def nine_gates_wins(draw: st.DrawFn) -> tuple[Hand, Tile]:
    suit = draw(st.integers(0, 2))
    counts = [0] * NUM_TILE_KINDS
    for rank, copies in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3)):
        counts[suit * 9 + rank] = copies
    tile = suit * 9 + draw(st.integers(0, 8))
    counts[tile] += 1
    return Hand.from_counts(bytes(counts)), tile


@st.composite
def few_kind_hands(draw: st.DrawFn) -> tuple[Hand, Tile]:
    """14 tiles from a few kinds: many readings and waits when they win, a refusal when not."""
    kinds = draw(st.lists(st.integers(0, 33), min_size=3, max_size=7, unique=True))
    tiles = draw(st.lists(st.sampled_from(kinds), min_size=14, max_size=14))
    counts = [0] * NUM_TILE_KINDS
    for tile in tiles:
        counts[tile] += 1
    assume(_fits(counts))
    return Hand.from_counts(bytes(counts)), draw(st.sampled_from(tiles))


@st.composite
def one_suit_hands(draw: st.DrawFn) -> tuple[Hand, Tile]:
    """14 tiles of one suit, 4 copies at most: the hands with the most readings (and waits)."""
    suit = draw(st.integers(0, 2))
    ranks = draw(st.lists(st.integers(0, 8), min_size=14, max_size=14))
    counts = [0] * NUM_TILE_KINDS
    for rank in ranks:
        counts[suit * 9 + rank] += 1
    assume(_fits(counts))
    return Hand.from_counts(bytes(counts)), suit * 9 + draw(st.sampled_from(ranks))


WINS = st.one_of(
    regular_wins(),
    seven_pairs_wins(),
    thirteen_orphans_wins(),
    knitted_wins(),
    nine_gates_wins(),
    few_kind_hands(),
    one_suit_hands(),
)


# --------------------------------------------------------------------------- the comparisons


def test_the_kernel_prices_the_fans_as_the_table_does() -> None:
    assert _kernel.mcr_fan_values() == tuple(value for _, _, value in FAN_TABLE)


@settings(max_examples=1500)
@given(win=WINS, context=contexts())
def test_kernel_agrees_with_the_reference(win: tuple[Hand, Tile], context: WinContext) -> None:
    hand, tile = win
    assert_same(hand, tile, context)


@settings(max_examples=300)
@given(win=regular_wins(), context=contexts())
def test_every_tile_of_the_hand_as_the_winning_tile(win: tuple[Hand, Tile], context: WinContext) -> None:
    # The wait fans depend on which tile completed the hand: try them all.
    hand, _ = win
    for tile in range(NUM_TILE_KINDS):
        if hand.counts[tile]:
            assert_same(hand, tile, context)


def _reference_score(hand: Hand, tile: Tile, context: WinContext) -> McrScore:
    """score_mcr as it was written over the Python counting (the payment loop as it was)."""
    check_mcr_context(hand, tile, context)
    fans = mcr_reference.count_fans(hand, tile, context)
    total = sum(f.fan * f.count for f in fans)
    if total < MINIMUM_FAN:
        raise BelowMinimumFan("below", field="hand")
    flowers = context.flowers
    if flowers:
        fans += (Fan(*FAN_TABLE[80], flowers),)
    worth = total + flowers
    payments = [0] * SEATS
    per_payer = []
    for seat in range(SEATS):
        if seat == context.winner:
            continue
        pays = worth + BASE_PAYMENT if context.discarder is None or seat == context.discarder else BASE_PAYMENT
        per_payer.append((seat, pays))
        payments[seat] -= pays
        payments[context.winner] += pays
    return McrScore(tuple(payments), tuple(per_payer), total, fans, flowers)


def _score_outcome(
    score: Callable[[Hand, Tile, WinContext], McrScore], hand: Hand, tile: Tile, context: WinContext
) -> object:
    try:
        return score(hand, tile, context)
    except (BelowMinimumFan, InvalidWinContext, NotAWinningHand) as refusal:
        return type(refusal).__name__


@settings(max_examples=600)
@given(win=WINS, context=contexts())
def test_score_mcr_answers_what_the_reference_fans_pay(win: tuple[Hand, Tile], context: WinContext) -> None:
    hand, tile = win
    ours = _score_outcome(lambda h, t, c: score_mcr(h, t, MCR, c), hand, tile, context)
    assert ours == _score_outcome(_reference_score, hand, tile, context), describe(hand, tile, context)


def test_the_seeded_situations_agree() -> None:
    # The PyMahjongGB comparison's generator, with its bias toward the rare fans.
    for case in situations(31, 3000):
        assert_same(case.hand, case.win_tile, case.context)


def test_threads_count_alike() -> None:
    cases = [(case.hand, case.win_tile, case.context) for case in situations(5, 400)]
    expected = [count_fans(*case) for case in cases]
    seen: list[bool] = []

    def work() -> None:
        seen.append(all(count_fans(*case) == fans for case, fans in zip(cases, expected, strict=True)))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == [True] * 4


# --------------------------------------------------------------------------- misuse


WIN = Hand.from_counts(bytes([3, 1, 1, 1, 1, 1, 1, 1, 4] + [0] * 25))
SELF_DRAW = WinContext(winner=0, dealer=0)


@pytest.mark.parametrize(
    ("hand", "tile", "context", "error"),
    [
        (Hand(bytes(33), ()), 0, SELF_DRAW, TypeError),  # 33 counts
        (Hand(bytes([5, 1, 1, 1, 1, 1, 1, 1, 2] + [0] * 25), ()), 0, SELF_DRAW, ValueError),  # five copies
        (WIN, 9, SELF_DRAW, ValueError),  # the winning tile is not held
        (WIN, 0, SELF_DRAW._replace(round_wind=None), TypeError),  # type: ignore[arg-type]
        (Hand(bytes([1] * 14 + [0] * 20), ()), 0, "no context", AttributeError),
    ],
)
def test_misuse_of_the_binding_is_a_python_error(hand: Hand, tile: Tile, context: WinContext, error: type) -> None:
    with pytest.raises(error):
        _kernel.mcr_count(hand, tile, context)
    with pytest.raises(error):
        _kernel.mcr_fan_total(hand, tile, context)


def test_a_meld_of_another_kind_is_refused() -> None:
    odd = Meld(MeldKind.PON, (0, 0, 0))
    object.__setattr__(odd, "kind", "triplet")
    hand = Hand(bytes([0, 1, 1, 1, 1, 1, 1, 1, 3] + [0] * 25), (odd,))
    with pytest.raises(ValueError, match="meld kind"):
        _kernel.mcr_count(hand, 8, SELF_DRAW)


def test_a_hand_that_does_not_add_up_is_refused_before_the_kernel() -> None:
    short = Hand(bytes([3, 1, 1, 1, 1, 1, 1, 1, 3] + [0] * 25), ())
    with pytest.raises(NotAWinningHand):
        count_fans(short, 0, SELF_DRAW)
    with pytest.raises(NotAWinningHand):
        fan_total(short, 0, SELF_DRAW)
