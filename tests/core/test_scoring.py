"""Qiqihar scoring (seed 004 section 4): the worked example and every seat arrangement; and
``win_payments``, the payments alone, against ``score`` under every profile that has them."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from riichi_situations import random_situation

from app.core.errors import NotAWinningHand, TenpaiError
from app.core.shape.hand import Hand, Meld
from app.core.shape.rules import rule_profile
from app.core.shape.tiles import parse_mpsz
from app.core.value.scoring import InvalidWinContext, WinContext, score, win_payments

QIQIHAR = rule_profile("qiqihar")
PON_EAST = Meld.of("pon", [27, 27, 27])
KONG_EAST = Meld.of("added_kan", [27] * 4)
WITH_RED = Hand.from_tiles(parse_mpsz("123m456p78s99s7z"), [PON_EAST])
WITHOUT_RED = Hand.from_tiles(parse_mpsz("123m456p789s99s"), [PON_EAST])
WITH_RED_KONG = Hand.from_tiles(parse_mpsz("123m456p78s99s7z"), [KONG_EAST])
WITHOUT_RED_KONG = Hand.from_tiles(parse_mpsz("123m456p789s99s"), [KONG_EAST])
NINE_SOU = 26


def test_seed_worked_example() -> None:
    result = score(WITH_RED, NINE_SOU, QIQIHAR, WinContext(winner=0, dealer=0))
    assert result.payments == (24, -8, -8, -8)


def _contexts():
    for winner, dealer in itertools.product(range(4), range(4)):
        yield WinContext(winner, dealer)
        yield WinContext(winner, dealer, kong_replacement=True)
        for discarder in range(4):
            if discarder != winner:
                yield WinContext(winner, dealer, discarder)
                yield WinContext(winner, dealer, discarder, robbed_kong=True)


@pytest.mark.parametrize("hand", [WITH_RED, WITHOUT_RED, WITH_RED_KONG, WITHOUT_RED_KONG])
def test_every_arrangement_pays_by_the_rule(hand: Hand) -> None:
    has_kong = any(meld.kind.size == 4 for meld in hand.melds)
    for context in _contexts():
        if context.kong_replacement and not has_kong:
            continue  # refused: see test_a_kong_replacement_win_needs_a_kong
        result = score(hand, NINE_SOU, QIQIHAR, context)
        assert sum(result.payments) == 0
        base = 2 * (2 if hand.counts[33] else 1) * (2 if context.kong_replacement else 1)
        base *= 2 if context.robbed_kong else 1
        payers = [context.discarder] if context.discarder is not None else [s for s in range(4) if s != context.winner]
        expected = {seat: base * (2 if context.dealer in (seat, context.winner) else 1) for seat in payers}
        assert dict(result.per_payer) == expected
        assert result.payments[context.winner] == sum(expected.values())
        for seat in range(4):
            if seat != context.winner:
                assert result.payments[seat] == -expected.get(seat, 0)


def test_a_kong_replacement_win_needs_a_kong() -> None:
    with pytest.raises(InvalidWinContext) as refused:
        score(WITH_RED, NINE_SOU, QIQIHAR, WinContext(0, 0, kong_replacement=True))
    assert refused.value.field == "kong_replacement"


def test_a_closed_hand_does_not_win_under_qiqihar() -> None:
    closed = Hand.from_tiles(parse_mpsz("123m456p78s99s7z111z"))
    with pytest.raises(NotAWinningHand):
        score(closed, NINE_SOU, QIQIHAR, WinContext(0, 0))


@pytest.mark.parametrize(
    "context",
    [
        WinContext(0, 0, 0),
        WinContext(0, 0, 1, kong_replacement=True),
        WinContext(0, 0, robbed_kong=True),
        WinContext(5, 0),
    ],
)
def test_impossible_contexts_are_refused(context: WinContext) -> None:
    with pytest.raises(InvalidWinContext):
        score(WITH_RED, NINE_SOU, QIQIHAR, context)


def _paid(scorer: Any, *request: Any) -> tuple[Any, ...]:
    try:
        return ("paid", tuple(scorer(*request)))
    except TenpaiError as error:
        return ("error", type(error).__name__, str(error), error.field)


@pytest.mark.parametrize("preset", ["riichi", "sanma", "qiqihar"])
def test_win_payments_are_the_scores_payments(preset: str) -> None:
    """Generated wins, some with their flags drawn freely (refused) or without a yaku."""
    rules = rule_profile(preset)
    rng = random.Random(17)
    outcomes = set()
    for _ in range(400):
        situation = random_situation(rng, rules=rule_profile("sanma" if preset == "sanma" else "riichi"))
        context = situation.context
        if rng.random() < 0.3:
            context = context._replace(riichi=rng.random() < 0.5, ippatsu=rng.random() < 0.5, last_tile=True)
        request = (situation.hand, situation.win_tile, rules, context)
        paid = _paid(win_payments, *request)
        assert paid == _paid(lambda *r: score(*r).payments, *request), request
        outcomes.add(paid[0] if paid[0] == "paid" else paid[1])
    assert "paid" in outcomes and len(outcomes) > 1  # scored and refused requests were both tried
