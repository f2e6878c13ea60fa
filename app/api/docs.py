"""Swagger UI at /docs and ReDoc at /redoc, with every asset served by this service.

FastAPI's own doc pages load their JavaScript from a CDN; these load it from
``/static/docs``, the asset folder shipped in the ``fastapi-offline`` wheel
(Swagger UI 5, which reads OpenAPI 3.1, and ReDoc's standalone bundle).
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import Final

from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

STATIC_PREFIX: Final = "/static/docs"
_ASSETS: Final = Path(str(files("fastapi_offline") / "static"))
# The pages may load nothing from elsewhere; this also stops the ReDoc bundle's
# built-in "API docs by Redocly" logo, which it fetches from the vendor's CDN.
CONTENT_SECURITY_POLICY: Final = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline'",  # Swagger UI is started by an inline script
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self' data:",
        "worker-src 'self' blob:",  # ReDoc's search runs in a worker made from a blob
        "connect-src 'self'",
        "frame-ancestors 'self'",
    )
)
SWAGGER_PARAMETERS: Final = {
    "validatorUrl": None,  # the default badge calls an outside validator
    "tryItOutEnabled": False,
    "displayRequestDuration": True,
    "defaultModelsExpandDepth": 0,
}


def install_docs(app: FastAPI) -> None:
    """Serve the doc pages and their assets from ``app`` itself."""
    app.mount(STATIC_PREFIX, StaticFiles(directory=_ASSETS), name="docs-assets")
    openapi_url = app.openapi_url or "/openapi.json"
    favicon = f"{STATIC_PREFIX}/favicon.png"

    @app.get("/docs", include_in_schema=False)
    def swagger_ui() -> HTMLResponse:
        return _self_contained(
            get_swagger_ui_html(
                openapi_url=openapi_url,
                title=f"{app.title} - Swagger UI",
                swagger_js_url=f"{STATIC_PREFIX}/swagger-ui-bundle.js",
                swagger_css_url=f"{STATIC_PREFIX}/swagger-ui.css",
                swagger_favicon_url=favicon,
                oauth2_redirect_url=None,
                swagger_ui_parameters=SWAGGER_PARAMETERS,
            )
        )

    @app.get("/redoc", include_in_schema=False)
    def redoc() -> HTMLResponse:
        return _self_contained(
            get_redoc_html(
                openapi_url=openapi_url,
                title=f"{app.title} - ReDoc",
                redoc_js_url=f"{STATIC_PREFIX}/redoc.standalone.js",
                redoc_favicon_url=favicon,
                with_google_fonts=False,
            )
        )


def _self_contained(page: HTMLResponse) -> HTMLResponse:
    # The same hardening as the analyzer page: nothing from elsewhere, no sniffing, no referrer.
    page.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    page.headers["X-Content-Type-Options"] = "nosniff"
    page.headers["Referrer-Policy"] = "no-referrer"
    return page
