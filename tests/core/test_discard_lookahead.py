"""The lookahead: its memoised, vectorised search against a naive recursion of the same model."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from app.core.advice import discard as discard_module
from app.core.advice import lookahead as lookahead_module
from app.core.advice.discard import DiscardOptions, evaluate_discards
from app.core.advice.lookahead import LookaheadStop, lookahead
from app.core.errors import WrongTileCount
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld
from app.core.shape.rules import rule_profile
from app.core.shape.tiles import NUM_TILE_KINDS, counts_from_tiles, parse_mpsz

RIICHI = rule_profile("riichi")
QIQIHAR = rule_profile("qiqihar")
NOTHING = bytes(NUM_TILE_KINDS)


def naive(hand: Hand, checker: Checker, seen: bytes, draws: int) -> tuple[float, float]:
    """The model, written as plainly as possible: every draw, every discard, no memo."""
    start = hand.counts
    wall0 = [4 - c - s for c, s in zip(hand.all_counts() if hand.melds else start, seen, strict=True)]

    def analyse(counts: bytes) -> tuple[int, list[int], bool]:
        h = Hand(counts, hand.melds)
        result = checker.shanten(h)
        tiles = [t.tile for t in result.ukeire]
        return result.shanten, tiles, result.shanten == 0 and bool(tiles) and checker.precondition_failure(h) is None

    def recurse(counts: bytes, left: int) -> tuple[float, float]:
        shanten, ukeire, ready = analyse(counts)
        wall = [max(0, w - max(0, c - s)) for w, c, s in zip(wall0, counts, start, strict=True)]
        total = sum(wall)
        if ready:
            if left == 0 or not total:
                return 1.0, 0.0
            hit = sum(wall[t] for t in ukeire) / total
            return 1.0, hit + (1 - hit) * recurse(counts, left - 1)[1]
        if left == 0 or shanten <= 0 or not total:
            return 0.0, 0.0
        tenpai = win = 0.0
        for tile in range(NUM_TILE_KINDS):
            if not wall[tile]:
                continue
            p = wall[tile] / total
            if tile in ukeire and counts[tile] < 4:
                best = (0.0, 0.0)
                best_t = best_w = 0.0
                for discard in range(NUM_TILE_KINDS):
                    drawn = bytearray(counts)
                    drawn[tile] += 1
                    if not drawn[discard]:
                        continue
                    drawn[discard] -= 1
                    if analyse(bytes(drawn))[0] == shanten - 1:
                        t, w = recurse(bytes(drawn), left - 1)
                        best_t, best_w = max(best_t, t), max(best_w, w)
                best = (best_t, best_w)
            else:
                best = recurse(counts, left - 1)
            tenpai += p * best[0]
            win += p * best[1]
        return tenpai, win

    return recurse(start, draws)


CASES = [
    ("123m456p789s1122z", 3),  # tenpai
    ("1234678m345p5s22z", 3),  # one-shanten
    ("12368m3459p55s11z", 2),  # two-shanten (few draws: the naive recursion is slow)
    ("1122m3344p5566s7z", 3),  # seven pairs tenpai
    ("112233m4455p667s", 2),  # seven pairs and regular one-shanten
]


@pytest.mark.parametrize(("text", "draws"), CASES, ids=[c[0] for c in CASES])
def test_the_search_agrees_with_a_naive_recursion(text: str, draws: int) -> None:
    hand = Hand.from_tiles(parse_mpsz(text))
    checker = Checker(RIICHI)
    seen = counts_from_tiles(parse_mpsz("9m9m1z5s"))
    for d in range(draws + 1):
        result = lookahead(hand, checker, seen, draws=d, budget=10**6)
        expected = naive(hand, checker, seen, d)
        assert result.complete
        assert (result.tenpai_probability, result.win_probability) == pytest.approx(expected, abs=1e-12)


def test_one_draw_from_one_shanten_is_the_ukeire_share() -> None:
    hand = Hand.from_tiles(parse_mpsz("1234678m345p5s22z"))
    checker = Checker(RIICHI)
    result = lookahead(hand, checker, NOTHING, draws=1, budget=1000)
    ukeire = checker.shanten(hand).ukeire_count
    assert result.tenpai_probability == pytest.approx(ukeire / (136 - 13)) and result.win_probability == 0.0


def test_probabilities_grow_with_draws_and_stay_probabilities() -> None:
    hand = Hand.from_tiles(parse_mpsz("12368m3459p55s1z3z"))
    checker = Checker(RIICHI)
    previous = (0.0, 0.0)
    for draws in range(0, 13, 3):
        result = lookahead(hand, checker, NOTHING, draws=draws, budget=10**6)
        now = (result.tenpai_probability, result.win_probability)
        assert all(0.0 <= p <= 1.0 for p in now) and now[1] <= now[0]
        assert now[0] >= previous[0] and now[1] >= previous[1]
        previous = now


def test_over_budget_is_a_flagged_lower_bound() -> None:
    hand = Hand.from_tiles(parse_mpsz("12368m3459p55s1z3z"))
    checker = Checker(RIICHI)
    full = lookahead(hand, checker, NOTHING, draws=8, budget=10**6)
    cut = lookahead(hand, checker, NOTHING, draws=8, budget=5)
    assert full.complete and not cut.complete and cut.states == 5
    assert cut.tenpai_probability <= full.tenpai_probability and cut.win_probability <= full.win_probability


def test_a_hand_that_cannot_win_never_gets_ready() -> None:
    closed = Hand.from_tiles(parse_mpsz("123m456p789s1122z"))
    assert lookahead(closed, Checker(QIQIHAR), NOTHING, draws=5, budget=1000).tenpai_probability == 0.0
    called = Hand.from_tiles(parse_mpsz("456p789s1122z"), [Meld.of("pon", parse_mpsz("333z"))])
    result = lookahead(called, Checker(QIQIHAR), NOTHING, draws=5, budget=1000)
    assert result.tenpai_probability == 1.0 and result.win_probability > 0.0


def test_the_lookahead_starts_from_3n_plus_1_tiles() -> None:
    with pytest.raises(WrongTileCount):
        lookahead(Hand.from_tiles(parse_mpsz("123m456p789s11122z")), Checker(RIICHI), NOTHING, draws=2, budget=10)


def test_every_candidate_gets_a_lookahead_when_asked() -> None:
    hand = Hand.from_tiles(parse_mpsz("1234678m345p5s22z1z"))
    ranked = evaluate_discards(hand, RIICHI, turn=12, options=DiscardOptions(lookahead=True))
    assert all(c.lookahead is not None and c.lookahead.draws == 6 for c in ranked)  # 18 - 12 draws left
    best = next(c for c in ranked if c.tile == 27)  # the lone East
    assert best.lookahead.tenpai_probability == max(c.lookahead.tenpai_probability for c in ranked)
    explicit = evaluate_discards(hand, RIICHI, options=DiscardOptions(lookahead=True, lookahead_draws=3))
    assert all(c.lookahead.draws == 3 for c in explicit)


# --- wall-clock bounds -------------------------------------------------------------------

FAR = Hand.from_tiles(parse_mpsz("12368m3459p55s1z3z"))  # 32 states to the end in 8 draws


def _cancel_after(checks: int) -> tuple[list[int], Callable[[], bool]]:
    """A ``cancelled`` callable that answers True from its ``checks + 1``-th call on, and its call count."""
    calls = [0]

    def cancelled() -> bool:
        calls[0] += 1
        return calls[0] > checks

    return calls, cancelled


def test_a_past_deadline_stops_before_the_first_state() -> None:
    result = lookahead(FAR, Checker(RIICHI), NOTHING, draws=8, budget=10**6, deadline=0.0)
    assert not result.complete and result.stopped_by is LookaheadStop.TIME and result.states == 0
    assert (result.tenpai_probability, result.win_probability) == (0.0, 0.0)


@pytest.mark.parametrize("checks", [1, 7, 25])
def test_cut_short_by_time_is_a_flagged_lower_bound(checks: int) -> None:
    checker = Checker(RIICHI)
    full = lookahead(FAR, checker, NOTHING, draws=8, budget=10**6)
    assert full.complete and full.stopped_by is None and full.states > 25
    calls, cancelled = _cancel_after(checks)
    cut = lookahead(FAR, checker, NOTHING, draws=8, budget=10**6, cancelled=cancelled)
    # Asked once before each new state; once it says stop, no further state is examined.
    assert cut.states == checks and calls[0] == checks + 1
    assert not cut.complete and cut.stopped_by is LookaheadStop.TIME
    assert 0.0 <= cut.tenpai_probability < full.tenpai_probability
    assert 0.0 <= cut.win_probability <= full.win_probability


def test_a_generous_deadline_changes_nothing() -> None:
    checker = Checker(RIICHI)
    full = lookahead(FAR, checker, NOTHING, draws=6, budget=10**6)
    timed = lookahead(FAR, checker, NOTHING, draws=6, budget=10**6, deadline=time.monotonic() + 600)
    assert timed == full


def test_the_state_budget_says_it_stopped_the_search() -> None:
    cut = lookahead(FAR, Checker(RIICHI), NOTHING, draws=8, budget=5)
    assert not cut.complete and cut.stopped_by is LookaheadStop.STATES


HOSTILE = Hand.from_tiles(parse_mpsz("158m2479p1358s"), [Meld.of("pon", parse_mpsz("111z"))])
HOSTILE_RULES = rule_profile("riichi", melded_tiles_count_toward_limit=True)


#: Issue 14's hostile request: 95 s of CPU without a deadline.
HOSTILE_OPTIONS = DiscardOptions(lookahead=True, lookahead_draws=30, lookahead_budget=200_000)


class WorkClock:
    """A stand-in for ``time.monotonic`` that advances one tick each time it is read.

    The lookahead reads the clock once before each new state, and the discard advice once
    per candidate to share out the time left, so time on this clock counts work, the same on
    any machine however busy (on the wall clock one state takes 0.2 to 30 ms, and a state
    that overran its share once left the last candidate nothing: issue 21).
    """

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        self.now += 1.0
        return self.now


def test_the_discard_lookahead_keeps_its_deadline_and_shares_it(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = WorkClock()
    monkeypatch.setattr(discard_module, "time", clock)
    monkeypatch.setattr(lookahead_module, "time", clock)
    ticks = 220
    ranked = evaluate_discards(HOSTILE, HOSTILE_RULES, options=HOSTILE_OPTIONS, deadline=clock.now + ticks)
    searches = [c.lookahead for c in ranked if c.lookahead is not None]
    assert len(searches) == len(ranked) == 11
    assert all(s.complete or s.stopped_by is LookaheadStop.TIME for s in searches)
    assert all(s.stopped_by is LookaheadStop.TIME for s in searches)  # 95 s of work: every one was cut
    # It kept its deadline: past it by at most the one state each search may overrun by.
    assert ticks <= clock.now <= ticks + len(searches)
    # Each candidate got its share of the time: at least half an equal part, none left without a state.
    states = [s.states for s in searches]
    print("states per candidate:", states)
    assert min(states) >= ticks / len(searches) / 2
    assert sum(states) <= ticks


def test_the_discard_lookahead_keeps_a_wall_clock_deadline() -> None:
    evaluate_discards(HOSTILE, HOSTILE_RULES)  # the tables and the shanten caches: not part of what is timed
    seconds = 0.4
    started = time.monotonic()
    ranked = evaluate_discards(HOSTILE, HOSTILE_RULES, options=HOSTILE_OPTIONS, deadline=started + seconds)
    elapsed = time.monotonic() - started
    # A wide margin: past the deadline by at most one state (up to 30 ms here, more on a busy machine).
    assert elapsed < seconds + 1.0
    searches = [c.lookahead for c in ranked]
    assert all(s is not None and (s.complete or s.stopped_by is LookaheadStop.TIME) for s in searches)
    assert any(s is not None and s.stopped_by is LookaheadStop.TIME for s in searches)


def test_a_cancelled_discard_lookahead_stops_every_candidate() -> None:
    ranked = evaluate_discards(HOSTILE, HOSTILE_RULES, options=HOSTILE_OPTIONS, cancelled=lambda: True)
    assert all(c.lookahead is not None and c.lookahead.states == 0 for c in ranked)
    assert all(c.lookahead is not None and c.lookahead.stopped_by is LookaheadStop.TIME for c in ranked)
