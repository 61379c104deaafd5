"""The dashboard in a real headless Chromium (Debian ``chromium`` + ``chromium-driver``, driven by
Selenium with the system chromedriver; Selenium Manager never downloads anything). Screenshots go to
``tests/artifacts/`` (gitignored). Outside CI a machine without Chromium skips; in CI (``CI=true``)
it fails, so the browser test can never silently stop running (``.ci/chromium.sh`` installs it)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from shared_core.engine import MemoryEngine
from shared_core.schema import Claim, Ledger

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
NS = "user:maya"
HOSTILE = "<script>window.__pwned = 1</script>\"><img src=x onerror=\"window.__pwned = 2\">"


def _require_chromium() -> None:
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not os.access(p, os.X_OK)]
    try:
        import selenium  # noqa: F401
    except ModuleNotFoundError:
        missing.append("selenium (pip, test extra)")
    if missing:
        message = f"headless Chromium test needs {missing}: run .ci/chromium.sh"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture
def browser(tmp_path, monkeypatch):
    _require_chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    monkeypatch.setenv("SE_OFFLINE", "true")              # Selenium Manager: never reach the network
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                 f"--user-data-dir={tmp_path / 'chromium-profile'}", "--window-size=1400,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.implicitly_wait(10)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()


def _texts(driver, ledger: str) -> set[str]:
    from selenium.webdriver.common.by import By

    return {a.text for a in driver.find_elements(By.CSS_SELECTOR, f"#{ledger} a.entry")}


def test_replay_slider_entry_dag_and_accept(browser, demo_store, serve_ui):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    with MemoryEngine.open(demo_store) as engine:                  # one dependency, so the DAG has an edge
        job = next(e for e in engine.state(NS).accepted if "Nordlys" in e.text)
        engine.write(Claim(text="Maya commutes by tram to the office", namespace=NS, depends_on=(job.id,)))
        head = engine.store.head()
        now = {e.text for e in engine.state(NS).accepted}
    read_only = serve_ui(demo_store)
    browser.get(f"{read_only}/ledgers?ns={NS}")
    assert _texts(browser, "accepted") == now
    assert browser.find_element(By.ID, "mode").text == "read-only"
    browser.save_screenshot(str(ARTIFACTS / "ledgers_now.png"))

    slider = browser.find_element(By.ID, "as_of")
    assert int(slider.get_attribute("value")) == head
    # press at the middle of the track, drag further left, release: the page replays that transaction
    ActionChains(browser).click_and_hold(slider).move_by_offset(-int(slider.size["width"] * 0.15), 0).release().perform()
    WebDriverWait(browser, 20).until(EC.url_contains("as_of="))
    as_of = int(browser.find_element(By.ID, "as_of").get_attribute("value"))
    assert 1 <= as_of < head - 2
    with MemoryEngine.open(demo_store) as engine:
        then = engine.state(NS, as_of=as_of)
    for ledger in ("accepted", "pending", "history"):                             # the earlier state, exactly
        assert _texts(browser, ledger) == {e.text for e in getattr(then, ledger)}
    assert _texts(browser, "accepted") != now and "Maya commutes by tram to the office" not in _texts(browser, "accepted")
    assert f"As it was after transaction {as_of}" in browser.find_element(By.ID, "showing").text
    browser.save_screenshot(str(ARTIFACTS / "ledgers_replayed.png"))

    browser.get(f"{read_only}/ledgers?ns={NS}")
    browser.find_element(By.LINK_TEXT, job.text).click()
    assert "Maya commutes by tram to the office" in browser.find_element(By.ID, "rests-on-it").text
    browser.find_element(By.LINK_TEXT, "Maya commutes by tram to the office").click()
    assert job.text in browser.find_element(By.ID, "rests-on").text
    browser.save_screenshot(str(ARTIFACTS / "entry_dag.png"))

    writable = serve_ui(demo_store, write=True)
    browser.get(f"{writable}/pending")
    item = browser.find_element(By.CSS_SELECTOR, ".pending-item")
    pending_text, pending_id = item.find_element(By.CSS_SELECTOR, "a.entry").text, item.get_attribute("data-id")
    item.find_element(By.CSS_SELECTOR, "button.accept").click()
    assert "pending → accepted" in browser.find_element(By.ID, "done").text
    assert not browser.find_elements(By.CSS_SELECTOR, f'.pending-item[data-id="{pending_id}"]')
    browser.get(f"{writable}/ledgers?ns={NS}")
    assert pending_text in _texts(browser, "accepted")
    browser.save_screenshot(str(ARTIFACTS / "accepted.png"))
    with MemoryEngine.open(demo_store) as engine:
        assert engine.get(pending_id).ledger is Ledger.ACCEPTED


def test_hostile_memory_renders_as_text_in_the_browser(browser, tmp_path, serve_ui):
    from selenium.webdriver.common.by import By

    ns = f"ns:{HOSTILE}"
    with MemoryEngine.open(tmp_path / "s") as engine:
        d = engine.write(Claim(text=f"Eve wrote {HOSTILE}", namespace=ns))
    base = serve_ui(tmp_path / "s")
    for url in (f"{base}/", f"{base}/entry?id={d.entry_id}", f"{base}/pending"):
        browser.get(url)
        assert browser.execute_script("return window.__pwned === undefined")
        assert not browser.find_elements(By.CSS_SELECTOR, "main img")
    assert browser.find_element(By.TAG_NAME, "main").text.count("<script>window.__pwned = 1</script>") >= 1
    browser.get(f"{base}/entry?id={d.entry_id}")
    assert HOSTILE in browser.find_element(By.ID, "entry-text").text
    browser.save_screenshot(str(ARTIFACTS / "hostile_entry.png"))
    shutil.rmtree(tmp_path / "chromium-profile", ignore_errors=True)


def test_missing_chromium_fails_in_ci_and_skips_elsewhere(monkeypatch, tmp_path):
    import sys

    module = sys.modules[__name__]
    monkeypatch.setattr(module, "CHROMIUM", str(tmp_path / "no-chromium"))
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="run .ci/chromium.sh"):
        _require_chromium()
    monkeypatch.setenv("CI", "")
    with pytest.raises(pytest.skip.Exception):
        _require_chromium()
