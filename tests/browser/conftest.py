"""Browser test fixtures: the real server in a subprocess and Debian chromium driven by Playwright."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, sync_playwright

from ..chromium import ARGS, require_chromium
from .pages import OPENED, SHOTS, page_state

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def running_server(db: Path, args: list[str], *, host: str = "127.0.0.1", wait: float = 180) -> Iterator[str]:
    """``spacetable serve`` on a free port with the SQLite file ``db`` and extra ``args``; its log beside ``db``.
    Yields the base address once ``/health`` answers; stops the server afterwards."""
    port = _free_port()
    log = open(db.with_suffix(".log"), "wb")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "spacetable.server.cli", "--port", str(port), "--database-url", f"sqlite:///{db}",
         "--log-level", "warning", *args], cwd=ROOT, stdout=log, stderr=log)
    base = f"http://{host}:{port}"
    end = time.time() + wait
    try:
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.time() > end or proc.poll() is not None:
                log.flush()
                tail = db.with_suffix(".log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"server did not start within {wait:.0f} s (exit {proc.poll()}); its log: {tail}")
            time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    require_chromium()  # no server for tests that cannot run
    db = tmp_path_factory.mktemp("browser") / "browser.sqlite3"
    # one test client makes many matches a minute: the rate limits (tested in tests/server) are off here
    with running_server(db, ["--ai-workers", "1", "--rate-create", "none", "--rate-join", "none",
                             "--rate-act", "none", "--rate-check", "none"]) as base:
        yield base


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """One chromium for the browser tests (each test's pages in contexts of their own, closed after it), stopped
    after the last of them: Playwright's sync API runs one driver at a time, and tests elsewhere (such as
    tests/arena/test_renderer.py) start their own, or run event loops of their own."""
    executable = require_chromium()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=ARGS)
        yield b
        b.close()


@pytest.fixture(autouse=True)
def close_pages() -> Iterator[None]:
    """Close the pages a test opened (``pages.open_page``) once it is over."""
    yield
    while OPENED:
        ctx = OPENED.pop()
        with contextlib.suppress(Exception):  # a browser already gone (its module's teardown) closed it anyway
            ctx.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """When a browser test fails, its report also says what each of its pages showed then (address, version, turn,
    selection, the composer's buttons and text, console errors; ``pages.page_state``), and a screenshot of each goes
    to tests/browser/screenshots/failed-*.png: a failure on a busy machine, such as CI's, can then be read without
    running it again."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    pages = [page for ctx in OPENED for page in ctx.pages]
    for k, page in enumerate(pages):
        name = f"failed-{item.name}-{k}.png".replace("/", "_").replace("[", "-").replace("]", "")
        # every call bounded (a locator's count and a page's evaluation have no timeout): a hung page must not hang
        # the run
        lines = [f"url: {page.url}", f"state: {page_state(page)}"]
        try:
            lines.append(f"composer: {page.locator('[data-testid=composer]').first.inner_text(timeout=2_000)[:600]!r}")
        except Exception as e:  # the report must not hide the failure
            lines.append(f"composer: none shown within 2 s ({type(e).__name__})")
        try:
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / name), timeout=5_000)
            lines.append(f"screenshot: {SHOTS / name}")
        except Exception as e:
            lines.append(f"screenshot: none ({type(e).__name__}: {str(e)[:200]})")
        report.sections.append((f"page {k} when the test failed", "\n".join(lines)))
