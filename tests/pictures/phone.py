"""What a page looks like on a phone and to assistive technology (issue 31): the viewport set to
390x844 (or 1280x800) through Chromium's device metrics, sideways scrolling measured, and axe-core
(the npm package, installed under tests/axe by ``make axe``) injected and run on the page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

PHONE = (390, 844)
DESKTOP = (1280, 800)
AXE = Path(__file__).resolve().parent.parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"


def viewport(driver: Any, size: tuple[int, int]) -> None:
    width, height = size
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def sideways(driver: Any) -> int:
    """How many CSS pixels the page scrolls sideways (0: it fits the viewport's width)."""
    return int(driver.execute_script(
        "var d = document.documentElement; return Math.max(d.scrollWidth, document.body.scrollWidth) - d.clientWidth;"))


def top_of(driver: Any, selector: str) -> float | None:
    """Where the first element matching ``selector`` starts, in CSS px from the page's top."""
    return driver.execute_script(
        "var e = document.querySelector(arguments[0]); if (!e) return null;"
        " return e.getBoundingClientRect().top + window.scrollY;", selector)


def axe_missing() -> str | None:
    return None if AXE.is_file() else f"axe-core is not installed ({AXE} is missing: make axe)"


def require_axe() -> None:
    """Fail (where `make test` requires the browser tests) or skip, with the reason, without axe-core."""
    import pytest

    from . import browser

    reason = axe_missing()
    if reason:
        if browser.required():
            pytest.fail(reason)
        pytest.skip(reason)


def serious(driver: Any) -> list[dict]:
    """axe-core's serious and critical violations on the page shown (each with its rule and nodes)."""
    if not driver.execute_script("return typeof window.axe !== 'undefined'"):
        driver.execute_script(AXE.read_text(encoding="utf-8"))
    driver.set_script_timeout(120)
    result = driver.execute_async_script(
        "var done = arguments[arguments.length - 1];"
        " axe.run(document, {resultTypes: ['violations']}).then(function (r) { done(JSON.stringify(r.violations)); },"
        " function (e) { done(JSON.stringify([{id: 'axe-error', impact: 'critical', description: String(e), nodes: []}])); });")
    found = json.loads(result)
    return [{"id": v["id"], "impact": v["impact"], "help": v.get("description", ""),
             "nodes": [n.get("target") for n in v.get("nodes", [])[:5]]}
            for v in found if v.get("impact") in ("serious", "critical")]
