"""Every admin page is usable at 360, 768 and 1920 px (issue 31, 2): no table column is hidden (at 800 px or
narrower every column after the third was, so the night results showed a round score under "Total" and the
plan's fields had no width), every field in a table keeps a width, the page never scrolls sideways, and at
1920 px the pages use the room. Screenshots: artifacts/web-screens/web-width-<px>-<page>.png."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import PhoneBox, log_in
from tests.web.test_night_web import _stored_night

pytestmark = [pytest.mark.slow]

WIDTHS = (360, 768, 1920)


def _problems(page: Any) -> list[str]:
    found: list[str] = page.evaluate("""() => {
        const out = [];
        const doc = document.documentElement;
        if (doc.scrollWidth > doc.clientWidth) out.push('the page scrolls sideways: ' + doc.scrollWidth);
        for (const table of document.querySelectorAll('table.list')) {
            const heads = [...table.querySelectorAll('thead th')].map(th => th.textContent.trim());
            table.querySelectorAll('th, td').forEach((cell, i) => {
                if (getComputedStyle(cell).display === 'none' || cell.offsetWidth === 0)
                    out.push('hidden cell: ' + (cell.textContent.trim() || cell.innerHTML.slice(0, 60)));
            });
            for (const row of table.querySelectorAll('tbody tr')) {
                if (heads.length && row.children.length === heads.length) continue;
                if (heads.length && row.children.length > heads.length) out.push('a row has more cells than heads');
            }
            for (const field of table.querySelectorAll('input:not([type=hidden]):not([type=checkbox]), select'))
                if (field.getBoundingClientRect().width < 48)
                    out.push('field too narrow: ' + field.name + ' ' + Math.round(field.getBoundingClientRect().width));
        }
        return out.slice(0, 10);
    }""")
    return found


def test_admin_pages_at_360_768_and_1920(phone_box: PhoneBox, browser: Any) -> None:
    night_id = _stored_night(phone_box.services.store)
    link = phone_box.services.link
    for i, name in enumerate(("Ann", "Bob", "Cat")):
        link.add_handset(f"hs-{i + 1}", name, battery=80, rssi=-60)  # type: ignore[attr-defined]
    pages = ["/live/", "/night/plan", f"/night/{night_id}", "/games/", "/decks/", "/handsets/", "/settings/",
             "/games/new"]
    problems: dict[str, list[str]] = {}
    main_width: dict[int, float] = {}
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        log_in(phone_box, page)
        for url in pages:
            page.goto(phone_box.url + url)
            found = _problems(page)
            phone_box.shot(page, f"width-{width}" + url.replace("/", "-").rstrip("-"))
            if found:
                problems[f"{width} {url}"] = found
        page.goto(phone_box.url + f"/night/{night_id}")
        main_width[width] = page.locator("main").bounding_box()["width"]
        context.close()
    assert problems == {}
    assert main_width[1920] >= 1600, main_width  # a 1920 screen is used, not a 1200 px column
