"""API keys (TENPAI_API_KEYS), admin keys (TENPAI_ADMIN_KEYS), CORS (TENPAI_CORS_ORIGINS), the
limits in front of the routes, and the analyzer page's security headers."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from fastapi.testclient import TestClient
from ops_helpers import HAND, started

from app.api.auth import is_loopback, presented_key
from app.main import create_app
from app.settings import Settings

KEYS = ("k-0123456789abcdef0123", "k-fedcba9876543210fedc")
ADMIN_KEYS = ("adm-0123456789abcdef", "adm-fedcba9876543210")
# TestClient's own client host is "testclient"; these stand for real peers.
REMOTE = ("203.0.113.7", 50000)
LOOPBACKS = (("127.0.0.1", 50000), ("127.4.5.6", 50000), ("::1", 50000))
UNAUTHORIZED = {
    "error": "unauthorized",
    "detail": [
        {
            "type": "unauthorized",
            "loc": ["header", "x-api-key"],
            "msg": "an API key is required: send it in the X-API-Key header or as Authorization: Bearer <key>",
            "input": None,
            "ctx": None,
        }
    ],
}


@pytest.fixture(scope="module")
def keyed() -> Iterator[TestClient]:
    client = started(Settings(api_keys=KEYS, max_body_bytes=4096))
    yield client
    client.__exit__(None, None, None)


@pytest.fixture(scope="module")
def locked_docs() -> Iterator[TestClient]:
    client = started(Settings(api_keys=KEYS[:1], protect_docs=True))
    yield client
    client.__exit__(None, None, None)


def test_without_keys_everything_is_open(client: TestClient) -> None:
    assert client.post("/shanten", json=HAND).status_code == 200
    assert client.get("/rules").status_code == 200


@pytest.mark.parametrize("path", ["/shanten", "/ting", "/win", "/shanten/batch", "/cache/clear"])
def test_a_request_without_a_key_is_401_in_the_envelope(keyed: TestClient, path: str) -> None:
    response = keyed.post(path, json=HAND)
    assert response.status_code == 401
    assert response.json() == UNAUTHORIZED
    assert response.headers["www-authenticate"].startswith("Bearer")


def test_a_wrong_key_is_401(keyed: TestClient) -> None:
    for headers in ({"x-api-key": "wrong"}, {"authorization": "Bearer wrong"}, {"x-api-key": KEYS[0][:-1]}):
        response = keyed.post("/shanten", json=HAND, headers=headers)
        assert response.status_code == 401, headers
        (item,) = response.json()["detail"]
        assert item["loc"] == ["header", "x-api-key"] and item["type"] == "unauthorized"
        assert item["msg"] == "the API key is not valid"


@pytest.mark.parametrize("key", KEYS)
def test_every_configured_key_works_in_either_header(keyed: TestClient, key: str) -> None:
    assert keyed.post("/shanten", json=HAND, headers={"x-api-key": key}).status_code == 200
    assert keyed.post("/shanten", json=HAND, headers={"authorization": f"Bearer {key}"}).status_code == 200
    assert keyed.post("/shanten", json=HAND, headers={"authorization": f"bearer  {key}"}).status_code == 200
    assert keyed.get("/rules", headers={"x-api-key": key}).status_code == 200


def test_the_key_is_checked_before_the_answer_cache(keyed: TestClient) -> None:
    body = {"hand": "19m19p19s1234567z"}
    assert keyed.post("/ting", json=body, headers={"x-api-key": KEYS[0]}).status_code == 200
    # The same body again, now a cache replay candidate: still refused without a key.
    assert keyed.post("/ting", json=body).status_code == 401


def test_the_key_is_checked_before_the_body_is_read(keyed: TestClient) -> None:
    oversized = {"hand": "1m", "visible": " " * 8000}
    assert keyed.post("/shanten", json=oversized).status_code == 401
    assert keyed.post("/shanten", json=oversized, headers={"x-api-key": KEYS[1]}).status_code == 413


@pytest.mark.parametrize("path", ["/health", "/ready", "/docs", "/redoc", "/openapi.json", "/metrics"])
def test_probes_docs_and_metrics_stay_open(keyed: TestClient, path: str) -> None:
    assert keyed.get(path).status_code == 200


def test_doc_assets_stay_open(keyed: TestClient) -> None:
    assert keyed.get("/static/docs/swagger-ui.css").status_code == 200


@pytest.mark.parametrize("path", ["/docs", "/redoc", "/openapi.json", "/metrics", "/static/docs/swagger-ui.css"])
def test_protect_docs_locks_docs_and_metrics(locked_docs: TestClient, path: str) -> None:
    assert locked_docs.get(path).status_code == 401
    assert locked_docs.get(path, headers={"x-api-key": KEYS[0]}).status_code == 200


@pytest.mark.parametrize("path", ["/health", "/ready"])
def test_protect_docs_keeps_the_probes_open(locked_docs: TestClient, path: str) -> None:
    assert locked_docs.get(path).status_code == 200


def test_refusals_are_counted_in_the_metrics(keyed: TestClient) -> None:
    keyed.post("/win", json=HAND)
    text = keyed.get("/metrics").text
    assert 'tenpai_http_requests_total{method="POST",route="/win",status="401"}' in text
    assert 'tenpai_http_errors_total{code="unauthorized"}' in text


def test_presented_key_prefers_x_api_key() -> None:
    headers = [(b"authorization", b"Bearer from-bearer"), (b"x-api-key", b"from-header")]
    assert presented_key(headers) == b"from-header"
    assert presented_key([(b"authorization", b"Bearer ")]) is None
    assert presented_key([(b"x-api-key", b"")]) is None


def test_keys_and_origins_come_comma_separated_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TENPAI_API_KEYS", f" {KEYS[0]} ,{KEYS[1]},")
    monkeypatch.setenv("TENPAI_CORS_ORIGINS", "https://game.example, http://localhost:3000")
    settings = Settings()
    assert [key.get_secret_value() for key in settings.api_keys] == list(KEYS)
    assert settings.cors_origins == ("https://game.example", "http://localhost:3000")
    assert KEYS[0] not in repr(settings) and KEYS[0] not in str(settings.model_dump())


def test_cors_is_off_by_default(client: TestClient) -> None:
    response = client.post("/shanten", json=HAND, headers={"origin": "https://game.example"})
    assert "access-control-allow-origin" not in response.headers


def test_cors_allows_the_configured_origins_even_with_keys() -> None:
    client = started(Settings(cors_origins=("https://game.example",), api_keys=KEYS[:1]))
    try:
        preflight = {
            "origin": "https://game.example",
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type, x-api-key",
        }
        # A browser's preflight carries no key; it must still succeed.
        response = client.options("/shanten", headers=preflight)
        assert response.status_code == 200
        assert response.headers["access-control-allow-origin"] == "https://game.example"
        assert "x-api-key" in response.headers["access-control-allow-headers"].lower()
        refused = client.options("/shanten", headers={**preflight, "origin": "https://evil.example"})
        assert refused.status_code == 400
        answer = client.post("/shanten", json=HAND, headers={"origin": "https://game.example", "x-api-key": KEYS[0]})
        assert answer.headers["access-control-allow-origin"] == "https://game.example"
        assert "x-request-id" in answer.headers["access-control-expose-headers"].lower()
        # A 401 carries the CORS headers too, so the page can read why.
        assert (
            client.post("/shanten", json=HAND, headers={"origin": "https://game.example"}).headers[
                "access-control-allow-origin"
            ]
            == "https://game.example"
        )
    finally:
        client.__exit__(None, None, None)


# --- POST /cache/clear is an administrator's ------------------------------------


def _client(settings: Settings, peer: tuple[str, int]) -> TestClient:
    # Clearing needs no lookup tables, so the app need not be ready.
    return TestClient(create_app(settings), client=peer)


def _assert_forbidden(response: httpx.Response, msg: str) -> None:
    assert response.status_code == 403, response.text
    assert response.json() == {
        "error": "forbidden",
        "detail": [{"type": "forbidden", "loc": ["header", "x-admin-key"], "msg": msg, "input": None, "ctx": None}],
    }


@pytest.mark.parametrize("peer", LOOPBACKS)
def test_without_admin_keys_a_loopback_client_may_clear(peer: tuple[str, int]) -> None:
    with _client(Settings(), peer) as client:
        response = client.post("/cache/clear")
    assert response.status_code == 200
    assert response.json()["size"] == 0


@pytest.mark.parametrize("peer", [REMOTE, ("10.0.0.2", 1), ("::ffff:10.0.0.2", 1), ("testclient", 50000)])
def test_without_admin_keys_any_other_client_is_403(peer: tuple[str, int]) -> None:
    with _client(Settings(), peer) as client:
        _assert_forbidden(
            client.post("/cache/clear"),
            "only a client on the loopback interface may do this (no admin keys are configured)",
        )
        # Reading the counters stays open.
        assert client.get("/cache/stats").status_code == 200


@pytest.mark.parametrize("peer", [REMOTE, LOOPBACKS[0]])
def test_with_admin_keys_only_an_admin_key_may_clear(peer: tuple[str, int]) -> None:
    with _client(Settings(admin_keys=ADMIN_KEYS), peer) as client:
        # Loopback is no longer enough once keys are configured.
        _assert_forbidden(client.post("/cache/clear"), "an admin key is required: send it in the X-Admin-Key header")
        for wrong in ("wrong", ADMIN_KEYS[0][:-1], ""):
            _assert_forbidden(client.post("/cache/clear", headers={"x-admin-key": wrong}), "the admin key is not valid")
        for key in ADMIN_KEYS:
            assert client.post("/cache/clear", headers={"x-admin-key": key}).status_code == 200


def test_with_api_keys_an_api_key_alone_cannot_clear() -> None:
    settings = Settings(api_keys=KEYS, admin_keys=ADMIN_KEYS)
    with _client(settings, REMOTE) as client:
        # No API key: refused by the key check before the admin check.
        assert client.post("/cache/clear", headers={"x-admin-key": ADMIN_KEYS[0]}).status_code == 401
        _assert_forbidden(
            client.post("/cache/clear", headers={"x-api-key": KEYS[0]}),
            "an admin key is required: send it in the X-Admin-Key header",
        )
        # An admin key is not an API key either.
        assert client.post("/cache/clear", headers={"x-api-key": ADMIN_KEYS[0]}).status_code == 401
        both = {"x-api-key": KEYS[1], "x-admin-key": ADMIN_KEYS[1]}
        assert client.post("/cache/clear", headers=both).status_code == 200
        assert client.get("/cache/stats", headers={"x-api-key": KEYS[0]}).status_code == 200


def test_admin_keys_come_comma_separated_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TENPAI_ADMIN_KEYS", f"{ADMIN_KEYS[0]}, {ADMIN_KEYS[1]}")
    settings = Settings()
    assert [key.get_secret_value() for key in settings.admin_keys] == list(ADMIN_KEYS)
    assert ADMIN_KEYS[0] not in repr(settings)


def test_loopback_means_the_loopback_interface_only() -> None:
    assert all(is_loopback(host) for host, _ in LOOPBACKS)
    assert is_loopback("::ffff:127.0.0.1")
    for host in ("203.0.113.7", "0.0.0.0", "::", "128.0.0.1", "localhost", "testclient", "", None):
        assert not is_loopback(host), host


# --- the analyzer page ------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/analyze", "/static/analyze/app.js", "/static/analyze/style.css"])
def test_the_analyzer_sends_its_security_headers(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"
    assert "default-src 'self'" in response.headers["content-security-policy"]
