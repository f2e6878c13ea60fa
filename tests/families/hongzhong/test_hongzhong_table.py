"""Hunan 红中麻将 at the table: self-play deals and plays it, the referee judges its logs.

Properties over seeded games in several rooms: no tile is created or lost (the dealer's audit
after every event), every hand is zero-sum, the referee replaying the log agrees with every
hand's deltas (the win, its birds and the kongs paid at once), 红中 is never called, a win
turns as many birds as the hand draws (fewer only where the wall ran short), and a room that
keeps 红中 in the hand never sees one thrown.
"""

from __future__ import annotations

from typing import Any, Final

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.errors import TenpaiError
from app.core.families.hongzhong.options import HongzhongOptions
from app.core.families.hongzhong.table import HongzhongTable, options_of
from app.core.families.registry import TABLES, family_of
from app.core.families.registry import table_rules_of as rules_of
from app.core.table.game import GameConfig, GameRecord, play_game
from app.core.table.referee import judge

#: Rooms the properties play: the text's, and rooms that switch on what it leaves off.
ROOMS: Final[tuple[dict[str, Any], ...]] = (
    {},
    {"discard_wins": True, "birds": 4},
    {"discard_wins": True, "discard_win_needs_no_red": False, "kongs_pay_on_draw": False},
    {"red_discardable": False, "wild_seven_pairs": True, "birds": 6},
    {"four_red_wins": False, "no_red_multiplier": 2, "bird_counting": "from_winner"},
)
PLAYERS: Final = ("greedy", "linear", "greedy", "heuristic")
RED: Final = "C"


def _games(room: dict[str, Any], seed: int, games: int) -> list[GameRecord]:
    config = GameConfig("hongzhong", PLAYERS, seed=seed, audit=True, options=tuple(sorted(room.items())))
    return [play_game(config, game, TABLES) for game in range(games)]


FAMILY: Final = TABLES["hongzhong"]


def test_the_registry_plays_hongzhong_with_its_family() -> None:
    rules = rules_of("hongzhong")
    assert family_of(rules) is FAMILY and isinstance(FAMILY, HongzhongTable)
    assert options_of(rules) == HongzhongOptions()
    assert rules.tile_total == 112 and FAMILY.play_rules(rules).dead_wall == 2


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(room=st.sampled_from(ROOMS), seed=st.integers(0, 2**31))
def test_self_play_conserves_tiles_and_points_and_the_referee_agrees(room: dict[str, Any], seed: int) -> None:
    rules = rules_of("hongzhong", **room)
    options = options_of(rules)
    for record in _games(room, seed, 2):
        events = record.events
        for hand in record.hands:
            assert sum(hand.payments) == 0
        report = judge(events, rules, family=FAMILY)
        assert report.valid, report.problems[:3]
        assert [hand.deltas for hand in report.hands] == [hand.logged_deltas for hand in report.hands]
        for event in events:
            if event["type"] in ("pon", "daiminkan"):
                assert event["pai"] != RED, "红中 is never called"
            if event["type"] == "dahai" and not options.red_discardable:
                assert event["pai"] != RED
            if event["type"] == "hora":
                assert len(event["revealed"]) <= options.birds + options.no_red_extra_birds
                if not options.discard_wins:
                    robbed = any(e["type"] == "kakan" for e in events)
                    assert event["actor"] == event["target"] or robbed


def test_kongs_are_paid_at_once_and_ride_on_the_hands_deltas() -> None:
    kong_hands = 0
    for room in ({}, {"kongs_pay_on_draw": False}):
        for record in _games(room, 9, 30):
            report = judge(record.events, rules_of("hongzhong", **room), family=FAMILY)
            assert report.valid, report.problems[:3]
            kong_hands += any(event["type"] in ("daiminkan", "ankan", "kakan") for event in record.events)
            assert [hand.deltas for hand in report.hands] == [hand.logged_deltas for hand in report.hands]
    assert kong_hands > 0


def test_a_drawn_hand_gives_the_kongs_back_when_the_room_says_so() -> None:
    """荒庄荒杠: with kongs_pay_on_draw off, a hand nobody wins ends with every seat where it began."""
    drawn = 0
    for record in _games({"kongs_pay_on_draw": False}, 21, 40):
        for hand in record.hands:
            if hand.winner is None:
                drawn += 1
                assert hand.payments == (0, 0, 0, 0)
    assert drawn > 0


@pytest.mark.parametrize("option", ["discard_wins", "birds"])
def test_a_bad_room_option_is_refused_at_the_table(option: str) -> None:
    with pytest.raises(TenpaiError) as refused:
        _games({option: "sometimes"}, 1, 1)
    assert refused.value.field == "rules"
