"""The web table in a real headless Chromium (Debian's chromium, driven by Playwright): a
person plays 20 full hands against the blueprint through the page -- buttons, the bet
slider and its presets, the next-hand button -- then downloads the hand histories.

Skips only when no Chromium is installed (CI installs Debian's `chromium` in .ci/run).
Set GAMESOLVE_SCREENSHOT=PATH to keep a screenshot of the table (docs/img/table.png is one).
"""

import os
import random
import re
import shutil

import pytest

from .conftest import Served, assert_clean_log

playwright = pytest.importorskip("playwright.sync_api", reason="the browser test needs playwright (the test extra)")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-sync"]  # fmt: skip
HANDS = 20
# the page has drawn a state (data-hand is set by the first one) in which the person acts or the hand is over
SETTLED = "body[data-hand][data-your-turn='true'], body[data-hand][data-in-hand='false']"

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed (apt-get install chromium)")


def test_twenty_hands_in_chromium_against_the_blueprint(tmp_path, tiny_blueprint):
    bp = f"blueprint:store={tiny_blueprint}"
    server = Served(["--game", "nlth", "--agents", f"{bp},{bp},{bp},{bp},{bp}", "--seed", "5", "--hands", str(HANDS)],
                    tmp_path / "data", tmp_path / "server.log")  # fmt: skip
    rng = random.Random(5)
    errors, raised, sized, folded = [], 0, 0, 0
    try:
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 800}, accept_downloads=True)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.set_default_timeout(30_000)
            page.goto(server.url + "/")
            for _ in range(2000):
                page.wait_for_selector(SETTLED)
                body = page.locator("body")
                if body.get_attribute("data-over") == "true":
                    break
                if body.get_attribute("data-in-hand") == "false":
                    hand = body.get_attribute("data-hand")
                    page.click("#next")
                    page.wait_for_function(f"document.body.dataset.hand !== '{hand}' || document.body.dataset.over === 'true'")
                    continue
                before = page.locator("#log li").count()
                keys = page.locator("#choices button").evaluate_all("bs => bs.map(b => b.dataset.key)")
                u = rng.random()
                if page.locator("#amount").is_visible() and u < 0.25:
                    presets = page.locator("#presets button")
                    presets.nth(rng.randrange(presets.count())).click()  # a preset sets the slider
                    page.click("#raise")
                    raised += 1
                elif page.locator("#amount").is_visible() and u < 0.35:
                    slider = page.locator("#slider")
                    lo, hi = int(slider.get_attribute("min")), int(slider.get_attribute("max"))
                    slider.fill(str(lo + (hi - lo) // 7))  # drag the slider: the box follows
                    assert page.locator("#amount-box").input_value() == str(lo + (hi - lo) // 7)
                    page.click("#raise")
                    sized += 1
                elif "f" in keys and u < 0.45:
                    page.click("#choices button[data-key='f']")
                    folded += 1
                else:
                    page.click("#choices button[data-key='c']")
                page.wait_for_function(f"document.querySelectorAll('#log li').length > {before} || document.body.dataset.inHand === 'false'")
            assert page.locator("body").get_attribute("data-over") == "true"
            assert page.locator("body").get_attribute("data-hands-played") == str(HANDS)
            result = page.locator("#result").inner_text()
            assert re.search(rf"^{HANDS} hands: [+-]\d+\.\d bb/100 ± \d+\.\d", result), result
            assert "blueprint" in page.locator("#log").inner_text() and " ms" in page.locator("#log").inner_text()
            assert page.locator(".seat").count() == 6
            with page.expect_download() as download:
                page.click("#history")
            saved = tmp_path / "hands.phhs"
            download.value.save_as(saved)
            if os.environ.get("GAMESOLVE_SCREENSHOT"):
                _screenshot(page, os.environ["GAMESOLVE_SCREENSHOT"])
            browser.close()
    finally:
        server.stop()
    assert not errors, errors
    assert raised + sized > 0 and folded > 0
    assert saved.read_text().count("variant = 'NT'") == HANDS
    assert_clean_log(server.log())


def _screenshot(page, path):
    """A table for the docs: a new table, one hand played (so the coach and the session
    result show), then the person's first decision of the next hand."""
    page.click("#new-table")
    page.wait_for_function("document.body.dataset.hand === '1' && document.body.dataset.handsPlayed === '0'")
    while page.locator("body").get_attribute("data-hands-played") == "0":
        page.wait_for_selector(SETTLED)
        if page.locator("body").get_attribute("data-in-hand") == "true":
            before = page.locator("#log li").count()
            page.click("#choices button[data-key='c']")
            page.wait_for_function(f"document.querySelectorAll('#log li').length > {before} || document.body.dataset.inHand === 'false'")
    page.wait_for_timeout(300)
    page.screenshot(path=str(path).replace(".png", "-coach.png"))
    page.click("#next")
    page.wait_for_selector("body[data-your-turn='true']")
    page.wait_for_timeout(300)
    page.screenshot(path=path)
