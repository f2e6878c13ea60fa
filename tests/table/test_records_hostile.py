"""The game-record readers against hostile logs (issue 33): each must end fast, in a 422 naming its place.

* tenhou.net/6's search for the order of moves: bounded by its work (``_Replay.MAX_STEPS``), heeding a
  ``stop`` signal, and no longer doubling its readings at a call that is no choice;
* numbers too long for Python, nesting too deep for its parser, digits that are not ASCII, names
  that are not text: a ``malformed_log`` at the place, in words of ours, never a crash;
* mjlog: a DOCTYPE or an entity declaration anywhere is refused.

The hostile hands are built in tests/hostile_logs.py.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from hostile_logs import deep_choices_log, go_arounds, hand_log, pon_chain_log

from app.core.families.registry import family_of
from app.core.table.mjai import MalformedEvent, read_event
from app.core.table.records import MalformedLog, ReadStopped, read_log, write_log
from app.core.table.records.tenhou6 import _TINY, _Replay

#: Python's words for the faults below, which no message of ours may carry.
PYTHON_WORDS = re.compile(r"Exceeds the limit|maximum recursion|codec can't|Error\(|object has no|invalid literal")


class _Counting:
    """Counts the work of every hand the tenhou.net/6 reader reads (its ``_Replay``s)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.replays: list[_Replay] = []
        solve = _Replay.solve

        def counted(replay: _Replay) -> list[dict[str, Any]]:
            self.replays.append(replay)
            return solve(replay)

        monkeypatch.setattr(_Replay, "solve", counted)

    @property
    def steps(self) -> int:
        return sum(replay.steps for replay in self.replays)


def _refused(text: str, format: str, **kwargs: Any) -> MalformedLog:
    with pytest.raises(MalformedLog) as caught:
        read_log(text, format, **kwargs)
    error = caught.value
    assert error.code == "malformed_log" and error.field, error
    assert not PYTHON_WORDS.search(str(error)), error
    return error


# -- the search for the order of moves --------------------------------------------------------


def test_the_pon_chain_of_issue_33_is_refused_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    work = _Counting(monkeypatch)
    began = time.process_time()
    error = _refused(pon_chain_log(), "tenhou6")
    assert time.process_time() - began < 3.0  # 19.7 s of CPU before; about 0.03 s now
    assert error.field == "log[0]" and "do not make one hand" in error.reason
    # One reading: a pon by the next seat in turn is no choice (passing the tile on comes to the same call).
    [replay] = work.replays
    assert replay.readings == 1 and replay.steps == 1 + 1 + 16 + 4000


def test_a_search_past_its_bound_of_work_is_refused_at_the_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    work = _Counting(monkeypatch)
    began = time.process_time()
    error = _refused(deep_choices_log(), "tenhou6")
    assert time.process_time() - began < 3.0
    assert error.field == "log[0]"
    assert f"within {_Replay.MAX_STEPS} steps" in error.reason and "the first reading ended: " in error.reason
    assert work.steps == _Replay.MAX_STEPS + 1  # the step past the bound is where it stopped
    assert work.replays[0].readings == 5  # each reading replays the 4,000 turns before the gadgets


def test_the_bound_is_the_work_of_the_search_not_its_readings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two gadgets need three readings of 4,000 turns: under the bound, the hand is read."""
    work = _Counting(monkeypatch)
    events = read_log(deep_choices_log(2, extra_discard=False), "tenhou6")
    assert [replay.readings for replay in work.replays] == [3]
    assert _Replay.MAX_STEPS // 2 < work.steps < _Replay.MAX_STEPS
    pons = [(event["actor"], event["target"]) for event in events if event["type"] == "pon"]
    assert pons == [(0, 1), (3, 0)] * 2
    # Lowered below that work, the same hand is refused at the bound.
    monkeypatch.setattr(_Replay, "MAX_STEPS", work.steps - 1)
    assert "within" in _refused(deep_choices_log(2, extra_discard=False), "tenhou6").reason


def test_a_hand_whose_one_reading_is_past_the_bound_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """No real hand has more than 136 turns: one of 5,001 go-arounds is refused at the bound, unfinished."""
    work = _Counting(monkeypatch)
    error = _refused(hand_log(go_arounds(5001), extra_discard=False), "tenhou6")
    assert error.field == "log[0]" and "the first reading is longer" in error.reason
    assert [(replay.readings, replay.steps) for replay in work.replays] == [(1, _Replay.MAX_STEPS + 1)]


def _stop_after(calls: int) -> tuple[Callable[[], bool], list[int]]:
    """A stop signal that turns true at its ``calls``-th look, and the count of its looks."""
    looks = [0]

    def stop() -> bool:
        looks[0] += 1
        return looks[0] >= calls

    return stop, looks


def test_a_stop_signal_stops_the_search_between_readings_and_within_one(monkeypatch: pytest.MonkeyPatch) -> None:
    work = _Counting(monkeypatch)
    never, looks = _stop_after(10**9)
    _refused(deep_choices_log(), "tenhou6", stop=never)
    # Looked at each reading's start and every STOP_CHECK_EVERY steps of one.
    readings = work.replays[0].readings
    assert looks[0] == readings + (_Replay.MAX_STEPS + 1) // _Replay.STOP_CHECK_EVERY
    for turns_true_at in (1, 2, 7, 40):
        work.replays.clear()
        stop, looks = _stop_after(turns_true_at)
        with pytest.raises(ReadStopped):
            read_log(deep_choices_log(), "tenhou6", stop=stop)
        assert looks[0] == turns_true_at  # it stopped at the first look that said so
        assert work.steps <= turns_true_at * _Replay.STOP_CHECK_EVERY


def test_the_stop_signal_is_looked_at_once_a_hand_for_a_real_log() -> None:
    stop, looks = _stop_after(10**9)
    log = write_log(_TINY, "tenhou6", family_of("riichi"))
    assert read_log(log, "tenhou6", stop=stop) == _TINY
    assert looks[0] == 1


# -- what Python cannot read: long numbers, deep nesting, digits that are not ASCII ------------------

LONG = "7" * 5000


def _tenhou6() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(write_log(_TINY, "tenhou6", family_of("riichi")))
    return loaded


def _mjai_lines() -> list[str]:
    return write_log(_TINY, "mjai", family_of("riichi")).splitlines()


@pytest.mark.parametrize(
    ("text", "format", "field"),
    [
        (json.dumps(_tenhou6())[:-1] + ', "x": ' + LONG + "}", "tenhou6", "log"),
        ('{"log": ' + "[" * 1000 + "]" * 1000 + "}", "tenhou6", "log"),
        ('{"log": ' + "[" * 100_000 + "]" * 100_000 + "}", "tenhou6", "log"),
        ("\n".join([*_mjai_lines()[:2], '{"type": "tsumo", "actor": 0, "pai": ' + LONG + "}"]), "mjai", "lines[2]"),
        ("\n".join([_mjai_lines()[0], '{"type": "x", "y": ' + "[" * 1000 + "]" * 1000 + "}"]), "mjai", "lines[1]"),
        ("[" + "[" * 1000 + "]" * 1000 + "]", "mjai", "events"),
        ("[" + LONG + "]", "mjai", "events"),
        # Deep enough to be kept and written back (the writers and the answer's encoder could fail on it).
        ("\n".join([_mjai_lines()[0], '{"type": "x", "y": ' + "[" * 500 + "]" * 500 + "}"]), "mjai", "events[1].y"),
    ],
)  # fmt: skip
def test_numbers_and_nesting_python_cannot_read_are_malformed_at_their_place(
    text: str, format: str, field: str
) -> None:
    assert _refused(text, format).field == field
    assert _refused(text, None).field == field  # detected as that format, even where the first line is unreadable


def test_a_long_number_is_named_by_its_size_and_place() -> None:
    error = _refused("\n".join([_mjai_lines()[0], '{"type": "end_game", "x": ' + LONG + "}"]), "mjai")
    assert error.field == "lines[1]" and "a number of 5000 digits at line 1, column 27" in error.reason


@pytest.mark.parametrize(
    ("where", "item"),
    [
        ((5, 0), "p²²²²²²"),  # str.isdigit says yes, int says no
        ((5, 0), "p١١١١١١"),  # Arabic-Indic digits: int reads them as 111111
        ((6, 0), "r١١"),
        ((6, 0), "r²¹"),
    ],
)
def test_call_and_riichi_strings_take_ascii_digits_only(where: tuple[int, int], item: str) -> None:
    log = _tenhou6()
    log["log"][0][where[0]][where[1]] = item
    error = _refused(json.dumps(log, ensure_ascii=False), "tenhou6")
    assert error.field == f"log[0][{where[0]}][{where[1]}]"


def _mjlog() -> str:
    return write_log(_TINY, "mjlog", family_of("riichi"))


@pytest.mark.parametrize(
    ("spoil", "field"),
    [
        (lambda text: re.sub(r"<T[0-9]+/>", "<T\u0663/>", text, count=1), "tags[5]"),  # T٣: not a draw of id 3
        (lambda text: text.replace('<N who="0"', '<N who="\u0660"', 1), "tags[13].who"),
        (lambda text: text.replace('<N who="0"', '<N who="0_0"', 1), "tags[13].who"),
        (lambda text: text.replace('<N who="0"', '<N who=" 0"', 1), "tags[13].who"),
        (lambda text: re.sub(r'ten="[0-9]+', 'ten="' + LONG, text, count=1), "tags[4].ten"),
        (lambda text: text.replace('<N who="0"', "<N", 1), "tags[13].who"),  # no who at all
    ],
)
def test_mjlog_numbers_are_ascii_digits(spoil: Callable[[str], str], field: str) -> None:
    assert _refused(spoil(_mjlog()), "mjlog").field == field


# -- names: text, no lone surrogate, no control character ----------------------------------------

SURROGATE = "\ud800"


@pytest.mark.parametrize("name", [SURROGATE, "a" + SURROGATE + "b", "\udfff", "nul\x00", "line\nbreak", "\x9b31m"])
def test_a_name_that_is_not_text_is_malformed_in_every_format(name: str) -> None:
    tenhou6 = _tenhou6()
    tenhou6["name"][1] = name
    assert _refused(json.dumps(tenhou6), "tenhou6").field == "name[1]"
    lines = _mjai_lines()
    lines[0] = json.dumps({"type": "start_game", "names": ["a", name, "c", "d"]})
    assert _refused("\n".join(lines), "mjai").field == "events[0].names[1]"
    # mjlog: the name URL-encoded as its writer writes it (a lone surrogate has no UTF-8 to encode).
    encoded = "".join(f"%{byte:02X}" for byte in name.encode("utf-8", "surrogatepass"))
    assert _refused(_mjlog().replace('n1="b"', f'n1="{encoded}"'), "mjlog").field == "tags[2].n1"


def test_a_name_of_another_kind_is_malformed() -> None:
    tenhou6 = _tenhou6()
    tenhou6["name"][2] = 5
    assert _refused(json.dumps(tenhou6), "tenhou6").field == "name[2]"


def test_names_of_every_script_and_emoji_are_kept() -> None:
    names = ["ASAPIN", "すずめクレイジー", "\N{PILE OF POO}\N{ZERO WIDTH JOINER}x", "Ωmega é"]
    events = [{**_TINY[0], "names": names}, *_TINY[1:]]
    for format in ("tenhou6", "mjlog", "mjai"):
        assert read_log(write_log(events, format, family_of("riichi")), format)[0]["names"] == names


def test_a_lone_surrogate_anywhere_in_an_mjai_event_or_the_log_text_is_malformed() -> None:
    lines = _mjai_lines()
    lines[1] = lines[1][:-1] + ', "note": ["\\ud800"]}'
    assert _refused("\n".join(lines), "mjai").field == "events[1].note"
    for format in ("mjlog", "tenhou6", "mjai"):
        text = write_log(_TINY, format, family_of("riichi"))
        spoiled = text[:40] + SURROGATE + text[40:]
        assert _refused(spoiled, format).field == "log"


@pytest.mark.parametrize(("to", "field"), [("tenhou6", "events[12]"), ("mjlog", "events")])
def test_an_event_a_writer_cannot_carry_is_malformed_in_words_of_ours(to: str, field: str) -> None:
    """mjai lets a hora leave out its deltas; the Tenhou formats need them (the message was "KeyError('deltas')")."""
    events = [*_TINY[:-3], {"type": "hora", "actor": 1, "target": 0}, *_TINY[-2:]]
    with pytest.raises(MalformedLog) as caught:
        write_log(events, to, family_of("riichi"))
    assert caught.value.field == field and "it has no 'deltas'" in caught.value.reason
    assert not PYTHON_WORDS.search(str(caught.value))


@pytest.mark.parametrize("to", ["tenhou6", "mjlog"])
def test_scores_of_thousands_of_digits_are_not_written(to: str) -> None:
    """JSON lets a log hold a 4,299-digit score; the mjlog writer's final points overflowed a float (a 500)."""
    big = int("9" * 4299)
    scores = [*_TINY[:1], {**_TINY[1], "scores": [big] * 4}, *_TINY[2:]]
    deltas = [*_TINY[:-3], {"type": "ryukyoku", "deltas": [big, big, -big, -big]}, *_TINY[-2:]]
    for events, field in ((scores, "events[1].scores"), (deltas, "events[12].deltas")):
        with pytest.raises(MalformedLog) as caught:
            write_log(events, to, family_of("riichi"))
        assert caught.value.field == field and "at most 1,000,000,000 points" in caught.value.reason


def test_the_event_reader_refuses_such_a_name_at_its_index() -> None:
    """/referee reads events itself (app.core.table.mjai): the same names are a malformed_event there."""
    with pytest.raises(MalformedEvent) as caught:
        read_event({"type": "start_game", "names": ["a", "b", SURROGATE, "d"]}, 0)
    assert caught.value.field == "events[0].names[2]" and "lone surrogate" in caught.value.reason
    with pytest.raises(MalformedEvent):
        read_event({"type": "start_game", "names": ["a", "b", "c", "\x07"]}, 0)
    assert read_event({"type": "start_game", "names": ["a", "b", "c", "すずめ"]}, 0).kind == "start_game"


# -- mjlog: no DOCTYPE, no entity, anywhere ----------------------------------------------------


def _with_entity(text: str, *, padding: int) -> str:
    declared = '<!DOCTYPE mjloggm [<!ENTITY e "INJECTED">]>'
    return "<!--" + "x" * padding + "-->" + declared + text.replace('n1="b"', 'n1="&e;"')


@pytest.mark.parametrize("padding", [0, 5000, 100_000])
def test_an_internal_entity_behind_a_long_comment_is_refused(padding: int) -> None:
    error = _refused(_with_entity(_mjlog(), padding=padding), "mjlog")
    assert error.field == "tags" and "DOCTYPE" in error.reason


def test_an_entity_declaration_without_a_doctype_is_not_xml() -> None:
    text = _mjlog().replace("<SHUFFLE", '<!ENTITY e "INJECTED"><SHUFFLE', 1)
    assert _refused(text, "mjlog").field == "tags"


def test_an_xml_declaration_and_comments_are_still_read() -> None:
    text = '<?xml version="1.0" encoding="UTF-8"?>\n<!-- a comment -->' + _mjlog()
    assert read_log(text, "mjlog")[0]["names"] == ["a", "b", "c", "d"]
