"""/docs and /redoc are served with their assets from the service itself."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

# src="..." and href="..." in the page, plus any absolute URL anywhere in it.
_REFERENCES = re.compile(r'(?:src|href)\s*=\s*["\']([^"\']+)["\']')
_ABSOLUTE = re.compile(r"(?:https?:)?//[\w.-]+", re.IGNORECASE)


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_doc_pages_reference_no_external_host(client: TestClient, page: str) -> None:
    response = client.get(page)
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    html = response.text
    assert not _ABSOLUTE.findall(html), _ABSOLUTE.findall(html)
    references = _REFERENCES.findall(html)
    assert references, "the page loads no assets?"
    for reference in references:
        assert reference.startswith("/"), reference
        asset = client.get(reference)
        assert asset.status_code == 200, reference
        assert len(asset.content) > 1000, reference


def test_swagger_ui_is_configured_offline(client: TestClient) -> None:
    html = client.get("/docs").text
    assert '"validatorUrl": null' in html  # the validator badge would call an outside service
    assert "url: '/openapi.json'" in html


def test_assets_have_their_types(client: TestClient) -> None:
    assert "javascript" in client.get("/static/docs/swagger-ui-bundle.js").headers["content-type"]
    assert "javascript" in client.get("/static/docs/redoc.standalone.js").headers["content-type"]
    assert client.get("/static/docs/swagger-ui.css").headers["content-type"].startswith("text/css")


def test_docs_pages_are_not_in_the_schema(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert "/docs" not in paths and "/redoc" not in paths and not any(p.startswith("/static") for p in paths)


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_doc_pages_forbid_loading_from_elsewhere(client: TestClient, page: str) -> None:
    policy = client.get(page).headers["content-security-policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["default-src"] == "'self'"
    for directive in ("script-src", "img-src", "connect-src", "font-src", "style-src"):
        assert "http" not in directives[directive] and "*" not in directives[directive]
