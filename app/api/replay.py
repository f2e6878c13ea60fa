"""Answer a repeated single-hand request from the result cache, before any parsing.

The same request body always asks the same question, so its finished answer
can be found by the body itself: an exact key, like the canonical one, only
cheaper to compute.  A repeated ``POST /shanten`` then costs a dictionary
look-up instead of JSON validation, notation parsing and routing.  Requests
that differ only in notation still meet at the canonical key inside the route.

Entries live in the app's one result cache (same bound, same counters), keyed
``("request", path, body)``; only 200 answers to small bodies are kept.
"""

from __future__ import annotations

from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.asgi import send_json
from app.api.cache import ResultCache

#: Bodies larger than this are not used as keys (a hand question is a few hundred bytes).
MAX_KEY_BODY: Final = 2048


class AnswerReplay:
    """Pure ASGI middleware for the single-hand routes in ``paths``."""

    def __init__(self, app: ASGIApp, paths: frozenset[str]) -> None:
        self.app = app
        self.paths = paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] not in self.paths:
            await self.app(scope, receive, send)
            return
        chunks = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left before sending its body
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        cache: ResultCache = scope["app"].state.service.cache
        key = ("request", scope["path"], body) if len(body) <= MAX_KEY_BODY else None
        if key is not None:
            answer = cache.peek(key)
            if isinstance(answer, bytes):
                await send_json(send, 200, answer)
                return

        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        status = 0
        parts: list[bytes] = []
        no_store = False

        async def capture(message: Message) -> None:
            nonlocal status, no_store
            if message["type"] == "http.response.start":
                status = message["status"]
                # An answer cut short by its time budget depends on the load: never replayed.
                no_store = (b"cache-control", b"no-store") in message.get("headers", ())
            elif message["type"] == "http.response.body" and status == 200:
                parts.append(message.get("body", b""))
            await send(message)

        await self.app(scope, replay, capture)
        if key is not None and status == 200 and not no_store:
            cache.store(key, b"".join(parts))
