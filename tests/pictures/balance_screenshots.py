"""Screenshots of a `solrec balance` page for the README: ``make pictures`` (needs ``make browser``).

    .venv/bin/python -m tests.pictures.balance_screenshots [OUT_DIR]   (default docs/pictures)

The README's question: Solari to 72 points instead of 36, by greedy bots, 40 paired games (about a
minute on two cores).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from typer.testing import CliRunner

from ..conftest import ROOT
from . import browser
from .screenshots import whole_page

ARGS = ["balance", "solari", "--games", "40", "--against", "target=72", "--jobs", "2", "--seed", "1"]


def make_page(target: Path, args: list[str] = ARGS) -> str:
    from solrec.cli.main import app

    result = CliRunner().invoke(app, [*args, "--html", str(target)])
    if result.exit_code:
        raise SystemExit(result.stderr)
    return result.stdout


def shoot(driver, html: Path, out: Path, name: str) -> list[Path]:
    made = []
    for width, height, most in ((1280, 800, 3200), (390, 844, 4200)):
        driver.get(html.as_uri())
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        target = out / f"{name}-{width}x{height}.png"
        whole_page(driver, target, width, most)
        made.append(target)
    return made


def main(out: Path) -> None:
    reason = browser.missing()
    if reason:
        raise SystemExit(reason)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, browser.chromium(1280, 900) as driver:
        html = Path(tmp) / "balance.html"
        print(make_page(html))
        for target in shoot(driver, html, out, "balance-solari-target"):
            print(target)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "pictures")
