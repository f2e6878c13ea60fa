"""Guangdong scoring: hand-computed wins with explicit options, the big hands against brute force,
and properties of every payment (zero-sum, the liable seat, the horses).

Each hand-computed case writes its arithmetic out: the hand's base (平胡 1, a big hand 2, 满鬼 6)
times its multipliers (无鬼 X2, 杠开 X2) is ``hand_points``; a payer's share is that times one
plus the horse hits (or plus the hits, ``horse_payout`` base); who pays follows the win.
"""

from __future__ import annotations

import random
from itertools import combinations_with_replacement

import oracles as O
import pytest
from guangdong_hands import build_hand
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.families.guangdong.big_hands import BIG_HANDS, big_hands
from app.core.families.guangdong.options import GhostMode, GuangdongOptions, HorsePayout, with_overrides
from app.core.families.guangdong.payments import follow_dealer_payments, horse_count, kong_payments
from app.core.families.guangdong.scoring import score_guangdong
from app.core.families.guangdong.tiles import ghost_from_indicator, hand_rules
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld, MeldKind
from app.core.shape.tiles import DRAGONS, WINDS, parse_mpsz, parse_tile
from app.core.value.scoring_context import WinContext


def hand(text: str, *melds: tuple[str, str]) -> Hand:
    return Hand.from_tiles(parse_mpsz(text), [Meld.of(kind, parse_mpsz(tiles)) for kind, tiles in melds])


# --- hand-computed cases -------------------------------------------------------------------


def test_flipped_ghost_with_three_horses():
    """翻鬼 on 9p: the ghost is 1p.  Seat 2 (the dealer's 下家, dealer 1) self-draws 5s holding two
    ghosts: 平胡 1, no 无鬼.  Four horses (it holds a ghost): 2p, 6m and 红中 name the 下家, 北 the
    上家: 3 hits.  Share 1 x (1 + 3) = 4 from each of three."""
    options = GuangdongOptions()  # ghost: flip, horses 4/6, horse_payout: hand
    ghost = ghost_from_indicator(parse_tile("9p"))
    assert ghost == parse_tile("1p")
    score = score_guangdong(
        hand("123456789m555s11p"),
        parse_tile("5s"),
        WinContext(winner=2, dealer=1),
        options,
        ghost=ghost,
        horses=parse_mpsz("2p6m4z7z"),
    )
    assert score.hand_points == 1 and score.horse_hits == 3 and score.share == 4
    assert score.payments == (-4, -4, 12, -4)


def test_no_ghost_on_a_kong_replacement_with_base_horses():
    """White ghost, horses one base each.  The dealer (seat 0) self-draws on its concealed kong's
    replacement holding no white: 平胡 1 x 无鬼 2 x 杠开 2 = 4.  Six horses (no ghost): 1m, 5p, 9s
    and 东 name the dealer: 4 hits, 4 bases.  Share 4 + 4 = 8 from each of three."""
    options = GuangdongOptions(ghost=GhostMode.WHITE, horse_payout=HorsePayout.BASE)
    score = score_guangdong(
        hand("234m678p345s33s", ("closed_kan", "2222z")),
        parse_tile("3s"),
        WinContext(winner=0, dealer=0, kong_replacement=True),
        options,
        ghost=parse_tile("5z"),
        horses=parse_mpsz("1m5p9s1z2m3m"),
    )
    assert [fan.name for fan in score.fans] == ["ping_hu", "wu_gui", "gang_kai"]
    assert score.hand_points == 4 and score.horse_hits == 4 and score.share == 8
    assert score.payments == (24, -8, -8, -8)


def test_kong_bloom_paid_by_the_kong_feeder():
    """杠爆全包 on, no ghost.  Seat 1 wins on the replacement of its kong of 东 claimed from seat 3's
    discard: 平胡 1 x 杠开 2 = 2, no horses drawn yet given: share 2, and seat 3 pays all three: 6."""
    options = GuangdongOptions(ghost=GhostMode.NONE, kong_bloom_liability=True)
    score = score_guangdong(
        hand("123m456p789s55s", ("open_kan", "1111z")),
        parse_tile("5s"),
        WinContext(winner=1, dealer=0, kong_replacement=True, kong_feeder=3),
        options,
        ghost=None,
    )
    assert score.liable == 3 and score.payments == (0, 6, 0, -6)
    # Off (the text's default), the same win is a self-draw paid by all.
    plain = score_guangdong(
        hand("123m456p789s55s", ("open_kan", "1111z")),
        parse_tile("5s"),
        WinContext(winner=1, dealer=0, kong_replacement=True, kong_feeder=3),
        with_overrides(options, kong_bloom_liability=False),
        ghost=None,
    )
    assert plain.liable is None and plain.payments == (-2, 6, -2, -2)


@pytest.mark.parametrize(("pays_all", "payments"), [(False, (-10, 0, 0, 10)), (True, (-30, 0, 0, 30))])
def test_discard_win(pays_all, payments):
    """Discard wins on, white ghost.  Seat 3 (the 上家, dealer 0) wins on seat 0's 5s holding no
    white: 平胡 1 x 无鬼 2 = 2.  Six horses: 4m, 8p, 北 and 白 name the 上家: 4 hits.  Share
    2 x (1 + 4) = 10, paid by the discarder alone, or three times with discarder_pays_all."""
    options = GuangdongOptions(ghost=GhostMode.WHITE, discard_wins=True, discarder_pays_all=pays_all)
    score = score_guangdong(
        hand("123m456p789s111z55s"),
        parse_tile("5s"),
        WinContext(winner=3, dealer=0, discarder=0),
        options,
        ghost=parse_tile("5z"),
        horses=parse_mpsz("4m8p4z5z1m2m"),
    )
    assert score.hand_points == 2 and score.horse_hits == 4 and score.share == 10
    assert score.payments == payments


def test_flush_with_a_ghost_under_the_fan_list():
    """Fan list on, white ghost.  1112345678999m and a white: a flush whatever the white stands for
    (清一色, a big hand: 2), holding a ghost (no 无鬼).  Four horses: 2s, 6s and 红中 name seat 1,
    the winner (dealer 0): share 2 x (1 + 3) = 8."""
    options = GuangdongOptions(ghost=GhostMode.WHITE, fan_list=True)
    score = score_guangdong(
        hand("1112345678999m5z"),
        parse_tile("9m"),
        WinContext(winner=1, dealer=0),
        options,
        ghost=parse_tile("5z"),
        horses=parse_mpsz("2s6s7z3m"),
    )
    assert [fan.name for fan in score.fans] == ["qing_yi_se"]
    assert score.hand_points == 2 and score.share == 8 and score.payments == (-8, 24, -8, -8)


def test_robbed_kong_without_liability():
    """抢杠全包 off, white ghost.  Seat 0 robs seat 2's added kong of 5s holding a white: 平胡 1, a
    self-draw paid by every other seat: 1 each."""
    options = GuangdongOptions(ghost=GhostMode.WHITE, rob_kong_liability=False)
    score = score_guangdong(
        hand("123m456p789s111z5s5z"),
        parse_tile("5s"),
        WinContext(winner=0, dealer=1, discarder=2, robbed_kong=True),
        options,
        ghost=parse_tile("5z"),
    )
    assert score.liable is None and score.payments == (3, -1, -1, -1)


def test_four_ghosts_on_a_kong_replacement():
    """满鬼 worth 8 here (si_gui_points), white ghost: the dealer (seat 2) draws its fourth white on a
    kong's replacement: 8 x 杠开 2 = 16 from each; four horses (it holds ghosts), 1m 5m 9p 东 all
    naming the dealer, the winner: share 16 x (1 + 4) = 80."""
    options = GuangdongOptions(ghost=GhostMode.WHITE, si_gui_points=8)
    score = score_guangdong(
        hand("1m5555z", ("pon", "111p"), ("pon", "999s"), ("closed_kan", "1111s")),
        parse_tile("5z"),
        WinContext(winner=2, dealer=2, kong_replacement=True),
        options,
        ghost=parse_tile("5z"),
        horses=parse_mpsz("1m5m9p1z"),
    )
    assert [fan.name for fan in score.fans] == ["si_gui", "gang_kai"] and score.hand_points == 16
    assert score.horse_hits == 4 and score.payments == (-80, -80, 240, -80)


def test_follow_dealer_and_kongs():
    """跟庄 at 2 a seat: the dealer (seat 2) and the next three throw 3m first: the dealer pays 2 to
    each.  A fourth discard of another tile is no 跟庄."""
    options = GuangdongOptions(follow_dealer=True, follow_dealer_points=2)
    assert follow_dealer_payments(parse_mpsz("3333m"), dealer=2, options=options) == (2, 2, -6, 2)
    assert follow_dealer_payments(parse_mpsz("3334m"), dealer=2, options=options) == (0, 0, 0, 0)
    assert follow_dealer_payments(parse_mpsz("333m"), dealer=2, options=options) == (0, 0, 0, 0)


# --- the big hands against brute force ------------------------------------------------------


def _plain_big_hands(full: tuple[int, ...], melds: list[O.Meld], win_tile: int, discard: bool) -> set[str]:
    """The big hands of a ghost-free complete hand, from the definitions over every reading."""
    found = set()
    meld_tiles = [tiles[0] for _, tiles in melds]
    tiles = [t for t in range(34) if full[t]] + meld_tiles
    for suit in range(3):
        if all(t // 9 == suit and t < 27 for t in tiles):
            found.add("qing_yi_se")
    if all(t >= 27 for t in tiles):
        found.add("zi_yi_se")
    if len(melds) == 4 and all(kind != "pon" for kind, _ in melds):
        found.add("si_gang")
    declared = {tiles[0] for kind, tiles in melds}
    closed = not melds
    if closed and sum(full) == 14:
        if all(c in (0, 2, 4) for c in full):
            found.add("qi_dui")
        if O.is_thirteen_orphans(full):
            found.add("shi_san_yao")
    for pair, groups in O.regular_decompositions(full):
        pungs = {g[0] for g in groups if g[0] == g[-1]} | declared
        if all(g[0] == g[-1] for g in groups) and all(kind == "closed_kan" for kind, _ in melds):
            if not discard or pair == win_tile:
                found.add("si_an_ke")
        if set(DRAGONS) <= pungs:
            found.add("da_san_yuan")
        if set(WINDS) <= pungs:
            found.add("da_si_xi")
        elif pair in WINDS and set(WINDS) - {pair} <= pungs:
            found.add("xiao_si_xi")
    return found


def brute_big_hands(counts, melds, ghost, win_tile: int, discard: bool) -> set[str]:
    """Every big hand some replacement of the ghosts makes (the replacement within 4 copies)."""
    plain = list(counts)
    ghosts = 0
    if ghost is not None:
        ghosts, plain[ghost] = plain[ghost], 0
    found: set[str] = set()
    for stand_ins in combinations_with_replacement(range(34), ghosts):
        full = list(plain)
        for tile in stand_ins:
            full[tile] += 1
        if max(full) > 4:
            continue
        # On a discard, the winning tile is the discard itself unless it is a ghost.
        found |= _plain_big_hands(tuple(full), melds, win_tile, discard and win_tile != ghost)
    return found


BIG_OPTIONS = GuangdongOptions(fan_list=True, ghost=GhostMode.WHITE)


@st.composite
def complete_hands(draw: st.DrawFn):
    """A complete hand (3n+2 concealed tiles) with 0 to 2 ghosts, and a tile of it as the winning tile."""
    size = draw(st.sampled_from((2, 5, 8, 11, 14)))
    ghost = draw(st.sampled_from((None, 31, 27, 0)))
    ghosts = 0 if ghost is None else draw(st.integers(0, 2))
    for _attempt in range(20):
        seed = draw(st.integers(0, 2**32))
        counts, melds, ghost = build_hand(random.Random(seed), size, ghost, ghosts, "near")
        hand_ = Hand(bytes(counts), tuple(Meld.of(kind, tiles) for kind, tiles in melds))
        if Checker(hand_rules(BIG_OPTIONS, ghost)).is_win(hand_):
            win_tile = draw(st.sampled_from([t for t in range(34) if counts[t]]))
            return counts, melds, ghost, win_tile
    return None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(complete_hands(), st.booleans())
def test_big_hands_match_every_reading(found, discard):
    if found is None:
        return
    counts, melds, ghost, win_tile = found
    engine_hand = Hand(bytes(counts), tuple(Meld.of(kind, tiles) for kind, tiles in melds))
    context = WinContext(winner=1, dealer=0, discarder=2 if discard else None)
    got = set(big_hands(engine_hand, win_tile, ghost, BIG_OPTIONS, context))
    assert got == brute_big_hands(counts, melds, ghost, win_tile, discard), (counts, melds, ghost, win_tile)


@pytest.mark.parametrize(
    ("text", "melds", "expected"),
    [
        # Three whites stand for themselves: the white set of 大三元.
        ("555z11m", (("pon", "666z"), ("pon", "777z"), ("pon", "999m")), {"da_san_yuan"}),
        # The white makes a third 3z (or a third 4z): three wind sets and a wind pair, all concealed.
        ("111z222z33z5z44z999m", (), {"xiao_si_xi", "si_an_ke"}),
        # The two whites make a third 3z: four wind sets of honours alone.
        ("111z222z3z55z66z", (("pon", "444z"),), {"zi_yi_se", "da_si_xi"}),
        # The white pairs 7m: seven pairs of one suit (and 123 123 456 456 77 as sets).
        ("11m22m33m44m55m66m5z7m", (), {"qing_yi_se", "qi_dui"}),
    ],
)
def test_big_hands_with_ghosts(text, melds, expected):
    win = hand(text, *melds)
    found = set(big_hands(win, parse_tile(text[-2:]), parse_tile("5z"), BIG_OPTIONS, WinContext(winner=1, dealer=0)))
    assert found == expected


# --- properties of every payment -------------------------------------------------------------


@st.composite
def situations(draw: st.DrawFn):
    options = GuangdongOptions(
        ghost=draw(st.sampled_from(list(GhostMode))),
        discard_wins=draw(st.booleans()),
        discarder_pays_all=draw(st.booleans()),
        fan_list=draw(st.booleans()),
        rob_kong_liability=draw(st.booleans()),
        kong_bloom_liability=draw(st.booleans()),
        horse_payout=draw(st.sampled_from(list(HorsePayout))),
        si_gui_points=draw(st.integers(1, 12)),
    )
    ghost = {GhostMode.NONE: None, GhostMode.WHITE: 31, GhostMode.FLIP: draw(st.integers(0, 33))}[options.ghost]
    winner, dealer = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    others = [seat for seat in range(4) if seat != winner]
    how = draw(st.sampled_from(("self_draw", "replacement", "robbed") + (("discard",) if options.discard_wins else ())))
    context = WinContext(winner=winner, dealer=dealer)
    if how == "replacement":
        feeder = draw(st.one_of(st.none(), st.sampled_from(others)))
        context = context._replace(kong_replacement=True, kong_feeder=feeder)
    elif how in ("robbed", "discard"):
        context = context._replace(discarder=draw(st.sampled_from(others)), robbed_kong=how == "robbed")
    return options, ghost, context


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(situations(), st.integers(0, 2**32), st.integers(0, 4), st.lists(st.integers(0, 33), max_size=6))
def test_payments_sum_to_zero_and_follow_the_win(situation, seed, ghosts, horses):
    options, ghost, context = situation
    rng = random.Random(seed)
    ghosts = 0 if ghost is None else ghosts
    counts, melds, _ = build_hand(rng, 14 - 3 * rng.randrange(3), ghost, ghosts, "near")
    win = Hand(bytes(counts), tuple(Meld.of(kind, tiles) for kind, tiles in melds))
    four = ghost is not None and counts[ghost] == 4
    if not (four or Checker(hand_rules(options, ghost)).is_win(win)):
        return
    win_tile = rng.choice([t for t in range(34) if counts[t]])
    drawn = horse_count(options, ghost, counts[ghost] if ghost is not None else 0)
    score = score_guangdong(win, win_tile, context, options, ghost=ghost, horses=horses[:drawn])
    assert sum(score.payments) == 0
    assert score.payments[context.winner] == sum(amount for _, amount in score.per_payer) > 0
    assert all(score.payments[seat] <= 0 for seat in range(4) if seat != context.winner)
    if score.liable is not None:
        assert score.per_payer == ((score.liable, 3 * score.share),)
    elif context.discarder is not None and not context.robbed_kong:
        assert [seat for seat, _ in score.per_payer] == [context.discarder]
    else:
        assert len(score.per_payer) == 3 and {amount for _, amount in score.per_payer} == {score.share}


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from([MeldKind.CLOSED_KAN, MeldKind.ADDED_KAN, MeldKind.OPEN_KAN]),
    st.integers(0, 3),
    st.integers(0, 3),
    st.lists(st.integers(0, 33), min_size=0, max_size=6),
    st.integers(0, 3),
)
def test_kong_and_follow_dealer_payments_sum_to_zero(kind, declarer, feeder, discards, dealer):
    options = GuangdongOptions(follow_dealer=True)
    if kind is MeldKind.OPEN_KAN and feeder == declarer:
        feeder = (declarer + 1) % 4
    payments = kong_payments(kind, declarer, options, feeder if kind is MeldKind.OPEN_KAN else None)
    assert sum(payments) == 0 and payments[declarer] > 0
    follow = follow_dealer_payments(discards, dealer, options)
    assert sum(follow) == 0
    assert (follow[dealer] < 0) == (len(discards) >= 4 and len(set(discards[:4])) == 1)


def test_every_big_hand_has_a_chinese_name():
    assert len(BIG_HANDS) == 11 and all(BIG_HANDS.values())


# --- refusals, each typed and at its field ---------------------------------------------------


WIN = "123m456p789s111z55s"


@pytest.mark.parametrize(
    ("context", "options", "ghost", "horses", "code", "field"),
    [
        (WinContext(winner=1, dealer=0, discarder=2), GuangdongOptions(), 31, (), "self_draw_only", "discarder"),
        (
            WinContext(winner=1, dealer=0, discarder=2, robbed_kong=True),
            GuangdongOptions(rob_kong=False),
            31,
            (),
            "rob_kong_not_allowed",
            "robbed_kong",
        ),
        (
            WinContext(winner=1, dealer=0, kong_feeder=2),
            GuangdongOptions(),
            31,
            (),
            "invalid_win_context",
            "kong_feeder",
        ),
        (
            WinContext(winner=1, dealer=0, kong_replacement=True, kong_feeder=1),
            GuangdongOptions(),
            31,
            (),
            "invalid_win_context",
            "kong_feeder",
        ),
        (WinContext(winner=4, dealer=0), GuangdongOptions(), 31, (), "invalid_win_context", "winner"),
        (WinContext(winner=1, dealer=0), GuangdongOptions(), 34, (), "ghost_indicator_required", "ghost"),
        (WinContext(winner=1, dealer=0), GuangdongOptions(), 31, (1, 2, 3, 4, 5, 6, 7), "too_many_horses", "horses"),
        (WinContext(winner=1, dealer=0), GuangdongOptions(), 31, (40,), "invalid_guangdong_play", "horses"),
    ],
)
def test_impossible_wins_are_refused(context, options, ghost, horses, code, field):
    with pytest.raises(ValueError) as raised:
        score_guangdong(hand(WIN), parse_tile("5s"), context, options, ghost=ghost, horses=horses)
    assert (raised.value.code, raised.value.field) == (code, field)


def test_an_incomplete_hand_is_not_a_win():
    with pytest.raises(ValueError) as raised:
        score_guangdong(
            hand("124m456p789s111z55s"), parse_tile("5s"), WinContext(winner=1, dealer=0), GuangdongOptions(), ghost=31
        )
    assert raised.value.code == "not_a_winning_hand"


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"horses": 21}, "horses"),
        ({"horses": True}, "horses"),
        ({"chi": 1}, "chi"),
        ({"ghost": "red"}, "ghost"),
        ({"seven_pairs": "sometimes"}, "seven_pairs"),
        ({"birds": 4}, "birds"),
    ],
)
def test_bad_options_are_refused_at_their_field(overrides, field):
    with pytest.raises(ValueError) as raised:
        with_overrides(GuangdongOptions(), **overrides)
    assert (raised.value.code, raised.value.field) == ("invalid_rule_option", field)


def test_options_describe_as_plain_data_and_take_enum_values():
    options = with_overrides(GuangdongOptions(), ghost="none", seven_pairs="distinct", horse_payout="base")
    described = options.describe()
    assert (described["ghost"], described["seven_pairs"], described["horse_payout"]) == ("none", "distinct", "base")
    assert with_overrides(GuangdongOptions(), **described) == options
