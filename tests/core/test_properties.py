"""Properties that tie the engine's answers to each other, on Hypothesis-generated hands.

Each holds by definition, whatever the rule profile:

* a 3n+2 hand wins iff its shanten is -1 (and the win precondition is met);
* every wait completes the hand and no other drawable tile does;
* ukeire tiles lower the shanten and no other drawable tile does;
* ``discards`` agrees with ``shanten`` of the hand minus each tile;
* ``shanten_number`` (the cheap question) is ``shanten``'s shanten;
* one tile more or less moves the shanten by at most one, in the right direction.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld
from app.core.shape.rules import rule_profile

CHOW_STARTS = [t for t in range(27) if t % 9 <= 6]
MELD_SIZES = {"chi": 3, "pon": 3, "open_kan": 4, "closed_kan": 4, "added_kan": 4}
POOLS = {
    "all": list(range(34)),
    "one suit": list(range(9)),
    "suit and honours": list(range(9, 18)) + list(range(27, 34)),
    "terminals and honours": [0, 8, 9, 17, 18, 26] + list(range(27, 34)),
}
PROFILES = {
    "riichi": rule_profile("riichi"),
    "chinese": rule_profile("chinese"),
    "qiqihar": rule_profile("qiqihar"),
    "qiqihar_counting_melds": rule_profile("qiqihar", melded_tiles_count_toward_limit=True),
    "riichi_counting_melds": rule_profile("riichi", melded_tiles_count_toward_limit=True),
    "riichi_wild_7z": rule_profile("riichi", wildcards=[33]),
}
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def hands(draw, rules, remainder: int) -> Hand:
    """A valid hand of 3n + ``remainder`` concealed tiles, with 0-4 melds and (if the rules have them) wildcards."""
    used = [0] * 34
    melds = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(sorted(MELD_SIZES)))
        if kind == "chi":
            start = draw(st.sampled_from(CHOW_STARTS))
            tiles = (start, start + 1, start + 2)
        else:
            tiles = (draw(st.integers(0, 33)),) * MELD_SIZES[kind]
        if all(used[t] + tiles.count(t) <= 4 for t in tiles):
            for t in tiles:
                used[t] += 1
            melds.append(Meld.of(kind, tiles))
    sizes = [s for s in range(1, 15 - 3 * len(melds)) if s % 3 == remainder]
    size = draw(st.sampled_from(sizes[::-1]))  # shrinks toward the largest hand
    counts = [0] * 34
    for wild in rules.wildcards:
        copies = draw(st.integers(0, min(4 - used[wild], size - sum(counts))))
        counts[wild] += copies
        used[wild] += copies
    pool = POOLS[draw(st.sampled_from(sorted(POOLS)))]
    while sum(counts) < size:
        choices = [t for t in pool if used[t] < 4] or [t for t in range(34) if used[t] < 4]
        tile = draw(st.sampled_from(choices))
        counts[tile] += 1
        used[tile] += 1
    hand = Hand(bytes(counts), tuple(melds))
    hand.validate()
    return hand


def caps(hand: Hand, rules) -> list[int]:
    """Copies of each tile the concealed hand may hold (from the rule's wording, not the engine)."""
    melded = [0] * 34
    for meld in hand.melds:
        for t in meld.tiles:
            melded[t] += 1
    return [4 - m if rules.melded_tiles_count_toward_limit else 4 for m in melded]


def drawable(hand: Hand, rules) -> list[int]:
    limit = caps(hand, rules)
    return [t for t in range(34) if hand.counts[t] < limit[t]]


def precondition_met(hand: Hand, rules) -> bool:
    return not rules.win_requires_meld or any(m.kind in rules.win_requires_meld for m in hand.melds)


def plus(hand: Hand, tile: int) -> Hand:
    counts = bytearray(hand.counts)
    counts[tile] += 1
    return Hand(bytes(counts), hand.melds)  # not validated: the copy may be locked in a meld


def minus(hand: Hand, tile: int) -> Hand:
    counts = bytearray(hand.counts)
    counts[tile] -= 1
    return Hand(bytes(counts), hand.melds)


def seen(hand: Hand) -> list[int]:
    return list(hand.all_counts())


def profile_cases():
    return pytest.mark.parametrize("name", sorted(PROFILES))


@profile_cases()
def test_win_iff_shanten_is_minus_one(name):
    rules = PROFILES[name]
    checker = Checker(rules)

    @SETTINGS
    @given(hands(rules, 2))
    def check(hand):
        shanten = checker.shanten(hand)
        result = checker.win(hand)
        complete = shanten.shanten == -1
        assert result.complete_shape == complete
        assert bool(result.decompositions) == complete
        assert result.win == (complete and precondition_met(hand, rules))
        assert checker.is_win(hand) == result.win
        failure = "open_meld_required" if complete and not precondition_met(hand, rules) else None
        assert result.reason == failure and shanten.reason == failure
        if not rules.win_requires_meld:
            assert result.win == complete

    check()


@profile_cases()
def test_every_wait_wins_and_nothing_else_does(name):
    rules = PROFILES[name]
    checker = Checker(rules)

    @SETTINGS
    @given(hands(rules, 1))
    def check(hand):
        result = checker.waits(hand)
        shape = set(result.shape_waits)
        can_draw = drawable(hand, rules)
        assert shape <= set(can_draw)
        for tile in can_draw:
            assert checker.win(plus(hand, tile)).complete_shape == (tile in shape), tile
        assert bool(shape) == (checker.shanten(hand).shanten == 0)
        if precondition_met(hand, rules):
            assert [w.tile for w in result.waits] == sorted(shape) and result.tenpai == bool(shape)
        else:
            assert result.waits == () and not result.tenpai
            assert result.reason == ("open_meld_required" if shape else None)

    check()


@profile_cases()
def test_ukeire_lowers_shanten_and_nothing_else_does(name):
    rules = PROFILES[name]
    checker = Checker(rules)

    @SETTINGS
    @given(hands(rules, 1), st.randoms(use_true_random=False))
    def check(hand, rng):
        # Some tiles seen elsewhere, to check the remaining counts.
        left = [4 - c for c in seen(hand)]
        visible = [rng.randint(0, n) if rng.random() < 0.2 else 0 for n in left]
        result = checker.shanten(hand, bytes(visible))
        ukeire = {u.tile for u in result.ukeire}
        can_draw = drawable(hand, rules)
        assert ukeire <= set(can_draw)
        for tile in can_draw:
            after = checker.shanten(plus(hand, tile)).shanten
            assert result.shanten - 1 <= after <= result.shanten, tile
            assert (after < result.shanten) == (tile in ukeire), tile
        assert [u.remaining for u in result.ukeire] == [left[u.tile] - visible[u.tile] for u in result.ukeire]
        assert result.ukeire_count == sum(u.remaining for u in result.ukeire)

    check()


@profile_cases()
@pytest.mark.parametrize("remainder", [1, 2])
def test_shanten_number_is_the_shanten(name, remainder):
    rules = PROFILES[name]
    checker = Checker(rules)

    @SETTINGS
    @given(hands(rules, remainder))
    @example(Hand.from_tiles([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33, 33][: 12 + remainder]))  # orphans
    def check(hand):
        assert checker.shanten_number(hand) == checker.shanten(hand).shanten

    check()


@profile_cases()
def test_discards_agree_with_shanten(name):
    rules = PROFILES[name]
    checker = Checker(rules)

    @SETTINGS
    @given(hands(rules, 2))
    def check(hand):
        options = checker.discards(hand)
        held = [t for t in range(34) if hand.counts[t]]
        assert [o.tile for o in options] == held
        shanten = checker.shanten(hand).shanten
        left = [4 - c for c in seen(hand)]  # the 14-tile hand's view: the discard counts as seen
        for option in options:
            after = checker.shanten(minus(hand, option.tile))
            assert option.shanten == after.shanten
            assert [u.tile for u in option.ukeire] == [u.tile for u in after.ukeire]
            assert [u.remaining for u in option.ukeire] == [left[u.tile] for u in option.ukeire]
            # Throwing a tile away never helps, and costs at most one step.
            assert shanten <= option.shanten <= shanten + 1
        # Some tile lies outside the nearest complete hand (a complete hand: every discard leaves tenpai at best).
        assert min(o.shanten for o in options) == max(shanten, 0)

    check()


@profile_cases()
def test_discard_shanten_numbers_agree_with_shanten_number(name):
    # The simulations' cheap question (the regular form's look-ups shared between the discards)
    # answers as the general one, tile for tile.
    rules = PROFILES[name]
    checker = Checker(rules)

    @SETTINGS
    @given(hands(rules, 2))
    def check(hand):
        expected = [(t, checker.shanten_number(minus(hand, t))) for t in range(34) if hand.counts[t]]
        assert checker.discard_shanten_numbers(hand) == expected

    check()
