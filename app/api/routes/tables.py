"""Hosted tables: ``POST /tables``, a seat's view, its actions, its WebSocket, the record.

The routes only translate: HTTP and WebSocket in, the table service (:mod:`app.hosting.tables`)
in a worker thread (:class:`~app.api.table_host.TableHost`; a seat's view, a read, on the event
loop), its typed errors out through the one table of statuses.  A seat is known by its token (``Authorization: Bearer``, or ``?token=``
on the WebSocket, where browsers cannot set headers); these routes are not behind the API key
(``POST /tables`` is): a player's browser holds its seat's token, never the backend's key.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Final, TypeVar

from fastapi import APIRouter, Body, Query, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, PlainTextResponse

from app.api.auth import KeyRing
from app.api.errors import ApiError, error_body, error_responses, field_loc, status_of
from app.api.request_path import BodyRoute, plain_query
from app.api.schemas.tables import ActionRequest, OpenTableRequest, TableOpened, TableRecord, TableView
from app.api.state import service_state
from app.api.table_host import TableHost
from app.core.errors import TenpaiError
from app.core.families.registry import family_of
from app.core.table.hosted import IllegalAction
from app.core.table.records import write_log
from app.hosting.tables import Clock, StaleVersion, TableSpec

router = APIRouter(tags=["tables"], route_class=BodyRoute)
_TABLE_ERRORS: Final = dict(
    s401="No seat token (`missing_token`): send Authorization: Bearer <token>.",
    s403="The token is not a seat's at this table (`not_your_table`), or the action is another seat's "
    "(`not_your_seat`).",
    s404="No such table (`table_not_found`): never opened, or abandoned after sitting idle.",
    s409="`stale_version`: the table moved on, read the view and act again; `table_over`: the game ended; "
    "`table_not_over`: the record waits for the end.",
    s503="`too_many_tables`, `store_unavailable` (the table store cannot be reached), `table_busy`, or `out_of_time`.",
)
_ERRORS = error_responses(401, 403, 404, 409, 422, 503, **_TABLE_ERRORS)
_BODY_ERRORS = error_responses(401, 403, 404, 409, 413, 415, 422, 503, **_TABLE_ERRORS)

T = TypeVar("T")

#: The longest a long poll (``?wait=``) holds its answer.
MAX_WAIT_SECONDS: Final = 30.0
#: Where an error's ``field`` is in the request, for the envelope's ``loc``.
_FIELD_PLACES: Final = {
    "authorization": ("header", "authorization"),
    "table": ("path", "table"),
}


def table_host(request: Request | WebSocket) -> TableHost:
    host: TableHost = request.app.state.tables
    return host


def _api_error(error: TenpaiError) -> ApiError:
    field = error.field or ""
    head = field.split(".", 1)[0].split("[", 1)[0]
    if head in _FIELD_PLACES:
        loc: tuple[str | int, ...] = _FIELD_PLACES[head]
    else:
        loc = ("body", *field_loc(field))
    ctx: dict[str, Any] | None = None
    if isinstance(error, IllegalAction):
        ctx = {"legal": error.legal}
    elif isinstance(error, StaleVersion):
        ctx = {"version": error.version}
    headers = {"WWW-Authenticate": 'Bearer realm="tenpai"'} if error.code == "missing_token" else None
    return ApiError(loc, error.message, error.code, ctx=ctx, headers=headers)


async def _read(request: Request | WebSocket, reading: Awaitable[T]) -> T:
    """A view's read of the store, on the event loop (:meth:`TableHost.read`)."""
    try:
        return await table_host(request).read(reading)
    except TenpaiError as error:
        raise _api_error(error) from None


async def _serve(request: Request | WebSocket, work: Callable[[], T]) -> T:
    try:
        return await table_host(request).run(work)
    except TenpaiError as error:
        raise _api_error(error) from None


def _bearer(request: Request | WebSocket) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return None


@router.post(
    "/tables",
    status_code=201,
    response_model=TableOpened,
    operation_id="open_table",
    summary="Open a hosted table: the service deals from a secret wall and keeps the game",
    responses=_BODY_ERRORS,
)
async def open_table(body: Annotated[OpenTableRequest, Body()], request: Request) -> JSONResponse:
    """Deal the first hand from a seed (secret unless given; its SHA-256 `commitment` is published
    now, the seed in the record), seat the clients and bots, start the clock. Each client seat gets
    its bearer `token` here, once. Bots and the clock play where they must; a client plays through
    `GET /tables/{table}` (its view, with `legal` and `deadline`) and `POST /tables/{table}/actions`,
    or the WebSocket. `GET /limits` lists the bounds (most open tables, idle time)."""
    host = table_host(request)
    clock = Clock(body.clock.decision_seconds, body.clock.bank_seconds, body.clock.autoplay_seconds)
    spec = TableSpec(
        rules=body.rules.value,
        length=body.length.value,
        seats=tuple(body.seats),
        clock=clock,
        seed=body.seed,
        options=tuple(body.options.items()),
        names=tuple(body.names) if body.names is not None else None,
    )
    opened = await _serve(request, lambda: host.service.create(spec))
    host.tick_soon()  # the first seat asked may be a bot
    return JSONResponse(opened, status_code=201)


@router.get(
    "/tables/{table}",
    response_model=TableView,
    operation_id="table_view",
    summary="A seat's view of its table: the events it may see, what it may do, its clock",
    responses=_ERRORS,
)
@plain_query  # most of a table's requests: a plain ?after=V&wait=S is read without FastAPI's dependency solving
async def table_view(
    table: str,
    request: Request,
    after: Annotated[int, Query(ge=0, le=10**9, description="Show only the events after the first `after`.")] = 0,
    wait: Annotated[
        float, Query(ge=0, le=MAX_WAIT_SECONDS, description="Hold the answer until an event after `after` (long poll).")
    ] = 0.0,
) -> JSONResponse:
    """The token's seat's view: other seats' tiles are `?`; never a wall tile, never the seed
    before the end. With `wait`, the answer waits (at most 30 s) for an event after `after`."""
    host = table_host(request)
    token = _bearer(request)
    give_up = time.monotonic() + wait
    while True:
        woken = host.wakeup(table)  # before the read, so that a change after it wakes the wait
        look = _new_view if give_up > time.monotonic() else _view
        view = await _read(request, look(host, table, token, after))
        if view is not None:
            return JSONResponse(view)
        # Nothing new yet. A client gone since the last look is not waited for (looked at here,
        # not after every wake-up: a wake-up nearly always brings the view that is answered).
        if await request.is_disconnected():
            return JSONResponse(await _read(request, _view(host, table, token, after)))
        await host.wait_change(woken, give_up - time.monotonic())


async def _view(host: TableHost, table: str, token: str | None, after: int) -> dict[str, Any]:
    view = await host.service.seat_view_async(table, token, after)
    assert view is not None  # only a look for what is new may find nothing
    return view


async def _new_view(host: TableHost, table: str, token: str | None, after: int) -> dict[str, Any] | None:
    """The seat's view if it holds an event after ``after`` or the game is over; else None, and
    no view built (a long poll's first look finds nothing new more often than not)."""
    return await host.service.seat_view_async(table, token, after, only_new=True)


@router.post(
    "/tables/{table}/actions",
    response_model=TableView,
    operation_id="table_action",
    summary="The seat acts: answered 200 once the action is in the table's store",
    responses=_BODY_ERRORS,
    # The table is read from the path by the handler, so that the route takes (body, request) and
    # is served by BodyRoute, 415 and all; declared here for the document.
    openapi_extra={"parameters": [{"name": "table", "in": "path", "required": True, "schema": {"type": "string"}}]},
)
async def table_action(body: Annotated[ActionRequest, Body()], request: Request) -> JSONResponse:
    """`version` must be the table's current one (else 409 `stale_version`), the action one of the
    view's `legal` (else 422 `illegal_action`, with `legal`), its `actor` the token's seat (else 403
    `not_your_seat`). The answer is the seat's view after the action, its events those after
    `version`; it is durably stored before the answer leaves. After a discard every seat that may
    claim is asked at once; the table settles the claims by priority once all have answered."""
    table = str(request.path_params["table"])
    answered = await _act(request, table, _bearer(request), body.version, body.action)
    return JSONResponse(answered)


async def _act(request: Request | WebSocket, table: str, token: str | None, version: int, action: object) -> Any:
    host = table_host(request)
    answered = await _serve(request, lambda: host.service.act(table, token, version, action))
    host.changed(table)
    host.tick_soon()  # the next seat asked may be a bot, or a seat in auto-play
    return answered


@router.get(
    "/tables/{table}/record",
    response_model=TableRecord,
    operation_id="table_record",
    summary="The whole game once it is over: every tile, the seed and its commitment",
    responses=_ERRORS,
)
async def table_record(
    table: str,
    request: Request,
    format: Annotated[
        str, Query(pattern="^(mjai|tenhou6|mjlog)$", description="mjai (JSON), tenhou6 or mjlog")
    ] = "mjai",
) -> Response:
    """For any seat token of the table (or the service's API key): the events with every tile shown,
    the seed (whose SHA-256 is the `commitment`), the final scores. `POST /referee` accepts them with
    each hand's deltas equal to the table's. Before the end: 409 `table_not_over`."""
    host = table_host(request)
    token = _bearer(request)
    trusted = _holds_api_key(request)
    record = await _serve(request, lambda: host.service.record(table, token, trusted=trusted))
    if format == "mjai":
        return JSONResponse(record)
    text = await _serve(request, lambda: write_log(record["events"], format, family_of("riichi")))
    media = "application/xml" if format == "mjlog" else "application/json"
    return PlainTextResponse(text, media_type=media)


def _holds_api_key(request: Request) -> bool:
    keys = service_state(request).settings.api_keys
    if not keys:
        return False
    key = request.headers.get("x-api-key")
    return key is not None and KeyRing(k.get_secret_value() for k in keys).accepts(key.encode())


@router.websocket("/tables/{table}/ws")
async def table_socket(websocket: WebSocket, table: str, token: str | None = None) -> None:
    """The seat's view, pushed: first the view, then its new events and changes of `legal`; the
    client may send `{"version": V, "action": {...}}` and gets what the HTTP route answers."""
    presented = _bearer(websocket) or token
    host = table_host(websocket)
    woken = host.wakeup(table)  # before the first read, so that a change after it is pushed
    try:
        view = await _read(websocket, _view(host, table, presented, 0))
    except ApiError as error:
        # Accepted first: a close before the handshake is answered is an HTTP 403 to the client
        # whatever the code, so a browser would see 1006 and never the reason it was refused.
        await websocket.accept()
        await websocket.close(code=4000 + status_of(error.code), reason=error.code)
        return
    await websocket.accept()
    await websocket.send_json(view)
    seen = (view["version"], json.dumps(view["legal"]), view["autoplay"], view["status"])
    sending = asyncio.Lock()

    async def push() -> None:
        nonlocal seen, woken
        while True:
            await host.wait_change(woken, MAX_WAIT_SECONDS)
            woken = host.wakeup(table)
            now = await _read(websocket, _view(host, table, presented, seen[0]))
            state = (now["version"], json.dumps(now["legal"]), now["autoplay"], now["status"])
            if state != seen:
                async with sending:
                    await websocket.send_json(now)
                seen = state

    pusher = asyncio.create_task(push())
    try:
        while True:
            message = await websocket.receive_text()
            answer = await _socket_action(websocket, table, presented, message)
            async with sending:
                await websocket.send_json(answer)
    except WebSocketDisconnect:
        pass
    finally:
        pusher.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await pusher


async def _socket_action(websocket: WebSocket, table: str, token: str | None, message: str) -> dict[str, Any]:
    """The answer to one message, as the HTTP route would give it, with the status it would have
    (``http_status``; the view's own ``status`` says whether the game is playing or over)."""
    try:
        body = ActionRequest.model_validate_json(message)
    except ValueError as error:
        loc = ("body",)
        return {"http_status": 422, **error_body(loc, f"not an action message: {str(error)[:300]}", "invalid_request")}
    try:
        answered = await _act(websocket, table, token, body.version, body.action)
    except ApiError as error:
        return {"http_status": error.status, **error_body(error.loc, error.msg, error.code, ctx=error.ctx)}
    return {"http_status": 200, **answered}
