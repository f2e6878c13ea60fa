"""How a POST with a JSON body reaches its route function, and its answer the client.

The routers of the POST endpoints use :class:`BodyRoute`.  A route whose
function takes its validated body (and the :class:`~starlette.requests.Request`
if it needs it), and nothing else, is answered by :meth:`BodyRoute.answer` instead of FastAPI's
general handler (which solves a dependency graph per request):

1. read the body; a body sent with a ``Content-Type`` that is not JSON is a 415
   ``unsupported_media_type`` saying to send JSON (FastAPI's own handler validates its
   bytes and answers a 422 that shows them as a Python literal); none is read as JSON;
2. a route marked :func:`replayable` answers a body it has seen repeated from the
   result cache, keyed by the raw bytes (an exact key: the same bytes ask the same
   question), without parsing it;
3. validate the body with the model's compiled JSON validator
   (``model_validate_json``: pydantic's own parser, no intermediate ``dict``).
   A body it refuses is validated again exactly as FastAPI would, so that every
   error keeps FastAPI's envelope (:meth:`BodyRoute.validate_as_fastapi_does`);
4. call the route function: an ``async def`` on the event loop (a body over
   :data:`OFF_LOOP_BYTES` is validated in the thread pool first), a plain ``def``
   in the thread pool, validation included, so that large batches never hold the
   loop;
5. check that the answer is within TENPAI_MAX_ANSWER_BYTES (a 422
   ``answer_too_large`` if not: the one check every answer passes), and send it;
   a replayable route keeps a 200 answer under its body once the body's question
   was answered from the cache (a repeat).

Routes still declare their body model in their signature, which is what the
OpenAPI document and Swagger UI show, and every such route declares the 415; a test
checks that both handlers give the same answer, error or not, on the same bodies
sent as JSON (and the 415 for the rest).

A GET route marked :func:`plain_query` (its parameters: ``str`` path parameters, ``int`` or
``float`` query parameters with defaults and at most ``ge``/``le`` bounds, the request) is served
short too: a query whose values are plain decimals within their bounds is read by hand and the
route function called at once; any other query (a missing table of digits, a sign, an exponent,
a value out of bounds) goes to FastAPI's handler, which answers it, 422s and all, as before.

>>> from pydantic import BaseModel
>>> class Body(BaseModel):
...     hand: str
>>> @replayable
... async def echo(body: Body, request: Request) -> Response:
...     return Response(body.hand)
>>> route = BodyRoute("/echo", echo, methods=["POST"])

>>> route.body_model is Body, route.replayable, route.get_route_handler() == route.answer
(True, True, True)
"""

from __future__ import annotations

import email.message
import inspect
import json
import re
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from functools import partial
from typing import Any, Final, TypeVar

from annotated_types import Ge, Le
from fastapi import Request, Response
from fastapi.dependencies.utils import request_body_to_args
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from pydantic import BaseModel, ValidationError
from pydantic_core import PydanticUndefined
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect
from starlette.types import Message, Receive, Scope, Send

from app.api.answer_size import ANSWER_TOO_LARGE
from app.api.errors import SENT_BODY, ApiError, error_responses, header, unreadable_body, unsupported_media_type
from app.api.heavy import bounded_call
from app.api.questions import json_response
from app.api.state import service_state

#: Bodies larger than this are validated in the thread pool (a hand question is a few
#: hundred bytes; a megabyte of JSON takes milliseconds to read).
OFF_LOOP_BYTES: Final = 64 * 1024
#: Bodies larger than this are not used as replay keys.
MAX_REPLAY_KEY: Final = 2048

F = TypeVar("F", bound=Callable[..., Any])

_REPLAYABLE: Final = "_tenpai_replayable"
_PLAIN_QUERY: Final = "_tenpai_plain_query"
_NO_BODY: Final = object()

#: Query values read by hand (:func:`plain_query`): ASCII digits, and for a float one decimal
#: point between digits.  pydantic reads these exactly as ``int(text)`` and ``float(text)`` do;
#: what else it accepts (``+5``, `` 5``, ``1_000``, ``1e3``, ``.5``) goes to FastAPI's handler.
_PLAIN_INT: Final = re.compile(r"[0-9]{1,10}")
_PLAIN_FLOAT: Final = re.compile(r"[0-9]{1,10}(?:\.[0-9]{1,10})?")


@dataclass(frozen=True)
class _QueryValue:
    """How :meth:`BodyRoute.plain_arguments` reads one query parameter."""

    name: str
    alias: str
    kind: type[int] | type[float]
    default: int | float
    low: int | float | None
    high: int | float | None

    def read(self, text: str | None) -> int | float | None:
        """The value of ``text`` (the default when absent), or None when FastAPI must judge it."""
        if text is None:
            return self.default
        if (_PLAIN_INT if self.kind is int else _PLAIN_FLOAT).fullmatch(text) is None:
            return None
        value = self.kind(text)
        if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            return None
        return value


def replayable(endpoint: F) -> F:
    """Mark a route function whose 200 answers depend on the body alone, so that a repeated
    body is answered from the result cache.  An answer sent with ``Cache-Control: no-store``
    (cut short by a time budget, so it depends on the load) is never replayed."""
    setattr(endpoint, _REPLAYABLE, True)
    return endpoint


def plain_query(endpoint: F) -> F:
    """Mark an ``async def`` GET route function whose parameters are ``str`` path parameters,
    ``int``/``float`` query parameters with defaults and at most ``ge``/``le`` bounds, and the
    request, to be served without FastAPI's per-request dependency solving when its query is
    plain (the module's docstring); :class:`BodyRoute` refuses, at start, a route it cannot serve so."""
    setattr(endpoint, _PLAIN_QUERY, True)
    return endpoint


def is_json_content_type(content_type: str | None) -> bool:
    """Whether FastAPI reads a body of this ``Content-Type`` as JSON (none counts: the app
    is not strict about it)."""
    if not content_type:
        return True
    message = email.message.Message()
    message["content-type"] = content_type
    if message.get_content_maintype() != "application":
        return False
    subtype = message.get_content_subtype()
    return subtype == "json" or subtype.endswith("+json")


class BodyRoute(APIRoute):
    """An :class:`~fastapi.routing.APIRoute` that serves ``f(body: Model, request: Request)``
    (or ``f(body: Model)``) routes by the short path above; any other route keeps FastAPI's handler."""

    body_model: type[BaseModel] | None
    replayable: bool
    #: The query parameters of a :func:`plain_query` route, None for any other route.
    query_values: tuple[_QueryValue, ...] | None

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        # A route that reads a body answers 415 to one that is not JSON (:meth:`answer`):
        # declared here, once, so that every such route's OpenAPI entry lists it.
        methods = {method.upper() for method in kwargs.get("methods") or ()}
        if "POST" in methods:
            kwargs["responses"] = {**(kwargs.get("responses") or {}), **error_responses(415)}
        super().__init__(path, endpoint, **kwargs)

    def _read_signature(self) -> None:
        """Find the body model (None: not a body-and-request route).  Called by FastAPI's
        ``__init__`` through :meth:`get_route_handler`, once the dependant is built."""
        self.replayable = bool(getattr(self.endpoint, _REPLAYABLE, False))
        dependant = self.dependant
        self.query_values = self._plain_query_values() if getattr(self.endpoint, _PLAIN_QUERY, False) else None
        takes_body_and_request = (
            len(dependant.body_params) == 1
            and not (dependant.path_params or dependant.query_params or dependant.header_params)
            and not (dependant.cookie_params or dependant.dependencies)
            and not dependant.background_tasks_param_name
            and not dependant.response_param_name
        )
        annotation = dependant.body_params[0].field_info.annotation if dependant.body_params else None
        self.body_model = (
            annotation
            if takes_body_and_request and isinstance(annotation, type) and issubclass(annotation, BaseModel)
            else None
        )
        if self.body_model is None:
            if self.replayable:
                raise TypeError(f"{self.path}: only a route taking (body, request) can be replayable")
            # FastAPI's handler serves it, and answers no 415: do not declare one.
            self.responses.pop(415, None)
            self.response_fields.pop(415, None)
            return
        self._body_name = dependant.body_params[0].name
        self._request_name = dependant.request_param_name
        self._is_async = inspect.iscoroutinefunction(self.endpoint)

    def _plain_query_values(self) -> tuple[_QueryValue, ...]:
        dependant = self.dependant
        if (
            self.methods != {"GET"}
            or not inspect.iscoroutinefunction(self.endpoint)
            or dependant.body_params
            or dependant.header_params
            or dependant.cookie_params
            or dependant.dependencies
            or dependant.background_tasks_param_name
            or dependant.response_param_name
            or any(
                param.field_info.annotation is not str or param.field_info.metadata for param in dependant.path_params
            )
        ):
            raise TypeError(
                f"{self.path}: a plain_query route is an async GET of str path and int/float query parameters"
            )
        values = []
        for param in dependant.query_params:
            info = param.field_info
            bounds = {type(bound): bound for bound in info.metadata}
            if info.annotation not in (int, float) or info.is_required() or set(bounds) - {Ge, Le}:
                raise TypeError(
                    f"{self.path}: query parameter {param.name!r} is not a bounded int or float with a default"
                )
            low = bounds[Ge].ge if Ge in bounds else None
            high = bounds[Le].le if Le in bounds else None
            values.append(_QueryValue(param.name, param.alias, info.annotation, info.default, low, high))  # type: ignore[arg-type]
        self._path_names = tuple(param.name for param in dependant.path_params)
        self._request_name = dependant.request_param_name
        return tuple(values)

    def plain_arguments(self, request: Request) -> dict[str, Any] | None:
        """The arguments of a :func:`plain_query` route read from ``request``, or None when its
        query is not plain and FastAPI's handler must read it (and maybe answer 422)."""
        assert self.query_values is not None
        query = request.query_params
        arguments: dict[str, Any] = {name: request.path_params[name] for name in self._path_names}
        for value in self.query_values:
            read = value.read(query.get(value.alias))
            if read is None:
                return None
            arguments[value.name] = read
        if self._request_name is not None:
            arguments[self._request_name] = request
        return arguments

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        """FastAPI wraps this handler into the route's ASGI app (request scope, error handlers)."""
        if "body_model" not in self.__dict__:
            self._read_signature()
        return super().get_route_handler() if self.body_model is None else self.answer

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer a POST without FastAPI's per-request wrapper (its exit stacks serve dependencies
        with ``yield``, which these routes do not have; an error propagates to the app's
        exception middleware, which renders it with the same handlers)."""
        # (FastAPI's __init__ has called get_route_handler, so the signature is read.)
        if self.query_values is not None and scope["method"] == "GET":
            request = Request(scope, receive, send)
            arguments = self.plain_arguments(request)
            if arguments is not None:
                response = await self.endpoint(**arguments)
                await response(scope, receive, send)
                return
        if self.body_model is None or scope["method"] != "POST":
            await super().handle(scope, receive, send)
            return
        message = await receive()  # nearly always the whole body in one message
        if message["type"] == "http.request" and not message.get("more_body", False):
            request = Request(scope, receive, send)
            request._body = message.get("body", b"")  # where Request.body() keeps what it read
        else:
            request = Request(scope, _replaying(message, receive), send)
        try:
            response = await self.answer(request)
        except ClientDisconnect:
            return  # the client left before its whole body arrived: nobody to answer
        await response(scope, receive, send)

    async def answer(self, request: Request) -> Response:
        """The route's answer to ``request``: steps 1 to 5 of the module's docstring."""
        raw = await request.body()
        # For the error handlers, which echo what the body holds at an error's loc: they get
        # a request object of their own, which has not read (and cannot read) the body.
        request.scope[SENT_BODY] = raw
        content_type = header(request.scope, b"content-type")
        if content_type is not None and content_type != b"application/json":
            received = content_type.decode("latin-1")  # as Starlette decodes headers
            if not is_json_content_type(received):
                raise unsupported_media_type(received)
        state = service_state(request)
        cache = state.cache
        key = None
        if self.replayable and len(raw) <= MAX_REPLAY_KEY:
            key = ("request", self.path, raw)
            cached = cache.peek(key)
            if isinstance(cached, bytes):
                return json_response(cached)
            hits = cache.hits
        if self._is_async:
            if len(raw) > OFF_LOOP_BYTES:
                body = await run_in_threadpool(self._fast_validated, raw, content_type)
            else:
                body = self._fast_validated(raw, content_type)
            if body is _NO_BODY:
                body = await self.validate_as_fastapi_does(request, raw)
            response: Response = await self.endpoint(**self._arguments(body, request))
        else:  # one trip to the thread pool for both, unless the body needs the exact path
            # Bounded: the watchdog stops work still running after CHEAP_WORK_SECONDS (a 503).
            answered = await run_in_threadpool(bounded_call, self._validated_and_answered, request, raw, content_type)
            if answered is None:
                body = await self.validate_as_fastapi_does(request, raw)
                answered = await run_in_threadpool(
                    bounded_call, partial(self.endpoint, **self._arguments(body, request))
                )
            assert answered is not None  # a route function returns its response
            response = answered
        cap = state.settings.max_answer_bytes
        if len(response.body) > cap:
            # The routes refuse what could be too large before the work (app.api.answer_size);
            # this is the one check every answer passes, whatever its route.
            raise ApiError(
                ("body",),
                f"the answer is {len(response.body)} bytes, more than this service sends in one answer "
                f"({cap}, TENPAI_MAX_ANSWER_BYTES); ask for less",
                ANSWER_TOO_LARGE,
            )
        # Kept under its bytes only once its question was answered from the cache: a body
        # asked once is not worth a second entry, a repeated one is (the next repeat skips
        # parsing).  An answer that depends on the load (no-store) is never replayed.
        if (
            key is not None
            and cache.hits > hits
            and response.status_code == 200
            and "cache-control" not in response.headers
        ):
            cache.store(key, bytes(response.body))
        return response

    def _arguments(self, body: Any, request: Request) -> dict[str, Any]:
        if self._request_name is None:
            return {self._body_name: body}
        return {self._body_name: body, self._request_name: request}

    def _validated_and_answered(self, request: Request, raw: bytes, content_type: bytes | None) -> Response | None:
        body = self._fast_validated(raw, content_type)
        return None if body is _NO_BODY else self.endpoint(**self._arguments(body, request))

    def _fast_validated(self, raw: bytes, content_type: bytes | None) -> Any:
        """The body validated straight from JSON bytes, or ``_NO_BODY`` if that fails (or the
        body is not plain JSON) and the exact path must say why."""
        assert self.body_model is not None
        if not raw or (content_type is not None and content_type != b"application/json"):
            return _NO_BODY
        try:
            return self.body_model.model_validate_json(raw)
        except ValidationError:
            return _NO_BODY

    async def validate_as_fastapi_does(self, request: Request, raw: bytes) -> Any:
        """The body read and validated as FastAPI's own handler does, errors included: the
        standard JSON parser, a ``json_invalid`` error at the failing position, the 422 of
        :func:`~app.api.errors.unreadable_body` for a body no parser can read (as the error
        handlers turn FastAPI's 400 into), and validation errors located under ``body``.
        (:meth:`answer` has refused a body that is not JSON before this.)"""
        body: Any = PydanticUndefined  # what FastAPI validates for an empty body (a missing field)
        if raw:
            body = await run_in_threadpool(_parse, raw) if len(raw) > OFF_LOOP_BYTES else _parse(raw)
        values, errors = await request_body_to_args(self.dependant.body_params, body, self._embed_body_fields)
        if errors:
            raise RequestValidationError(errors, body=body)
        return values[self._body_name]


def _replaying(first: Message, receive: Receive) -> Receive:
    """``receive`` with ``first``, already taken from it, put back in front."""
    pending = [first]

    async def replaying() -> Message:
        return pending.pop() if pending else await receive()

    return replaying


def _parse(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except json.JSONDecodeError as error:
        raise RequestValidationError(
            [
                {
                    "type": "json_invalid",
                    "loc": ("body", error.pos),
                    "msg": "JSON decode error",
                    "input": {},
                    "ctx": {"error": error.msg},
                }
            ],
            body=error.doc,
        ) from error
    except (ValueError, RecursionError) as error:  # too deep, a number too long, no text encoding
        unreadable = unreadable_body(raw, error)
        assert unreadable is not None  # both kinds are parse errors
        raise unreadable from error
