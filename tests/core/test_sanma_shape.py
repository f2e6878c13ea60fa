"""Three-player riichi (sanma): the shape engine without 2m-8m.

The regular form's distance under sanma is checked against a brute force that
knows nothing of the tables: every complete hand made of existing tiles (m
melds and a pair, at most four copies of a kind) is enumerated, and a hand's
distance is the fewest tiles it must draw to hold one of them, i.e. the draws
of existing tiles that complete it.  The four-player tables alone are not
exact here: ``11119999m11s`` is 1-shanten with 2m3m and 2-shanten without.
riichienv's ``calculate_shanten_3p`` is the outside oracle on random hands.
"""

from __future__ import annotations

import json
import random
from itertools import combinations_with_replacement

import numpy as np
import pytest
from oracle_sample import scaled
from shared_data import shared_testdata_dir

from app.core.advice.discard import evaluate_discards
from app.core.errors import AbsentTile, InvalidMeld
from app.core.shape.batch import analyse_batch
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld, MeldKind
from app.core.shape.rules import PRESETS, rule_profile
from app.core.shape.shanten import AbsentShapes, suit_keys
from app.core.shape.tables import tables
from app.core.shape.tiles import counts_from_tiles, format_tile, parse_mpsz

SANMA = rule_profile("sanma")
CHECKER = Checker(SANMA)
ABSENT = frozenset(range(1, 8))
EXISTING = tuple(tile for tile in range(34) if tile not in ABSENT)
NEGATIVE = shared_testdata_dir() / "riichienv-agari" / "hands_negative.json"
LEGAL_SIZES = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)


# --- the brute force ---------------------------------------------------------------


def _meld_shapes() -> np.ndarray:
    shapes = []
    for tile in EXISTING:
        pung = np.zeros(34, dtype=np.int8)
        pung[tile] = 3
        shapes.append(pung)
    for start in range(34):
        run = (start, start + 1, start + 2)
        if start < 27 and start % 9 <= 6 and not ABSENT & set(run):
            chow = np.zeros(34, dtype=np.int8)
            chow[list(run)] = 1
            shapes.append(chow)
    return np.array(shapes)


_COMPLETE: dict[int, np.ndarray] = {}


def complete_hands(melds: int) -> np.ndarray:
    """Every complete hand of ``melds`` melds and a pair made of existing tiles, as counts."""
    if melds not in _COMPLETE:
        shapes = _meld_shapes()
        if melds:
            groups = np.array(list(combinations_with_replacement(range(len(shapes)), melds)), dtype=np.int64)
            bodies = shapes[groups].sum(axis=1)
        else:
            bodies = np.zeros((1, 34), dtype=np.int8)
        pairs = np.zeros((len(EXISTING), 34), dtype=np.int8)
        pairs[np.arange(len(EXISTING)), list(EXISTING)] = 2
        hands = (bodies[:, None, :] + pairs[None, :, :]).reshape(-1, 34)
        _COMPLETE[melds] = hands[(hands <= 4).all(axis=1)]
    return _COMPLETE[melds]


def brute_regular_shanten(counts: bytes) -> int:
    """Fewest draws of existing tiles that let the hand hold a complete hand, minus one."""
    held = np.frombuffer(counts, dtype=np.uint8).astype(np.int8)
    wanted = complete_hands(sum(counts) // 3)
    return int(np.maximum(wanted - held, 0).sum(axis=1).min()) - 1


def brute_ukeire(counts: bytes) -> list[int]:
    """Existing tiles (not held four times) whose draw lowers the brute-force shanten.

    Drawing ``t`` takes one off the draws still missing for exactly the complete
    hands that want more ``t`` than the hand holds, so all draws are judged at once.
    """
    held = np.frombuffer(counts, dtype=np.uint8).astype(np.int8)
    wanted = complete_hands(sum(counts) // 3)
    missing = np.maximum(wanted - held, 0).sum(axis=1).astype(np.int16)
    after = (missing[:, None] - (wanted > held)).min(axis=0)
    return [tile for tile in EXISTING if counts[tile] < 4 and after[tile] < missing.min()]


def _random_tiles(rng: random.Random, size: int) -> list[int]:
    """A third of the hands from the whole 108-tile set, a third from a few kinds (1m and 9m
    among them), a third holding all four 1m (and from 10 tiles all four 9m) with the rest
    from two or three kinds: the man shapes where sanma and four-player answers differ."""
    mode = rng.randrange(3)
    if mode == 2 and size >= 4:
        quads = [0] * 4 + [8] * 4 if size >= 10 else [rng.choice((0, 8))] * 4
        kinds = rng.sample([tile for tile in EXISTING if tile not in quads], rng.choice((2, 3)))
        return quads + rng.sample([tile for tile in kinds for _ in range(4)], size - len(quads))
    kinds = EXISTING if mode == 0 else (0, 8, *rng.sample(EXISTING[2:], 4))
    wall = [tile for tile in kinds for _ in range(4)]
    return rng.sample(wall, size)


# --- the engine against the brute force ----------------------------------------------


def test_the_four_player_tables_alone_are_not_exact_in_sanma() -> None:
    hand = Hand.from_tiles(parse_mpsz("11119999m11s"))
    assert Checker(rule_profile("riichi")).shanten(hand).shanten == 1
    result = CHECKER.shanten(hand)
    assert result.shanten == brute_regular_shanten(hand.counts) == 2
    assert [t.tile for t in result.ukeire] == brute_ukeire(hand.counts)
    assert not ABSENT & {t.tile for t in result.ukeire}


@pytest.mark.parametrize("size", [1, 2, 4, 5, 7, 8])
def test_small_hands_agree_with_the_brute_force_on_shanten_and_ukeire(size: int) -> None:
    rng = random.Random(size)
    for _ in range(250):
        tiles = _random_tiles(rng, size)
        hand = Hand.from_tiles(tiles)
        result = CHECKER.shanten(hand)
        expected = brute_regular_shanten(hand.counts)
        assert (result.regular, result.shanten) == (expected, expected), format_tile_list(tiles)
        if size % 3 == 1:
            assert [t.tile for t in result.ukeire] == brute_ukeire(hand.counts), format_tile_list(tiles)
            if result.shanten == 0:
                assert [w.tile for w in CHECKER.waits(hand).waits] == brute_ukeire(hand.counts)


@pytest.mark.slow
@pytest.mark.parametrize("size", [10, 11])
def test_larger_hands_agree_with_the_brute_force(size: int) -> None:
    rng = random.Random(100 + size)
    four_player = Checker(rule_profile("riichi"))
    differ = 0
    for _ in range(40 if size == 10 else 60):
        tiles = _random_tiles(rng, size)
        hand = Hand.from_tiles(tiles)
        result = CHECKER.shanten(hand)
        assert result.shanten == brute_regular_shanten(hand.counts), format_tile_list(tiles)
        if size % 3 == 1:
            assert [t.tile for t in result.ukeire] == brute_ukeire(hand.counts), format_tile_list(tiles)
        differ += four_player.shanten_number(hand) != result.shanten
    if size == 10:
        assert differ  # the sample holds hands the four-player tables get wrong


def format_tile_list(tiles: list[int]) -> str:
    return " ".join(format_tile(t) for t in sorted(tiles))


def test_every_sanma_man_suit_reads_through_the_shared_tables() -> None:
    # The engine's fast path: each of the 25 man suits sanma allows has a shared class
    # (its completed vector), so no sanma hand falls back to the capped dynamic program.
    shapes = AbsentShapes(tuple(sorted(ABSENT)))
    number = tables().number_suit
    for ones in range(5):
        for nines in range(5):
            counts = bytes([ones, 0, 0, 0, 0, 0, 0, 0, nines]) + bytes(25)
            entries = shapes.suit_entries(suit_keys(counts))
            assert entries is not None
            following = entries[0][1]
            assert all(following[position] == 255 for position in range(1, 8))
            assert (following[0] == 255) == (ones == 4) and (following[8] == 255) == (nines == 4)
            assert entries[0][0] < len(number.vectors)


def test_absent_tiles_are_never_waits_ukeire_or_unseen() -> None:
    hand = Hand.from_tiles(parse_mpsz("1m9m1p2p3p4p5p6p7s8s9s11z"))
    result = CHECKER.shanten(hand)
    assert result.ukeire and not ABSENT & {t.tile for t in result.ukeire}
    left = CHECKER.remaining(hand)
    assert [left[t] for t in sorted(ABSENT)] == [0] * 7 and left[0] == 3
    for option in CHECKER.discards(Hand.from_tiles(parse_mpsz("1m9m1p2p3p4p5p6p7s8s9s11z5z"))):
        assert not ABSENT & {t.tile for t in option.ukeire}


def test_a_wait_on_one_m_and_nine_m_is_a_plain_shanpon() -> None:
    hand = Hand.from_tiles(parse_mpsz("11m99m123p456p789s"))
    waits = CHECKER.waits(hand)
    assert waits.tenpai and [(w.tile, w.remaining) for w in waits.waits] == [(0, 2), (8, 2)]
    seen = counts_from_tiles(parse_mpsz("11m99m"))
    assert CHECKER.waits(hand, seen).karaten


def test_hands_melds_and_visible_tiles_with_absent_tiles_are_refused_at_their_field() -> None:
    with pytest.raises(AbsentTile) as error:
        CHECKER.shanten(Hand.from_tiles(parse_mpsz("1m3m9m1p")))
    assert error.value.field == "hand" and error.value.message == "3m does not exist in sanma: 108 tiles, no 2m-8m"
    melded = Hand.from_tiles(parse_mpsz("1p"), [Meld.of(MeldKind.PON, parse_mpsz("555m"))])
    with pytest.raises(AbsentTile) as error:
        CHECKER.waits(melded)
    assert error.value.field == "melds[0].tiles"
    with pytest.raises(AbsentTile) as error:
        CHECKER.remaining(Hand.from_tiles(parse_mpsz("1p")), counts_from_tiles(parse_mpsz("8m")))
    assert error.value.field == "visible" and error.value.code == "absent_tile"
    with pytest.raises(AbsentTile) as error:
        rule_profile("sanma", wildcards="3m")
    assert error.value.field == "wildcards"


def test_discard_advice_refuses_absent_tiles_where_they_were_seen() -> None:
    from app.core.advice.safety import Opponent

    hand = Hand.from_tiles(parse_mpsz("19m123p456p789s122z"))
    with pytest.raises(AbsentTile) as error:
        evaluate_discards(hand, SANMA, opponents=[Opponent(river=tuple(parse_mpsz("4m")))])
    assert error.value.field == "opponents[0].river"
    with pytest.raises(AbsentTile) as error:
        evaluate_discards(hand, SANMA, dora_indicators=parse_mpsz("2m"))
    assert error.value.field == "dora_indicators"


def test_a_one_m_indicator_names_nine_m_in_sanma() -> None:
    hand = Hand.from_tiles(parse_mpsz("99m123p456p789s122z"))
    best = {c.tile: c for c in evaluate_discards(hand, SANMA, dora_indicators=parse_mpsz("1m"))}
    assert best[28].dora == 2  # the two 9m
    four_player = {c.tile: c for c in evaluate_discards(hand, rule_profile("riichi"), dora_indicators=parse_mpsz("1m"))}
    assert four_player[28].dora == 0


def test_discard_candidates_never_count_absent_tiles() -> None:
    hand = Hand.from_tiles(parse_mpsz("119m1p2p4p5p7s8s9s1235z"))
    for candidate in evaluate_discards(hand, SANMA):
        assert not ABSENT & {t.tile for t in candidate.ukeire}
        assert candidate.ukeire_count == sum(t.remaining for t in candidate.ukeire)


def test_seven_pairs_and_thirteen_orphans_hold_in_sanma() -> None:
    pairs = CHECKER.shanten(Hand.from_tiles(parse_mpsz("11m99m11p22p33s44s5z")))
    assert pairs.seven_pairs == 0 and not ABSENT & {t.tile for t in pairs.ukeire}
    orphans = CHECKER.waits(Hand.from_tiles(parse_mpsz("19m19p19s1234567z")))
    assert len(orphans.waits) == 13 and {0, 8} <= {w.tile for w in orphans.waits}
    assert CHECKER.is_win(Hand.from_tiles(parse_mpsz("119m19p19s1234567z")))


def test_wildcards_stand_only_for_existing_tiles() -> None:
    checker = Checker(rule_profile("sanma", wildcards="7z"))
    result = checker.win(Hand.from_tiles(parse_mpsz("1m9m123p456p789s11z7z")))
    assert not result.win  # 1m 7z 9m would need the wildcard to be 2m..8m
    ready = checker.shanten(Hand.from_tiles(parse_mpsz("1m123p456p789s11z7z")))
    assert ready.shanten == 0 and not ABSENT & {t.tile for t in ready.ukeire}


def test_analyse_batch_refuses_profiles_with_absent_tiles() -> None:
    with pytest.raises(ValueError, match="absent tiles"):
        analyse_batch(np.zeros((1, 34), dtype=np.uint8), SANMA)


def test_the_preset_is_data() -> None:
    assert PRESETS["sanma"] == rule_profile("sanma")
    assert (SANMA.seats, SANMA.tile_total, SANMA.chi_allowed, SANMA.furiten) == (3, 108, False, True)
    assert SANMA.thirteen_orphans and SANMA.seven_pairs.value == "distinct"
    assert {name for name in PRESETS if PRESETS[name].absent_tiles} == {"sanma", "sichuan"}
    assert rule_profile("riichi", absent_tiles="2m3m4m5m6m7m8m", seats=3).absent_tiles == SANMA.absent_tiles


# --- the outside oracle ------------------------------------------------------------------


#: Random hands of each legal size: the seeded stream's first 2,000, all 20,000 under --full-oracles.
RIICHIENV_HANDS_PER_SIZE = scaled(full=20_000, sample=2_000)


@pytest.mark.slow
def test_shanten_agrees_with_riichienv_calculate_shanten_3p() -> None:
    riichienv = pytest.importorskip("riichienv")
    ids = [tile_id for tile_id in range(136) if tile_id // 4 not in ABSENT]
    rng = random.Random(15)
    for size in LEGAL_SIZES:
        disagreements = []
        for _ in range(RIICHIENV_HANDS_PER_SIZE):
            drawn = rng.sample(ids, size)
            ours = CHECKER.shanten_number(Hand.from_tiles([tile_id // 4 for tile_id in drawn]))
            theirs = riichienv.calculate_shanten_3p(drawn)
            if ours != theirs:
                disagreements.append((format_tile_list([t // 4 for t in drawn]), ours, theirs))
        assert not disagreements, (size, disagreements[:5])
    # Random hands hardly ever hold all four 1m and 9m, where sanma differs from four players.
    rest = [tile_id for tile_id in ids if tile_id // 4 not in (0, 8)]
    for size in (10, 11, 13, 14):
        for _ in range(2_000):
            drawn = list(range(4)) + list(range(32, 36)) + rng.sample(rest, size - 8)
            hand = Hand.from_tiles([tile_id // 4 for tile_id in drawn])
            assert CHECKER.shanten_number(hand) == riichienv.calculate_shanten_3p(drawn), format_tile_list(
                [t // 4 for t in drawn]
            )


def test_riichienv_negative_hands_without_two_to_eight_man() -> None:
    # Four-player hands; only those holding no 2m-8m are sanma hands.  Their waits
    # cannot be 2m-8m either (no man tile to join), so tenpai means the same in both.
    if not NEGATIVE.exists():
        pytest.skip(f"{NEGATIVE} is absent (set TENPAI_TESTDATA to the shared test data folder)")
    cases = json.loads(NEGATIVE.read_text())["cases"]
    sanma_cases = [case for case in cases if not any(case["counts_34"][1:8])]
    assert len(sanma_cases) >= 20
    for case in sanma_cases:
        hand = Hand(bytes(case["counts_34"]), ())
        assert CHECKER.waits(hand).tenpai == case["is_tenpai"], case["counts_34"]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("kind", list(MeldKind))
def test_only_a_chi_is_refused_and_only_where_the_rules_have_none(preset: str, kind: MeldKind) -> None:
    rules = rule_profile(preset)
    if kind is MeldKind.CHI and not rules.chi_allowed:
        with pytest.raises(InvalidMeld) as error:
            rules.check_meld_allowed(kind, field="melds[2].kind")
        assert error.value.field == "melds[2].kind" and f"({preset}: chi_allowed is false)" in error.value.message
    else:
        rules.check_meld_allowed(kind, field="kind")
    # An override turns it either way.
    if kind is MeldKind.CHI:
        rule_profile(preset, chi_allowed=True).check_meld_allowed(kind, field="kind")
        with pytest.raises(InvalidMeld):
            rule_profile(preset, chi_allowed=False).check_meld_allowed(kind, field="kind")
