"""Screenshots of one replay page per game for the README: ``make pictures`` (needs ``make browser``).

    .venv/bin/python -m tests.pictures.screenshots [OUT_DIR]   (default docs/pictures)
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from solrec.replay.html import page

from ..conftest import ROOT
from . import browser
from .helpers import fixture_log

# (fixture, command shown): a command after which the board and score sheet both have something to show
SHOTS = {
    "solo-dice": ("solo-dice/worked-example.jsonl", 20),
    "soli2": ("soli2/duel-pouch-standard.jsonl", 110),
    "solar-solitaire": ("solar-solitaire/lost-entered.jsonl", 40),
    "solari": ("solari/two-players-dominoes-open-seeded.jsonl", 37),
    "solarius-mission": ("solarius-mission/space-three-players-seeded.jsonl", 392),
}


def whole_page(driver, target: Path, width: int, most: int) -> None:
    """A screenshot of the page shown, the viewport exactly as tall as the page (a window's size
    would include its frame), up to ``most`` pixels."""
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": min(height, most), "deviceScaleFactor": 1, "mobile": False})
    driver.save_screenshot(str(target))
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def main(out: Path) -> None:
    reason = browser.missing()
    if reason:
        raise SystemExit(reason)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, browser.chromium(1200, 900) as driver:
        for game_id, (path, command) in SHOTS.items():
            html = Path(tmp) / f"{game_id}.html"
            html.write_text(page(fixture_log(path)), encoding="utf-8")
            driver.get(html.as_uri())
            driver.execute_script(
                "var s = document.getElementById('slider'); s.value = arguments[0];"
                " s.dispatchEvent(new Event('input'));", command)
            target = out / f"{game_id}.png"
            whole_page(driver, target, 1200, 2000)
            print(f"{target}: command {command} of {path}")
            for width, height, most in ((390, 844, 2600), (1280, 800, 1600)):  # a phone and a desk (issue 31)
                driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                       {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
                target = out / f"{game_id}-{width}.png"
                whole_page(driver, target, width, most)
                print(target)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "pictures")
