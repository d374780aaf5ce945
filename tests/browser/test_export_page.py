"""The exported replay page in a real headless Chromium (Debian's package, driven by Playwright) with every
network request blocked: it loads without errors, steps with the buttons and the arrow keys, jumps to a chapter and
back, and its canvas shows each step's table image pixel for pixel; the final scoreboard is visible."""

from __future__ import annotations

import base64
import io
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot import export
from bot.store import Store
from bot.table import Table
from tests.bot.helpers import url
from tests.bot.test_export import finish, page_data, picture, reconstruct
from tests.quick import QUICK_STANDIN

CHROMIUM = Path(os.environ.get("KEYWOOD_CHROMIUM", "/usr/bin/chromium"))
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-sync"]
INSTALL = "apt-get install -y chromium (as root) and pip install -e '.[test]' (Playwright)"


def need_browser() -> Any:
    """Playwright's sync API; outside CI a missing browser or Playwright skips, in CI it fails."""
    missing = []
    if not CHROMIUM.exists() and not shutil.which(str(CHROMIUM)):
        missing.append(f"no Chromium at {CHROMIUM}")
    try:
        from playwright import sync_api
    except ImportError:
        missing.append("Playwright is not installed")
        sync_api = None
    if missing:
        reason = "; ".join(missing) + f": {INSTALL}"
        if os.environ.get("CI"):
            pytest.fail(f"the browser test cannot run in CI: {reason}")
        pytest.skip(reason)
    return sync_api


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, Any]]]:
    """A finished Keyflower game's replay page (quick stand-in images), as a file and its data."""
    folder = tmp_path_factory.mktemp("page")
    store = Store(url(folder / "game.db"))
    game_id = finish(Table(store, images=False, standin_budget=QUICK_STANDIN), "keyflower")
    with store.transaction() as tx:
        replay = export.collect(tx, game_id)
    store.close()
    text = export.page(replay, render=picture)
    path = folder / "replay.html"
    path.write_text(text, encoding="utf-8")
    yield path, page_data(text)


def test_the_page_works_offline_in_chromium(exported: tuple[Path, dict[str, Any]]) -> None:
    """Loads with no request leaving the machine and no console error; Forward/Back and the arrow keys step; the
    chapter list and the log jump; the canvas is each step's image, stepping back from the end and jumping back
    included; the final scoreboard is visible."""
    sync_api = need_browser()
    path, data = exported
    last = len(data["steps"]) - 1
    blocked: list[str] = []
    failed: list[str] = []
    errors: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})

            def route(route: Any) -> None:
                if route.request.url.startswith(("file:", "data:")):
                    route.continue_()
                else:
                    blocked.append(route.request.url)
                    route.abort()

            page.route("**/*", route)
            page.on("requestfailed", lambda request: failed.append(request.url))
            page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(path.as_uri())

            def at(step: int) -> None:
                # a locator assertion polls without evaluating a string, which the page's CSP (no 'unsafe-eval')
                # would refuse whenever the step is not shown at the first look
                sync_api.expect(page.locator("#board")).to_have_attribute("data-step", str(step), timeout=10_000)
                assert page.locator("#counter").inner_text() == f"Step {step} of {last}"
                assert page.locator("#line").inner_text() == (data["steps"][step][1] or "The start of the game.")

            drawn = reconstruct(data)

            def shows(step: int) -> None:
                shown = page.evaluate("document.getElementById('board').toDataURL('image/png')")
                image = Image.open(io.BytesIO(base64.b64decode(shown.split(",", 1)[1]))).convert("RGB")
                assert image.size == drawn[step].size and not ImageChops.difference(image, drawn[step]).getbbox(), \
                    f"the canvas is not step {step}'s image"

            at(0)
            shows(0)
            page.click("#next")
            at(1)
            page.click("#next")
            at(2)
            page.click("#prev")
            at(1)
            page.keyboard.press("ArrowRight")
            at(2)
            page.keyboard.press("ArrowLeft")
            page.keyboard.press("ArrowLeft")
            at(0)
            label, first = data["chapters"][2]
            page.select_option("#chapter", str(first))
            at(first)
            assert page.locator("#chapter option:checked").inner_text() == label
            shows(first)
            page.click("#last")
            at(last)
            shows(last)
            page.keyboard.press("ArrowLeft")  # one step back from the end: drawn again from a kept copy of the canvas
            at(last - 1)
            shows(last - 1)
            middle = last // 2
            page.locator("#log li").nth(middle).click()  # far back: drawn again from an earlier copy or the start
            at(middle)
            shows(middle)
            page.keyboard.press("Home")
            at(0)
            shows(0)
            page.locator("#score").scroll_into_view_if_needed()
            assert page.locator("#score-image").is_visible()
            assert "Final score:" in page.locator("#score-text").inner_text()
        finally:
            browser.close()
    assert not blocked and not failed, f"requests left the page: {blocked or failed}"
    assert not errors, errors
