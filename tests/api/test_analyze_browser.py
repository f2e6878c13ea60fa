"""The hand analyzer page works in a real browser and loads nothing from elsewhere.

Starts uvicorn on a free 127.0.0.1 port, opens / in headless Chromium, types hands,
reads shanten, waits and the ranked discards off the page (the expected answers are
asked of the same service's API), clicks a discard, reads a complete riichi hand's
value (yaku, han, fu, payments) as the situation controls change, and saves screenshots to the
pytest tmp dir and to ``test-artifacts/`` for review. Needs Debian's ``chromium``
and ``chromium-driver``; skipped without them, like test_docs_browser.py.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

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
    discard = _api(service_url, "/discard", {"hand": hand})
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
        assert f"{best['score']:.3f}" in rows[0].text
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
