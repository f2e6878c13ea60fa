"""The numpy batch path agrees with the single-hand Checker, hand by hand."""

from __future__ import annotations

import numpy as np
import pytest

from app.core.errors import TooManyCopies, WrongTileCount
from app.core.shape.batch import NOT_APPLICABLE, analyse_batch, shanten_batch
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld
from app.core.shape.rules import rule_profile

WALL = np.repeat(np.arange(34), 4)


def _random_counts(rng: np.random.Generator, rows: int, size: int, *, exclude: tuple[int, ...] = ()) -> np.ndarray:
    wall = np.array([t for t in WALL if t not in exclude])
    picks = np.argsort(rng.random((rows, len(wall))), axis=1)[:, :size]
    counts = np.zeros((rows, 34), dtype=np.uint8)
    np.add.at(counts, (np.repeat(np.arange(rows), size), wall[picks].ravel()), 1)
    return counts


def _tenpai_heavy(rng: np.random.Generator, rows: int) -> np.ndarray:
    """Hands drawn from few kinds, so many are ready or complete."""
    out = np.zeros((rows, 34), dtype=np.uint8)
    for row in range(rows):
        kinds = rng.choice(34, size=5, replace=False)
        pool = np.repeat(kinds, 4)
        for tile in rng.choice(pool, size=13 + row % 2, replace=False):
            out[row, tile] += 1
    return out


PROFILES = {
    "riichi": rule_profile("riichi"),
    "chinese": rule_profile("chinese"),
    "qiqihar": rule_profile("qiqihar"),
    "riichi+wild": rule_profile("riichi", wildcards=[33]),
    "chinese+wild": rule_profile("chinese", wildcards=[33]),
}


@pytest.mark.parametrize("name", sorted(PROFILES))
@pytest.mark.parametrize("size", [14, 13, 11, 10, 8, 7, 5, 4, 2, 1])
def test_analyse_batch_equals_checker(name: str, size: int) -> None:
    rules = PROFILES[name]
    rng = np.random.default_rng(size * 31 + len(name))
    counts = _random_counts(rng, 300, size)
    if size >= 13:
        counts = np.concatenate([counts, _tenpai_heavy(rng, 100)])
    checker = Checker(rules)
    result = analyse_batch(counts, rules)
    for row, hand_counts in enumerate(counts):
        expected = checker.shanten(Hand(bytes(hand_counts)))
        assert result.shanten[row] == expected.shanten
        assert result.regular[row] == expected.regular
        for form in ("seven_pairs", "thirteen_orphans"):
            value = getattr(result, form)[row]
            assert (None if value == NOT_APPLICABLE else value) == getattr(expected, form)
        wanted = [] if expected.ukeire is None else [t.tile for t in expected.ukeire]
        assert np.flatnonzero(result.ukeire[row]).tolist() == wanted


@pytest.mark.parametrize("melds", [1, 2, 3])
def test_analyse_batch_with_declared_melds(melds: int) -> None:
    rules = rule_profile("qiqihar")
    rng = np.random.default_rng(melds)
    pons = [Meld.of("pon", [tile] * 3) for tile in (27, 28, 29)[:melds]]
    checker = Checker(rules)
    for size in (14 - 3 * melds, 13 - 3 * melds):
        counts = _random_counts(rng, 300, size, exclude=(27, 28, 29))
        result = analyse_batch(counts, rules, declared_melds=melds)
        for row, hand_counts in enumerate(counts):
            expected = checker.shanten(Hand(bytes(hand_counts), tuple(pons)))
            assert result.shanten[row] == expected.shanten
            wanted = [] if expected.ukeire is None else [t.tile for t in expected.ukeire]
            assert np.flatnonzero(result.ukeire[row]).tolist() == wanted


def test_shanten_batch_equals_analyse_batch() -> None:
    rng = np.random.default_rng(7)
    counts = np.concatenate([_random_counts(rng, 500, 14), _random_counts(rng, 500, 13), _tenpai_heavy(rng, 200)])
    assert (shanten_batch(counts) == analyse_batch(counts, rule_profile("riichi")).shanten).all()


def test_batch_rejects_bad_rows() -> None:
    with pytest.raises(WrongTileCount) as error:
        shanten_batch(np.zeros((2, 34), dtype=np.uint8))
    assert error.value.field == "hands[0]"
    bad = np.zeros((1, 34), dtype=np.uint8)
    bad[0, 0] = 5
    with pytest.raises(TooManyCopies):
        analyse_batch(bad, rule_profile("riichi"))
    with pytest.raises(WrongTileCount):
        analyse_batch(np.zeros((1, 33), dtype=np.uint8), rule_profile("riichi"))
