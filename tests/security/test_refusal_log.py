"""Refused pairing requests reach the journal once a minute with a count (issue 38: a pairing flood wrote a
warning per refused request, 1,921 lines in 4 minutes, on the box's SD card). An injected clock."""

from __future__ import annotations

import logging

import pytest

from appliance.edge.pairing import MAX_PENDING, Pairing, PairingDesk, pairing_topic, request_payload
from appliance.edge.refusal_log import EVERY, RefusalLog
from tests.security.dynsec_box import MemoryAccounts


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def lines(caplog: pytest.LogCaptureFixture, name: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == name and r.levelno >= logging.WARNING]


def test_a_minute_of_refusals_is_one_line_with_its_count(caplog: pytest.LogCaptureFixture) -> None:
    clock, logger = Clock(), logging.getLogger("test.refusals")
    refusals = RefusalLog(logger, clock)
    with caplog.at_level(logging.WARNING, "test.refusals"):
        refusals.note("malformed", "quizbox/q/pairing/x: bad name")
        first = lines(caplog, "test.refusals")
        assert len(first) == 1 and "malformed (quizbox/q/pairing/x: bad name)" in first[0]
        for n in range(1920):  # the flood of the report: 1,921 refusals in all
            clock.now += 0.01
            refusals.note("malformed" if n % 3 else "dropped unread")
            refusals.flush()  # a tick within the minute says nothing
        assert len(lines(caplog, "test.refusals")) == 1
        clock.now = 1000.0 + EVERY
        refusals.flush()
        said = lines(caplog, "test.refusals")
        assert len(said) == 2, said
        assert said[1].startswith("1920 pairing requests refused in the last 60 s: ")
        assert "1280 malformed" in said[1] and "640 dropped unread" in said[1]
        refusals.flush()  # nothing more to say
        clock.now += 3 * EVERY
        refusals.flush()
        assert len(lines(caplog, "test.refusals")) == 2
    assert refusals.total == 1921 and refusals.lines == 2


def test_a_refusal_after_a_quiet_minute_is_said_at_once(caplog: pytest.LogCaptureFixture) -> None:
    clock, logger = Clock(), logging.getLogger("test.refusals")
    refusals = RefusalLog(logger, clock)
    with caplog.at_level(logging.WARNING, "test.refusals"):
        refusals.note("malformed", "one")
        clock.now += 10
        refusals.note("malformed", "two")  # held: the minute is not over
        clock.now += EVERY
        refusals.note("malformed", "three")  # the held one is said first, this one is held for the next
        said = lines(caplog, "test.refusals")
        assert len(said) == 2 and said[1].startswith("1 pairing requests refused in the last 70 s")
        clock.now += EVERY
        refusals.flush()
        assert len(lines(caplog, "test.refusals")) == 3
        refusals.note("malformed", "four")
        clock.now += 1
        refusals.note("malformed", "five")
        refusals.flush()
        assert len(lines(caplog, "test.refusals")) == 3  # both held: a line was said a second ago
        refusals.flush(force=True)  # a stop: what is held is said at once
        said = lines(caplog, "test.refusals")
        assert len(said) == 4 and said[3].startswith("2 pairing requests refused in the last 1 s"), said


def test_many_reasons_are_named_by_count_and_the_rest_summed(caplog: pytest.LogCaptureFixture) -> None:
    clock, logger = Clock(), logging.getLogger("test.refusals")
    refusals = RefusalLog(logger, clock)
    with caplog.at_level(logging.WARNING, "test.refusals"):
        refusals.note("first")
        for n in range(8):
            for _ in range(n + 1):
                refusals.note(f"reason{n}")
        clock.now += EVERY
        refusals.flush()
        said = lines(caplog, "test.refusals")[-1]
    assert said.startswith("36 pairing requests refused")
    assert "8 reason7; 7 reason6; 6 reason5; 5 reason4; 4 reason3; 6 other" in said


class Message:
    def __init__(self, topic: str, payload: bytes) -> None:
        self.topic, self.payload, self.retain = topic, payload, False


def test_the_pairing_desk_says_refusals_once_a_minute(caplog: pytest.LogCaptureFixture) -> None:
    """Before: one journal warning per refused request (and the flood's count at 1, 10, 1000 ...)."""
    clock = Clock()
    pairing = Pairing(MemoryAccounts("q"), clock=clock, settle=0)
    desk = PairingDesk("q", pairing, "127.0.0.1", 1, "appliance", "pw", on_change=lambda: None, clock=clock)
    name = "appliance.edge.pairing"
    with caplog.at_level(logging.WARNING, name):
        for n in range(100):  # malformed requests, then requests for 200 new ids (64 may wait at once)
            desk._message(None, None, Message(pairing_topic("q", f"m{n}"), b"{not json"))
            clock.now += 0.05
        for n in range(200):
            desk._message(None, None, Message(pairing_topic("q", f"z{n}"), request_payload(f"z{n}", f"s{n:020d}")))
            clock.now += 0.05
        assert len(lines(caplog, name)) == 1
        clock.now += EVERY
        desk._refused_flush()
        said = lines(caplog, name)
    assert len(said) == 2, said
    assert said[1].startswith(f"{99 + 200 - MAX_PENDING} pairing requests refused in the last 75 s: "), said[1]
    assert "99 malformed" in said[1] and f"{200 - MAX_PENDING} refused unread" in said[1], said[1]
    assert len(pairing.pending) == MAX_PENDING and desk.refusals.total == 300 - MAX_PENDING
