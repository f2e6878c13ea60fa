"""The table machine against 55 real Tenhou games: legal actions, payments, the referee's verdicts.

The legal actions are compared, as sets, with Mortal's libriichi at every decision point
of the 54 four-player games (``legal-actions.jsonl.gz``, 34,266 points); every hand's
deltas with Tenhou's own; and the referee must accept every game and catch, at its index,
each kind of fault put into them.
"""

from __future__ import annotations

import copy
import random
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from real_games import events_of, four_player_games, games_dir, legal_points, sanma_games

from app.core.families.registry import family_of
from app.core.shape.rules import rule_profile
from app.core.table.machine import TableMachine
from app.core.table.mjai import action_key, kind_of, parse_pai, read_event, tile_name
from app.core.table.referee import judge


def _keys(actions: list[dict[str, Any]]) -> set[tuple[object, ...]]:
    return {action_key(read_event(action, 0)) for action in actions}


def test_legal_actions_equal_libriichis_at_every_decision_point() -> None:
    points = legal_points()
    compared = differing = 0
    for path in four_player_games():
        at = defaultdict(list)
        for point in points[path.stem]:
            at[point["index"]].append(point)
        machine = TableMachine(rule_profile("riichi"), family_of(rule_profile("riichi")))
        for index, event in enumerate(events_of(path)):
            machine.apply_object(event, index)
            for point in at.get(index, []):
                compared += 1
                ours = _keys(machine.legal_objects(point["seat"]))
                if ours != _keys(point["legal"]):
                    differing += 1
    assert compared == 34_266
    assert differing == 0


@pytest.mark.parametrize("rules", ["riichi", "sanma"])
def test_every_hand_pays_what_tenhou_paid(rules: str) -> None:
    paths = four_player_games() if rules == "riichi" else sanma_games()
    hands = 0
    for path in paths:
        report = judge(events_of(path), rule_profile(rules), family=family_of(rule_profile(rules)))
        assert report.valid, (path.name, report.problems[:3])
        for hand in report.hands:
            hands += 1
            assert hand.deltas == hand.logged_deltas, (path.name, hand)
    assert hands == (549 if rules == "riichi" else 6)


def _replayed(events: list[dict[str, Any]], upto: int) -> TableMachine:
    machine = TableMachine(rule_profile("riichi"), family_of(rule_profile("riichi")))
    for index, event in enumerate(events[:upto]):
        machine.apply_object(event, index)
    return machine


def _first_problem(events: list[dict[str, Any]]) -> tuple[int, str] | None:
    report = judge(events, rule_profile("riichi"), family=family_of(rule_profile("riichi")))
    return (report.problems[0].index, report.problems[0].type) if report.problems else None


def _mutations(events: list[dict[str, Any]], rng: random.Random) -> list[tuple[str, list[dict[str, Any]], int]]:
    """(expected type, mutated log, index of the fault) for each kind of fault this game allows."""
    out: list[tuple[str, list[dict[str, Any]], int]] = []
    by_type: dict[str, list[int]] = defaultdict(list)
    for index, event in enumerate(events):
        by_type[event["type"]].append(index)
    index = rng.choice(by_type["dahai"])
    actor = events[index]["actor"]
    held = _replayed(events, index).players[actor].counts
    absent = [tile for tile in range(27, 34) if not held[tile]]
    if absent:
        out.append(
            (
                "tile_not_held",
                [*events[:index], {**events[index], "pai": tile_name(absent[0])}, *events[index + 1 :]],
                index,
            )
        )
    index = rng.choice(by_type["tsumo"])
    wrong = {**events[index], "actor": (events[index]["actor"] + 1) % 4}
    out.append(("out_of_turn", [*events[:index], wrong, *events[index + 1 :]], index))
    for index in by_type["dahai"]:
        if events[index + 1]["type"] != "tsumo":
            continue
        tile = kind_of(parse_pai(events[index]["pai"], "pai"))
        machine = _replayed(events, index + 1)
        seat = next(s for s in range(4) if s != events[index]["actor"] and machine.players[s].counts[tile] < 2)
        pon = {
            "type": "pon",
            "actor": seat,
            "target": events[index]["actor"],
            "pai": events[index]["pai"],
            "consumed": [tile_name(tile)] * 2,
        }
        out.append(("tile_not_held", [*events[: index + 1], pon, *events[index + 1 :]], index + 1))
        break
    if by_type["dora"]:
        index = by_type["dora"][0]
        out.append(("missing_dora", events[:index] + events[index + 1 :], index))
    hora = by_type["hora"][0]
    changed = copy.deepcopy(events[hora])
    changed["deltas"][changed["actor"]] += 100
    changed["deltas"][(changed["actor"] + 1) % 4] -= 100
    out.append(("deltas_differ", [*events[:hora], changed, *events[hora + 1 :]], hora))
    for index in by_type["chi"] + by_type["pon"]:
        if events[index + 1]["type"] != "dahai":
            continue
        machine = _replayed(events, index + 1)
        called = kind_of(parse_pai(events[index]["pai"], "pai"))
        same = [t for t in range(37) if machine.players[events[index]["actor"]].counts[t] and kind_of(t) == called]
        if same:
            kuikae = {**events[index + 1], "pai": tile_name(same[0]), "tsumogiri": False}
            out.append(("kuikae", [*events[: index + 1], kuikae, *events[index + 2 :]], index + 1))
            break
    for index in by_type["tsumo"]:
        if events[index + 1]["type"] != "dahai":
            continue
        machine = _replayed(events, index + 1)
        seat = events[index]["actor"]
        player = machine.players[seat]
        if player.riichi or not player.closed or machine.live_left < 4 or machine.scores[seat] < 1000:
            continue
        if any(action.kind == "reach" for action in machine.legal_actions(seat)):
            continue
        out.append(
            ("not_ready", [*events[: index + 1], {"type": "reach", "actor": seat}, *events[index + 1 :]], index + 1)
        )
        break
    return out


def test_the_referee_catches_each_fault_at_its_index() -> None:
    rng = random.Random(22)
    paths = four_player_games()
    caught: dict[str, int] = defaultdict(int)
    for path in rng.sample(paths, 8):
        for expected, mutated, index in _mutations(events_of(path), rng):
            assert _first_problem(mutated) == (index, expected), (path.name, expected, index)
            caught[expected] += 1
    assert set(caught) >= {"tile_not_held", "out_of_turn", "missing_dora", "deltas_differ", "kuikae", "not_ready"}


def _ron_after(first_draw: str) -> list[dict[str, Any]]:
    """Seat 0 (all simples, waiting on 2s-5s) draws and throws ``first_draw``; seat 2 throws 2s; seat 0 rons."""
    hands = [
        ["2m", "3m", "4m", "4p", "5p", "6p", "6s", "7s", "8s", "5m", "5m", "3s", "4s"],
        ["1p", "1p", "9p", "9p", "N", "N", "C", "C", "F", "F", "P", "7m", "8m"],
        ["2p", "3p", "2s", "2s", "5s", "5s", "6s", "6s", "7p", "8p", "9m", "9m", "1s"],
        ["3m", "4m", "6m", "6m", "7p", "7p", "8p", "8p", "W", "W", "S", "S", "1s"],
    ]
    return [
        {"type": "start_game"},
        {
            "type": "start_kyoku",
            "bakaze": "E",
            "dora_marker": "1m",
            "kyoku": 1,
            "honba": 0,
            "kyotaku": 0,
            "oya": 0,
            "scores": [25000] * 4,
            "tehais": hands,
        },
        {"type": "tsumo", "actor": 0, "pai": first_draw},
        {"type": "dahai", "actor": 0, "pai": first_draw, "tsumogiri": True},
        {"type": "tsumo", "actor": 1, "pai": "9s"},
        {"type": "dahai", "actor": 1, "pai": "9s", "tsumogiri": True},
        {"type": "tsumo", "actor": 2, "pai": "S"},
        {"type": "dahai", "actor": 2, "pai": "2s", "tsumogiri": False},
        {"type": "hora", "actor": 0, "target": 2, "pai": "2s"},
    ]


def test_a_ron_on_a_wait_the_seat_threw_is_furiten() -> None:
    furiten = judge(
        _ron_after("5s"), rule_profile("riichi"), family=family_of(rule_profile("riichi"))
    )  # 5s, a wait, went to seat 0's own river
    assert [(problem.index, problem.type) for problem in furiten.problems][:1] == [(8, "furiten")]
    clean = judge(
        _ron_after("N"), rule_profile("riichi"), family=family_of(rule_profile("riichi"))
    )  # the same win with a harmless first discard
    assert clean.valid, clean.problems
    assert clean.hands == [] or clean.hands[0].result == "hora"


def test_games_folder_is_read_in_place() -> None:
    assert isinstance(games_dir(), Path)
