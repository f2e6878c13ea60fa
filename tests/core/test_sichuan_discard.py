"""/discard's advice under Sichuan rules: void tiles first, then discards valued by the Sichuan scorer."""

from __future__ import annotations

import pytest

from app.core.advice.discard import DiscardModel, advise_discards, ranking_model
from app.core.advice.sichuan_value import SICHUAN_DRAWS, discard_values
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand
from app.core.shape.rules import rule_profile
from app.core.shape.tiles import format_tile, parse_mpsz
from app.core.value.scoring_context import WinContext
from app.core.value.sichuan_scoring import score_sichuan

SICHUAN = rule_profile("sichuan")


def _advise(text: str, **situation: object) -> tuple[list[str], object]:
    candidates, search = advise_discards(Hand.from_tiles(parse_mpsz(text)), SICHUAN, **situation)
    return [format_tile(candidate.tile) for candidate in candidates], (candidates, search)


def test_sichuan_is_ranked_by_its_own_value_model() -> None:
    assert ranking_model(SICHUAN, DiscardModel.EXPECTED_SCORE).model is DiscardModel.EXPECTED_SCORE


def test_a_near_flush_beats_a_faster_two_suit_hand() -> None:
    # Throwing 1m is ready at once (123m 345m 678m 99m 45p: 3p 6p, a plain hand worth 1); throwing
    # a pin is one from ready in man alone, whose wins are flushes (清一色: 2 fans, 4 base points).
    tiles, (candidates, search) = _advise("1123345678m99m45p", void_suit=2)
    assert tiles[0] in ("4p", "5p") and search.model is DiscardModel.EXPECTED_SCORE and search.complete
    by_tile = {format_tile(c.tile): c for c in candidates}
    assert by_tile["1m"].shanten == 0 and by_tile[tiles[0]].shanten == 1
    assert by_tile["1m"].expected.win_probability > by_tile[tiles[0]].expected.win_probability
    assert by_tile[tiles[0]].expected.expected_score > by_tile["1m"].expected.expected_score
    assert "base points" in by_tile[tiles[0]].reasons[0]


def test_void_tiles_go_first_and_alone() -> None:
    tiles, (candidates, _) = _advise("123456789m112p59s", void_suit=2)
    assert sorted(tiles) == ["5s", "9s"]
    assert all(candidate.void_suit == 2 and "void suit s" in candidate.reasons[0] for candidate in candidates)
    # With no void tile held, every tile is a candidate and none says so.
    tiles, (candidates, _) = _advise("123456789m11234p", void_suit=2)
    assert len(tiles) == len(set(parse_mpsz("123456789m11234p"))) and all(c.void_suit is None for c in candidates)


def test_no_void_suit_named_plays_the_best_suit() -> None:
    tiles, (candidates, _) = _advise("123456789m1123p5s")
    assert tiles == ["5s"] and candidates[0].void_suit == 2


def test_a_ready_hand_is_worth_its_wins_by_the_scorer() -> None:
    # Nine gates in man with a 5s to throw (void s): after it, every man tile wins. Valued by
    # hand: each wait as likely as its unseen copies, a win within 13 draws with probability
    # 1 - (1 - copies / unseen) ** 13, worth its multiplier as a discard win.
    hand = Hand.from_tiles(parse_mpsz("1112345678999m5s"))
    checker = Checker(SICHUAN, 2)
    unseen = checker.remaining(hand)
    found = discard_values(hand, checker, unseen, tiles=[22])
    (value,) = found.discards
    ready = Hand.from_tiles(parse_mpsz("1112345678999m"))
    copies = {tile: unseen[tile] for tile in range(9)}
    total = sum(unseen)
    worth = {
        tile: score_sichuan(ready.with_tile(tile), tile, SICHUAN, WinContext(0, 1, 2, void_suit=2)).multiplier
        for tile in range(9)
    }
    win = 1 - (1 - sum(copies.values()) / total) ** SICHUAN_DRAWS
    expected = win * sum(copies[t] * worth[t] for t in range(9)) / sum(copies.values())
    assert value.tenpai_probability == 1.0
    assert value.win_probability == pytest.approx(win, abs=1e-12)
    assert value.expected_score == pytest.approx(expected, abs=1e-12)
    assert min(worth.values()) >= 4  # every win is a flush
    assert worth[0] == worth[8] == 8 > worth[4] == 4  # 1m or 9m makes a quad: 根 doubles the flush


def test_the_search_is_bounded_and_says_so() -> None:
    hand = Hand.from_tiles(parse_mpsz("1245m3456789p11s2s"))
    checker = Checker(SICHUAN, 2)
    found = discard_values(hand, checker, checker.remaining(hand), max_states=5)
    assert not found.complete and found.stopped_by == "states" and found.states == 5
    late = discard_values(hand, checker, checker.remaining(hand), deadline=0.0)
    assert not late.complete and late.stopped_by == "time"
