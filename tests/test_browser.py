"""The portal in a real browser: Debian's chromium driven by Playwright (never ``playwright install``).

A translator's session on the sample corpus: search a Portuguese word, see the hit highlighted beside
its highlighted translation, open a translation from the panel, download the result, and keep a
screenshot. The server is the production one (waitress), on a free local port.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
from pathlib import Path

import pytest

CHROMIUM = next((p for p in (os.environ.get("PARANON_CHROMIUM"), shutil.which("chromium"),
                             shutil.which("chromium-browser"), "/usr/bin/chromium") if p and Path(p).exists()), None)

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary (apt install chromium)")


@pytest.fixture(scope="module")
def server(sample_out):
    waitress = pytest.importorskip("waitress")
    from paranon.search_portal.app import create_app

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    srv = waitress.create_server(create_app({"OUTDIR": str(sample_out)}), host="127.0.0.1", port=port, threads=4)
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    yield f"http://127.0.0.1:{port}"
    srv.close()


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield b
        b.close()


def test_a_translator_searches_opens_a_translation_and_downloads(server, browser, tmp_path, sample_out):
    page = browser.new_page(accept_downloads=True)
    page.goto(server + "/")
    page.fill("input[name=q]", "contas")
    page.select_option("select[name=lang]", "pt")
    page.press("input[name=q]", "Enter")
    page.wait_for_selector("article.hit")

    first = page.locator("article.hit").first
    assert first.locator(".src mark").first.inner_text().lower().startswith("conta")
    # the aligned translation is highlighted (in the hits where the aligner linked the word; on a corpus this
    # small a few links go astray)
    translated = [t.lower() for t in page.locator("article.hit .tgt mark").all_inner_texts()]
    assert sum("account" in t for t in translated) >= 2, translated
    total = int(page.inner_text("#total"))
    assert total > 1

    panel = page.locator("#translations li a")
    assert panel.count() >= 1
    choice = panel.first.inner_text()
    panel.first.click()
    page.wait_for_load_state()
    assert "translation=" in page.url
    shown = page.locator("article.hit .tgt mark")
    assert shown.count() >= 1 and all(choice.lower() in t.lower() for t in shown.all_inner_texts())
    assert int(page.inner_text("#total")) <= total

    with page.expect_download() as dl:
        page.click("a.dl:text('tsv')")
    saved = tmp_path / dl.value.suggested_filename
    dl.value.save_as(saved)
    rows = saved.read_text(encoding="utf-8").splitlines()
    assert len(rows) >= 2 and all("conta" in r.lower() for r in rows[1:])

    shot = tmp_path / "portal.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
    keep = os.environ.get("PARANON_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(keep) / shot.name)
    page.close()


def test_a_placeholder_is_shown_as_a_tag_not_as_markup(server, browser):
    page = browser.new_page()
    page.goto(server + "/?q=%3CNAME_PERSON%3E&lang=pt")
    page.wait_for_selector("article.hit")
    tag = page.locator("article.hit .src .ph-person").first
    assert tag.count() == 1
    assert tag.inner_text().startswith("PERSON")
    assert "<NAME" not in page.locator("article.hit").first.inner_text()
    page.close()
