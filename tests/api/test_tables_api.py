"""Hosted tables over real HTTP: one real server (uvicorn, ``python -m app.main``, SQLite in a
temporary folder), clients over httpx and a WebSocket client, as a game backend would use them.

* Every error a seat can meet, with its status, code and field.
* Play: tables of every preset with one random client seat and bots, and riichi hanchans with
  two random clients, played to the end; then every view each client was shown is checked
  (no concealed tile of another seat, no seed before the end, the events equal to the record
  as the seat sees it), the record (its seed hashes to the commitment published at the start,
  the referee accepts it with its own deltas, every action answered 200 is in it, in order,
  and the other two formats read back).
* The clock: a seat that never answers goes to auto-play and the game goes on; acting ends
  auto-play; answering late spends the bank.
* The long poll answers as soon as the table moves, and after ``wait`` when it does not.
* The WebSocket, with a real client: a whole hand played on the socket; a bad token refused.
* With an API key: opening a table needs it, the seat routes need only the seat's token, and
  the record also opens with the key.
"""

from __future__ import annotations

import hashlib
import json
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from api_helpers import error_items
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from app.core.table.hosted import seat_events

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hosting"))
from table_client import (  # noqa: E402 - a module of another test folder (no packages there)
    Answered,
    RandomSeat,
    Server,
    assert_answered_in_record,
    assert_shows_no_concealed_tile,
    bearer,
    open_table,
    play_all,
    tenpai_server,
)

#: A clock no test waits out: the seat decides when the test says.
SLOW_CLOCK = {"decision_seconds": 120, "bank_seconds": 120, "autoplay_seconds": 5}
#: The rules whose games Tenhou's formats (tenhou6, mjlog) can hold.
TENHOU_FORMATS = ("riichi", "sanma")
SEATS = {"riichi": 4, "sanma": 3, "sichuan": 4, "mcr": 4, "qiqihar": 4, "chinese": 4}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with tenpai_server(tmp_path_factory.mktemp("tables-api")) as running:
        yield running


@pytest.fixture(scope="module")
def http(server: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base, timeout=60, trust_env=False) as client:
        yield client


def one_client_table(server: Server, rules: str = "riichi", **body: Any) -> tuple[dict[str, Any], str]:
    """A table of one client seat (seat 0) and bots; its opening answer and seat 0's token."""
    spec = {"rules": rules, "length": "kyoku", "seats": ["client"] + ["bot"] * (SEATS[rules] - 1), **body}
    spec.setdefault("clock", SLOW_CLOCK)
    opened = open_table(server.base, spec)
    return opened, opened["seats"][0]["token"]


def asked_view(http: httpx.Client, table: str, token: str) -> dict[str, Any]:
    """Seat's view once it is asked to act (the bots before it have played)."""
    give_up = time.monotonic() + 30
    after = 0
    while True:
        response = http.get(f"/tables/{table}", params={"after": after, "wait": 2}, headers=bearer(token))
        assert response.status_code == 200, response.text
        view: dict[str, Any] = response.json()
        if view["legal"]:
            return view
        assert view["status"] == "playing" and time.monotonic() < give_up, view
        after = view["version"]


def error_of(response: httpx.Response, status: int, code: str, loc: list[Any] | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.text
    item = error_items(response)[0]
    assert item["type"] == code, item
    if loc is not None:
        assert item["loc"] == loc, item
    return item


# -- errors ----------------------------------------------------------------------------------


def test_every_error_a_seat_can_meet(server: Server, http: httpx.Client) -> None:
    opened, token = one_client_table(server, seed="errors-1")
    other, other_token = one_client_table(server, seed="errors-2")
    table = opened["table"]
    view = asked_view(http, table, token)
    version, legal = view["version"], view["legal"]
    dahai = next(action for action in legal if action["type"] == "dahai")

    error_of(http.get(f"/tables/{table}"), 401, "missing_token", ["header", "authorization"])
    error_of(http.get(f"/tables/{table}", headers={"Authorization": "Basic dXNlcjpwYXNz"}), 401, "missing_token")
    error_of(http.get(f"/tables/{table}", headers=bearer(other_token)), 403, "not_your_table")
    error_of(http.get(f"/tables/{table}", headers=bearer("t" * 43)), 403, "not_your_table")
    posted = {"version": version, "action": dahai}
    error_of(http.post(f"/tables/{table}/actions", json=posted), 401, "missing_token")
    error_of(http.post(f"/tables/{table}/actions", json=posted, headers=bearer(other_token)), 403, "not_your_table")
    error_of(http.get(f"/tables/{table}/record", headers=bearer(other_token)), 403, "not_your_table")

    not_mine = {**dahai, "actor": 1}
    error_of(
        http.post(f"/tables/{table}/actions", json={"version": version, "action": not_mine}, headers=bearer(token)),
        403,
        "not_your_seat",
        ["body", "action", "actor"],
    )
    stale = error_of(
        http.post(f"/tables/{table}/actions", json={"version": version - 1, "action": dahai}, headers=bearer(token)),
        409,
        "stale_version",
        ["body", "version"],
    )
    assert stale["ctx"] == {"version": version}
    held = {action["pai"] for action in legal if action["type"] == "dahai"}
    absent = next(tile for tile in ("E", "S", "W", "N", "P", "F", "C", "1m", "9p", "5s") if tile not in held)
    illegal = {"type": "dahai", "actor": 0, "pai": absent, "tsumogiri": False}
    refused = error_of(
        http.post(f"/tables/{table}/actions", json={"version": version, "action": illegal}, headers=bearer(token)),
        422,
        "illegal_action",
        ["body", "action"],
    )
    assert refused["ctx"]["legal"] == legal
    error_of(
        http.post(
            f"/tables/{table}/actions", json={"version": version, "action": {"type": "fly"}}, headers=bearer(token)
        ),
        422,
        "illegal_action",
    )
    error_of(http.get(f"/tables/{table}/record", headers=bearer(token)), 409, "table_not_over", ["path", "table"])
    # Nothing refused moved the table.
    assert http.get(f"/tables/{table}", headers=bearer(token)).json()["version"] == version

    for path in ("/tables/t_0000", "/tables/t_0000/record"):
        error_of(http.get(path, headers=bearer(token)), 404, "table_not_found", ["path", "table"])
    error_of(http.post("/tables/t_0000/actions", json=posted, headers=bearer(token)), 404, "table_not_found")

    seat = RandomSeat(server.base, table, token, seed=1)
    final = seat.play()
    assert final["status"] == "over"
    error_of(
        http.post(
            f"/tables/{table}/actions", json={"version": final["version"], "action": dahai}, headers=bearer(token)
        ),
        409,
        "table_over",
    )
    assert http.get(f"/tables/{table}/record", headers=bearer(token)).status_code == 200
    # The other table is untouched by all this, and still its own token's.
    assert http.get(f"/tables/{other['table']}", headers=bearer(other_token)).json()["status"] == "playing"


GOOD_TABLE = {"rules": "riichi", "length": "kyoku", "seats": ["client", "bot", "bot", "bot"]}


@pytest.mark.parametrize(
    ("change", "loc", "code"),
    [
        ({"rules": "mahjong-99"}, ["body", "rules"], "enum"),
        ({"length": "forever"}, ["body", "length"], "enum"),
        ({"rules": "sichuan", "length": "hanchan"}, ["body", "length"], "invalid_game_config"),
        ({"seats": ["client", "bot", "bot"]}, ["body", "seats"], "invalid_table_spec"),
        ({"rules": "sanma"}, ["body", "seats"], "invalid_table_spec"),
        ({"seats": ["client"] * 5}, ["body", "seats"], "too_long"),
        ({"seats": ["bot", "bot", "bot", "bot"]}, ["body", "seats"], "invalid_table_spec"),
        ({"seats": ["client", "human", "bot", "bot"]}, ["body", "seats", 1], "literal_error"),
        ({"clock": {"decision_seconds": 0}}, ["body", "clock", "decision_seconds"], "greater_than_equal"),
        ({"clock": {"bank_seconds": -1}}, ["body", "clock", "bank_seconds"], "greater_than_equal"),
        ({"clock": {"autoplay_seconds": 61}}, ["body", "clock", "autoplay_seconds"], "less_than_equal"),
        ({"clock": {"decision_seconds": "soon"}}, ["body", "clock", "decision_seconds"], "float_parsing"),
        ({"clock": {"turn_seconds": 5}}, ["body", "clock", "turn_seconds"], "extra_forbidden"),
        ({"seed": "s" * 4097}, ["body", "seed"], "string_too_long"),
        ({"seed": "東南西北"}, ["body", "seed"], "invalid_seed"),
        ({"seed": ""}, ["body", "seed"], "invalid_seed"),
        ({"seed": 7}, ["body", "seed"], "string_type"),
        ({"dealer": 2}, ["body", "dealer"], "extra_forbidden"),
        ({"names": ["a", "b\u0001", "c", "d"]}, ["body", "names", 1], "invalid_table_spec"),
        ({"names": ["a", "b", "c"]}, ["body", "names"], "invalid_table_spec"),
        ({"names": ["a", "b", "c", "d" * 65]}, ["body", "names", 3], "string_too_long"),
    ],
    ids=lambda value: json.dumps(value)[:40] if isinstance(value, dict) else None,
)
def test_a_bad_table_is_refused_naming_the_field(
    http: httpx.Client, change: dict[str, Any], loc: list[Any], code: str
) -> None:
    error_of(http.post("/tables", json={**GOOD_TABLE, **change}), 422, code, loc)


# -- play --------------------------------------------------------------------------------------


def check_played_table(
    http: httpx.Client, opened: dict[str, Any], seats: list[RandomSeat], rules: str, length: str
) -> None:
    """Everything a finished table's clients saw and its record must satisfy (module note)."""
    table = opened["table"]
    record_answer = http.get(f"/tables/{table}/record", headers=bearer(seats[0].token))
    assert record_answer.status_code == 200, record_answer.text
    record = record_answer.json()
    events = record["events"]
    assert events[0]["type"] == "start_game" and events[-1]["type"] == "end_game"
    # The seed was committed to before the deal, and revealed now.
    assert hashlib.sha256(record["seed"].encode("ascii")).hexdigest() == record["commitment"] == opened["commitment"]
    assert record["scores"] == events[-1]["scores"]

    for seat in seats:
        number = next(index for index, out in enumerate(opened["seats"]) if out.get("token") == seat.token)
        assert seat.views and seat.views[-1]["status"] == "over"
        for view in seat.views:
            assert view["seat"] == number and view["commitment"] == opened["commitment"]
            assert_shows_no_concealed_tile(view["events"], number)
            if view["status"] == "playing":
                assert "seed" not in view and record["seed"] not in json.dumps(view), view["version"]
            else:
                assert view["seed"] == record["seed"]
        # The views, each event once, are the record as this seat sees it.
        assert seat.events == seat_events(events, number)
        assert len(seat.events) == len(events) == seat.views[-1]["version"]
        assert seat.answered, "the seat never acted"
        assert all(answer.action["actor"] == number for answer in seat.answered if "actor" in answer.action)
        assert_answered_in_record(seat.answered, events)

    judged = http.post("/referee", json={"events": events, "rules": rules, "length": length})
    assert judged.status_code == 200, judged.text
    verdict = judged.json()
    assert verdict["valid"], verdict["problems"][:3]
    assert verdict["hands"] and all(hand["deltas"] == hand["logged_deltas"] for hand in verdict["hands"])
    assert verdict["scores"] == record["scores"]

    for written in ("tenhou6", "mjlog"):
        log = http.get(f"/tables/{table}/record", params={"format": written}, headers=bearer(seats[0].token))
        if rules not in TENHOU_FORMATS:
            # Tenhou's formats have no place for a game without dora indicators: said, not written.
            error_of(log, 422, "malformed_log")
            continue
        assert log.status_code == 200, log.text
        back = http.post("/records/convert", json={"log": log.text, "format": written, "to": "mjai", "rules": rules})
        assert back.status_code == 200, back.text
        read = back.json()
        assert read["valid"], read["problems"][:3]
        assert read["source_format"] == written
        read_events = [json.loads(line) for line in read["log"].splitlines()]
        discards = [(e["actor"], e["pai"]) for e in events if e["type"] == "dahai"]
        assert [(e["actor"], e["pai"]) for e in read_events if e["type"] == "dahai"] == discards


def test_random_clients_play_tables_of_every_preset_to_the_end(server: Server, http: httpx.Client) -> None:
    tables: list[tuple[dict[str, Any], list[RandomSeat], str, str]] = []
    for index, rules in enumerate(SEATS):
        opened, token = one_client_table(server, rules)  # a secret seed: the service draws it
        tables.append((opened, [RandomSeat(server.base, opened["table"], token, seed=index)], rules, "kyoku"))
    for index in range(2):
        opened = open_table(
            server.base,
            {"rules": "riichi", "length": "hanchan", "seats": ["client", "bot", "client", "bot"], "clock": SLOW_CLOCK},
        )
        clients = [
            RandomSeat(server.base, opened["table"], opened["seats"][seat]["token"], seed=f"hanchan-{index}-{seat}")
            for seat in (0, 2)
        ]
        tables.append((opened, clients, "riichi", "hanchan"))
    everyone = [seat for _, seats, _, _ in tables for seat in seats]
    play_all(everyone, timeout=150)
    for opened, seats, rules, length in tables:
        check_played_table(http, opened, seats, rules, length)
    # The clock played every bot without a failure (a failed turn is logged, then retried).
    assert "Traceback" not in server.log(), server.log()[-3000:]
    # The two clients of a hanchan raced on claims at times; whoever lost re-read and went on.
    assert sum(len(seat.answered) for seat in everyone) > 300


# -- the clock ---------------------------------------------------------------------------------


def test_a_seat_that_never_answers_goes_to_auto_play_and_comes_back_by_acting(
    server: Server, http: httpx.Client
) -> None:
    opened, token = one_client_table(
        server, clock={"decision_seconds": 0.5, "bank_seconds": 0.5, "autoplay_seconds": 3}
    )
    table = opened["table"]
    first = asked_view(http, table, token)
    assert not first["autoplay"] and first["deadline"] is not None and first["bank_seconds"] == 0.5
    asked_at = time.monotonic()
    # The seat says nothing: past decision + bank the clock plays for it, and the bots go on.
    moved = http.get(f"/tables/{table}", params={"after": first["version"], "wait": 10}, headers=bearer(token)).json()
    waited = time.monotonic() - asked_at
    assert moved["version"] > first["version"], moved
    assert 0.8 <= waited < 8, waited
    assert moved["autoplay"] is True and moved["bank_seconds"] == 0
    mine = [event for event in moved["events"] if event.get("actor") == 0 and event["type"] != "tsumo"]
    assert mine, moved["events"]  # the clock's action for the seat is in its view
    # Looking at the view does not end auto-play; the seat is asked again, still in auto-play.
    again = asked_view(http, table, token)
    assert again["autoplay"] is True
    acted = http.post(
        f"/tables/{table}/actions",
        json={"version": again["version"], "action": again["legal"][0]},
        headers=bearer(token),
    )
    assert acted.status_code == 200, acted.text
    assert acted.json()["autoplay"] is False
    assert http.get(f"/tables/{table}", headers=bearer(token)).json()["autoplay"] is False


def asked_again(http: httpx.Client, table: str, token: str) -> dict[str, Any] | None:
    """Seat's view once it is asked to act again, or None when the hand ended first (a bot's
    win or nine-terminals draw can end a one-hand table before the seat's second turn)."""
    give_up = time.monotonic() + 30
    after = 0
    while time.monotonic() < give_up:
        response = http.get(f"/tables/{table}", params={"after": after, "wait": 2}, headers=bearer(token))
        assert response.status_code == 200, response.text
        view: dict[str, Any] = response.json()
        if view["legal"]:
            return view
        if view["status"] != "playing":
            return None
        after = view["version"]
    raise AssertionError(f"table {table}: seat 0 was not asked again within 30 s")


def test_answering_late_spends_the_bank(server: Server, http: httpx.Client) -> None:
    # The seat answers its first prompt at once, then its second late; a hand that ends before the
    # second (rare: a bot's win or draw) is dealt again on a new table, at most five times.
    for _ in range(5):
        opened, token = one_client_table(
            server, clock={"decision_seconds": 2, "bank_seconds": 10, "autoplay_seconds": 1}
        )
        table = opened["table"]
        prompt = asked_view(http, table, token)
        discards = [action for action in prompt["legal"] if action["type"] == "dahai"] or prompt["legal"]
        answered = http.post(
            f"/tables/{table}/actions",
            json={"version": prompt["version"], "action": discards[0]},
            headers=bearer(token),
        )
        assert answered.status_code == 200, answered.text
        assert answered.json()["bank_seconds"] == 10  # within decision_seconds: the bank is whole
        late = asked_again(http, table, token)
        if late is not None:
            break
    else:
        raise AssertionError("five tables in a row ended before seat 0's second turn")
    time.sleep(3.2)  # 1.2 s or more past decision_seconds
    answered = http.post(
        f"/tables/{table}/actions", json={"version": late["version"], "action": late["legal"][0]}, headers=bearer(token)
    )
    assert answered.status_code == 200, answered.text
    view = answered.json()
    assert 0 < view["bank_seconds"] <= 10 - 1.2, view["bank_seconds"]
    assert view["autoplay"] is False


# -- the long poll -----------------------------------------------------------------------------


def test_the_long_poll_answers_when_the_table_moves_and_after_wait_when_it_does_not(
    server: Server, http: httpx.Client
) -> None:
    opened, token = one_client_table(server)
    table = opened["table"]
    view = asked_view(http, table, token)
    version = view["version"]
    # Nobody else can move the table while the seat thinks: the poll waits its whole `wait`.
    started = time.monotonic()
    idle = http.get(f"/tables/{table}", params={"after": version, "wait": 2}, headers=bearer(token))
    idle_seconds = time.monotonic() - started
    assert idle.status_code == 200 and idle.json()["events"] == [] and idle.json()["version"] == version
    assert 1.9 <= idle_seconds < 4, idle_seconds

    polled: dict[str, Any] = {}

    def poll() -> None:
        with httpx.Client(base_url=server.base, timeout=30, trust_env=False) as own:
            response = own.get(f"/tables/{table}", params={"after": version, "wait": 5}, headers=bearer(token))
        polled["at"] = time.monotonic()
        polled["view"] = response.json()

    poller = threading.Thread(target=poll)
    poller.start()
    time.sleep(1.0)  # the poll is waiting
    acted_at = time.monotonic()
    acted = http.post(
        f"/tables/{table}/actions", json={"version": version, "action": view["legal"][0]}, headers=bearer(token)
    )
    assert acted.status_code == 200, acted.text
    poller.join(timeout=10)
    assert not poller.is_alive()
    assert polled["view"]["version"] > version and polled["view"]["events"]
    assert polled["at"] - acted_at < 1.5, polled["at"] - acted_at  # not the 5 s of its wait


# -- the WebSocket -----------------------------------------------------------------------------


def ws_url(server: Server, table: str, token: str) -> str:
    return f"{server.base.replace('http://', 'ws://')}/tables/{table}/ws?token={token}"


def test_a_whole_hand_over_the_websocket(server: Server, http: httpx.Client) -> None:
    opened, token = one_client_table(server, seed="socket-1")
    table = opened["table"]
    seat = RandomSeat(server.base, table, token, seed="socket")  # its choices, views and answers
    pushes = 0
    with connect(ws_url(server, table, token), open_timeout=10) as socket:
        view = seat.take(json.loads(socket.recv(timeout=10)))
        assert view["after"] == 0 and view["status"] == "playing" and view["seat"] == 0
        pending: tuple[int, dict[str, Any]] | None = None
        give_up = time.monotonic() + 120
        while view["status"] == "playing" or pending is not None:
            assert time.monotonic() < give_up, "the hand did not end over the socket"
            if pending is None and view["legal"] and view["version"] == seat.version:
                action = seat.rng.choice(view["legal"])
                socket.send(json.dumps({"version": view["version"], "action": action}))
                pending = (view["version"], action)
            message = json.loads(socket.recv(timeout=30))
            # The answer to an action is the view after it with its HTTP status; pushes are
            # views without one: each new event and each change of what the seat may do.
            if "http_status" in message:
                assert message["http_status"] == 200 and pending is not None, message
                seat.answered.append(Answered(len(seat.answered), *pending))
                pending = None
            else:
                pushes += 1
            taken = seat.take(message)
            if taken["version"] >= view["version"]:  # an answer sent after a newer push is not news
                view = taken
        # A late action on the socket is answered as the HTTP route answers it.
        socket.send(json.dumps({"version": view["version"], "action": {"type": "none"}}))
        refused = json.loads(socket.recv(timeout=10))
        assert refused["http_status"] == 409 and refused["error"] == "table_over", refused
    assert len(seat.answered) >= 5 and pushes > 0
    record = http.get(f"/tables/{table}/record", headers=bearer(token)).json()
    assert seat.events == seat_events(record["events"], 0)
    assert_shows_no_concealed_tile(seat.events, 0)
    assert_answered_in_record(seat.answered, record["events"])


def test_a_socket_action_is_answered_as_the_http_route_answers_it(server: Server, http: httpx.Client) -> None:
    opened, token = one_client_table(server, seed="socket-2")
    table = opened["table"]
    view = asked_view(http, table, token)
    with connect(ws_url(server, table, token), open_timeout=10) as socket:
        first = json.loads(socket.recv(timeout=10))
        assert first["version"] == view["version"] and first["legal"] == view["legal"]
        socket.send(json.dumps({"version": view["version"] - 1, "action": view["legal"][0]}))
        stale = json.loads(socket.recv(timeout=10))
        assert stale["http_status"] == 409 and stale["error"] == "stale_version", stale
        assert stale["detail"][0]["ctx"] == {"version": view["version"]}
        socket.send(json.dumps({"version": view["version"], "action": {**view["legal"][0], "actor": 2}}))
        assert json.loads(socket.recv(timeout=10))["error"] == "not_your_seat"
        socket.send("not json")
        garbled = json.loads(socket.recv(timeout=10))
        assert garbled["http_status"] == 422 and garbled["error"] == "invalid_request", garbled
        socket.send(json.dumps({"version": view["version"], "action": view["legal"][0]}))
        answer = json.loads(socket.recv(timeout=10))
        assert answer["http_status"] == 200 and answer["status"] in ("playing", "over"), answer
        assert answer["version"] > view["version"]
        assert answer["after"] == view["version"] and answer["events"][0] == view["legal"][0]


@pytest.mark.parametrize(
    ("token", "table", "code", "reason"),
    [
        ("forged-token", None, 4403, "not_your_table"),
        ("", None, 4401, "missing_token"),
        (None, "t_0000", 4404, "table_not_found"),
    ],
)
def test_a_socket_that_is_no_seat_s_is_closed_with_the_reason(
    server: Server, token: str | None, table: str | None, code: int, reason: str
) -> None:
    opened, own = one_client_table(server)
    url = ws_url(server, table or opened["table"], own if token is None else token)
    with pytest.raises(ConnectionClosed) as closed, connect(url, open_timeout=10) as socket:
        socket.recv(timeout=10)
    assert closed.value.rcvd is not None, closed.value
    assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (code, reason)


# -- with an API key ---------------------------------------------------------------------------


def test_with_an_api_key_a_table_opens_with_the_key_and_its_seats_need_only_their_tokens(
    tmp_path: Path,
) -> None:
    with (
        tenpai_server(tmp_path, TENPAI_API_KEYS="k") as keyed,
        httpx.Client(base_url=keyed.base, timeout=60, trust_env=False) as http,
    ):
        body = {**GOOD_TABLE, "clock": SLOW_CLOCK}
        assert http.post("/tables", json=body).status_code == 401
        assert http.post("/tables", json=body, headers={"X-API-Key": "wrong"}).status_code == 401
        opened = open_table(keyed.base, body, api_key="k")
        table, token = opened["table"], opened["seats"][0]["token"]
        # The seat routes: the seat's token alone (a player's browser never holds the key).
        seat = RandomSeat(keyed.base, table, token, seed="keyed")
        assert seat.play()["status"] == "over"
        assert seat.answered
        error_of(http.get(f"/tables/{table}"), 401, "missing_token")
        error_of(http.get(f"/tables/{table}", headers={"X-API-Key": "k"}), 401, "missing_token")
        with connect(ws_url(keyed, table, token), open_timeout=10) as socket:
            assert json.loads(socket.recv(timeout=10))["status"] == "over"
        # The record: a seat's token, or the backend's key.
        by_seat = http.get(f"/tables/{table}/record", headers=bearer(token))
        by_key = http.get(f"/tables/{table}/record", headers={"X-API-Key": "k"})
        assert by_seat.status_code == by_key.status_code == 200, (by_seat.text, by_key.text)
        assert by_key.json() == by_seat.json()
        assert seat.events == seat_events(by_key.json()["events"], 0)
        error_of(http.get(f"/tables/{table}/record", headers={"X-API-Key": "wrong"}), 401, "missing_token")
        assert (
            http.get(f"/tables/{table}/record", params={"format": "mjlog"}, headers={"X-API-Key": "k"}).status_code
            == 200
        )
