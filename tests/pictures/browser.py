"""Debian's Chromium, headless, driven through its ChromeDriver by selenium (no driver download).

``make browser`` installs the two packages where missing (``apt-get install chromium
chromium-driver``). Where they are missing, browser tests skip, unless ``SOLREC_BROWSER_TESTS=required``
(``make test`` sets it, so CI cannot pass without having run them) or ``CI`` is set: then they fail.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", "--hide-scrollbars", "--force-device-scale-factor=1",
)


def missing() -> str | None:
    if CHROMIUM and CHROMEDRIVER:
        return None
    return "Chromium and its driver are not installed (make browser: apt-get install chromium chromium-driver)"


def required() -> bool:
    return os.environ.get("SOLREC_BROWSER_TESTS") == "required" or bool(os.environ.get("CI"))


@contextmanager
def chromium(width: int = 1200, height: int = 1000) -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="solrec-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM or ""
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    # console messages and every network request the page makes
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER or ""))
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


# Chromium's own user interface (WebUI pages it may load in the background, under load) fetches its
# resources from these schemes, and data: URLs are inline content: none of them leaves the browser.
BROWSER_INTERNAL = ("chrome:", "chrome-untrusted:", "chrome-extension:", "devtools:", "data:")


@contextmanager
def session(width: int = 1200, height: int = 1000) -> Iterator[Any]:
    """Chromium for a test module's fixture: skipped where it is missing, failed where it is required."""
    reason = missing()
    if reason:
        if required():
            pytest.fail(reason)
        pytest.skip(reason)
    with chromium(width, height) as driver:
        yield driver


def requests(driver) -> list[str]:
    """The URLs of every request sent since the last call (from the performance log), leaving out
    the browser's own internal resources."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            url = message["params"]["request"]["url"]
            if not url.startswith(BROWSER_INTERNAL):
                urls.append(url)
    return urls


def console(driver) -> list[dict]:
    return list(driver.get_log("browser"))
