"""Issue 32's attacks by a guest on the pub's Wi-Fi, against the box's real mosquitto with the dynamic
security plugin (tests/security/dynsec_box.py) and the hub, the TV's and the claims client and paired
handsets running. Each test says what the attack did before its fix; docs/security.md lists them."""

from __future__ import annotations

import time

import pytest

from appliance.board import Board
from appliance.box.recovery import Claims, Report
from appliance.box.tv import TV
from appliance.edge.mqtt import Connection
from appliance.edge.pairing import PAIRING_PASSWORD, PAIRING_USER
from appliance.infra.health import Health
from tests.security.test_attacks import _count_drops, _try
from tests.security.test_broker_accounts import BOX, Box
from tests.security.test_broker_accounts import box as box  # noqa: F401  (the fixture)

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
