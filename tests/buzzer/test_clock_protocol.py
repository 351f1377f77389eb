"""Protocol v1's clock exchange: ping (appliance -> handset, time topic) and clock (handset -> appliance)."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware import protocol as p


def test_the_clock_topic_is_a_handset_leaf_the_appliance_can_subscribe_to() -> None:
    assert p.clock_topic("pub", "h1") == "quizbox/pub/handset/h1/clock"
    assert p.parse_handset_topic("pub", p.clock_topic("pub", "h1")) == ("h1", "clock")
    assert p.handset_wildcard("pub", "clock") == "quizbox/pub/handset/+/clock"
    with pytest.raises(p.ProtocolError):
        p.clock_topic("pub", "h/1")


clocks = st.integers(min_value=0, max_value=p.MAX_CLOCK - 1)
pings = st.integers(min_value=0, max_value=p.MAX_SEQ)


@settings(max_examples=150)
@given(pings, clocks, clocks)
def test_ping_and_clock_round_trip_through_json(ping: int, t0: int, th: int) -> None:
    sent = p.decode(p.encode(p.make_ping(ping, t0)))
    assert p.parse_ping(sent) == {"ping": ping, "t0": t0}
    answer = p.answer_ping(sent, th)
    assert answer is not None
    assert p.parse_clock("h1", p.decode(p.encode(answer))) == {"ping": ping, "t0": t0, "th": th}


def test_a_handset_answers_only_pings() -> None:
    assert p.answer_ping({"v": 1, "note": "not a ping"}, 5) is None
    assert p.answer_ping(p.make_ping(7, 1000), 42) == {"v": 1, "ping": 7, "t0": 1000, "th": 42}


@pytest.mark.parametrize(
    ("obj", "words"),
    [
        ({"v": 1, "t0": 5}, "missing ping"),
        ({"v": 1, "ping": 1}, "missing t0"),
        ({"v": 1, "ping": -1, "t0": 5}, "ping must be a whole number"),
        ({"v": 1, "ping": 1, "t0": "5"}, "t0 not an int"),
        ({"v": 1, "ping": 1, "t0": True}, "t0 not an int"),
        ({"v": 1, "ping": 1, "t0": -5}, "t0 out of range"),
        ({"v": 1, "ping": 1, "t0": 2 ** 53}, "t0 out of range"),
        ({"v": 2, "ping": 1, "t0": 5}, "protocol version 2 unsupported"),
    ],
)
def test_bad_pings_are_refused(obj: dict[str, Any], words: str) -> None:
    with pytest.raises(p.ProtocolError, match=words):
        p.parse_ping(obj)
    if "ping" in obj:  # a time message without "ping" is not a ping: no answer, no error
        with pytest.raises(p.ProtocolError, match=words):
            p.answer_ping(obj, 5)
    else:
        assert p.answer_ping(obj, 5) is None


@pytest.mark.parametrize(
    ("obj", "words"),
    [
        ({"v": 1, "ping": 1, "t0": 5}, "missing th"),
        ({"v": 1, "ping": 1, "t0": 5, "th": 1.5}, "th not an int"),
        ({"v": 1, "ping": 1, "t0": 5, "th": -1}, "th out of range"),
        ({"v": 1, "ping": "1", "t0": 5, "th": 9}, "ping not an int"),
        ({"v": 1, "id": "h2", "ping": 1, "t0": 5, "th": 9}, "id does not match topic"),
    ],
)
def test_bad_clock_answers_are_refused(obj: dict[str, Any], words: str) -> None:
    with pytest.raises(p.ProtocolError, match=words):
        p.parse_clock("h1", obj)


def test_clock_payloads_fit_the_handset_limit() -> None:
    biggest = p.make_clock(p.MAX_SEQ, p.MAX_CLOCK - 1, p.MAX_CLOCK - 1)
    assert len(p.encode(biggest)) < 100 <= p.MAX_PAYLOAD


def test_a_handset_answers_a_ping_under_real_micropython() -> None:
    """The ESP32 carries protocol.py: the exchange (big appliance clocks included) runs on MicroPython."""
    from tests.firmware.test_micropython import MPY_DIR, ROOT, _node

    node = _node()
    checks = " + ".join([
        "int(P.answer_ping(P.decode(P.encode(P.make_ping(3, 2**40))), 7) != {'v': 1, 'ping': 3, 't0': 2**40, 'th': 7})",
        "int(P.parse_clock('h1', P.decode(P.encode(P.make_clock(3, 2**40, 2**31))))['th'] != 2**31)",
        "int(P.answer_ping({'v': 1}, 7) is not None)",
    ])
    call = f"(lambda P: {checks})(__import__('firmware.protocol', None, None, ['protocol']))"
    run = subprocess.run([node, str(MPY_DIR / "run.mjs"), str(ROOT), "--call", call],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
