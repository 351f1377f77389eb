"""Issue 32's attacks by a guest on the pub's Wi-Fi, against the box's real mosquitto with the dynamic
security plugin (tests/security/dynsec_box.py) and the hub, the TV's and the claims client and paired
handsets running. Each test says what the attack did before its fix; docs/security.md lists them."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from appliance.board import Board
from appliance.box.recovery import Claims, Report
from appliance.box.tv import TV
from appliance.edge.hub import Hub
from appliance.edge.mqtt import Connection
from appliance.edge.pairing import PAIRING_PASSWORD, PAIRING_USER, pair_code, pairing_topic, request_payload
from appliance.errors import QuizboxError
from appliance.flows import flow_factory
from appliance.infra.health import Health
from appliance.session.session import Session
from firmware import protocol
from tests.faults.harness import wait_until
from tests.faults.test_stale_status import retained
from tests.security.dynsec_box import dynsec_box
from tests.security.test_attacks import _count_drops, _matching_secret, _try
from tests.security.test_broker_accounts import BOX, NOT_AUTHORISED, Box
from tests.security.test_broker_accounts import box as box  # noqa: F401  (the fixture)
from tests.test_hub import CARDS

pytestmark = pytest.mark.mqtt


# -- 4. the TV's and the claims client's client ids ----------------------------------------------------------

def test_no_public_login_kicks_the_tv_or_the_claims_client(box: Box) -> None:
    """Before: the TV was ``quizbox-<box>-tv`` and the claims client ``quizbox-<box>-claims``: one login
    with the public pairing account under either id made mosquitto drop it."""
    conn = Connection("127.0.0.1", box.broker.port, "appliance", box.passwords["appliance"])
    tv = TV(BOX, conn, Board((640, 360), "headless"), command=lambda c: None)
    claims = Claims(Report(at=time.time()), box.hub, Health(None), conn)
    with tv:
        claims.start(wait=5)
        try:
            assert tv.client.connected.wait(5)
            drops = {"tv": _count_drops(tv.client.paho), "claims": _count_drops(claims.client.paho)}
            guesses = {f"quizbox-{BOX}-{name}" for name in ("tv", "claims", "board", "doctor", "web", "hub")}
            for guess in sorted(guesses):
                for _ in range(3):
                    _try(box.broker.port, PAIRING_USER, PAIRING_PASSWORD, guess)
            time.sleep(0.5)
            assert {k: len(v) for k, v in drops.items()} == {"tv": 0, "claims": 0}
            for client in (tv.client, claims.client):  # not derivable from the box's name
                assert BOX not in client.client_id.split("-")[-1] and len(client.client_id.split("-")[-1]) >= 16
        finally:
            claims.stop()


# -- 1 and 2. pairing hijack: by flood and a forged code, and through the remedy ------------------------------

REAL = "the-real-handsets-own-secret-01"
RESEND = 0.5
"""The real handset's re-send gap here; the box's SETTLE (12 s against a handset's 5 s) is scaled with it."""


class _Sender:
    """A thread sending until the ``with`` block ends."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.sent = 0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> _Sender:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(5)


class Asker(_Sender):
    """A device on the pairing account sending one request every ``every`` seconds (a real handset: 5 s)."""

    def __init__(self, box: Box, handset: str, secret: str, every: float) -> None:
        self.login = box.login(PAIRING_USER, PAIRING_PASSWORD)
        self.payload = request_payload(handset, secret, "Ann")
        self.topic = pairing_topic(BOX, handset)
        self.every = every
        super().__init__()

    def _run(self) -> None:
        while not self.stop.is_set():
            self.login.client.publish(self.topic, self.payload, qos=0)
            self.sent += 1
            self.stop.wait(self.every)


class Flood(_Sender):
    """Junk pairing requests on rotating ids as fast as one connection sends them."""

    def __init__(self, box: Box) -> None:
        self.login = box.login(PAIRING_USER, PAIRING_PASSWORD)
        super().__init__()

    def _run(self) -> None:
        while not self.stop.is_set():
            junk = f"x{self.sent % 5000}"
            self.login.client.publish(pairing_topic(BOX, junk), request_payload(junk, f"flood-secret-{self.sent:09d}"))
            self.sent += 1
            if self.sent % 200 == 0:
                time.sleep(0.001)  # the test's own threads get the interpreter too


def _quizmaster_accepts(box: Box, code: str, within: float) -> list[str]:
    """The quizmaster types ``code`` (read on the real handset's screen) and presses Accept on the request
    the admin page lists, again and again for ``within`` seconds; every answer."""
    answers: list[str] = []
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        listed = box.pairing.requests().get("h1", {})
        try:
            box.hub.command({"cmd": "accept", "handset": "h1", "code": code,
                             **({"request": listed["request"]} if "request" in listed else {})})
        except (QuizboxError, protocol.ProtocolError) as exc:
            answers.append(str(exc))
        else:
            answers.append("accepted")
            return answers
        time.sleep(0.1)
    return answers


def _quiet(box: Box) -> None:
    """Wait until the pairing desk has read what was sent (nothing new counted for 0.5 s)."""
    def count() -> int:
        return box.pairing.dropped + box.pairing.refused_full + box.pairing.revision

    before = -1
    deadline = time.monotonic() + 20
    while count() != before:
        assert time.monotonic() < deadline, "the desk never caught up"
        before = count()
        time.sleep(0.5)


def test_a_flood_and_a_forged_code_cannot_hijack_a_pairing(box: Box) -> None:
    """Before: the desk read ~20 requests a second of every id together, so under a flood the real
    handset's requests were dropped unread, no conflict formed, and the forged request (a secret whose
    code matches the real screen's: ~10,000 hashes) got the account when the quizmaster typed the code."""
    box.pairing.settle = 3 * RESEND  # SETTLE scaled to this test's re-send gap
    forged, tries = _matching_secret(pair_code(REAL), REAL)
    web = box.login("web")
    web.subscribe(protocol.admin_state_topic(BOX))
    with Asker(box, "h1", forged, 0.05):  # the forger asks first, and keeps asking
        wait_until(lambda: "h1" in box.pairing.pending, 5, "the forged request read")
        with Flood(box) as flood, Asker(box, "h1", REAL, RESEND) as real:
            answers = _quizmaster_accepts(box, pair_code(REAL), within=4 * RESEND + 2)
            flooded = flood.sent
    assert "accepted" not in answers, answers
    assert real.sent >= 4 and flooded > 2000, (real.sent, flooded)
    assert box.login("h1", forged).rc in NOT_AUTHORISED and box.login("h1", REAL).rc in NOT_AUTHORISED
    assert "h1" in box.pairing.conflicts  # the real handset's requests were read through the flood
    state = json.loads(web.received(1.0)[-1][1])
    warnings = " ".join(state["pairing_warnings"])
    assert "Two devices ask to be handset h1" in warnings and "flooding the box with pairing requests" in warnings
    assert len(state["pairing_warnings"]) <= 3 + 3  # bounded: 3 conflicts named, then one line each
    print(f"pairing hijack: forged code matched in {tries} hashes; {flooded} junk requests; "
          f"{box.pairing.dropped} dropped unread; answers {sorted(set(a[:40] for a in answers))}")
    # the flood over (and read: the desk reads its backlog), the quizmaster removes both, pairs the real one
    _quiet(box)
    box.hub.command({"cmd": "remove", "handset": "h1"})
    with Asker(box, "h1", REAL, RESEND):
        assert _quizmaster_accepts(box, pair_code(REAL), within=6 * RESEND + 2)[-1] == "accepted"
    assert box.login("h1", REAL).rc == 0


def test_the_remedy_race_cannot_hijack_a_pairing(box: Box) -> None:
    """Before: after "remove the requests and pair it again", the guest's re-sent forged request stood
    first, and an accept inside the real handset's re-send gap made the guest's account (2 of 2)."""
    box.pairing.settle = 3 * RESEND
    forged, _ = _matching_secret(pair_code(REAL), REAL)
    with Asker(box, "h1", REAL, RESEND), Asker(box, "h1", forged, 0.02):
        wait_until(lambda: "h1" in box.pairing.conflicts, 5, "the conflict")
        shown = box.pairing.requests()
        box.hub.command({"cmd": "remove", "handset": "h1"})  # the documented remedy
        # the forger's re-send comes first; the quizmaster accepts inside the real handset's gap
        wait_until(lambda: "h1" in box.pairing.pending, 2, "a request again after the removal")
        answers = _quizmaster_accepts(box, pair_code(REAL), within=RESEND * 0.8)
        assert "accepted" not in answers, answers
        # a page showing the requests from before the removal accepts nothing either
        with pytest.raises(QuizboxError):
            box.hub.command({"cmd": "accept", "handset": "h1", "code": pair_code(REAL),
                             "request": str(shown.get("h1", {}).get("request", "old"))})
        answers += _quizmaster_accepts(box, pair_code(REAL), within=4 * RESEND)
    assert "accepted" not in answers, answers
    assert box.login("h1", forged).rc in NOT_AUTHORISED
    assert "h1" in box.pairing.conflicts  # the real handset's next request made the conflict again


# -- 3. seat theft with the public seat code ----------------------------------------------------------------

def test_a_stranger_cannot_take_a_seat_with_what_the_tv_shows(box: Box) -> None:
    """Before: within 0.4 s of a handset dropping, its seat code was on the TV and /tv (no login); a
    guest's phone typed it, played as that team, and the real team came back "not seated" with nothing
    saying why; the admin page then listed the team twice."""
    box.pair("h1", "Ann")
    box.pair("h2", "Bob")
    box.pair("g1", "Eve")  # the guest's own device, at the table like any player's
    box.handset("h2", "Bob")
    ann, eve = box.handset("h1", "Ann"), box.handset("g1", "Eve")
    box.hub.command({"cmd": "start", "game": "guess", "cards": CARDS,
                     "seats": [{"player": "Ann", "handset": "h1"}, {"player": "Bob", "handset": "h2"}]})
    ann.wait_prompt("range")
    eve.wait_prompt("info")  # at the table, not seated: a guest's phone
    public = box.login("web")  # the board: what every handset, the TV and /tv read
    public.subscribe(protocol.board_topic(BOX))
    ann.stop()  # Ann's phone locked: her handset drops
    wait_until(lambda: "Ann" in _board(public).get("seats_away", []) or "Ann" in _board(public).get("seat_codes", {}),
               5, "the board saying Ann's handset is away")
    board_text = json.dumps(_board(public))
    tried = sorted(set(re.findall(r"(?<!\d)\d{4}(?!\d)", board_text)))
    for code in tried:  # every 4 digits anywhere on the public board
        with pytest.raises(QuizboxError):
            box.hub.command({"cmd": "seat", "player": "Ann", "handset": "g1", "code": code})
    assert box.hub.session.seats["Ann"] == "h1", f"taken with a code from the board ({tried})"
    # the quizmaster's page has the code (the admin state); say the quizmaster was fooled and gave it away
    admin = box.login("web")
    admin.subscribe(protocol.admin_state_topic(BOX))
    code = json.loads(admin.received()[-1][1])["seat_codes"]["Ann"]
    box.hub.command({"cmd": "seat", "player": "Ann", "handset": "g1", "code": code})
    back = box.handset("h1", "Ann")  # the real team comes back and is told plainly what happened
    told = back.wait_prompt("info")
    assert "Ann's seat was taken on another handset" in told["text"] and "tell the quizmaster" in told["text"]
    names = [p["name"] for p in _board(public)["players"]]
    assert len(names) == len(set(names)), names  # the team is listed once


def _board(login: Any) -> dict[str, Any]:
    """The newest public board ``login`` has received (kept in ``login.board``)."""
    for _, payload in login.received(0.3):
        login.board = json.loads(payload)
    board: dict[str, Any] = getattr(login, "board", {})
    return board


# -- 7. after a power cut: a retained online for a box that is down -------------------------------------------

def test_after_a_power_cut_status_does_not_say_online_for_a_box_that_is_down() -> None:
    """Before: the broker restored a retained ``online`` (and an old heartbeat) from its saved state after
    a power cut; anything reading ``status`` alone took a dead box for a running one, for ever."""
    ttl = 2  # STATUS_TTL (30 s) scaled for the test
    saved = tempfile.TemporaryDirectory(prefix="quizbox-persist-")
    Path(saved.name).chmod(0o777)
    persist = f"persistence true\npersistence_location {saved.name}/\nautosave_interval 1\n"
    with dynsec_box(BOX, extra_config=persist) as made:
        conn = Connection("127.0.0.1", made.broker.port, "appliance", made.passwords["appliance"])
        session = Session(time.monotonic, random.Random(3), flows=flow_factory)
        hub = Hub(BOX, session, conn, open_join=False, pairing=made.pairing, status_ttl=ttl).start()
        web = Connection("127.0.0.1", made.broker.port, "web", made.passwords["web"])
        topic = protocol.appliance_status_topic(BOX)
        try:
            assert retained(web, topic) == b"online"
            time.sleep(ttl + 1.5)  # the hub said online again meanwhile; the broker saved it (every 1 s)
            assert retained(web, topic) == b"online"
            os.kill(made.broker.pid, signal.SIGKILL)  # the power cut: the broker and the box at once
        finally:
            hub.stop()  # no goodbye reaches the dead broker
        time.sleep(ttl + 0.5)  # the box stays down; the broker comes back first
        made.broker.restart()
        assert retained(web, topic) != b"online"
    saved.cleanup()
