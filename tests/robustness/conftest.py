"""Print what the robustness tests tried (the figures of issue 8's closing note)."""

from __future__ import annotations

from .helpers import TALLY


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if TALLY:
        terminalreporter.write_sep("-", "robustness tally")
        for key in sorted(TALLY):
            terminalreporter.write_line(f"{key}: {TALLY[key]}")
