"""scripts/family_play.py: the advisor's seat follows the rotation, blocks are whole walls, and
the interval is the blocks' normal interval."""

from __future__ import annotations

import math

import pytest
from scripts_module import load_script

from app.core.families.registry import TABLES
from app.core.table.game import GameConfig, play_game

family_play = load_script("family_play")


@pytest.mark.parametrize("rotation", range(4))
def test_the_advisor_seat_is_where_the_table_seats_the_advisor(rotation: int) -> None:
    players = ("advisor", "greedy", "greedy", "greedy")
    config = GameConfig(rules="sichuan", players=players, seed=3, rotation=rotation, record_events=False)
    record = play_game(config, 0, TABLES)
    seat = family_play.advisor_seat(rotation, 4)
    assert record.players[seat] == "advisor"
    assert record.players.count("advisor") == 1


def test_hands_round_up_to_whole_walls_and_every_block_is_a_wall() -> None:
    check = family_play.play_check("sichuan", 6, seed=5)
    assert check.hands == 8
    assert len(check.blocks) == 2
    assert 0 <= check.wins <= check.hands


def test_one_block_as_the_mean_of_its_four_rotations() -> None:
    check = family_play.play_check("sichuan", 4, seed=7)
    players = ("advisor", "greedy", "greedy", "greedy")
    own = 0
    for rotation in range(4):
        config = GameConfig(rules="sichuan", players=players, seed=7, rotation=rotation, record_events=False)
        record = play_game(config, 0, TABLES)
        own += sum(hand.payments[record.players.index("advisor")] for hand in record.hands)
    assert check.blocks == (own / 4,)


def test_the_interval_is_normal_over_blocks_and_unknown_for_one() -> None:
    check = family_play.Check("x", (1.0, 3.0), 8, 0)
    assert check.mean == 2.0
    assert check.half_width == pytest.approx(family_play.Z_95 * math.sqrt(2) / math.sqrt(2))
    assert family_play.Check("x", (5.0,), 4, 0).half_width == math.inf
