"""Every class of bad input is a 4xx naming the field; none reaches the 500 handler.

The module client keeps ``raise_server_exceptions`` on, so an input that made the
service fail unexpectedly would raise here instead of answering.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from api_helpers import assert_error, error_items, started
from fastapi.testclient import TestClient

from app.api.errors import ERROR_STATUS, HTTP_CODES, MAX_MESSAGE_CHARS, error_body
from app.core.errors import error_codes
from app.main import create_app
from app.settings import Settings

HAND_ENDPOINTS = ("/win", "/ting", "/shanten")
BATCH_ENDPOINTS = ("/win/batch", "/ting/batch", "/shanten/batch")
FOUR_MELDS = [
    {"kind": "pon", "tiles": "111m"},
    {"kind": "pon", "tiles": "222p"},
    {"kind": "pon", "tiles": "333s"},
    {"kind": "chi", "tiles": "789s"},
]

# (path, body, status, loc, type); type None: any pydantic error type.
CASES: list[tuple[str, Any, int, list[Any], str | None]] = [
    # bad notation, in every tiles field
    ("/shanten", {"hand": "123x"}, 422, ["body", "hand"], "invalid_notation"),
    ("/shanten", {"hand": "123"}, 422, ["body", "hand"], "invalid_notation"),
    ("/shanten", {"hand": "8z"}, 422, ["body", "hand"], "invalid_notation"),
    ("/shanten", {"hand": "123m一万"}, 422, ["body", "hand"], "invalid_notation"),
    ("/shanten", {"hand": "一二三"}, 422, ["body", "hand"], "invalid_notation"),
    ("/shanten", {"hand": "🀇🀢"}, 422, ["body", "hand"], "invalid_notation"),
    ("/shanten", {"hand": [0, 34]}, 422, ["body", "hand"], "invalid_notation"),
    ("/shanten", {"hand": [0, -1]}, 422, ["body", "hand"], "invalid_notation"),
    ("/shanten", {"hand": "1m", "visible": "1q"}, 422, ["body", "visible"], "invalid_notation"),
    (
        "/shanten",
        {"hand": "1m", "melds": [{"kind": "pon", "tiles": "22"}]},
        422,
        ["body", "melds", 0, "tiles"],
        "invalid_notation",
    ),
    # five copies
    ("/shanten", {"hand": "11111m"}, 422, ["body", "hand"], "too_many_copies"),
    ("/win", {"hand": "11111m234p"}, 422, ["body", "hand"], "too_many_copies"),
    (
        "/ting",
        {"hand": "1m", "melds": [{"kind": "pon", "tiles": "111m"}, {"kind": "pon", "tiles": "111m"}]},
        422,
        ["body", "melds"],
        "too_many_copies",
    ),
    # visible tiles making more than four copies
    ("/shanten", {"hand": "1112345678999m", "visible": "11m"}, 422, ["body", "visible"], "too_many_copies"),
    ("/ting", {"hand": "1m", "visible": "11111m"}, 422, ["body", "visible"], "too_many_copies"),
    ("/ting", {"hand": "1m", "visible": "1m" * 300}, 422, ["body", "visible"], "too_many_copies"),
    ("/win", {"hand": "123m456p789s11122z", "visible": "222z"}, 422, ["body", "visible"], "too_many_copies"),
    # tile counts that do not fit the endpoint
    ("/win", {"hand": "123456789m1234z"}, 422, ["body", "hand"], "wrong_tile_count"),
    ("/win", {"hand": ""}, 422, ["body", "hand"], "wrong_tile_count"),
    ("/ting", {"hand": "123456789m12345z"}, 422, ["body", "hand"], "wrong_tile_count"),
    ("/ting", {"hand": []}, 422, ["body", "hand"], "wrong_tile_count"),
    ("/shanten", {"hand": "123m"}, 422, ["body", "hand"], "wrong_tile_count"),
    ("/shanten", {"hand": "123456789m123456z"}, 422, ["body", "hand"], "wrong_tile_count"),
    ("/shanten", {"hand": "1234m", "melds": FOUR_MELDS}, 422, ["body", "hand"], "wrong_tile_count"),
    ("/win", {"hand": "1m", "melds": FOUR_MELDS}, 422, ["body", "hand"], "wrong_tile_count"),
    # melds that are not melds
    (
        "/ting",
        {"hand": "1m", "melds": [{"kind": "chi", "tiles": "124m"}]},
        422,
        ["body", "melds", 0, "tiles"],
        "invalid_meld",
    ),
    (
        "/ting",
        {"hand": "1m", "melds": [{"kind": "chi", "tiles": "111z"}]},
        422,
        ["body", "melds", 0, "tiles"],
        "invalid_meld",
    ),
    (
        "/ting",
        {"hand": "1m", "melds": [{"kind": "pon", "tiles": "1122m"}]},
        422,
        ["body", "melds", 0, "tiles"],
        "invalid_meld",
    ),
    (
        "/ting",
        {"hand": "1m", "melds": [{"kind": "open_kan", "tiles": "111m"}]},
        422,
        ["body", "melds", 0, "tiles"],
        "invalid_meld",
    ),
    ("/ting", {"hand": "1m", "melds": [{"kind": "pong", "tiles": "111m"}]}, 422, ["body", "melds", 0, "kind"], None),
    ("/ting", {"hand": "1m", "melds": [{"tiles": "111m"}]}, 422, ["body", "melds", 0, "kind"], "missing"),
    (
        "/ting",
        {"hand": "1m", "melds": FOUR_MELDS + [{"kind": "pon", "tiles": "999p"}]},
        422,
        ["body", "melds"],
        "invalid_meld",
    ),
    (
        "/ting",
        {"hand": "1m", "melds": [FOUR_MELDS[0], {"kind": "chi", "tiles": "891m"}]},
        422,
        ["body", "melds", 1, "tiles"],
        "invalid_meld",
    ),
    # rules
    ("/shanten", {"hand": "1m", "rules": "hong_kong"}, 422, ["body", "rules", "preset"], "unknown_rules"),
    ("/shanten", {"hand": "1m", "rules": {"preset": "hong_kong"}}, 422, ["body", "rules", "preset"], "unknown_rules"),
    ("/shanten", {"hand": "1m", "rules": {"riichi": True}}, 422, ["body", "rules", "riichi"], "invalid_rule_option"),
    (
        "/shanten",
        {"hand": "1m", "rules": {"preset": "riichi", "name": "x"}},
        422,
        ["body", "rules", "name"],
        "invalid_rule_option",
    ),
    (
        "/shanten",
        {"hand": "1m", "rules": {"preset": "riichi", "wildcards": "7q"}},
        422,
        ["body", "rules", "wildcards"],
        "invalid_rule_option",
    ),
    (
        "/shanten",
        {"hand": "1m", "rules": {"preset": "riichi", "wildcards": None}},
        422,
        ["body", "rules", "wildcards"],
        "invalid_rule_option",
    ),
    (
        "/shanten",
        {"hand": "1m", "rules": {"seven_pairs": "maybe"}},
        422,
        ["body", "rules", "seven_pairs"],
        "invalid_rule_option",
    ),
    (
        "/shanten",
        {"hand": "1m", "rules": {"thirteen_orphans": "yes"}},
        422,
        ["body", "rules", "thirteen_orphans"],
        "invalid_rule_option",
    ),
    (
        "/shanten",
        {"hand": "1m", "rules": {"thirteen_orphans": None}},
        422,
        ["body", "rules", "thirteen_orphans"],
        "invalid_rule_option",
    ),
    (
        "/shanten",
        {"hand": "1m", "rules": {"chi_allowed": 1}},
        422,
        ["body", "rules", "chi_allowed"],
        "invalid_rule_option",
    ),
    (
        "/shanten",
        {"hand": "1m", "rules": {"win_requires_meld": ["pong"]}},
        422,
        ["body", "rules", "win_requires_meld"],
        "invalid_rule_option",
    ),
    (
        "/shanten",
        {"hand": "1m", "rules": {"win_requires_meld": "pon"}},
        422,
        ["body", "rules", "win_requires_meld"],
        "invalid_rule_option",
    ),
    (
        "/shanten",
        {"hand": "1m", "rules": {"win_requires_meld": [{"x": []}]}},
        422,
        ["body", "rules", "win_requires_meld"],
        "invalid_rule_option",
    ),
    ("/shanten", {"hand": "1m", "rules": 5}, 422, ["body", "rules"], None),
    ("/shanten", {"hand": "1m", "rules": None}, 422, ["body", "rules"], None),
    ("/shanten", {"hand": "1m", "rules": {"preset": 3}}, 422, ["body", "rules", "preset"], None),
    # wrong types and nested garbage
    ("/shanten", {"hand": 5}, 422, ["body", "hand"], "invalid_notation"),
    ("/shanten", {"hand": None}, 422, ["body", "hand"], "invalid_notation"),
    ("/shanten", {"hand": True}, 422, ["body", "hand"], "invalid_notation"),
    ("/shanten", {"hand": 1.5}, 422, ["body", "hand"], "invalid_notation"),
    ("/shanten", {"hand": [0, 1, "2"]}, 422, ["body", "hand"], "invalid_notation"),
    ("/shanten", {"hand": [0, 1, True]}, 422, ["body", "hand"], "invalid_notation"),
    ("/shanten", {"hand": [0, 1, 2.0]}, 422, ["body", "hand"], "invalid_notation"),
    ("/shanten", {"hand": [[0, 1], [2]]}, 422, ["body", "hand"], "invalid_notation"),
    ("/shanten", {"hand": {"tiles": "1m"}}, 422, ["body", "hand"], "invalid_notation"),
    ("/shanten", {"hand": {"a": {"b": [{"c": None}]}}}, 422, ["body", "hand"], "invalid_notation"),
    ("/shanten", {"hand": "1m", "visible": 7}, 422, ["body", "visible"], "invalid_notation"),
    ("/shanten", {"hand": "1m", "visible": None}, 422, ["body", "visible"], "invalid_notation"),
    ("/shanten", {"hand": "1m", "melds": "111m"}, 422, ["body", "melds"], None),
    ("/shanten", {"hand": "1m", "melds": ["111m"]}, 422, ["body", "melds", 0], None),
    (
        "/shanten",
        {"hand": "1m", "melds": [{"kind": "pon", "tiles": {"x": [1]}}]},
        422,
        ["body", "melds", 0, "tiles"],
        "invalid_notation",
    ),
    (
        "/shanten",
        {"hand": "1m", "melds": [{"kind": "pon", "tiles": "111m", "from": 2}]},
        422,
        ["body", "melds", 0, "from"],
        "extra_forbidden",
    ),
    ("/shanten", {"hand": "1m", "rules": {"preset": {"nested": ["garbage"]}}}, 422, ["body", "rules", "preset"], None),
    ("/shanten", {"hand": "1m", "hands": ["1m"]}, 422, ["body", "hands"], "extra_forbidden"),
    ("/shanten", [{"hand": "1m"}], 422, ["body"], None),
    ("/shanten", "1m", 422, ["body"], None),
    ("/shanten", None, 422, ["body"], None),
    # missing fields
    ("/shanten", {}, 422, ["body", "hand"], "missing"),
    ("/win", {"rules": "riichi"}, 422, ["body", "hand"], "missing"),
    ("/shanten/batch", {"hand": "1m"}, 422, ["body", "hands"], "missing"),
    ("/ting/batch", {}, 422, ["body", "hands"], "missing"),
    # batches: the bad hand's index is in loc
    ("/shanten/batch", {"hands": "1m"}, 422, ["body", "hands"], None),
    ("/shanten/batch", {"hands": ["1m", "2m", "3m", "4x"]}, 422, ["body", "hands", 3], "invalid_notation"),
    ("/shanten/batch", {"hands": ["1m", "12m", "123m"]}, 422, ["body", "hands", 2], "wrong_tile_count"),
    ("/ting/batch", {"hands": ["1m", "2m"] + ["11111m"]}, 422, ["body", "hands", 2], "too_many_copies"),
    ("/ting/batch", {"hands": ["1m", "12m"]}, 422, ["body", "hands", 1], "wrong_tile_count"),
    ("/win/batch", {"hands": ["11m", "1m"]}, 422, ["body", "hands", 1], "wrong_tile_count"),
    ("/win/batch", {"hands": ["11m", {"x": 1}]}, 422, ["body", "hands", 1], "invalid_notation"),
    ("/win/batch", {"hands": ["11m"], "rules": "nope"}, 422, ["body", "rules", "preset"], "unknown_rules"),
    (
        "/win/batch",
        {"hands": ["11m"], "melds": [{"kind": "chi", "tiles": "135m"}]},
        422,
        ["body", "melds", 0, "tiles"],
        "invalid_meld",
    ),
]


def _case_id(case: tuple[str, Any, int, list[Any], str | None]) -> str:
    path, body, status, loc, error_type = case
    return f"{path}-{'.'.join(map(str, loc[1:])) or 'body'}-{error_type or 'pydantic'}"


@pytest.mark.parametrize("case", CASES, ids=[_case_id(case) for case in CASES])
def test_bad_input_is_a_4xx_at_its_field(client: TestClient, case: tuple[str, Any, int, list[Any], str | None]) -> None:
    path, body, status, loc, error_type = case
    item = assert_error(client.post(path, json=body), status, loc, error_type)
    assert item["msg"]


def test_messages_name_the_offending_character(client: TestClient) -> None:
    item = assert_error(client.post("/shanten", json={"hand": "123m45x"}), 422, ["body", "hand"])
    assert "'x'" in item["msg"] and "position 6" in item["msg"]
    item = assert_error(client.post("/shanten", json={"hand": [0, 1, 99]}), 422, ["body", "hand"])
    assert "item 2" in item["msg"] and "99" in item["msg"]


@pytest.mark.parametrize(
    ("kind", "tiles", "msg"),
    [
        ("open_kan", "111m", "an open_kan has 4 tiles, got 3 (1m1m1m)"),
        ("added_kan", "11m", "an added_kan has 4 tiles, got 2 (1m1m)"),
        ("closed_kan", "1111m2m", "a closed_kan has 4 tiles, got 5 (1m1m1m1m2m)"),
        ("open_kan", "1112m", "an open_kan needs 4 identical tiles, got 1m1m1m2m"),
        ("pon", "1112m", "a pon has 3 tiles, got 4 (1m1m1m2m)"),
    ],
)
def test_meld_messages_use_the_right_article(client: TestClient, kind: str, tiles: str, msg: str) -> None:
    body = {"hand": "1z", "melds": [{"kind": kind, "tiles": tiles}]}
    item = assert_error(client.post("/shanten", json=body), 422, ["body", "melds", 0, "tiles"], "invalid_meld")
    assert item["msg"] == msg


@pytest.mark.parametrize("path", HAND_ENDPOINTS)
def test_every_endpoint_refuses_five_copies(client: TestClient, path: str) -> None:
    assert_error(client.post(path, json={"hand": "11111m"}), 422, ["body", "hand"], "too_many_copies")


def test_batch_errors_name_the_index_in_context(client: TestClient) -> None:
    body = {"hands": ["1m", "1112345678999m"], "visible": "11m"}
    item = assert_error(client.post("/ting/batch", json=body), 422, ["body", "visible"], "too_many_copies")
    assert item["ctx"] == {"index": 1}
    assert item["msg"].startswith("hands[1]: ")


def test_non_json_bodies(client: TestClient) -> None:
    json_type = {"content-type": "application/json"}
    assert_error(client.post("/shanten", content=b'{"hand": ', headers=json_type), 422, ["body", 9], "json_invalid")
    garbage = client.post("/shanten", content=b"\xff\xfe garbage", headers=json_type)
    assert_error(garbage, 422, ["body", 0], "json_invalid")
    assert_error(client.post("/shanten", content=b"\x00" * 5, headers=json_type), 422, ["body"], "json_invalid")
    assert_error(client.post("/shanten"), 422, ["body"], "missing")


@pytest.mark.parametrize("path", ["/shanten", "/ting/batch", "/discard", "/score", "/simulate"])
@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("text/plain", b'{"hand": "123m456p789s1122z"}'),  # JSON, but not said to be
        ("application/x-www-form-urlencoded", b"hand=123m456p789s1122z"),  # what curl -d sends
        ("multipart/form-data; boundary=x", b"--x--"),
        ("text/plain", b""),
    ],
)
def test_a_body_not_sent_as_json_is_a_415_saying_what_to_send(
    client: TestClient, path: str, content_type: str, body: bytes
) -> None:
    response = client.post(path, content=body, headers={"content-type": content_type})
    item = assert_error(response, 415, ["body"], "unsupported_media_type")
    assert item["msg"] == (
        f"send the body as JSON with content-type: application/json (this request's content-type is {content_type})"
    )
    assert item["ctx"] == {"content_type": content_type, "expected": "application/json"}
    assert "b'" not in response.text and 'b"' not in response.text  # no Python bytes literal


@pytest.mark.parametrize(
    "content_type",
    [None, "", "application/json", "application/json; charset=utf-8", "Application/JSON", "application/vnd.api+json"],
)
def test_json_content_types_and_none_are_read_as_json(client: TestClient, content_type: str | None) -> None:
    headers = {} if content_type is None else {"content-type": content_type}
    response = client.post("/shanten", content=b'{"hand": "123m456p789s1122z"}', headers=headers)
    assert response.status_code == 200 and response.json()["shanten"] == 0


def test_a_replayed_body_is_still_refused_when_not_sent_as_json(fresh_client: TestClient) -> None:
    # A repeated body is answered from its raw bytes; the content type is judged before that.
    body = b'{"hand": "123m456p789s1122z"}'
    for _ in range(3):
        assert (
            fresh_client.post("/shanten", content=body, headers={"content-type": "application/json"}).status_code == 200
        )
    plain = fresh_client.post("/shanten", content=body, headers={"content-type": "text/plain"})
    assert_error(plain, 415, ["body"], "unsupported_media_type")


@pytest.fixture(scope="module")
def small_client() -> Iterator[TestClient]:
    client = started(Settings(max_batch_size=5, max_body_bytes=4096))
    yield client
    client.__exit__(None, None, None)


@pytest.mark.parametrize("path", BATCH_ENDPOINTS)
def test_batches_over_the_limit_are_422(small_client: TestClient, path: str) -> None:
    item = assert_error(small_client.post(path, json={"hands": ["1m"] * 6}), 422, ["body", "hands"], "batch_too_large")
    assert item["ctx"] == {"max_batch_size": 5}
    assert small_client.post(path, json={"hands": ["11m" if path == "/win/batch" else "1m"] * 5}).status_code == 200


def test_body_over_the_limit_by_content_length(small_client: TestClient) -> None:
    body = {"hand": "1m", "visible": " " * 5000}
    assert_error(small_client.post("/shanten", json=body), 413, ["body"], "body_too_large")


def test_body_over_the_limit_while_streaming(small_client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"hand": "1m", "visible": "'
        for _ in range(20):
            yield b" " * 500
        yield b'"}'

    response = small_client.post("/shanten", content=chunks(), headers={"content-type": "application/json"})
    assert "content-length" not in response.request.headers
    assert_error(response, 413, ["body"], "body_too_large")


def test_body_under_the_limit_while_streaming(small_client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"hand": '
        yield b'"123456789m1111z"}'

    response = small_client.post("/shanten", content=chunks(), headers={"content-type": "application/json"})
    assert response.status_code == 200 and response.json()["shanten"] == 1


def test_unknown_paths_and_methods_use_the_envelope(client: TestClient) -> None:
    assert_error(client.get("/nowhere"), 404, [], "not_found")
    assert_error(client.get("/shanten"), 405, [], "method_not_allowed")


def test_every_core_error_code_has_a_status() -> None:
    import app.main  # noqa: F401  every module, so every error class, is loaded
    import app.selfplay.runner  # noqa: F401

    codes = error_codes()
    assert "invalid_run_option" in codes and "invalid_weight" in codes
    # One status per error class, and nothing in the table that no class or HTTP check raises.
    assert set(ERROR_STATUS) == codes | HTTP_CODES
    assert not codes & HTTP_CODES
    # A well-formed question whose hand cannot be scored is a 400; everything else is malformed: 422.
    answered_no = {"not_a_winning_hand", "no_yaku", "below_minimum_fan", "void_suit_held"}
    assert {ERROR_STATUS[code] for code in answered_no} == {400}
    # A hosted table's codes say what HTTP says for a resource: who you are (401, 403), no such
    # table (404), a conflict with its state (409), a store that cannot serve now (503), or a store
    # that is not what this service wrote (500: never the client's doing).
    hosted = {
        "missing_token": 401,
        "not_your_table": 403,
        "not_your_seat": 403,
        "table_not_found": 404,
        "invalid_table_id": 404,
        "stale_version": 409,
        "table_over": 409,
        "table_not_over": 409,
        "table_exists": 409,
        "too_many_tables": 503,
        "table_busy": 503,
        "store_unavailable": 503,
        "replay_mismatch": 500,
        "invalid_table_store": 500,
        "unsupported_store_schema": 500,
    }
    assert {code: ERROR_STATUS[code] for code in hosted} == hosted
    assert {ERROR_STATUS[code] for code in codes if code not in answered_no and code not in hosted} == {422}


def test_the_http_layer_codes_have_their_statuses() -> None:
    assert {code: ERROR_STATUS[code] for code in ("forbidden", "too_busy", "body_too_large", "not_ready")} == {
        "forbidden": 403,
        "too_busy": 503,
        "body_too_large": 413,
        "not_ready": 503,
    }
    assert {"forbidden", "too_busy"} <= HTTP_CODES


def test_the_envelope_bounds_what_a_handler_gives_it() -> None:
    # error_body is what every handler and middleware builds its answer from.
    body = error_body(("body", "rules"), "unknown rules preset '" + "x" * 100_000 + "'; presets are riichi", "x")
    (item,) = body["detail"]
    assert len(item["msg"]) < MAX_MESSAGE_CHARS + 100 and item["msg"].endswith("; presets are riichi")
    ctx = error_body((), "m", "x", ctx={"value": ["y" * 10_000] * 1000})["detail"][0]["ctx"]
    assert len(json.dumps(ctx)) < 1000


def test_an_unexpected_error_is_a_bare_500_and_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    app = create_app(Settings())

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("secret internals")

    with caplog.at_level(logging.ERROR, logger="app.api"):
        response = TestClient(app, raise_server_exceptions=False).get("/boom")
    assert response.status_code == 500
    assert error_items(response) == [
        {"type": "internal_error", "loc": [], "msg": "internal server error", "input": None, "ctx": None}
    ]
    assert "secret internals" not in response.text and "Traceback" not in response.text
    assert any("secret internals" in str(record.exc_info[1]) for record in caplog.records if record.exc_info)


# --- one envelope: every error answer of every route has the same shape ------------------

_EVERY_ROUTE_BAD_BODIES: list[bytes] = [
    b"",  # missing body
    b"{",  # JSON that does not parse
    b"[]",  # not an object
    b'{"no_such_field": 1}',  # an unknown field (and the required ones missing)
    b'{"hand": 5, "hands": "x", "items": 3, "games": "many"}',  # wrong types
    b'{"hand": "11111m", "hands": ["11111m"], "items": [], "games": 0, "players": []}',
    b'{"turn": 1e400}',
    b"[" * 3000 + b"]" * 3000,  # nested too deep
]
# Errors only a route's own fields give: notation, copies, counts, melds, rules, situations,
# and the 400s of a well-formed question that cannot be answered.
_ROUTE_ERRORS: list[tuple[str, dict[str, Any]]] = [
    ("/win", {"hand": "123m", "melds": [{"kind": "chi", "tiles": "124m"}]}),
    ("/win", {"hand": "123m456p789s11122z", "situation": {"win_tile": "9z", "winner": 0, "dealer": 0}}),
    ("/ting", {"hand": "1112345678999m", "visible": "1111m"}),
    ("/shanten", {"hand": "1m", "rules": {"preset": "riichi", "seven_pairs": "maybe"}}),
    ("/win/batch", {"hands": ["11m", "1m"]}),
    ("/ting/batch", {"hands": ["1m", "12x"]}),
    ("/shanten/batch", {"hands": ["1m"], "rules": "hong_kong"}),
    ("/discard", {"hand": "123m456p789s11223z", "opponents": [{"river": "1z", "riichi_turn": 3}]}),
    ("/discard", {"hand": "123m456p789s11223z", "seat_wind": "5z"}),
    ("/score", {"hand": "456p23478999s", "melds": [{"kind": "chi", "tiles": "123m"}], "win_tile": "2s", "winner": 0, "dealer": 0, "discarder": 1}),
    ("/score", {"hand": "123m456p78s99s7z111z", "win_tile": "9s", "rules": "qiqihar", "winner": 0, "dealer": 0}),
    ("/score", {"hand": "234567m345p22p", "melds": [{"kind": "chi", "tiles": "678s"}], "win_tile": "5p", "rules": "mcr", "winner": 1, "dealer": 0, "discarder": 2}),
    ("/score", {"hand": "123m456p789s11122z", "win_tile": "2z", "winner": 0, "dealer": 0, "ippatsu": True}),
    ("/score/batch", {"items": [{"hand": "1m", "win_tile": "1m", "winner": "0", "dealer": 0}]}),
    ("/simulate", {"games": 1, "players": ["advisor", "advisor", "advisor", "nobody"]}),
    ("/simulate", {"games": 1, "rules": "sanma", "players": ["advisor", "advisor", "advisor", "advisor"]}),
    ("/referee", {"events": [{"type": "start_game"}, {"type": "tsumo", "actor": 0, "pai": "1q"}]}),
    ("/referee", {"events": [], "rules": "mcr", "length": "hanchan"}),
    ("/act", {"seat": 0, "events": [{"type": "start_game"}]}),
    ("/act", {"seat": 2, "events": [], "rules": "sanma"}),
    ("/review", {"seat": 3, "events": [], "rules": "sanma"}),
    ("/review", {"seat": 0, "events": [{"type": "start_game"}], "kyoku": 0}),
]  # fmt: skip


def _shape(response: Any) -> tuple[tuple[str, ...], frozenset[tuple[str, ...]]]:
    body = response.json()
    return tuple(body), frozenset(tuple(item) for item in body["detail"])


def test_every_error_answer_of_every_route_has_one_shape(client: TestClient) -> None:
    post_paths = sorted({path for path, _ in _ROUTE_ERRORS})
    responses = []
    for path in post_paths:
        for body in _EVERY_ROUTE_BAD_BODIES:
            responses.append(client.post(path, content=body, headers={"content-type": "application/json"}))
        responses.append(client.post(path, content=b"hand=1m", headers={"content-type": "text/plain"}))
        responses.append(client.get(path))  # 405
    responses += [client.post(path, json=body) for path, body in _ROUTE_ERRORS]
    responses += [client.get("/nowhere"), client.post("/rules"), client.get("/static/docs/nothing.js")]
    statuses = {response.status_code for response in responses}
    assert all(400 <= status < 500 for status in statuses), statuses
    assert {400, 404, 405, 415, 422} <= statuses
    shapes = {_shape(response) for response in responses}
    assert shapes == {(("error", "detail"), frozenset({("type", "loc", "msg", "input", "ctx")}))}, shapes
    for response in responses:
        error_items(response)  # error == detail[0].type, and the types of every part


def test_the_envelope_of_the_middlewares_is_the_same(small_client: TestClient) -> None:
    too_large = small_client.post("/shanten", json={"hand": "1m", "visible": " " * 5000})
    assert_error(too_large, 413, ["body"], "body_too_large")
    remote = TestClient(small_client.app, client=("203.0.113.7", 50000))
    assert_error(remote.post("/cache/clear"), 403, ["header", "x-admin-key"], "forbidden")


@pytest.mark.parametrize(
    ("body", "loc", "sent"),
    [
        ({"hand": "123x"}, ["body", "hand"], "123x"),
        ({"hand": "1m", "melds": [{"kind": "chi", "tiles": "124m"}]}, ["body", "melds", 0, "tiles"], "124m"),
        ({"hand": "1m", "rules": {"preset": "hong_kong"}}, ["body", "rules", "preset"], "hong_kong"),
        ({"hand": "1m", "visible": "11111m"}, ["body", "visible"], "11111m"),
        ({"hand": "1m", "rules": "hong_kong"}, ["body", "rules", "preset"], None),  # nothing at that loc
    ],
)
def test_an_error_of_ours_echoes_what_the_request_holds_at_its_loc(
    client: TestClient, body: dict[str, Any], loc: list[Any], sent: Any
) -> None:
    # As pydantic's items do ("input"), so that an item means the same whoever found the problem.
    item = assert_error(client.post("/shanten", json=body), 422, loc)
    assert item["input"] == sent
    batch = assert_error(client.post("/ting/batch", json={"hands": ["1m", "2m", [0, 99]]}), 422, ["body", "hands", 2])
    assert batch["input"] == [0, 99]


def test_a_400_keeps_the_contract_error_code(client: TestClient) -> None:
    body = {"hand": "123m456p78s99s7z111z", "win_tile": "9s", "rules": "qiqihar", "winner": 0, "dealer": 0}
    answer = client.post("/score", json=body)
    assert answer.status_code == 400 and answer.json()["error"] == "not_a_winning_hand"
    assert error_items(answer)[0]["loc"] == ["body", "hand"]


_PON = {"kind": "pon", "tiles": "111z"}


@pytest.mark.parametrize(
    ("path", "body", "loc", "msg"),
    [
        ("/win", {"hand": "1m", "melds": [_PON]}, ["body", "hand"], "1 concealed tile with 1 meld;"),
        ("/ting", {"hand": "12m", "melds": [_PON]}, ["body", "hand"], "2 concealed tiles with 1 meld;"),
        ("/ting", {"hand": "12m", "melds": [_PON, {"kind": "pon", "tiles": "222z"}]}, ["body", "hand"], "with 2 melds;"),
        ("/win/batch", {"hands": ["1m"]}, ["body", "hands", 0], "1 concealed tile with 0 melds;"),
        (
            "/discard",
            {"hand": "123m456p789s11223z", "opponents": [{"river": "1z", "riichi": True, "riichi_turn": 3}]},
            ["body", "opponents", 0, "riichi_turn"],
            "past the river's 1 tile;",
        ),
    ],
)  # fmt: skip
def test_messages_count_in_the_singular_and_plural(
    client: TestClient, path: str, body: dict[str, Any], loc: list[Any], msg: str
) -> None:
    item = assert_error(client.post(path, json=body), 422, loc)
    assert msg in item["msg"], item["msg"]
