"""The whole evening in chromium: first run, log in, import a deck (and a broken one), three phones join,
set up and start a game, play it to the end, see the winner. Screenshots go to artifacts/web-screens."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Box
from tests.web.samples import BAD_CSV, GOOD_CSV

pytestmark = [pytest.mark.mqtt, pytest.mark.slow]

PASSWORD = "pub-quiz-night"
ANSWERS = {  # per card (pub-1: 12, pub-2: 8, pub-3: 2): Ann always right, Bob never, Cat twice
    "Ann": [("10", "14"), ("8", "8"), ("1", "3")],
    "Bob": [("100", "200"), ("20", "30"), ("50", "60")],
    "Cat": [("12", "12"), ("1", "2"), ("2", "2")],
}


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def _first_run_and_login(box: Box, page: Any) -> None:
    page.goto(box.url + "/decks/")
    assert page.url.endswith("/setup")
    page.fill("input[name=code]", box.services.account.setup_code())
    page.fill("input[name=password]", PASSWORD)
    page.fill("input[name=again]", PASSWORD)
    page.click("button:has-text('Save the password')")
    _expect()(page.locator(".flash")).to_contain_text("Password saved")
    page.click("button:has-text('Log out')")
    page.fill("input[name=password]", "not-it")
    page.click("button:has-text('Log in')")
    _expect()(page.locator(".error")).to_contain_text("Wrong password")
    page.fill("input[name=password]", PASSWORD)
    page.click("button:has-text('Log in')")
    _expect()(page.locator("h1")).to_contain_text("Lobby")


def _import(box: Box, page: Any, tmp: Path, tmp_name: str, text: str, name: str) -> None:
    path = tmp / tmp_name
    path.write_text(text, encoding="utf-8")
    page.goto(box.url + "/decks/import")
    page.set_input_files("input[name=file]", str(path))
    page.fill("input[name=name]", name)
    page.click("button:has-text('Import')")


def _join(box: Box, browser: Any, name: str) -> tuple[Any, Any]:
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    phone = context.new_page()
    phone.goto(box.url + "/join")
    phone.fill("input[name=name]", name)
    phone.click("button:has-text('Join the game')")
    _expect()(phone.locator(".phone-panel")).to_contain_text(f"You are {name}", timeout=10_000)
    return context, phone


def _answer(phone: Any, bottom: str, top: str, shot: Any = None) -> None:
    _expect()(phone.locator("input[name=bottom]")).to_be_visible(timeout=10_000)
    phone.fill("input[name=bottom]", bottom)
    phone.fill("input[name=top]", top)
    if shot is not None:
        shot(phone)
    phone.click("button:has-text('Lock in')")
    # the ack locks the entry in; the test game then shows its own "Locked in" screen
    _expect()(phone.locator(".phone-panel")).to_contain_text("Locked in", timeout=10_000)


def _next(admin: Any) -> None:
    admin.click("button[value=next]")
    _expect()(admin.locator(".flash")).to_contain_text("Next: done")


def test_a_whole_game_with_three_phone_handsets(box: Box, browser: Any, tmp_path: Path) -> None:
    expect = _expect()
    admin_context = browser.new_context(viewport={"width": 1280, "height": 900})
    admin = admin_context.new_page()
    _first_run_and_login(box, admin)
    box.shot(admin, "live-lobby")

    # a broken deck: every bad row listed, nothing saved
    before = box.store.decks()
    _import(box, admin, tmp_path, "broken.csv", BAD_CSV, "Broken")
    expect(admin.locator(".error")).to_contain_text("Nothing was imported")
    problems = admin.locator("ul.problems li")
    expect(problems).to_have_count(2)
    expect(problems.nth(0)).to_contain_text("line 3 (bad-2), column 'answer'")
    expect(problems.nth(1)).to_contain_text("line 4 (bad-3), column 'hint1'")
    box.shot(admin, "import-errors")
    assert box.store.decks() == before

    _import(box, admin, tmp_path, "pub.csv", GOOD_CSV, "Pub night")
    expect(admin.locator(".flash")).to_contain_text("Imported 3 cards into 'Pub night'")
    box.shot(admin, "deck")

    phones = {name: _join(box, browser, name) for name in ("Ann", "Bob", "Cat")}
    box.shot(phones["Ann"][1], "phone-lobby")

    admin.goto(box.url + "/handsets/")
    expect(admin.locator("article.handset.online")).to_have_count(3)
    box.shot(admin, "handsets")

    admin.goto(box.url + "/games/new")
    admin.check("input[name=game][value=winners]")
    for seat, name in enumerate(("Ann", "Bob", "Cat")):
        expect(admin.locator(f"input[name=player-{seat}]")).to_have_value(name)
    admin.select_option("select[name=deck]", "pub-night")
    box.shot(admin, "setup")
    admin.click("button:has-text('Start the game')")
    expect(admin.locator(".flash")).to_contain_text("The game has started")
    expect(admin.locator(".state h1")).to_contain_text("Playing winners")

    for card in range(3):
        for name, (_, phone) in phones.items():
            first = card == 0 and name == "Ann"
            _answer(phone, *ANSWERS[name][card], shot=(lambda p: box.shot(p, "phone-question")) if first else None)
        if card == 0:
            box.shot(phones["Cat"][1], "phone-locked")
        admin.goto(box.url + "/live/")
        _next(admin)  # reveal
        expect(phones["Ann"][1].locator(".prompt-title")).to_have_text("Answer", timeout=10_000)
        if card == 0:
            box.shot(admin, "live-reveal")
        _next(admin)  # the next card, or the end after the last

    expect(admin.locator(".state h1")).to_contain_text("Game over")
    expect(admin.locator(".state .winner")).to_contain_text("Winner: Ann")
    expect(admin.locator("table.scores tr.won")).to_contain_text("Ann")
    box.shot(admin, "live-results")
    for _, phone in phones.values():
        expect(phone.locator(".prompt-title")).to_have_text("Game over", timeout=10_000)
    expect(phones["Ann"][1].locator(".prompt-text")).to_have_text("You scored 3")
    box.shot(phones["Ann"][1], "phone-game-over")

    admin.goto(box.url + "/games/")
    row = admin.locator("table.list tbody tr").first
    expect(row).to_contain_text("Ann")
    expect(row).to_contain_text("finished")
    admin.click("table.list tbody tr >> nth=0 >> a")
    expect(admin.locator(".winner")).to_contain_text("Ann")
    box.shot(admin, "result")
    stored = box.store.games(limit=1)[0]
    assert stored.status == "finished" and stored.result is not None
    assert stored.result["scores"] == {"Ann": 3, "Bob": 0, "Cat": 2}
    assert re.fullmatch(r"phone-[a-z0-9]{8}", stored.seats["Ann"])
    for context, _ in phones.values():
        context.close()
    admin_context.close()
