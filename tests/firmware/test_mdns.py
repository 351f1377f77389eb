"""The ESP32's own mDNS lookup of the box (firmware/core/mdns.py, firmware.esp32.link.Lookup) against a real
responder: python-zeroconf announcing <box>.local as the appliance does, on the loopback interface."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from firmware.core import mdns
from firmware.esp32.link import Lookup

RESPONDER = ("127.0.0.1", 5353)


RESPONDER_SCRIPT = """
import sys
from zeroconf import IPVersion, ServiceInfo, Zeroconf
zc = Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
info = ServiceInfo("_mqtt._tcp.local.", "box1._mqtt._tcp.local.", port=1883,
                   properties={"app": "quizbox", "box": "box1"}, server="box1.local.", parsed_addresses=["127.0.0.1"])
zc.register_service(info)
print("ready", flush=True)
sys.stdin.read()
zc.close()
"""


@pytest.fixture
def box() -> Iterator[subprocess.Popen[str]]:
    """python-zeroconf announcing box1.local, in a process of its own: zeroconf runs one event loop per
    process, and a loop that earlier tests left busy must not make this responder miss its start."""
    proc = subprocess.Popen([sys.executable, "-c", RESPONDER_SCRIPT], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready", "the responder did not start"
        yield proc
    finally:
        if proc.stdin is not None:
            proc.stdin.close()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def ms() -> int:
    return int(time.monotonic() * 1000)


def test_a_legacy_unicast_query_is_answered_by_zeroconf(box: subprocess.Popen[str]) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.settimeout(5)
        sock.sendto(mdns.query("box1.local", 77), RESPONDER)
        packet, _ = sock.recvfrom(512)
    assert mdns.answer(packet, "box1.local") == "127.0.0.1"
    assert mdns.answer(packet, "BOX1.local.") == "127.0.0.1"  # names are case-insensitive
    assert mdns.answer(packet, "box2.local") is None


def test_the_lookup_never_blocks_and_finds_the_box(box: subprocess.Popen[str]) -> None:
    lookup = Lookup("box1.local", 1883, ms, socket, group=RESPONDER)
    polls = 0
    address = None
    deadline = time.monotonic() + 5
    while address is None and time.monotonic() < deadline:
        start = time.monotonic()
        address = lookup.poll()
        assert time.monotonic() - start < 0.05  # each poll returns at once
        polls += 1
        time.sleep(0.005)
    assert address == ("127.0.0.1", 1883) and polls > 1 and lookup.sock is None


def test_the_lookup_gives_up_when_no_one_answers() -> None:
    now = [0]
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as silent:
        silent.bind(("127.0.0.1", 0))  # a port that takes the queries and never answers
        lookup = Lookup("box1.local", 1883, lambda: now[0], socket, group=silent.getsockname())
        for t in range(0, 3000, 100):
            now[0] = t
            assert lookup.poll() is None
        now[0] = 3000
        with pytest.raises(OSError, match="no mDNS answer for box1.local"):
            lookup.poll()
    assert lookup.queries == 3 and lookup.sock is None  # asked every second, then closed


def test_malformed_answers_are_no_address() -> None:
    head = b"\x00\x00\x84\x00\x00\x00\x00\x01\x00\x00\x00\x00"  # a response with one answer
    good = head + b"\x04box1\x05local\x00" + b"\x00\x01\x80\x01\x00\x00\x00\x78\x00\x04"  # A, IN, 120 s, 4 bytes
    assert mdns.answer(good + bytes([10, 0, 0, 7]), "box1.local") == "10.0.0.7"
    assert mdns.answer(good + b"\x0a", "box1.local") is None  # cut short
    assert mdns.answer(b"\x00" * 5, "box1.local") is None
    assert mdns.answer(mdns.query("box1.local", 1), "box1.local") is None  # a query, not an answer
    loop = b"\x00\x00\x84\x00\x00\x00\x00\x01\x00\x00\x00\x00\xc0\x0c"  # a name pointing at itself
    assert mdns.answer(loop, "box1.local") is None
