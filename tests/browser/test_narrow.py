"""Every admin page is usable on a 360 px phone (issue 20): nothing overflows sideways, and Help is one
tap away on each. The TV in a browser fills a projector's screen."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import PhoneBox, log_in
from tests.web.tables import start

pytestmark = [pytest.mark.slow]

PAGES = ["/live/", "/live/seats", "/games/new", "/handsets/", "/decks/", "/decks/new", "/decks/import", "/games/",
         "/help", "/password"]


def _overflow(page: Any) -> list[str]:
    """The elements that stick out to the right of the viewport (empty when the page fits); a wide table's
    cells inside its own sideways scroll box (style.css, issue 31, 2) are reachable, so not counted."""
    result: list[str] = page.evaluate("""() => {
        const width = document.documentElement.clientWidth;
        const out = [];
        if (document.documentElement.scrollWidth > width) out.push('page ' + document.documentElement.scrollWidth);
        const scrolls = (el) => { for (let a = el.parentElement; a; a = a.parentElement)
            if (['auto', 'scroll'].includes(getComputedStyle(a).overflowX)) return true; return false; };
        for (const el of document.querySelectorAll('body *')) {
            if (scrolls(el)) continue;
            const r = el.getBoundingClientRect();
            if (r.width && r.right > width + 1 && getComputedStyle(el).position !== 'fixed')
                out.push(el.tagName + '.' + el.className + ' ' + Math.round(r.right));
        }
        return out.slice(0, 8);
    }""")
    return result


def test_no_admin_page_overflows_a_360px_phone(phone_box: PhoneBox, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    log_in(phone_box, page)
    link = phone_box.services.link
    for i, name in enumerate(("Alexandra-the-Great", "Bob", "Catherine Zeta", "Dan")):
        link.add_handset(f"hs-{i}", name, battery=80, rssi=-60)  # type: ignore[attr-defined]
    flow = start("confident", {"target": 4})
    link.board_state.update({  # type: ignore[attr-defined]
        "scene": "playing", "game": "confident", "can_advance": True, "waiting": True, "remaining": 30,
        "players": [{"name": n, "handset": f"hs-{i}", "colour": "#E69F00", "online": True, "battery": 80,
                     "rssi": -60, "seated": True} for i, n in enumerate(("Ann", "Bob", "Cat"))],
        "seats": ["Ann", "Bob", "Cat"], "view": flow.board(), "seat_codes": {"Cat": "1234"}})
    link.changed()  # type: ignore[attr-defined]
    decks = phone_box.services.store.decks()
    builtin = next(d for d in decks if d["builtin"])
    deck = phone_box.services.store.deck(builtin["id"])
    assert deck is not None
    pages = [*PAGES, f"/decks/{builtin['id']}", f"/decks/{builtin['id']}/cards/{deck['cards'][0]['id']}"]
    problems = {}
    for url in pages:
        page.goto(phone_box.url + url)
        assert page.locator("a[href='/help']").count() == 1, url
        found = _overflow(page)
        if found:
            problems[url] = found
            phone_box.shot(page, "narrow" + url.replace("/", "-"))
    assert problems == {}
    context.close()


def test_the_tv_in_a_browser_fills_the_screen(phone_box: PhoneBox, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.goto(phone_box.url + "/tv")  # no login
    page.wait_for_function("document.getElementById('tv').naturalWidth === 1280")
    box = page.locator("img#tv").bounding_box()
    assert box is not None and box["width"] == 1920 and box["height"] == 1080
    phone_box.shot(page, "tv")
    context.close()
