"""The engine against brute-force oracles on thousands of seeded random hands.

First the oracles are checked against each other (branch and bound vs every
complete hand; the batch DP vs branch and bound; wildcard shanten by
substitution vs by definition), then the engine is compared with them under
every rule profile that changes an answer: seven pairs distinct / quad as two,
wildcards (qiqihar's 7z, and 7z in riichi and chinese rules so that seven pairs
and thirteen orphans meet wildcards), the open-meld precondition, and melded
tiles counting toward the 4-copy limit.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass

import numpy as np
import oracles as O
import pytest
from oracle_sample import scaled
from random_hands import random_hand

from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld
from app.core.shape.rules import rule_profile

# Large comparisons: the full suite runs them, the fast tier does not.
pytestmark = pytest.mark.slow

# --- helpers ----------------------------------------------------------------------


def engine_hand(counts, melds, *, validate: bool = True) -> Hand:
    hand = Hand(bytes(counts), tuple(Meld.of(kind, tiles) for kind, tiles in melds))
    if validate:
        hand.validate()
    return hand


def reading(decomposition, wild_tiles) -> O.Reading:
    """An engine Decomposition in the oracle's terms (checking the wildcard side)."""
    assert all(wild in wild_tiles for wild, _ in decomposition.wildcards), decomposition
    stand_ins = tuple(stand for _, stand in decomposition.wildcards)
    assert list(stand_ins) == sorted(stand_ins), decomposition
    return (
        decomposition.form,
        decomposition.pair,
        tuple(decomposition.melds),
        tuple(decomposition.pairs),
        tuple(decomposition.singles),
        stand_ins,
    )


def describe(counts, melds) -> str:
    names = [f"{t % 9 + 1}{'mpsz'[t // 9]}" for t in range(34) for _ in range(counts[t])]
    return "".join(names) + (f" melds={melds}" if melds else "")


@dataclass(frozen=True)
class Profile:
    name: str
    preset: str
    overrides: tuple[tuple[str, object], ...] = ()
    quad_pairs: bool = False

    @property
    def rules(self):
        return rule_profile(self.preset, **dict(self.overrides))


PROFILES = (
    Profile("riichi", "riichi"),
    Profile("chinese", "chinese", quad_pairs=True),
    Profile("qiqihar", "qiqihar"),
    Profile("qiqihar_counting_melds", "qiqihar", (("melded_tiles_count_toward_limit", True),)),
    Profile("riichi_counting_melds", "riichi", (("melded_tiles_count_toward_limit", True),)),
    Profile("riichi_wild_7z", "riichi", (("wildcards", [33]),)),
    Profile("chinese_wild_7z", "chinese", (("wildcards", [33]),), quad_pairs=True),
)
#: Per profile: this many 3n+2 hands and this many 3n+1 hands, 120 (250 under --full-oracles);
#: TENPAI_ORACLE_HANDS sets any other number, for a deeper run.
HANDS_PER_SIZE = int(os.environ.get("TENPAI_ORACLE_HANDS") or scaled(full=250, sample=120))
WILD_WEIGHTS = (0, 0, 0, 1, 1, 1, 2, 2, 3, 4)  # how many wildcards a wildcard profile's hand holds
#: Tenpai hands per wildcard count whose waits are also found by substitution (4 wildcards: ~0.5 s each).
SUBSTITUTION_BUDGET = {0: 10**6, 1: 10**6, 2: 30, 3: 8, 4: 3}


def profile_hands(profile: Profile, remainder: int) -> list[tuple[tuple[int, ...], list[O.Meld]]]:
    rng = random.Random(f"{profile.name}-{remainder}")
    rules = profile.rules
    hands = []
    for i in range(HANDS_PER_SIZE):
        wilds = rng.choice(WILD_WEIGHTS) if rules.wildcards else 0
        style = ("near", "crowded", "uniform", "crowded", "pairs", "orphans")[i % 6]
        hands.append(
            random_hand(
                rng,
                remainder=remainder,
                wild_tiles=rules.wildcards,
                wilds=wilds,
                style=style,
                quad_pairs=profile.quad_pairs,
            )
        )
    return hands


# --- the oracles against each other ------------------------------------------------------


def _random_small_hand(rng: random.Random, size: int) -> tuple[int, ...]:
    counts = [0] * 34
    while sum(counts) < size:
        # Mostly one or two suits so that groups actually form.
        tile = rng.choice(range(9) if rng.random() < 0.6 else range(34))
        if counts[tile] < 4:
            counts[tile] += 1
    return tuple(counts)


@pytest.mark.parametrize("melds_wanted", [0, 1, 2])
def test_search_matches_every_complete_hand(melds_wanted):
    rng = random.Random(melds_wanted)
    complete = O.complete_hand_rows(melds_wanted)
    for _ in range(150):
        size = 3 * melds_wanted + rng.choice((1, 2))
        counts = _random_small_hand(rng, size)
        caps = tuple(rng.choice((4, 4, 4, 3, 2, 1)) if i < 9 else 4 for i in range(34))
        caps = tuple(max(c, h) for c, h in zip(caps, counts, strict=True))
        capped = complete[(complete <= np.array(caps, dtype=np.int8)).all(axis=1)]
        expected = O.regular_distance_by_enumeration(np.array([counts]), capped)[0]
        assert O.regular_distance(counts, melds_wanted, caps) == expected, (counts, caps)


def test_search_matches_every_complete_hand_three_melds():
    rng = random.Random(3)
    complete = O.complete_hand_rows(3)
    hands = [_random_small_hand(rng, 9 + rng.choice((1, 2))) for _ in range(30)]
    expected = O.regular_distance_by_enumeration(np.array(hands), complete)
    assert [O.regular_distance(h, 3) for h in hands] == expected.tolist()


def test_batch_dp_matches_search():
    rng = random.Random(11)
    hands, wanted, caps = [], [], []
    for i in range(300):
        counts, melds = random_hand(rng, remainder=1 + i % 2)
        hands.append(counts)
        wanted.append(sum(counts) // 3)
        caps.append(O.caps_for(melds, O.OracleRules(melded_limit=True)))
    batch = O.regular_distance_batch(np.array(hands), np.array(wanted), np.array(caps))
    for counts, m, cap, value in zip(hands, wanted, caps, batch, strict=True):
        assert O.regular_distance(counts, m, cap) == value, (counts, cap)


@pytest.mark.parametrize("profile", [p for p in PROFILES if p.rules.wildcards], ids=lambda p: p.name)
def test_wildcard_shanten_by_substitution_matches_definition(profile):
    rules = O.OracleRules.of(profile.rules)
    rng = random.Random(profile.name)
    checked = 0
    for i in range(16):
        counts, melds = random_hand(
            rng,
            remainder=1 + i % 2,
            wild_tiles=rules.wildcards,
            wilds=(1, 1, 2, 2, 2, 2, 2, 3)[i % 8],
            quad_pairs=profile.quad_pairs,
        )
        by_definition = O.shanten(counts, melds, rules)["shanten"]
        assert O.shanten_by_substitution(counts, melds, rules) == by_definition, describe(counts, melds)
        checked += 1
    assert checked == 16


# --- the engine against the oracles ----------------------------------------------------------


_CHECKERS: dict[str, Checker] = {}


def _checker(profile: Profile) -> Checker:
    if profile.name not in _CHECKERS:
        _CHECKERS[profile.name] = Checker(profile.rules)
    return _CHECKERS[profile.name]


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_shanten_and_ukeire_agree(profile):
    rules = O.OracleRules.of(profile.rules)
    checker = _checker(profile)
    hands = profile_hands(profile, 1) + profile_hands(profile, 2)
    # Every hand and, for 3n+1 hands, the hand after each possible draw: one batch.
    questions = list(hands)
    draws = {}
    for index, (counts, melds) in enumerate(hands):
        if sum(counts) % 3 == 1:
            for tile in O.drawable_tiles(counts, melds, rules):
                draws[index, tile] = len(questions)
                questions.append((O.plus(counts, tile), melds))
    answers = O.shanten_many(questions, rules)
    for index, (counts, melds) in enumerate(hands):
        hand = engine_hand(counts, melds)
        result = checker.shanten(hand)
        expected = answers[index]
        got = {
            "regular": result.regular,
            "seven_pairs": result.seven_pairs,
            "thirteen_orphans": result.thirteen_orphans,
            "shanten": result.shanten,
        }
        assert got == expected, describe(counts, melds)
        if index % 6 == 0:  # the branch-and-bound oracle too, on a sixth of the hands
            assert O.shanten(counts, melds, rules) == expected, describe(counts, melds)
        if sum(counts) % 3 == 1:
            improving = [
                t
                for t in O.drawable_tiles(counts, melds, rules)
                if answers[draws[index, t]]["shanten"] < expected["shanten"]
            ]
            assert [u.tile for u in result.ukeire] == improving, describe(counts, melds)
            seen = hand.all_counts()
            assert all(u.remaining == 4 - seen[u.tile] for u in result.ukeire)
        else:
            assert result.ukeire is None


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_waits_agree(profile):
    rules = O.OracleRules.of(profile.rules)
    checker = _checker(profile)
    hands = profile_hands(profile, 1)
    questions = list(hands)
    for counts, melds in hands:
        questions += [(O.plus(counts, t), melds) for t in O.drawable_tiles(counts, melds, rules)]
    answers = iter(O.shanten_many(questions, rules)[len(hands) :])
    by_substitution = {0: 0, 1: 0, 2: 0, 3: 0, 4: 0}
    for index, (counts, melds) in enumerate(hands):
        hand = engine_hand(counts, melds)
        result = checker.waits(hand)
        # By definition: a draw after which the hand is complete (shanten -1).
        expected = [t for t in O.drawable_tiles(counts, melds, rules) if next(answers)["shanten"] == -1]
        assert list(result.shape_waits) == expected, describe(counts, melds)
        wilds = O.split_wildcards(counts, rules)[1]
        # By substitution, on tenpai hands (a few with 3-4 wildcards, the slow cases) and a sample of others.
        if (expected and by_substitution[wilds] < SUBSTITUTION_BUDGET[wilds]) or (index % 16 == 0 and wilds <= 1):
            assert O.shape_waits(counts, melds, rules) == expected, describe(counts, melds)
            by_substitution[wilds] += 1
        if expected and not O.precondition_met(melds, rules):
            assert result.waits == () and not result.tenpai and result.reason == "open_meld_required"
        else:
            assert [w.tile for w in result.waits] == expected and result.reason is None
            assert result.tenpai == bool(expected)
            seen = hand.all_counts()
            assert [w.remaining for w in result.waits] == [4 - seen[t] for t in expected]
            assert result.karaten == (bool(expected) and all(w.remaining == 0 for w in result.waits))
    assert sum(by_substitution.values()) > 30
    if rules.wildcards:
        assert all(by_substitution[w] for w in range(5)), by_substitution


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_win_and_decompositions_agree(profile):
    rules = O.OracleRules.of(profile.rules)
    checker = _checker(profile)
    wins = 0
    duplicates = []
    for counts, melds in profile_hands(profile, 2):
        hand = engine_hand(counts, melds)
        result = checker.win(hand, limit=10**6)
        readings = O.win_readings(counts, melds, rules)
        engine_readings = [reading(d, rules.wildcards) for d in result.decompositions]
        assert set(engine_readings) == readings, describe(counts, melds)
        if len(engine_readings) != len(set(engine_readings)):
            duplicates.append(describe(counts, melds))
        assert not result.truncated
        assert result.complete_shape == bool(readings)
        met = O.precondition_met(melds, rules)
        assert result.win == (bool(readings) and met), describe(counts, melds)
        assert checker.is_win(hand) == result.win
        assert result.reason == ("open_meld_required" if readings and not met else None)
        if len(readings) >= 2:  # the limit cuts the list and says so
            cut = checker.win(hand, limit=len(readings) - 1)
            assert cut.truncated and len(cut.decompositions) == len(readings) - 1
            assert {reading(d, rules.wildcards) for d in cut.decompositions} <= readings
            exact = checker.win(hand, limit=len(readings))
            assert not exact.truncated and len(exact.decompositions) == len(readings), describe(counts, melds)
        if readings:
            forms = {r[0] for r in readings}
            assert result.form == next(f for f in ("regular", "seven_pairs", "thirteen_orphans") if f in forms)
            wins += 1
    assert wins >= HANDS_PER_SIZE // 5, wins  # about 30% of the 3n+2 hands are complete
    # Each way to read a hand should be listed once.
    assert not duplicates, f"{len(duplicates)} hands list a decomposition twice, e.g. {duplicates[:3]}"


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_discards_agree(profile):
    rules = O.OracleRules.of(profile.rules)
    checker = _checker(profile)
    hands = profile_hands(profile, 2)[::2]
    questions = [(O.minus(counts, t), melds) for counts, melds in hands for t in range(34) if counts[t]]
    answers = iter(O.shanten_many(questions, rules))
    for counts, melds in hands:
        options = checker.discards(engine_hand(counts, melds))
        assert [o.tile for o in options] == [t for t in range(34) if counts[t]]
        for option in options:
            assert option.shanten == next(answers)["shanten"], (describe(counts, melds), option.tile)


# --- the chinese seven pairs: four of a kind counts as two pairs ------------------------------


@pytest.mark.parametrize(
    ("tiles", "chinese", "riichi"),
    [
        # 1111m 22p 33p 44s 55s 66s: two pairs of 1m under chinese rules, 1-shanten under riichi's.
        ([0, 0, 0, 0, 10, 10, 11, 11, 21, 21, 22, 22, 23, 23], -1, 1),
        # Two quads and three pairs.
        ([0, 0, 0, 0, 9, 9, 9, 9, 27, 27, 28, 28, 29, 29], -1, 3),
        # A triple is a pair plus a single toward the quad: tenpai on the fourth copy.
        ([0, 0, 0, 9, 9, 18, 18, 27, 27, 28, 28, 29, 29], 0, 1),
    ],
)
def test_quad_as_two_pairs(tiles, chinese, riichi):
    hand = Hand.from_tiles(tiles)
    assert Checker(rule_profile("chinese")).shanten(hand).seven_pairs == chinese
    assert Checker(rule_profile("riichi")).shanten(hand).seven_pairs == riichi
    counts = hand.counts
    assert O.seven_pairs_distance(counts, quad_as_two=True) - 1 == chinese
    assert O.seven_pairs_distance(counts, quad_as_two=False) - 1 == riichi
    if len(tiles) == 14:
        result = Checker(rule_profile("chinese")).win(hand)
        assert result.win and "seven_pairs" in {d.form for d in result.decompositions}
        assert not Checker(rule_profile("riichi")).is_win(hand)


def test_random_closed_hands_under_quad_as_two():
    rules = O.OracleRules(seven_pairs="quad_as_two")
    checker = Checker(rule_profile("chinese"))
    rng = random.Random("quads")
    for i in range(400):
        counts, melds = random_hand(rng, remainder=1 + i % 2, style="pairs", quad_pairs=True)
        result = checker.shanten(engine_hand(counts, melds))
        assert result.seven_pairs == O.seven_pairs_distance(counts, quad_as_two=True) - 1, describe(counts, melds)
        if sum(counts) == 14:
            readings = {r for r in O.win_readings(counts, melds, rules) if r[0] == "seven_pairs"}
            engine = {reading(d, ()) for d in checker.win(engine_hand(counts, melds)).decompositions}
            assert {r for r in engine if r[0] == "seven_pairs"} == readings


# --- the 4-copy limit across hand and melds, by hand ------------------------------------------

PON_1M = [("pon", (0, 0, 0))]
PIN_RUN = [9, 10, 11, 12, 13, 14, 15, 16, 17]  # 123456789p


@pytest.mark.parametrize(
    ("preset", "counting", "expected_shanten", "expected_waits"),
    [
        # Tenhou's reading: the last 1m is in the pon, yet the tanki on 1m is a (dead) wait.
        ("riichi", False, 0, [0]),
        # Counting melded copies: 1m cannot pair, so the hand is 1-shanten.
        ("riichi", True, 1, []),
    ],
)
def test_lone_tile_whose_copies_are_melded(preset, counting, expected_shanten, expected_waits):
    counts = tuple(1 if t in PIN_RUN or t == 0 else 0 for t in range(34))
    profile = rule_profile(preset, melded_tiles_count_toward_limit=counting)
    checker = Checker(profile)
    hand = engine_hand(counts, PON_1M)
    assert checker.shanten(hand).shanten == expected_shanten
    result = checker.waits(hand)
    assert list(result.shape_waits) == expected_waits
    if expected_waits:
        assert [w.remaining for w in result.waits] == [0] and result.karaten
    rules = O.OracleRules.of(profile)
    assert O.shanten(counts, PON_1M, rules)["shanten"] == expected_shanten
    assert O.shape_waits(counts, PON_1M, rules) == expected_waits


@pytest.mark.parametrize("counting", [False, True])
def test_wildcard_cannot_stand_for_a_copy_locked_in_a_meld(counting):
    # 7z + 123456789p with a pon of 1m: the red dragon pairs with whatever is drawn...
    counts = tuple(1 if t in PIN_RUN or t == 33 else 0 for t in range(34))
    profile = rule_profile("qiqihar", melded_tiles_count_toward_limit=counting)
    checker = Checker(profile)
    hand = engine_hand(counts, PON_1M)
    expected = [t for t in range(34) if not (counting and t == 0)]  # ...but not 1m when melded copies count
    assert [w.tile for w in checker.waits(hand).waits] == expected
    assert O.shape_waits(counts, PON_1M, O.OracleRules.of(profile)) == expected
    grown = engine_hand(O.plus(counts, 0), PON_1M, validate=False)
    assert checker.win(grown).win is not counting
