"""The play page (GET /play) and its assets are served by the service itself, like the analyzer.

What a browser does with them is tests/api/test_play_browser.py; here: the page loads only its
own assets (shared.js before play.js), every control is labelled and nothing is inline (the CSP
would block it), and the script calls only the public API's routes.
"""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from test_analyze_page import _ABSOLUTE, _REFERENCES, _Controls

ASSETS = ("/static/analyze/shared.js", "/static/analyze/play.js", "/static/analyze/style.css")
# fetch("/x") and post("/x"), and the hosted table's routes, which the page builds with tablePath().
_CALLS = re.compile(r"""(?:fetch|post)\(\s*["'`]([^"'`]+)["'`]""")
_TABLE_ROUTES = re.compile(r"""tablePath\([^,)]+(?:,\s*["'`]([^"'`]*)["'`])?\)""")


def test_the_page_loads_its_own_assets_shared_first(client: TestClient) -> None:
    response = client.get("/play")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in response.headers["content-security-policy"]
    html = response.text
    assert not _ABSOLUTE.findall(html), _ABSOLUTE.findall(html)
    references = [ref for ref in _REFERENCES.findall(html) if not ref.startswith("data:")]
    scripts = [ref for ref in references if ref.endswith(".js")]
    assert scripts == ["/static/analyze/shared.js", "/static/analyze/play.js"]
    assert set(ASSETS) <= set(references)
    for path in ASSETS:
        asset = client.get(path)
        assert asset.status_code == 200 and not _ABSOLUTE.findall(asset.text)
    # The analyzer loads the same shared script, before its own.
    analyzer = [ref for ref in _REFERENCES.findall(client.get("/").text) if ref.endswith(".js")]
    assert analyzer == ["/static/analyze/shared.js", "/static/analyze/app.js"]


def test_every_control_is_labelled_and_nothing_is_inline(client: TestClient) -> None:
    page = _Controls()
    page.feed(client.get("/play").text)
    assert {"rules", "length", "seat", "decision_seconds", "bank_seconds", "seed"} == set(page.in_form["new-table"])
    assert set(page.controls) <= page.labelled, set(page.controls) - page.labelled
    assert set(page.described_by) <= page.ids, set(page.described_by) - page.ids
    assert page.inline == []


def test_the_page_asks_only_public_routes_with_their_own_fields(client: TestClient) -> None:
    script = client.get("/static/analyze/play.js").text
    shared = client.get("/static/analyze/shared.js").text
    schema = client.get("/openapi.json").json()
    public = set(schema["paths"])
    called = set(_CALLS.findall(script))
    assert called == {"/tables", "/act"} and called <= public
    tails = set(_TABLE_ROUTES.findall(script + shared))
    assert {f"/tables/{{table}}{tail}" for tail in tails} <= public | {"/tables/{table}/ws"}
    assert "/tables/{table}" in public and "/tables/{table}/record" in public and "/tables/{table}/actions" in public
    # The table is opened with the fields POST /tables has, the advice asked with /act's.
    schemas = schema["components"]["schemas"]
    opened = re.search(r"const clock = \{ (.*?) \};\n  const body = \{ (.*?) \};", script)
    assert opened, "play.js opens the table with one body and its clock"
    keys = [set(re.findall(r"(?:^|, )(\w+)", part)) for part in opened.groups()]
    assert keys == [{"decision_seconds", "bank_seconds"}, {"rules", "length", "seats", "clock", "seed"}]
    request = schemas["OpenTableRequest"]["properties"]
    assert keys[1] <= set(request)
    clock = schemas[request["clock"]["$ref"].rsplit("/", 1)[-1]]["properties"]
    assert keys[0] <= set(clock)
    assert "const body = { seat: play.seat, rules: play.rules, events: view.events };" in script
    assert {"seat", "rules", "events"} <= set(schemas["ActRequest"]["properties"])


def test_the_page_is_not_in_the_schema(client: TestClient) -> None:
    assert "/play" not in client.get("/openapi.json").json()["paths"]
