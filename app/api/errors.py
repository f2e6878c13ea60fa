"""One error envelope for the whole service, and the one table of statuses.

Every error answer has FastAPI's usual shape, ``{"detail": [{"loc", "msg", "type"}]}``,
whether it comes from request validation (pydantic), from the core's typed errors,
from a size limit or from routing (404, 405).  ``loc`` starts with ``"body"`` and
names the field, down to the item: ``["body", "hands", 3]``, ``["body", "melds", 0, "tiles"]``.

The core raises :class:`~app.core.errors.TenpaiError` with a ``field`` relative to
the question (``"hand"``, ``"visible"``, ``"preset"``); :func:`located` re-roots
such an error at the place in the request body the value came from.

>>> _field_loc("melds[1].tiles")
('melds', 1, 'tiles')
>>> status_of("too_many_copies"), status_of("not_a_winning_hand"), status_of("body_too_large")
(422, 400, 413)
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.core.errors import TenpaiError

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
        "invalid_opponent": 422,
        "invalid_weight": 422,
        "invalid_win_context": 422,
        "not_a_winning_hand": 400,
        "no_yaku": 400,
        "unknown_strategy": 422,
        "invalid_game_config": 422,
        "invalid_run_option": 422,
        "too_many_games": 422,
        "batch_too_large": 422,
        "body_too_large": 413,
        "not_ready": 503,
        "internal_error": 500,
    }
)
_DEFAULT_STATUS: Final = 422  # a core code missing above is still the client's question

#: Codes the HTTP layer answers with itself, raised by no TenpaiError class.
HTTP_CODES: Final = frozenset(("too_many_games", "batch_too_large", "body_too_large", "not_ready", "internal_error"))


def status_of(code: str) -> int:
    """The HTTP status of an error code."""
    return ERROR_STATUS.get(code, _DEFAULT_STATUS)


# --- the envelope, as models so that every route can declare it ------------------


class ErrorItem(BaseModel):
    """One problem with a request."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "loc": ["body", "hand"],
                    "msg": "5 copies of 1m (hand); a tile has 4",
                    "type": "too_many_copies",
                }
            ]
        }
    )

    loc: list[str | int] = Field(description='Where the problem is: "body", then field names and list indexes.')
    msg: str = Field(description="What is wrong, for a person.")
    type: str = Field(
        description="Stable snake_case code, e.g. invalid_notation, too_many_copies, "
        "wrong_tile_count, invalid_meld, unknown_rules, invalid_rule_option, "
        "batch_too_large, body_too_large, or a pydantic error type such as missing."
    )
    ctx: dict[str, Any] | None = Field(None, description='Extra context, e.g. {"index": 3} for a batch item.')
    input: Any = Field(None, description="The offending input, when pydantic reports it.")


class ErrorResponse(BaseModel):
    """The body of every 4xx and 5xx answer."""

    detail: list[ErrorItem]
    error: str | None = Field(
        None,
        description="For a 400 (a well-formed question that cannot be answered): its code, e.g. not_a_winning_hand or no_yaku.",
    )


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` entry declaring the error envelope for ``statuses``."""
    descriptions = {
        400: "The question is well formed but cannot be answered as asked.",
        404: "No such path.",
        413: "The request body is larger than the configured limit.",
        422: "Malformed or impossible input; `loc` names the field (and batch index).",
        500: "An unexpected server error (never caused by input).",
        503: "Not ready yet: the lookup tables are still being built.",
    }
    return {status: {"model": ErrorResponse, "description": descriptions[status]} for status in statuses}


def error_body(loc: Loc, msg: str, code: str, ctx: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """One-item envelope, as plain JSON data."""
    item: dict[str, Any] = {"loc": list(loc), "msg": msg, "type": code}
    if ctx:
        item["ctx"] = dict(ctx)
    return {"detail": [item]}


# --- locating core errors in the request body ------------------------------------


class ApiError(Exception):
    """An error with its place in the request and its code (mapped by :data:`ERROR_STATUS`)."""

    def __init__(self, loc: Loc, msg: str, code: str, *, ctx: Mapping[str, Any] | None = None) -> None:
        super().__init__(msg)
        self.loc = loc
        self.msg = msg
        self.code = code
        self.ctx = dict(ctx) if ctx else None

    @property
    def status(self) -> int:
        return status_of(self.code)


_FIELD_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _field_loc(field: str | None) -> Loc:
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
        field = _field_loc(error.field) if self.keep_field else ()
        if self.renames and field and field[0] in self.renames:
            field = self.renames[str(field[0])] + field[1:]
        index = self.index
        msg = error.message if index is None else f"hands[{index}]: {error.message}"
        ctx = None if index is None else {"index": index}
        raise ApiError(self.prefix + field, msg, error.code, ctx=ctx) from error


# --- handlers --------------------------------------------------------------------


def _envelope(status: int, body: Mapping[str, Any]) -> JSONResponse:
    return JSONResponse(_json_safe(jsonable_encoder(body)), status_code=status)


def _json_safe(value: Any) -> Any:
    """``value`` with NaN and infinities (echoed back from a bad input) written as strings.

    >>> _json_safe({"input": [float("nan"), 1.5, float("-inf")]})
    {'input': ['nan', 1.5, '-inf']}
    """
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {key: _json_safe(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_json_safe(item) for item in value]
    return value


async def _api_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, ApiError)
    body = error_body(error.loc, error.msg, error.code, error.ctx)
    if error.status == 400:
        body["error"] = error.code  # the contract's {"error": "not_a_winning_hand", ...}
    return _envelope(error.status, body)


async def _core_error(request: Request, error: Exception) -> JSONResponse:
    # A core error that no route located: still the client's, placed at its field.
    assert isinstance(error, TenpaiError)
    loc = ("body",) + _field_loc(error.field)
    return _envelope(status_of(error.code), error_body(loc, error.message, error.code))


async def _validation_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    return _envelope(422, {"detail": error.errors()})


_HTTP_CODES: Final = {404: "not_found", 405: "method_not_allowed", 413: "body_too_large"}


async def _http_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, StarletteHTTPException)
    if error.status_code == 400 and isinstance(error.__cause__, ValueError):
        # FastAPI's "error parsing the body" (e.g. bytes that are no text encoding):
        # malformed input like any other JSON error, so a 422 at the body.
        msg = f"request body is not valid JSON: {error.__cause__}"
        return _envelope(422, error_body(("body",), msg, "json_invalid"))
    code = _HTTP_CODES.get(error.status_code, "http_error")
    loc: Loc = ("body",) if error.status_code == 413 else ()
    response = _envelope(error.status_code, error_body(loc, str(error.detail), code))
    if error.headers:
        response.headers.update(error.headers)
    return response


async def _unexpected_error(request: Request, error: Exception) -> JSONResponse:
    # A bug, never the client's input: log it with the trace, answer without one.
    logger.error("unexpected error on %s %s", request.method, request.url.path, exc_info=error)
    return _envelope(500, error_body((), "internal server error", "internal_error"))


def install_error_handlers(app: FastAPI) -> None:
    """Register the handlers that render every error in the one envelope."""
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(TenpaiError, _core_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _unexpected_error)
