"""Hostile inputs get small, precise 4xx answers (issue 14's "small holes").

An error answer never grows with the input: echoed values are cut to their start and
their size. Bodies the JSON parser cannot take (nested too deeply, a number too long
to read) are 422s like any other malformed input, and no message names Python
internals. Strings are never ints, in any integer field.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from api_helpers import assert_error, error_items
from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.testclient import TestClient
from pydantic import TypeAdapter, ValidationError

from app.api.errors import MAX_ERROR_ITEMS
from app.core.shape.tiles import ECHO_LIMIT
from app.main import create_app
from app.settings import Settings

# An error answer is a few hundred bytes; whatever the input, it stays under this.
SMALL_ANSWER_BYTES = 4096
BIG = 900_000  # characters: a 900 KB value, under the 1 MiB body limit
DISCARD = {"hand": "123456789m12345p"}
SCORE = {"hand": "233440m567p11s", "melds": [{"kind": "pon", "tiles": "777z"}], "win_tile": "4m", "rules": "riichi"}
SCORE_SEATS = {"winner": 1, "dealer": 0, "discarder": 3}


def _post_raw(client: TestClient, path: str, body: bytes) -> Any:
    return client.post(path, content=body, headers={"content-type": "application/json"})


def _small(response: Any) -> Any:
    assert len(response.content) < SMALL_ANSWER_BYTES, response.content[:500]
    return response


# --- echoes are bounded -----------------------------------------------------------

# (path, body, loc) with one value of about 900 KB; the answer names the field and stays small.
ECHOES: list[tuple[str, dict[str, Any], list[Any]]] = [
    (
        "/shanten",
        {"hand": "123m", "melds": [{"kind": "pon", "tiles": "1m" * (BIG // 2)}]},
        ["body", "melds", 0, "tiles"],
    ),
    ("/shanten", {"hand": "123m", "melds": [{"kind": "x" * BIG, "tiles": "111z"}]}, ["body", "melds", 0, "kind"]),
    ("/shanten", {"hand": "1" * BIG}, ["body", "hand"]),
    ("/shanten", {"hand": "一" * (BIG // 3)}, ["body", "hand"]),
    ("/shanten", {"hand": ["x" * BIG]}, ["body", "hand"]),
    ("/shanten", {"hand": "123m", "rules": "x" * BIG}, ["body", "rules", "preset"]),
    ("/shanten", {"hand": "123m", "rules": {"preset": "riichi", "seats": "x" * BIG}}, ["body", "rules", "seats"]),
    ("/shanten", {"hand": "123m", "rules": {"preset": "riichi", "x" * BIG: 1}}, None),  # loc holds the key
    ("/shanten", {"hand": "123m", "x" * BIG: 1}, None),
    ("/shanten", {"hand": "123m", "melds": [[1] * (BIG // 10)]}, ["body", "melds", 0]),
    ("/discard", {**DISCARD, "turn": "x" * BIG}, ["body", "turn"]),
    ("/score", {**SCORE, **SCORE_SEATS, "win_tile": "4m" * (BIG // 2)}, ["body", "win_tile"]),
]


@pytest.mark.parametrize("case", ECHOES, ids=[f"{path}-{index}" for index, (path, _, _) in enumerate(ECHOES)])
def test_a_900_kb_value_gets_a_small_422(
    client: TestClient, case: tuple[str, dict[str, Any], list[Any] | None]
) -> None:
    path, body, loc = case
    response = _small(client.post(path, json=body))
    assert response.status_code == 422, response.text[:500]
    (item,) = error_items(response)
    if loc is not None:
        assert item["loc"] == loc, item
    else:  # the offending key is in the loc, cut like any echoed string
        assert len(item["loc"][-1]) < 2 * ECHO_LIMIT and f"({BIG} characters)" in item["loc"][-1]


def test_a_900_kb_meld_is_quoted_by_its_start_and_its_size(client: TestClient) -> None:
    body = {"hand": "123m", "melds": [{"kind": "pon", "tiles": "1m" * (BIG // 2)}]}
    # Refused by its length before any parsing, quoted by its start and its size.
    item = assert_error(
        _small(client.post("/shanten", json=body)), 422, ["body", "melds", 0, "tiles"], "string_too_long"
    )
    assert item["msg"] == f"at most 40 characters of tiles here; this is {BIG}"
    assert item["input"].endswith(f"… ({BIG} characters)")


def test_a_900_kb_string_is_echoed_by_its_start_and_length(client: TestClient) -> None:
    item = assert_error(_small(client.post("/discard", json={**DISCARD, "turn": "7" * BIG})), 422, ["body", "turn"])
    assert item["input"] == "7" * ECHO_LIMIT + f"… ({BIG} characters)"
    item = assert_error(_small(client.post("/shanten", json={"hand": "1" * BIG})), 422, ["body", "hand"])
    assert item["type"] == "string_too_long" and item["input"].endswith(f"({BIG} characters)")


def test_a_long_list_is_echoed_by_its_first_items_and_size(client: TestClient) -> None:
    body = {"hand": "123m", "melds": [[1] * 1000]}
    item = assert_error(client.post("/shanten", json=body), 422, ["body", "melds", 0])
    assert item["input"][-1] == "… (1000 items)" and len(item["input"]) < 20


def test_an_answer_lists_a_bounded_number_of_problems(client: TestClient) -> None:
    body = {"hand": "123m", "melds": [{"kind": "pon", "tiles": "111z", "extra": "x" * 1000}] * 500}
    response = _small(client.post("/shanten", json=body))
    assert response.status_code == 422
    items = error_items(response)
    assert len(items) == MAX_ERROR_ITEMS
    assert items[0]["loc"] == ["body", "melds", 0, "extra"]


# --- bodies the parser cannot take --------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 10_000 + b"]" * 10_000,
        b'{"hand": ' + b"[" * 10_000 + b"]" * 10_000 + b"}",
        b'{"hand": "123m", "rules": {"preset": "riichi", "x": ' + b'{"a": ' * 10_000 + b"1" + b"}" * 10_002,
    ],
    ids=["top", "in-hand", "in-rules"],
)
def test_deeply_nested_json_is_a_422_at_the_body(client: TestClient, body: bytes) -> None:
    item = assert_error(_small(_post_raw(client, "/shanten", body)), 422, ["body"], "json_invalid")
    assert "nested too deeply" in item["msg"]


def test_nesting_the_parser_takes_is_answered_at_the_field(client: TestClient) -> None:
    body = b'{"hand": ' + b"[" * 500 + b"]" * 500 + b"}"
    assert_error(_small(_post_raw(client, "/shanten", body)), 422, ["body", "hand"], "invalid_notation")
    body = b'{"hand": "123m", "melds": ' + b"[" * 500 + b"]" * 500 + b"}"
    assert_error(_small(_post_raw(client, "/shanten", body)), 422, ["body", "melds", 0])


LONG_NUMBER = b"9" * 5000  # past Python's 4300 digits: the JSON parser cannot read it


@pytest.mark.parametrize(
    ("path", "body", "loc"),
    [
        ("/shanten", b'{"hand": [1, 2, ' + LONG_NUMBER + b"]}", ["body", "hand", 2]),
        ("/shanten", b'{"hand": ' + LONG_NUMBER + b"}", ["body", "hand"]),
        ("/shanten/batch", b'{"hands": ["1m", [' + LONG_NUMBER + b"]]}", ["body", "hands", 1, 0]),
        ("/discard", json.dumps(DISCARD)[:-1].encode() + b', "turn": -' + LONG_NUMBER + b"}", ["body", "turn"]),
        (
            "/score",
            json.dumps(SCORE)[:-1].encode() + b', "dealer": 0, "winner": ' + LONG_NUMBER + b"}",
            ["body", "winner"],
        ),
    ],
)
def test_a_number_too_long_to_read_is_a_422_at_its_field(
    client: TestClient, path: str, body: bytes, loc: list[Any]
) -> None:
    item = assert_error(_small(_post_raw(client, path, body)), 422, loc, "int_parsing_size")
    assert "number too large" in item["msg"] and "5000 digits" in item["msg"]
    # Nothing about the interpreter: no function to call, no setting to change.
    assert "sys." not in item["msg"] and "int_max_str_digits" not in item["msg"]


def test_a_long_number_the_parser_reads_is_not_echoed(client: TestClient) -> None:
    number = "9" * 4300
    item = assert_error(
        _small(_post_raw(client, "/discard", f'{{"hand": "{DISCARD["hand"]}", "turn": {number}}}'.encode())),
        422,
        ["body", "turn"],
    )
    assert item["input"] == "an integer of 4300 digits"
    item = assert_error(
        _small(_post_raw(client, "/shanten", f'{{"hand": [{number}]}}'.encode())), 422, ["body", "hand"]
    )
    assert "an integer of 4300 digits" in item["msg"]


# --- strings are not ints -----------------------------------------------------------

# (path, base body, field path, a valid int); the same value as a string, a float or a bool is refused.
INT_FIELDS: list[tuple[str, dict[str, Any], tuple[str | int, ...], int]] = [
    ("/discard", DISCARD, ("turn",), 5),
    ("/discard", {**DISCARD, "options": {"lookahead": True}}, ("options", "lookahead_draws"), 1),
    ("/discard", {**DISCARD, "options": {"lookahead": True}}, ("options", "lookahead_budget"), 100),
    ("/discard", {**DISCARD, "opponents": [{"river": "1234m", "riichi": True}]}, ("opponents", 0, "riichi_turn"), 3),
    ("/score", {**SCORE, **SCORE_SEATS}, ("winner",), 1),
    ("/score", {**SCORE, **SCORE_SEATS}, ("dealer",), 0),
    ("/score", {**SCORE, **SCORE_SEATS}, ("discarder",), 3),
    ("/score", {**SCORE, **SCORE_SEATS}, ("honba",), 1),
    ("/score", {**SCORE, **SCORE_SEATS}, ("riichi_sticks",), 1),
]


def _with(body: dict[str, Any], path: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    """``body`` (deep-copied) with ``value`` at ``path``."""
    copy: dict[str, Any] = json.loads(json.dumps(body))
    node: Any = copy
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return copy


@pytest.mark.parametrize(
    "case", INT_FIELDS, ids=[f"{path}-{'.'.join(map(str, field))}" for path, _, field, _ in INT_FIELDS]
)
def test_integer_fields_take_only_integers(
    client: TestClient, case: tuple[str, dict[str, Any], tuple[str | int, ...], int]
) -> None:
    path, body, field, valid = case
    assert client.post(path, json=_with(body, field, valid)).status_code == 200
    for wrong in (str(valid), float(valid), valid == 1):
        response = client.post(path, json=_with(body, field, wrong))
        assert_error(response, 422, ["body", *field], "int_type")


def test_an_integer_rule_option_takes_only_integers(client: TestClient) -> None:
    hand = "123m456p789s1122z"
    assert client.post("/shanten", json={"hand": hand, "rules": {"preset": "riichi", "seats": 4}}).status_code == 200
    response = client.post("/shanten", json={"hand": hand, "rules": {"preset": "riichi", "seats": "4"}})
    assert_error(response, 422, ["body", "rules", "seats"], "invalid_rule_option")


def test_the_same_answers_when_pydantic_parses_the_raw_body() -> None:
    # A route may validate its raw body with pydantic's own JSON parser, which refuses
    # the same bodies (its nesting limit is lower); the answers must not change.
    app = create_app(Settings())
    adapter = TypeAdapter(dict[str, int])

    @app.post("/raw")
    async def raw(request: Request) -> dict[str, int]:
        try:
            return adapter.validate_json(await request.body())
        except ValidationError as error:
            raise RequestValidationError(
                [{**item, "loc": ("body", *item["loc"])} for item in error.errors(include_url=False)]
            ) from None

    client = TestClient(app)
    item = assert_error(_small(_post_raw(client, "/raw", b"[" * 300 + b"]" * 300)), 422, ["body"], "json_invalid")
    assert "nested too deeply" in item["msg"]
    body = b'{"a": 1, "b": ' + LONG_NUMBER + b"}"
    assert_error(_small(_post_raw(client, "/raw", body)), 422, ["body", "b"], "int_parsing_size")
    item = assert_error(_small(_post_raw(client, "/raw", b'{"a": "' + b"x" * BIG + b'"}')), 422, ["body", "a"])
    assert item["input"].endswith(f"… ({BIG} characters)")
    # Any other JSON error keeps pydantic's words, its echo of the body cut short.
    item = assert_error(_small(_post_raw(client, "/raw", b'{"a": ' + b"1" * BIG)), 422, ["body"], "json_invalid")
    assert len(item["input"]) < 2 * ECHO_LIMIT


# --- a list the engine caps, sent long ----------------------------------------------------

_PON = {"kind": "pon", "tiles": "111z"}


@pytest.mark.parametrize(
    ("path", "body", "loc"),
    [
        ("/shanten", {"hand": "1m", "melds": [_PON] * 20_000}, ["body", "melds"]),
        ("/shanten/batch", {"hands": ["1m"], "melds": [_PON] * 20_000}, ["body", "melds"]),
        ("/win/batch", {"hands": ["11m"], "melds": [_PON] * 20_000}, ["body", "melds"]),
        (
            "/discard",
            {"hand": "123m456p789s11223z", "opponents": [{"river": "1m", "melds": [_PON] * 5_000}]},
            ["body", "opponents", 0, "melds"],
        ),
    ],
)
def test_thousands_of_melds_are_refused_before_any_is_read(
    client: TestClient, path: str, body: dict[str, Any], loc: list[Any]
) -> None:
    # Each meld would cost microseconds to parse; the count is checked first.
    item = assert_error(_small(client.post(path, json=body)), 422, loc, "invalid_meld")
    assert item["msg"].startswith("a hand has at most 4 melds, got ")
