"""Optional API-key authentication (``TENPAI_API_KEYS``), as pure ASGI middleware.

A request presents its key in ``X-API-Key: <key>`` or ``Authorization: Bearer <key>``.
The key is compared with every configured key, each in constant time
(:func:`hmac.compare_digest` on SHA-256 digests, so neither the position of
the first differing byte nor the length of a key shows in the timing).  A
request without a valid key gets a 401 in the usual envelope, before its body
is read and before the answer cache (:mod:`app.api.replay`) could serve it.

``/health`` and ``/ready`` stay open for probes; the docs, the OpenAPI
document and ``/metrics`` too, unless ``TENPAI_PROTECT_DOCS=true``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable
from typing import Final

from starlette.types import ASGIApp, Receive, Scope, Send

from app.api.asgi import send_json
from app.api.errors import error_body

PROBE_PATHS: Final = frozenset({"/health", "/ready"})
DOC_PATHS: Final = frozenset({"/docs", "/redoc", "/openapi.json", "/metrics"})
DOC_ASSETS: Final = "/static/docs/"

_LOC: Final = ("header", "x-api-key")
_MISSING: Final = "an API key is required: send it in the X-API-Key header or as Authorization: Bearer <key>"
_INVALID: Final = "the API key is not valid"


def _digest(key: bytes) -> bytes:
    return hashlib.sha256(key).digest()


def presented_key(headers: Iterable[tuple[bytes, bytes]]) -> bytes | None:
    """The key a request presents: ``X-API-Key`` first, else a bearer token.

    >>> presented_key([(b"authorization", b"Bearer s3cret")]), presented_key([(b"x-api-key", b"k")])
    (b's3cret', b'k')
    >>> presented_key([(b"authorization", b"Basic dTpw")]) is None
    True
    """
    bearer = None
    for name, value in headers:
        if name == b"x-api-key" and value:
            return value
        if name == b"authorization":
            scheme, _, token = value.strip().partition(b" ")
            if scheme.lower() == b"bearer" and token.strip():
                bearer = token.strip()
    return bearer


class ApiKeyAuth:
    """Let a request through only with one of ``keys`` (or to an open path)."""

    def __init__(self, app: ASGIApp, keys: Iterable[str], *, protect_docs: bool) -> None:
        self.app = app
        self._digests = tuple(_digest(key.encode()) for key in keys)
        if not self._digests:
            raise ValueError("ApiKeyAuth needs at least one key")
        self._open = PROBE_PATHS if protect_docs else PROBE_PATHS | DOC_PATHS
        self._open_prefix = None if protect_docs else DOC_ASSETS

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self._is_open(scope["path"]):
            await self.app(scope, receive, send)
            return
        key = presented_key(scope["headers"])
        if key is not None and self._accepts(key):
            await self.app(scope, receive, send)
            return
        await _refuse(send, _MISSING if key is None else _INVALID)

    def _is_open(self, path: str) -> bool:
        return path in self._open or (self._open_prefix is not None and path.startswith(self._open_prefix))

    def _accepts(self, key: bytes) -> bool:
        digest = _digest(key)
        accepted = False
        for known in self._digests:  # every key, whatever matched before
            accepted |= hmac.compare_digest(digest, known)
        return accepted


async def _refuse(send: Send, msg: str) -> None:
    body = json.dumps(error_body(_LOC, msg, "unauthorized")).encode()
    await send_json(send, 401, body, [(b"www-authenticate", b'Bearer realm="tenpai"')])
