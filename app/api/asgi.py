"""Answers sent by the pure ASGI middlewares (before any route runs)."""

from __future__ import annotations

from collections.abc import Iterable

from starlette.types import Send


async def send_json(send: Send, status: int, body: bytes, headers: Iterable[tuple[bytes, bytes]] = ()) -> None:
    """Send a complete JSON response: ``status``, ``body`` and any extra ``headers``."""
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
