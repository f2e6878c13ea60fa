"""Sichuan at the table machine: the exchange and the void suit, play on after wins, the kong
payments and the exhaustive draw's settlement, each on a hand built for it (tests/table/sichuan_hands.py).

Every hand built here is also judged by the referee: it must find the log legal and the deltas
written into it the rules' own.
"""

from __future__ import annotations

import json
from itertools import combinations_with_replacement
from typing import Any

import pytest
from sichuan_hands import NO_EXCHANGE, ScriptedHand, names, pick

from app.core.families.registry import family_of
from app.core.shape.hand import Hand
from app.core.shape.rules import rule_profile
from app.core.shape.tiles import parse_mpsz
from app.core.table.machine import Foul, TableMachine
from app.core.table.mjai import Event
from app.core.table.referee import judge
from app.core.value.scoring import score
from app.core.value.scoring_context import WinContext

#: The dealer: ready on 1p and 4p (a plain hand, 平胡), void s.
READY = "123456789m1123p"
#: Thirteen characters for a seat whose void suit is m: a 花猪 while it keeps one.
PIG = "1112223334445m"
CAP = 2**NO_EXCHANGE.max_fan
#: Seats 1-3 of the legality tests (seat 0 is READY).
HANDS = [READY, "1122334455667m", "13579m2468m1357s", "44p68p113355777s"]


def rest_of(suit: str, *texts: str) -> str:
    """Every tile of ``suit`` that ``texts`` (the deal, the other scripted draws) leave, as mpsz:
    the pig draws them all first, so that it still holds its void suit at the end."""
    used = [tile for text in texts for tile in parse_mpsz(text)]
    base = "mps".index(suit) * 9
    left = [number + 1 for number in range(9) for _ in range(4 - used.count(base + number))]
    return "".join(map(str, left)) + suit


def _judged(hand: ScriptedHand) -> None:
    report = judge(json.loads(json.dumps(hand.events)), hand.machine.rules, family=family_of(hand.machine.rules))
    assert report.valid, report.problems[:3]
    assert all(item.deltas == item.logged_deltas for item in report.hands)
    assert sum(report.hands[0].deltas) == 0


def _discard_win(seat_hand: str, tile: str, *, winner: int, discarder: int, **situation: Any) -> int:
    """What ``discarder`` pays ``winner``'s hand ``seat_hand`` winning on ``tile`` (the scorer's figure)."""
    kind = parse_mpsz(tile)[0]
    hand = Hand.from_tiles([*parse_mpsz(seat_hand), kind])
    context = WinContext(winner=winner, dealer=0, discarder=discarder, **situation)
    return score(hand, kind, NO_EXCHANGE, context).payments[winner]


def test_at_the_draw_a_flower_pig_pays_every_other_seat_the_cap_and_the_unready_pay_the_ready() -> None:
    deal = [READY, PIG, "135577p2468999s", "55789m11335577s"]
    hand = ScriptedHand(deal, "smmp", draws={1: rest_of("m", *deal)})
    _judged(hand)
    result = hand.machine.results[-1]
    assert result.kind == "exhaustive" and result.flower_pigs == (1,)
    assert result.settlement is not None
    assert result.settlement.flower_pigs == (CAP, -3 * CAP, CAP, CAP)
    most = max(_discard_win(READY, wait, winner=0, discarder=2) for wait in ("1p", "4p"))
    assert most == 1  # 平胡 on a discard: one base
    # Seats 2 and 3 are not ready and pay the ready dealer; the pig pays no 查大叫 besides.
    assert result.settlement.not_ready == (2 * most, 0, -most, -most)
    assert result.settlement.refunds == (0, 0, 0, 0)
    assert hand.events[-2]["type"] == "ryukyoku" and hand.events[-2]["deltas"] == result.deltas


def _kongs(machine: TableMachine, seat: int, legal: list[Event]) -> Event | None:
    """Seat 3 makes an open kong of 7s and an added kong of 5s after its pon; seat 2 a closed kong."""
    if seat == 3:
        return pick(legal, "daiminkan", pai=24) or pick(legal, "pon", pai=22) or pick(legal, "kakan")
    if seat == 2:
        return pick(legal, "ankan")
    return None


def test_kongs_pay_at_once_and_a_seat_not_ready_at_the_draw_returns_its_income() -> None:
    deal = [READY, PIG, "135577p2468999s", "5578m113355777s"]
    hand = ScriptedHand(deal, "smmp", draws={0: "7s", 1: rest_of("m", *deal), 2: "9s5s", 3: "4s5s"}, choose=_kongs)
    _judged(hand)
    machine = hand.machine
    kinds = [(record.kind, record.seat, record.deltas) for record in machine.kong_payments]
    assert kinds == [
        ("daiminkan", 3, [-2, 0, 0, 2]),  # the discarder of the 7s pays two
        ("ankan", 2, [-2, -2, 6, -2]),  # every other seat still in pays two
        ("kakan", 3, [-1, -1, -1, 3]),  # every other seat still in pays one
    ]
    result = machine.results[-1]
    assert result.settlement is not None
    # Seats 2 and 3 are not ready at the draw: every kong point goes back (退税).
    paid = [sum(record.deltas[seat] for record in machine.kong_payments) for seat in range(4)]
    assert list(result.settlement.refunds) == [-value for value in paid]
    assert result.settlement.flower_pigs == (CAP, -3 * CAP, CAP, CAP)
    assert result.settlement.not_ready == (2, 0, -1, -1)  # seats 2 and 3 pay the ready dealer
    # The kongs' net is nothing: the hand pays the pig's and the unready seats' settlement only.
    assert result.deltas == [
        a + b for a, b in zip(result.settlement.flower_pigs, result.settlement.not_ready, strict=True)
    ]
    # The kong payments ride on the ryukyoku, the next logged event, with the settlement.
    assert hand.events[-2]["deltas"] == result.deltas


def _robbed_after_kong(machine: TableMachine, seat: int, legal: list[Event]) -> Event | None:
    if seat == 2:
        return pick(legal, "ankan")
    if seat == 0:
        return pick(legal, "hora", target=2, pai=12)
    return None


def test_a_win_on_a_kongs_discard_takes_the_kongs_income_and_play_passes_to_the_seat_after_the_winner() -> None:
    deal = [READY, PIG, "135577p2468999s", "5578m113355777s"]
    # Seat 2's replacement draw after its kong is the dealer's 4p.
    hand = ScriptedHand(deal, "smmp", draws={1: rest_of("m", *deal), 2: "9s4p"}, choose=_robbed_after_kong)
    _judged(hand)
    events = hand.events
    at = next(i for i, event in enumerate(events) if event["type"] == "hora")
    hora = events[at]
    assert (hora["actor"], hora["target"], hora["pai"]) == (0, 2, "4p")
    won = _discard_win(READY, "4p", winner=0, discarder=2, after_kong=True, void_suit=2)
    assert won == 2  # 平胡 with 杠上炮: one fan
    kong = [-2, -2, 6, -2]
    transfer = [6, 0, -6, 0]  # 呼叫转移: the kong's income goes to the winner
    assert hora["deltas"] == [k + t + w for k, t, w in zip(kong, transfer, [won, 0, -won, 0], strict=True)]
    assert events[at + 1] == {"type": "tsumo", "actor": 1, "pai": events[at + 1]["pai"]}
    result = hand.machine.results[-1]
    assert result.winners == [0] and result.settlement is not None
    # The transferred kong is not refunded; the winner who left is still paid by the pig.
    assert result.settlement.refunds == (0, 0, 0, 0)
    assert result.settlement.flower_pigs == (CAP, -3 * CAP, CAP, CAP)


def test_a_win_on_a_kongs_discard_takes_all_the_kong_income_the_seat_holds() -> None:
    # Seat 2 konges 7p on its first turn, throws its replacement 6s, then konges 9s on its
    # second turn and throws its replacement 4p, which the dealer wins (杠上炮): the rule
    # text's 呼叫转移 passes all its kong income (所有的杠牌所得), both kongs', to the winner.
    deal = [READY, PIG, "135777p2468999s", "5578m113355777s"]
    hand = ScriptedHand(deal, "smmp", draws={1: rest_of("m", *deal), 2: "7p6s9s4p"}, choose=_robbed_after_kong)
    _judged(hand)
    machine = hand.machine
    assert [(record.kind, record.seat) for record in machine.kong_payments] == [("ankan", 2), ("ankan", 2)]
    hora = next(event for event in hand.events if event["type"] == "hora")
    assert (hora["actor"], hora["target"], hora["pai"]) == (0, 2, "4p")
    won = _discard_win(READY, "4p", winner=0, discarder=2, after_kong=True, void_suit=2)
    kongs = [-4, -4, 12, -4]  # two closed kongs, each two from every other seat, carried by the hora
    transfer = [12, 0, -12, 0]  # both kongs' income goes to the winner
    assert hora["deltas"] == [k + t + w for k, t, w in zip(kongs, transfer, [won, 0, -won, 0], strict=True)]
    assert all(record.transferred for record in machine.kong_payments)


def _double_ron(machine: TableMachine, seat: int, legal: list[Event]) -> Event | None:
    return pick(legal, "hora", target=3)


def test_one_discard_wins_for_several_seats_and_play_passes_after_the_last_of_them() -> None:
    hand = ScriptedHand(
        [READY, "23555678p45699s", "13579m2468m1357s", "5578m113355777s"],
        "smpp",
        draws={3: "4p"},
        choose=_double_ron,
    )
    _judged(hand)
    events = hand.events
    horas = [i for i, event in enumerate(events) if event["type"] == "hora"]
    assert [(events[i]["actor"], events[i]["target"]) for i in horas] == [(0, 3), (1, 3)]
    assert events[horas[0]]["deltas"] == [1, 0, 0, -1] and events[horas[1]]["deltas"] == [0, 1, 0, -1]
    assert events[horas[1] + 1]["type"] == "tsumo" and events[horas[1] + 1]["actor"] == 2
    machine = hand.machine
    assert machine.players[0].left and machine.players[1].left
    assert all(event.get("actor") not in (0, 1) for event in events[horas[1] + 1 :])


def _rob(machine: TableMachine, seat: int, legal: list[Event]) -> Event | None:
    if seat == 3:
        return pick(legal, "pon", pai=12) or pick(legal, "kakan")
    if seat == 0 and machine.claim_source == "kakan":
        return pick(legal, "hora")
    return None


def test_robbing_an_added_kong_voids_its_payment_and_the_robbed_seat_pays_the_win() -> None:
    hand = ScriptedHand(
        [READY, "1122334455667m", "13579m2468m1357s", "44p68p113355777s"],
        "smpm",
        draws={2: "4p", 3: "4p"},
        choose=_rob,
    )
    _judged(hand)
    events = hand.events
    at = next(i for i, event in enumerate(events) if event["type"] == "hora")
    assert events[at - 1]["type"] == "kakan" and events[at]["target"] == 3
    won = _discard_win(READY, "4p", winner=0, discarder=3, robbed_kong=True, void_suit=2)
    assert won == 2 and events[at]["deltas"] == [won, 0, 0, -won]
    machine = hand.machine
    assert [record.kind for record in machine.kong_payments] == []
    assert [meld.kind for meld in machine.players[3].melds] == ["pon"]
    assert events[at + 1]["type"] == "tsumo" and events[at + 1]["actor"] == 1


def _wins_whenever(machine: TableMachine, seat: int, legal: list[Event]) -> Event | None:
    return pick(legal, "hora") if seat == 0 else None


def test_in_a_bloody_river_a_winner_stays_in_frozen_and_wins_again() -> None:
    rules = rule_profile("sichuan", exchange_three=False, bloody_river=True)
    seen: list[set[str]] = []

    def choose(machine: TableMachine, seat: int, legal: list[Event]) -> Event | None:
        if seat == 0 and machine.players[0].wins and machine.phase == "act":
            seen.append({action.kind for action in legal})
        return _wins_whenever(machine, seat, legal)

    hand = ScriptedHand(HANDS, "smpm", draws={2: "4p1p", 3: "4p1p"}, choose=choose, rules=rules)
    _judged(hand)
    result = hand.machine.results[-1]
    assert result.winners[:2] == [0, 0] and result.kind == "exhaustive"
    assert seen and all(kinds <= {"dahai", "hora", "ankan", "kakan"} for kinds in seen)
    assert result.settlement is not None and result.tenpai[0]


# --- legality -------------------------------------------------------------------------------


def _started(rules: Any, hands: list[str], voids: str | None = None) -> TableMachine:
    machine = TableMachine(rules, family_of(rules))
    machine.apply_object({"type": "start_game"})
    machine.apply_object(
        {
            "type": "start_kyoku",
            "bakaze": "E",
            "kyoku": 1,
            "honba": 0,
            "kyotaku": 0,
            "oya": 0,
            "scores": [0] * 4,
            "tehais": [names(hand) for hand in hands],
        }
    )
    for seat, suit in enumerate(voids or ""):
        machine.apply_object({"type": "void_suit", "actor": seat, "suit": suit})
    return machine


def test_a_seat_holding_its_void_suit_discards_it_first() -> None:
    machine = _started(NO_EXCHANGE, HANDS, "smpp")
    machine.apply_object({"type": "tsumo", "actor": 0, "pai": "9s"})
    assert {(a.pai, a.tsumogiri) for a in machine.legal_actions(0) if a.kind == "dahai"} == {(26, True)}
    with pytest.raises(Foul) as foul:
        machine.apply_object({"type": "dahai", "actor": 0, "pai": "1m", "tsumogiri": False})
    assert foul.value.code == "void_suit_first"
    machine.apply_object({"type": "dahai", "actor": 0, "pai": "9s", "tsumogiri": True})
    # Seat 1 (void m) holds nothing but characters: any of them may go.
    machine.apply_object({"type": "tsumo", "actor": 1, "pai": "9p"})
    assert {a.pai for a in machine.legal_actions(1) if a.kind == "dahai"} == set(range(7))


def test_a_void_suit_tile_is_never_ponned() -> None:
    machine = _started(NO_EXCHANGE, HANDS, "smps")  # seat 3's void suit is s: it holds 1s 1s
    machine.apply_object({"type": "tsumo", "actor": 0, "pai": "1s"})
    machine.apply_object({"type": "dahai", "actor": 0, "pai": "1s", "tsumogiri": True})
    assert all(action.kind != "pon" for action in machine.legal_actions(3))
    with pytest.raises(Foul) as foul:
        machine.apply_object({"type": "pon", "actor": 3, "target": 0, "pai": "1s", "consumed": ["1s", "1s"]})
    assert foul.value.code == "void_suit_called"


def test_a_hand_holding_its_void_suit_cannot_win() -> None:
    machine = _started(NO_EXCHANGE, HANDS, "pmpp")  # the dealer's void suit is p, which it holds
    machine.apply_object({"type": "tsumo", "actor": 0, "pai": "4p"})
    assert all(action.kind != "hora" for action in machine.legal_actions(0))
    with pytest.raises(Foul) as foul:
        machine.apply_object({"type": "hora", "actor": 0, "target": 0, "pai": "4p"})
    assert foul.value.code == "not_a_win"


def _exchange_count(hand: str) -> int:
    """Brute force: distinct multisets of three tiles of one suit the hand holds."""
    tiles = parse_mpsz(hand)
    found = set()
    for suit in range(3):
        own = [tile for tile in tiles if tile // 9 == suit]
        for chosen in combinations_with_replacement(sorted(set(own)), 3):
            if all(chosen.count(tile) <= own.count(tile) for tile in chosen):
                found.add(chosen)
    return len(found)


def test_the_exchange_offers_every_three_tiles_of_one_suit_and_keeps_one_direction() -> None:
    rules = rule_profile("sichuan")
    machine = _started(rules, HANDS)
    assert machine.phase == "exchange" and machine.decision_seats() == [0, 1, 2, 3]
    for seat, hand in enumerate(HANDS):
        legal = machine.legal_actions(seat)
        assert {a.kind for a in legal} == {"exchange_out"} and len(legal) == _exchange_count(hand)
    with pytest.raises(Foul) as mixed:
        machine.apply_object({"type": "exchange_out", "actor": 0, "pais": ["1m", "2m", "1p"]})
    assert mixed.value.code == "bad_exchange"
    passed = {0: ["1m", "2m", "3m"], 1: ["1m", "2m", "3m"], 2: ["1s", "3s", "5s"], 3: ["1s", "1s", "3s"]}
    for seat, pais in passed.items():
        machine.apply_object({"type": "exchange_out", "actor": seat, "pais": pais})
    machine.apply_object({"type": "exchange_in", "actor": 0, "target": 1, "pais": passed[1]})
    with pytest.raises(Foul) as turned:
        machine.apply_object({"type": "exchange_in", "actor": 1, "target": 3, "pais": passed[3]})
    assert turned.value.code == "bad_exchange"
    with pytest.raises(Foul) as wrong:
        machine.apply_object({"type": "exchange_in", "actor": 1, "target": 2, "pais": ["1s", "3s", "7s"]})
    assert wrong.value.code == "bad_exchange"
    for seat in (1, 2, 3):
        machine.apply_object(
            {"type": "exchange_in", "actor": seat, "target": (seat + 1) % 4, "pais": passed[(seat + 1) % 4]}
        )
    assert machine.phase == "void"
    assert [sorted(a.suit for a in machine.legal_actions(seat)) for seat in range(4)] == [[0, 1, 2]] * 4
    with pytest.raises(Foul):
        machine.apply_object({"type": "tsumo", "actor": 0, "pai": "9p"})


def test_the_referee_catches_a_draw_by_a_seat_that_has_left_and_a_kong_payment_left_out() -> None:
    deal = [READY, PIG, "135577p2468999s", "5578m113355777s"]
    hand = ScriptedHand(deal, "smmp", draws={0: "7s", 1: rest_of("m", *deal), 2: "9s5s", 3: "4s5s"}, choose=_kongs)
    events = json.loads(json.dumps(hand.events))
    draw = len(events) - 2
    events[draw]["deltas"] = list(hand.machine.results[-1].settlement.total)  # without the kongs' payments
    (problem,) = judge(events, NO_EXCHANGE, family=family_of(NO_EXCHANGE)).problems
    assert (problem.index, problem.type) == (draw, "deltas_differ")

    won = ScriptedHand(
        [READY, "23555678p45699s", "13579m2468m1357s", "5578m113355777s"], "smpp", draws={3: "4p"}, choose=_double_ron
    )
    events = json.loads(json.dumps(won.events))
    after = max(i for i, event in enumerate(events) if event["type"] == "hora") + 1
    intruder = {"type": "tsumo", "actor": 1, "pai": events[after]["pai"]}
    problems = judge(
        [*events[:after], intruder, *events[after + 1 :]], NO_EXCHANGE, family=family_of(NO_EXCHANGE)
    ).problems
    assert problems[0].index == after and problems[0].type == "out_of_turn"
