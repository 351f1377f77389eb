"""The appliance starts its league link itself when the box is a league member (appliance/box/app.py): a
plan published on its own broker (where the bridge brings it) is kept, a finished league night's result
goes out on ``league/result/<box>/...`` with no call but the night's own, an ack clears it, and the league's
table reaches the board's night view between rounds. A box that is not a member starts no link."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from appliance.box.app import Appliance
from appliance.edge.broker import MosquittoBroker
from appliance.edge.handsets import Handset
from appliance.infra.config import BoxConfig, BrokerConfig, Config
from appliance.infra.league_store import LeagueStore
from appliance.league import topics
from appliance.league.payloads import plan_payload
from tests.league.brokers import wait_until
from tests.night.test_night_session import buzz_right

pytestmark = [pytest.mark.mqtt, pytest.mark.timeout(90)]
PLAN = plan_payload("week-7", "Week 7", [{"game": "buzzer", "title": "Fastest finger", "cards": 2}], {})
TABLE = [{"place": 1, "team": "Owls", "box": "pub-z", "points": 100, "nights": 1, "wins": 1}]


class League:
    """The league's side as the bridge shows it on the box's own broker."""

    def __init__(self, port: int) -> None:
        self.got: dict[str, bytes] = {}
        self.lock = threading.Lock()
        paho = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="league-side", protocol=mqtt.MQTTv311)
        paho.on_message = self._message
        paho.connect("127.0.0.1", port)
        paho.subscribe("league/result/#", qos=1)
        paho.loop_start()
        self.paho = paho

    def _message(self, client: Any, userdata: object, msg: Any) -> None:
        with self.lock:
            self.got[msg.topic] = bytes(msg.payload)

    def send(self, topic: str, payload: bytes) -> None:
        self.paho.publish(topic, payload, qos=1, retain=True).wait_for_publish(10)

    def close(self) -> None:
        self.paho.disconnect()
        self.paho.loop_stop()


def config(tmp_path: Path, broker: MosquittoBroker) -> Config:
    return Config(box=BoxConfig(id="pub-z", data_dir=str(tmp_path)), broker=BrokerConfig(host="127.0.0.1",
                                                                                          port=broker.port))


def test_a_member_box_sends_its_league_night_and_shows_the_table(tmp_path: Path, mosquitto: MosquittoBroker) -> None:
    league = League(mosquitto.port)
    league.send(topics.plan_topic("week-7"), json.dumps(PLAN).encode())
    try:
        with Appliance(config(tmp_path, mosquitto), league=True) as app:
            app.start()
            assert app.member is not None and app.store is not None and app.hub is not None
            store = LeagueStore(app.store)
            wait_until(lambda: store.plan("week-7"), 20, "the plan at the box")
            session, hub = app.hub.session, app.hub
            runner = session.night
            teams = ["Owls", "Bats"]
            hs = {t: Handset(id=t.lower(), name=t, accepted=True, online=True) for t in teams}
            with hub.outbox:
                runner.start({t: t.lower() for t in teams}, PLAN["rounds"], PLAN["title"], league_plan="week-7")
                runner.start_round()
                for _ in range(2):
                    buzz_right(session, hs, "Owls")
            assert runner.engine.finished
            result_id = wait_until(lambda: [r for r, _ in store.pending()], 20, "the result in the outbox")[0]
            topic = topics.result_topic("pub-z", result_id)
            wait_until(lambda: topic in league.got, 20, "the result on the box's broker, with no flush called")
            sent = json.loads(league.got[topic])
            assert sent["box"] == "pub-z" and sent["plan"] == "week-7" and sent["places"] == {"Owls": 1, "Bats": 2}
            league.send(topics.ack_topic("pub-z", result_id), b"1")
            wait_until(lambda: store.pending() == [], 20, "the ack clearing the outbox")

            league.send(topics.TABLE_TOPIC, json.dumps(TABLE).encode())
            wait_until(lambda: runner.league_table == TABLE, 20, "the league table at the box")
            assert app.health.parts["league"].ok
    finally:
        league.send(topics.plan_topic("week-7"), b"")
        league.send(topics.TABLE_TOPIC, b"")
        league.close()


def test_a_box_that_is_not_a_member_starts_no_link(tmp_path: Path, mosquitto: MosquittoBroker) -> None:
    cfg = config(tmp_path, mosquitto)
    with Appliance(cfg) as app:
        assert app.is_league_member() is False  # no config file, so no league CA beside it
        app.start()
        assert app.member is None and "league" not in app.health.parts
    source = tmp_path / "etc" / "quizbox.toml"
    (source.parent / "league").mkdir(parents=True)
    source.write_text("", encoding="utf-8")
    (source.parent / "league" / "ca.pem").write_text("-----BEGIN CERTIFICATE-----\n", encoding="utf-8")
    import dataclasses

    assert Appliance(dataclasses.replace(cfg, source=str(source))).is_league_member() is True
