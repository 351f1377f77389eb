"""Protocol v1: topics, payload builders and validators (pairs: make_x / parse_x), limits."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware import protocol as p


def test_topics_are_built_once_and_parse_back() -> None:
    assert p.input_topic("pub", "h1") == "quizbox/pub/handset/h1/input"
    assert p.board_topic("pub") == "quizbox/pub/board"
    assert p.parse_handset_topic("pub", p.prompt_topic("pub", "h-1_x")) == ("h-1_x", "prompt")
    for bad in ("quizbox/other/handset/h1/input", "quizbox/pub/board", "quizbox/pub/handset/h+1/input"):
        with pytest.raises(p.ProtocolError):
            p.parse_handset_topic("pub", bad)


@pytest.mark.parametrize("bad", ["", "a/b", "a+b", "#", "x" * 33, "é"])
def test_ids_with_topic_characters_are_refused(bad: str) -> None:
    with pytest.raises(p.ProtocolError):
        p.input_topic("pub", bad)


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        ("range", {"bottom": "-3.5", "top": "3M"}),
        ("range", {"copy": "Bob", "swap": ["Cat", "Dan"], "double": True}),
        ("bet", {"action": "raise", "to": 60}),
        ("bet", {"action": "fold"}),
        ("choice", {"choices": {"pick": "1", "answer": "true"}}),
        ("split", {"split": {"true": 10, "false": 5}}),
        ("token", {"answer": "B", "token": 4}),
        ("buzz", {"pressed": 1234}),
    ],
)
def test_make_then_parse_input_round_trips(kind: str, data: dict[str, object]) -> None:
    wire = p.encode(p.make_input(7, "p3", kind, data, handset="h1", clock=99))
    parsed = p.parse_input("h1", p.decode(wire))
    assert parsed == {"seq": 7, "prompt": "p3", "kind": kind, "data": data, "clock": 99}


@pytest.mark.parametrize(
    ("kind", "data", "reason"),
    [
        ("range", {"bottom": "1"}, "missing top"),
        ("range", {"bottom": 1, "top": "2"}, "bottom not text"),
        ("range", {"bottom": "1" * 41, "top": "2"}, "too long"),
        ("range", {"copy": "Bob", "bottom": "1"}, "not both"),
        ("range", {"bottom": "1", "top": "2", "swap": ["a"]}, "swap needs 2"),
        ("range", {"bottom": "1", "top": "2", "double": "yes"}, "double not true/false"),
        ("bet", {"action": "shove"}, "unknown bet action"),
        ("bet", {"action": "raise"}, "missing amount"),
        ("bet", {"action": "raise", "to": -5}, "whole number"),
        ("bet", {"action": "raise", "to": 5.5}, "not an int"),
        ("bet", {"action": "call", "to": 5}, "takes no amount"),
        ("choice", {"choices": {}}, "bad choices"),
        ("choice", {"choices": {"pick": 1}}, "bad choice pick"),
        ("split", {"split": {"true": -1}}, "whole number"),
        ("split", {"split": {"true": True}}, "whole number"),
        ("token", {"answer": "D", "token": 1}, "A/B/C"),
        ("buzz", {"pressed": "now"}, "not an int"),
    ],
)
def test_bad_input_data_is_refused_with_a_reason(kind: str, data: dict[str, object], reason: str) -> None:
    with pytest.raises(p.ProtocolError, match=reason):
        p.parse_input("h1", p.make_input(1, "p1", kind, data))


def test_envelope_checks() -> None:
    good = p.make_input(1, "p1", "buzz", {})
    for change, reason in [({"seq": True}, "not an int"), ({"seq": -1}, "whole number"),
                           ({"prompt": ""}, "bad prompt id"), ({"kind": "dance"}, "unknown input kind"),
                           ({"v": 2}, "version"), ({"id": "h2"}, "does not match"), ({"data": []}, "not an object")]:
        with pytest.raises(p.ProtocolError, match=reason):
            p.parse_input("h1", {**good, **change})


def test_payload_size_limit_both_ways() -> None:
    with pytest.raises(p.ProtocolError, match="too big"):
        p.encode({"text": "x" * p.MAX_PAYLOAD})
    with pytest.raises(p.ProtocolError, match="too big"):
        p.decode(b" " * (p.MAX_PAYLOAD + 1))
    for raw, reason in [(b"\xff", "not JSON"), (b"[]", "not a JSON object"), (b"nul", "not JSON")]:
        with pytest.raises(p.ProtocolError, match=reason):
            p.decode(raw)


def test_hello_and_telemetry() -> None:
    hello = p.parse_hello("h1", p.make_hello("h1", "Ann", "qb-1.0", "five", clock=5))
    assert hello == {"id": "h1", "name": "Ann", "layout": "five", "fw": "qb-1.0", "clock": 5, "results": False}
    said = p.make_hello("h1", "Ann", results=True)  # revision 1.4: it takes result acks
    assert said["results"] is True and p.parse_hello("h1", said)["results"] is True
    with pytest.raises(p.ProtocolError, match="layout"):
        p.parse_hello("h1", p.make_hello("h1", layout="joystick"))
    with pytest.raises(p.ProtocolError, match="too long"):
        p.parse_hello("h1", p.make_hello("h1", name="x" * 25))
    tele = p.parse_telemetry(p.make_telemetry(50, -70, "qb", "keypad"))
    assert tele["battery"] == 50 and tele["rssi"] == -70
    for bad in ({"battery": 101}, {"battery": "full"}, {"rssi": 5}):
        with pytest.raises(p.ProtocolError):
            p.parse_telemetry({**p.make_telemetry(), **bad})


def test_a_version_given_as_text_is_refused_in_words_that_say_so() -> None:
    """A maker's audit: {"v": "1"} was answered "protocol version 1 unsupported", as if version 1 were."""
    with pytest.raises(p.ProtocolError, match=r"v must be the number 1, not the text '1'") as refused:
        p.parse_hello("h1", {**p.make_hello("h1"), "v": "1"})
    assert refused.value.code == "version" and len(str(refused.value)) <= p.MAX_MESSAGE
    with pytest.raises(p.ProtocolError, match="protocol version 2 unsupported"):
        p.parse_input("h1", {**p.make_input(1, "p1", p.RANGE, {"bottom": "1", "top": "2"}), "v": 2})


def test_an_ack_too_long_for_the_screen_is_cut_never_dropped() -> None:
    """Only a box out of spec sends one; refused, the handset sent its input again every few seconds, for
    ever, each time acked again: the seq and ok are taken, the msg cut as the box would cut it."""
    long = {"v": 1, "seq": 7, "ok": True, "prompt": "p1", "msg": "locked in: " + "12 to 15 " * 30}
    ack = p.parse_ack(long)
    assert (ack["seq"], ack["ok"], ack["msg"]) == (7, True, p.screen_message(long["msg"]))
    assert len(ack["msg"]) <= p.MAX_MESSAGE and ack["msg"].startswith("locked in: 12 to 15")
    refused = p.parse_ack({"v": 1, "seq": 8, "ok": False, "msg": "no", "code": "c" * (p.MAX_CODE + 1)})
    assert (refused["seq"], refused["ok"], refused["code"]) == (8, False, "refused")
    with pytest.raises(p.ProtocolError):
        p.parse_ack({"v": 1, "seq": 9, "ok": True, "msg": 12})  # not a text at all: malformed


def test_ack_and_prompt_pairs() -> None:
    ack = p.parse_ack(p.decode(p.encode(p.make_ack(3, False, "x" * 100, "p1"))))
    assert ack["ok"] is False and len(ack["msg"]) == p.MAX_MESSAGE
    prompt = p.make_prompt("p1", p.TOKEN, "Middle", answers=["A", "B", "C"], tokens=[1, 2])
    assert p.parse_prompt(json.loads(p.encode(prompt)))["tokens"] == [1, 2]
    with pytest.raises(p.ProtocolError):
        p.make_prompt("p1", "dance")


@given(st.dictionaries(st.text(max_size=10), st.text(max_size=10) | st.integers(), max_size=6))
def test_parse_input_only_ever_raises_protocol_error(obj: dict[str, object]) -> None:
    try:
        parsed = p.parse_input("h1", obj)
    except p.ProtocolError as exc:
        assert 0 < len(str(exc)) <= p.MAX_MESSAGE  # short enough for the handset's ack screen
    else:
        assert set(parsed) == {"seq", "prompt", "kind", "data", "clock"}


def test_the_type_stub_names_only_what_the_module_has() -> None:
    import ast
    from pathlib import Path

    stub = ast.parse(Path(p.__file__).with_suffix(".pyi").read_text(encoding="utf-8"))
    names = {n.name for n in stub.body if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    names |= {n.target.id for n in stub.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
    missing = sorted(n for n in names if not hasattr(p, n))
    assert not missing
    public = {n for n in vars(p) if not n.startswith("_") and n not in ("json",)}
    assert sorted(public - names) == []


def test_a_revision_1_0_handset_core_takes_revision_1_1_acks() -> None:
    """The shipped handset core reads acks with ``code`` and the answer to a refused hello (``re``) as it read
    1.0 acks: a refusal shows its message, a hello's answer (seq -1) leaves the pending input alone."""
    from firmware.core.handset import VIEW_REFUSED, VIEW_SENT
    from tests.firmware import samples
    from tests.firmware.support import BOX, HID, make, show

    handset, transport, _ = make("keypad")
    handset.connected()
    show(handset, samples.by_id("r2"))  # type: ignore[no-untyped-call]
    seq = handset.submit({"bottom": "1", "top": "2"})
    hello_answer = p.make_ack(-1, False, "protocol version 2 unsupported", code="version", about="hello")
    assert handset.on_message(p.ack_topic(BOX, HID), p.encode(hello_answer))
    assert handset.view == VIEW_SENT and handset.pending is not None
    refusal = p.make_ack(seq, False, "Cat writes range: the bottom is above the top", "r2", code="not_allowed")
    assert handset.on_message(p.ack_topic(BOX, HID), p.encode(refusal))
    assert handset.view == VIEW_REFUSED and handset.message == refusal["msg"] and handset.pending is None
    assert handset.last_ack is not None and handset.last_ack["code"] == "not_allowed"


def test_wire_prompt_ids_and_the_pairing_topic() -> None:
    wire = p.wire_prompt("9c2e41", {"id": "p7", "kind": "info", "title": "Quizbox", "text": ""})
    assert wire["id"] == "9c2e41-p7" and wire["v"] == p.VERSION
    assert p.split_prompt_id(wire["id"]) == ("9c2e41", "p7") and p.split_prompt_id("p7") == ("", "p7")
    assert p.pairing_topic("pub", "esp32-1") == "quizbox/pub/pairing/esp32-1"
    assert p.pairing_wildcard("pub") == "quizbox/pub/pairing/+"
    with pytest.raises(p.ProtocolError):
        p.pairing_topic("pub", "a/b")


def test_a_version_given_as_long_text_is_refused_within_an_acks_length() -> None:
    """A hypothesis run found {"v": "\\U0001342f"}: its repr made the refusal 49 characters."""
    for v in ("\U0001342f", "1", "x" * 40, "é" * 8):
        with pytest.raises(p.ProtocolError) as caught:
            p.parse_input("h1", {"v": v, "id": "p1", "seq": 1, "kind": "buzz", "data": {}})
        assert len(str(caught.value)) <= p.MAX_MESSAGE and str(caught.value).startswith("v must be the number 1")
