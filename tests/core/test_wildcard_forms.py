"""The two wildcard rule options against brute force, on Hypothesis-generated hands.

``wildcards_in_seven_pairs`` off (Hunan 红中麻将: "胡7对时红中不能作为万能牌使用"): in seven pairs a
wildcard is a plain tile of its own kind, while the regular form (and thirteen orphans) still
take it as any tile.  ``wildcards_held_win`` (红中麻将: "摸到四张红中，自动胡牌"; Guangdong 推倒胡:
"满鬼 ... 手上有4张鬼牌,可直接胡牌"): holding that many wildcards concealed is a form of its own.

Two kinds of profile, each with the options on and off: Hunan's (112 tiles: every honour but 中
absent, 中 wild, no chi, seven pairs) and a Guangdong-like one (136 tiles, a ghost chosen for the
hand: 5p).  On every hand size (1 to 14 concealed tiles, the rest melded) with 0-4 wildcards,
the engine's win, shanten per form and overall, improving draws, waits and discards, and the
batch path, must agree with the oracles of ``oracles.py``: by definition (each form's distance
from the plain part's, the wildcards credited) and by substitution (every existing tile each
wildcard may stand for, and, in seven pairs with the option off, the wildcard as itself).
"""

from __future__ import annotations

import random

import numpy as np
import oracles as O
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracle_sample import scaled

from app.core.shape.batch import NOT_APPLICABLE, analyse_batch
from app.core.shape.engine import FORMS, Checker
from app.core.shape.hand import Hand, Meld
from app.core.shape.rules import rule_profile

RED = 33
GHOST = 13  # 5p, Guangdong's ghost for these hands (翻鬼 chooses one per hand)


def hunan(*, in_pairs: bool, held: int | None, seven_pairs: str = "distinct"):
    """Hunan 红中麻将's shape rules: 112 tiles (the suits and 红中), 红中 wild, no chi, seven pairs."""
    return rule_profile(
        "qiqihar",
        seven_pairs=seven_pairs,
        win_requires_meld=[],
        absent_tiles="123456z",
        chi_allowed=False,
        wildcards_in_seven_pairs=in_pairs,
        wildcards_held_win=held,
    )


def guangdong(*, in_pairs: bool, held: int | None, seven_pairs: str = "quad_as_two"):
    """Guangdong-like shape rules: 136 tiles, one ghost (5p), seven pairs and thirteen orphans, no chi."""
    return rule_profile(
        "chinese",
        seven_pairs=seven_pairs,
        wildcards="5p",
        chi_allowed=False,
        wildcards_in_seven_pairs=in_pairs,
        wildcards_held_win=held,
    )


PROFILES = {
    # The rule text's reading: plain 红中 in seven pairs, four 红中 win.
    "hunan": hunan(in_pairs=False, held=4),
    "hunan_wild_pairs": hunan(in_pairs=True, held=None),
    "hunan_plain_quads": hunan(in_pairs=False, held=None, seven_pairs="quad_as_two"),
    "hunan_wild_quads_held": hunan(in_pairs=True, held=4, seven_pairs="quad_as_two"),
    "guangdong": guangdong(in_pairs=True, held=4),
    "guangdong_plain_pairs": guangdong(in_pairs=False, held=4, seven_pairs="distinct"),
    "guangdong_plain_quads": guangdong(in_pairs=False, held=None),
}
#: Hunan's set lacks honours: the batch path refuses absent tiles, so it takes the others.
BATCH_PROFILES = [name for name, profile in PROFILES.items() if not profile.absent_tiles]
#: Examples per test: a sample by default (about a minute for the module), more under --full-oracles.
SETTINGS = settings(max_examples=scaled(full=150, sample=20), deadline=None, suppress_health_check=list(HealthCheck))
#: The substitution oracle enumerates every multiset of stand-ins: affordable up to this many.
SUBSTITUTED_WILDS = 3
DRAWS_SUBSTITUTED_WILDS = 2


@st.composite
def wild_hands(draw, rules, remainder: int) -> tuple[tuple[int, ...], list[O.Meld]]:
    """A valid hand of 3n + ``remainder`` concealed tiles, 0-4 pon or kong melds and 0-4 wildcards,
    mostly near a complete hand (regular or seven pairs) so that wins and waits are common.

    A hand of the winning size is built first (groups and a pair, seven pairs which may hold a
    pair of the wildcard itself, or tiles of one suit), then some of its tiles become wildcards
    and, for a 3n+1 hand, one tile goes."""
    wild = rules.wildcards[0]
    tiles = [t for t in range(34) if t not in rules.absent_tiles and t != wild]
    used = [0] * 34
    melds: list[O.Meld] = []
    for _ in range(draw(st.sampled_from((0, 0, 0, 1, 2, 3, 4)))):  # closed hands often: seven pairs
        kind = draw(st.sampled_from(("pon", "pon", "open_kan", "closed_kan")))
        tile = draw(st.sampled_from(tiles))
        size = 3 if kind == "pon" else 4
        if used[tile] + size <= 4:
            used[tile] += size
            melds.append((kind, (tile,) * size))
    target = 3 * (4 - len(melds)) + 2  # the winning size
    counts = [0] * 34

    def add(tile: int) -> None:
        if used[tile] + counts[tile] < 4 and sum(counts) < target:
            counts[tile] += 1

    style = draw(st.sampled_from(("near", "near", "pairs", "pairs", "one suit")))
    if style == "pairs" and not melds:
        for tile in draw(st.lists(st.sampled_from([*tiles, wild, wild, wild]), min_size=7, max_size=7)):
            add(tile)
            add(tile)
    elif style == "near":
        for _ in range(4 - len(melds)):
            start = draw(st.sampled_from(tiles))
            if start < 27 and start % 9 <= 6 and draw(st.booleans()):
                for tile in (start, start + 1, start + 2):
                    add(tile)
            else:
                for _ in range(3):
                    add(start)
        pair = draw(st.sampled_from(tiles))
        add(pair)
        add(pair)
    # The rest (or, for a near hand, the tiles that did not fit): mostly one suit, so that shapes form.
    suit = draw(st.integers(0, 2))
    pool = [t for t in tiles if 9 * suit <= t < 9 * suit + 9] * 3 + tiles
    for tile in draw(st.lists(st.sampled_from(pool), min_size=target, max_size=target)):
        add(tile)
    for tile in tiles:  # what is still missing, in tile order (rare: the draws above were full)
        while sum(counts) < target and used[tile] + counts[tile] < 4:
            counts[tile] += 1
    # Some tiles become wildcards (four copies at most), then a 3n+1 hand gives one tile up.
    for _ in range(draw(st.sampled_from(range(5 - counts[wild])))):
        plain = [t for t in range(34) if counts[t] and t != wild]
        if not plain:
            break
        tile = draw(st.sampled_from(plain))
        counts[tile] -= 1
        counts[wild] += 1
    if remainder == 1:
        counts[draw(st.sampled_from([t for t in range(34) if counts[t]]))] -= 1
    return tuple(counts), melds


def engine_hand(counts, melds) -> Hand:
    hand = Hand(bytes(counts), tuple(Meld.of(kind, tiles) for kind, tiles in melds))
    hand.validate()
    return hand


def describe(counts, melds) -> str:
    names = [f"{t % 9 + 1}{'mpsz'[t // 9]}" for t in range(34) for _ in range(counts[t])]
    return "".join(names) + (f" melds={melds}" if melds else "")


def engine_forms(result) -> dict[str, int | None]:
    return {
        "regular": result.regular,
        "seven_pairs": result.seven_pairs,
        "thirteen_orphans": result.thirteen_orphans,
        "wildcards_held": result.wildcards_held,
        "shanten": result.shanten,
    }


def reading(decomposition) -> O.Reading:
    return (
        decomposition.form,
        decomposition.pair,
        tuple(decomposition.melds),
        tuple(decomposition.pairs),
        tuple(decomposition.singles),
        tuple(stand for _, stand in decomposition.wildcards),
    )


def held(counts, rules: O.WildRules) -> int:
    return sum(counts[t] for t in rules.wildcards)


profiles = pytest.mark.parametrize("name", sorted(PROFILES))


@profiles
@pytest.mark.parametrize("remainder", [1, 2])
def test_shanten_per_form_agrees(name, remainder):
    profile = PROFILES[name]
    rules = O.WildRules.of(profile)
    checker = Checker(profile)

    @SETTINGS
    @given(wild_hands(profile, remainder))
    def check(case):
        counts, melds = case
        got = engine_forms(checker.shanten(engine_hand(counts, melds), with_ukeire=False))
        assert got == O.wild_shanten(O.wild_form_distances(counts, melds, rules)), describe(counts, melds)
        if held(counts, rules) <= SUBSTITUTED_WILDS:
            by_substitution = O.wild_shanten_by_substitution_many([(counts, melds)], rules)[0]
            assert got == by_substitution, describe(counts, melds)
        assert checker.shanten_number(engine_hand(counts, melds)) == got["shanten"]

    check()


@profiles
def test_improving_draws_and_waits_agree(name):
    profile = PROFILES[name]
    rules = O.WildRules.of(profile)
    checker = Checker(profile)

    @SETTINGS
    @given(wild_hands(profile, 1))
    def check(case):
        counts, melds = case
        hand = engine_hand(counts, melds)
        result = checker.shanten(hand)
        drawable = O.wild_drawable(counts, rules)
        grown = [(O.plus(counts, t), melds) for t in drawable]
        now, *after = O.wild_shanten_many([(counts, melds), *grown], rules)
        improving = [t for t, answer in zip(drawable, after, strict=True) if answer["shanten"] < now["shanten"]]
        assert [u.tile for u in result.ukeire] == improving, describe(counts, melds)
        seen = hand.all_counts()
        assert all(u.remaining == 4 - seen[u.tile] for u in result.ukeire)
        if held(counts, rules) <= DRAWS_SUBSTITUTED_WILDS:
            before, *later = O.wild_shanten_by_substitution_many([(counts, melds), *grown], rules)
            by_substitution = [
                t for t, answer in zip(drawable, later, strict=True) if answer["shanten"] < before["shanten"]
            ]
            assert improving == by_substitution, describe(counts, melds)
        # Waits: the draws after which the hand is complete in some form, every wildcard replaced.
        waits = checker.waits(hand)
        if held(counts, rules) <= SUBSTITUTED_WILDS:
            expected = [
                t for t, (more, _) in zip(drawable, grown, strict=True) if O.wild_complete_forms(more, melds, rules)
            ]
        else:
            expected = [t for t, answer in zip(drawable, after, strict=True) if answer["shanten"] == -1]
        assert list(waits.shape_waits) == expected, describe(counts, melds)
        assert [w.tile for w in waits.waits] == expected and waits.tenpai == bool(expected)

    check()


@profiles
def test_win_and_decompositions_agree(name):
    profile = PROFILES[name]
    rules = O.WildRules.of(profile)
    checker = Checker(profile)

    @SETTINGS
    @given(wild_hands(profile, 2))
    def check(case):
        counts, melds = case
        hand = engine_hand(counts, melds)
        result = checker.win(hand, limit=10**6)
        forms = O.wild_complete_forms(counts, melds, rules)
        assert result.win == bool(forms) == checker.is_win(hand), describe(counts, melds)
        assert result.form == next((form for form in FORMS if form in forms), None)
        assert not result.truncated
        if held(counts, rules) <= SUBSTITUTED_WILDS or "regular" not in forms:
            readings = [reading(d) for d in result.decompositions]
            assert len(readings) == len(set(readings)), describe(counts, melds)
            assert set(readings) == O.wild_win_readings(counts, melds, rules), describe(counts, melds)

    check()


@profiles
def test_discards_agree(name):
    profile = PROFILES[name]
    rules = O.WildRules.of(profile)
    checker = Checker(profile)

    @SETTINGS
    @given(wild_hands(profile, 2))
    def check(case):
        counts, melds = case
        hand = engine_hand(counts, melds)
        options = checker.discards(hand)
        assert [o.tile for o in options] == [t for t in range(34) if counts[t]]
        numbers = dict(checker.discard_shanten_numbers(hand))
        for option in options:
            after = O.minus(counts, option.tile)
            drawable = O.wild_drawable(after, rules)
            now, *grown = O.wild_shanten_many([(after, melds), *((O.plus(after, t), melds) for t in drawable)], rules)
            assert option.shanten == now["shanten"] == numbers[option.tile], (describe(counts, melds), option.tile)
            improving = [t for t, answer in zip(drawable, grown, strict=True) if answer["shanten"] < now["shanten"]]
            assert [u.tile for u in option.ukeire] == improving, (describe(counts, melds), option.tile)

    check()


@pytest.mark.parametrize("name", BATCH_PROFILES)
@pytest.mark.parametrize("remainder", [1, 2])
def test_batch_path_agrees(name, remainder):
    profile = PROFILES[name]
    rules = O.WildRules.of(profile)

    @SETTINGS
    @given(st.lists(wild_hands(profile, remainder), min_size=1, max_size=6))
    def check(cases):
        for counts, melds in cases:  # the batch takes one melds count for all its rows: one row each
            analysis = analyse_batch(np.array([counts]), profile, declared_melds=len(melds))
            expected = O.wild_shanten(O.wild_form_distances(counts, melds, rules))
            got = {
                form: None if int(values[0]) == NOT_APPLICABLE else int(values[0])
                for form, values in (
                    ("regular", analysis.regular),
                    ("seven_pairs", analysis.seven_pairs),
                    ("thirteen_orphans", analysis.thirteen_orphans),
                    ("wildcards_held", analysis.wildcards_held),
                    ("shanten", analysis.shanten),
                )
            }
            assert got == expected, describe(counts, melds)
            if remainder == 1:
                drawable = O.wild_drawable(counts, rules)
                grown = O.wild_shanten_many([(O.plus(counts, t), melds) for t in drawable], rules)
                improving = [t for t, answer in zip(drawable, grown, strict=True) if answer["shanten"] < got["shanten"]]
                assert np.flatnonzero(analysis.ukeire[0]).tolist() == improving, describe(counts, melds)

    check()


def test_hunan_batch_is_refused_for_its_absent_honours():
    with pytest.raises(ValueError, match="absent tiles"):
        analyse_batch(np.zeros((1, 34), dtype=np.uint8), PROFILES["hunan"])


@profiles
def test_seven_pairs_cases_agree(name):
    """Seeded near-seven-pairs hands (random draws seldom reach them): seven pairs, sometimes one of
    the wildcard itself, with 0-4 of the tiles turned into wildcards; the 14 tiles and, one tile
    fewer, the 13."""
    profile = PROFILES[name]
    rules = O.WildRules.of(profile)
    checker = Checker(profile)
    wild = rules.wildcards[0]
    kinds = [t for t in rules.existing if t != wild]
    rng = random.Random(name)
    seven_pairs_wins = 0
    for _ in range(scaled(full=200, sample=20)):
        counts = [0] * 34
        wild_pairs = rng.choice((0, 0, 1))
        for tile in rng.sample(kinds, 7 - wild_pairs) + [wild] * wild_pairs:
            counts[tile] += 2
        for _ in range(rng.randrange(5 - counts[wild])):
            tile = rng.choice([t for t in range(34) if counts[t] and t != wild])
            counts[tile] -= 1
            counts[wild] += 1
        full = tuple(counts)
        result = checker.win(engine_hand(full, []), limit=10**6)
        forms = O.wild_complete_forms(full, [], rules)
        assert result.win == bool(forms) and result.form == next((f for f in FORMS if f in forms), None)
        if held(full, rules) <= SUBSTITUTED_WILDS:
            readings = O.wild_win_readings(full, [], rules)
            assert {reading(d) for d in result.decompositions} == readings, describe(full, [])
        seven_pairs_wins += "seven_pairs" in forms
        short = O.minus(full, rng.choice([t for t in range(34) if full[t]]))
        for case in (full, short):
            got = engine_forms(checker.shanten(engine_hand(case, [])))
            assert got == O.wild_shanten(O.wild_form_distances(case, [], rules)), describe(case, [])
            if held(case, rules) <= SUBSTITUTED_WILDS:
                assert got == O.wild_shanten_by_substitution_many([(case, [])], rules)[0], describe(case, [])
        if held(short, rules) < SUBSTITUTED_WILDS:  # a drawn wildcard makes one more to substitute
            drawable = O.wild_drawable(short, rules)
            expected = [t for t in drawable if O.wild_complete_forms(O.plus(short, t), [], rules)]
            assert list(checker.waits(engine_hand(short, [])).shape_waits) == expected, describe(short, [])
    assert seven_pairs_wins >= 2, seven_pairs_wins


# --- the rule texts' statements ------------------------------------------------------------------


def _hand(mpsz: str, melds=()) -> Hand:
    from app.core.shape.tiles import parse_mpsz

    hand = Hand.from_tiles(parse_mpsz(mpsz))
    return Hand(hand.counts, tuple(Meld.of(kind, tiles) for kind, tiles in melds))


def test_hongzhong_is_no_wildcard_in_seven_pairs():
    # "胡7对时红中不能作为万能牌使用": six pairs and 8s with a 红中 is no seven pairs there...
    hand = _hand("1122m3344p5566s8s7z")
    plain, wild = Checker(hunan(in_pairs=False, held=4)), Checker(hunan(in_pairs=True, held=4))
    assert not plain.is_win(hand) and plain.shanten(hand).seven_pairs == 0
    # ...while a 红中 standing in may pair the 8s.
    assert wild.win(hand).form == "seven_pairs"
    # Two 红中 are a pair of 红中 all the same.
    pairs = plain.win(_hand("1122m3344p5566s77z"))
    assert pairs.form == "seven_pairs" and pairs.decompositions[-1].pairs == (0, 1, 11, 12, 22, 23, 33)
    assert pairs.decompositions[-1].wildcards == ()
    # In the regular form the 红中 still stands for any tile: 123m 456m 789m 123p and a pair of 9p.
    regular = plain.win(_hand("123456789m1239p7z"))
    assert regular.form == "regular" and regular.decompositions[0].wildcards == ((RED, 17),)


def test_four_hongzhong_win_at_once():
    # "摸到四张红中，自动胡牌": whatever the other ten tiles are.
    hand = _hand("159m26p37s48m9s7777z")
    checker = Checker(hunan(in_pairs=False, held=4))
    result = checker.win(hand)
    assert result.win and result.form == "wildcards_held"
    (decomposition,) = result.decompositions
    assert decomposition.wildcards == ((RED, RED),) * 4 and len(decomposition.singles) == 10
    assert checker.shanten(hand).wildcards_held == -1
    assert not Checker(hunan(in_pairs=False, held=None)).is_win(hand)
    # Three 红中 in a ready hand: the fourth is a wait, and the only draw that helps the form.
    ready = _hand("159m26p37s48m9s777z")
    waits = checker.waits(ready)
    assert RED in [w.tile for w in waits.waits]
    assert checker.shanten(ready).wildcards_held == 0


def test_a_full_ghost_hand_wins_in_guangdong():
    # 满鬼: "手上有4张鬼牌,可直接胡牌" (5p the ghost).
    hand = _hand("19m19s123456z5555p")
    checker = Checker(guangdong(in_pairs=True, held=4))
    assert checker.win(hand).form == "thirteen_orphans"  # four ghosts also make the hand a thirteen orphans
    junk = _hand("19m2s12345z5555p28s")
    assert checker.win(junk).form == "wildcards_held"
    assert not Checker(guangdong(in_pairs=True, held=None)).is_win(junk)


def test_held_form_shanten_counts_the_draws():
    checker = Checker(hunan(in_pairs=False, held=4))
    # 3n+2: four draws of 红中 away with none held; 3n+1 holding four: one draw of anything.
    assert checker.shanten(_hand("1357m2468p13579s")).wildcards_held == 3
    four = checker.shanten(_hand("7777z", melds=[("pon", (9, 9, 9)), ("pon", (10, 10, 10)), ("pon", (11, 11, 11))]))
    assert four.wildcards_held == 0 and four.shanten == 0
    assert [u.tile for u in four.ukeire] == list(range(27))  # every suit tile; no fifth 红中
    # Two concealed tiles (four melds) can never hold four 红中: the form is out of reach.
    melds = [("pon", (t, t, t)) for t in (9, 10, 11, 12)]
    assert checker.shanten(_hand("77z", melds=melds)).wildcards_held is None


def test_options_change_nothing_for_the_presets():
    for name in ("riichi", "chinese", "qiqihar", "sanma", "mcr", "sichuan"):
        profile = rule_profile(name)
        assert profile.wildcards_in_seven_pairs is True and profile.wildcards_held_win is None
