"""Refuse request bodies over the configured size with a 413.

Two checks, because a client may say nothing: a declared ``Content-Length``
over the limit is refused before the body is read (the ASGI server frames the
body by that length, so it cannot lie about it), and a body without one (a
chunked upload) is counted as it streams in, so no more than the limit plus one
chunk is ever held.
"""

from __future__ import annotations

import json

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.errors import error_body, header, send_error


class BodyTooLarge(HTTPException):
    """Raised from ``receive`` once the streamed body passes the limit.

    An ``HTTPException``, because FastAPI re-raises those from body parsing
    (anything else would become a 400 there); the app's handler renders it.
    """

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"request body is larger than {limit} bytes")


class BodySizeLimit:
    """Pure ASGI middleware: at most ``max_body_bytes`` of request body."""

    def __init__(self, app: ASGIApp, max_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = header(scope, b"content-length")
        if declared is not None and declared.isdigit():
            if int(declared) > self.max_body_bytes:
                await self._refuse(send)
                return
            # The server frames the body by its declared length (more bytes would be the next
            # request on the connection), so there is nothing to count.
            await self.app(scope, receive, send)
            return

        received = 0
        response_started = False

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body_bytes:
                    raise BodyTooLarge(self.max_body_bytes)
            return message

        async def watching_send(message: Message) -> None:
            nonlocal response_started
            if message["type"] == "http.response.start":
                response_started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, watching_send)
        except BodyTooLarge:
            # Normally the app's handler has answered already; this covers a read
            # made outside FastAPI's body parsing.
            if response_started:
                raise
            await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps(
            error_body(("body",), f"request body is larger than {self.max_body_bytes} bytes", "body_too_large")
        ).encode()
        await send_error(send, 413, body, ((b"connection", b"close"),))
