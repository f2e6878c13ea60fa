"""The short request path (app.api.request_path.BodyRoute) answers exactly as FastAPI's own handler.

Every POST route the service declares is mounted a second time, in a bare FastAPI app
with the same state and error handlers, as a plain ``APIRoute``: FastAPI's general
handler (``json.loads``, dependency solving, ``validate_python``).  Both apps get the
same bodies, valid and malformed, fixed and generated, with several content types,
and must give the same status and the same bytes, with one deliberate difference: a
body sent with a content type that is not JSON is a 415 ``unsupported_media_type`` on
the short path, where FastAPI validates its bytes and answers a 422.

The GET routes marked ``plain_query`` (a table's view) are compared the same way on query
strings, plain and not: the short path reads only plain ones and must answer exactly as
FastAPI's handler, to which it leaves every other.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
from api_helpers import started
from fastapi import FastAPI, Request
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.api.errors import install_error_handlers, unsupported_media_type
from app.api.heavy import HeavyLimiter
from app.api.request_path import BodyRoute, is_json_content_type
from app.api.routes import ROUTERS
from app.api.schemas.table import ONE_HAND
from app.api.state import ServiceState
from app.api.table_host import TableHost
from app.settings import Settings

SETTINGS = Settings(cache_size=0)  # no answer may come from a cache on either side

BODY_ROUTES = [
    route for router in ROUTERS for route in router.routes if isinstance(route, BodyRoute) and route.body_model
]
QUERY_ROUTES = [
    route for router in ROUTERS for route in router.routes if isinstance(route, BodyRoute) and route.query_values
]

VALID: dict[str, dict[str, Any]] = {
    "/shanten": {"hand": "123m456p789s1122z"},
    "/ting": {"hand": "1112345678999m", "visible": "5m"},
    "/win": {"hand": "123m456p789s11122z"},
    "/discard": {"hand": "123m456p789s11223z", "turn": 5},
    "/score": {"hand": "123m456p789s11122z", "win_tile": "2z", "winner": 0, "dealer": 0, "rules": "riichi"},
    "/shanten/batch": {"hands": ["123456789m1111z", "1112345678999m"], "ukeire": False},
    "/ting/batch": {"hands": ["123456789m1111z", "1112345678999m"]},
    "/win/batch": {"hands": ["123m456p789s11122z", "123m456p789s11123z"]},
    "/score/batch": {"items": [{"hand": "123m456p789s11122z", "win_tile": "2z", "winner": 0, "dealer": 0}]},
    "/simulate": {"games": 1, "seed": 3},
    "/referee": {"events": ONE_HAND},
    "/act": {"seat": 1, "events": ONE_HAND[:4]},
    "/review": {"seat": 0, "events": ONE_HAND},
    "/records/convert": {"log": "\n".join(json.dumps(event) for event in ONE_HAND), "to": "tenhou6"},
    # Well formed, answered the same way every time: a table of bots only is refused (422), and an
    # action at a table that does not exist is a 404 (a real table's answers hold fresh secrets).
    "/tables": {"rules": "riichi", "length": "kyoku", "seats": ["bot", "bot", "bot", "bot"]},
    "/tables/{table}/actions": {"version": 0, "action": {"type": "none"}},
}

MALFORMED: list[bytes] = [
    b"",
    b"{",
    b"[]",
    b"null",
    b"1",
    b'"x"',
    b"{}",
    b'{"hand": 5}',
    b'{"hand": true, "rules": 1}',
    b'{"hand": "1m", "hand": "2m"}',
    b'{"hand": NaN}',
    b'{"hand": "123m"} trailing',
    b'{"hand": "\\ud800"}',
    b'{"hand": "123m", "unknown": 1}',
    b"[" * 5000 + b"]" * 5000,
    b'{"hand": [1, ' + b"9" * 5000 + b"]}",
    b'{"turn": 1e400, "hand": "1m"}',
    b"\xff\xfe\x00",
    b'{"games": 1, "seed": "3"}',
    b'{"hands": "123m", "items": {}}',
]

CONTENT_TYPES: list[str | None] = [
    None,
    "",
    "application/json",
    "application/json; charset=utf-8",
    "text/plain",
    "application/x-www-form-urlencoded",
    "application/problem+json",
    "APPLICATION/JSON",
]


def _standard_app() -> FastAPI:
    """The service's POST routes behind FastAPI's own request handler."""
    app = FastAPI(strict_content_type=False)  # as the service: a body without a Content-Type is JSON
    app.state.service = ServiceState.create(SETTINGS)
    app.state.heavy = HeavyLimiter(SETTINGS.max_heavy_requests)
    app.state.tables = TableHost(SETTINGS)
    install_error_handlers(app)
    for route in BODY_ROUTES + QUERY_ROUTES:
        app.router.add_api_route(route.path, route.endpoint, methods=list(route.methods), route_class_override=APIRoute)
    return app


@pytest.fixture(scope="module")
def pair() -> Iterator[tuple[TestClient, TestClient]]:
    ours = started(SETTINGS)
    with TestClient(_standard_app(), raise_server_exceptions=True) as standard:
        yield ours, standard
    ours.__exit__(None, None, None)


def _same(pair: tuple[TestClient, TestClient], path: str, body: bytes, content_type: str | None) -> None:
    headers = {} if content_type is None else {"content-type": content_type}
    ours, standard = (client.post(path, content=body, headers=headers) for client in pair)
    if content_type is not None and not is_json_content_type(content_type):
        # The deliberate difference: FastAPI validates the raw bytes (a 422 "Input should be a
        # valid dictionary" showing them as b'...'); the short path says to send JSON.
        refused = unsupported_media_type(content_type)
        assert (ours.status_code, ours.json()["detail"][0]["msg"]) == (415, refused.msg), ours.text
        assert standard.status_code == 422
        return
    assert (ours.status_code, ours.content) == (standard.status_code, standard.content), (path, body[:200])


def test_every_post_route_takes_the_short_path() -> None:
    paths = {route.path for route in BODY_ROUTES}
    assert paths == set(VALID)
    assert {route.path for route in BODY_ROUTES if route.replayable} == {"/shanten", "/ting", "/win", "/discard"}


@pytest.mark.parametrize("path", sorted(VALID))
@pytest.mark.parametrize("content_type", CONTENT_TYPES)
def test_valid_bodies_get_the_same_answer(
    pair: tuple[TestClient, TestClient], path: str, content_type: str | None
) -> None:
    body = json.dumps(VALID[path]).encode()
    _same(pair, path, body, content_type)
    # Other encodings the standard parser reads: a UTF-8 byte-order mark, UTF-16.
    _same(pair, path, codecs.BOM_UTF8 + body, content_type)
    _same(pair, path, json.dumps(VALID[path]).encode("utf-16"), content_type)


@pytest.mark.parametrize("path", sorted(VALID))
@pytest.mark.parametrize("body", MALFORMED, ids=range(len(MALFORMED)))
def test_malformed_bodies_get_the_same_error(pair: tuple[TestClient, TestClient], path: str, body: bytes) -> None:
    _same(pair, path, body, "application/json")


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
_FIELD_VALUES = (
    st.sampled_from(["123m456p789s1122z", "1112345678999m", "11m", "一二三万", "🀇🀈", "", "9z", "0m"])
    | st.lists(st.integers(-2, 40), max_size=15)
    | _JSON
)
_LIGHT_PATHS = ["/shanten", "/ting", "/win", "/shanten/batch", "/ting/batch", "/score"]
_FIELDS = ["hand", "hands", "melds", "rules", "visible", "win_tile", "winner", "dealer", "ukeire", "situation"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    path=st.sampled_from(_LIGHT_PATHS),
    body=st.dictionaries(st.sampled_from(_FIELDS), _FIELD_VALUES, max_size=5) | _JSON,
)
def test_generated_bodies_get_the_same_answer(pair: tuple[TestClient, TestClient], path: str, body: Any) -> None:
    _same(pair, path, json.dumps(body).encode(), "application/json")


# --- plain queries (GET) ---------------------------------------------------------------

#: A table that does not exist: every well-formed query is its 404, whatever it asks.
_VIEW = "/tables/t_absent"
PLAIN_QUERIES = ["", "after=3", "after=007", "wait=0", "wait=0.5", "wait=30", "after=1000000000&wait=2.25", "x=1"]
UNPLAIN_QUERIES = [
    "after=",
    "after=+5",
    "after=%205",
    "after=1_000",
    "after=-1",
    "after=1000000001",
    "after=5.0",
    "after=x",
    "after=%D9%A3",  # an Arabic-Indic digit, which int() reads and pydantic does not
    "after=99999999999",
    "wait=30.5",
    "wait=1e1",
    "wait=.5",
    "wait=5.",
    "wait=nan",
    "wait=inf",
    "wait=-0",
    "after=1&after=x",
    "after=x&after=1",
]


def _same_get(pair: tuple[TestClient, TestClient], query: str, token: str | None) -> None:
    headers = {} if token is None else {"authorization": f"Bearer {token}"}
    ours, standard = (client.get(f"{_VIEW}?{query}", headers=headers) for client in pair)
    assert (ours.status_code, ours.content) == (standard.status_code, standard.content), query


def test_the_view_takes_the_short_path_on_a_plain_query() -> None:
    assert [route.path for route in QUERY_ROUTES] == ["/tables/{table}"]
    (route,) = QUERY_ROUTES
    scope = {"type": "http", "method": "GET", "path_params": {"table": "t_1"}, "headers": []}
    plain = route.plain_arguments(Request({**scope, "query_string": b"after=07&wait=2.5&after=9"}))
    assert plain is not None and (plain["table"], plain["after"], plain["wait"]) == ("t_1", 9, 2.5)
    assert route.plain_arguments(Request({**scope, "query_string": b"after=%2B9"})) is None


@pytest.mark.parametrize("query", PLAIN_QUERIES + UNPLAIN_QUERIES)
@pytest.mark.parametrize("token", [None, "not-a-token"])
def test_queries_get_the_same_answer(pair: tuple[TestClient, TestClient], query: str, token: str | None) -> None:
    _same_get(pair, query, token)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    after=st.text("0123456789.+-e_x ", max_size=12),
    wait=st.text("0123456789.+-e_x ", max_size=8),
)
def test_generated_queries_get_the_same_answer(pair: tuple[TestClient, TestClient], after: str, wait: str) -> None:
    _same_get(pair, urlencode({"after": after, "wait": wait}), "not-a-token")
