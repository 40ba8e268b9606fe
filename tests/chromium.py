"""Whether the browser tests can run: one rule for every test marked ``browser`` (tests/browser,
the arena renderer test).

They drive Debian's chromium (``/usr/bin/chromium``, or ``$SPACETABLE_CHROMIUM``) with Playwright.
When it is missing they are skipped: ``tests/conftest.py`` leaves them out of the run and prints
one line saying so. Under ``CI=true`` they run and fail instead, so that CI never passes without
them. ``./scripts/test`` installs chromium when it can (root or password-less sudo).
"""

from __future__ import annotations

import os

import pytest

CHROMIUM = os.environ.get("SPACETABLE_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def missing() -> str | None:
    """Why the browser tests cannot run here, or ``None`` when chromium is there."""
    if os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK):
        return None
    return (f"they need Debian's chromium at {CHROMIUM} (apt-get install chromium; ./scripts/test installs it "
            "when run as root)")


def require_chromium() -> str:
    """The chromium executable, or skip the calling test (fail it under ``CI=true``)."""
    reason = missing()
    if reason is None:
        return CHROMIUM
    if in_ci():
        pytest.fail(f"browser tests cannot run: {reason}; under CI=true they must", pytrace=False)
    pytest.skip(f"browser test skipped: {reason}")
