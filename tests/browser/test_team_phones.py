"""A team on two phones (rules.md room-6) in chromium on a real box (mosquitto, the appliance, the admin
server under waitress): the second phone joins its team's seat with the team code the first phone shows;
both show the team's question; both answer at once: exactly one input counts, both show the ack; the
admin page lists the second phone as playing for the team, and the TV's board lists the team once."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Box
from tests.browser.test_evening import _setup, _start

pytestmark = [pytest.mark.mqtt, pytest.mark.slow]


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def test_two_phones_of_one_team_answer_at_once_one_counts_both_show_the_ack(
        box: Box, browser: Any, tmp_path: Path) -> None:
    expect = _expect()
    admin, phones = _setup(box, browser, tmp_path, ["Ann", "Bob", "Cat", "Ann two"])
    ann, bob, ann2 = phones["Ann"], phones["Bob"], phones["Ann two"]

    # Ann's first phone shows its team code; her second phone joins her seat with it
    expect(ann.locator(".team-code")).to_have_text(re.compile(r"^\d{6}$"), timeout=10_000)
    code = ann.locator(".team-code").inner_text().strip()
    ann2.locator(".team input[name=team_code]").fill(code)
    ann2.click("button:has-text('Join my team')")
    expect(ann2.locator(".flash")).to_contain_text("Ann two now plays for Ann", timeout=10_000)
    expect(ann2.locator(".phone-head .me")).to_contain_text("playing for Ann", timeout=10_000)

    # the admin page: the second phone plays for Ann, no seat of its own
    admin.goto(box.url + "/handsets/")
    expect(admin.locator("article.handset", has_text="Ann two")).to_contain_text("plays for Ann")

    _start(box, "confident", ["Ann", "Bob", "Cat"], {"target": 15})
    for phone in (ann, ann2):
        expect(phone.locator("input[name=bottom]")).to_be_visible(timeout=10_000)
    assert ann.locator(".prompt-text").inner_text() == ann2.locator(".prompt-text").inner_text()
    board = box.services.link.board() or {}
    assert [p["name"] for p in board.get("players", [])] == ["Ann", "Bob", "Cat"]  # the team once on the TV

    # both phones of the team answer at once: both forms are filled, then both buttons pressed together
    for phone, (bottom, top) in ((ann, (1, 50)), (ann2, (5, 9))):
        phone.locator("input[name=bottom]").fill(str(bottom))
        phone.locator("input[name=top]").fill(str(top))
    # pushed phones redraw within milliseconds of the team's first input, so two clicks one after the other
    # would find the second form gone: both pages press at one moment of the browser's clock instead
    moment = ann.evaluate("Date.now()") + 400
    for phone in (ann, ann2):
        # the button is looked up when it fires: a pushed redraw may have replaced the one there now
        phone.evaluate("""t => setTimeout(() => [...document.querySelectorAll('button')]
                                 .find(x => x.textContent.includes('Lock in')).click(), t - Date.now())""", moment)
    for phone in (ann, ann2):  # every device of the team shows the ack, and the team's next screen
        expect(phone.locator(".phone-panel h1")).to_have_text("Locked in", timeout=10_000)

    # every input the phones sent is settled (acked or refused) before the log is looked at
    ids = [h.id for h in box.hub.registry if h.name in ("Ann", "Ann two")]
    deadline = time.monotonic() + 10
    while any(box.services.phones.get(i).screen()["pending"] for i in ids):  # type: ignore[union-attr]
        assert time.monotonic() < deadline, "an input of the team's phones was never settled"
        time.sleep(0.05)
    flow = box.hub.session.flow
    assert flow is not None
    inputs = [e for e in flow.log() if e.get("player")]
    assert [e["player"] for e in inputs] == ["Ann"], inputs  # exactly one input counts
    assert box.hub.accepted == 1
    locked = ann.locator(".prompt-text").inner_text()  # the range that counts, on both
    assert locked in ("1 to 50", "5 to 9"), locked
    expect(ann2.locator(".prompt-text")).to_have_text(locked)

    # Bob is not touched by any of it, and still answers; so does Cat
    for phone in (bob, phones["Cat"]):
        phone.locator("input[name=bottom]").fill("1")
        phone.locator("input[name=top]").fill("2")
        phone.click("button:has-text('Lock in')")
        expect(phone.locator(".phone-panel h1")).to_have_text("Locked in", timeout=10_000)

    # the reveal: every phone shows its seat number and its seat's result and place (protocol 1.4)
    box.hub.command({"cmd": "next"})
    for phone, seat in ((ann, 1), (ann2, 1), (bob, 2)):
        expect(phone.locator(".phone-head .me")).to_contain_text(f"seat {seat}", timeout=10_000)
        expect(phone.locator(".phone-panel .result")).to_contain_text("place", timeout=10_000)
    assert "of 3" in ann.locator(".phone-panel .result").inner_text() or "/3" in ann.locator(
        ".phone-panel .result").inner_text()
