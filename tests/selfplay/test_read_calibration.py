"""The advisor's reading of the table is calibrated on self-play it was not fitted on
(scripts/measure_read_calibration.py): each other seat's ready chance and the chance that
another seat wins before the next draw, by decile.

The read's figures were measured on seeds 11 and 12 (``ActionParameters.silent_closed_factor``,
``READY_WIN_PER_TURN``); these hands are dealt from other seeds.  The bounds are loose (a small
sample), yet a read that took the published shares for silent closed hands, as a table of
players who stay silent would, misses by far more: such hands are almost never ready here.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from scripts_module import load_script

from app.core.advice.actions import DEFAULT_PARAMETERS
from app.core.table import players

calibration = load_script("measure_read_calibration")


@pytest.fixture(scope="module")
def measured() -> dict:
    return calibration.measure(games=40, seed=2036, workers=1)


def test_each_seats_ready_chance_is_calibrated_by_decile(measured: dict) -> None:
    assert measured["ready"]["ece"] < 0.04, measured["ready"]
    # the declared and the far-gone apart: the top decile is mostly ready, the lowest never
    bins = measured["ready"]["bins"]
    assert bins[-1][2] > 0.8 and bins[0][2] < 0.01


def test_the_chance_another_seat_wins_before_the_next_draw_is_calibrated(measured: dict) -> None:
    assert measured["hazard"]["ece"] < 0.03, measured["hazard"]


def test_the_published_shares_for_silent_hands_are_not_this_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    published = replace(DEFAULT_PARAMETERS, silent_closed_factor=1.0)
    original = players.Advisor.__init__

    def with_published(self, weights=players.DEFAULT_WEIGHTS, rng=None, parameters=published):  # type: ignore[no-untyped-def]
        original(self, weights, rng, parameters)

    monkeypatch.setattr(players.Advisor, "__init__", with_published)
    found = calibration.measure(games=20, seed=2036, workers=1)
    assert found["ready"]["ece"] > 0.06, found["ready"]
