"""The pairing rules (appliance/edge/pairing.py) on their own, and the one table of rights
(appliance/edge/accounts.py RIGHTS) as mosquitto's dynamic security plugin gets it."""

from __future__ import annotations

import pytest

from appliance.edge.accounts import RIGHTS, AccountsError, acls, client_id, ensure_role, role_name
from appliance.edge.pairing import (
    EXPIRE,
    MAX_PENDING,
    PAIRING_USER,
    Pairing,
    PairingError,
    pair_code,
    request_payload,
)
from firmware import protocol
from tests.security.dynsec_box import MemoryAccounts

SECRET = "a-handsets-own-secret-1234"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def pairing(clock: Clock) -> Pairing:
    return Pairing(MemoryAccounts(), clock=clock, settle=0.0)  # the settle rule: its own test


@pytest.mark.parametrize(("handset", "payload", "reason"), [
    ("h1", b"{not json", "not JSON"),
    ("h1", b'{"v": 2, "secret": "0123456789abcdefgh"}', "version"),
    ("h1", request_payload("h2", SECRET), "id does not match"),
    ("h1", request_payload("h1", "short"), "secret must be"),
    ("h1", request_payload("h1", "x" * 65), "secret must be"),
    ("h1", request_payload("h1", "with a space in it!"), "secret must be"),
    ("h1", request_payload("h1", SECRET, "N" * (protocol.MAX_NAME + 1)), "bad name"),
    ("h1", request_payload("h1", SECRET, "N" * 600), "at most"),
    ("web", request_payload("web", SECRET), "cannot be paired"),
    (PAIRING_USER, request_payload(PAIRING_USER, SECRET), "cannot be paired"),
    ("phone-abcd2345", request_payload("phone-abcd2345", SECRET), "cannot be paired"),
])
def test_bad_requests_are_refused_and_remembered_nowhere(
    pairing: Pairing, handset: str, payload: bytes, reason: str
) -> None:
    with pytest.raises((PairingError, protocol.ProtocolError), match=reason):
        pairing.request(handset, payload)
    assert pairing.requests() == {}


def test_the_first_request_stands_and_the_code_must_be_typed(pairing: Pairing) -> None:
    first = pairing.request("h1", request_payload("h1", SECRET, "Ann"))
    assert first.code == pair_code(SECRET)
    # no code for the page to show; the box's own name for this request, which the accept may name
    assert pairing.requests() == {"h1": {"name": "Ann", "conflict": False, "request": first.token, "wait": 0}}
    assert "code" not in str(pairing.requests()) and first.code not in first.token
    assert pairing.request("h1", request_payload("h1", SECRET)).secret == SECRET  # it asks again while it waits
    for typed in (None, "", " ", "0000" if first.code != "0000" else "1111"):
        with pytest.raises(PairingError):
            pairing.accept("h1", typed)
    assert not pairing.may_speak("h1")  # a wrong or missing code makes nothing
    assert pairing.accept("h1", f" {first.code} ") is True
    assert pairing.may_speak("h1") and pairing.accounts.made["h1"] == SECRET  # type: ignore[union-attr]
    with pytest.raises(PairingError, match="already has an account"):
        pairing.request("h1", request_payload("h1", "a-copycat-secret-value"))
    assert pairing.remove("h1") and not pairing.may_speak("h1")


def test_an_accept_names_the_request_the_page_showed_and_waits_until_it_stood_alone(clock: Clock) -> None:
    """Issue 32: "the first request with that id" is not enough: the accept is of the request the page
    showed (its token), and only once it has been the only one for its id for ``settle`` seconds."""
    pairing = Pairing(MemoryAccounts(), clock=clock, settle=12.0)
    first = pairing.request("h1", request_payload("h1", SECRET, "Ann"))
    assert pairing.requests()["h1"]["wait"] == 12
    with pytest.raises(PairingError, match="Wait 12 s"):
        pairing.accept("h1", first.code, first.token)
    clock.now += 12
    with pytest.raises(PairingError, match="request changed"):
        pairing.accept("h1", first.code, "beef" if first.token != "beef" else "cafe")
    pairing.remove("h1")  # the page showed that request; removed, a new one is another request
    again = pairing.request("h1", request_payload("h1", SECRET, "Ann"))
    assert again.token != first.token or again.at != first.at
    with pytest.raises(PairingError, match="Wait"):  # a new request waits again, from its own start
        pairing.accept("h1", again.code, again.token)
    clock.now += 12
    assert pairing.accept("h1", again.code, again.token) is True


def test_two_secrets_for_one_id_are_both_refused_and_shown(pairing: Pairing, clock: Clock) -> None:
    pairing.request("h1", request_payload("h1", SECRET, "Ann"))
    with pytest.raises(PairingError, match="another secret"):
        pairing.request("h1", request_payload("h1", "a-copycat-secret-value"))
    with pytest.raises(PairingError, match="(?i)two devices"):
        pairing.request("h1", request_payload("h1", SECRET, "Ann"))  # the real one, again: still refused
    with pytest.raises(PairingError, match="(?i)two devices"):
        pairing.accept("h1", pair_code(SECRET))
    assert pairing.requests() == {"h1": {"name": None, "conflict": True}}
    assert any("Two devices ask to be handset h1" in w for w in pairing.warnings())
    pairing.remove("h1")  # the quizmaster clears it; the real handset asks again
    pairing.request("h1", request_payload("h1", SECRET, "Ann"))
    assert pairing.accept("h1", pair_code(SECRET))


def test_waiting_requests_are_bounded_never_evicted_and_lapse_when_silent(pairing: Pairing, clock: Clock) -> None:
    pairing.request("real", request_payload("real", SECRET))
    for i in range(MAX_PENDING + 10):
        try:
            pairing.request(f"junk{i}", request_payload(f"junk{i}", f"{SECRET}-{i}"))
        except PairingError as exc:
            assert "waiting already" in str(exc)
    assert "real" in pairing.requests() and len(pairing.requests()) == MAX_PENDING
    assert pairing.refused_full == 11 and any("were refused" in w for w in pairing.warnings())
    clock.now += EXPIRE / 2
    pairing.request("real", request_payload("real", SECRET))  # a real handset repeats every 5 s
    clock.now += EXPIRE / 2 + 1
    assert list(pairing.requests()) == ["real"]  # the junk fell silent and lapsed; the real one stayed
    assert pairing.accept("real", pair_code(SECRET))


def test_accepting_needs_a_request_but_phones_need_none(pairing: Pairing) -> None:
    with pytest.raises(PairingError, match="has not asked"):
        pairing.accept("h9", "1234")
    assert pairing.accept("phone-abcd2345", None) is False and pairing.may_speak("phone-abcd2345")
    assert not pairing.may_speak("h9") and not pairing.may_speak(PAIRING_USER) and not pairing.may_speak("web")


# -- the rights ----------------------------------------------------------------------------------------------


def test_every_kind_of_account_has_its_rights_from_the_one_table() -> None:
    assert set(RIGHTS) == {"appliance", "web", "pairing", "handset"}
    pairing_acls = acls("pairing", "pub")
    assert pairing_acls == [{"acltype": "publishClientSend", "topic": "quizbox/pub/pairing/+", "allow": True}]
    handset = acls("handset", "pub", "h1")
    sends = {a["topic"] for a in handset if a["acltype"] == "publishClientSend"}
    reads = {a["topic"] for a in handset if a["acltype"] == "subscribePattern"}
    assert sends == {f"quizbox/pub/handset/h1/{leaf}" for leaf in ("input", "hello", "telemetry", "status", "clock")}
    assert reads == {"quizbox/pub/board", "quizbox/pub/appliance/heartbeat"} | {
        f"quizbox/pub/handset/h1/{leaf}" for leaf in ("prompt", "ack", "time")}
    assert all("+" not in t and "#" not in t for t in sends | reads)  # a handset's rights name only itself
    assert role_name("handset", "h1") == "quizbox-handset-h1" and role_name("web") == "quizbox-web"
    for bad in ("web", "pairing", "appliance", "phone-abcd2345", "has/slash", ""):
        with pytest.raises(AccountsError):
            acls("handset", "pub", bad)


def test_a_role_that_has_its_rights_is_left_alone() -> None:
    made = {"quizbox-web": acls("web", "pub")}
    assert ensure_role("web", "pub", roles=made) == []
    stale = {"quizbox-web": acls("web", "pub")[:-1]}
    assert [c["command"] for c in ensure_role("web", "pub", roles=stale)] == ["modifyRole"]
    assert [c["command"] for c in ensure_role("web", "pub", roles={})] == ["createRole", "modifyRole"]


def test_a_handsets_client_id_cannot_be_told_from_its_id() -> None:
    one, two = client_id("h1", SECRET), client_id("h1", SECRET + "x")
    assert one.startswith("h1-") and one != two and SECRET not in one


@pytest.mark.mqtt
def test_mosquitto_20s_plugin_has_no_username_pattern_so_each_handset_has_its_own_role() -> None:
    """Why RIGHTS["handset"] is filled in per handset: an ACL naming %u does not match (measured here)."""
    import time

    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from tests.security.dynsec_box import dynsec_box

    with dynsec_box("pub") as made:
        made.accounts.dynsec.run([
            {"command": "createRole", "rolename": "try-u", "acls": [
                {"acltype": "publishClientSend", "topic": "quizbox/pub/handset/%u/input", "allow": True}]},
            {"command": "createClient", "username": "hx", "password": SECRET, "roles": [{"rolename": "try-u"}]},
        ])
        got: list[str] = []
        watcher = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="watch")
        watcher.username_pw_set("appliance", made.passwords["appliance"])
        watcher.on_message = lambda c, u, m: got.append(m.topic)
        watcher.connect("127.0.0.1", made.broker.port)
        watcher.loop_start()
        watcher.subscribe("quizbox/pub/#", qos=1)
        sender = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="hx-1")
        sender.username_pw_set("hx", SECRET)
        sender.connect("127.0.0.1", made.broker.port)
        sender.loop_start()
        time.sleep(0.3)
        sender.publish("quizbox/pub/handset/hx/input", b"{}", qos=0)
        time.sleep(0.5)
        sender.disconnect()
        sender.loop_stop()
        watcher.disconnect()
        watcher.loop_stop()
        assert got == []  # the %u rule let nothing through
