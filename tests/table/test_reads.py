"""The opponent reads /act answers (:mod:`app.core.advice.reads`, :func:`app.core.table.decide.opponent_reads`).

Properties over self-played hands (riichi and sanma): the reads depend only on what the seat
sees, every value is a probability, a seat in riichi is ready, a tile a seat discarded never
deals into it (furiten), the keys are the kinds held and the seats the others in order.  Known
answers worked out by hand from the published tables the safety model reads.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kyoku_events import one_pon_then_discards

from app.core.advice.discard import evaluate_discards
from app.core.advice.open_tenpai import hand_discards_after_call, open_ready_probability
from app.core.advice.reads import read_opponents
from app.core.advice.safety import Opponent, turns_left_after
from app.core.advice.safety_tables import (
    DEAL_IN_BY_TURN,
    OPEN_TENPAI_AFTER_HAND_DISCARDS,
    OPEN_TENPAI_BY_TURN,
    SILENT_CLOSED_TENPAI,
    TENPAI_SHARE_BY_TURN,
    Category,
)
from app.core.families.registry import TABLES, family_of
from app.core.shape.hand import Meld
from app.core.shape.rules import rule_profile
from app.core.shape.tiles import counts_from_tiles, parse_mpsz
from app.core.table.decide import opponent_as_read, opponent_reads, replay, seat_sees, seat_view
from app.core.table.game import GameConfig, play_game
from app.core.table.mjai import kind_of, parse_pai

# Strategies that declare riichi and call, so that hands reach declarations and melds.
PLAYERS = ("heuristic", "linear", "heuristic", "greedy")


def _hand_events(rules: str, seed: int) -> list[dict[str, Any]]:
    seats = 3 if rules == "sanma" else 4
    record = play_game(GameConfig(rules, PLAYERS[:seats], seed=seed, length="kyoku"), 0, TABLES)
    return list(record.events)


@st.composite
def decision_points(draw: st.DrawFn) -> tuple[str, list[dict[str, Any]], int]:
    """(rules, the events up to a seat's own draw, that seat)."""
    rules = draw(st.sampled_from(["riichi", "sanma"]))
    events = _hand_events(rules, draw(st.integers(0, 10**6)))
    draws = [index for index, event in enumerate(events) if event["type"] == "tsumo"]
    # Late points more often: they hold declarations, melds and long rivers.
    index = draws[len(draws) - 1 - draw(st.integers(0, len(draws) - 1)) // 2]
    return rules, events[: index + 1], events[index]["actor"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(decision_points())
def test_reads_follow_only_what_the_seat_sees_and_are_well_formed(point: tuple[str, list[dict[str, Any]], int]) -> None:
    rules_name, events, seat = point
    rules = rule_profile(rules_name)
    hidden = replay(seat_sees(events, seat), rules, family=family_of(rules))
    reads = opponent_reads(hidden, seat)
    # The same with every other seat's tiles shown in the events.
    assert opponent_reads(replay(events, rules, family=family_of(rules)), seat) == reads
    assert [read.seat for read in reads] == [other for other in range(rules.seats) if other != seat]
    held = [kind for kind, count in enumerate(hidden.players[seat].hand().counts) if count]
    declared = {event["actor"] for event in events if event["type"] == "reach_accepted"}
    for read in reads:
        assert [kind for kind, _ in read.deal_in] == held
        assert 0.0 <= read.tenpai <= 1.0
        assert all(0.0 <= chance <= read.tenpai for _, chance in read.deal_in)
        if read.seat in declared:
            assert read.tenpai == 1.0
        # Furiten: every tile the seat discarded (called ones too) is safe against it.
        discarded = {
            kind_of(parse_pai(event["pai"], "pai"))
            for event in events
            if event["type"] == "dahai" and event["actor"] == read.seat
        }
        assert all(chance == 0.0 for kind, chance in read.deal_in if kind in discarded)
        # Same-turn furiten: every kind another seat discarded after the seat's last discard (read
        # off the log here, not the machine) is safe against it too.
        last = max(
            (i for i, event in enumerate(events) if event["type"] == "dahai" and event["actor"] == read.seat),
            default=-1,
        )
        passed = (
            {
                kind_of(parse_pai(event["pai"], "pai"))
                for event in events[last + 1 :]
                if event["type"] == "dahai" and event["actor"] != read.seat
            }
            if last >= 0
            else set()
        )
        assert all(chance == 0.0 for kind, chance in read.deal_in if kind in passed)
        # How the seat discarded, as the log flags it: the table's record holds the log's flags,
        # and the hand discards since its last call it reads are those /discard counts from them.
        seen = opponent_as_read(hidden, read.seat)
        flags = [
            event.get("tsumogiri", False)
            for event in events
            if event["type"] == "dahai" and event["actor"] == read.seat
        ]
        assert seen.tsumogiri == tuple(flags)
        assert seen.hand_discards_after_call == hand_discards_after_call(flags, seen.calls_at)
        assert len(seen.calls_at) == sum(1 for meld in seen.melds if meld.kind.is_open)
        seen.validate()


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.integers(0, 33), min_size=1, max_size=18),
    st.lists(st.integers(0, 33), min_size=1, max_size=14),
    st.booleans(),
)
def test_a_tile_in_a_seats_river_never_deals_into_it(river: list[int], held: list[int], riichi: bool) -> None:
    opponent = Opponent(river=tuple(river), riichi=riichi, riichi_turn=len(river) if riichi else None)
    seen = counts_from_tiles(river + held)
    if max(seen) > 4:
        return  # more copies than a set has: no table shows that
    unseen = bytes(4 - count for count in seen)
    (read,) = read_opponents(held, [(1, opponent)], unseen=unseen, rules=rule_profile("riichi"))
    silent = SILENT_CLOSED_TENPAI[turns_left_after(len(river))]
    assert read.tenpai == (1.0 if riichi else silent[0] / silent[1])
    for kind, chance in read.deal_in:
        assert 0.0 <= chance <= 1.0
        if kind in river:
            assert chance == 0.0


def test_known_answer_a_fresh_wind_against_a_riichi_on_the_sixth_discard() -> None:
    # Seat 2 declared with its 6th discard; the asker holds one South, no other South is seen:
    # three copies unseen, the guest-wind column of turn 6 (mahjong-helper's RiskData).
    river = parse_mpsz("19m28p37s")
    declared = Opponent(river=tuple(river), riichi=True, riichi_turn=6)
    held = parse_mpsz("2z")
    unseen = bytes(4 - count for count in counts_from_tiles(river + held))
    (read,) = read_opponents(held, [(2, declared)], unseen=unseen, rules=rule_profile("riichi"))
    assert read.tenpai == 1.0
    assert read.deal_in == ((parse_mpsz("2z")[0], DEAL_IN_BY_TURN[5][Category.GUEST_WIND_LEFT_3] / 100),)


def test_known_answer_an_open_hand_reads_the_larger_published_rate() -> None:
    # After 9 discards with one pon: the larger of Tenhou's closed share (23.1 %) and
    # mahjong-helper's one-call rate (30.11 %), which the fitted read takes with the rest of what
    # it sees (riichi rules; rules without riichi's furiten read the published rate as it is); a
    # tile it threw deals in with chance 0.
    river = parse_mpsz("1m9p1s2z3z4z5m6m7m")
    pon = Meld.of("pon", parse_mpsz("777z"))
    opponent = Opponent(river=tuple(river), melds=(pon,))
    held = parse_mpsz("1m4p")
    unseen = bytes(4 - count for count in counts_from_tiles(river + held + list(pon.tiles)))
    published = max(TENPAI_SHARE_BY_TURN[9], OPEN_TENPAI_BY_TURN[0][9] or 0.0) / 100
    assert published == pytest.approx(0.3011)
    (plain,) = read_opponents(held, [(3, opponent)], unseen=unseen, rules=rule_profile("chinese"))
    assert plain.tenpai == pytest.approx(published)
    (read,) = read_opponents(held, [(3, opponent)], unseen=unseen, rules=rule_profile("riichi"))
    expected = open_ready_probability(tuple(river), (pon,), 0, published)
    assert read.tenpai == pytest.approx(expected)
    assert dict(read.deal_in)[parse_mpsz("1m")[0]] == 0.0
    assert 0.0 < dict(read.deal_in)[parse_mpsz("4p")[0]] <= expected


def test_the_asking_seats_own_discard_after_a_riichi_is_safe_against_it() -> None:
    # Seat 1 declared with its 2nd discard; the asker threw 5p on its 3rd, after the declaration,
    # and the riichi seat did not win on it: it cannot win on a 5p now.
    declared = Opponent(river=tuple(parse_mpsz("19m")), riichi=True, riichi_turn=2)
    held = parse_mpsz("5p")
    unseen = bytes(4 - count for count in counts_from_tiles(parse_mpsz("19m5p5p18s")))
    rules = rule_profile("riichi")
    own = tuple(parse_mpsz("18s5p"))
    (after,) = read_opponents(held, [(1, declared)], own_discards=own, unseen=unseen, rules=rules)
    (before,) = read_opponents(held, [(1, declared)], own_discards=own[:2], unseen=unseen, rules=rules)
    assert after.deal_in == ((held[0], 0.0),)
    assert before.deal_in[0][1] > 0.0


def test_known_answer_an_open_hand_reads_its_hand_discards_since_the_call() -> None:
    # The same seat after three discards from the hand since its pon's own discard: further
    # along mahjong-helper's row (58.60 % at turn 9), the closed share being smaller.
    river = parse_mpsz("1m9p1s2z3z4z5m6m7m")
    pon = Meld.of("pon", parse_mpsz("777z"))
    opponent = Opponent(river=tuple(river), melds=(pon,), hand_discards_after_call=3)
    held = parse_mpsz("4p")
    unseen = bytes(4 - count for count in counts_from_tiles(river + held + list(pon.tiles)))
    published = OPEN_TENPAI_AFTER_HAND_DISCARDS[0][9][3] / 100
    assert published == pytest.approx(0.586)
    (plain,) = read_opponents(held, [(3, opponent)], unseen=unseen, rules=rule_profile("chinese"))
    assert plain.tenpai == pytest.approx(published)
    (read,) = read_opponents(held, [(3, opponent)], unseen=unseen, rules=rule_profile("riichi"))
    assert read.tenpai == pytest.approx(open_ready_probability(tuple(river), (pon,), 3, published))


def test_the_table_counts_hand_discards_after_a_call_and_every_seat_sees_them() -> None:
    events = one_pon_then_discards()
    rules = rule_profile("riichi")
    counted = []
    for end in (5, 6, 14, 22, 30):
        machine = replay(events[:end], rules, family=family_of(rules))
        counted.append(machine.players[1].hand_discards_after_call)
    # None before the call, -1 until its discard, then one per discard from the hand only.
    assert counted == [-1, 0, 1, 1, 2]
    assert replay(events[:4], rules, family=family_of(rules)).players[1].hand_discards_after_call is None
    # Seat 2 reads seat 1 through the count, with seat 1's tiles hidden as with them shown.
    shown = replay(events, rules, family=family_of(rules))
    hidden = replay(seat_sees(events, 2), rules, family=family_of(rules))
    assert hidden.players[1].hand_discards_after_call == 2
    assert opponent_reads(hidden, 2) == opponent_reads(shown, 2)


def test_the_table_records_how_each_seat_discarded_and_the_read_weighs_it() -> None:
    # Seat 1: its pon's own discard (9p) and 1s from the hand, then the 9s it drew, then 1p from
    # the hand; it called with no discard of its own yet.
    events = one_pon_then_discards()
    rules = rule_profile("riichi")
    shown = replay(events, rules, family=family_of(rules))
    assert shown.players[1].drawn_discards == [False, False, True, False]
    assert shown.players[1].calls_at == [0]
    assert shown.players[0].drawn_discards == [True] * 4 and shown.players[0].calls_at == []
    hidden = replay(seat_sees(events, 2), rules, family=family_of(rules))
    seen = opponent_as_read(hidden, 1)
    assert seen.tsumogiri == (False, False, True, False) and seen.calls_at == (0,)
    assert seen == opponent_as_read(shown, 1)
    # The read takes them: the same seat throwing the 1p it drew instead reads readier.
    (read,) = [r for r in opponent_reads(hidden, 2) if r.seat == 1]
    threw_the_draw = [
        *events[:-2],
        {"type": "tsumo", "actor": 1, "pai": "1p"},
        {"type": "dahai", "actor": 1, "pai": "1p", "tsumogiri": True},
    ]
    machine = replay(seat_sees(threw_the_draw, 2), rules, family=family_of(rules))
    (readier,) = [r for r in opponent_reads(machine, 2) if r.seat == 1]
    assert readier.tenpai > read.tenpai


def test_a_silent_closed_seat_reads_the_published_rate_by_the_walls_turns_left() -> None:
    # Seat 2 draws its fourth tile: 14 draws in all (the pon draws none), so 70 - 14 = 56 tiles
    # are left in the live wall, 14 turns; seats 0 and 3 are closed and silent, and read the
    # silent closed hands' published rate for 14 turns left (269 ready of 75,450).
    events = [*one_pon_then_discards(), {"type": "tsumo", "actor": 2, "pai": "C"}]
    assert sum(1 for event in events if event["type"] == "tsumo") == 14
    rules = rule_profile("riichi")
    machine = replay(seat_sees(events, 2), rules, family=family_of(rules))
    reads = {read.seat: read for read in opponent_reads(machine, 2)}
    assert SILENT_CLOSED_TENPAI[14] == (269, 75_450)
    assert reads[0].tenpai == reads[3].tenpai == pytest.approx(269 / 75_450)
    # Seat 1 called: it reads the open-hand read, far above (the published row says more than
    # 8 %; the fitted read, at the fourth discard with two from the hand since the pon and one
    # drawn tile thrown, 2.0 %).
    assert reads[1].tenpai > 0.015 and reads[1].tenpai > 5 * reads[0].tenpai


def test_a_tile_passed_since_a_seats_last_discard_is_safe_against_it() -> None:
    # Seat 1 has just drawn its 4s: since seat 2's last discard (a red dragon) seat 3 threw a green
    # dragon and seat 0 a north; since seat 3's, seat 0's north alone.
    events = one_pon_then_discards()[:-1]
    rules = rule_profile("riichi")
    machine = replay(events, rules, family=family_of(rules))
    north, green = parse_mpsz("4z6z")
    assert machine.players[2].passed_since_discard == [green, north]
    assert machine.players[3].passed_since_discard == [north]
    assert machine.players[1].passed_since_discard == [parse_mpsz("7z")[0], green, north]
    # Had a silent seat been ready on a tile that passed it, it would have won or be furiten:
    # the tile deals in with 0, and a ryanmen waiting on it is ruled out as by a suji (the 4m
    # after a passed 1m).
    river = tuple(parse_mpsz("9p2z"))
    held = parse_mpsz("1m4m")
    unseen = bytes(4 - count for count in counts_from_tiles(list(river) + held + parse_mpsz("1m")))
    one_man, four_man = held
    passed = Opponent(river=river, passed_since_discard=frozenset({one_man}))
    (read,) = read_opponents(held, [(2, passed)], unseen=unseen, rules=rule_profile("riichi"))
    (plain,) = read_opponents(held, [(2, Opponent(river=river))], unseen=unseen, rules=rule_profile("riichi"))
    assert dict(read.deal_in)[one_man] == 0.0 < dict(plain.deal_in)[one_man]
    assert 0.0 < dict(read.deal_in)[four_man] < dict(plain.deal_in)[four_man]
    # Without furiten (Chinese rules) a pass says nothing.
    (chinese,) = read_opponents(held, [(2, passed)], unseen=unseen, rules=rule_profile("chinese"))
    (chinese_plain,) = read_opponents(held, [(2, Opponent(river=river))], unseen=unseen, rules=rule_profile("chinese"))
    assert chinese == chinese_plain


def test_the_advisors_view_carries_same_turn_furiten_and_near_leaves_it_out() -> None:
    # The advisor's own view of the table (what its play reads) carries the kinds that passed each
    # seat since its last discard, as /act's reads do; near's danger model strips them, as it
    # does the value winds, and so ranks the discards as before.
    events = one_pon_then_discards()[:-1]
    rules = rule_profile("riichi")
    machine = replay(events, rules, family=family_of(rules))
    view = seat_view(machine, 1)
    north, green = parse_mpsz("4z6z")
    by_seat = dict(zip((2, 3, 0), view.opponents, strict=True))
    assert by_seat[2].passed_since_discard == frozenset({green, north})
    assert by_seat[3].passed_since_discard == frozenset({north})
    stripped = evaluate_discards(view.hand, rules, opponents=view.opponents, turn=view.turn, danger_reads=False)
    plain = evaluate_discards(
        view.hand,
        rules,
        opponents=[replace(opponent, passed_since_discard=frozenset()) for opponent in view.opponents],
        turn=view.turn,
        danger_reads=False,
    )
    assert stripped == plain
