"""Game records: mjlog XML and tenhou.net/6 JSON to and from mjai events.

* Every shared Tenhou game (54 four-player, 1 sanma) goes mjai -> tenhou.net/6 -> mjai and
  mjai -> mjlog -> mjai and comes back with the same events (parsed JSON objects compared), and the
  converted log passes the referee with Tenhou's own deltas.
* Known answers that need no third-party data: the mjlog meld bit fields (the sample of Tenhou's
  own notes, and codes built by hand), the tenhou.net/6 call strings, and a hand-built hand with a
  pon from across, a chi, an ankan, a kakan with its dora, a riichi and tsumogiri, written out and
  read back.
* Self-play games (riichi and sanma) round-trip through both formats, less the two fields
  Mortal's logs do not have and no Tenhou format keeps (``hora.pai``, ``end_game.scores``); through
  mjlog the dealt hands and a call's ``consumed`` come back in 136-id order (the shared games are in
  that order already).
"""

from __future__ import annotations

import copy
import gzip
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from real_games import events_of, four_player_games, sanma_games

from app.core.families.registry import TABLES, family_of
from app.core.shape.rules import rule_profile
from app.core.table.game import GameConfig, play_game
from app.core.table.records import MalformedLog, UnknownLogFormat, detect_format, read_log, write_log
from app.core.table.records.mjlog import meld_code, read_meld
from app.core.table.records.tenhou6 import call_event, call_string
from app.core.table.records.tiles import kind_of_name
from app.core.table.referee import judge

FORMATS = ("tenhou6", "mjlog")


@pytest.mark.parametrize("format", FORMATS)
def test_every_shared_game_round_trips_and_passes_the_referee(format: str) -> None:
    games = events = 0
    for rules, paths in (("riichi", four_player_games()), ("sanma", sanma_games())):
        for path in paths:
            original = events_of(path)
            text = write_log(original, format, family_of("riichi"))
            assert detect_format(text) == format
            back = read_log(text, format)
            assert back == original, path.name
            report = judge(back, rule_profile(rules), family=family_of(rule_profile(rules)))
            assert report.valid, (path.name, report.problems[:3])
            assert all(hand.deltas == hand.logged_deltas for hand in report.hands), path.name
            games += 1
            events += len(back)
    assert (games, events) == (55, 56_677)


# -- the mjlog meld bit fields ---------------------------------------------------------------


def test_the_sample_of_tenhous_notes_is_a_chi_of_678m_taking_6m() -> None:
    assert read_meld(0b0011110100110111) == ("chi", 3, [22, 25, 30], 22)
    assert meld_code("chi", [22, 25, 30], called=22, source=3) == 0b0011110100110111


@pytest.mark.parametrize(
    ("kind", "ids", "called", "source", "added"),
    [
        ("chi", [36, 40, 44], 40, 3, None),  # 1p [2p] 3p
        ("chi", [96, 101, 107], 107, 3, None),  # 7s 8s [9s]: the last run of a suit
        ("pon", [117, 118, 119], 117, 3, None),  # west from the left
        ("pon", [16, 17, 19], 19, 2, None),  # red 5m kept in hand, pon from across
        ("pon", [124, 125, 126], 125, 1, None),  # white from the right
        ("daiminkan", [64, 65, 66, 67], 66, 2, None),
    ],
)
def test_meld_codes_read_back_to_their_tiles(
    kind: str, ids: list[int], called: int, source: int, added: int | None
) -> None:
    code = meld_code(kind, ids, called=called, source=source, added=added)
    read_kind, read_source, read_ids, read_called = read_meld(code)
    assert (read_kind, read_source, read_called) == (kind, source, called)
    assert read_ids == sorted(ids) if kind != "daiminkan" else read_ids == [64, 65, 66, 67]


def test_a_kakan_keeps_its_pon_and_names_the_tile_added() -> None:
    pon = meld_code("pon", [117, 118, 119], called=117, source=3)
    kakan = meld_code("kakan", [117, 118, 119], called=117, source=3, added=116)
    assert (pon, kakan) == (44555, 44555 - 0x08 + 0x10)  # the same fields, the kakan bit for the pon bit
    assert read_meld(kakan) == ("kakan", 3, [116, 117, 118, 119], 116)


def test_ankan_and_kita_codes() -> None:
    assert read_meld(16896) == ("ankan", 0, [64, 65, 66, 67], 66)  # 8p, from no one
    assert meld_code("kita", [122]) == 122 << 8 | 0x20
    assert read_meld(122 << 8 | 0x20) == ("kita", 0, [122], 122)


# -- the tenhou.net/6 call strings ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "actor", "event"),
    [
        ("c275226", 1, {"type": "chi", "actor": 1, "target": 0, "pai": "7p", "consumed": ["5pr", "6p"]}),
        ("p252525", 2, {"type": "pon", "actor": 2, "target": 1, "pai": "5p", "consumed": ["5p", "5p"]}),
        ("12p1212", 0, {"type": "pon", "actor": 0, "target": 2, "pai": "2m", "consumed": ["2m", "2m"]}),
        ("3737p37", 3, {"type": "pon", "actor": 3, "target": 0, "pai": "7s", "consumed": ["7s", "7s"]}),
        ("m39393939", 0, {"type": "daiminkan", "actor": 0, "target": 3, "pai": "9s", "consumed": ["9s"] * 3}),
        ("26m262626", 1, {"type": "daiminkan", "actor": 1, "target": 3, "pai": "6p", "consumed": ["6p"] * 3}),
        ("131313m13", 2, {"type": "daiminkan", "actor": 2, "target": 3, "pai": "3m", "consumed": ["3m"] * 3}),
        ("424242a42", 0, {"type": "ankan", "actor": 0, "consumed": ["S"] * 4}),
        ("f44", 1, {"type": "kita", "actor": 1, "pai": "N"}),
    ],
)
def test_call_strings_read_and_write(text: str, actor: int, event: dict[str, Any]) -> None:
    seats = 3 if event["type"] == "kita" else 4
    assert call_event(text, actor, seats) == event
    assert call_string(event, seats) == text


@pytest.mark.parametrize(
    ("text", "direction", "pai"),
    [("k16161616", 0, "6m"), ("41k414141", 1, "E"), ("4646k4646", 2, "F"), ("1515k5115", 2, "5mr")],
)
def test_a_kakan_string_puts_k_and_the_added_tile_where_the_pon_letter_was(text: str, direction: int, pai: str) -> None:
    event = call_event(text, 0)
    assert (event["type"], event["pai"]) == ("kakan", pai)
    assert call_string(event, 4, pon_direction=direction) == text


@pytest.mark.parametrize("text", ["c2752", "x121314", "1p21212", "12121p2", "p999999", "1212a1212"])
def test_broken_call_strings_are_malformed(text: str) -> None:
    with pytest.raises(MalformedLog) as caught:
        call_event(text, 0)
    assert caught.value.code == "malformed_log" and caught.value.field == "call"


# -- a hand built by hand ----------------------------------------------------------------------

HAND: list[dict[str, Any]] = [
    {"type": "start_game", "names": ["東家", "b", "c", "d"]},
    {
        "type": "start_kyoku",
        "bakaze": "E",
        "dora_marker": "9m",
        "kyoku": 1,
        "honba": 0,
        "kyotaku": 0,
        "oya": 0,
        "scores": [25000, 25000, 25000, 25000],
        "tehais": [
            ["1m", "1m", "2m", "3m", "4m", "5mr", "6m", "7m", "8m", "9m", "E", "E", "S"],
            ["2p", "3p", "4p", "6p", "7p", "8p", "2s", "3s", "4s", "9s", "9s", "P", "P"],
            ["1p", "3p", "5p", "5p", "5p", "1s", "1s", "1s", "7s", "8s", "9s", "W", "W"],
            ["3m", "3m", "1p", "1p", "9p", "9p", "6s", "7s", "8s", "F", "F", "F", "C"],
        ],
    },
    {"type": "tsumo", "actor": 0, "pai": "S"},
    {"type": "dahai", "actor": 0, "pai": "S", "tsumogiri": True},
    {"type": "tsumo", "actor": 1, "pai": "P"},
    {"type": "dahai", "actor": 1, "pai": "9s", "tsumogiri": False},
    {"type": "tsumo", "actor": 2, "pai": "5pr"},
    {"type": "ankan", "actor": 2, "consumed": ["5pr", "5p", "5p", "5p"]},
    {"type": "dora", "dora_marker": "4p"},
    {"type": "tsumo", "actor": 2, "pai": "2s"},
    {"type": "dahai", "actor": 2, "pai": "2s", "tsumogiri": True},
    {"type": "tsumo", "actor": 3, "pai": "P"},
    {"type": "dahai", "actor": 3, "pai": "P", "tsumogiri": True},
    {"type": "pon", "actor": 1, "target": 3, "pai": "P", "consumed": ["P", "P"]},
    {"type": "dahai", "actor": 1, "pai": "2p", "tsumogiri": False},
    {"type": "chi", "actor": 2, "target": 1, "pai": "2p", "consumed": ["1p", "3p"]},
    {"type": "dahai", "actor": 2, "pai": "W", "tsumogiri": False},
    {"type": "tsumo", "actor": 3, "pai": "E"},
    {"type": "dahai", "actor": 3, "pai": "E", "tsumogiri": True},
    {"type": "pon", "actor": 0, "target": 3, "pai": "E", "consumed": ["E", "E"]},
    {"type": "dahai", "actor": 0, "pai": "S", "tsumogiri": False},
    {"type": "tsumo", "actor": 1, "pai": "9s"},
    {"type": "dahai", "actor": 1, "pai": "9s", "tsumogiri": False},  # the other 9s, not the one drawn
    {"type": "tsumo", "actor": 2, "pai": "W"},
    {"type": "dahai", "actor": 2, "pai": "W", "tsumogiri": True},
    {"type": "tsumo", "actor": 3, "pai": "3m"},
    {"type": "reach", "actor": 3},
    {"type": "dahai", "actor": 3, "pai": "C", "tsumogiri": False},
    {"type": "reach_accepted", "actor": 3},
    {"type": "tsumo", "actor": 0, "pai": "E"},
    {"type": "kakan", "actor": 0, "pai": "E", "consumed": ["E", "E", "E"]},
    {"type": "tsumo", "actor": 0, "pai": "9p"},
    {"type": "dora", "dora_marker": "7p"},
    {"type": "dahai", "actor": 0, "pai": "9p", "tsumogiri": True},
    {"type": "hora", "actor": 3, "target": 0, "deltas": [-8000, 0, 0, 9000], "ura_markers": ["2m"]},
    {"type": "end_kyoku"},
    {"type": "end_game"},
]


def test_the_hand_built_hand_is_a_legal_hand() -> None:
    report = judge(HAND, rule_profile("riichi"), family=family_of(rule_profile("riichi")))
    assert report.valid and [hand.deltas for hand in report.hands] == [(-8000, 0, 0, 9000)]


def test_the_hand_built_hand_in_tenhou6_is_what_the_format_says() -> None:
    log = json.loads(write_log(HAND, "tenhou6", family_of("riichi")))
    assert log["name"] == ["東家", "b", "c", "d"]
    (hand,) = log["log"]
    assert hand[:4] == [[0, 0, 0], [25000] * 4, [19, 24, 27], [12]]
    assert hand[5:7] == [[42, "p414141", 41, 29], [60, 42, "k41414141", 60]]
    assert hand[8:10] == [[45, "45p4545", 39], [39, 22, 39]]
    assert hand[11:13] == [[52, 32, "c222123", 43], ["522525a25", 60, 43, 60]]
    assert hand[14:16] == [[45, 41, 13], [60, 60, "r47"]]
    # the table scores the win for the viewer: riichi, green dragon and three ura (the 2m shows 3m)
    assert hand[16] == [
        "和了",
        [-8000, 0, 0, 9000],
        [3, 0, 3, "満貫8000点", "立直(1飜)", "役牌 發(1飜)", "裏ドラ(3飜)"],
    ]
    assert read_log(json.dumps(log), "tenhou6") == HAND


def test_the_hand_built_hand_in_mjlog_keeps_every_id() -> None:
    text = write_log(HAND, "mjlog", family_of("riichi"))
    assert text.startswith("<mjloggm") and '<GO type="9"' in text  # with people, hanchan, red fives
    assert 'n0="%E6%9D%B1%E5%AE%B6"' in text  # names URL-encoded
    assert '<REACH who="3" step="1"/>' in text and '<REACH who="3" ten="250,250,250,240" step="2"/>' in text
    # 50 fu (20, closed ron 10, 3m and green concealed 4 + 8, 9p by ron 4), 8000, mangan; riichi, green, ura 3
    assert 'ten="50,8000,1" yaku="1,1,19,1,53,3"' in text
    assert "doraHaiUra=" in text and 'who="3" fromWho="0" sc="250,-80,250,0,250,0,240,90"' in text
    assert read_log(text, "mjlog") == HAND


def test_a_daiminkan_leaves_0_in_its_discard_list() -> None:
    events = copy.deepcopy(HAND)
    # seat 0 takes the east of seat 3 as an open kan instead of a pon, and discards after its replacement draw
    at = next(i for i, e in enumerate(events) if e["type"] == "pon" and e["actor"] == 0)
    events[at] = {"type": "daiminkan", "actor": 0, "target": 3, "pai": "E", "consumed": ["E", "E", "E"]}
    events[0]["names"] = ["a", "b", "c", "d"]
    events[1]["tehais"][0] = ["1m", "1m", "2m", "3m", "4m", "5mr", "6m", "7m", "8m", "9m", "E", "E", "E"]
    tail = [
        {"type": "tsumo", "actor": 0, "pai": "S"},
        {"type": "dora", "dora_marker": "7p"},
        {"type": "dahai", "actor": 0, "pai": "S", "tsumogiri": True},
        {"type": "ryukyoku", "deltas": [0, 0, 0, 0]},
        {"type": "end_kyoku"},
        {"type": "end_game"},
    ]
    events = [*events[: at + 1], *tail]
    events[2]["pai"] = "N"
    events[3]["pai"] = "N"
    hand = json.loads(write_log(events, "tenhou6", family_of("riichi")))["log"][0]
    assert hand[5][1] == "m41414141" and hand[6][1] == 0
    for format in FORMATS:
        assert read_log(write_log(events, format, family_of("riichi")), format) == events


# -- errors and detection ----------------------------------------------------------------------


def test_a_bad_tile_code_is_named_where_it_is() -> None:
    log = json.loads(write_log(HAND, "tenhou6", family_of("riichi")))
    log["log"][0][5][0] = 10
    with pytest.raises(MalformedLog) as caught:
        read_log(json.dumps(log), "tenhou6")
    assert (caught.value.code, caught.value.field) == ("malformed_log", "log[0][5][0]")


def test_lists_that_do_not_make_one_hand_are_refused() -> None:
    log = json.loads(write_log(HAND, "tenhou6", family_of("riichi")))
    log["log"][0][8].pop()  # seat 1 loses its last draw: its last discard has no turn to be made in
    with pytest.raises(MalformedLog) as caught:
        read_log(json.dumps(log), "tenhou6")
    assert caught.value.field == "log[0]" and "do not make one hand" in caught.value.reason


def test_an_mjlog_call_of_a_tile_nobody_discarded_is_refused_at_its_tag() -> None:
    text = write_log(HAND, "mjlog", family_of("riichi")).replace('<N who="1"', '<N who="2"', 1)
    with pytest.raises(MalformedLog) as caught:
        read_log(text, "mjlog")
    assert caught.value.field is not None and caught.value.field.startswith("tags[")
    assert caught.value.reason.startswith("<N>")


def test_mjlog_cannot_say_not_tsumogiri_of_the_only_tile_drawn() -> None:
    events = copy.deepcopy(HAND)
    events[3] = {"type": "dahai", "actor": 0, "pai": "S", "tsumogiri": False}
    events[1] = {
        **events[1],
        "tehais": [
            ["1m", "1m", "2m", "3m", "4m", "5mr", "6m", "7m", "8m", "9m", "E", "E", "N"],
            *HAND[1]["tehais"][1:],
        ],
    }
    with pytest.raises(MalformedLog):
        write_log(events, "mjlog", family_of("riichi"))


def test_formats_are_detected_and_unknown_ones_refused() -> None:
    assert detect_format(write_log(HAND, "mjai", family_of("riichi"))) == "mjai"
    assert detect_format(write_log(HAND, "tenhou6", family_of("riichi")).encode()) == "tenhou6"
    assert read_log(write_log(HAND, "mjai", family_of("riichi"))) == HAND
    with pytest.raises(UnknownLogFormat) as caught:
        read_log("{}", "paifu")
    assert caught.value.code == "unknown_log_format"


def test_a_gzipped_mjlog_is_read() -> None:
    assert read_log(gzip.compress(write_log(HAND, "mjlog", family_of("riichi")).encode())) == HAND


# -- self-play ---------------------------------------------------------------------------------


def _without_fields_tenhou_does_not_keep(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    dropped = {("hora", "pai"), ("end_game", "scores")}
    return [{key: value for key, value in event.items() if (event["type"], key) not in dropped} for event in events]


def _in_id_order(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """mjlog keeps tiles as 136-ids: dealt hands and ``consumed`` come back in id order (a red five first)."""

    def order(name: str) -> tuple[int, bool]:
        return kind_of_name(name), not name.endswith("r")

    out = []
    for event in events:
        if "consumed" in event:
            event = {**event, "consumed": sorted(event["consumed"], key=order)}
        if event["type"] == "start_kyoku":
            event = {**event, "tehais": [sorted(tiles, key=order) for tiles in event["tehais"]]}
        out.append(event)
    return out


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["riichi", "sanma"]), st.integers(0, 10**6), st.sampled_from(["kyoku", "tonpuu"]))
def test_self_play_games_round_trip_through_both_formats(rules: str, seed: int, length: str) -> None:
    players = ("heuristic", "random", "greedy", "linear")[: 4 if rules == "riichi" else 3]
    record = play_game(GameConfig(rules, players, seed=seed, length=length), 0, TABLES)
    events = json.loads(json.dumps(record.events))
    want = _without_fields_tenhou_does_not_keep(events)
    for format in FORMATS:
        back = read_log(write_log(events, format, family_of("riichi")), format)
        assert back == (_in_id_order(want) if format == "mjlog" else want), format
        assert judge(back, rule_profile(rules), family=family_of(rule_profile(rules))).valid


# -- what a caller may send ------------------------------------------------------------------

_ODD_VALUES = [None, 0, -1, 99, "x", "p99", "r60", "4646k46", [], {}, 60, 10**9, 1.5, True]


def _paths(obj: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    items = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, list) else []
    for key, value in items:
        found += _paths(value, (*path, key))
    return found


def _spoiled(obj: Any, rng: Any) -> Any:
    """``obj`` with one value anywhere in it replaced by an odd one, or removed."""
    obj = copy.deepcopy(obj)
    path = rng.choice(_paths(obj)[1:])
    parent = obj
    for key in path[:-1]:
        parent = parent[key]
    if rng.random() < 0.3:
        del parent[path[-1]]
    else:
        parent[path[-1]] = rng.choice(_ODD_VALUES)
    return obj


@settings(max_examples=150, deadline=None)
@given(
    st.randoms(use_true_random=False), st.sampled_from(["read tenhou6", "read mjlog", "write tenhou6", "write mjlog"])
)
def test_a_spoiled_log_is_refused_with_a_code_never_a_crash(rng: Any, what: str) -> None:
    try:
        if what == "read tenhou6":
            read_log(json.dumps(_spoiled(json.loads(write_log(HAND, "tenhou6", family_of("riichi"))), rng)), "tenhou6")
        elif what == "read mjlog":
            text = write_log(HAND, "mjlog", family_of("riichi"))
            at = rng.randrange(len(text))
            read_log(
                text[:at] + rng.choice(["", "1", '"', "0", "<", " ", "-"]) + text[at + rng.randrange(1, 8) :], "mjlog"
            )
        else:
            write_log(_spoiled(HAND, rng), what.split()[1], family_of("riichi"))
    except MalformedLog as error:
        assert error.code == "malformed_log" and error.field


def test_a_pon_of_the_second_of_two_identical_discards_is_found_by_going_back() -> None:
    """Seat 0 lets go of 7p twice while seat 2 does not draw; seat 2's pon takes the second one.

    tenhou.net/6 lists only "seat 2: pon 7p from seat 0", so the reader first tries the first 7p,
    finds seat 3 then has no draw to make, and goes back.
    """
    start = {
        "type": "start_kyoku",
        "bakaze": "E",
        "dora_marker": "1s",
        "kyoku": 3,
        "honba": 0,
        "kyotaku": 0,
        "oya": 2,
        "scores": [25000] * 4,
        "tehais": [
            ["1m", "2m", "3m", "4m", "5m", "6m", "1p", "2p", "3p", "7p", "7p", "3s", "3s"],
            ["4p", "5p", "6p", "1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "N", "N"],
            ["1m", "1m", "2m", "2m", "8m", "8m", "7p", "7p", "8p", "8p", "9p", "9p", "W"],
            ["9m", "9m", "9m", "E", "E", "S", "S", "F", "F", "F", "C", "C", "C"],
        ],
    }
    events = [
        {"type": "start_game", "names": ["a", "b", "c", "d"]},
        start,
        {"type": "tsumo", "actor": 2, "pai": "9s"},
        {"type": "dahai", "actor": 2, "pai": "9s", "tsumogiri": True},
        {"type": "tsumo", "actor": 3, "pai": "9s"},
        {"type": "dahai", "actor": 3, "pai": "9s", "tsumogiri": True},
        {"type": "tsumo", "actor": 0, "pai": "E"},
        {"type": "dahai", "actor": 0, "pai": "7p", "tsumogiri": False},
        {"type": "tsumo", "actor": 1, "pai": "S"},
        {"type": "dahai", "actor": 1, "pai": "3s", "tsumogiri": False},
        {"type": "pon", "actor": 0, "target": 1, "pai": "3s", "consumed": ["3s", "3s"]},
        {"type": "dahai", "actor": 0, "pai": "7p", "tsumogiri": False},
        {"type": "pon", "actor": 2, "target": 0, "pai": "7p", "consumed": ["7p", "7p"]},
        {"type": "dahai", "actor": 2, "pai": "W", "tsumogiri": False},
        {"type": "ryukyoku", "deltas": [0, 0, 0, 0]},
        {"type": "end_kyoku"},
        {"type": "end_game"},
    ]
    hand = json.loads(write_log(events, "tenhou6", family_of("riichi")))["log"][0]
    assert hand[5:7] == [[41, "3333p33"], [27, 27]]  # seat 0 pons seat 1's 3s (its right)
    assert hand[11:13] == [[39, "27p2727"], [60, 43]]  # seat 2 pons seat 0's 7p (across)
    assert read_log(write_log(events, "tenhou6", family_of("riichi")), "tenhou6") == events
    assert read_log(write_log(events, "mjlog", family_of("riichi")), "mjlog") == events
