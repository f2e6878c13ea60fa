"""POST /records/convert and POST /review against issue 33's hostile logs: each answered within the heavy
bound, with a 422 at the log's place or a 503 ``out_of_time``, never a 500 (the clients here raise on one).

Bodies are sent as ASCII JSON (``\\ud800`` escaped), as the hostile client sent them: a lone surrogate
cannot be encoded otherwise.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from api_helpers import assert_error, started
from fastapi.testclient import TestClient
from hostile_logs import deep_choices_log, pon_chain_log

from app.core.families.registry import family_of
from app.core.table.records import write_log
from app.core.table.records.tenhou6 import _TINY
from app.settings import Settings

#: Python's words for these faults, which no answer may carry.
PYTHON_WORDS = re.compile(r"Exceeds the limit|maximum recursion|codec can't|Error\(|surrogates not allowed")
ROUTES = ("/records/convert", "/review")


def _post(client: TestClient, route: str, log: str) -> Any:
    body: dict[str, Any] = {"log": log, "to": "mjai"} if route == "/records/convert" else {"log": log, "seat": 0}
    return client.post(route, content=json.dumps(body), headers={"content-type": "application/json"})


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("build", [pon_chain_log, deep_choices_log], ids=["pon_chain", "deep_choices"])
def test_a_hostile_hand_is_answered_within_the_heavy_bound(client: TestClient, route: str, build: Any) -> None:
    seconds = Settings().heavy_seconds
    log = build()
    began = time.monotonic()
    response = _post(client, route, log)
    assert time.monotonic() - began < seconds + 3  # the pon chain took 22.8 s before
    if response.status_code == 503:
        assert_error(response, 503, ["body", "log"], "out_of_time")
    else:
        item = assert_error(response, 422, ["body", "log", "log", 0], "malformed_log")
        assert not PYTHON_WORDS.search(item["msg"])


@pytest.mark.parametrize("route", ROUTES)
def test_a_reading_the_clock_stops_is_a_503_out_of_time_at_the_log(route: str) -> None:
    client = started(Settings(heavy_seconds=1e-6))
    try:
        item = assert_error(_post(client, route, deep_choices_log()), 503, ["body", "log"], "out_of_time")
        assert item["msg"].startswith("the reading of the log stopped: it did not finish within")
        assert item["ctx"] == {"seconds": 1e-6}
    finally:
        client.__exit__(None, None, None)


def _tenhou6(**changes: Any) -> dict[str, Any]:
    log: dict[str, Any] = json.loads(write_log(_TINY, "tenhou6", family_of("riichi")))
    log.update(changes)
    return log


def _superscript_call() -> str:
    log = _tenhou6()
    log["log"][0][5][0] = "p²²²²²²"
    return json.dumps(log, ensure_ascii=False)


def _mjai(first_line: str | None = None, second_line: str | None = None) -> str:
    lines = write_log(_TINY, "mjai", family_of("riichi")).splitlines()
    if first_line is not None:
        lines[0] = first_line
    if second_line is not None:
        lines[1] = second_line
    return "\n".join(lines)


LONG = "9" * 5000
DEEP = "[" * 1000 + "]" * 1000
COMMENTED_ENTITY = ("<!--" + "x" * 5000 + '--><!DOCTYPE mjloggm [<!ENTITY e "INJECTED">]>') + write_log(
    _TINY, "mjlog", family_of("riichi")
).replace('n1="b"', 'n1="&e;"')

HOSTILE = {
    "tenhou6 long number": (json.dumps(_tenhou6(x=0)).replace('"x": 0', '"x": ' + LONG), ["log"]),
    "tenhou6 deep": ('{"log": ' + DEEP + "}", ["log"]),
    "tenhou6 superscript digits": (_superscript_call(), ["log", 0, 5, 0]),
    "tenhou6 surrogate name": (json.dumps(_tenhou6(name=["a", "\ud800", "c", "d"])), ["name", 1]),
    "mjai long number": (_mjai(second_line='{"type": "start_kyoku", "honba": ' + LONG + "}"), ["lines", 1]),
    "mjai long number first": (_mjai(first_line='{"type": "start_game", "x": ' + LONG + "}"), ["lines", 0]),
    "mjai deep": (_mjai(second_line='{"type": "start_kyoku", "x": ' + DEEP + "}"), ["lines", 1]),
    "mjai deep first": (_mjai(first_line='{"type": "start_game", "x": ' + DEEP + "}"), ["lines", 0]),
    "mjai surrogate name": (_mjai(json.dumps({"type": "start_game", "names": ["a", "\ud800", "c", "d"]})),
                            ["events", 0, "names", 1]),
    "mjlog surrogate name": (write_log(_TINY, "mjlog", family_of("riichi")).replace('n1="b"', 'n1="%ED%A0%80"'), ["tags", 2, "n1"]),
    "mjlog entity behind a comment": (COMMENTED_ENTITY, ["tags"]),
}  # fmt: skip


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("case", list(HOSTILE))
def test_what_python_cannot_read_is_a_422_at_its_place(client: TestClient, route: str, case: str) -> None:
    log, place = HOSTILE[case]
    response = _post(client, route, log)
    item = assert_error(response, 422, ["body", "log", *place], "malformed_log")
    assert not PYTHON_WORDS.search(item["msg"]), item["msg"]
    assert "INJECTED" not in response.text


@pytest.mark.parametrize("to", ["mjai", "tenhou6", "mjlog"])
def test_a_lone_surrogate_in_a_name_is_never_written(client: TestClient, to: str) -> None:
    log = json.dumps(_tenhou6(name=["a", "b\udfffc", "c", "d"]))
    body = json.dumps({"log": log, "to": to})
    response = client.post("/records/convert", content=body, headers={"content-type": "application/json"})
    assert_error(response, 422, ["body", "log", "name", 1], "malformed_log")


def test_the_referee_refuses_a_name_that_is_not_text_at_its_index(client: TestClient) -> None:
    events = [{**_TINY[0], "names": ["a", "b", "\ud800", "d"]}, *_TINY[1:]]
    body = json.dumps({"events": events})
    response = client.post("/referee", content=body, headers={"content-type": "application/json"})
    assert_error(response, 422, ["body", "events", 0, "names", 2], "malformed_event")


@pytest.mark.parametrize(("to", "place"), [("tenhou6", ["events", 12]), ("mjlog", ["events"])])
def test_an_event_the_format_cannot_carry_is_a_422_in_words_of_ours(
    client: TestClient, to: str, place: list[Any]
) -> None:
    events = [*_TINY[:-3], {"type": "hora", "actor": 1, "target": 0}, *_TINY[-2:]]  # a hora without deltas
    response = client.post("/records/convert", json={"log": write_log(events, "mjai", family_of("riichi")), "to": to})
    item = assert_error(response, 422, ["body", "to", *place], "malformed_log")
    assert "it has no 'deltas'" in item["msg"] and not PYTHON_WORDS.search(item["msg"]), item["msg"]


def test_a_log_of_scores_of_thousands_of_digits_is_a_422_not_a_500(client: TestClient) -> None:
    big = int("9" * 4299)  # under Python's 4,300 digits: read, then too large for the mjlog writer's floats
    events = [*_TINY[:1], {**_TINY[1], "scores": [big] * 4}, *_TINY[2:]]
    response = client.post(
        "/records/convert", json={"log": write_log(events, "mjai", family_of("riichi")), "to": "mjlog"}
    )
    assert_error(response, 422, ["body", "to", "events", 1, "scores"], "malformed_log")
