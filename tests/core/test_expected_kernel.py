"""The compiled expected-score search against the plain Python search it replaced.

``expected_score_reference.py`` (beside this file) is the search as it was written in Python
before the kernel, kept as the oracle: the same graph built in the same order, valued with
numpy.  The kernel builds the same states and edges in the same order and does the same
floating-point operations in the same order, so the answers are not merely close: every
probability and score of every turn is equal to the bit (the tests allow 1e-12, relative, as
issue 23 states the bar).

Hands: ``bench/run_expected.py``'s (its seed 13) and a second seed, sampled by default and in
full under ``--full-oracles``; generated hands with melds, red fives, several dora indicators,
other winds, other ``extra`` and turns, and searches cut by the state budget.
"""

from __future__ import annotations

import importlib.util
import random
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import expected_score_reference as reference
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracle_sample import scaled

from app.core import _kernel
from app.core.advice.expected_score import DEFAULT_MAX_STATES, ExpectedScores, expected_scores
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld
from app.core.shape.rules import rule_profile
from app.core.shape.tiles import NUM_TILE_KINDS
from app.core.value.riichi_scoring import kernel_options

ROOT = Path(__file__).resolve().parents[2]
RIICHI = rule_profile("riichi")
CHECKER = Checker(RIICHI)
FIVES = (4, 13, 22)
RELATIVE = 1e-12


def _bench() -> ModuleType:
    """``bench/run_expected.py``, whose hands the issue names."""
    spec = importlib.util.spec_from_file_location("run_expected", ROOT / "bench" / "run_expected.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("run_expected", module)
    spec.loader.exec_module(module)
    return module


def assert_same(old: ExpectedScores, new: ExpectedScores, label: str) -> None:
    assert (new.states, new.complete, new.stopped_by) == (old.states, old.complete, old.stopped_by), label
    assert [(d.tile, d.red, d.shanten) for d in new.discards] == [(d.tile, d.red, d.shanten) for d in old.discards]
    for before, after in zip(old.discards, new.discards, strict=True):
        assert len(after.by_turn) == len(before.by_turn)
        for row_before, row_after in zip(before.by_turn, after.by_turn, strict=True):
            assert row_after.turn == row_before.turn
            for x, y in zip(row_before[1:], row_after[1:], strict=True):
                assert abs(x - y) <= RELATIVE * max(1.0, abs(x)), (label, before.tile, row_before, row_after)
    if old.discards:
        pick_before = max(old.discards, key=lambda d: (d.expected_score, -d.tile, d.red))
        pick_after = max(new.discards, key=lambda d: (d.expected_score, -d.tile, d.red))
        assert (pick_after.tile, pick_after.red) == (pick_before.tile, pick_before.red), label


def both(hand: Hand, rules: Any = RIICHI, **situation: Any) -> tuple[ExpectedScores, ExpectedScores]:
    # The same budget on both sides (the reference keeps the Python search's old default).
    situation.setdefault("max_states", DEFAULT_MAX_STATES)
    return reference.expected_scores(hand, rules, **situation), expected_scores(hand, rules, **situation)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("seed", "tenpai", "one", "two"),
    [(13, scaled(20, 8), scaled(150, 12), scaled(150, 4)), (2026, scaled(20, 4), scaled(150, 6), scaled(150, 2))],
)
def test_the_bench_hands_and_a_second_seed(seed: int, tenpai: int, one: int, two: int) -> None:
    bench = _bench()
    for deal in bench.deal_hands(seed, {0: tenpai, 1: one, 2: two}):
        situation = {"red_fives": deal.reds, "dora_indicators": (deal.indicator,), "seat_wind": deal.seat}
        assert_same(*both(deal.hand, **situation), deal.line())


MELDS = [
    Meld.of("pon", [31, 31, 31]),
    Meld.of("chi", [2, 3, 4]),
    Meld.of("closed_kan", [27] * 4),
    Meld.of("open_kan", [15] * 4),
    Meld.of("added_kan", [33] * 4),
    Meld.of("pon", [13, 13, 13]),
]


def _deal(draw: st.DrawFn, kinds: list[int], meld_choices: list[Meld]) -> tuple[list[Meld], list[int], tuple[int, ...]]:
    """Up to two melds of ``meld_choices``, a 3n+2 concealed part and up to three dora
    indicators, dealt from four copies of each of ``kinds``."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    melds = draw(st.lists(st.sampled_from(meld_choices), max_size=2, unique_by=lambda m: m.tiles[0]))
    wall = [tile for tile in kinds for _ in range(4)]
    for meld in melds:
        for tile in meld.tiles:
            wall.remove(tile)
    rng.shuffle(wall)
    concealed = sorted(wall[: 14 - 3 * len(melds)])
    return melds, concealed, tuple(wall[14 : 14 + draw(st.integers(0, 3))])


def _search_bounds(draw: st.DrawFn) -> dict[str, int]:
    """The search's turns, extra states and state budget."""
    return {
        "extra": draw(st.integers(0, 2)),
        "first_turn": draw(st.integers(1, 6)),
        "last_turn": draw(st.integers(6, 18)),
        "max_states": draw(st.sampled_from((300, 2_000, 6_000))),
    }


def _case(concealed: list[int], melds: list[Meld], situation: dict[str, Any]) -> tuple[Hand, dict[str, Any], str]:
    return Hand(bytes(Hand.from_tiles(concealed).counts), tuple(melds)), situation, f"{concealed} {melds} {situation}"


@st.composite
def situations(draw: st.DrawFn) -> tuple[Hand, dict[str, Any], str]:
    melds, concealed, indicators = _deal(draw, list(range(NUM_TILE_KINDS)), MELDS)
    reds = tuple(five for five in FIVES if concealed.count(five) and draw(st.booleans()))
    situation = {
        "red_fives": reds,
        "dora_indicators": indicators,
        "round_wind": draw(st.sampled_from((27, 28))),
        "seat_wind": draw(st.integers(27, 30)),
        **_search_bounds(draw),
    }
    return _case(concealed, melds, situation)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(situations(), st.sampled_from(("riichi", "no_red", "kiriage", "no_kuitan")))
def test_generated_hands_with_melds_red_fives_and_dora(case: tuple[Hand, dict[str, Any], str], variant: str) -> None:
    hand, situation, label = case
    rules = {
        "riichi": RIICHI,
        "no_red": replace(RIICHI, red_fives=False),
        "kiriage": replace(RIICHI, kiriage=True, kazoe_limit="sanbaiman"),
        "no_kuitan": replace(RIICHI, open_tanyao=False, double_yakuman=False),
    }[variant]
    assert_same(*both(hand, rules, **situation), f"{variant} {label}")


SANMA = rule_profile("sanma")
SANMA_KINDS = [tile for tile in range(NUM_TILE_KINDS) if tile not in SANMA.absent_tiles]
SANMA_MELDS = [Meld.of("pon", [31, 31, 31]), Meld.of("closed_kan", [0] * 4), Meld.of("pon", [13, 13, 13])]


@st.composite
def sanma_situations(draw: st.DrawFn) -> tuple[Hand, dict[str, Any], str]:
    """A hand dealt from sanma's 108 tiles (no 2m-8m), with pons and kans (no chi), the seat's
    norths set aside, and the winds of three seats."""
    melds, concealed, indicators = _deal(draw, SANMA_KINDS, SANMA_MELDS)
    norths_left = 4 - concealed.count(30) - indicators.count(30)
    situation = {
        "red_fives": tuple(five for five in FIVES[1:] if concealed.count(five) and draw(st.booleans())),
        "dora_indicators": indicators,
        "round_wind": draw(st.sampled_from((27, 28))),
        "seat_wind": draw(st.integers(27, 29)),
        "nuki": draw(st.integers(0, min(2, norths_left))),
        **_search_bounds(draw),
    }
    return _case(concealed, melds, situation)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sanma_situations(), st.sampled_from(("sanma", "no_tsumo_loss", "no_red")))
def test_generated_sanma_hands(case: tuple[Hand, dict[str, Any], str], variant: str) -> None:
    # Three seats: the payments of a self-draw (with and without tsumo loss), the 1m indicator
    # naming 9m, no copies of 2m-8m in the wall, and norths set aside counted as dora and ura dora.
    hand, situation, label = case
    rules = {
        "sanma": SANMA,
        "no_tsumo_loss": replace(SANMA, tsumo_loss=False),
        "no_red": replace(SANMA, red_fives=False),
    }[variant]
    assert_same(*both(hand, rules, **situation), f"{variant} {label}")


def test_a_cancelled_search_stops_and_says_so() -> None:
    hand = Hand.from_tiles([0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 28, 29, 30, 31])
    calls = []

    def cancelled() -> bool:
        calls.append(1)
        return True

    found = expected_scores(hand, RIICHI, cancelled=cancelled, max_states=10**6)
    assert not found.complete and found.stopped_by is not None and found.stopped_by.value == "time"
    assert calls and found.states < 10_000


def test_the_search_releases_the_gil() -> None:
    """Two searches on two threads take less than twice one search's wall time... counted in
    work: while one thread searches, the other runs Python (a counter loop) freely."""
    hand = Hand.from_tiles([0, 1, 5, 9, 10, 14, 18, 22, 23, 27, 27, 28, 31, 33])
    done = threading.Event()
    ticks = 0

    def spin() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1

    spinner = threading.Thread(target=spin)
    spinner.start()
    try:
        started = time.process_time()
        for _ in range(3):
            expected_scores(hand, RIICHI, dora_indicators=(5,))
        searched = time.process_time() - started
    finally:
        done.set()
        spinner.join()
    # With the GIL held for the whole search the spinner would run only at the search's
    # edges; released, it counts all along (millions of ticks a second).
    assert ticks > 1000 * max(1.0, searched), (ticks, searched)


BAD_CALLS = [
    ({"start": b"\x01" * 33}, "34 counts"),
    ({"start": b"\x05" + b"\x00" * 33}, "4 copies"),
    ({"unseen": b"\x04" * 34}, "with the hand"),
    ({"melds": [(7, 0)]}, "kind"),
    ({"melds": [(0, 7)]}, "kind"),
    ({"start_red": 9}, "three bits"),
    ({"start_red": 1}, "does not hold"),
    ({"dora_indicators": [34]}, "0-33"),
    ({"dora_indicators": [1] * 6}, "at most 5"),
    ({"round_wind": 3}, "winds"),
    ({"first_turn": 0}, "turns"),
    # Three seats: no North seat, and norths set aside count against the four copies.
    ({"seat_wind": 30, "options": kernel_options(SANMA)}, "seat_wind"),
    ({"nuki": 4, "options": kernel_options(SANMA)}, "nuki"),
    ({"nuki": -1}, "nuki"),
]


def _good_arguments() -> dict[str, Any]:
    """A legal search's arguments: a closed hand one from tenpai, the riichi scorer's options."""
    counts = bytearray(NUM_TILE_KINDS)
    for tile in [0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27, 27, 28, 28]:
        counts[tile] += 1
    return {
        "start": bytes(counts),
        "unseen": bytes(4 - c for c in counts),
        "melds": [],
        "start_red": 0,
        "dora_indicators": [],
        "round_wind": 27,
        "seat_wind": 28,
        "options": kernel_options(RIICHI),
        "extra": 1,
        "max_states": 1000,
        "seconds": -1.0,
        "cancelled": None,
        "first_turn": 1,
        "last_turn": 18,
        "nuki": 0,
    }


@pytest.mark.parametrize(("change", "says"), BAD_CALLS)
def test_the_kernel_refuses_bad_arguments(change: dict[str, Any], says: str) -> None:
    """Python validates first; the kernel still refuses what would read outside its tables."""
    arguments = _good_arguments()
    arguments.update(change)
    with pytest.raises(ValueError, match=says):
        _kernel.expected_scores(**arguments)


def test_the_kernel_takes_only_the_scorers_options() -> None:
    """The rules reach the search as the riichi scorer's own options object, nothing else."""
    with pytest.raises(TypeError):
        _kernel.expected_scores(**{**_good_arguments(), "options": (True,) * 3})
