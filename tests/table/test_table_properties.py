"""Properties of whole games at the table machine, over random seeds, every preset and strategies.

* No tile is created or lost: ``audit=True`` checks, after every event, that the wall's tiles
  are all in the hands, melds, rivers, set aside or still in the wall.
* The points on the table are constant: the scores plus the riichi sticks on the table add up
  to the starting total before every hand and at the end (where the sticks left have gone to
  the leader).
* Every log is a legal game: the referee, an independent replay through the machine with
  every event checked, accepts it, and its hands' deltas are the log's.
* A seeded game replays to the same log.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.families.registry import TABLES, family_of
from app.core.shape.rules import rule_profile
from app.core.table.flow import GameLength
from app.core.table.game import GameConfig, play_game
from app.core.table.referee import judge

STRATEGIES = ("random", "greedy", "heuristic", "linear")
START = {"riichi": 25_000, "sanma": 35_000, "chinese": 25_000, "mcr": 25_000, "qiqihar": 25_000}


@st.composite
def configs(draw: st.DrawFn) -> GameConfig:
    rules = draw(st.sampled_from(sorted(START)))
    seats = 3 if rules == "sanma" else 4
    players = tuple(draw(st.lists(st.sampled_from(STRATEGIES), min_size=seats, max_size=seats)))
    length = draw(st.sampled_from(["kyoku", "kyoku", "tonpuu"])) if rules in ("riichi", "sanma") else "kyoku"
    return GameConfig(rules, players, seed=draw(st.integers(0, 10**6)), length=length, audit=True)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(configs(), st.integers(0, 50))
def test_random_legal_play_conserves_tiles_and_points_and_every_log_is_legal(config: GameConfig, game: int) -> None:
    record = play_game(config, game, TABLES)  # audit=True: tiles conserved after every event
    seats = len(config.players)
    total = START[config.rules] * seats
    for event in record.events:
        if event["type"] == "start_kyoku":
            assert sum(event["scores"]) + 1000 * event["kyotaku"] == total
    assert sum(record.scores) == total
    assert sorted(record.ranks) == list(range(1, seats + 1))
    report = judge(
        json.loads(json.dumps(record.events)),
        rule_profile(config.rules),
        length=GameLength(config.length),
        family=family_of(rule_profile(config.rules)),
    )
    assert report.valid, report.problems[:3]
    assert list(report.scores) == list(record.scores)
    assert all(hand.deltas == hand.logged_deltas for hand in report.hands)


@settings(max_examples=4, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["riichi", "sanma"]))
def test_a_seeded_game_replays_to_the_same_log(seed: int, rules: str) -> None:
    players = ("heuristic", "random", "greedy", "linear")[: 4 if rules == "riichi" else 3]
    config = GameConfig(rules, players, seed=seed, length="kyoku")
    assert play_game(config, 3, TABLES).events == play_game(config, 3, TABLES).events
