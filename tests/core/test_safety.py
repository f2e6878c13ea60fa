"""The danger model: bounds, the invariants that follow from the rules, and the published corners."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.advice.safety import (
    EARLY_OUTSIDE_FACTOR,
    GENBUTSU_LEAK,
    ClosedRates,
    InvalidOpponent,
    Opponent,
    Reason,
    TileSafety,
    _ready_probability,
    assess,
    combined_safety,
    defence_rules,
    passed_after_riichi,
)
from app.core.advice.safety_tables import DEAL_IN_BY_TURN, DORA_DEAL_IN_TURN_9, Category
from app.core.shape.hand import Meld
from app.core.shape.rules import rule_profile
from app.core.shape.tiles import NUM_TILE_KINDS, counts_from_tiles, parse_mpsz, parse_tile

RIICHI = rule_profile("riichi")
CHINESE = rule_profile("chinese")
QIQIHAR = rule_profile("qiqihar")
ALL_RULES = (RIICHI, CHINESE, QIQIHAR)
PON = Meld.of("pon", parse_mpsz("111z"))
REASONS = {reason.value for reason in Reason}
#: Five early discards that put no tile outside anything, so later discards are not early.
PADDING = tuple(parse_mpsz("33333z"))
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _unseen(*tiles: str) -> bytes:
    seen = counts_from_tiles([t for text in tiles for t in parse_mpsz(text)])
    return bytes(4 - c for c in seen)


def _one(opponent: Opponent, tile: str, unseen: bytes, rules=RIICHI, turn: int | None = 9) -> TileSafety:
    return assess(opponent, [parse_tile(tile)], unseen=unseen, rules=rules, turn=turn)[0]


def _rate(turn: int, category: Category) -> float:
    return DEAL_IN_BY_TURN[turn - 1][category] / 100


@st.composite
def situations(draw):
    """A random table: our hand, one opponent's river and melds, other visible tiles."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    wall = list(range(136))
    rng.shuffle(wall)
    hand = [t // 4 for t in wall[:14]]
    river = tuple(t // 4 for t in wall[14 : 14 + rng.randrange(0, 19)])
    rest = wall[14 + len(river) :]
    elsewhere = [t // 4 for t in rest[: rng.randrange(0, 40)]]
    melds = (PON,) if rng.random() < 0.4 else ()
    riichi = rng.random() < 0.6
    opponent = Opponent(river, riichi, rng.randrange(1, len(river) + 1) if riichi and river else None, melds)
    seen = counts_from_tiles(hand + list(river) + elsewhere + [t for m in melds for t in m.tiles])
    if max(seen) > 4:  # the pon took a copy already elsewhere: drop the pon
        opponent = Opponent(river, riichi, opponent.riichi_turn, ())
        seen = counts_from_tiles(hand + list(river) + elsewhere)
    unseen = bytes(4 - c for c in seen)
    rules = rng.choice(ALL_RULES)
    turn = rng.choice([None, rng.randrange(1, 20)])
    return hand, opponent, unseen, rules, turn


@SETTINGS
@given(situations())
def test_safety_is_a_probability_with_known_reasons(situation) -> None:
    hand, opponent, unseen, rules, turn = situation
    for verdict in assess(opponent, set(hand), unseen=unseen, rules=rules, turn=turn):
        assert 0.0 <= verdict.safety <= 1.0
        assert 0.0 <= verdict.danger_if_ready <= 1.0 and 0.0 <= verdict.ready_probability <= 1.0
        assert verdict.danger == pytest.approx(verdict.danger_if_ready * verdict.ready_probability)
        assert verdict.safety == pytest.approx(1.0 - verdict.danger)
        assert set(verdict.reasons) <= REASONS


@SETTINGS
@given(situations())
def test_a_genbutsu_never_lowers_safety(situation) -> None:
    """Knowing a tile is in the river can only make it safer (turn and copies held fixed)."""
    hand, opponent, unseen, rules, turn = situation
    turn = turn or 9
    for tile in set(hand):
        without = Opponent(tuple(t for t in opponent.river if t != tile), opponent.riichi, None, opponent.melds)
        with_it = Opponent(without.river + (tile,), opponent.riichi, None, opponent.melds)
        before = assess(without, [tile], unseen=unseen, rules=rules, turn=turn)[0]
        after = assess(with_it, [tile], unseen=unseen, rules=rules, turn=turn)[0]
        assert after.safety >= before.safety - 1e-12
        if defence_rules(rules).furiten:
            assert after.danger == 0.0


@SETTINGS
@given(situations())
def test_a_suji_partner_in_the_river_never_lowers_safety(situation) -> None:
    """Against a seat that is ready, a suji partner in its river never makes a tile more
    dangerous.  (A seat with calls that has not declared reads its chance of being ready from its
    river too, the fitted read: a middle tile among its latest discards makes it likelier, so its
    danger may rise with the discard while the danger if it is ready does not.)"""
    hand, opponent, unseen, rules, turn = situation
    turn = turn or 9
    for tile in {t for t in hand if t < 27}:
        for partner in (tile - 3, tile + 3):
            if partner // 9 != tile // 9 or not 0 <= partner < 27:
                continue
            base = Opponent(tuple(t for t in opponent.river if t != partner), opponent.riichi, None, opponent.melds)
            more = Opponent(base.river + (partner,), opponent.riichi, None, opponent.melds)
            before = assess(base, [tile], unseen=unseen, rules=rules, turn=turn)[0]
            after = assess(more, [tile], unseen=unseen, rules=rules, turn=turn)[0]
            assert after.danger_if_ready <= before.danger_if_ready + 1e-12
            if after.ready_probability == before.ready_probability:
                assert after.safety >= before.safety - 1e-12


def test_a_honour_with_every_other_copy_visible_is_safe() -> None:
    unseen = _unseen("1111z")
    declared = Opponent(tuple(parse_mpsz("5m")), riichi=True)
    verdict = _one(declared, "1z", unseen)
    assert verdict.safety == 1.0 and Reason.ALL_COPIES_VISIBLE.value in verdict.reasons


def test_a_number_tile_with_no_copy_and_no_shape_left_is_safe() -> None:
    # 1m: no copy unseen (no single or double-pair wait), 2m gone (no 23m ryanmen, no kanchan).
    unseen = _unseen("1111m2222m")
    verdict = _one(Opponent(riichi=True), "1m", unseen)
    assert verdict.safety == 1.0
    assert {Reason.NO_CHANCE.value, Reason.ALL_COPIES_VISIBLE.value} <= set(verdict.reasons)


def test_single_tile_waits_go_with_the_last_copy() -> None:
    suji_one = Opponent(PADDING + tuple(parse_mpsz("4m")), riichi=True)
    fresh = _one(suji_one, "1m", _unseen("1m"))
    gone = _one(suji_one, "1m", _unseen("1111m"))
    assert fresh.danger == pytest.approx(_rate(9, Category.SUJI_19)) and gone.danger == 0.0


# --- the published corners ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("river", "tile", "category"),
    [
        ("", "5m", Category.NO_SUJI_5),
        ("", "4p", Category.NO_SUJI_46),
        ("", "3s", Category.NO_SUJI_37),
        ("", "8m", Category.NO_SUJI_28),
        ("", "9p", Category.NO_SUJI_19),
        ("2m", "5m", Category.HALF_SUJI_5),
        ("1m", "4m", Category.HALF_SUJI_46_OUTER),
        ("7m", "4m", Category.HALF_SUJI_46_INNER),
        ("9m", "6m", Category.HALF_SUJI_46_OUTER),
        ("3m", "6m", Category.HALF_SUJI_46_INNER),
        ("6s", "3s", Category.SUJI_37),
        ("5p", "8p", Category.SUJI_28),
        ("4s", "1s", Category.SUJI_19),
        ("28m", "5m", Category.DOUBLE_SUJI_5),
        ("17p", "4p", Category.DOUBLE_SUJI_46),
        ("", "5z", Category.VALUE_HONOR_LEFT_3),
        ("6z", "6z", None),
        ("", "2z", Category.GUEST_WIND_LEFT_3),
    ],
)
def test_fresh_tables_give_the_published_rates(river: str, tile: str, category: Category | None) -> None:
    """With every needed tile fully unseen, the danger is the table's entry."""
    opponent = Opponent(PADDING + (tuple(parse_mpsz(river)) if river else ()), riichi=True)
    for turn in (3, 9, 15):
        verdict = _one(opponent, tile, bytes([4] * NUM_TILE_KINDS), turn=turn)
        assert verdict.danger == pytest.approx(0.0 if category is None else _rate(turn, category))


def test_honours_follow_the_copies_left() -> None:
    declared = Opponent(riichi=True)
    fresh = _one(declared, "6z", _unseen("6z"))
    one_seen = _one(declared, "6z", _unseen("66z"))
    two_seen = _one(declared, "6z", _unseen("666z"))
    assert fresh.danger == pytest.approx(_rate(9, Category.VALUE_HONOR_LEFT_3))
    assert one_seen.danger == pytest.approx(_rate(9, Category.VALUE_HONOR_LEFT_2))
    assert two_seen.danger == pytest.approx(_rate(9, Category.VALUE_HONOR_LEFT_1))
    assert fresh.reasons == ("honor_fresh",) and two_seen.reasons == ("honor_two_seen",)


def test_no_chance_and_one_chance_lower_the_danger() -> None:
    declared = Opponent(riichi=True)
    # 1m is hit by the ryanmen 23m; with all 2m visible it is as safe as a suji 1m.
    assert _one(declared, "1m", _unseen("1m2222m")).danger == pytest.approx(_rate(9, Category.SUJI_19))
    open_side = _one(declared, "1m", _unseen("1m")).danger
    one_chance = _one(declared, "1m", _unseen("1m222m"))
    assert _rate(9, Category.SUJI_19) < one_chance.danger < open_side
    assert Reason.ONE_CHANCE.value in one_chance.reasons


def test_early_outside_tiles_keep_forty_percent() -> None:
    early = Opponent(tuple(parse_mpsz("3m")) + tuple(parse_mpsz("1z")) * 6, riichi=True)
    late = Opponent(tuple(parse_mpsz("1z")) * 6 + tuple(parse_mpsz("3m")), riichi=True)
    unseen = bytes([4] * NUM_TILE_KINDS)
    assert _one(early, "2m", unseen).danger == pytest.approx(EARLY_OUTSIDE_FACTOR * _one(late, "2m", unseen).danger)
    assert Reason.EARLY_OUTSIDE.value in _one(early, "1m", unseen).reasons


# --- rules ----------------------------------------------------------------------------------------


def test_furiten_is_a_rule_profile_field() -> None:
    assert {name: rule_profile(name).furiten for name in ("riichi", "chinese", "qiqihar")} == {
        "riichi": True,
        "chinese": False,
        "qiqihar": False,
    }
    assert defence_rules(rule_profile("riichi", furiten=False)).furiten is False
    assert defence_rules(rule_profile("riichi", seven_pairs="quad_as_two")).furiten  # overrides keep the name


def test_without_furiten_genbutsu_and_suji_weigh_less() -> None:
    unseen = bytes([4] * NUM_TILE_KINDS)
    declared = Opponent(tuple(parse_mpsz("5m9p")), riichi=True)
    plain = Opponent(tuple(parse_mpsz("9p9p")), riichi=True)
    for rules in (CHINESE,):
        genbutsu = _one(declared, "5m", unseen, rules)
        assert 0.0 < genbutsu.danger == pytest.approx(GENBUTSU_LEAK * _one(plain, "5m", unseen, rules).danger)
        assert _one(declared, "5m", unseen, RIICHI).danger == 0.0
        suji = _one(declared, "8m", unseen, rules).danger  # its partner 5m is in the river
        assert _rate(9, Category.SUJI_28) < suji < _rate(9, Category.NO_SUJI_28)
        assert Reason.NO_FURITEN.value in _one(declared, "8m", unseen, rules).reasons


def test_passes_after_a_declaration_are_safe_only_with_furiten() -> None:
    declarer = Opponent(tuple(parse_mpsz("19p1z")), riichi=True, riichi_turn=2)
    other = Opponent(tuple(parse_mpsz("9s5m6m")))
    passed = passed_after_riichi([declarer, other], 0)
    # The other player's second discard may have come before the declaration: only the third counts.
    assert passed == {parse_tile("6m")}
    unseen = _unseen("19p1z9s56m")
    riichi = assess(declarer, [parse_tile("6m")], unseen=unseen, rules=RIICHI, passed=passed)[0]
    chinese = assess(declarer, [parse_tile("6m")], unseen=unseen, rules=CHINESE, passed=passed)[0]
    assert riichi.safety == 1.0 and riichi.reasons == ("passed_after_riichi",)
    assert chinese.safety < 1.0


def test_qiqihar_opponents_without_an_exposed_pon_cannot_win() -> None:
    unseen = _unseen("5m")
    closed = Opponent(tuple(parse_mpsz("1p")), riichi=True)
    assert _one(closed, "5m", unseen, QIQIHAR).reasons == ("cannot_win",)
    assert _one(closed, "5m", unseen, QIQIHAR).safety == 1.0
    called = Opponent(tuple(parse_mpsz("1p")), riichi=True, melds=(PON,))
    verdict = _one(called, "5m", unseen, QIQIHAR)
    assert verdict.safety < 1.0 and Reason.WILDCARD_RISK.value in verdict.reasons


def test_wildcards_blend_toward_the_plain_rate() -> None:
    called = Opponent(tuple(parse_mpsz("2m8m")), riichi=True, melds=(PON,))
    unseen = bytes([4] * NUM_TILE_KINDS)
    with_wilds = _one(called, "5m", unseen, QIQIHAR).danger_if_ready
    no_wilds = _one(called, "5m", unseen[:33] + b"\x00", QIQIHAR).danger_if_ready
    assert no_wilds < with_wilds < _rate(9, Category.NO_SUJI_5)


# --- readiness ------------------------------------------------------------------------------------


def test_ready_probability_grows_with_turn_and_calls() -> None:
    for calls in range(4):
        melds = (PON,) * calls
        values = [_ready_probability(turn, melds) for turn in range(25)]
        # Non-decreasing up to the published data's noise (87.26 % then 87.24 % with three calls).
        assert all(later >= earlier - 0.001 for earlier, later in itertools.pairwise(values))
        assert all(0.0 <= v <= 1.0 for v in values)
    assert _ready_probability(9, (PON,) * 4) == 1.0
    assert _ready_probability(9, ()) < _ready_probability(9, (PON,)) < _ready_probability(9, (PON, PON))


def test_an_undeclared_opponent_scales_the_danger_down() -> None:
    unseen = bytes([4] * NUM_TILE_KINDS)
    declared = _one(Opponent(riichi=True), "5m", unseen)
    silent = _one(Opponent(), "5m", unseen)
    assert silent.danger_if_ready == declared.danger_if_ready
    # No turn given: the pooled turn (9), 8 turns left, where 2,019 of 37,059 silent closed hands were ready.
    assert silent.danger == pytest.approx(declared.danger * 2019 / 37059)
    assert Reason.NOT_DECLARED.value in silent.reasons
    # The model before the reads: the share of all players ready after 9 discards.
    unseen_copies = bytes([4] * NUM_TILE_KINDS)
    (before,) = assess(
        Opponent(),
        parse_mpsz("5m"),
        unseen=unseen_copies,
        rules=rule_profile("riichi"),
        closed_rates=ClosedRates.ALL_PLAYERS,
    )
    assert before.danger == pytest.approx(declared.danger * 0.231)


def test_combined_safety_is_the_product() -> None:
    verdicts = [TileSafety(1 - d, d, d, 1.0, ()) for d in (0.1, 0.2, 0.05)]
    assert combined_safety(verdicts) == pytest.approx(0.9 * 0.8 * 0.95)
    assert combined_safety(reversed(verdicts)) == pytest.approx(combined_safety(verdicts))
    assert combined_safety([]) == 1.0


def test_opponent_validation() -> None:
    with pytest.raises(InvalidOpponent):
        Opponent(river=(0, 1), riichi=False, riichi_turn=1).validate()
    with pytest.raises(InvalidOpponent):
        Opponent(river=(0, 1), riichi=True, riichi_turn=0).validate()
    Opponent(river=(0, 1), riichi=True, riichi_turn=2).validate()


def test_the_rows_the_model_reads_order_their_corners() -> None:
    """More evidence never means more danger: each row's corners are ordered, turn by turn."""
    from app.core.advice.safety import _ROWS

    for row in _ROWS:
        assert row[Category.DOUBLE_SUJI_5] <= row[Category.HALF_SUJI_5] <= row[Category.NO_SUJI_5]
        halves = (row[Category.HALF_SUJI_46_OUTER], row[Category.HALF_SUJI_46_INNER])
        assert row[Category.DOUBLE_SUJI_46] <= min(halves) and max(halves) <= row[Category.NO_SUJI_46]
        for suji, no_suji in (
            (Category.SUJI_37, Category.NO_SUJI_37),
            (Category.SUJI_28, Category.NO_SUJI_28),
            (Category.SUJI_19, Category.NO_SUJI_19),
        ):
            assert row[suji] <= row[no_suji]


@pytest.mark.parametrize(
    ("river", "tile", "category"),
    [
        ("", "5m", Category.NO_SUJI_5),
        ("", "1p", Category.NO_SUJI_19),
        ("4s", "1s", Category.SUJI_19),
        ("28m", "5m", Category.DOUBLE_SUJI_5),
        ("", "5z", Category.VALUE_HONOR_LEFT_3),
        ("", "2z", Category.GUEST_WIND_LEFT_3),
    ],
)
def test_a_dora_at_turn_nine_gives_the_published_dora_rate(river: str, tile: str, category: Category) -> None:
    """With every needed tile fully unseen, a dora's danger at turn 9 is mahjong-helper's dora
    figure, and at other turns the plain rate scaled by the same ratio."""
    opponent = Opponent(PADDING + (tuple(parse_mpsz(river)) if river else ()), riichi=True)
    kind = parse_tile(tile)
    fresh = bytes([4] * NUM_TILE_KINDS)
    for turn in (3, 9, 15):
        plain = assess(opponent, [kind], unseen=fresh, rules=RIICHI, turn=turn)[0]
        dora = assess(opponent, [kind], unseen=fresh, rules=RIICHI, turn=turn, dora=frozenset({kind}))[0]
        ratio = DORA_DEAL_IN_TURN_9[category] / DEAL_IN_BY_TURN[8][category]
        assert dora.danger == pytest.approx(plain.danger * ratio)
        assert Reason.DORA.value in dora.reasons and Reason.DORA.value not in plain.reasons
    assert dora_rate_at_nine(opponent, kind) == pytest.approx(DORA_DEAL_IN_TURN_9[category] / 100)


def dora_rate_at_nine(opponent: Opponent, kind: int) -> float:
    fresh = bytes([4] * NUM_TILE_KINDS)
    return assess(opponent, [kind], unseen=fresh, rules=RIICHI, turn=9, dora=frozenset({kind}))[0].danger


@SETTINGS
@given(situations())
def test_being_dora_never_makes_a_tile_safer(situation) -> None:
    """Every published dora rate is above its plain one, so reading the dora only adds danger;
    a tile the model calls safe (genbutsu, no copy left) stays safe."""
    hand, opponent, unseen, rules, turn = situation
    tiles = sorted(set(hand))
    plain = assess(opponent, tiles, unseen=unseen, rules=rules, turn=turn)
    for tile, before in zip(tiles, plain, strict=True):
        after = assess(opponent, [tile], unseen=unseen, rules=rules, turn=turn, dora=frozenset({tile}))[0]
        assert after.danger >= before.danger - 1e-12
        if before.danger == 0.0:
            assert after.danger == 0.0


def test_the_opponents_value_winds_read_as_value_honours() -> None:
    """East against the dealer (or in the East round) is a value honour: the table's value
    column; South to the same seat stays a guest wind."""
    dealer = Opponent(PADDING, riichi=True, value_winds=frozenset(parse_mpsz("1z")))
    fresh = bytes([4] * NUM_TILE_KINDS)
    east, south = assess(dealer, parse_mpsz("12z"), unseen=fresh, rules=RIICHI, turn=9)
    assert east.danger == pytest.approx(_rate(9, Category.VALUE_HONOR_LEFT_3))
    assert south.danger == pytest.approx(_rate(9, Category.GUEST_WIND_LEFT_3))
    unknown = assess(Opponent(PADDING, riichi=True), parse_mpsz("1z"), unseen=fresh, rules=RIICHI, turn=9)[0]
    assert unknown.danger == pytest.approx(_rate(9, Category.GUEST_WIND_LEFT_3))
