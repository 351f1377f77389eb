"""Every prompt kind of protocol v1 on a 360 px phone in chromium, through the page's real controls: the
input sent is exactly what the prompt allows, the handset core's refusals and the appliance's refusal
acks are shown, the page's helps work (Enter moves on, a copy greys out the range, a two-sided split
fills the other side) and nothing is wider than the screen. The test plays the appliance's part on the
phone's (fake) MQTT client. Screenshots: artifacts/web-screens/web-phone-<kind>.png."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from firmware import protocol
from tests.browser.conftest import PhoneBox, _expect, join_phone
from tests.web.fakes import FakeClient

pytestmark = [pytest.mark.slow]

WIDTH = 360
FITS = """() => {
  const width = document.documentElement.clientWidth;
  const outside = [...document.querySelectorAll('button, input, select, label, p, h1')]
    .filter(e => { const r = e.getBoundingClientRect();
                   return r.width > 0 && (r.left < -0.5 || r.right > width + 0.5); })
    .map(e => e.outerHTML.slice(0, 80));
  const small = [...document.querySelectorAll('.phone-panel button, .phone-panel label.option')]
    .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height < 40; })
    .map(e => e.outerHTML.slice(0, 80));
  return {scroll: document.documentElement.scrollWidth, width, outside, small};
}"""


@dataclass
class Phone:
    page: Any
    mqtt: FakeClient
    handset: str
    count: int = 0

    def prompt(self, body: dict[str, Any]) -> str:
        """Show a new prompt (as the appliance would) and wait until the page has it."""
        self.count += 1
        prompt_id = f"p{self.count}"
        payload = json.dumps({"v": 1, "id": prompt_id, **body}).encode()
        self.mqtt.deliver(protocol.prompt_topic("phonetest", self.handset), payload)
        _expect()(self.page.locator(".phone-panel")).to_have_attribute("data-prompt", prompt_id)
        return prompt_id

    def sent(self) -> list[dict[str, Any]]:
        return [json.loads(p) for t, p, _ in self.mqtt.published if t.endswith("/input")]

    def last(self, count: int) -> dict[str, Any]:
        """The data of the last input, once ``count`` inputs have been sent."""
        _expect()(self.page.locator(".phone-panel")).to_contain_text("Sending")
        sent = self.sent()
        assert len(sent) == count, sent
        return dict(sent[-1]["data"])

    def ack(self, ok: bool, message: str) -> None:
        sent = self.sent()[-1]
        ack = protocol.make_ack(sent["seq"], ok, message, sent["prompt"])
        self.mqtt.deliver(protocol.ack_topic("phonetest", self.handset), protocol.encode(ack))

    def says(self, text: str) -> None:
        _expect()(self.page.locator(".phone-panel")).to_contain_text(text)

    def fits(self) -> None:
        found = self.page.evaluate(FITS)
        assert found["width"] == WIDTH and found["scroll"] <= WIDTH, found
        assert found["outside"] == [] and found["small"] == [], found


@pytest.fixture
def phone(phone_box: PhoneBox, browser: Any) -> Iterator[Phone]:
    page = join_phone(browser, phone_box.url, "Ann", width=WIDTH)
    (handset,) = phone_box.services.phones._phones  # noqa: SLF001
    yield Phone(page, phone_box.clients.latest(handset), handset)
    page.context.close()


def test_range_with_boosts(phone: Phone, phone_box: PhoneBox) -> None:
    page = phone.page
    phone.prompt({"kind": "range", "title": "Q1", "text": "How many legs does a spider have?", "unit": "legs",
                  "boosts": {"copy": ["Bob", "Cat"], "swap": ["Bob", "Cat"], "double": True},
                  "private": {"score": 3, "boosts": ["copy", "swap", "double"]}})
    page.fill("input[name=bottom]", "9")
    page.press("input[name=bottom]", "Enter")  # on to To: half a range is never sent
    _expect()(page.locator("input[name=top]")).to_be_focused()
    page.keyboard.type("2")
    page.click("button:has-text('Lock in')")
    phone.says("From is above To")  # the handset core refuses (rules.md Confident 1), in the form's words
    assert phone.sent() == []
    page.fill("input[name=bottom]", "1")
    page.fill("input[name=top]", "2.5k")
    page.select_option("select[name=swap1]", "Bob")
    page.select_option("select[name=swap2]", "Cat")
    page.get_by_label("Double my points").check()
    phone.fits()
    phone_box.shot(page, "phone-range")
    page.click("button:has-text('Lock in')")
    assert phone.last(1) == {"bottom": "1", "top": "2500", "swap": ["Bob", "Cat"], "double": True}
    phone.ack(False, "game paused")
    phone.says("Not accepted: game paused")
    _expect()(page.locator("button:has-text('Lock in')")).to_be_visible()  # the form is back

    phone.prompt({"kind": "range", "title": "Q2", "text": "How tall is Big Ben?", "unit": "m",
                  "boosts": {"copy": ["Bob", "Cat"], "swap": [], "double": False}})
    _expect()(page.locator("select[name=swap1]")).to_have_count(0)
    _expect()(page.locator("input[name=double]")).to_have_count(0)
    page.fill("input[name=bottom]", "50")
    page.select_option("select[name=copy]", "Cat")  # a copy replaces the range: the range greys out
    _expect()(page.locator("input[name=bottom]")).to_be_disabled()
    _expect()(page.locator("input[name=bottom]")).to_have_value("")
    page.click("button:has-text('Lock in')")
    assert phone.last(2) == {"copy": "Cat"}
    phone.ack(True, "copy Cat")
    phone.says("Locked in: copy Cat")


@pytest.mark.parametrize("interruption", ["pause", "reload"])
def test_what_is_typed_survives_a_pause_and_a_reload(phone: Phone, interruption: str) -> None:
    """Audits: Bob typed 12 to 34 and ticked Double, the quizmaster paused and resumed, and the form came
    back empty (the same question's prompt comes back under a new id after the Paused screen); a phone
    reloaded mid-question (a pull to refresh, a tap on the address bar) came back empty too."""
    page = phone.page
    question = {"kind": "range", "title": "Q3", "text": "Legs on a spider?", "unit": "legs",
                "boosts": {"copy": [], "swap": [], "double": True}}
    phone.prompt(question)
    page.fill("input[name=bottom]", "12")
    page.fill("input[name=top]", "34")
    page.get_by_label("Double my points").check()
    if interruption == "pause":
        phone.prompt({"kind": "info", "title": "Paused", "text": "The quizmaster paused the game.", "wait": True})
        phone.says("Paused")
        phone.prompt(question)
    else:
        page.reload()
    _expect()(page.locator("input[name=bottom]")).to_have_value("12")
    _expect()(page.locator("input[name=top]")).to_have_value("34")
    _expect()(page.get_by_label("Double my points")).to_be_checked()
    page.click("button:has-text('Lock in')")
    assert phone.last(1) == {"bottom": "12", "top": "34", "double": True}
    phone.ack(True, "12 to 34")
    phone.prompt({**question, "title": "Q4", "text": "Wheels on a tricycle?"})  # another question: empty
    if interruption == "reload":
        page.reload()  # sent and taken: nothing is kept for it
    _expect()(page.locator("input[name=bottom]")).to_have_value("")


def test_bet_with_min_and_max(phone: Phone, phone_box: PhoneBox) -> None:
    page = phone.page
    bet = {"kind": "bet", "title": "Round 2", "text": "More than 4 legs.", "stack": 180, "to_call": 20, "pot": 70,
           "actions": [{"action": "fold"}, {"action": "call"}, {"action": "raise", "min": 40, "max": 180}],
           "private": {"stack": 180, "range": ["6", "10"]}}
    phone.prompt(bet)
    _expect()(page.locator("button[name=action]")).to_have_text(["Fold", "Call 20", "Raise"])
    phone.says("range 6 to 10")
    page.fill("input[name=to-raise]", "30")
    page.click("button[value=raise]")  # the browser does not block it: the core says why
    phone.says("raise at least 40")
    assert phone.sent() == []
    phone.fits()
    phone_box.shot(page, "phone-bet")
    page.fill("input[name=to-raise]", "60")
    page.press("input[name=to-raise]", "Enter")  # Enter raises with the amount's own button, never folds
    assert phone.last(1) == {"action": "raise", "to": 60}
    phone.ack(False, "not your turn")
    phone.says("Not accepted: not your turn")
    phone.prompt(bet)
    page.fill("input[name=to-raise]", "9999")  # out of range beside a Fold: the Fold still goes
    page.click("button[value=fold]")
    assert phone.last(2) == {"action": "fold"}


def test_choice_with_several_fields(phone: Phone, phone_box: PhoneBox) -> None:
    page = phone.page
    phone.prompt({"kind": "choice", "title": "You read", "text": "1. I juggle / 2. I sing / 3. I knit", "fields": [
        {"name": "pick", "label": "Read which?", "required": True,
         "options": [{"id": "0", "label": "I juggle"}, {"id": "1", "label": "I sing"}, {"id": "2", "label": "I knit"}]},
        {"name": "answer", "label": "Your true answer", "required": True,
         "options": [{"id": "true", "label": "True"}, {"id": "false", "label": "False"}]},
        {"name": "exclude", "label": "Exclude (once a game)", "required": False,
         "options": [{"id": "Bob", "label": "Bob"}, {"id": "Cat", "label": "Cat"}]}]})
    _expect()(page.locator(".prompt-text")).to_have_count(0)  # the statements once, not cut short above
    page.get_by_label("I knit").check()
    page.click("button:has-text('Send')")
    phone.says("choose Your true answer")
    assert phone.sent() == []
    page.get_by_label("False").check()
    page.get_by_label("Cat").check()
    phone.fits()
    phone_box.shot(page, "phone-choice")
    page.click("button:has-text('Send')")
    assert phone.last(1) == {"choices": {"pick": "2", "answer": "false", "exclude": "Cat"}}
    phone.ack(False, "Cat has no chips")
    phone.says("Not accepted: Cat has no chips")


def test_split_of_all_chips(phone: Phone, phone_box: PhoneBox) -> None:
    page = phone.page
    phone.prompt({"kind": "split", "title": "All in! Bob says...", "text": "I sing in a choir", "total": 15,
                  "sides": [{"id": "true", "label": "True"}, {"id": "false", "label": "False"}]})
    page.fill("input[name=split-true]", "16")
    phone.says("1 chip too many")
    page.click("button:has-text('Send the split')")
    phone.says("split all 15 chips")  # rules.md All In 5, said by the core
    assert phone.sent() == []
    for odd in ("7.5", "-5"):  # an audit: 7.5 / 7.5 counted "1 chip still to place", -5 / 20 "All placed"
        page.fill("input[name=split-true]", odd)
        phone.says("Whole chips only, from 0.")
    page.fill("input[name=split-true]", "10")  # the rest goes to the other side
    _expect()(page.locator("input[name=split-false]")).to_have_value("5")
    phone.says("All 15 chips placed.")
    phone.fits()
    phone_box.shot(page, "phone-split")
    page.click("button:has-text('Send the split')")
    assert phone.last(1) == {"split": {"true": 10, "false": 5}}
    phone.ack(True, "10 true / 5 false")
    phone.says("Locked in: 10 true / 5 false")


def test_token_and_answer(phone: Phone, phone_box: PhoneBox) -> None:
    page = phone.page
    phone.prompt({"kind": "token", "title": "Which is largest?",
                  "text": "Tallest? A) Eiffel Tower B) Big Ben C) Burj Khalifa", "answers": ["A", "B", "C"],
                  "tokens": [1, 3], "private": {"tokens": [1, 3]}})
    _expect()(page.locator("input[name=token]")).to_have_count(2)  # token 2 is used: not offered
    page.get_by_label("B · Big Ben", exact=True).check()  # each button carries its proposition (issue 31)
    page.click("button:has-text('Send')")
    phone.says("choose a bet token")
    page.get_by_label("3", exact=True).check()
    phone.fits()
    phone_box.shot(page, "phone-token")
    page.click("button:has-text('Send')")
    assert phone.last(1) == {"answer": "B", "token": 3}
    phone.ack(False, "token not yours")
    phone.says("Not accepted: token not yours")


def test_buzz(phone: Phone, phone_box: PhoneBox) -> None:
    page = phone.page
    phone.prompt({"kind": "buzz", "title": "Buzzers", "text": "Who first walked on the Moon?", "armed": True})
    phone.says("Buzz now!")
    phone.fits()
    phone_box.shot(page, "phone-buzz")
    page.click("button.buzz")
    data = phone.last(1)
    assert list(data) == ["pressed"] and isinstance(data["pressed"], int)  # the press time (rules.md Buzzer 2)
    phone.ack(False, "locked out")
    phone.says("Not accepted: locked out")


def test_info_and_wait(phone: Phone, phone_box: PhoneBox) -> None:
    page = phone.page
    phone.prompt({"kind": "info", "title": "Locked in", "text": "8 to 8", "wait": True,
                  "lines": ["Cat is still thinking"], "private": {"score": 3, "boosts": []}})
    phone.says("Waiting…")
    phone.says("Cat is still thinking")
    _expect()(page.locator("form.answer")).to_have_count(0)
    phone.fits()
    phone_box.shot(page, "phone-info")
    assert phone.sent() == []
