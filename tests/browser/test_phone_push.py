"""Phones are pushed, not polled (issue 30, 3), and a team plays on two phones (rules.md room-6, issue 30, 4),
in chromium on a real box (mosquitto, the appliance, waitress):

* 40 phones (browser contexts of one chromium) join a running box: 39 teams, and a second phone of one
  team that joins its team's seat with the team code the team's first phone shows (the admin page lists it
  as playing for the team). All play a Confident? question and a buzzer question; the page's polling is
  10 minutes apart here, so every new prompt, every ack and "Buzz now!" a phone shows reached it on its
  push stream (web/push.py), and each page's own counters say it was pushed and never polled. Before the
  push stream, the page only polled: with this setting no phone saw the question in time. The team's two
  phones press Lock in at one moment: exactly one input counts for the team, both show "Locked in" and the
  same range, the TV's board lists the team once, and after the reveal both show its seat, result and place;
* a phone whose stream drops polls until the stream is back, then is pushed again; after a
  ``quizbox web`` restart (a new web process on the same port and instance folder) the page reconnects
  its stream and is pushed the next prompt, without a reload;
* a buzz from a phone carries the tap's time on the web server's clock (web/phones.py keeps it between
  the prompt's arrival and the buzz's).

CI=true plays with 12 phones (the machine is shared: ``PHONES``); the 40-phone figure is bench/phones.py's.
"""

from __future__ import annotations

import os
import re
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from appliance.box.app import Appliance
from appliance.edge.broker import MosquittoBroker
from appliance.infra.config import Config
from tests.browser.conftest import (
    Box,
    _expect,
    join_phone,
    log_in,
    running_appliance,
    wait_online,
)
from tests.browser.test_game_e2e import _import
from tests.web.samples import GOOD_CSV
from web import ServerThread, create_app
from web.services import KEY, Services

pytestmark = [pytest.mark.mqtt, pytest.mark.slow]

PHONES = 12 if os.environ.get("CI") == "true" else 40  # phones in the room: one team's second phone among them
NEVER_MS = 600_000  # the page's polls, 10 minutes apart: what a phone shows in this test was pushed


def _web_config(config: Config, phones: int, **extra: Any) -> dict[str, Any]:
    return {"QUIZBOX_CONFIG": config, "PHONE_POLL_MS": NEVER_MS, "PHONE_PUSHED_POLL_MS": NEVER_MS,
            # every phone here comes from 127.0.0.1; the per-address bounds have their own tests
            "MAX_PHONES": phones + 4, "PHONES_PER_ADDRESS": phones + 4, "JOINS_PER_ADDRESS": phones + 10,
            "CONNECTIONS_PER_ADDRESS": phones * 8 + 20, "CONNECTION_LIMIT": phones * 8 + 50, **extra}


class Web:
    """``quizbox web`` in a thread, which a test can restart on the same port and instance folder."""

    def __init__(self, config: Config, appliance: Appliance, phones: int, **extra: Any) -> None:
        self.settings = {**_web_config(config, phones, **extra), "STORE": appliance.store}
        self.server: ServerThread | None = None
        self.port = 0
        self.start()

    def start(self) -> None:
        app = create_app(dict(self.settings))
        self.server = ServerThread(app, port=self.port).start()
        self.port = self.server.port
        wait_online(self.services)

    @property
    def services(self) -> Services:
        assert self.server is not None
        services: Services = self.server.app.extensions[KEY]
        return services

    def stop(self) -> None:
        if self.server is not None:
            services = self.services
            self.server.stop()
            services.link.stop()  # type: ignore[attr-defined]
            self.server = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture
def pushed(mosquitto: MosquittoBroker, box_id: str, tmp_path: Path) -> Iterator[tuple[Box, Web]]:
    with running_appliance(mosquitto, box_id, tmp_path) as (config, appliance):
        assert appliance.hub is not None and appliance.store is not None
        web = Web(config, appliance, PHONES)
        try:
            yield Box(web.url, appliance.store, appliance.hub, web.services), web
        finally:
            web.stop()


def _join(browser: Any, url: str, name: str) -> Any:
    return join_phone(browser, url, name, greeting=f"You are {name}", timeout=20_000)


def _stats(page: Any) -> dict[str, Any]:
    stats: dict[str, Any] = page.evaluate("() => Object.assign({}, window.quizboxPhone)")
    return stats


def _wait(predicate: Any, what: str, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def _deck(box: Box, kind: str) -> str:
    return next(str(d["id"]) for d in box.store.decks() if d["type"] == kind and d["cards"])


def _start(box: Box, game: str, names: list[str], options: dict[str, Any], deck: str) -> None:
    handsets = {h.name: h.id for h in box.hub.registry}
    seats = [{"player": name, "handset": handsets[name]} for name in names]
    box.hub.command({"cmd": "start", "game": game, "seats": seats, "options": options, "deck": deck})


def _seated(box: Box, names: list[str]) -> None:
    _wait(lambda: sum(1 for h in box.hub.registry if h.name in names and h.accepted and h.online) == len(names),
          f"{len(names)} phones online at the hub")


def _press_at_once(pages: list[Any], button: str) -> None:
    """Every page presses ``button`` at one moment of the browser's clock: a pushed page redraws within
    milliseconds of its team's first input, so clicks one after the other would find the next form gone;
    the button is looked up when the timer fires (a pushed redraw may have replaced the one there now)."""
    moment = pages[0].evaluate("Date.now()") + 400
    for page in pages:
        page.evaluate("""([label, t]) => setTimeout(() => [...document.querySelectorAll('button')]
                             .find(x => x.textContent.includes(label)).click(), t - Date.now())""", [button, moment])


@pytest.mark.timeout(600)  # 40 browser contexts on a loaded 2-core machine; about a minute on a quiet one
def test_forty_phones_one_team_on_two_are_pushed_every_prompt_and_ack(
        pushed: tuple[Box, Web], browser: Any, tmp_path: Path) -> None:
    expect = _expect()
    box, web = pushed
    teams = [f"Team {n:02d}" for n in range(1, PHONES)]  # and the second phone of one of them: PHONES phones
    phones = {name: _join(browser, box.url, name) for name in teams}
    seat = len(teams) // 2 + 1
    team, second = teams[seat - 1], f"{teams[seat - 1]} two"

    # the team's first phone shows its team code; the team's second phone joins its seat with it
    first = phones[team]
    expect(first.locator(".team-code")).to_have_text(re.compile(r"^\d{6}$"), timeout=20_000)
    code = first.locator(".team-code").inner_text().strip()
    phones[second] = _join(browser, box.url, second)
    phones[second].locator(".team input[name=team_code]").fill(code)
    phones[second].click("button:has-text('Join my team')")
    expect(phones[second].locator(".flash")).to_contain_text(f"{second} now plays for {team}", timeout=20_000)
    expect(phones[second].locator(".phone-head .me")).to_contain_text(f"playing for {team}", timeout=20_000)
    pair = [first, phones[second]]

    # the admin page: the second phone plays for the team, no seat of its own; the Pub night deck (answers 12,
    # 8 and 2: some team's range holds the answer, so the reveal changes a total and tells every seat its place)
    admin = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    log_in(box, admin)
    _import(box, admin, tmp_path, "pub.csv", GOOD_CSV, "Pub night")
    expect(admin.locator(".flash")).to_contain_text("Imported 3 cards")
    admin.goto(box.url + "/handsets/")
    expect(admin.locator("article.handset", has_text=second)).to_contain_text(f"plays for {team}")

    _seated(box, teams)
    _wait(lambda: len(web.services.push or []) == PHONES, "every phone's push stream")
    hub = web.services.push
    assert hub is not None
    opened = hub.opened  # every stream open before the games (the team join reloads the second phone's page)

    # a Confident? question: the prompt and then each phone's ack come on the stream
    _start(box, "confident", teams, {"target": 50}, "pub-night")
    for page in phones.values():
        expect(page.locator("input[name=bottom]")).to_be_visible(timeout=20_000)
    assert first.locator(".prompt-text").inner_text() == phones[second].locator(".prompt-text").inner_text()
    board = box.services.link.board() or {}
    assert [p["name"] for p in board.get("players", [])] == teams  # the team once on the TV

    # both phones of the team answer at once: both forms filled, then both buttons pressed together
    for page, (bottom, top) in zip(pair, ((1, 50), (5, 9)), strict=True):
        page.locator("input[name=bottom]").fill(str(bottom))
        page.locator("input[name=top]").fill(str(top))
    _press_at_once(pair, "Lock in")
    for page in pair:  # every device of the team shows the ack
        expect(page.locator(".phone-panel h1")).to_have_text("Locked in", timeout=20_000)
    ids = [h.id for h in box.hub.registry if h.name in (team, second)]
    assert len(ids) == 2
    _wait(lambda: not any(box.services.phones.get(i).screen()["pending"] for i in ids),  # type: ignore[union-attr]
          "every input of the team's phones settled (acked or refused)")
    locked = first.locator(".prompt-text").inner_text()  # the range that counts, on both
    assert locked in ("1 to 50", "5 to 9"), locked
    expect(phones[second].locator(".prompt-text")).to_have_text(locked)

    # every other team locks in (none touched by the team's race)
    for n, name in enumerate(teams):
        if name != team:
            phones[name].locator("input[name=bottom]").fill(str(n))
            phones[name].locator("input[name=top]").fill(str(n + 10))
            phones[name].click("button:has-text('Lock in')")
    for page in phones.values():
        expect(page.locator(".phone-panel")).to_contain_text("Locked in", timeout=20_000)
        expect(page.locator(".phone-panel")).not_to_contain_text("Sending…")
    flow = box.hub.session.flow
    assert flow is not None
    inputs = Counter(str(e["player"]) for e in flow.log() if e.get("player"))
    assert inputs == Counter(teams), inputs  # exactly one input counts for each team, the two-phone one too
    assert box.hub.accepted == len(teams)

    # the reveal: the team's phones show its seat number, and its result and place among every team
    box.hub.command({"cmd": "next"})
    for page in pair:
        expect(page.locator(".phone-head .me")).to_contain_text(f"seat {seat}", timeout=20_000)
        expect(page.locator(".phone-panel .result")).to_contain_text("place", timeout=20_000)
    result = first.locator(".phone-panel .result").inner_text()
    assert f"of {len(teams)}" in result or f"/{len(teams)}" in result, result
    box.hub.command({"cmd": "end"})

    # a buzzer question: "Buzz now!" and the ack of each buzz come on the stream, to both of the team's phones
    _start(box, "buzzer", teams, {"questions": 1}, _deck(box, "buzzer"))
    _wait(lambda: (box.services.link.board() or {}).get("view", {}).get("phase") == "waiting", "the first question")
    box.hub.command({"cmd": "arm"})
    for page in phones.values():
        expect(page.locator("button.buzz.armed")).to_be_visible(timeout=20_000)
    # every phone taps at once (a click waiting for its button would find it gone on a slow machine: once
    # the first buzz settles, the box sends the others their next screen, pushed too)
    pressed = sum(bool(page.evaluate("() => { const b = document.querySelector('button.buzz.armed');"
                                     " if (b) { b.click(); } return Boolean(b); }")) for page in phones.values())
    assert pressed >= 1
    for page in phones.values():  # acked (and the next prompt: the first buzzer's turn, the others' wait)
        expect(page.locator("button.buzz.armed")).to_have_count(0, timeout=20_000)
        expect(page.locator(".phone-panel")).not_to_contain_text("Sending…")

    for name, page in phones.items():
        stats = _stats(page)
        assert stats["polls"] == 0, f"{name} polled: {stats}"
        assert stats["pushUp"] is True and stats["pushes"] >= 4, f"{name}: {stats}"
    assert hub.opened == opened  # no stream lost during the games


def test_a_phone_falls_back_to_polling_and_is_pushed_again_after_a_drop_and_a_restart(
        pushed: tuple[Box, Web], browser: Any) -> None:
    expect = _expect()
    box, web = pushed
    web.stop()  # this test polls fast while the stream is down
    web.settings["PHONE_POLL_MS"] = 300
    web.start()
    names = ["Ann", "Bob", "Cat"]
    phones = {name: _join(browser, web.url, name) for name in names}
    ann = phones["Ann"]
    _seated(box, names)
    _wait(lambda: len(web.services.push or []) == 3, "every push stream")

    # the stream drops (the server closes it, as a Wi-Fi hiccup or a proxy would): the page polls at
    # once and opens its stream again (the browser's EventSource retry), and is pushed the next prompt
    hub = web.services.push
    assert hub is not None
    before = _stats(ann)["polls"]
    for channel in list(hub._streams.values()):
        channel.will_close = True  # type: ignore[attr-defined]  # the loop closes it at its next turn
    web.server.server.pull_trigger()  # type: ignore[union-attr]
    _wait(lambda: hub.opened >= 6, "the streams opened again")
    assert _stats(ann)["polls"] > before  # it polled while its stream was down
    _start(box, "confident", names, {"target": 50}, _deck(box, "estimation"))
    expect(ann.locator("input[name=bottom]")).to_be_visible(timeout=20_000)
    _wait(lambda: _stats(ann)["pushUp"], "Ann's stream up")
    box.hub.command({"cmd": "end"})

    # quizbox web restarts (same port, same instance folder): the page's stream reconnects to the new
    # process with its token and the phone is pushed the next game's prompt, with no reload
    web.stop()
    polls = _stats(ann)["polls"]
    _wait(lambda: _stats(ann)["polls"] > polls + 1, "polls while the web server is away")
    web.start()
    _wait(lambda: len(web.services.push or []) == 3, "the streams back on the new process", 30.0)
    pushes = _stats(ann)["pushes"]
    _seated(box, names)
    _start(box, "buzzer", names, {"questions": 1}, _deck(box, "buzzer"))
    _wait(lambda: (web.services.link.board() or {}).get("view", {}).get("phase") == "waiting", "the first question")
    box.hub.command({"cmd": "arm"})
    expect(ann.locator("button.buzz.armed")).to_be_visible(timeout=20_000)  # pushed: polls are minutes apart
    after = _stats(ann)
    assert after["pushes"] > pushes and after["pushUp"] is True

    # Ann's buzz carries the page's stamp of the tap, put on the web server's clock: between "Buzz now!"
    # reaching her phone and the buzz reaching the web server
    phone = web.services.phones.get(next(h.id for h in box.hub.registry if h.name == "Ann"))
    assert phone is not None
    stamps: list[tuple[int | None, int]] = []
    press_time = phone.press_time

    def seen(pressed: int | None) -> int:
        stamps.append((pressed, press_time(pressed)))
        return stamps[-1][1]

    phone.press_time = seen  # type: ignore[method-assign]
    armed_at = phone.prompt_at
    ann.click("button.buzz")
    expect(ann.locator(".phone-panel")).to_contain_text("Your turn", timeout=20_000)  # hers: the only buzz
    assert len(stamps) == 1
    sent, used = stamps[0]
    assert sent is not None, "the page sent no press time"
    assert armed_at <= used <= phone.core.clock_ms()
