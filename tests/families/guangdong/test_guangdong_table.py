"""Guangdong 推倒胡 at the table: self-play deals and plays it, the referee judges its logs.

Properties over seeded games in several rooms: no tile is created or lost (the dealer's audit
after every event), every hand is zero-sum, the referee replaying the log agrees with every
hand's deltas (the win, its horses and the kongs paid at once), each deal turns the indicator
whose successor is the hand's ghost, and each win turns as many horses as its hand draws.
"""

from __future__ import annotations

from typing import Any, Final

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.families.guangdong.options import GhostMode
from app.core.families.guangdong.payments import horse_count
from app.core.families.guangdong.table import GuangdongTable, options_of
from app.core.families.registry import TABLES, family_of
from app.core.families.registry import table_rules_of as rules_of
from app.core.shape.tiles import dora_from_indicator
from app.core.table.game import GameConfig, GameRecord, play_game
from app.core.table.mjai import kind_of, parse_pai, tile_name
from app.core.table.referee import judge

#: Rooms the properties play: the text's, and rooms that switch on what it leaves off.
ROOMS: Final[tuple[dict[str, Any], ...]] = (
    {},
    {"discard_wins": True, "follow_dealer": True},
    {"ghost": "white", "chi": True},
    {"ghost": "none", "discard_wins": True, "fan_list": True},
    {"flowers": True, "kong_bloom_liability": True},
)
PLAYERS: Final = ("greedy", "linear", "greedy", "heuristic")


def _games(room: dict[str, Any], seed: int, games: int) -> list[GameRecord]:
    config = GameConfig("guangdong", PLAYERS, seed=seed, audit=True, options=tuple(sorted(room.items())))
    return [play_game(config, game, TABLES) for game in range(games)]


FAMILY: Final = TABLES["guangdong"]


def test_the_registry_plays_guangdong_with_its_family() -> None:
    rules = rules_of("guangdong")
    assert family_of(rules) is FAMILY and isinstance(FAMILY, GuangdongTable)
    assert options_of(rules).ghost is GhostMode.FLIP
    assert FAMILY.play_rules(rules).open_kong_payment == 3


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(room=st.sampled_from(ROOMS), seed=st.integers(0, 2**31))
def test_self_play_conserves_tiles_and_points_and_the_referee_agrees(room: dict[str, Any], seed: int) -> None:
    rules = rules_of("guangdong", **room)
    options = options_of(rules)
    for record in _games(room, seed, 2):
        events = record.events
        start = next(event for event in events if event["type"] == "start_kyoku")
        ghost = None
        if options.ghost is GhostMode.FLIP:
            ghost = dora_from_indicator(kind_of(parse_pai(start["wildcard_indicator"], "wildcard_indicator")))
            assert start["wildcards"] == [tile_name(ghost)]
        elif options.ghost is GhostMode.WHITE:
            ghost = 31
            assert start["wildcards"] == ["P"]
        else:
            assert "wildcards" not in start and "wildcard_indicator" not in start
        for hand in record.hands:
            assert sum(hand.payments) == 0
        report = judge(events, rules, family=FAMILY)
        assert report.valid, report.problems[:3]
        assert [hand.deltas for hand in report.hands] == [hand.logged_deltas for hand in report.hands]
        for hora in (event for event in events if event["type"] == "hora"):
            assert len(hora["revealed"]) <= max(options.horses, options.horses_without_ghost)
            if ghost is not None:
                assert len(hora["revealed"]) in (horse_count(options, ghost, 0), horse_count(options, ghost, 1)) or (
                    len(hora["revealed"]) < options.horses
                )  # fewer only where the wall ran short


def test_a_self_draw_only_room_never_wins_on_a_discard() -> None:
    wins = 0
    for record in _games({}, 5, 20):
        for hora in (event for event in record.events if event["type"] == "hora"):
            wins += 1
            assert hora["actor"] == hora["target"] or any(event["type"] == "kakan" for event in record.events), (
                "only self-draws and robbed kongs win in the text's room"
            )
    assert wins > 0


def test_kongs_are_paid_at_once_and_ride_on_the_hands_deltas() -> None:
    """Over seeded games some hands have kongs; the referee's deltas (kongs included) are the log's."""
    kong_hands = 0
    for record in _games({"discard_wins": True}, 9, 40):
        report = judge(record.events, rules_of("guangdong", discard_wins=True), family=FAMILY)
        assert report.valid, report.problems[:3]
        kong_hands += any(event["type"] in ("daiminkan", "ankan", "kakan") for event in record.events)
        assert [hand.deltas for hand in report.hands] == [hand.logged_deltas for hand in report.hands]
    assert kong_hands > 0


@pytest.mark.parametrize("option", ["discard_wins", "horses"])
def test_a_bad_room_option_is_refused_at_the_table(option: str) -> None:
    from app.core.errors import TenpaiError

    with pytest.raises(TenpaiError) as refused:
        _games({option: "sometimes"}, 1, 1)
    assert refused.value.field == "rules"


def test_another_familys_option_is_refused() -> None:
    from app.core.errors import TenpaiError

    with pytest.raises(TenpaiError):
        _games({"kiriage": True}, 1, 1)
