"""Browser tests: Playwright driving Debian's Chromium against a live server.

The browser is the system ``chromium`` (``apt-get install chromium``), launched with
the flags this workplace needs; Playwright's own browser download is never used. Each
journey saves a screenshot of its last page under ``artifacts/e2e/``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "e2e"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 860}
PHONE_360 = {"width": 360, "height": 740}
LAPTOP_1366 = {"width": 1366, "height": 900}
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make
# to arrange data are synchronous and safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pictures_folder(name: str) -> Path:
    """Where a journey saves the pictures the manual shows: ``artifacts/e2e/<name>/``, or
    ``docs/screenshots/`` with ``BOXCARS_UPDATE_SCREENSHOTS=1``, so one run refreshes the
    manual's pictures and an ordinary run never touches them."""
    update = os.environ.get("BOXCARS_UPDATE_SCREENSHOTS") == "1"
    folder = DOCS if update else ARTIFACTS / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    executable = _chromium()
    if executable is None:
        pytest.skip("no chromium on the PATH (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page_for(browser, live_server, request):
    """A fresh browser page (phone or laptop sized); its last view is saved as a PNG."""
    pages: list[tuple[Any, Any, str]] = []  # (page, context, name)

    def make(viewport: dict[str, int] = LAPTOP, name: str | None = None):
        context = browser.new_context(viewport=viewport, base_url=live_server.url)
        page = context.new_page()
        page.set_default_timeout(15_000)
        pages.append((page, context, name or f"{request.node.name}-{len(pages) + 1}"))
        return page

    yield make
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for page, context, name in pages:
        try:
            page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
        finally:
            context.close()


@pytest.fixture
def login(live_server):
    """Log a page in as a user through the real login form."""

    def do(page, username: str, password: str = "pw-for-tests-1") -> None:
        page.goto("/accounts/login/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(password)
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url(f"{live_server.url}/")

    return do
