"""Request ids, metrics and the access log, in one pure ASGI middleware.

It wraps the whole app, outside Starlette's error middleware (see
``app.main``), so that every answer is counted and timed: a 500, a 401 from
the API-key check, a 413 from the body limit answered
before routing alike.  Per request it reads the clock twice, finds or makes
a request id, appends one header and updates two counters; it reads a body
only for error answers, to count them by the ``type`` of their envelope.

An incoming ``X-Request-ID`` of 1 to 128 visible ASCII characters is kept
(a proxy such as nginx can set one); otherwise a random one is made.  Either
way it comes back in the ``X-Request-ID`` response header and is set in
:data:`app.api.logs.REQUEST_ID` for every log line of the request.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Collection
from random import getrandbits
from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.logs import ACCESS_LOGGER, REQUEST_ID
from app.api.metrics import UNMATCHED, Metrics

REQUEST_ID_HEADER: Final = b"x-request-id"
_VALID_REQUEST_ID: Final = re.compile(rb"[\x21-\x7e]{1,128}")
_METHODS: Final = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
#: Status counted for a request whose client left before any answer (nginx's convention).
CLIENT_GONE: Final = 499
#: Bytes of an error body read to find its code (an envelope is far smaller).
_ERROR_PEEK: Final = 4096

_access = logging.getLogger(ACCESS_LOGGER)


def request_id_of(headers: Collection[tuple[bytes, bytes]]) -> str:
    """The request's own valid ``X-Request-ID``, or a new random one.

    >>> request_id_of([(b"x-request-id", b"abc-123")])
    'abc-123'
    >>> len(request_id_of([(b"x-request-id", b"two words")]))
    32
    """
    for name, value in headers:
        if name == REQUEST_ID_HEADER:
            if _VALID_REQUEST_ID.fullmatch(value):
                return value.decode("ascii")
            break
    # Unique, not secret: the PRNG (seeded from the OS at start) costs no system call.
    return f"{getrandbits(128):032x}"


def error_code_of(status: int, body: bytes) -> str:
    """The ``type`` of the first item of an error envelope, or ``http_<status>``.

    >>> error_code_of(422, b'{"detail": [{"loc": ["body"], "msg": "...", "type": "json_invalid"}]}')
    'json_invalid'
    >>> error_code_of(503, b'{"ready": false}')
    'http_503'
    """
    try:
        code = json.loads(body)["detail"][0]["type"]
    except (ValueError, KeyError, IndexError, TypeError):
        return f"http_{status}"
    return code if isinstance(code, str) else f"http_{status}"


class Observe:
    """Pure ASGI middleware; ``known_paths`` are the routes that may answer before routing."""

    def __init__(self, app: ASGIApp, metrics: Metrics, known_paths: frozenset[str]) -> None:
        self.app = app
        self.metrics = metrics
        self.known_paths = known_paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        request_id = request_id_of(scope["headers"])
        id_header = (REQUEST_ID_HEADER, request_id.encode("ascii"))
        token = REQUEST_ID.set(request_id)
        status = CLIENT_GONE
        error_body: list[bytes] | None = None

        async def observing_send(message: Message) -> None:
            nonlocal status, error_body
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), id_header]
                if status >= 400:
                    error_body = []
            elif (
                error_body is not None
                and message["type"] == "http.response.body"
                and sum(map(len, error_body)) < _ERROR_PEEK
            ):
                error_body.append(message.get("body", b""))
            await send(message)

        metrics = self.metrics
        metrics.in_progress += 1
        try:
            await self.app(scope, receive, observing_send)
        except BaseException:
            # Starlette's error middleware has sent the 500 (through observing_send) before re-raising.
            status = 500 if status == CLIENT_GONE else status
            raise
        finally:
            metrics.in_progress -= 1
            seconds = time.perf_counter() - started
            route = self._route(scope)
            method = scope["method"] if scope["method"] in _METHODS else "OTHER"
            metrics.observe(method, route, status, seconds)
            if status >= 400:
                metrics.count_error(error_code_of(status, b"".join(error_body or ())))
            if _access.isEnabledFor(logging.INFO):
                self._log(scope, method, route, status, seconds)
            REQUEST_ID.reset(token)

    def _route(self, scope: Scope) -> str:
        route = scope.get("route")
        if route is not None:
            return str(route.path)
        path: str = scope["path"]
        return path if path in self.known_paths else UNMATCHED

    @staticmethod
    def _log(scope: Scope, method: str, route: str, status: int, seconds: float) -> None:
        client = scope.get("client")
        _access.info(
            "%s %s %d %.2f ms",
            method,
            scope["path"],
            status,
            seconds * 1000,
            extra={
                "http": {
                    "method": method,
                    "path": scope["path"],
                    "route": route,
                    "status": status,
                    "duration_ms": round(seconds * 1000, 3),
                    "client": client[0] if client else None,
                }
            },
        )
