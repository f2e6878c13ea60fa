"""The rule families and their registry: every preset with a table has one family, a machine is
built with its family and asks it where families part (a family handed in is the one played)."""

from __future__ import annotations

import pytest

from app.core.families.chinese.table import ChineseFamily, flat_payments
from app.core.families.registry import FAMILIES, PLAY_RULES, TABLES, family_of, table_rules_of
from app.core.shape.rules import PRESETS, rule_profile
from app.core.table.family import TableView
from app.core.table.game import GameConfig, play_game
from app.core.table.machine import NoTable, TableMachine
from app.core.table.referee import judge
from app.core.table.seats import Win


def test_every_preset_has_one_family_and_its_table_rules() -> None:
    # Every preset the shape wing knows has a table; a family may bring presets of its own.
    assert set(PRESETS) <= set(TABLES)
    assert sorted(preset for family in FAMILIES for preset in family.presets) == sorted(TABLES)
    for preset, family in TABLES.items():
        assert family_of(preset) is family is family_of(table_rules_of(preset))
        assert PLAY_RULES[preset] == family.play_rules(table_rules_of(preset))
    assert family_of("sanma") is family_of("riichi")  # one family, two presets
    assert family_of(rule_profile("sichuan", bloody_river=True)).name == "sichuan"


def test_rules_without_a_table_are_refused() -> None:
    with pytest.raises(NoTable) as refused:
        family_of("mahjongg")
    assert refused.value.code == "unsupported_rules" and refused.value.field == "rules"


def test_a_machine_plays_only_its_familys_presets() -> None:
    with pytest.raises(NoTable, match="the sichuan table plays sichuan; rules 'riichi' are not among them"):
        TableMachine(rule_profile("riichi"), family_of("sichuan"))
    assert TableMachine(rule_profile("sanma"), family_of("riichi")).seats == 3


class _DoubledFlat(ChineseFamily):
    """The chinese table with every flat win paid twice: a family handed in, not registered."""

    def score_win(self, machine: TableView, seat: int, target: int, tile: int, ura: tuple[int, ...]) -> Win:
        paid = flat_payments(seat, None if seat == target else target, machine.seats)
        return Win(seat, target, tile, None, tuple(2 * value for value in paid))


def test_the_machine_pays_what_the_family_it_was_given_says() -> None:
    config = GameConfig("chinese", ("greedy", "heuristic", "greedy", "heuristic"), seed=5)
    doubled = {**TABLES, "chinese": _DoubledFlat()}
    plain_games = [play_game(config, game, TABLES) for game in range(6)]
    doubled_games = [play_game(config, game, doubled) for game in range(6)]
    won = 0
    for plain, twice in zip(plain_games, doubled_games, strict=True):
        assert plain.events[:3] == twice.events[:3]  # the same deal: only the payments differ
        for before, after in zip(plain.hands, twice.hands, strict=True):
            assert after.payments == tuple(2 * value for value in before.payments)
            won += before.winner is not None
        # The referee with the registry's family finds the doubled log's deltas wrong, with its own
        # family right.
        rules = rule_profile("chinese")
        if any(hand.winner is not None for hand in plain.hands):
            assert not judge(twice.events, rules, family=family_of(rules)).valid
            assert judge(twice.events, rules, family=doubled["chinese"]).valid
    assert won > 0


class _SelfDrawOnly(ChineseFamily):
    """The chinese table where a hand wins by self-draw only (a room's choice in some Chinese rules)."""

    def may_win_on(self, machine: TableView, seat: int, source: str) -> bool:
        return False


def test_a_family_that_allows_no_discard_win_is_offered_none_and_the_referee_refuses_one() -> None:
    rules = rule_profile("chinese")
    config = GameConfig("chinese", ("greedy", "heuristic", "greedy", "heuristic"), seed=5)
    self_draw = {**TABLES, "chinese": _SelfDrawOnly()}
    discard_wins = 0
    for game in range(12):
        played = play_game(config, game, self_draw)
        wins = [event for event in played.events if event["type"] == "hora"]
        assert all(event["actor"] == event["target"] for event in wins)
        assert judge(played.events, rules, family=self_draw["chinese"]).valid
        plain = play_game(config, game, TABLES)
        ron = [
            i for i, event in enumerate(plain.events) if event["type"] == "hora" and event["actor"] != event["target"]
        ]
        if ron:
            discard_wins += 1
            report = judge(plain.events, rules, family=self_draw["chinese"])
            assert [problem.index for problem in report.problems][:1] == ron[:1]
            assert "these rules win by self-draw" in report.problems[0].msg
    assert discard_wins > 0
