"""The hand analyzer page (GET / and /analyze) and its assets are served by the service itself."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

_REFERENCES = re.compile(r'(?:src|href)\s*=\s*["\']([^"\']+)["\']')
_ABSOLUTE = re.compile(r"(?:https?:)?//[\w.-]+", re.IGNORECASE)
_FETCHES = re.compile(r"""(?:fetch|post)\(\s*["'`]([^"'`]+)["'`]""")
ASSETS = {
    "/static/analyze/app.js": "text/javascript",
    "/static/analyze/style.css": "text/css",
}


@pytest.mark.parametrize("page", ["/", "/analyze"])
def test_page_loads_with_its_assets_and_nothing_else(client: TestClient, page: str) -> None:
    response = client.get(page)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in response.headers["content-security-policy"]
    html = response.text
    assert '<meta name="viewport"' in html
    assert not _ABSOLUTE.findall(html), _ABSOLUTE.findall(html)
    references = [ref for ref in _REFERENCES.findall(html) if not ref.startswith("data:")]
    assert set(ASSETS) <= set(references)
    for reference in references:
        assert reference.startswith("/") and not reference.startswith("//"), reference


@pytest.mark.parametrize(("path", "media_type"), ASSETS.items())
def test_assets_have_their_types_and_no_outside_host(client: TestClient, path: str, media_type: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith(media_type)
    assert not _ABSOLUTE.findall(response.text), _ABSOLUTE.findall(response.text)
    assert "@import" not in response.text and "url(" not in response.text  # no fonts or images from anywhere


def test_script_calls_only_public_api_routes(client: TestClient) -> None:
    script = client.get("/static/analyze/app.js").text
    public = set(client.get("/openapi.json").json()["paths"])
    called = set(_FETCHES.findall(script)) - {"path"}
    called |= {"/ting", "/discard"} if '"/ting" : "/discard"' in script else set()
    assert called and called <= public, called - public


def test_page_routes_are_not_in_the_schema(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert not {"/", "/analyze"} & set(paths)
    assert not [path for path in paths if path.startswith("/static")]


def test_unknown_asset_is_404(client: TestClient) -> None:
    assert client.get("/static/analyze/missing.js").status_code == 404
