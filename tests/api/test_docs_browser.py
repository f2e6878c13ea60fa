"""Swagger UI works in a real browser, from the service's own assets.

Starts uvicorn on a free 127.0.0.1 port, opens /docs in headless Chromium, clicks
"Try it out" and "Execute" on POST /shanten and reads the answer off the page.
Needs Debian's ``chromium`` and ``chromium-driver`` (CI installs them).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
from browser_helpers import PAGE_TIMEOUT_SECONDS, browser_tests, headless_chrome, uvicorn_service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

pytestmark = browser_tests


@pytest.fixture(scope="module")
def service_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with uvicorn_service(tmp_path_factory.mktemp("uvicorn")) as url:
        yield url


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[webdriver.Chrome]:
    driver = headless_chrome(tmp_path, "1280,2000")
    try:
        yield driver
    finally:
        driver.quit()


def _requests_that_left(driver: webdriver.Chrome, service_url: str) -> list[str]:
    """URLs the page asked for outside the service that the browser did not block.

    The doc pages send a Content-Security-Policy of 'self'; ReDoc's bundle still
    asks for its vendor's logo, which the policy blocks before any network use.
    """
    asked: dict[str, str] = {}
    blocked: set[str] = set()
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        params = message.get("params", {})
        if message["method"] == "Network.requestWillBeSent":
            url = params["request"]["url"]
            if url.startswith(("http:", "https:", "ws:", "wss:")) and not url.startswith(service_url):
                asked[params["requestId"]] = url
        elif message["method"] == "Network.loadingFailed" and params.get("blockedReason"):
            blocked.add(params["requestId"])
    return [url for request_id, url in asked.items() if request_id not in blocked]


def test_try_it_out_on_shanten(service_url: str, browser: webdriver.Chrome, tmp_path: Path) -> None:
    wait = WebDriverWait(browser, PAGE_TIMEOUT_SECONDS)
    browser.get(f"{service_url}/docs")
    try:
        operation = wait.until(expected_conditions.presence_of_element_located((By.ID, "operations-shanten-shanten")))
        operation.find_element(By.CSS_SELECTOR, ".opblock-summary-control").click()
        wait.until(lambda _: operation.find_elements(By.CSS_SELECTOR, ".try-out__btn"))
        operation.find_element(By.CSS_SELECTOR, ".try-out__btn").click()
        execute = wait.until(lambda _: operation.find_element(By.CSS_SELECTOR, "button.execute"))
        execute.click()
        status = wait.until(
            lambda _: operation.find_element(By.CSS_SELECTOR, ".live-responses-table tr.response .response-col_status")
        )
        wait.until(lambda _: status.text.strip().startswith("200"))
        body = operation.find_element(
            By.CSS_SELECTOR, ".live-responses-table tr.response .response-col_description pre"
        )
        assert '"shanten": 1' in body.text, body.text
        assert '"ukeire_count": 123' in body.text, body.text
    except Exception:
        browser.save_screenshot(str(tmp_path / "docs.png"))
        raise

    loaded = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert f"{service_url}/static/docs/swagger-ui-bundle.js" in loaded
    assert _requests_that_left(browser, service_url) == []


def test_redoc_renders(service_url: str, browser: webdriver.Chrome) -> None:
    browser.get(f"{service_url}/redoc")
    wait = WebDriverWait(browser, PAGE_TIMEOUT_SECONDS)
    wait.until(lambda driver: "Shanten and ukeire of a hand" in driver.find_element(By.TAG_NAME, "body").text)
    assert _requests_that_left(browser, service_url) == []
