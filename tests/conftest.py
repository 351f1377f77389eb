"""Shared fixtures: real brokers (mosquitto per test session; the embedded amqtt one where asked).

Tests that need mosquitto FAIL (not skip) when CI=true and mosquitto is missing: CI installs it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from appliance.edge.broker import EmbeddedBroker, MosquittoBroker, RunningBroker, mosquitto_binary
from appliance.edge.mqtt import Connection

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def _need_mosquitto() -> None:
    if mosquitto_binary() is None:
        message = "mosquitto is not installed (apt-get install mosquitto)"
        if os.environ.get("CI") == "true":
            pytest.fail(message + ": CI must provide it")
        pytest.skip(message)


@pytest.fixture(scope="session")
def mosquitto() -> Iterator[MosquittoBroker]:
    _need_mosquitto()
    with MosquittoBroker() as broker:
        yield broker


@pytest.fixture(scope="session")
def amqtt_broker() -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker() as broker:
        yield broker


@pytest.fixture(params=["mosquitto", "amqtt"])
def any_broker(request: pytest.FixtureRequest) -> RunningBroker:
    """The protocol suite runs against both brokers the appliance can use."""
    broker: RunningBroker = request.getfixturevalue("mosquitto" if request.param == "mosquitto" else "amqtt_broker")
    return broker


def connection_of(broker: RunningBroker) -> Connection:
    return Connection(broker.address.host, broker.address.port)


_box_counter = 0


@pytest.fixture
def box_id() -> str:
    """A fresh box id per test, so tests sharing a broker never see each other's retained messages."""
    global _box_counter
    _box_counter += 1
    return f"t{os.getpid()}x{_box_counter}"
