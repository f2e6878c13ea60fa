"""Optional API-key authentication (``TENPAI_API_KEYS``), as pure ASGI middleware.

A request presents its key in ``X-API-Key: <key>`` or ``Authorization: Bearer <key>``.
The key is compared with every configured key, each in constant time
(:func:`hmac.compare_digest` on SHA-256 digests, so neither the position of
the first differing byte nor the length of a key shows in the timing).  A
request without a valid key gets a 401 in the usual envelope, before its body
is read and before the answer cache (:mod:`app.api.request_path`) could serve it.

``/health`` and ``/ready`` stay open for probes; the docs, the OpenAPI
document and ``/metrics`` too, unless ``TENPAI_PROTECT_DOCS=true``.

Administration (``POST /cache/clear``) is a separate right, checked by the route
with :func:`admin_refusal`: a key of ``TENPAI_ADMIN_KEYS`` in ``X-Admin-Key`` (an
API key alone is not enough), or, with no admin keys configured, a client on the
loopback interface (127.0.0.0/8 or ::1).  Behind a reverse proxy on the same host
every client may look local unless the proxy forwards the client's address
(uvicorn's ``--proxy-headers``, on by default for 127.0.0.1); set admin keys there.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
from collections.abc import Iterable
from typing import Final

from starlette.types import ASGIApp, Receive, Scope, Send

from app.api.errors import error_body, send_error

PROBE_PATHS: Final = frozenset({"/health", "/ready"})
DOC_PATHS: Final = frozenset({"/docs", "/redoc", "/openapi.json", "/metrics"})
DOC_ASSETS: Final = "/static/docs/"
#: Under this prefix, a hosted table's routes: open to its seat tokens (:func:`_is_seat_path`).
SEAT_PATHS: Final = "/tables/"

_LOC: Final = ("header", "x-api-key")
_MISSING: Final = "an API key is required: send it in the X-API-Key header or as Authorization: Bearer <key>"
_INVALID: Final = "the API key is not valid"

#: The header that carries an admin key (``TENPAI_ADMIN_KEYS``).
ADMIN_KEY_HEADER: Final = "X-Admin-Key"
_LOOPBACK_ONLY: Final = "only a client on the loopback interface may do this (no admin keys are configured)"
_ADMIN_MISSING: Final = f"an admin key is required: send it in the {ADMIN_KEY_HEADER} header"
_ADMIN_INVALID: Final = "the admin key is not valid"


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


class KeyRing:
    """Configured keys, checked against a presented one in constant time.

    >>> ring = KeyRing(["alpha", "beta"])
    >>> ring.accepts(b"beta"), ring.accepts(b"gamma"), bool(KeyRing([]))
    (True, False, False)
    """

    __slots__ = ("_digests",)

    def __init__(self, keys: Iterable[str]) -> None:
        self._digests = tuple(_digest(key.encode()) for key in keys)

    def __bool__(self) -> bool:
        return bool(self._digests)

    def accepts(self, key: bytes) -> bool:
        """Whether ``key`` is one of the keys."""
        digest = _digest(key)
        accepted = False
        for known in self._digests:  # every key, whatever matched before
            accepted |= hmac.compare_digest(digest, known)
        return accepted


def is_loopback(host: str | None) -> bool:
    """Whether a client address is on the loopback interface.

    >>> is_loopback("127.0.0.1"), is_loopback("127.8.9.10"), is_loopback("::1"), is_loopback("::ffff:127.0.0.1")
    (True, True, True, True)
    >>> is_loopback("10.0.0.1"), is_loopback("testclient"), is_loopback(None)
    (False, False, False)
    """
    try:
        address = ipaddress.ip_address(host or "")
    except ValueError:  # a Unix socket, or a test client's made-up name: not known to be local
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


def admin_refusal(key: str | None, client_host: str | None, admin_keys: Iterable[str]) -> str | None:
    """Why a request may not administer the service, or None when it may.

    >>> admin_refusal(None, "127.0.0.1", []) is None, admin_refusal("k", "127.0.0.1", ["k"]) is None
    (True, True)
    >>> admin_refusal(None, "203.0.113.7", [])
    'only a client on the loopback interface may do this (no admin keys are configured)'
    >>> admin_refusal("wrong", "127.0.0.1", ["k"])
    'the admin key is not valid'
    """
    ring = KeyRing(admin_keys)
    if not ring:
        return None if is_loopback(client_host) else _LOOPBACK_ONLY
    if key is None:
        return _ADMIN_MISSING
    return None if ring.accepts(key.encode()) else _ADMIN_INVALID


class ApiKeyAuth:
    """Let a request through only with one of ``keys`` (or to an open path)."""

    def __init__(self, app: ASGIApp, keys: Iterable[str], *, protect_docs: bool) -> None:
        self.app = app
        self._keys = KeyRing(keys)
        if not self._keys:
            raise ValueError("ApiKeyAuth needs at least one key")
        self._open = PROBE_PATHS if protect_docs else PROBE_PATHS | DOC_PATHS
        self._open_prefix = None if protect_docs else DOC_ASSETS

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self._is_open(scope["path"]):
            await self.app(scope, receive, send)
            return
        key = presented_key(scope["headers"])
        if key is not None and self._keys.accepts(key):
            await self.app(scope, receive, send)
            return
        await _refuse(send, _MISSING if key is None else _INVALID)

    def _is_open(self, path: str) -> bool:
        return (
            path in self._open
            or (self._open_prefix is not None and path.startswith(self._open_prefix))
            or _is_seat_path(path)
        )


def _is_seat_path(path: str) -> bool:
    """A hosted table's own path (``/tables/{table}``, ``.../actions``, ``.../ws``, ``.../record``):
    its seat token authorizes it, so a player's browser never holds the backend's API key.
    ``POST /tables`` itself stays behind the key.

    >>> _is_seat_path("/tables/t_1/actions"), _is_seat_path("/tables"), _is_seat_path("/tables/")
    (True, False, False)
    """
    return path.startswith(SEAT_PATHS) and len(path) > len(SEAT_PATHS)


async def _refuse(send: Send, msg: str) -> None:
    body = json.dumps(error_body(_LOC, msg, "unauthorized")).encode()
    await send_error(send, 401, body, ((b"www-authenticate", b'Bearer realm="tenpai"'),))
