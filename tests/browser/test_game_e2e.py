"""The whole evening in chromium: first run, log in, import a deck (and a broken one), three phones join,
set up a game of Confident? from the imported deck and play it to the winner with the phones' own
controls (a Double and a Copy among them) and the live page's Next. Screenshots go to
artifacts/web-screens (docs/img/web-live.png and web-phone.png are copies of web-live-reveal.png and
web-phone-question.png)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Box, _expect
from tests.web.samples import BAD_CSV, GOOD_CSV

pytestmark = [pytest.mark.mqtt, pytest.mark.slow]

PASSWORD = "pub-quiz-night"
ANSWERS = {  # the Pub night deck (tests/web/samples.py): question -> answer; the box deals them in any order
    "How many people have walked on the Moon?": 12,
    "How many legs does a spider have?": 8,
}
TARGET = 4


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


def _question(phone: Any) -> int:
    """The answer to the question on this phone's screen."""
    _expect()(phone.locator("input[name=bottom]")).to_be_visible(timeout=10_000)
    text = phone.locator(".prompt-text").inner_text().strip()
    return next(answer for question, answer in ANSWERS.items() if text.endswith(question))


def _range(phone: Any, bottom: int, top: int, double: bool = False, shot: Any = None) -> None:
    """Type a range with the phone's keyboard (and tick Double); lock it in."""
    phone.locator("input[name=bottom]").fill(str(bottom))
    phone.locator("input[name=bottom]").press("Enter")  # on to "To", not sent
    _expect()(phone.locator("input[name=top]")).to_be_focused()
    phone.keyboard.type(str(top))
    if double:
        phone.check("input[name=double]")
    if shot is not None:
        shot(phone)
    phone.click("button:has-text('Lock in')")
    _expect()(phone.locator(".phone-panel")).to_contain_text("Locked in", timeout=10_000)


def _copy(phone: Any, name: str) -> None:
    """Copy another player's range (a boost): the range fields grey out, nothing to type."""
    phone.select_option("select[name=copy]", name)
    _expect()(phone.locator("input[name=bottom]")).to_be_disabled()
    phone.click("button:has-text('Lock in')")
    _expect()(phone.locator(".phone-panel")).to_contain_text(f"copy {name}", timeout=10_000)


def _next(admin: Any, label: str) -> None:
    """The quizmaster's Next on the live page, once it says what it will do."""
    button = admin.locator("button[name=cmd][value=next]")
    _expect()(button).to_have_text(label, timeout=10_000)
    _expect()(button).to_be_enabled()
    button.click()
    _expect()(admin.locator(".flash")).to_contain_text("Next: done")


def test_a_game_of_confident_with_three_phone_handsets(box: Box, browser: Any, tmp_path: Path) -> None:
    expect = _expect()
    admin_context = browser.new_context(viewport={"width": 1280, "height": 900})
    admin = admin_context.new_page()
    _first_run_and_login(box, admin)

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

    phones = {name: _join(box, browser, name)[1] for name in ("Ann", "Bob", "Cat")}
    ann, bob, cat = phones["Ann"], phones["Bob"], phones["Cat"]
    box.shot(ann, "phone-lobby")
    admin.goto(box.url + "/live/")
    expect(admin.locator(".players li.online")).to_have_count(3)
    box.shot(admin, "live-lobby")

    admin.goto(box.url + "/handsets/")
    expect(admin.locator("article.handset.online")).to_have_count(3)
    box.shot(admin, "handsets")

    # set up: Confident? to 4 points with Fast Play's clock (long enough never to run out here)
    admin.goto(box.url + "/games/new")
    expect(admin.locator("input[name=game][value=confident]")).to_be_checked()
    admin.fill("input[name='confident.target']", str(TARGET))
    admin.check("input[name='confident.variant:fast_play']")
    admin.fill("input[name='confident.fast_play_seconds']", "300")
    for seat, name in enumerate(("Ann", "Bob", "Cat")):
        expect(admin.locator(f"input[name=player-{seat}]")).to_have_value(name)
    admin.select_option("select[name=deck]", "pub-night")
    admin.click("summary:has-text('Only some cards')")  # leave out the science card (pub-3)
    admin.check("input[name=category][value=space]")
    admin.check("input[name=category][value=nature]")
    box.shot(admin, "setup")
    admin.click("button:has-text('Start the game')")
    expect(admin.locator(".flash")).to_contain_text("The game has started")
    expect(admin.locator(".state h1")).to_contain_text("Playing Confident?")

    # Q1: Ann exact (3 points), Bob wrong and doubles it (still 0), Cat right but wide (1)
    answer = _question(ann)
    expect(admin.locator(".state .turn")).to_contain_text("Waiting for Ann, Bob, Cat")
    clock = admin.locator(".clock .seconds")
    first = int(clock.inner_text())
    assert 0 < first <= 300
    expect(clock).not_to_have_text(str(first), timeout=5_000)  # the live page counts the clock down
    assert int(clock.inner_text()) < first
    _range(ann, answer, answer, shot=lambda p: box.shot(p, "phone-question"))
    expect(admin.locator(".state .turn")).to_contain_text("Waiting for Bob, Cat")
    _range(bob, answer + 100, answer + 200, double=True)
    _range(cat, 0, answer + 50)
    box.shot(cat, "phone-locked")
    _next(admin, "Reveal")
    expect(ann.locator(".prompt-title")).to_have_text(re.compile(r"Answer: "), timeout=10_000)
    expect(ann.locator(".prompt-text")).to_have_text("You scored +3. Total 3.")
    expect(bob.locator(".prompt-text")).to_have_text("You scored +0. Total 0.")
    expect(admin.locator("table.scores tbody tr")).to_have_text([re.compile(r"Ann\s*3"), re.compile(r"Bob\s*0"),
                                                                  re.compile(r"Cat\s*1")])
    box.shot(admin, "live-reveal")

    # Q2: Cat exact (3: she reaches the target), Bob copies Cat (3), Ann wrong (0): Cat alone crossed
    _next(admin, "Next question")
    answer = _question(cat)
    expect(bob.locator("select[name=copy]")).to_be_visible()
    expect(bob.locator("input[name=double]")).to_have_count(0)  # Bob's Double is used up (rules.md Confident 5)
    _range(cat, answer, answer)
    _copy(bob, "Cat")
    _range(ann, answer + 100, answer + 200)
    _next(admin, "Reveal")

    expect(admin.locator(".state h1")).to_contain_text("Game over")
    expect(admin.locator(".state .winner")).to_contain_text("Winner: Cat")
    expect(admin.locator("table.scores tr.won")).to_contain_text("Cat")
    expect(admin.locator("table.scores tbody tr")).to_have_text([re.compile(r"Ann\s*3"), re.compile(r"Bob\s*3"),
                                                                  re.compile(r"Cat\s*4")])
    box.shot(admin, "live-results")
    for phone in phones.values():
        expect(phone.locator(".prompt-title")).to_have_text("Game over", timeout=10_000)
    expect(cat.locator(".prompt-text")).to_have_text("You win! You scored 4.")
    expect(ann.locator(".prompt-text")).to_have_text("Winner: Cat You scored 3.")
    box.shot(cat, "phone-game-over")

    admin.goto(box.url + "/games/")
    row = admin.locator("table.list tbody tr").first
    expect(row).to_contain_text("Confident?")
    expect(row).to_contain_text("Cat")
    expect(row).to_contain_text("finished")
    admin.click("table.list tbody tr >> nth=0 >> a")
    expect(admin.locator(".winner")).to_contain_text("Cat")
    box.shot(admin, "result")
    stored = box.store.games(limit=1)[0]
    assert stored.game == "confident" and stored.status == "finished" and stored.result is not None
    assert stored.result["scores"] == {"Ann": 3, "Bob": 3, "Cat": 4} and stored.result["winners"] == ["Cat"]
    assert stored.setup["options"]["target"] == TARGET
    assert {c["id"] for c in stored.setup["cards"]} == {"pub-night/pub-1", "pub-night/pub-2"}  # deck and filters
    assert re.fullmatch(r"phone-[a-z0-9]{8}", stored.seats["Cat"])
    boosts = [e for e in stored.log if e.get("copy") or e.get("double")]
    assert [(e["player"], e.get("copy"), e.get("double")) for e in boosts] == [("Bob", None, True),
                                                                               ("Bob", "Cat", False)]
    for phone in phones.values():
        phone.context.close()
    admin_context.close()
