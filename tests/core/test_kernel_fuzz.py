"""Hypothesis against the compiled kernel's entry points (issue 23's safety bar).

Every entry point of :mod:`app.core._kernel` is called with hands of every legal size, melds,
red fives and dora indicators, and with malformed arguments: a legal call answers what the
Python reference answers, a malformed one raises ``ValueError``, and nothing crashes.
``scripts/kernel_sanitize.sh`` runs this file against a build with AddressSanitizer and UBSan,
where any out-of-bounds read or undefined behaviour stops the run.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core import _kernel
from app.core.shape.rules import SevenPairs, rule_profile
from app.core.shape.shanten import regular_improving_draws
from app.core.shape.tables import tables
from app.core.shape.tiles import NUM_TILE_KINDS
from app.core.value.riichi_scoring import kernel_options

RIICHI = rule_profile("riichi")
FIVES = (4, 13, 22)
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def counts(draw: st.DrawFn, sizes: tuple[int, ...] = tuple(range(15))) -> bytes:
    """34 counts of a hand of one of ``sizes`` tiles, at most four copies of a tile."""
    size = draw(st.sampled_from(sizes))
    tiles = draw(st.lists(st.integers(0, NUM_TILE_KINDS - 1), min_size=size, max_size=size))
    held = bytearray(NUM_TILE_KINDS)
    for tile in tiles:
        if held[tile] < 4:
            held[tile] += 1
    return bytes(held)


@FUZZ
@given(counts(), st.integers(0, 4))
def test_regular_draws_agree_with_the_tables_in_python(held: bytes, melds_wanted: int) -> None:
    tables()
    assert _kernel.regular_draws(held, melds_wanted) == regular_improving_draws(held, melds_wanted)


@FUZZ
@given(st.binary(max_size=40), st.integers(-3, 8))
def test_regular_draws_refuse_what_is_not_a_hand(raw: bytes, melds_wanted: int) -> None:
    tables()
    legal = len(raw) == NUM_TILE_KINDS and max(raw, default=0) <= 4 and 0 <= melds_wanted <= 4
    if legal:
        distance, flags = _kernel.regular_draws(raw, melds_wanted)
        assert 0 <= distance <= 255 and len(flags) == NUM_TILE_KINDS
    else:
        with pytest.raises(ValueError):
            _kernel.regular_draws(raw, melds_wanted)


MELD_CHOICES = [(1, 31), (0, 2), (3, 27), (2, 15), (4, 33), (1, 13), (0, 19), (1, 0)]
MELD_TILES = {0: 3, 1: 3, 2: 4, 3: 4, 4: 4}


@st.composite
def searches(draw: st.DrawFn) -> dict[str, Any]:
    """Arguments of a legal search: a 3n+2 hand with melds, an unseen wall, reds, dora, winds."""
    melds = draw(st.lists(st.sampled_from(MELD_CHOICES), max_size=4, unique_by=lambda m: m[1]))
    used = bytearray(NUM_TILE_KINDS)
    for kind, first in melds:
        for offset in range(3) if kind == 0 else [0] * MELD_TILES[kind]:
            used[first + offset] += 1
    size = 14 - 3 * len(melds)
    pool = [tile for tile in range(NUM_TILE_KINDS) for _ in range(4 - used[tile])]
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size, unique=True))
    start = bytearray(NUM_TILE_KINDS)
    for index in picks:
        start[pool[index]] += 1
    hidden = draw(st.lists(st.integers(0, 3), min_size=NUM_TILE_KINDS, max_size=NUM_TILE_KINDS))
    unseen = bytes(max(0, 4 - used[t] - start[t] - hidden[t]) for t in range(NUM_TILE_KINDS))
    red = 0
    for suit, five in enumerate(FIVES):
        if start[five] and draw(st.booleans()):
            red |= 1 << suit
    first_turn = draw(st.integers(1, 17))
    return {
        "start": bytes(start),
        "unseen": unseen,
        "melds": melds,
        "start_red": red,
        "dora_indicators": draw(st.lists(st.integers(0, NUM_TILE_KINDS - 1), max_size=5)),
        "round_wind": draw(st.integers(27, 30)),
        "seat_wind": draw(st.integers(27, 30)),
        "options": kernel_options(
            replace(
                RIICHI,
                seven_pairs=draw(st.sampled_from(list(SevenPairs))),
                thirteen_orphans=draw(st.booleans()),
                red_fives=draw(st.booleans()),
            )
        ),
        "extra": draw(st.integers(0, 3)),
        "max_states": draw(st.integers(0, 3_000)),
        "seconds": -1.0,
        "cancelled": None,
        "first_turn": first_turn,
        "last_turn": draw(st.integers(first_turn, 24)),
        "nuki": 0,
    }


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(searches())
def test_any_legal_search_answers_probabilities(arguments: dict[str, Any]) -> None:
    tables()
    discards, states, stop = _kernel.expected_scores(**arguments)
    assert stop in (0, 1, 2) and states >= 1
    turns = arguments["last_turn"] - arguments["first_turn"] + 1
    for tile, red, shanten, rows in discards:
        assert arguments["start"][tile] > 0 and isinstance(red, bool) and shanten >= -1
        assert len(rows) == turns
        for turn, tenpai, win, score in rows:
            assert arguments["first_turn"] <= turn <= arguments["last_turn"]
            assert 0.0 <= win <= 1.0 + 1e-9 and 0.0 <= tenpai <= 1.0 + 1e-9
            assert math.isfinite(score) and score >= 0.0


@FUZZ
@given(searches(), st.sampled_from(["start", "unseen", "melds", "start_red", "dora_indicators", "round_wind", "turns"]))
def test_a_broken_argument_is_refused(arguments: dict[str, Any], broken: str) -> None:
    tables()
    if broken == "start":
        arguments["start"] = arguments["start"][:-1]
    elif broken == "unseen":
        arguments["unseen"] = b"\x09" + arguments["unseen"][1:]
    elif broken == "melds":
        arguments["melds"] = [*arguments["melds"], (5, 0)]
    elif broken == "start_red":
        arguments["start_red"] = 8
    elif broken == "dora_indicators":
        arguments["dora_indicators"] = [*arguments["dora_indicators"], 40]
    elif broken == "round_wind":
        arguments["round_wind"] = 31
    else:
        arguments["first_turn"], arguments["last_turn"] = 5, 4
    with pytest.raises(ValueError):
        _kernel.expected_scores(**arguments)
