"""The hand analyzer page works in a real browser and loads nothing from elsewhere.

Starts uvicorn on a free 127.0.0.1 port, opens / in headless Chromium, types hands,
reads shanten, waits and the ranked discards off the page (the expected answers are
asked of the same service's API), clicks a discard, reads a complete riichi hand's
value (yaku, han, fu, payments) as the situation controls change, follows shared links
under every preset GET /rules lists, reads the discard table under each ranking model,
and saves screenshots to the pytest tmp dir and to ``test-artifacts/`` for review.
Needs Debian's ``chromium`` and ``chromium-driver``; skipped without them, like
test_docs_browser.py.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, urlencode

import httpx
import pytest

from app.api.schemas.discard import DISCARD_EXAMPLES

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
from browser_helpers import PAGE_TIMEOUT_SECONDS, ROOT, browser_tests, headless_chrome, uvicorn_service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

ARTIFACTS = ROOT / "test-artifacts"
pytestmark = browser_tests


@pytest.fixture(scope="module")
def service_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with uvicorn_service(tmp_path_factory.mktemp("uvicorn")) as url:
        yield url


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[webdriver.Chrome]:
    driver = headless_chrome(tmp_path, "1280,1400")
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def phone(tmp_path: Path) -> Iterator[webdriver.Chrome]:
    driver = headless_chrome(tmp_path, "390,844")
    # A phone's viewport, so that the page's viewport meta and media queries apply.
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True},
    )
    try:
        yield driver
    finally:
        driver.quit()


def _requests_that_left(driver: webdriver.Chrome, service_url: str) -> list[str]:
    """Network URLs the page asked for outside the service (even blocked ones: there should be none)."""
    asked = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            url = message["params"]["request"]["url"]
            if url.startswith(("http:", "https:", "ws:", "wss:")) and not url.startswith(service_url + "/"):
                asked.append(url)
    return asked


def _api(service_url: str, path: str, body: dict) -> dict:
    response = httpx.post(f"{service_url}{path}", json=body, timeout=10, trust_env=False)
    assert response.status_code == 200, response.text
    return response.json()


def _settled_discard(service_url: str, body: dict) -> dict:
    """The /discard answer once its value search ran to the end (so cached, and what the page
    gets too): the first search of a fresh service can meet the time budget while tables load."""
    for _ in range(3):
        answer = _api(service_url, "/discard", body)
        if answer["value_search"] is None or answer["value_search"]["complete"]:
            return answer
    raise AssertionError(f"the value search never completed: {answer['value_search']}")


def _screenshot(driver: webdriver.Chrome, tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    # The whole page, not only the window: Chromium's DevTools capture beyond the viewport.
    metrics = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
    size = metrics.get("cssContentSize") or metrics["contentSize"]
    shot = driver.execute_cdp_cmd(
        "Page.captureScreenshot",
        {
            "format": "png",
            "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1},
        },
    )
    import base64

    path.write_bytes(base64.b64decode(shot["data"]))
    ARTIFACTS.mkdir(exist_ok=True)
    shutil.copyfile(path, ARTIFACTS / name)
    return path


def _wait_for_result(driver: webdriver.Chrome, hand: str) -> None:
    """Wait until the page shows the analysis of ``hand`` (in the URL and drawn)."""
    wait = WebDriverWait(driver, PAGE_TIMEOUT_SECONDS)
    wait.until(
        lambda d: d.execute_script(
            "return !document.body.classList.contains('busy') && !document.getElementById('result').hidden"
            " && new URLSearchParams(location.search).get('hand') === arguments[0]",
            hand,
        )
    )


def _tiles(driver: webdriver.Chrome, container: str) -> list[str]:
    return [
        element.get_attribute("data-tile") for element in driver.find_elements(By.CSS_SELECTOR, f"#{container} .tile")
    ]


def test_type_a_hand_discard_and_see_the_waits(service_url: str, browser: webdriver.Chrome, tmp_path: Path) -> None:
    hand = "123m456p789s1122z5z"  # 14 tiles: throwing the lone 5z leaves tenpai on 1z/2z
    discard = _settled_discard(service_url, {"hand": hand})
    shanten = _api(service_url, "/shanten", {"hand": hand})
    best = discard["candidates"][0]

    browser.get(f"{service_url}/")
    try:
        box = browser.find_element(By.ID, "hand")
        box.send_keys(hand)
        browser.find_element(By.ID, "analyze").click()
        _wait_for_result(browser, hand)

        assert browser.find_element(By.ID, "verdict").get_attribute("data-shanten") == str(shanten["shanten"])
        assert _tiles(browser, "hand-view") == sorted(
            ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "2z", "2z", "5z"],
            key=lambda name: ("mpsz".index(name[1]), name[0]),
        )
        forms = {
            row.get_attribute("data-form"): row.find_elements(By.TAG_NAME, "td")[1].text
            for row in browser.find_elements(By.CSS_SELECTOR, "#forms tbody tr")
        }
        # A form the rules do not allow (riichi: the knitted forms) reads "not allowed".
        assert forms == {
            form: "not allowed" if value is None else str(value) for form, value in shanten["forms"].items()
        }
        assert forms["knitted_straight"] == "not allowed"
        rows = browser.find_elements(By.CSS_SELECTOR, "#discards tbody tr")
        assert [row.get_attribute("data-tile") for row in rows] == [c["tile"] for c in discard["candidates"]]
        assert rows[0].get_attribute("data-tile") == discard["best"] == best["tile"] == "5z"
        assert float(rows[0].find_element(By.CSS_SELECTOR, "td.ranks").get_attribute("data-value")) == best["score"]
        _screenshot(browser, tmp_path, "analyze-14.png")

        rows[0].find_element(By.CSS_SELECTOR, "button.discard").click()
        after = "123m456p789s1122z"
        _wait_for_result(browser, after)
        assert browser.find_element(By.ID, "hand").get_attribute("value") == after
        ting = _api(service_url, "/ting", {"hand": after})
        waits = browser.find_elements(By.CSS_SELECTOR, "#waits .counted")
        assert (
            [
                (
                    w.find_element(By.CSS_SELECTOR, ".tile").get_attribute("data-tile"),
                    w.find_element(By.CSS_SELECTOR, ".count").text,
                )
                for w in waits
            ]
            == [(wait["tile"], f"×{wait['remaining']}") for wait in ting["waits"]]
            == [("1z", "×2"), ("2z", "×2")]
        )
        assert browser.find_element(By.ID, "verdict").get_attribute("data-shanten") == "0"
        assert browser.find_element(By.ID, "discards-block").get_attribute("hidden") is not None
        _screenshot(browser, tmp_path, "analyze.png")

        browser.back()  # the URL history holds the hand before the discard
        _wait_for_result(browser, hand)
    except Exception:
        browser.save_screenshot(str(tmp_path / "failure.png"))
        raise
    assert _requests_that_left(browser, service_url) == []


def test_shared_url_analyses_at_once_and_errors_show_by_the_input(
    service_url: str, browser: webdriver.Chrome, tmp_path: Path
) -> None:
    hand = "一万二万三万 四筒五筒六筒 七条八条 九条九条 中"
    body = {"hand": hand, "melds": [{"kind": "pon", "tiles": "111z"}], "rules": "qiqihar", "visible": "9s"}
    expected = _api(service_url, "/discard", body)
    browser.get(f"{service_url}/analyze?hand={quote(hand)}&rules=qiqihar&melds={quote('pon:111z')}&visible=9s")
    _wait_for_result(browser, hand)
    assert browser.find_element(By.ID, "rules").get_attribute("value") == "qiqihar"
    assert _tiles(browser, "meld-view") == ["1z", "1z", "1z"]
    rows = browser.find_elements(By.CSS_SELECTOR, "#discards tbody tr")
    assert rows[0].get_attribute("data-tile") == expected["best"]

    box = browser.find_element(By.ID, "hand")
    box.clear()
    box.send_keys("123m45x6p")
    browser.find_element(By.ID, "analyze").click()
    error = browser.find_element(By.ID, "hand-error")
    WebDriverWait(browser, PAGE_TIMEOUT_SECONDS).until(lambda _: error.is_displayed())
    assert "unexpected character 'x' at position 6" in error.text
    assert "body.hand" in error.text
    assert box.get_attribute("aria-invalid") == "true"

    melds = browser.find_element(By.ID, "melds")
    box.clear()
    box.send_keys("123m456p789s1z")
    melds.clear()
    melds.send_keys("pon:11z")
    browser.find_element(By.ID, "analyze").click()
    melds_error = browser.find_element(By.ID, "melds-error")
    WebDriverWait(browser, PAGE_TIMEOUT_SECONDS).until(lambda _: melds_error.is_displayed())
    assert "a pon has 3 tiles" in melds_error.text and "body.melds.0.tiles" in melds_error.text
    assert _requests_that_left(browser, service_url) == []


def test_phone_sized_screen(service_url: str, phone: webdriver.Chrome, tmp_path: Path) -> None:
    hand = "23m456p789s11122z4p"
    expected = _api(service_url, "/discard", {"hand": hand})
    phone.get(f"{service_url}/?hand={hand}")
    _wait_for_result(phone, hand)
    rows = phone.find_elements(By.CSS_SELECTOR, "#discards tbody tr")
    assert rows[0].get_attribute("data-tile") == expected["best"]
    width = phone.execute_script("return [window.innerWidth, document.documentElement.scrollWidth]")
    assert width[0] == 390 and width[1] <= 390, width  # nothing runs off the side of the screen
    hand_box = phone.execute_script(
        "const r = document.getElementById('hand-view').getBoundingClientRect(); return [r.left, r.right]"
    )
    assert 0 <= hand_box[0] and hand_box[1] <= 390, hand_box
    # The discard table fits its box, so that its caption (the model that ranked) reads whole.
    table = phone.execute_script(
        "const t = document.getElementById('discards'); return [t.parentElement.clientWidth, t.scrollWidth]"
    )
    assert table[1] <= table[0], table
    _screenshot(phone, tmp_path, "analyze-phone.png")
    assert _requests_that_left(phone, service_url) == []


# --- the value of a complete riichi hand -------------------------------------------


def _value(driver: webdriver.Chrome) -> dict:
    """What the value panel shows: summary data, yaku, payments by seat, or its message."""
    shown = driver.execute_script("""
        const summary = document.getElementById('value-summary');
        const message = document.getElementById('value-message');
        return {
          busy: document.getElementById('value-block').classList.contains('busy'),
          shown: !document.getElementById('value-block').hidden,
          answer: !document.getElementById('value-answer').hidden,
          message: message.hidden ? null : message.textContent,
          han: summary.dataset.han, fu: summary.dataset.fu, limit: summary.dataset.limit,
          points: summary.dataset.points, summary: summary.textContent,
          yaku: [...document.querySelectorAll('#yaku li')].map((li) => [li.dataset.yaku, Number(li.dataset.han)]),
          payments: [...document.querySelectorAll('#payments tbody tr[data-seat]')]
            .map((row) => row.cells[1].textContent.replace('\u2212', '-')).map(Number),
          url: Object.fromEntries(new URLSearchParams(location.search)),
        };""")
    shown["yaku"] = [tuple(item) for item in shown["yaku"]]
    return shown


def _wait_for_value(driver: webdriver.Chrome, expected: dict) -> dict:
    """Wait until the value panel shows ``expected`` (the /score answer) and return what it shows."""
    shown: dict = {}

    def matches(d: webdriver.Chrome) -> bool:
        nonlocal shown
        shown = _value(d)
        return (
            not shown["busy"]
            and shown["answer"]
            and shown["han"] == str(expected["han"])
            and shown["fu"] == str(expected["fu"])
            and shown["payments"] == expected["payments"]
        )

    try:
        WebDriverWait(driver, PAGE_TIMEOUT_SECONDS).until(matches)
    except Exception as error:
        raise AssertionError(f"the page shows {shown}, the API says {expected}") from error
    return shown


def _choose(driver: webdriver.Chrome, control: str, value: str) -> None:
    Select(driver.find_element(By.ID, control)).select_by_value(value)


def _score_request(hand: str, win_tile: str, **situation: object) -> dict:
    """The /score question the page should ask (winner South, dealer East, by default)."""
    return {
        "hand": hand,
        "win_tile": win_tile,
        "rules": "riichi",
        "winner": 1,
        "dealer": 0,
        "discarder": 0,
        "round_wind": "1z",
        "riichi": False,
    } | situation


def test_winning_hand_shows_its_value(service_url: str, browser: webdriver.Chrome, tmp_path: Path) -> None:
    hand, melds = "234456m66p789s", [{"kind": "pon", "tiles": "777z"}]
    # A win on the last tile typed (9s) off the dealer's discard: chun 1 han, 20 + 4 (open 7z pon) -> 30 fu.
    ron = _api(service_url, "/score", _score_request(hand, "9s", melds=melds))
    assert (ron["han"], ron["fu"], ron["payments"]) == (1, 30, [-1000, 1000, 0, 0])

    browser.get(f"{service_url}/")
    try:
        browser.find_element(By.ID, "hand").send_keys(hand)
        browser.find_element(By.ID, "melds").send_keys("pon:777z")
        browser.find_element(By.ID, "analyze").click()
        _wait_for_result(browser, hand)
        shown = _wait_for_value(browser, ron)
        assert shown["yaku"] == [("chun", 1)]
        assert shown["limit"] == "" and shown["points"] == "1000"
        assert "1 han 30 fu · 1000 points (1000 from East)" in shown["summary"]
        assert browser.find_element(By.ID, "fu-title").text == "Fu: 30 (24 rounded up)"
        assert browser.find_element(By.ID, "win").get_attribute("value") == ""  # the last tile typed
        assert "last typed (9s)" in browser.find_element(By.ID, "win").text

        # Self-draw with dora indicator 5p (6p dora, twice): chun 1 + dora 2 = 3 han, 20 + 2 + 4 -> 30 fu.
        tsumo = _api(
            service_url, "/score", _score_request(hand, "9s", melds=melds, discarder=None, dora_indicators="5p")
        )
        assert (tsumo["han"], tsumo["fu"], tsumo["payments"]) == (3, 30, [-2000, 4000, -1000, -1000])
        _choose(browser, "by", "tsumo")
        dora = browser.find_element(By.ID, "dora")
        dora.send_keys("5p")
        dora.submit()
        shown = _wait_for_value(browser, tsumo)
        assert shown["yaku"] == [("chun", 1), ("dora", 2)]
        assert "3 han 30 fu · 4000 points (1000/2000)" in shown["summary"]
        assert shown["url"] == {"hand": hand, "melds": "pon:777z", "by": "tsumo", "dora": "5p"}
        _screenshot(browser, tmp_path, "analyze-value.png")

        # Riichi with an open pon is impossible: the API's 422 shows by the checkbox.
        browser.find_element(By.ID, "riichi").click()
        error = browser.find_element(By.ID, "riichi-error")
        WebDriverWait(browser, PAGE_TIMEOUT_SECONDS).until(lambda _: error.is_displayed())
        assert "riichi needs a closed hand" in error.text
        assert _value(browser)["answer"] is False
    except Exception:
        browser.save_screenshot(str(tmp_path / "failure.png"))
        raise
    assert _requests_that_left(browser, service_url) == []


def test_no_yaku_and_a_chosen_winning_tile(service_url: str, browser: webdriver.Chrome, tmp_path: Path) -> None:
    hand = "11m123m456p789s354s"  # typed last: 4s, a closed wait (35s) with no yaku on a discard
    no_yaku = httpx.post(f"{service_url}/score", json=_score_request(hand, "4s"), timeout=10, trust_env=False)
    assert no_yaku.status_code == 400 and no_yaku.json()["detail"][0]["type"] == "no_yaku"

    browser.get(f"{service_url}/?hand={hand}")
    try:
        _wait_for_result(browser, hand)
        WebDriverWait(browser, PAGE_TIMEOUT_SECONDS).until(lambda d: _value(d)["message"])
        assert _value(browser)["message"] == "Complete, but no yaku: cannot be declared a win."
        _screenshot(browser, tmp_path, "analyze-no-yaku.png")

        # Won on 5s instead (34s waits two-sided): pinfu, and with riichi 2 han 30 fu.
        pinfu = _api(service_url, "/score", _score_request(hand, "5s", riichi=True))
        assert [y["name"] for y in pinfu["yaku"]] == ["riichi", "pinfu"] and pinfu["payments"][1] == 2000
        _choose(browser, "win", "5s")
        browser.find_element(By.ID, "riichi").click()
        shown = _wait_for_value(browser, pinfu)
        assert sorted(shown["yaku"]) == [("pinfu", 1), ("riichi", 1)]
        assert shown["url"] == {"hand": hand, "win": "5s", "riichi": "1"}

        # The address is the state: opened afresh, it shows the same value, East as dealer.
        dealer = _api(service_url, "/score", _score_request(hand, "5s", riichi=True, winner=0, discarder=3))
        browser.get(f"{service_url}/?hand={hand}&win=5s&riichi=1&seat=E")
        _wait_for_result(browser, hand)
        shown = _wait_for_value(browser, dealer)
        assert shown["points"] == "2900" and "from North" in shown["summary"]
        assert browser.find_element(By.ID, "seat").get_attribute("value") == "E"
        assert browser.find_element(By.ID, "riichi").is_selected()
    except Exception:
        browser.save_screenshot(str(tmp_path / "failure.png"))
        raise
    assert _requests_that_left(browser, service_url) == []


def test_value_on_a_phone(service_url: str, phone: webdriver.Chrome, tmp_path: Path) -> None:
    hand = "234456m66p789s"
    expected = _api(
        service_url,
        "/score",
        _score_request(hand, "9s", melds=[{"kind": "pon", "tiles": "777z"}], discarder=None, dora_indicators="5p"),
    )
    phone.get(f"{service_url}/?hand={hand}&melds={quote('pon:777z')}&by=tsumo&dora=5p")
    _wait_for_result(phone, hand)
    _wait_for_value(phone, expected)
    width = phone.execute_script("return [window.innerWidth, document.documentElement.scrollWidth]")
    assert width[0] == 390 and width[1] <= 390, width
    _screenshot(phone, tmp_path, "analyze-value-phone.png")
    assert _requests_that_left(phone, service_url) == []


# --- rule presets and shared links -------------------------------------------------------


def _rule_presets(service_url: str) -> tuple[list[str], str]:
    answer = httpx.get(f"{service_url}/rules", timeout=10, trust_env=False).json()
    # The page offers the presets it can ask about without naming the hand's wildcards.
    offered = [preset["name"] for preset in answer["presets"] if not preset.get("wildcards_from_indicator")]
    return offered, answer["default"]


def _offered(driver: webdriver.Chrome, source: str) -> list[str]:
    """The rules box's choices once the page has settled on a list (``rules``: GET /rules's)."""
    select = driver.find_element(By.ID, "rules")
    WebDriverWait(driver, PAGE_TIMEOUT_SECONDS).until(lambda _: select.get_attribute("data-source") == source)
    return [choice.get_attribute("value") for choice in Select(select).options]


def _absent_tiles(service_url: str) -> dict[str, list[str]]:
    answer = httpx.get(f"{service_url}/rules", timeout=10, trust_env=False).json()
    return {preset["name"]: preset["absent_tiles"] for preset in answer["presets"]}


def _address(driver: webdriver.Chrome) -> dict[str, str]:
    return driver.execute_script("return Object.fromEntries(new URLSearchParams(location.search))")


def _wait_for_rules(driver: webdriver.Chrome, hand: str, rules: str, default: str) -> None:
    """Wait until the page shows ``hand`` analysed under ``rules`` (the URL names no default)."""
    _wait_for_result(driver, hand)
    wanted = None if rules == default else rules
    WebDriverWait(driver, PAGE_TIMEOUT_SECONDS).until(
        lambda d: (
            d.execute_script("return new URLSearchParams(location.search).get('rules')") == wanted
            and d.find_element(By.ID, "rules").get_attribute("value") == rules
        ),
        f"the page did not settle on rules {rules!r}",
    )


def _discard_table(driver: webdriver.Chrome) -> dict:
    """The discard table as shown: its model, caption, figure columns (in a row's order), the
    headings of each, which ranks, and the rows (raw values and texts)."""
    return driver.execute_script("""
        const table = document.getElementById('discards');
        return {
          model: table.dataset.model,
          caption: document.getElementById('discards-caption').textContent,
          columns: [...(table.tBodies[0].rows[0]?.querySelectorAll('td[data-column]') ?? [])]
            .map((td) => td.dataset.column),
          headers: Object.fromEntries([...table.tHead.querySelectorAll('th[data-column]')]
            .map((th) => [th.dataset.column, th.textContent])),
          ranks: [...table.tHead.querySelectorAll('th.ranks')].map((th) => th.dataset.column),
          rows: [...table.tBodies[0].rows].map((row) => ({
            tile: row.dataset.tile,
            values: Object.fromEntries([...row.querySelectorAll('td[data-column]')]
              .map((td) => [td.dataset.column, td.dataset.value])),
            texts: Object.fromEntries([...row.querySelectorAll('td[data-column]')]
              .map((td) => [td.dataset.column, td.textContent])),
          })),
        };""")


def test_every_preset_survives_a_shared_link(service_url: str, browser: webdriver.Chrome, tmp_path: Path) -> None:
    """Every preset GET /rules lists is offered, and a link under it (with all the state a link
    carries) opens under it and is written back whole: the link a person copies is the one they
    opened. The first complaint: a link made with mcr reopened as riichi."""
    presets, default = _rule_presets(service_url)
    assert {"riichi", "mcr", "sanma", "sichuan"} <= set(presets)
    no_honours = {name for name, absent in _absent_tiles(service_url).items() if "1z" in absent}
    hand, melds, visible = "111m456p789s25z", "pon:111z", "9p"  # sanma's tiles: no 2m..8m
    situation = {"win": "5z", "by": "tsumo", "seat": "E", "round": "S", "riichi": "1", "dora": "5p"}
    browser.get(f"{service_url}/analyze")
    try:
        assert _offered(browser, "rules") == presets
        assert browser.find_element(By.ID, "rules").get_attribute("value") == default
        for rules in presets:
            # A set without honours (sichuan) gets the same hand with sou in their place.
            hand, melds = ("111m456p789s25s", "pon:111s") if rules in no_honours else ("111m456p789s25z", "pon:111z")
            body = {"hand": hand, "rules": rules, "melds": [{"kind": "pon", "tiles": melds[4:]}], "visible": visible}
            expected = _settled_discard(service_url, body)
            link = {"hand": hand, "rules": rules, "melds": melds, "visible": visible, **situation}
            browser.get(f"{service_url}/analyze?{urlencode(link)}")
            _wait_for_rules(browser, hand, rules, default)
            assert _address(browser) == {k: v for k, v in link.items() if (k, v) != ("rules", default)}, rules
            assert browser.find_element(By.ID, "rules-error").get_attribute("hidden") is not None
            shown = _discard_table(browser)
            assert shown["model"] == expected["model"], rules
            assert [row["tile"] for row in shown["rows"]] == [c["tile"] for c in expected["candidates"]], rules

        # A link made by choosing the rules on the page, then opened again.
        hand = "111m456p789s25z"
        browser.get(f"{service_url}/analyze?{urlencode({'hand': hand, 'melds': 'pon:111z'})}")
        _wait_for_rules(browser, hand, default, default)
        Select(browser.find_element(By.ID, "rules")).select_by_value("mcr")
        _wait_for_rules(browser, hand, "mcr", default)
        link = browser.current_url
        browser.get("about:blank")
        browser.get(link)
        _wait_for_rules(browser, hand, "mcr", default)
        assert _discard_table(browser)["model"] == "fan_plan"
        assert _address(browser)["rules"] == "mcr"
    except Exception:
        browser.save_screenshot(str(tmp_path / "failure.png"))
        raise
    assert _requests_that_left(browser, service_url) == []


def test_without_rules_list_the_page_offers_its_own(service_url: str, browser: webdriver.Chrome) -> None:
    """GET /rules unreachable: the page's own presets stay on offer and a link under one still
    opens under it; a link naming rules not on offer says so by the rules box."""
    fallback = [
        choice.group(1)
        for choice in re.finditer(
            r'<option value="(\w+)"', re.search(r'<select id="rules".*?</select>', _page(service_url), re.S).group(0)
        )
    ]
    hand = "111m456p789s1122z5z"
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": [f"{service_url}/rules"]})
    browser.get(f"{service_url}/analyze?hand={hand}&rules=sanma")
    assert _offered(browser, "page") == fallback
    _wait_for_rules(browser, hand, "sanma", "riichi")
    assert _discard_table(browser)["rows"]

    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    browser.get(f"{service_url}/analyze?hand={hand}&rules=nonesuch")
    _wait_for_rules(browser, hand, "riichi", "riichi")
    error = browser.find_element(By.ID, "rules-error")
    assert error.is_displayed()
    assert 'the link asks for rules "nonesuch", which this service does not offer: showing riichi' in error.text
    assert _requests_that_left(browser, service_url) == []


def _page(service_url: str) -> str:
    return httpx.get(f"{service_url}/analyze", timeout=10, trust_env=False).text


# --- the discard table says which model ranked ----------------------------------------


def test_discard_table_shows_the_ranking_models_own_figures(
    service_url: str, browser: webdriver.Chrome, tmp_path: Path
) -> None:
    """Expected points with win and tenpai chances under the expected-score model; the weighted
    terms beside their sum under the linear model; the plan under MCR's fan plan; never a total
    beside terms that do not add up to it, and the caption names the model."""
    hand = "123m456p789s1122z5z"
    presets, default = _rule_presets(service_url)
    valued = _settled_discard(service_url, {"hand": hand})
    assert valued["model"] == "expected_score" and valued["value_search"]["complete"]
    browser.get(f"{service_url}/analyze?hand={hand}")
    try:
        _wait_for_rules(browser, hand, default, default)
        shown = _discard_table(browser)
        assert shown["model"] == "expected_score"
        assert shown["caption"].startswith("Model: expected score. Ranked by expected points")
        assert "lower bound" not in shown["caption"]
        # The page names no opponents: nothing to deal into, so expected points are what rank.
        assert shown["columns"] == ["expected_score", "win_probability", "tenpai_probability"]
        assert shown["ranks"] == ["expected_score"]
        assert "by turn 18" in shown["headers"]["win_probability"]
        for row, candidate in zip(shown["rows"], valued["candidates"], strict=True):
            assert candidate["score"] == candidate["expected_score"] - candidate["deal_in_cost"]
            assert {k: float(v) for k, v in row["values"].items()} == {k: candidate[k] for k in shown["columns"]}
            assert row["texts"]["win_probability"] == f"{candidate['win_probability'] * 100:.1f}%"
        _screenshot(browser, tmp_path, "page-expected-score.png")

        # Against opponents (which the page's form does not name, but an answer may carry) the
        # deal-in cost is shown and the net it leaves is what ranks.
        against_riichi = DISCARD_EXAMPLES["riichi_opponent"]["value"]
        guarded = _settled_discard(service_url, against_riichi)
        assert any(candidate["deal_in_cost"] for candidate in guarded["candidates"])
        browser.execute_script(
            "renderDiscards(arguments[0], parseTiles(arguments[1]))", guarded, against_riichi["hand"]
        )
        shown = _discard_table(browser)
        assert shown["columns"] == ["expected_score", "deal_in_cost", "score", "win_probability", "tenpai_probability"]
        assert shown["ranks"] == ["score"] and "by turn 18, with best play, less the expected cost" in shown["caption"]
        for row, candidate in zip(shown["rows"], guarded["candidates"], strict=True):
            assert {k: float(v) for k, v in row["values"].items()} == {k: candidate[k] for k in shown["columns"]}
            figures = {k: float(v.replace(",", "")) for k, v in row["texts"].items() if not v.endswith("%")}
            # Each shown rounded to the point: the net is the difference to within that rounding.
            assert abs(figures["expected_score"] - figures["deal_in_cost"] - figures["score"]) <= 1, row

        # The linear model (chinese has no value model): the terms and the sum they make.
        _choose(browser, "rules", "chinese")
        _wait_for_rules(browser, hand, "chinese", default)
        linear = _api(service_url, "/discard", {"hand": hand, "rules": "chinese"})
        shown = _discard_table(browser)
        assert shown["model"] == linear["model"] == "linear"
        assert shown["caption"].startswith(f"Model: linear score ({linear['model_note']}).")
        terms = [f"term-{name}" for name in linear["weights"]]
        assert shown["columns"] == [*terms, "linear_score"] and shown["ranks"] == ["linear_score"]
        assert [shown["headers"][f"term-{name}"] for name in linear["weights"]] == [
            f"{name}×{weight:g}" for name, weight in linear["weights"].items()
        ]
        for row, candidate in zip(shown["rows"], linear["candidates"], strict=True):
            assert float(row["values"]["linear_score"]) == candidate["linear_score"] == candidate["score"]
            assert [float(row["values"][t]) for t in terms] == list(candidate["components"].values())
            shown_terms = sum(float(row["texts"][t]) for t in terms)
            assert shown_terms == pytest.approx(float(row["texts"]["linear_score"]), abs=1e-9), row

        # MCR's fan plan: tiles needed, helping tiles and target fans, no score beside them.
        _choose(browser, "rules", "mcr")
        _wait_for_rules(browser, hand, "mcr", default)
        plan = _api(service_url, "/discard", {"hand": hand, "rules": "mcr"})
        shown = _discard_table(browser)
        assert shown["model"] == plan["model"] == "fan_plan"
        assert shown["caption"].startswith("Model: fan plan. Ranked by the fan plan")
        assert shown["columns"] == ["need", "helping_tiles", "target_fan"]
        for row, candidate in zip(shown["rows"], plan["candidates"], strict=True):
            assert {k: float(v) for k, v in row["values"].items()} == candidate["fan_plan"]
        _screenshot(browser, tmp_path, "page-fan-plan.png")

        # Sanma, offered because GET /rules lists it.
        sanma_hand = "111m456p789s1122z5z"
        hand_box = browser.find_element(By.ID, "hand")
        hand_box.clear()
        hand_box.send_keys(sanma_hand)
        valued_sanma = _settled_discard(service_url, {"hand": sanma_hand, "rules": "sanma"})
        _choose(browser, "rules", "sanma")
        _wait_for_rules(browser, sanma_hand, "sanma", default)
        # Sanma hands are valued in expected points too (three seats' payments, no 2m-8m to draw).
        shown = _discard_table(browser)
        assert shown["model"] == valued_sanma["model"] == "expected_score"
        assert shown["columns"] == ["expected_score", "win_probability", "tenpai_probability"]
        for row, candidate in zip(shown["rows"], valued_sanma["candidates"], strict=True):
            assert {k: float(v) for k, v in row["values"].items()} == {k: candidate[k] for k in shown["columns"]}
        _screenshot(browser, tmp_path, "page-sanma.png")
    except Exception:
        browser.save_screenshot(str(tmp_path / "failure.png"))
        raise
    assert _requests_that_left(browser, service_url) == []


# --- Sichuan: the void suit (定缺) ----------------------------------------------------------


def _void_view(driver: webdriver.Chrome) -> tuple[str, str]:
    view = driver.find_element(By.ID, "void-view")
    return view.get_attribute("data-suit"), view.text


def test_sichuan_with_a_void_suit(service_url: str, browser: webdriver.Chrome, tmp_path: Path) -> None:
    """Sichuan is offered; its void suit is an input sent with the questions, and the page shows
    the suit the answers assumed: a chosen one (only its tiles are discards while one is held),
    or with auto the service's best suit."""
    hand = "1123345678m99m45p"  # ready by throwing 1m, or one from a man flush by throwing a pin
    shots = Path("/tmp/shots")
    shots.mkdir(exist_ok=True)
    browser.get(f"{service_url}/analyze")
    try:
        assert "sichuan" in _offered(browser, "rules")
        assert not browser.find_element(By.ID, "void-field").is_displayed()  # riichi has no void suit
        Select(browser.find_element(By.ID, "rules")).select_by_value("sichuan")
        assert browser.find_element(By.ID, "void-field").is_displayed()
        Select(browser.find_element(By.ID, "void_suit")).select_by_value("p")
        browser.find_element(By.ID, "hand").send_keys(hand)
        browser.find_element(By.ID, "analyze").click()
        _wait_for_result(browser, hand)
        WebDriverWait(browser, PAGE_TIMEOUT_SECONDS).until(lambda d: _void_view(d)[0] == "p")
        expected = _settled_discard(service_url, {"hand": hand, "rules": "sichuan", "void_suit": "p"})
        shown = _discard_table(browser)
        assert [row["tile"] for row in shown["rows"]] == [c["tile"] for c in expected["candidates"]]
        assert sorted(row["tile"] for row in shown["rows"]) == ["4p", "5p"]  # the void tiles go first
        suit, words = _void_view(browser)
        assert words.startswith("Void suit (定缺): p (dots)") and "best" not in words
        assert _address(browser)["void_suit"] == "p"
        shanten = _api(service_url, "/shanten", {"hand": hand, "rules": "sichuan", "void_suit": "p"})
        assert browser.find_element(By.ID, "verdict").get_attribute("data-shanten") == str(shanten["shanten"])
        _screenshot(browser, tmp_path, "analyze-sichuan-void-p.png")
        shutil.copyfile(tmp_path / "analyze-sichuan-void-p.png", shots / "analyze-sichuan-void-p.png")

        # Auto: the service's best suit (s), and its value model ranks the near flush first.
        Select(browser.find_element(By.ID, "void_suit")).select_by_value("")
        WebDriverWait(browser, PAGE_TIMEOUT_SECONDS).until(lambda d: _void_view(d)[0] == "s")
        _wait_for_result(browser, hand)
        expected = _settled_discard(service_url, {"hand": hand, "rules": "sichuan"})
        shown = _discard_table(browser)
        assert shown["model"] == expected["model"] == "expected_score"
        assert [row["tile"] for row in shown["rows"]] == [c["tile"] for c in expected["candidates"]]
        assert shown["rows"][0]["tile"] in ("4p", "5p")
        assert shown["headers"]["expected_score"].startswith("expected base points")
        assert "the best suit to void" in _void_view(browser)[1]
        assert "void_suit" not in _address(browser)
        _screenshot(browser, tmp_path, "analyze-sichuan.png")
        shutil.copyfile(tmp_path / "analyze-sichuan.png", shots / "analyze-sichuan.png")
    except Exception:
        browser.save_screenshot(str(tmp_path / "failure.png"))
        shutil.copyfile(tmp_path / "failure.png", shots / "analyze-sichuan-failure.png")
        raise
    assert _requests_that_left(browser, service_url) == []
