"""The play page plays a hosted table in a real browser, by clicks and keys alone.

Starts uvicorn (its table store a SQLite file of the test's own) on a free 127.0.0.1 port, opens
/play in headless Chromium, opens a one-hand table against three bots and plays it to the end:
at each decision the first legal action other than a pass is clicked, else the tile just drawn is
discarded with End and Enter (or the first tile that may go, after a call), else the pass is
taken with its digit key. Midway it asks for advice (the ranking must be /act's for the same
view) and reloads the page (the same table must come back at the same version, with the same
tiles). At the end the final scores must be the record's, and the review link must open the
analyzer's review of the record's events for the seat. Screenshots go to the pytest tmp dir and to
``test-artifacts/``. Needs Debian's ``chromium`` and ``chromium-driver`` (under CI=true their
absence fails, see browser_helpers).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
from browser_helpers import PAGE_TIMEOUT_SECONDS, browser_tests, headless_chrome, uvicorn_service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402
from test_analyze_browser import _screenshot  # noqa: E402

pytestmark = browser_tests

#: A hand against three bots takes a few dozen decisions of the seat's; far more is a page stuck in a loop.
MAX_DECISIONS = 150
#: The decision at which the page asks for advice and is reloaded.
MIDWAY = 3


@pytest.fixture(scope="module")
def service_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store = tmp_path_factory.mktemp("tables") / "tables.sqlite3"
    with uvicorn_service(tmp_path_factory.mktemp("uvicorn"), {"TENPAI_TABLE_STORE": f"sqlite:///{store}"}) as url:
        yield url


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[webdriver.Chrome]:
    driver = headless_chrome(tmp_path, "1280,1500")
    try:
        yield driver
    finally:
        driver.quit()


def _table(driver: webdriver.Chrome) -> dict[str, str]:
    """The table section's state as the page publishes it (data-table, -version, -status, -legal, -pending, -seat)."""
    state: dict[str, str] = driver.execute_script(
        "const t = document.getElementById('table'); return t.hidden ? {} : Object.assign({}, t.dataset);"
    )
    return state


def _settled(driver: webdriver.Chrome) -> dict[str, str]:
    """Wait until the seat is asked something (or the game is over) and no action is on its way."""

    def ready(d: webdriver.Chrome) -> dict[str, str] | None:
        state = _table(d)
        if state.get("pending") == "false" and (state.get("status") == "over" or state.get("legal", "0") != "0"):
            return state
        return None

    state: dict[str, str] = WebDriverWait(driver, PAGE_TIMEOUT_SECONDS).until(ready)
    return state


def _token(driver: webdriver.Chrome, table: str) -> dict[str, Any]:
    stored: dict[str, Any] = driver.execute_script(
        "return JSON.parse(sessionStorage.getItem('tenpai.play.table.' + arguments[0]));", table
    )
    return stored


def _get(service_url: str, path: str, token: str) -> dict[str, Any]:
    response = httpx.get(
        f"{service_url}{path}", headers={"authorization": f"Bearer {token}"}, timeout=60, trust_env=False
    )
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def _post(service_url: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = httpx.post(f"{service_url}{path}", json=body, timeout=60, trust_env=False)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def _hand(driver: webdriver.Chrome) -> list[str]:
    return [tile.get_attribute("data-pai") for tile in driver.find_elements(By.CSS_SELECTOR, "#hand button.tile")]


def _decide(driver: webdriver.Chrome) -> str:
    """Take one decision the way a person would; answers how."""
    actions = driver.find_elements(By.CSS_SELECTOR, "#actions button.action")
    for button in actions:
        assert button.tag_name == "button" and button.is_enabled()
    chosen = [button for button in actions if button.get_attribute("data-type") != "none"]
    if chosen:
        kind = chosen[0].get_attribute("data-type")
        chosen[0].click()
        return f"click {kind}"
    tiles = driver.find_elements(By.CSS_SELECTOR, "#hand button.tile")
    usable = [tile for tile in tiles if tile.get_attribute("aria-disabled") == "false"]
    if usable:
        for tile in tiles:  # every tile is a button named for a screen reader
            assert tile.get_attribute("aria-label")
        drawn = driver.find_elements(By.CSS_SELECTOR, "#hand button.tile.drawn")
        if drawn and drawn[0].get_attribute("aria-disabled") == "false":
            driver.switch_to.active_element.send_keys(Keys.END)
            focused = driver.switch_to.active_element
            assert "drawn" in focused.get_attribute("class").split(), "End chooses the tile drawn"
            assert focused.get_attribute("aria-label").startswith("discard ")
            focused.send_keys(Keys.ENTER)
            return "keys End Enter"
        usable[0].click()
        return "click a tile"
    passes = [button for button in actions if button.get_attribute("data-type") == "none"]
    assert passes, f"asked with nothing to do: {_table(driver)}"
    number = actions.index(passes[0]) + 1
    assert passes[0].get_attribute("aria-keyshortcuts") == str(number)
    driver.find_element(By.TAG_NAME, "body").send_keys(str(number))
    return "key pass"


def _check_advice(driver: webdriver.Chrome, service_url: str, table: str, token: str, tmp_path: Path) -> None:
    """The A key asks /act with the seat's own view: the page shows that ranking, its pick marked."""
    view = _get(service_url, f"/tables/{table}", token)
    assert str(view["version"]) == _table(driver)["version"]
    ranking = _post(service_url, "/act", {"seat": view["seat"], "rules": "riichi", "events": view["events"]})
    driver.find_element(By.TAG_NAME, "body").send_keys("a")
    wait = WebDriverWait(driver, PAGE_TIMEOUT_SECONDS)
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#advice-ranked tbody tr")) == len(ranking["ranked"]))
    rows = driver.find_elements(By.CSS_SELECTOR, "#advice-ranked tbody tr")
    # The advisor's search is bounded in time, so the order of close values may differ between two
    # asks; what is ranked may not.
    assert sorted(row.get_attribute("data-type") for row in rows) == sorted(
        r["action"]["type"] for r in ranking["ranked"]
    )
    assert len(driver.find_elements(By.CSS_SELECTOR, "#advice-ranked tr.pick")) == 1
    _screenshot(driver, tmp_path, "play-mid-hand.png")


def _check_resume(driver: webdriver.Chrome) -> None:
    """A reload comes back to the same table at the same version, the same tiles in hand."""
    before, hand = _table(driver), _hand(driver)
    driver.refresh()
    after = WebDriverWait(driver, PAGE_TIMEOUT_SECONDS).until(lambda d: _table(d).get("version") and _table(d))
    assert (after["table"], after["version"], after["seat"]) == (before["table"], before["version"], before["seat"])
    assert _hand(driver) == hand
    assert after["legal"] == before["legal"]


def _requests_that_left(driver: webdriver.Chrome, service_url: str) -> list[str]:
    """Network URLs the page asked for outside the service (its WebSocket is the service's too)."""
    socket_url = "ws" + service_url.removeprefix("http") + "/"
    asked = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] in ("Network.requestWillBeSent", "Network.webSocketCreated"):
            params = message["params"]
            url = params["request"]["url"] if "request" in params else params["url"]
            if url.startswith(("http:", "https:", "ws:", "wss:")) and not url.startswith(
                (service_url + "/", socket_url)
            ):
                asked.append(url)
    return asked


def test_play_a_hand_to_the_end_and_review_it(service_url: str, browser: webdriver.Chrome, tmp_path: Path) -> None:
    try:
        browser.get(f"{service_url}/play")
        Select(browser.find_element(By.ID, "length")).select_by_value("kyoku")
        # Time enough for a loaded test machine: the clock must not play for the seat here.
        for field, seconds in (("decision_seconds", "120"), ("bank_seconds", "600")):
            box = browser.find_element(By.ID, field)
            box.clear()
            box.send_keys(seconds)
        browser.find_element(By.ID, "seed").send_keys("the play page's test")
        browser.find_element(By.ID, "new-table-run").click()
        state = _settled(browser)
        table = state["table"]
        stored = _token(browser, table)
        assert stored["seat"] == 0 and stored["token"]
        assert browser.find_element(By.ID, "commitment").text.endswith(stored["commitment"])

        decisions: list[str] = []
        while state["status"] != "over":
            assert len(decisions) < MAX_DECISIONS, decisions
            assert browser.find_element(By.ID, "clock").get_attribute("data-autoplay") == "false"
            assert not browser.find_element(By.ID, "autoplay").is_displayed()
            if len(decisions) == MIDWAY:
                if browser.find_elements(By.CSS_SELECTOR, "#hand button.tile[aria-disabled='false']"):
                    _check_advice(browser, service_url, table, stored["token"], tmp_path)
                _check_resume(browser)
                state = _settled(browser)
            decisions.append(_decide(browser))
            WebDriverWait(browser, PAGE_TIMEOUT_SECONDS).until(
                lambda d, version=state["version"]: (
                    _table(d).get("version") != version or _table(d).get("status") == "over"
                )
            )
            state = _settled(browser)
        assert len(decisions) > MIDWAY, decisions
        assert "keys End Enter" in decisions, decisions

        record = _get(service_url, f"/tables/{table}/record", stored["token"])
        rows = browser.find_elements(By.CSS_SELECTOR, "#final-scores tbody tr")
        shown = {int(row.get_attribute("data-seat")): int(row.get_attribute("data-score")) for row in rows}
        assert shown == dict(enumerate(record["scores"]))
        seed = WebDriverWait(browser, PAGE_TIMEOUT_SECONDS).until(lambda d: d.find_element(By.ID, "seed-revealed").text)
        assert record["seed"] in seed and "Its SHA-256 is the commitment" in seed, seed
        ends = [event for event in record["events"] if event["type"] in ("hora", "ryukyoku")]
        result = browser.find_element(By.ID, "hand-result").text
        assert result.count(" won ") == sum(event["type"] == "hora" for event in ends), result
        for event in ends:  # every seat's gain or loss of the hand, as the record has it
            assert (
                ", ".join(f"seat {seat} {delta:+,}".replace("+0", "0") for seat, delta in enumerate(event["deltas"]))
                in result
            )
        _screenshot(browser, tmp_path, "play-over.png")

        browser.find_element(By.ID, "review-link").click()
        WebDriverWait(browser, PAGE_TIMEOUT_SECONDS).until(
            lambda d: d.execute_script(
                "return !document.getElementById('review-result').hidden"
                " && !document.getElementById('review').classList.contains('busy')"
            )
        )
        log = browser.find_element(By.ID, "review-log").get_attribute("value")
        assert [json.loads(line) for line in log.splitlines()] == record["events"]
        assert browser.find_element(By.ID, "review-seat").get_attribute("value") == "0"
        answer = _post(service_url, "/review", {"events": record["events"], "seat": 0, "rules": "riichi"})
        buttons = browser.find_elements(By.CSS_SELECTOR, "#review-timeline button.decision")
        assert [int(b.get_attribute("data-index")) for b in buttons] == [d["index"] for d in answer["decisions"]]
        _screenshot(browser, tmp_path, "play-review.png")
    except Exception:
        browser.save_screenshot(str(tmp_path / "failure.png"))
        raise
    assert _requests_that_left(browser, service_url) == []


def test_the_table_fits_a_phone(service_url: str, tmp_path: Path) -> None:
    """On a 390 px phone the table, its tiles and its buttons fit the width: nothing to scroll sideways."""
    phone = headless_chrome(tmp_path, "390,844")
    try:
        phone.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
        )
        phone.get(f"{service_url}/play")
        phone.find_element(By.ID, "seed").send_keys("the play page's phone")
        phone.find_element(By.ID, "new-table-run").click()
        state = _settled(phone)
        assert state["status"] == "playing" and len(_hand(phone)) == 14
        width = phone.execute_script("return document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width}px wide on a 390px phone"
        phone.execute_script("document.getElementById('table').scrollIntoView()")
        _screenshot(phone, tmp_path, "play-phone.png")
    except Exception:
        phone.save_screenshot(str(tmp_path / "failure.png"))
        raise
    finally:
        phone.quit()
