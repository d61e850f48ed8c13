"""A reader's session in a real browser (Debian's chromium through Playwright, never ``playwright install``),
on the sample corpus served by waitress: search from the home page, filter by a translation (the filter
shows in the form and stays for the next search), turn pages, open the concordance and a pair, download
what the page shows; on a desktop window and at 390 px (a phone), where nothing may leave the screen.
"""

from __future__ import annotations

import re

import pytest

from .test_browser import CHROMIUM, browser, server  # noqa: F401  (the same server and browser fixtures)

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary (apt install chromium)")

WIDTHS = [1280, 390]  # a desktop window, a phone


@pytest.fixture(params=WIDTHS, ids=lambda w: f"{w}px")
def page(request, browser):  # noqa: F811
    width = request.param
    # bypass_csp: the test reads the layout with a script; the pages themselves run none
    ctx = browser.new_context(viewport={"width": width, "height": 900}, accept_downloads=True, bypass_csp=True)
    p = ctx.new_page()
    p.width = width
    yield p
    ctx.close()


def fits_the_screen(page) -> None:
    """Nothing pushes the page sideways: it is no wider than the window."""
    assert page.evaluate("document.documentElement.scrollWidth") <= page.width


def total(page) -> int:
    return int(page.inner_text("#total"))


def test_search_filter_by_translation_and_keep_the_filter(page, server):  # noqa: F811
    page.goto(server + "/")
    assert int(page.inner_text("#pairs")) > 0
    fits_the_screen(page)
    page.fill("input[name=q]", "conta")
    page.select_option("select[name=lang]", "pt")
    page.press("input[name=q]", "Enter")
    page.wait_for_selector("article.hit")
    fits_the_screen(page)
    box = page.locator("article.hit").first.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= page.width
    before = total(page)

    choice = page.locator("#translations li a").first
    word = choice.inner_text()
    choice.click()
    page.wait_for_load_state()
    assert page.input_value("input[name=translation]") == word  # the filter is in the form
    assert 0 < total(page) <= before
    shown = page.locator("article.hit .tgt mark").all_inner_texts()
    assert shown and all(word.lower() in t.lower() for t in shown)

    page.fill("input[name=q]", "contas")  # the next search keeps the translation filter
    page.press("input[name=q]", "Enter")
    page.wait_for_load_state()
    assert "translation=" in page.url and page.input_value("input[name=translation]") == word


def test_turn_pages_open_the_concordance_and_a_pair(page, server):  # noqa: F811
    page.goto(server + "/?q=contrato&lang=pt&per_page=10")
    first_ids = page.locator("article.hit .meta a").all_inner_texts()
    page.click("nav.pages a:text-is('2')")
    page.wait_for_load_state()
    assert page.inner_text("nav.pages [aria-current=page]") == "2"
    assert page.locator("article.hit .meta a").all_inner_texts() != first_ids

    page.click("a.view:text('concordance view')")
    page.wait_for_load_state()
    rows = page.locator("table.kwic tbody tr")
    assert rows.count() == 10
    fits_the_screen(page)
    for cell in ("td.kw", "td.trans"):  # the hit and its translation are on screen, whatever the width
        box = page.locator(f"table.kwic {cell}").first.bounding_box()
        assert 0 <= box["x"] and box["x"] + box["width"] <= page.width, cell
    text = page.inner_text("table.kwic")
    assert not re.search(r"<NAME|_PERSON>|ATION>", text)  # placeholders are drawn whole, as tags
    page.click("a.sort:text('right context')")
    page.wait_for_load_state()
    assert "sort=right" in page.url and page.locator("table.kwic td.kw").count() == 10
    trans = page.locator("table.kwic td.trans").all_inner_texts()
    assert all(t.strip() for t in trans)  # a translation or "not aligned", never empty

    page.locator("table.kwic a:text('pair')").first.click()
    page.wait_for_load_state()
    assert page.locator("#alignment tbody tr").count() > 3
    assert page.locator("article.hit.context").count() >= 1  # the neighbouring segments of the document
    fits_the_screen(page)


@pytest.mark.parametrize("view", ["pairs", "kwic"])
def test_download_what_the_page_shows(page, server, tmp_path, view):  # noqa: F811
    page.goto(server + f"/?q=contrato&lang=pt&view={view}")
    if view == "pairs":  # under a translation filter too
        page.locator("#translations li a").first.click()
        page.wait_for_load_state()
    shown = total(page)
    with page.expect_download() as dl:
        page.click("a.dl:text('tsv')")
    saved = tmp_path / dl.value.suggested_filename
    dl.value.save_as(saved)
    rows = saved.read_text(encoding="utf-8").split("\n")[:-1]
    assert rows[0].split("\t") == ["id", "doc", "pt", "en"] and len(rows) - 1 == shown


def test_an_error_is_a_page_of_the_portal(page, server):  # noqa: F811
    r = page.goto(server + "/?q=" + "x" * 5000)
    assert r.status == 414 and "too long" in page.inner_text("main")
    r = page.goto(server + "/?q=contrato%20AND")
    assert r.status == 400 and "ends with AND" in page.inner_text("main")
    assert page.input_value("input[name=q]") == "contrato AND"  # the query stays to be corrected
