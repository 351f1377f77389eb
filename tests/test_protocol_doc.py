"""docs/protocol.md against firmware/protocol.py: every topic builder, prompt kind, input kind, admin command,
refusal code and limit of the protocol is in the doc; every JSON example validates; the number table reads as
the parser reads; and the doc's "handset in 100 lines" plays against the real appliance on mosquitto."""

from __future__ import annotations

import inspect
import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from appliance.edge.broker import MosquittoBroker
from appliance.edge.hub import Hub
from appliance.errors import MalformedInput
from appliance.flows import flow_factory
from appliance.games.numbers import format_plain, parse_number
from appliance.session.session import Session
from firmware import protocol
from tests.conftest import connection_of

DOC = (Path(__file__).resolve().parents[1] / "docs" / "protocol.md").read_text(encoding="utf-8")


def _section(number: int) -> str:
    match = re.search(rf"^## {number}\. .*?(?=^## \d+\. |\Z)", DOC, re.S | re.M)
    assert match, f"docs/protocol.md has no section {number}"
    return match.group()


def _table_keys(text: str) -> list[str]:
    """The first cells of a section's table rows, when they are `code`."""
    return re.findall(r"^\| `([^`]+)` \|", text, re.M)


def _examples() -> list[dict[str, Any]]:
    out = []
    for block in re.findall(r"```json\n(.*?)```", DOC, re.S):
        for chunk in re.split(r"\n\s*\n", block.strip()):
            obj = json.loads(chunk)
            assert isinstance(obj, dict), chunk
            out.append(obj)
    return out


def _topic_builders() -> list[tuple[str, Any]]:
    return [(name, fn) for name, fn in vars(protocol).items() if inspect.isfunction(fn)
            and not name.startswith(("_", "parse_")) and name.endswith(("_topic", "_wildcard"))]


@pytest.mark.parametrize(("name", "builder"), _topic_builders(), ids=[n for n, _ in _topic_builders()])
def test_every_topic_builder_is_in_the_doc(name: str, builder: Any) -> None:
    args = {"box": "BOX", "handset": "ID", "leaf": "status"}
    params = [p for p in inspect.signature(builder).parameters.values() if p.kind is p.POSITIONAL_OR_KEYWORD]
    topic = builder(*[args[p.name] for p in params])
    written = topic.replace("BOX", "<box>").replace("ID", "<id>").replace("+", "<id>")
    assert f"`{written}" in DOC, f"{name} builds {written}, which docs/protocol.md does not name"


def test_every_prompt_kind_input_kind_command_and_code_is_in_the_doc() -> None:
    assert set(_table_keys(_section(6))) >= set(protocol.PROMPT_KINDS)
    assert set(_table_keys(_section(7))) >= set(protocol.INPUT_KINDS)
    from appliance.games.registry import IDS

    # section 15's two tables: the commands, and the games `start` takes (with the header's `game`)
    assert set(_table_keys(_section(15))) == set(protocol.ADMIN_COMMANDS) | set(IDS) | {"game"}
    assert set(_table_keys(_section(10))) == set(protocol.REFUSALS)
    for action in protocol.BET_ACTIONS:
        assert f"`{action}`" in _section(7), action
    for layout in protocol.LAYOUTS:
        assert f"`{layout}`" in _section(5), layout


LIMITS = ("MAX_PAYLOAD", "MAX_COMMAND", "MAX_COMMAND_ID", "MAX_ID", "MAX_NAME", "MAX_NUMBER", "MAX_TEXT",
          "MAX_MESSAGE", "MESSAGE_LINES", "MESSAGE_COLS", "MAX_CODE", "MAX_CHOICES", "MAX_SIDES", "SWAP_NAMES",
          "MAX_SEQ", "MAX_CLOCK", "KEEPALIVE", "TELEMETRY_EVERY", "SILENT_AFTER", "BACKOFF_MIN", "BACKOFF_MAX",
          "ACK_TIMEOUT", "RECENT_ACKS", "MAX_UNIT")


@pytest.mark.parametrize("name", LIMITS)
def test_every_limit_is_in_the_doc_with_its_value(name: str) -> None:
    rows = [row for row in _section(16).splitlines() if f"`{name}`" in row]
    assert rows, f"{name} is not in the limits table"
    value = getattr(protocol, name)
    assert re.search(rf"(?<![\d.]){value}(?![\d.])", rows[0]), f"{name} = {value}, the doc says: {rows[0]}"
    all_limits = {n for n, v in vars(protocol).items() if n.isupper() and isinstance(v, int)
                  and (n.startswith(("MAX_", "MESSAGE_")) or n in LIMITS)}
    assert all_limits <= set(LIMITS), f"limits not checked against the doc: {all_limits - set(LIMITS)}"


def _validate(obj: dict[str, Any]) -> str:
    """Validate one example with the protocol's own parser; returns what it is."""
    if "cmd" in obj:
        protocol.parse_command(obj)
        return "command"
    if "secret" in obj:
        assert set(obj) <= {"v", "id", "name", "secret"} and 16 <= len(obj["secret"]) <= 64
        return "pairing"
    if "seq" in obj and "data" in obj:
        protocol.parse_input(obj.get("id", "h1"), obj)
        return "input:" + str(obj["kind"])
    if "seq" in obj and "ok" in obj:
        ack = protocol.parse_ack(obj)
        assert protocol.screen_message(ack["msg"]) == ack["msg"], "an ack message must fit the screen"
        assert ack["ok"] or ack["code"] in protocol.REFUSALS
        return "ack"
    if "th" in obj:
        protocol.parse_clock("h1", obj)
        return "clock"
    if "ping" in obj:
        protocol.parse_ping(obj)
        return "ping"
    if "boot" in obj and "every" in obj:
        protocol.parse_heartbeat(obj)
        return "heartbeat"
    if "kind" in obj and "title" in obj:
        protocol.parse_prompt(obj)
        assert len(protocol.encode(obj)) <= protocol.MAX_PAYLOAD
        return "prompt:" + str(obj["kind"])
    if "battery" in obj:
        protocol.parse_telemetry(obj)
        return "telemetry"
    if "layout" in obj:
        protocol.parse_hello(obj["id"], obj)
        return "hello"
    if "handsets" in obj:
        assert tuple(sorted(obj)) == tuple(sorted(protocol.ADMIN_STATE_FIELDS))
        assert protocol.parse_reply(obj["last"]) is not None
        return "admin state"
    if "scene" in obj:
        return "board"
    if "ok" in obj and "id" in obj:
        assert protocol.parse_reply(obj) is not None
        assert obj["ok"] or obj["code"] in protocol.REFUSALS
        return "reply"
    raise AssertionError(f"an example of nothing the protocol defines: {obj}")


def test_every_example_validates_and_every_kind_has_one() -> None:
    seen = {_validate(obj) for obj in _examples()}
    for kind in protocol.PROMPT_KINDS:
        assert f"prompt:{kind}" in seen, f"no example of a {kind} prompt"
    for kind in protocol.INPUT_KINDS:
        assert f"input:{kind}" in seen, f"no example of a {kind} input"
    assert {"hello", "telemetry", "ack", "ping", "clock", "heartbeat", "pairing", "command", "reply", "admin state",
            "board"} <= seen


def test_the_number_table_reads_as_the_parser_reads() -> None:
    rows = re.findall(r"^\| `([^`]*)` \| (.+?) \|$", _section(8), re.M)
    assert len(rows) >= 30
    assert any(r.startswith("refused") for _, r in rows) and any(not r.startswith("refused") for _, r in rows)
    for typed, reads in rows:
        if reads.startswith("refused: "):
            with pytest.raises(MalformedInput) as caught:
                parse_number(typed)
            assert reads.removeprefix("refused: ") in str(caught.value), (typed, str(caught.value))
        else:
            assert format_plain(parse_number(typed)) == reads, typed
        assert len(typed) <= protocol.MAX_NUMBER


def _walkthrough() -> str:
    match = re.search(r"```python\n(.*?)```", _section(17), re.S)
    assert match, "section 17 has no listing"
    return match.group(1)


def test_the_walkthrough_fits_in_100_lines() -> None:
    assert len(_walkthrough().splitlines()) <= 100
    imports = set(re.findall(r"^import (.+)$", _walkthrough(), re.M))
    assert all("quizbox" not in i and "appliance" not in i and "firmware" not in i for i in imports)


@pytest.mark.mqtt
def test_the_walkthrough_handset_plays_and_says_goodbye(mosquitto: MosquittoBroker, box_id: str,
                                                         tmp_path: Path) -> None:
    """Three copies of the listing play a question of Confident? (the range "1" to "1M" in the number grammar)
    and, stopped, say offline before they disconnect."""
    script = tmp_path / "handset.py"
    script.write_text(_walkthrough())
    session = Session(time.monotonic, flows=flow_factory)
    ids = {"walk1": "Ann", "walk2": "Bob", "walk3": "Cat"}
    with Hub(box_id, session, connection_of(mosquitto)) as hub:
        handsets = [subprocess.Popen([sys.executable, str(script), mosquitto.address.host, box_id, hid, name,
                                      str(mosquitto.address.port)],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                    for hid, name in ids.items()]

        def online(hid: str) -> bool:
            handset = hub.registry.get(hid)
            return handset is not None and handset.online

        try:
            deadline = time.monotonic() + 20
            while not all(online(h) for h in ids) and time.monotonic() < deadline:
                time.sleep(0.05)
            result = hub.command({"cmd": "start", "game": "confident",
                                  "seats": [{"player": name, "handset": hid} for hid, name in ids.items()],
                                  "cards": [{"id": f"c{n}", "question": "How many legs has a spider?", "answer": "8"}
                                            for n in range(3)]})
            assert result["ok"]
            while hub.accepted < 3 and time.monotonic() < deadline:
                time.sleep(0.05)
            for handset in handsets:
                handset.send_signal(signal.SIGTERM)
            outputs = [handset.communicate(timeout=10)[0] for handset in handsets]
            assert hub.accepted >= 3, f"the walkthrough's ranges were not all accepted: {outputs}"
            for handset, output in zip(handsets, outputs, strict=True):
                assert handset.returncode == 0, output
                assert "[range]" in output and "ok: 1 to 1M" in output, output
            while any(online(h) for h in ids) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert not any(online(h) for h in ids)  # each said offline on leaving
        finally:
            for handset in handsets:
                if handset.poll() is None:
                    handset.kill()
                    handset.wait()


@pytest.mark.mqtt
@pytest.mark.timeout(60)
def test_the_walkthrough_logs_in_with_its_account_and_says_hello_to_a_restarted_box(tmp_path: Path) -> None:
    """On a box with accounts the listing, given its secret, logs in as its own account (the client id of
    section 2) and plays; when the box restarts (a new heartbeat ``boot``) it says hello again, with
    ``acked``. (An audit found the listing could not log in on such a box at all.)"""
    from appliance.box.pulse import Pulse
    from appliance.edge.mqtt import Client, Connection
    from tests.security.dynsec_box import dynsec_box

    box = "walkbox"
    secrets_of = {"walk-ann": "9f86d081884c7d659a2feaa0c55ad015", "walk-bob": "0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e"}
    script = tmp_path / "handset.py"
    script.write_text(_walkthrough())
    with dynsec_box(box) as dyn:
        for hid, secret in secrets_of.items():
            dyn.accounts.add_handset(hid, secret)  # what accepting its pair code on the admin page does
        conn = Connection("127.0.0.1", dyn.broker.port, "appliance", dyn.passwords["appliance"])
        hellos: list[dict[str, Any]] = []
        spy = Client("walk-spy", conn, lambda t, p: hellos.append(json.loads(p)),
                     subscriptions=[protocol.hello_topic(box, "walk-ann")]).start(wait=10)
        handsets: list[subprocess.Popen[str]] = []

        def joined(hub: Hub) -> bool:
            return all((h := hub.registry.get(hid)) is not None and h.online for hid in secrets_of)

        try:
            with Hub(box, Session(time.monotonic, flows=flow_factory), conn) as hub:
                pulse = Pulse(hub, every_ms=100).start()
                # the handsets after the box: a hello sent before any box listened is lost, and this box has
                # no store to know them by their retained `online` (a fresh-clone run lost Ann's)
                handsets += [subprocess.Popen([sys.executable, "-u", str(script), "127.0.0.1", box, hid,
                                               hid[5:].title(), str(dyn.broker.port), secret],
                                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                             for hid, secret in secrets_of.items()]
                try:
                    deadline = time.monotonic() + 20
                    while not joined(hub):
                        assert time.monotonic() < deadline, "the listings never joined"
                        time.sleep(0.05)
                    seats = [{"player": hid[5:].title(), "handset": hid} for hid in secrets_of]
                    result = hub.command({"cmd": "start", "game": "confident", "seats": seats,
                                          "options": {"variants": ["two_players"]},
                                          "cards": [{"id": "c1", "question": "Legs of a spider?", "answer": "8"}]})
                    assert result["ok"], result
                    while hub.accepted < 2:
                        assert time.monotonic() < deadline, "the listings' ranges were not accepted"
                        time.sleep(0.05)
                finally:
                    pulse.stop()
            said = len(hellos)
            # the box again, with a new boot
            with Hub(box, Session(time.monotonic, flows=flow_factory), conn) as restarted:
                pulse = Pulse(restarted, every_ms=100).start()
                try:
                    deadline = time.monotonic() + 10
                    while len(hellos) == said:
                        assert time.monotonic() < deadline, "no hello after the box restarted"
                        time.sleep(0.05)
                finally:
                    pulse.stop()
            assert hellos[-1].get("acked", {}).get("seq") == 1, hellos[-1]
            for handset in handsets:
                handset.send_signal(signal.SIGTERM)
            for handset in handsets:
                output = handset.communicate(timeout=10)[0]
                assert handset.returncode == 0 and "refused:" not in output and "ok: 1 to 1M" in output, output
        except AssertionError as exc:  # say what the listings printed
            for handset in handsets:
                if handset.poll() is None:
                    handset.kill()
            said_by = [h.communicate(timeout=10)[0] if h.stdout and not h.stdout.closed else "" for h in handsets]
            raise AssertionError(f"{exc}; the listings printed: {said_by}") from exc
        finally:
            for handset in handsets:
                if handset.poll() is None:
                    handset.kill()
                    handset.wait()
            spy.stop()


def test_the_pairing_example_gives_the_code_and_client_id_the_doc_says() -> None:
    """The doc describes the pair code and the client id in words, with a worked example: the firmware's own
    functions (firmware/core/pairing.py, which the appliance's pairing agrees with) give the same."""
    import hashlib

    from firmware.core.pairing import client_id, pair_code, request_payload

    [request] = [e for e in _examples() if "secret" in e]
    secret, handset = request["secret"], request["id"]
    code = re.search(r"the code is\s+`(\d{4})`", _section(2))
    own = re.search(r"client id of step 2 is `([^`]+)`", _section(2))
    assert code and own
    assert pair_code(secret) == code.group(1)
    assert client_id(handset, secret) == own.group(1)
    # the words: SHA-256 of "quizbox-client-id:" + secret, first 8 bytes in hex; code: 4 bytes mod 10000
    assert own.group(1) == handset + "-" + hashlib.sha256(("quizbox-client-id:" + secret).encode()).digest()[:8].hex()
    assert int(code.group(1)) == int.from_bytes(hashlib.sha256(secret.encode()).digest()[:4], "big") % 10000
    assert json.loads(request_payload(handset, secret, request["name"])) == request


def test_section_15_lists_every_game_with_its_options() -> None:
    """A maker starting a game over MQTT finds each game's id and options in section 15 (an audit had to
    guess the ids); the registry is the truth: each engine's defaults and each flow's own options."""
    from appliance.games.registry import SPECS

    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| `([a-z]+)` \| [^|]+ \| .*$", _section(15), re.M)}
    for spec in SPECS:
        assert spec.id in rows, f"section 15 has no row for the game {spec.id!r}"
        named = set(spec.engine.defaults) | set(spec.flow_options) | {
            s.name for s in spec.settings if s.kind == "player"}  # first, first_reader
        missing = [name for name in sorted(named) if f"`{name}`" not in rows[spec.id]]
        assert not missing, f"section 15's {spec.id} row does not name the options {missing}"
