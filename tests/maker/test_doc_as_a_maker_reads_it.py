"""An outsider's audit of docs/protocol.md (a maker writing a handset from the doc alone, paho-mqtt 2.x).

Each test is one place where following the doc literally went wrong against the real appliance (a handset
written from the doc alone played every game kind against `quizbox demo` and `quizbox run`); each failed
until the doc (or, where the doc states the intent, the appliance) was put right.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from appliance.edge.accounts import RIGHTS
from appliance.edge.broker import MosquittoBroker
from appliance.edge.hub import Hub
from appliance.flows import flow_factory
from appliance.games.registry import IDS
from appliance.session.session import Session
from firmware import protocol
from tests.conftest import connection_of
from tests.support import guess  # noqa: F401  (registers the test game)
from tests.test_hub import CARDS, Raw

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
RULES = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")


def _section(number: int) -> str:
    match = re.search(rf"^## {number}\. .*?(?=^## \d+\. |\Z)", DOC, re.S | re.M)
    assert match, f"docs/protocol.md has no section {number}"
    return match.group()


def test_section_2_lists_every_topic_a_handset_account_may_read() -> None:
    """Section 2: "The account's role lets it ... read only its own `prompt`, `ack`, `time` and the public
    `board`". Section 13 then tells a handset to watch `appliance/heartbeat` (a new `boot`: hello again), and
    the handset role does grant it (accounts.RIGHTS["handset"]). A maker who trusts section 2 does not
    subscribe to the heartbeat and never learns that the box restarted."""
    sentence = re.search(r"The account's role lets it (.*?)so\s+the\s+topic is the identity", _section(2), re.S)
    assert sentence, "section 2 no longer says what a handset's account may do"
    said = sentence.group(1)
    reads = [pattern for access, pattern in RIGHTS["handset"] if access == "read"]
    assert reads, "RIGHTS['handset'] reads nothing?"
    missing = [p for p in reads if p.rsplit("/", 1)[1] not in said]
    assert not missing, f"section 2 says a handset reads only {said.strip()!r}; the role also reads {missing}"


def test_section_15_names_the_game_ids_start_takes() -> None:
    """Section 15's `start` takes `game`, but the page never says which ids exist: the only one shown is
    `confident` (in an example). A maker had to guess `poker`, `allin`, `squizz`, `buzzer`; a wrong guess is
    answered "no decks for game 'x'", which does not list them either."""
    start_row = next((line for line in _section(15).splitlines() if line.startswith("| `start` |")), "")
    assert start_row, "section 15 has no `start` row"
    missing = [game for game in IDS if f"`{game}`" not in _section(15)]
    assert not missing, f"section 15 does not name the game ids {missing} (the registry's ids: {list(IDS)})"


def test_section_6_says_how_long_an_early_buzz_locks_out() -> None:
    """Section 6: "a press before that locks you out for a moment". rules.md buzzer-1 and the appliance lock
    the handset out for the whole question (the demo's prompt: "Too early! Locked out of this question."),
    and the early press is acked ok:true "too early: locked out". A maker who re-enables the button after
    "a moment" offers a press that is never taken."""
    assert "locks that handset out for the question" in RULES  # the rule as the appliance plays it
    buzz = re.search(r"Buzzer round: the question first.*?```", _section(6), re.S)
    assert buzz, "section 6 no longer describes the buzzer prompt"
    assert "for a moment" not in buzz.group(), \
        "section 6 says an early press locks you out 'for a moment'; rules.md buzzer-1: for the whole question"


def test_section_17_listing_can_log_in_once_paired() -> None:
    """Section 17: "Run it as `python3 handset.py ...` against a box without accounts (or pair it first,
    section 2)". Once paired, section 2 says the broker takes only user `<id>`, the secret as password and the
    client id `<id>-<16 hex from the secret>`, "and refuses any other". The listing sets no user name or
    password and a random client id (`<id>-` + 8 random characters): on a box with accounts it is refused
    for ever, paired or not."""
    listing = re.search(r"```python\n(.*?)```", _section(17), re.S)
    assert listing, "section 17 has no listing"
    code = listing.group(1)
    assert "username_pw_set" in code, "the listing never logs in with its id and secret (section 2, step 2)"
    assert "quizbox-client-id:" in code, "the listing's client id is random, not the one section 2 derives"


@pytest.fixture
def hub(mosquitto: MosquittoBroker, box_id: str) -> Iterator[Hub]:
    with Hub(box_id, Session(time.monotonic, flows=flow_factory), connection_of(mosquitto)) as running:
        yield running


@pytest.mark.mqtt
def test_an_ack_to_a_readable_but_bad_input_names_its_prompt(hub: Hub, mosquitto: MosquittoBroker,
                                                             box_id: str) -> None:
    """Section 9's ack table: `prompt` is "the prompt the input answered (absent when it could not be
    read)", and `seq` is -1 only "for a payload that could not be read at all (not JSON, too big)". An input
    that reads (JSON, its seq and prompt id fine) but has an unknown kind or no `data` is acked with its seq
    and `bad_input`, yet without `prompt`, so a handset cannot tell which screen the refusal is about."""
    ann = Raw(box_id, "h1", connection_of(mosquitto))
    try:
        ann.hello()
        hub.command({"cmd": "start", "game": "guess", "cards": CARDS, "seats": [{"player": "Ann", "handset": "h1"}]})
        question = ann.wait("prompt", 2)
        while question["kind"] != "range":
            question = ann.wait("prompt", ann.count("prompt") + 1)
        ann.send("input", {"v": 1, "seq": 6, "prompt": question["id"], "kind": "warp", "data": {}})
        unknown_kind = ann.wait("ack", 1)
        ann.send("input", {"v": 1, "seq": 7, "prompt": question["id"], "kind": "range"})
        no_data = ann.wait("ack", 2)
        for ack, seq in ((unknown_kind, 6), (no_data, 7)):
            assert ack["ok"] is False and ack["code"] == "bad_input" and ack["seq"] == seq, ack
        assert unknown_kind.get("prompt") == question["id"], f"no prompt in the ack {unknown_kind}"
        assert no_data.get("prompt") == question["id"], f"no prompt in the ack {no_data}"
        assert protocol.MAX_PAYLOAD  # the input above is well within the size limit
    finally:
        ann.stop()
