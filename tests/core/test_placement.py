"""The rank model (app/core/advice/placement.py) and a hand's outcomes in placement points
(app/core/advice/actions.py, HandOutcomes.placement): a simulation oracle, the exact last hand,
and properties (chances sum to one, more points never place worse, equal scores share the uma)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.advice.actions import HandOutcomes
from app.core.advice.placement import (
    DEFAULT_UMA,
    HAND_SPREAD,
    Standing,
    hands_after,
    place_chances,
    placement_points,
)

scores = st.lists(st.integers(min_value=-20, max_value=80).map(lambda n: n * 1000), min_size=4, max_size=4)
deltas = st.lists(st.integers(min_value=-24, max_value=24).map(lambda n: n * 1000), min_size=4, max_size=4)
hands = st.sampled_from([0.0, 0.3, 1.0, 3.5, 9.4])


def _simulated(standing: Standing, moved: list[int], samples: int = 200_000) -> np.ndarray:
    """Each place's share over simulated games: every seat's later hands as normal draws."""
    rng = np.random.default_rng(36)
    finals = np.array(standing.scores, dtype=float) + np.array(moved, dtype=float)
    noise = rng.standard_normal((samples, len(finals))) * HAND_SPREAD * np.sqrt(standing.hands_after)
    ended = finals + noise
    above = (ended[:, 1:] > ended[:, :1]).sum(axis=1)
    return np.bincount(above, minlength=len(finals)) / samples


@settings(max_examples=25, deadline=None)
@given(scores, deltas, st.sampled_from([0.3, 1.0, 3.5, 9.4]))
def test_place_chances_agree_with_a_simulation(now: list[int], moved: list[int], after: float) -> None:
    standing = Standing(tuple(now), after, (0, 1, 2, 3))
    assert place_chances(standing, moved) == pytest.approx(_simulated(standing, moved), abs=0.006)


@settings(max_examples=60, deadline=None)
@given(scores, deltas, hands, st.integers(min_value=0, max_value=20).map(lambda n: n * 1000))
def test_chances_sum_to_one_and_more_points_never_place_worse(
    now: list[int], moved: list[int], after: float, more: int
) -> None:
    standing = Standing(tuple(now), after, (2, 3, 0, 1))
    chances = place_chances(standing, moved)
    assert sum(chances) == pytest.approx(1.0)
    assert all(-1e-12 <= chance <= 1 + 1e-12 for chance in chances)
    richer = [moved[0] + more, *moved[1:]]
    assert placement_points(standing, richer) >= placement_points(standing, moved) - 1e-9


@given(hands)
def test_equal_scores_share_the_uma(after: float) -> None:
    standing = Standing((25_000,) * 4, after, (0, 1, 2, 3))
    mean = sum(DEFAULT_UMA[4]) / 4
    if after > 0:
        assert placement_points(standing, (0, 0, 0, 0)) == pytest.approx(mean, abs=1e-5)
    else:  # the last hand: equal finals go to the seat nearer the first dealer
        assert placement_points(standing, (0, 0, 0, 0)) == DEFAULT_UMA[4][0]


def test_the_last_hand_a_cheap_win_that_stays_fourth_is_worth_nothing_a_larger_one_a_place() -> None:
    # All-last: the seat is fourth, 8,000 behind third.  A 3,900 win (each other seat pays a third)
    # leaves it fourth; a 12,000 win passes third.
    standing = Standing((10_000, 40_000, 32_000, 18_000), hands_after(0, repeats=False), (3, 0, 1, 2))
    costs = (5500.0, 5500.0, 5500.0)
    cheap = HandOutcomes(1.0, 3900.0, (0.0, 0.0, 0.0), costs, 0.0, 0.0, 0.0, 0.0)
    large = cheap._replace(win_points=12_000.0)
    assert cheap.placement(standing, (1.0, 1.0, 1.0)) == DEFAULT_UMA[4][3]
    assert large.placement(standing, (1.0, 1.0, 1.0)) == DEFAULT_UMA[4][2]
    assert cheap.points < large.points


def test_outcomes_in_placement_weigh_each_way_the_hand_ends() -> None:
    # Half a win of 8,000, a quarter a deal-in of 8,000 into the second seat, the rest a draw not
    # ready (paying 1,000): each outcome's place, weighed.
    standing = Standing((25_000, 25_000, 25_000, 25_000), 0.0, (0, 1, 2, 3))
    costs = (8000.0, 8000.0, 8000.0)
    outcomes = HandOutcomes(0.5, 8000.0, (0.0, 0.25, 0.0), costs, 0.0, 0.25, 3000.0, 1000.0)
    win = placement_points(standing, (8000, -8000 / 3, -8000 / 3, -8000 / 3))
    dealt = placement_points(standing, (-8000, 0, 8000, 0))
    drawn = placement_points(standing, (-1000, 1000 / 3, 1000 / 3, 1000 / 3))
    assert outcomes.others_win == 0.0
    assert outcomes.placement(standing, (1.0, 1.0, 1.0)) == pytest.approx(0.5 * win + 0.25 * dealt + 0.25 * drawn)
    assert (win, dealt, drawn) == (90.0, -135.0, -135.0)
