"""The hand analyzer page (GET / and /analyze) and its assets are served by the service itself."""

from __future__ import annotations

import re
from html.parser import HTMLParser

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


class _Controls(HTMLParser):
    """The page's form controls, labels, ``aria-describedby`` references, ids and inline code."""

    def __init__(self) -> None:
        super().__init__()
        self.controls: dict[str, dict[str, str | None]] = {}
        self.labelled: set[str] = set()
        self.ids: set[str] = set()
        self.described_by: list[str] = []
        self.inline: list[str] = []
        self.form: str | None = None
        self.in_form: dict[str, list[str]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if attributes.get("id"):
            self.ids.add(attributes["id"])
        if tag == "form":
            self.form = attributes.get("id")
        if tag == "label" and attributes.get("for"):
            self.labelled.add(attributes["for"])
        if tag in ("input", "select", "textarea"):
            self.controls[attributes["id"]] = attributes
            if self.form:
                self.in_form.setdefault(self.form, []).append(attributes["id"])
        self.described_by += (attributes.get("aria-describedby") or "").split()
        self.inline += [name for name in attributes if name.startswith("on") or name == "style"]
        if tag == "script" and not attributes.get("src"):
            self.inline.append("<script> without src")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.form = None


def _controls(client: TestClient) -> _Controls:
    parser = _Controls()
    parser.feed(client.get("/").text)
    return parser


def test_every_control_is_labelled_and_nothing_is_inline(client: TestClient) -> None:
    page = _controls(client)
    assert {"hand", "win", "by", "seat", "round", "riichi", "dora"} <= set(page.controls)
    assert set(page.controls) <= page.labelled, set(page.controls) - page.labelled
    assert set(page.described_by) <= page.ids, set(page.described_by) - page.ids
    assert page.inline == []  # the CSP (script-src and style-src 'self') would block them


def test_value_controls_are_the_url_state(client: TestClient) -> None:
    """Every situation control is kept in the shareable URL, and nothing else is."""
    script = client.get("/static/analyze/app.js").text
    defaults = re.search(r"const VALUE_DEFAULTS = \{([^}]*)\}", script)
    assert defaults, "app.js names the value panel's URL state in VALUE_DEFAULTS"
    kept = set(re.findall(r"(\w+):", defaults.group(1)))
    assert kept == set(_controls(client).in_form["value-form"])


def test_score_request_uses_only_fields_of_the_score_route(client: TestClient) -> None:
    """The page's /score question and its error mapping name fields the route really has."""
    script = client.get("/static/analyze/app.js").text
    schema = client.get("/openapi.json").json()["components"]["schemas"]["ScoreRequest"]["properties"]
    request = re.search(r"function scoreRequest\(.*?\n\}\n", script, re.DOTALL)
    assert request, "app.js builds the /score question in scoreRequest()"
    sent = set(re.findall(r"^ {4}(\w+)(?:,|:)", request.group(0), re.MULTILINE))
    sent |= set(re.findall(r"body\.(\w+) =", request.group(0)))
    assert {
        "hand",
        "melds",
        "win_tile",
        "rules",
        "winner",
        "dealer",
        "discarder",
        "round_wind",
        "riichi",
        "dora_indicators",
    } == sent
    assert sent <= set(schema), sent - set(schema)
    shown = re.search(r"const SCORE_FIELDS = \{([^}]*)\}", script)
    assert shown and set(re.findall(r"(\w+):", shown.group(1))) <= set(schema)


def test_no_yaku_is_told_in_words(client: TestClient) -> None:
    """The page recognises the route's no_yaku answer (a 400 whose code is no_yaku)."""
    script = client.get("/static/analyze/app.js").text
    assert 'detail?.type === "no_yaku"' in script
    answer = client.post(
        "/score",
        json={
            "hand": "11m123m456p789s345s",
            "win_tile": "4s",
            "rules": "riichi",
            "winner": 1,
            "dealer": 0,
            "discarder": 0,
        },
    )
    assert answer.status_code == 400 and answer.json()["detail"][0]["type"] == "no_yaku"


# --- rule presets and the discard table's claims -------------------------------------------


def _fallback_presets(client: TestClient) -> list[str]:
    select = re.search(r'<select id="rules".*?</select>', client.get("/").text, re.DOTALL)
    assert select, "the page has a rules <select>"
    return re.findall(r'<option value="(\w+)"', select.group(0))


def test_rules_come_from_the_rules_route_with_a_list_of_the_page_own_behind(client: TestClient) -> None:
    """The page asks GET /rules for its presets; the list written in the page, which stays when
    that fails, names only presets the service has, its default among them."""
    script = client.get("/static/analyze/app.js").text
    assert "/rules" in _FETCHES.findall(script)
    rules = client.get("/rules").json()
    presets = [preset["name"] for preset in rules["presets"]]
    fallback = _fallback_presets(client)
    assert fallback and set(fallback) <= set(presets), set(fallback) - set(presets)
    assert rules["default"] in fallback
    assert "sanma" in fallback and "mcr" in fallback


def _discard(client: TestClient, body: dict) -> dict:
    response = client.post("/discard", json=body)
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.parametrize("model", ["expected_score", "linear"])
def test_the_tables_sums_hold_for_every_preset(client: TestClient, model: str) -> None:
    """What the discard table's captions say of each model holds for every preset's answer:
    expected points less the deal-in cost is the score; the linear terms add up to the linear
    score, which is the score when the linear model ranks; the candidates come best first."""
    for preset in client.get("/rules").json()["presets"]:
        # No 2m..8m: a sanma hand too; where the set has no honours (sichuan), sou in their place.
        hand = "111m456p789s1122s5s" if "1z" in preset["absent_tiles"] else "111m456p789s1122z5z"
        # Where an indicator chooses the wildcards, the request names them (white, as a flip of 7z would).
        rules = (
            {"preset": preset["name"], "wildcards": "5z"} if preset.get("wildcards_from_indicator") else preset["name"]
        )
        answer = _discard(client, {"hand": hand, "rules": rules, "model": model})
        scores = [candidate["score"] for candidate in answer["candidates"]]
        if answer["model"] != "fan_plan":
            assert scores == sorted(scores, reverse=True), preset["name"]
        for candidate in answer["candidates"]:
            assert sum(candidate["components"].values()) == pytest.approx(candidate["linear_score"], abs=1e-5)
            if answer["model"] == "linear":
                assert candidate["score"] == candidate["linear_score"]
            if answer["model"] == "expected_score":
                expected = candidate["expected_score"] - candidate["deal_in_cost"]
                assert candidate["score"] == pytest.approx(expected, abs=1e-5)


def test_the_fan_plan_ranks_as_the_caption_says(client: TestClient) -> None:
    """MCR's fan plan ranks by fewest tiles needed, then most helping tiles plus the caption's
    share per target fan."""
    script = client.get("/static/analyze/app.js").text
    share = re.search(r"plus ([\d.]+) per target fan", script)
    assert share, "the fan plan's caption names its share per target fan"
    for hand in ("123m456p789s1122z5z", "147m258p369s1234z5z", "19m19p19s1234567z1m"):
        answer = _discard(client, {"hand": hand, "rules": "mcr"})
        assert answer["model"] == "fan_plan"
        plans = [candidate["fan_plan"] for candidate in answer["candidates"]]
        order = [
            (plan["need"], -(plan["helping_tiles"] + float(share.group(1)) * plan["target_fan"])) for plan in plans
        ]
        assert order == sorted(order), hand


def test_the_void_suit_is_an_input_of_the_rules_that_have_one(client: TestClient) -> None:
    """Sichuan is on the page's own list; its void suit is a labelled choice of auto, m, p and s,
    asked for by the presets GET /rules marks `void_suit`, and sent as the routes' `void_suit`."""
    page = client.get("/").text
    assert "sichuan" in _fallback_presets(client)
    select = re.search(r'<select id="void_suit".*?</select>', page, re.DOTALL)
    assert select and re.findall(r'<option value="(\w*)"', select.group(0)) == ["", "m", "p", "s"]
    assert "void_suit" in _controls(client).controls
    voided = {
        preset["name"] for preset in client.get("/rules").json()["presets"] if preset.get("void_suit")
    }  # only Sichuan's family has the option
    assert voided == {"sichuan"}
    script = client.get("/static/analyze/app.js").text
    assert "preset?.void_suit === true" in script and "body.void_suit = state.void_suit" in script
    for path in ("/shanten", "/ting", "/discard"):
        assert (
            "void_suit"
            in client.get("/openapi.json").json()["components"]["schemas"][
                {"/shanten": "HandRequest", "/ting": "TingRequest", "/discard": "DiscardRequest"}[path]
            ]["properties"]
        )


# --- the game review section -----------------------------------------------------------------


def test_the_review_section_has_its_labelled_controls(client: TestClient) -> None:
    """A log (pasted or from a file), a seat, one hand or all, the rules, a Review button; the
    timeline and the opened decision are labelled regions, empty until a review answers."""
    page = client.get("/").text
    controls = _controls(client)
    review = {"review-log", "review-file", "review-seat", "review-hand", "review-rules"}
    assert review <= set(controls.in_form["review-form"])
    assert review <= controls.labelled
    assert controls.controls["review-file"]["type"] == "file"
    assert re.search(r'<textarea id="review-log"', page)
    assert re.search(r'<button id="review-run" type="submit">Review</button>', page)
    assert re.search(r'<nav id="review-timeline" class="timeline" aria-label="[^"]+"', page)
    assert re.search(r'<div id="review-result" hidden>', page)
    assert re.search(r'<section id="review-detail"[^>]* hidden aria-labelledby="detail-title"', page)
    seats = re.search(r'<select id="review-seat".*?</select>', page, re.DOTALL)
    assert seats and re.findall(r'<option value="(\d)"', seats.group(0)) == ["0", "1", "2", "3"]
    presets = {preset["name"] for preset in client.get("/rules").json()["presets"]}
    rules = re.search(r'<select id="review-rules".*?</select>', page, re.DOTALL)
    assert rules and set(re.findall(r'<option value="(\w+)"', rules.group(0))) == {"riichi", "sanma"} <= presets


def test_the_review_asks_the_review_and_act_routes_with_their_own_fields(client: TestClient) -> None:
    """The page sends /review the fields the route has (events or log, seat, rules, kyoku) and asks /act,
    with the events up to a decision's index, for the ranking it shows."""
    script = client.get("/static/analyze/app.js").text
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    run = re.search(r"async function runReview\(.*?\n\}\n", script, re.DOTALL)
    assert run, "app.js asks /review in runReview()"
    sent = set(re.findall(r"\{ (seat): .*?, (rules): ", run.group(0))[0]) | set(
        re.findall(r"body\.(\w+) =", run.group(0))
    )
    assert {"seat", "rules", "events", "kyoku", "log"} == sent
    assert sent <= set(schemas["ReviewRequest"]["properties"])
    # A log in another format is read by the service, and the page gets its mjai events from /records/convert.
    read = re.search(r"async function convertedLog\(.*?\n\}\n", script, re.DOTALL)
    assert read and 'post("/records/convert", { log: text, to: "mjai", rules:' in read.group(0)
    assert {"log", "to", "rules"} <= set(schemas["ConvertRequest"]["properties"])
    ranking = re.search(r"async function showRanking\(.*?\n\}\n", script, re.DOTALL)
    assert ranking and 'post("/act"' in ranking.group(0)
    assert "events: reviewState.events.slice(0, decision.index + 1)" in ranking.group(0)
    assert {"seat", "rules", "events"} <= set(schemas["ActRequest"]["properties"])
