"""One error envelope for the whole service, and the one table of statuses.

Every error answer has one shape, FastAPI's usual ``detail`` list with a top-level code:
``{"error": code, "detail": [{"type", "loc", "msg", "input", "ctx"}]}``, whether it
comes from request validation (pydantic), from the core's typed errors, from a size
limit, a content type or routing (404, 405).  ``error`` is the first item's ``type``
(the contract's ``{"error": "not_a_winning_hand", ...}``); every item has the same five
keys.  ``loc`` starts with ``"body"`` and names the field, down to the item:
``["body", "hands", 3]``, ``["body", "melds", 0, "tiles"]``; ``input`` is what the
request holds there (null when nothing: a missing field, a body that is not JSON, a
path); ``ctx`` is extra context or null.

Every answer is bounded in bytes whatever the input: an echoed value is cut to its
start and its length (``app.core.shape.tiles.ECHO_LIMIT`` characters), a message to
``MAX_MESSAGE_CHARS``, the list to ``MAX_ERROR_ITEMS`` items (see :func:`bounded`).

The core raises :class:`~app.core.errors.TenpaiError` with a ``field`` relative to
the question (``"hand"``, ``"visible"``, ``"preset"``); :func:`located` re-roots
such an error at the place in the request body the value came from.

>>> field_loc("melds[1].tiles")
('melds', 1, 'tiles')
>>> status_of("too_many_copies"), status_of("not_a_winning_hand"), status_of("body_too_large")
(422, 400, 413)
"""

from __future__ import annotations

import json
import logging
import math
import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from pydantic.config import JsonDict
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Scope, Send

from app.core.errors import TenpaiError
from app.core.families.registry import FAMILY_ERROR_CODES
from app.core.shape.tiles import ECHO_LIMIT, clipped, quoted

logger = logging.getLogger("app.api")

Loc = tuple[str | int, ...]

# The one table: error code -> HTTP status.  Every code of a TenpaiError class (core and
# self-play; tests/api/test_error_envelope.py checks the two agree), then HTTP_CODES.
ERROR_STATUS: Final[Mapping[str, int]] = MappingProxyType(
    {
        "invalid_request": 422,
        "invalid_notation": 422,
        "too_many_copies": 422,
        "wrong_tile_count": 422,
        "invalid_meld": 422,
        "unknown_rules": 422,
        "invalid_rule_option": 422,
        "absent_tile": 422,
        "invalid_void_suit": 422,
        "void_suit_melded": 422,
        "invalid_opponent": 422,
        "invalid_weight": 422,
        "invalid_win_context": 422,
        "invalid_table_state": 422,
        "not_a_winning_hand": 400,
        "no_yaku": 400,
        "below_minimum_fan": 400,
        "void_suit_held": 400,
        "no_value_model": 422,
        "unknown_strategy": 422,
        "invalid_game_config": 422,
        "invalid_seed": 422,
        "invalid_run_option": 422,
        "malformed_event": 422,
        "malformed_log": 422,
        "unknown_log_format": 422,
        "unsupported_rules": 422,
        "illegal_event": 422,
        "not_a_decision_point": 422,
        "out_of_range": 422,
        "hand_not_ready": 422,
        "too_many_games": 422,
        "too_many_events": 422,
        "batch_too_large": 422,
        "answer_too_large": 422,
        "body_too_large": 413,
        "unsupported_media_type": 415,
        "forbidden": 403,
        "not_ready": 503,
        "too_busy": 503,
        "out_of_time": 503,
        "internal_error": 500,
        # Hosted tables (app.hosting).
        "invalid_table_spec": 422,
        "illegal_action": 422,
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
        # The rule families' own refusals: each a request its rules do not allow.
        **dict.fromkeys(sorted(FAMILY_ERROR_CODES), 422),
    }
)
_DEFAULT_STATUS: Final = 422  # a core code missing above is still the client's question

#: Codes the HTTP layer answers with itself, raised by no TenpaiError class.
HTTP_CODES: Final = frozenset(
    (
        "too_many_games",
        "too_many_events",
        "batch_too_large",
        "answer_too_large",
        "body_too_large",
        "unsupported_media_type",
        "forbidden",
        "not_ready",
        "too_busy",
        "out_of_time",
        "internal_error",
    )
)


def status_of(code: str) -> int:
    """The HTTP status of an error code."""
    return ERROR_STATUS.get(code, _DEFAULT_STATUS)


# --- bounds: an error answer never grows with the input ---------------------------

#: Most items one error answer lists (pydantic reports every bad item of a long list).
MAX_ERROR_ITEMS: Final = 10
#: Most characters of one message; a longer one (a core message quoting a value the core
#: did not cut) keeps its start and its end, where the reason usually is.
MAX_MESSAGE_CHARS: Final = 600
_MESSAGE_HEAD: Final = 400
_MESSAGE_TAIL: Final = 150
# An echoed list or object shows this many items, nested this deep, in this many
# characters of JSON at most (past them, a cut preview of its JSON text).
_INPUT_ITEMS: Final = 8
_INPUT_DEPTH: Final = 3
_INPUT_CHARS: Final = 400
# Integers up to 256 bits (77 digits) are echoed as numbers; longer ones by their size.
_INPUT_INT_BITS: Final = 256
# A loc longer than this (a number deep in nested arrays) keeps its start.
_LOC_PARTS: Final = 32


def clipped_message(msg: str) -> str:
    """``msg`` cut in the middle to at most about :data:`MAX_MESSAGE_CHARS` characters.

    >>> clipped_message("short")
    'short'
    >>> cut = clipped_message("unknown preset '" + "x" * 10_000 + "'; presets are riichi, chinese")
    >>> len(cut) < 700, cut.endswith("presets are riichi, chinese"), "[9496 of 10046 characters cut]" in cut
    (True, True, True)
    """
    if len(msg) <= MAX_MESSAGE_CHARS:
        return msg
    cut = len(msg) - _MESSAGE_HEAD - _MESSAGE_TAIL
    return f"{msg[:_MESSAGE_HEAD]} … [{cut} of {len(msg)} characters cut] … {msg[-_MESSAGE_TAIL:]}"


def bounded(value: Any) -> Any:
    """An echoed value as JSON data of at most about ``_INPUT_CHARS`` characters.

    Strings keep their first ``ECHO_LIMIT`` characters and their length; lists and
    objects their first items and their size, a few levels deep; long integers and
    anything else become short text; NaN and infinities (not JSON) become strings.

    >>> bounded({"input": [float("nan"), 1.5, float("-inf")]})
    {'input': ['nan', 1.5, '-inf']}
    >>> bounded(list(range(100)))[-2:]
    [7, '… (100 items)']
    >>> bounded("1m" * 1000)[-21:], bounded(10**100)
    ('1m… (2000 characters)', 'an integer of 101 digits')
    >>> bounded([["x" * 100] * 8] * 8)[:20]
    '[["xxxxxxxxxxxxxxxxx'
    """
    shown = _bounded(value, 0)
    if isinstance(shown, (list, dict)):
        text = json.dumps(shown, ensure_ascii=False)
        if len(text) > _INPUT_CHARS:
            return clipped(text, _INPUT_CHARS)
    return shown


def _bounded(value: Any, depth: int) -> Any:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return clipped(value)
    if isinstance(value, int):
        return value if value.bit_length() <= _INPUT_INT_BITS else quoted(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, (list, tuple, dict)):
        size = len(value)
        if depth >= _INPUT_DEPTH:
            noun = "JSON object" if isinstance(value, dict) else "list"
            return f"a {noun} of {size} item{'' if size == 1 else 's'}"
        more = f"… ({size} items)" if size > _INPUT_ITEMS else None
        if isinstance(value, dict):
            pairs = list(value.items())[:_INPUT_ITEMS]
            shown = {clipped(str(key)): _bounded(item, depth + 1) for key, item in pairs}
            return shown | {"…": more} if more else shown
        items = [_bounded(item, depth + 1) for item in value[:_INPUT_ITEMS]]
        return items + [more] if more else items
    # An exception in pydantic's ctx, an enum, bytes: their text, cut.
    return quoted(value) if isinstance(value, (bytes, bytearray)) else clipped(str(value))


def _bounded_loc(loc: Any) -> list[str | int]:
    parts = [part if isinstance(part, int) else clipped(str(part)) for part in list(loc)[:_LOC_PARTS]]
    return parts + ["…"] if len(loc) > _LOC_PARTS else parts


#: ``ctx`` entries the service writes from its own state, never from the request, shown whole:
#: a hosted seat's ``legal`` actions (a few dozen at most, by the rules) are what a client acts
#: on after a 422 ``illegal_action``, and cut to 400 characters they were a fragment of JSON text.
_WHOLE_CTX: Final = frozenset({"legal"})


def _bounded_ctx(ctx: Any) -> Any:
    """``ctx`` bounded as an echoed value is, but for the service's own :data:`_WHOLE_CTX` entries.

    >>> legal = [{"type": "dahai", "actor": 0, "pai": f"{n}m", "tsumogiri": False} for n in range(1, 10)]
    >>> _bounded_ctx({"legal": legal})["legal"] == legal, isinstance(_bounded_ctx({"other": legal})["other"], str)
    (True, True)
    """
    if not isinstance(ctx, Mapping):
        return bounded(ctx)
    return {
        clipped(str(key)): value if key in _WHOLE_CTX else bounded(value)
        for key, value in list(ctx.items())[:_INPUT_ITEMS]
    }


#: The keys of every envelope item, in this order (pydantic's own order).
ITEM_KEYS: Final = ("type", "loc", "msg", "input", "ctx")


def _bounded_item(item: Mapping[str, Any]) -> dict[str, Any]:
    """One envelope item with exactly :data:`ITEM_KEYS` (null where the source had none),
    every part bounded (a loc may hold a key of the input).

    >>> _bounded_item({"loc": ["body"], "msg": "m", "type": "t"})
    {'type': 't', 'loc': ['body'], 'msg': 'm', 'input': None, 'ctx': None}
    """
    ctx = item.get("ctx")
    return {
        "type": str(item.get("type")),
        "loc": _bounded_loc(item.get("loc", ())),
        "msg": clipped_message(str(item.get("msg"))),
        "input": bounded(item.get("input")),
        "ctx": None if ctx is None else _bounded_ctx(ctx),
    }


# --- the envelope, as models so that every route can declare it ------------------


_TOO_MANY_COPIES_EXAMPLE: Final[JsonDict] = {
    "type": "too_many_copies",
    "loc": ["body", "hand"],
    "msg": "5 copies of 1m (hand); a tile has 4",
    "input": "11111m",
    "ctx": None,
}


class ErrorItem(BaseModel):
    """One problem with a request: every item has these five keys."""

    model_config = ConfigDict(json_schema_extra={"examples": [_TOO_MANY_COPIES_EXAMPLE]})

    type: str = Field(
        description="Stable snake_case code, e.g. invalid_notation, too_many_copies, "
        "wrong_tile_count, invalid_meld, unknown_rules, invalid_rule_option, not_a_winning_hand, no_yaku, "
        "batch_too_large, answer_too_large, body_too_large, unsupported_media_type, forbidden, too_busy, "
        "malformed_event, not_a_decision_point, out_of_range, too_many_events, out_of_time, "
        "or a pydantic error type such as missing or int_parsing_size."
    )
    loc: list[str | int] = Field(
        description='Where the problem is: "body", then field names and list indexes; [] for the path itself.'
    )
    msg: str = Field(description="What is wrong, for a person.")
    input: Any = Field(
        description="What the request holds at `loc`, or null when there is nothing to show (a body that is "
        "not JSON, the path of a 404). For pydantic's `missing`, the object that lacks the field. Long strings, "
        "lists and objects are cut to their start and their size.",
    )
    ctx: dict[str, Any] | None = Field(
        description='Extra context, e.g. {"index": 3} for a batch item or {"le": 3} for a bound; null when none.'
    )


class ErrorResponse(BaseModel):
    """The body of every 4xx and 5xx answer: a code, and the problems."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"error": "too_many_copies", "detail": [_TOO_MANY_COPIES_EXAMPLE]}]}
    )

    error: str = Field(
        description="The code of the answer: the first problem's `type` (e.g. not_a_winning_hand or no_yaku for "
        "a 400, invalid_notation or missing for a 422, unsupported_media_type for a 415).",
        examples=["not_a_winning_hand"],
    )
    detail: list[ErrorItem] = Field(description=f"The problems, at most {MAX_ERROR_ITEMS} of them.")


def error_responses(*statuses: int, **overrides: str) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` entry declaring the error envelope for ``statuses`` (``overrides``:
    a route's own description of a status, keyed ``s401``, ``s409``, ...)."""
    descriptions = {
        401: "No credentials (`unauthorized`: an API key; `missing_token`: a hosted table's seat token).",
        409: "The request conflicts with the state of a resource it names.",
        400: "The question is well formed but cannot be answered as asked.",
        403: "Not allowed: the request needs an admin key (X-Admin-Key), or without admin keys a loopback client.",
        404: "No such path.",
        413: "The request body is larger than the configured limit.",
        415: "The body is not sent as JSON (`unsupported_media_type`): send it with `content-type: "
        "application/json` (a charset parameter and `application/*+json` types are JSON too; a body sent "
        "with no content-type is read as JSON).",
        422: "Malformed or impossible input; `loc` names the field (and batch index).",
        500: "An unexpected server error (never caused by input).",
        503: "Not ready yet (the lookup tables are still being built), too busy (`too_busy`: too many "
        "heavy requests at once; retry after `Retry-After` seconds), or out of time (`out_of_time`: a replay of "
        "events that could not finish within TENPAI_HEAVY_SECONDS on this process, loaded as it was).",
    }
    descriptions.update({int(key[1:]): text for key, text in overrides.items()})
    return {status: {"model": ErrorResponse, "description": descriptions[status]} for status in statuses}


def error_body(
    loc: Loc, msg: str, code: str, ctx: Mapping[str, Any] | None = None, *, sent: Any = None
) -> dict[str, Any]:
    """One-item envelope, as plain JSON data (its message, input and context bounded like
    every answer's); ``sent`` is what the request holds at ``loc``.

    >>> error_body(("body", "hand"), "bad", "invalid_notation", sent="12x")
    {'error': 'invalid_notation', 'detail': [{'type': 'invalid_notation', 'loc': ['body', 'hand'], 'msg': 'bad', 'input': '12x', 'ctx': None}]}
    """
    return {"error": code, "detail": [_bounded_item(_error_item(loc, msg, code, ctx, sent))]}


def _error_item(
    loc: Loc, msg: str, code: str, ctx: Mapping[str, Any] | None = None, sent: Any = None
) -> dict[str, Any]:
    """One item, not yet bounded (:func:`_envelope` bounds every item once)."""
    return {"type": code, "loc": loc, "msg": msg, "input": sent, "ctx": ctx or None}


def header(scope: Scope, name: bytes) -> bytes | None:
    """The first value of header ``name`` (lowercase) in an HTTP ``scope``, read without
    building a ``Headers`` object (this runs on every request).

    >>> header({"headers": [(b"content-type", b"application/json")]}, b"content-type")
    b'application/json'
    """
    for key, value in scope["headers"]:
        if key == name:
            return bytes(value)
    return None


async def send_error(send: Send, status: int, body: bytes, headers: tuple[tuple[bytes, bytes], ...] = ()) -> None:
    """Send a complete error answer from a pure ASGI middleware (before any route runs):
    ``status``, the rendered envelope ``body`` and any extra ``headers``."""
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


# --- locating core errors in the request body ------------------------------------


class ApiError(Exception):
    """An error with its place in the request and its code (mapped by :data:`ERROR_STATUS`)."""

    def __init__(
        self,
        loc: Loc,
        msg: str,
        code: str,
        *,
        ctx: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(msg)
        self.loc = loc
        self.msg = msg
        self.code = code
        self.ctx = dict(ctx) if ctx else None
        #: Headers the answer carries besides the envelope's (a 503's Retry-After).
        self.headers = dict(headers) if headers else None

    @property
    def status(self) -> int:
        return status_of(self.code)


_FIELD_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def field_loc(field: str | None) -> Loc:
    """Split a core field path (``"melds[1].tiles"``) into loc parts."""
    if not field:
        return ()
    return tuple(name if name else int(index) for name, index in _FIELD_PART.findall(field))


class located:  # noqa: N801 - used like a function: ``with located("body", "hand"):``
    """Turn a core error raised inside the block into an :class:`ApiError` at ``prefix``.

    The error's own ``field`` is appended to ``prefix`` (unless ``keep_field`` is
    false); ``renames`` moves a top-level field elsewhere, e.g. ``{"hand": ("hands", 3)}``
    for a batch; ``index`` names the batch item in ``ctx`` and in the message.
    A class rather than a generator context manager: it wraps every parse of
    every request, and this costs a fraction of a microsecond.

    >>> from app.core.errors import InvalidMeld
    >>> try:
    ...     with located("body", "melds", 2):
    ...         raise InvalidMeld("a pon needs 3 identical tiles", field="tiles")
    ... except ApiError as error:
    ...     error.loc, error.code
    (('body', 'melds', 2, 'tiles'), 'invalid_meld')
    """

    __slots__ = ("prefix", "keep_field", "renames", "index")

    def __init__(
        self,
        *prefix: str | int,
        keep_field: bool = True,
        renames: Mapping[str, Loc] | None = None,
        index: int | None = None,
    ) -> None:
        self.prefix = prefix
        self.keep_field = keep_field
        self.renames = renames
        self.index = index

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: object) -> None:
        if not isinstance(error, TenpaiError):
            return
        field = field_loc(error.field) if self.keep_field else ()
        if self.renames and field and field[0] in self.renames:
            field = self.renames[str(field[0])] + field[1:]
        index = self.index
        msg = error.message if index is None else f"hands[{index}]: {error.message}"
        ctx = None if index is None else {"index": index}
        raise ApiError(self.prefix + field, msg, error.code, ctx=ctx) from error


# --- handlers --------------------------------------------------------------------


def _envelope(status: int, detail: Sequence[Mapping[str, Any]]) -> JSONResponse:
    """The answer for the problems in ``detail``: ``{"error": first type, "detail": [...]}``."""
    # Bounded before encoding: the encoder never walks a deep or huge echoed input.
    items = [_bounded_item(item) for item in list(detail)[:MAX_ERROR_ITEMS]]
    content = jsonable_encoder({"error": items[0]["type"], "detail": items})
    try:
        return JSONResponse(content, status_code=status)
    except UnicodeEncodeError:  # a lone surrogate echoed from the input ("\ud800" in its JSON)
        return JSONResponse(_encodable(content), status_code=status)


def _encodable(value: Any) -> Any:
    """``value`` with every lone surrogate in its strings replaced by U+FFFD, so it encodes as UTF-8.

    >>> _encodable({"msg": "bad " + chr(0xD800), "loc": ["body", "x" + chr(0xDFFF)]}) == {
    ...     "msg": "bad \N{REPLACEMENT CHARACTER}", "loc": ["body", "x\N{REPLACEMENT CHARACTER}"]}
    True
    """
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass").decode("utf-8", "replace").replace("\ufffd" * 3, "\ufffd")
    if isinstance(value, list):
        return [_encodable(item) for item in value]
    if isinstance(value, dict):
        return {_encodable(key): _encodable(item) for key, item in value.items()}
    return value


#: Where :class:`~app.api.request_path.BodyRoute` leaves the raw body in the request's
#: scope, for the error handlers (which get a request object of their own).
SENT_BODY: Final = "tenpai.body"
#: Bodies larger than this are parsed again for an error's ``input`` in the thread pool.
_OFF_LOOP_INPUT: Final = 64 * 1024


async def _sent_at(request: Request, loc: Loc) -> Any:
    """What the request's JSON body holds at ``loc`` (``["body", field, index, ...]``), or None.

    Read again from the raw body, on the error path only: the route's parsed body is gone
    by the time an error reaches its handler.
    """
    if len(loc) < 2 or loc[0] != "body":
        return None
    raw = request.scope.get(SENT_BODY, getattr(request, "_body", None))
    if not isinstance(raw, bytes) or not raw:
        return None
    document = await run_in_threadpool(_document, raw) if len(raw) > _OFF_LOOP_INPUT else _document(raw)
    return _value_at(document, loc[1:])


_NOT_JSON: Final = object()


def _document(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):  # an error about the body itself: nothing to point into
        return _NOT_JSON


def _value_at(document: Any, path: Loc) -> Any:
    """The value at ``path`` in a JSON ``document``, or None where there is none.

    >>> _value_at({"melds": [{"kind": "chi"}]}, ("melds", 0, "kind")), _value_at({"hand": "1m"}, ("rules",))
    ('chi', None)
    """
    value = document
    for part in path:
        if isinstance(value, dict) and isinstance(part, str) and part in value:
            value = value[part]
        elif isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value):
            value = value[part]
        else:
            return None
    return None if value is _NOT_JSON else value


async def _api_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, ApiError)
    item = _error_item(error.loc, error.msg, error.code, error.ctx, await _sent_at(request, error.loc))
    response = _envelope(error.status, [item])
    if error.headers:
        response.headers.update(error.headers)
    return response


async def _core_error(request: Request, error: Exception) -> JSONResponse:
    # A core error that no route located: still the client's, placed at its field.
    assert isinstance(error, TenpaiError)
    loc = ("body",) + field_loc(error.field)
    item = _error_item(loc, error.message, error.code, None, await _sent_at(request, loc))
    return _envelope(status_of(error.code), [item])


async def _validation_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    return _envelope(422, [await _json_error(item) for item in error.errors()])


async def _json_error(item: Mapping[str, Any]) -> Mapping[str, Any]:
    """Pydantic's own JSON parser (``validate_json`` on a raw body) refuses the same
    bodies as the standard one, at the body: say so as :func:`_unparsable_body` does."""
    if item.get("type") != "json_invalid" or not isinstance(item.get("ctx"), Mapping):
        return item
    reason = str(item["ctx"].get("error", ""))
    if reason.startswith("recursion limit exceeded"):
        return _error_item(("body",), _TOO_DEEP, "json_invalid")
    body = item.get("input")
    if reason.startswith("number out of range") and isinstance(body, (bytes, str)):
        found = await run_in_threadpool(_long_number, body)
        if found is not None:
            return _error_item(found[0], _too_long_message(found[1]), "int_parsing_size")
    return item


_HTTP_CODES: Final = {404: "not_found", 405: "method_not_allowed", 413: "body_too_large"}


_TOO_DEEP: Final = (
    "request body is nested too deeply: its arrays and objects lie too many levels within each other to parse"
)


class _LongNumber:
    """Stands for an integer with more digits than Python reads (``sys.get_int_max_str_digits()``)."""

    __slots__ = ("digits",)

    def __init__(self, digits: int) -> None:
        self.digits = digits


def _long_number(body: bytes | str) -> tuple[Loc, int] | None:
    """Where the first integer too long to read is in a JSON ``body``, and its digits.

    >>> _long_number(b'{"hand": [1, ' + b"9" * 5000 + b'], "turn": -' + b"9" * 6000 + b'}')
    (('body', 'hand', 1), 5000)
    >>> _long_number(b'{"hand": [1, 2]}') is None
    True
    """
    found: list[_LongNumber] = []  # in document order, as the parser reads

    def read_int(text: str) -> int | _LongNumber:
        try:
            return int(text)
        except ValueError:
            found.append(_LongNumber(len(text.lstrip("-"))))
            return found[-1]

    try:
        document = json.loads(body, parse_int=read_int)
    except (ValueError, RecursionError):
        return None
    if not found:
        return None
    target = found[0]
    if document is target:
        return ("body",), target.digits
    # Find the path to that one object; a stack rather than recursion, as the document may
    # be deep, and only containers are pushed, as it may be a long list of scalars.
    pending: list[tuple[Loc, Any]] = [(("body",), document)]
    while pending:
        loc, value = pending.pop()
        for key, item in value.items() if isinstance(value, dict) else enumerate(value):
            if item is target:
                return loc + (key,), target.digits
            if isinstance(item, (dict, list)):
                pending.append((loc + (key,), item))
    return None


def _too_long_message(digits: int) -> str:
    return f"number too large: it has {digits} digits, more than can be read; no field takes a number that large"


#: The one content type the service asks for; any ``application/json`` with a charset
#: parameter, and ``application/*+json``, is read as JSON too (as FastAPI reads them).
JSON_CONTENT_TYPE: Final = "application/json"


def unsupported_media_type(content_type: str) -> ApiError:
    """The 415 for a body sent with a ``content-type`` that is not JSON: it says what to send.

    FastAPI would validate such a body's raw bytes and answer a 422 "Input should be a
    valid dictionary" showing them as a Python bytes literal, which never says to send JSON.

    >>> error = unsupported_media_type("application/x-www-form-urlencoded")
    >>> error.status, error.loc, error.msg
    (415, ('body',), "send the body as JSON with content-type: application/json (this request's content-type is application/x-www-form-urlencoded)")
    """
    shown = clipped(content_type.strip(), ECHO_LIMIT)
    return ApiError(
        ("body",),
        f"send the body as JSON with content-type: {JSON_CONTENT_TYPE} (this request's content-type is {shown})",
        "unsupported_media_type",
        ctx={"content_type": shown, "expected": JSON_CONTENT_TYPE},
    )


def unreadable_body(body: bytes | None, cause: BaseException | None) -> ApiError | None:
    """The 422 for a body the standard JSON parser could not read, or None (not a parse error).

    Malformed input like any other JSON error: nesting past the parser's depth, an
    integer too long to read (named at its field), bytes that are no text encoding.
    A hostile megabyte of small numbers takes a tenth of a second to walk: call it off
    the event loop for a large body.
    """
    if isinstance(cause, RecursionError):
        return ApiError(("body",), _TOO_DEEP, "json_invalid")
    if not isinstance(cause, ValueError):
        return None
    found = _long_number(body) if isinstance(body, bytes) else None
    if found is not None:
        loc, digits = found
        return ApiError(loc, _too_long_message(digits), "int_parsing_size")
    if isinstance(cause, UnicodeDecodeError):
        # Our words, not the codec's: where the text breaks, and what JSON must be.
        return ApiError(
            ("body",),
            f"request body is not valid JSON: byte {cause.start} is not UTF-8, UTF-16 or UTF-32 text",
            "json_invalid",
        )
    return ApiError(("body",), "request body is not valid JSON", "json_invalid")


async def _unparsable_body(request: Request, cause: BaseException | None) -> JSONResponse | None:
    """The 422 for a body FastAPI's own handler could not parse (its 400 "error parsing the
    body"), or None."""
    # FastAPI has read the body into this very request object before parsing it.
    body = getattr(request, "_body", None)
    error = await run_in_threadpool(unreadable_body, body, cause)
    return None if error is None else await _api_error(request, error)


async def _http_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, StarletteHTTPException)
    if error.status_code == 400:
        unparsable = await _unparsable_body(request, error.__cause__)
        if unparsable is not None:
            return unparsable
    code = _HTTP_CODES.get(error.status_code, "http_error")
    loc: Loc = ("body",) if error.status_code == 413 else ()
    response = _envelope(error.status_code, [_error_item(loc, str(error.detail), code)])
    if error.headers:
        response.headers.update(error.headers)
    return response


async def _unexpected_error(request: Request, error: Exception) -> JSONResponse:
    # A bug, never the client's input: log it with the trace, answer without one.
    logger.error("unexpected error on %s %s", request.method, request.url.path, exc_info=error)
    return _envelope(500, [_error_item((), "internal server error", "internal_error")])


def install_error_handlers(app: FastAPI) -> None:
    """Register the handlers that render every error in the one envelope."""
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(TenpaiError, _core_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _unexpected_error)
