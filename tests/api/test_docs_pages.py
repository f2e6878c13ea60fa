"""/docs and /redoc are served with their assets from the service itself."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from app.api.errors import ERROR_STATUS
from app.core.families.registry import PRESET_NAMES

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


# --- the introduction (the OpenAPI description) cannot go stale ---------------------------


def test_the_introduction_names_every_preset_and_the_default(client: TestClient) -> None:
    description = client.get("/openapi.json").json()["info"]["description"]
    rules = client.get("/rules").json()
    assert {preset["name"] for preset in rules["presets"]} == set(PRESET_NAMES)
    for name in PRESET_NAMES:
        assert f"* `{name}`: " in description, name
    assert f"`{rules['default']}` unless a request says otherwise" in description


def test_the_introduction_states_every_status_and_code_a_client_meets(client: TestClient) -> None:
    description = client.get("/openapi.json").json()["info"]["description"]
    assert "Every valid question answers 200" not in description  # /score answers 400 for a hand it cannot score
    for code, status in ERROR_STATUS.items():
        assert f"* {status}: " in description or f" {status}: " in description, status
        if status in (400, 413, 415, 503):  # the codes of statuses that are not "malformed input"
            assert f"`{code}`" in description, code
    for status in (200, 401, 403, 404, 405):
        assert f"{status}" in description, status


def test_every_tag_is_described(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    described = {tag["name"] for tag in document["tags"] if tag["description"]}
    used = {tag for path in document["paths"].values() for operation in path.values() for tag in operation["tags"]}
    assert used <= described, used - described
