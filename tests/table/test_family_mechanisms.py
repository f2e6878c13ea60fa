"""The table's general mechanisms a family may switch on, played by a family made here.

No family of today uses them; the regional rules that come next do (a wildcard chosen by a
tile turned at the deal, tiles turned after a win for its settlement, a payment made when a
discard is down, kongs paid at once on a table where a win ends the hand).  The family below
is the ``chinese`` table with all of them switched on; self-play deals it, the dealer audits
every tile after every event, and the referee, replaying the log with the same family, must
agree with every hand's deltas.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Final

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.families.chinese.table import flat_payments
from app.core.shape.hand import Hand
from app.core.shape.rules import RuleProfile, rule_profile
from app.core.shape.tiles import dora_from_indicator
from app.core.table.family import Family, TableView
from app.core.table.game import GameConfig, GameRecord, play_game
from app.core.table.mjai import MalformedEvent, kind_of, parse_pai, tile_name
from app.core.table.play_rules import BARE_TABLE
from app.core.table.referee import judge
from app.core.table.seats import Win

#: Tiles a win turns from the wall; each of the winner's kind pays one more from every payer.
REVEALED: Final = 3
#: What the dealer pays each other seat when the first four discards are one tile.
FOLLOWED: Final = 1


class MechanismsFamily(Family):
    """The chinese table with a turned wildcard, tiles turned after a win, a payment after the
    first four discards and kongs paid at once."""

    name = "chinese"
    presets = MappingProxyType(
        {"chinese": replace(BARE_TABLE, dead_wall=1, open_kong_payment=3, added_kong_payment=1, closed_kong_payment=2)}
    )
    reveals_after_win = True

    def indicates_wildcards(self, rules: RuleProfile) -> bool:
        return True

    def hand_rules(self, rules: RuleProfile, indicator: int | None) -> RuleProfile:
        assert indicator is not None
        return replace(rules, wildcards=(dora_from_indicator(indicator),))

    def kept_in_hand(self, rules: RuleProfile) -> frozenset[int]:
        return frozenset(rules.wildcards)  # a wildcard is never thrown

    def revealed_count(self, machine: TableView, seat: int) -> int:
        return REVEALED

    def score_win(self, machine: TableView, seat: int, target: int, tile: int, ura: tuple[int, ...]) -> Win:
        hits = sum(1 for revealed in ura if kind_of(revealed) % 9 == seat)
        base = flat_payments(seat, None if seat == target else target, machine.seats)
        return Win(seat, target, tile, None, tuple(delta * (1 + hits) for delta in base))

    def takes(self, machine: TableView, seat: int, target: int, tile: int, whole: Hand) -> bool:
        return True

    def payment_after_discard(self, machine: TableView) -> tuple[int, ...] | None:
        first = machine.first_discards
        if len(first) != machine.seats or machine.interrupted or len(set(first)) != 1:
            return None
        if machine.players[(machine.oya + machine.seats - 1) % machine.seats].river[1:]:
            return None  # only once: when the fourth first discard is down
        deltas = [FOLLOWED] * machine.seats
        deltas[machine.oya] = -FOLLOWED * (machine.seats - 1)
        return tuple(deltas)


FAMILY: Final = MechanismsFamily()
TABLES: Final = MappingProxyType({"chinese": FAMILY})


def _games(seed: int, games: int) -> list[GameRecord]:
    config = GameConfig("chinese", ("greedy",) * 4, seed=seed, audit=True)
    return [play_game(config, game, TABLES) for game in range(games)]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_the_mechanisms_conserve_tiles_and_points_and_the_referee_agrees(seed: int) -> None:
    for record in _games(seed, 2):
        events = list(record.events)
        start = next(event for event in events if event["type"] == "start_kyoku")
        indicator = start["wildcard_indicator"]
        assert start["wildcards"], "the hand names the wildcard its indicator chose"
        wild = start["wildcards"][0]
        assert not [event for event in events if event["type"] == "dahai" and event["pai"] == wild]
        for hora in (event for event in events if event["type"] == "hora"):
            assert len(hora["revealed"]) <= REVEALED
            assert indicator not in hora["revealed"] or hora["revealed"].count(indicator) < 4
        for hand in record.hands:
            assert sum(hand.payments) == 0
        report = judge(events, rule_profile("chinese"), family=FAMILY)
        assert report.valid, report.problems[:3]
        assert [hand.deltas for hand in report.hands] == [hand.logged_deltas for hand in report.hands]


def test_a_kong_paid_at_once_rides_on_a_drawn_hand_and_on_a_win() -> None:
    """Over many seeded hands some have kongs: their payments are in the hand's deltas whether
    the hand is won or drawn, and the referee's sum is the log's."""
    kong_hands = 0
    for record in _games(7, 60):
        events = list(record.events)
        report = judge(events, rule_profile("chinese"), family=FAMILY)
        assert report.valid, report.problems[:3]
        kongs = sum(event["type"] in ("daiminkan", "ankan", "kakan") for event in events)
        kong_hands += kongs > 0
        for hand in report.hands:
            assert hand.deltas == hand.logged_deltas
            assert sum(hand.deltas) == 0
    assert kong_hands > 0, "the seeded games must include kongs for this check to mean anything"


def test_the_referee_refuses_a_deal_without_its_indicator() -> None:
    record = _games(3, 1)[0]
    events = [dict(event) for event in record.events]
    start = next(event for event in events if event["type"] == "start_kyoku")
    del start["wildcard_indicator"]
    with pytest.raises(MalformedEvent) as refused:
        judge(events, rule_profile("chinese"), family=FAMILY)
    assert str(refused.value.field).endswith("wildcard_indicator")


def test_a_table_without_the_mechanisms_refuses_their_fields() -> None:
    from app.core.families.registry import family_of

    record = _games(3, 1)[0]
    with pytest.raises(MalformedEvent) as refused:
        judge(list(record.events), rule_profile("chinese"), family=family_of("chinese"))
    assert str(refused.value.field).endswith("wildcard_indicator")


@pytest.mark.parametrize("seed", [11, 12])
def test_the_hands_wildcard_is_the_indicators_successor(seed: int) -> None:
    for record in _games(seed, 3):
        start = next(event for event in record.events if event["type"] == "start_kyoku")
        successor = dora_from_indicator(kind_of(parse_pai(start["wildcard_indicator"], "x")))
        assert start["wildcards"] == [tile_name(successor)]
