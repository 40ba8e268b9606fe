"""Test-run wide hooks: browser tests without chromium are left out with one line (see tests/chromium.py)."""

from __future__ import annotations

import pytest

from .chromium import in_ci, missing

_left_out: list[str] = []


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = missing()
    if reason is None or in_ci():
        return  # under CI=true each browser test fails with the reason (tests/chromium.py)
    browser = [item for item in items if item.get_closest_marker("browser")]
    if browser:
        items[:] = [item for item in items if not item.get_closest_marker("browser")]
        config.hook.pytest_deselected(items=browser)
        _left_out[:] = [f"{len(browser)} browser tests skipped: {reason}"]


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for line in _left_out:
        terminalreporter.write_line(line, yellow=True, bold=True)
