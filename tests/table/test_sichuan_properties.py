"""Sichuan settlement over random legal play: whole hands dealt by the game dealer (the exchange,
the void suits, play on after wins) with strategies at random, random ones among them.

* every hand's payments sum to zero, kong payments, their transfers and refunds included, and
  so does each rule of the exhaustive draw's settlement;
* no seat that won pays 查大叫;
* a 花猪 pays every seat that is not one the capped win, and each of those is paid by every 花猪;
* no tile is created or lost (``audit``: after every event, the 108 tiles are in the wall, the
  hands, the melds, the rivers, the tiles won by self-draw, or passing in the exchange);
* the referee, replaying each log with every event checked, accepts it and finds its deltas.

The self-play command line's logs (``--log``) are judged the same way.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.families.registry import TABLES, family_of
from app.core.shape.rules import rule_profile
from app.core.table.game import GameConfig, play_game
from app.core.table.machine import TableMachine
from app.core.table.referee import judge
from app.selfplay.cli import main

STRATEGIES = ("random", "random", "greedy", "heuristic", "linear")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(STRATEGIES), min_size=4, max_size=4),
    st.integers(0, 10**6),
    st.booleans(),
    st.booleans(),
)
def test_random_legal_sichuan_play_settles_every_hand_to_zero(
    players: list[str], seed: int, bloody_river: bool, exchange_three: bool
) -> None:
    options = (("bloody_river", bloody_river), ("exchange_three", exchange_three))
    record = play_game(GameConfig("sichuan", tuple(players), seed=seed, audit=True, options=options), 0, TABLES)
    rules = rule_profile("sichuan", **dict(options))
    events = json.loads(json.dumps(record.events))
    report = judge(events, rules, family=family_of(rules))
    assert report.valid, report.problems[:3]
    assert all(hand.deltas == hand.logged_deltas for hand in report.hands)
    assert all(sum(hand.payments) == 0 for hand in record.hands)
    machine = TableMachine(rules, family_of(rules))
    for event in events:
        machine.apply_object(event)
    cap = 2**rules.max_fan
    for result in machine.results:
        assert sum(result.deltas) == 0
        settlement = result.settlement
        if settlement is None:
            assert result.kind == "hora" and len(set(result.winners)) == 3
            continue
        for part in settlement:
            assert sum(part) == 0
        for winner in set(result.winners):
            assert settlement.not_ready[winner] >= 0  # no seat that won pays 查大叫
        pigs = result.flower_pigs
        for seat in range(4):
            others = 4 - len(pigs)
            owed = -cap * others if seat in pigs else cap * len(pigs)
            assert settlement.flower_pigs[seat] == owed


def test_self_play_logs_of_sichuan_hands_are_legal_and_their_deltas_the_rules(tmp_path: Path) -> None:
    argv = ["--rules", "sichuan", "--games", "6", "--seed", "5", "--players", "greedy,random,heuristic,linear"]
    assert main([*argv, "--workers", "1", "--quiet", "--log", str(tmp_path)]) == 0
    logs = sorted(tmp_path.glob("*.jsonl"))
    assert len(logs) == 6
    for log in logs:
        events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
        assert any(event["type"] == "void_suit" for event in events)
        report = judge(events, rule_profile("sichuan"), family=family_of(rule_profile("sichuan")))
        assert report.valid, (log.name, report.problems[:3])
        assert [hand.deltas for hand in report.hands] == [hand.logged_deltas for hand in report.hands]
