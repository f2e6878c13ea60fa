"""The analyzer site: the hand analyzer (GET / and GET /analyze), the page that plays a hosted
table (GET /play), and their static files.

Plain HTML pages with vanilla JavaScript that call only the public API: the analyzer
``POST /shanten``, ``/ting``, ``/discard``, and ``/score`` for the value of a complete
riichi hand; the play page the hosted-table routes (``/tables``, its WebSocket) and
``/act`` for advice. ``shared.js`` (tiles, mjai in words, one hand read off the events) is
loaded by both. Every asset is served from here with the same headers:
a Content-Security-Policy that allows nothing from another origin,
``X-Content-Type-Options: nosniff`` (a browser runs a file only as its declared
type) and ``Referrer-Policy: no-referrer`` (a hand typed into the page never leaks
to another site in a Referer). None of these routes is part of the OpenAPI document.
"""

from __future__ import annotations

from importlib.resources import files
from typing import Final

from fastapi import APIRouter, Response

STATIC_PREFIX: Final = "/static/analyze"
CONTENT_SECURITY_POLICY: Final = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'self'",
    )
)
SECURITY_HEADERS: Final = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
_MEDIA_TYPES: Final = {
    "index.html": "text/html; charset=utf-8",
    "play.html": "text/html; charset=utf-8",
    "shared.js": "text/javascript; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "play.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
}
_ASSETS: Final = {name: (files("app.api") / "static" / "analyze" / name).read_bytes() for name in _MEDIA_TYPES}

router = APIRouter(include_in_schema=False)


def _asset(name: str) -> Response:
    return Response(
        _ASSETS[name],
        media_type=_MEDIA_TYPES[name],
        headers={**SECURITY_HEADERS, "Cache-Control": "no-cache"},
    )


@router.get("/")
@router.get("/analyze")
def analyze_page() -> Response:
    return _asset("index.html")


@router.get("/play")
def play_page() -> Response:
    return _asset("play.html")


@router.get(f"{STATIC_PREFIX}/shared.js")
def shared_script() -> Response:
    return _asset("shared.js")


@router.get(f"{STATIC_PREFIX}/app.js")
def analyze_script() -> Response:
    return _asset("app.js")


@router.get(f"{STATIC_PREFIX}/play.js")
def play_script() -> Response:
    return _asset("play.js")


@router.get(f"{STATIC_PREFIX}/style.css")
def analyze_style() -> Response:
    return _asset("style.css")
