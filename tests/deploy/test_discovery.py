"""appliance.edge.discovery: the records the box announces, how a handset picks a broker from what it hears,
and (in a private network namespace, loopback only) a real advertise + find over multicast."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import ifaddr
import pytest
from zeroconf import ServiceInfo

from appliance.edge import discovery
from firmware import protocol
from tests.deploy.tools import REPO, need


def test_host_name_is_the_box_id_made_a_host_name() -> None:
    assert discovery.host_name("pub_one") == "pub-one.local."
    assert discovery.host_name("RedLion") == "redlion.local."
    with pytest.raises(protocol.ProtocolError):
        discovery.host_name("red lion")


def test_the_box_announces_its_broker_and_admin_page_on_box_local() -> None:
    mqtt, web = discovery.service_infos("pub_one", 1883, 80, ["192.0.2.7"], box_name="The Red Lion")
    assert (mqtt.type, mqtt.name, mqtt.port, mqtt.server) == (
        "_mqtt._tcp.local.", "pub_one._mqtt._tcp.local.", 1883, "pub-one.local.")
    assert mqtt.decoded_properties == {"app": "quizbox", "box": "pub_one", "name": "The Red Lion",
                                       "proto": str(protocol.VERSION)}
    assert mqtt.parsed_addresses() == ["192.0.2.7"]
    assert (web.type, web.name, web.port, web.server) == (
        "_http._tcp.local.", "pub_one._http._tcp.local.", 80, "pub-one.local.")
    assert web.decoded_properties == {"app": "quizbox", "box": "pub_one", "path": "/"}


def test_no_admin_page_no_http_record() -> None:
    infos = discovery.service_infos("pub", 1883, None, ["192.0.2.7"])
    assert [i.type for i in infos] == ["_mqtt._tcp.local."]


def _info(props: dict[str, str], addresses: list[str], port: int | None = 1883,
          server: str | None = "pub.local.") -> ServiceInfo:
    return ServiceInfo("_mqtt._tcp.local.", "x._mqtt._tcp.local.", port=port, properties=props,
                       server=server, parsed_addresses=addresses)


@pytest.mark.parametrize(
    ("props", "addresses", "box", "expected"),
    [
        ({"app": "quizbox", "box": "pub"}, ["192.0.2.7"], None, ("192.0.2.7", 1883)),
        ({"app": "quizbox", "box": "pub"}, ["192.0.2.7"], "pub", ("192.0.2.7", 1883)),
        ({"app": "quizbox", "box": "pub"}, ["192.0.2.7"], "bar", None),  # another box in the same pub
        ({"model": "mosquitto"}, ["192.0.2.9"], None, None),  # a home-automation broker
        ({"app": "quizbox", "box": "pub"}, ["fd00::7", "192.0.2.7"], None, ("192.0.2.7", 1883)),
        ({"app": "quizbox", "box": "pub"}, [], None, ("pub.local", 1883)),  # no address: the host name
    ],
)
def test_a_handset_takes_only_a_quizbox_broker(
    props: dict[str, str], addresses: list[str], box: str | None, expected: tuple[str, int] | None
) -> None:
    assert discovery.broker_from_info(_info(props, addresses), box) == expected


def test_an_answer_without_address_or_host_name_is_no_broker() -> None:
    assert discovery.broker_from_info(_info({"app": "quizbox"}, [], server=None)) is None


def test_lan_addresses_leave_out_loopback_and_ipv6_and_sort_by_number(monkeypatch: pytest.MonkeyPatch) -> None:
    adapters = [
        ifaddr.Adapter("lo", "lo", [ifaddr.IP("127.0.0.1", 8, "lo"), ifaddr.IP(("::1", 0, 0), 128, "lo")]),
        ifaddr.Adapter("wlan0", "wlan0", [ifaddr.IP("10.0.0.10", 24, "wlan0"),
                                          ifaddr.IP(("fe80::1", 0, 3), 64, "wlan0")]),
        ifaddr.Adapter("eth0", "eth0", [ifaddr.IP("10.0.0.9", 24, "eth0")]),
    ]
    monkeypatch.setattr(ifaddr, "get_adapters", lambda: adapters)
    assert discovery.lan_addresses() == ["10.0.0.9", "10.0.0.10"]


class _Responder:
    """Stands in for the Zeroconf instance of a registered advertisement."""

    def __init__(self) -> None:
        self.updates: list[ServiceInfo] = []

    def update_service(self, info: ServiceInfo) -> None:
        self.updates.append(info)


def test_refresh_announces_again_only_when_the_addresses_change() -> None:
    current = [["192.0.2.7"]]
    ad = discovery.Advertisement("pub", 1883, 80, addresses=lambda: current[0])
    responder = _Responder()
    ad._zc = responder  # type: ignore[assignment]  (as __enter__ leaves it, without the network)
    ad.current = current[0]
    ad.infos = ad._infos(current[0])
    ad.infos[0].name = "pub (2)._mqtt._tcp.local."  # as allow_name_change renames on a clash
    assert not ad.refresh()
    assert responder.updates == []
    current[0] = ["192.0.2.8"]
    assert ad.refresh()
    assert [(i.name, i.parsed_addresses()) for i in responder.updates] == [
        ("pub (2)._mqtt._tcp.local.", ["192.0.2.8"]),
        ("pub._http._tcp.local.", ["192.0.2.8"]),
    ]
    assert ad.current == ["192.0.2.8"]


def test_a_bad_box_id_is_refused_before_any_network_use() -> None:
    with pytest.raises(protocol.ProtocolError):
        discovery.advertise("red lion", 1883, 80)


def _in_private_network(module: str) -> dict[str, Any]:
    """Run ``python -m module`` in a new network namespace with only loopback (multicast on)."""
    need("unshare", "util-linux")
    need("ip", "iproute2")
    setup = "ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo"
    probe = subprocess.run(
        ["unshare", "--net", "sh", "-c", f'{setup} && exec "$0" -m {module}', sys.executable],
        cwd=REPO, capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": REPO},
    )
    if probe.returncode != 0 and "unshare" in probe.stderr and "Operation not permitted" in probe.stderr:
        message = "this machine allows no private network namespace (unshare --net needs root)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    assert probe.returncode == 0, probe.stderr[-3000:]
    result: dict[str, Any] = json.loads(probe.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.slow
def test_advertise_and_find_over_real_multicast_on_a_private_loopback() -> None:
    seen = _in_private_network("tests.deploy.mdns_probe")
    assert seen["only_foreign"] is None, "a broker that is not a quiz box is never taken"
    assert seen["any"] == ["127.0.0.2", 1883]
    assert seen["mine"] == ["127.0.0.2", 1883]
    assert seen["other_box"] is None
    assert seen["web"] == [8080, {"app": "quizbox", "box": "pub_one", "path": "/"}, "pub-one.local."]
    assert seen["host"] == ["127.0.0.2"], "<box>.local resolves to the box"
    assert seen["refreshed"] is True
    assert seen["after_refresh"] == ["127.0.0.3", 1883], "a new address is announced again"
    assert seen["after_exit"] is None, "leaving the with block says goodbye"


@pytest.mark.parametrize("kind", ["mosquitto", "amqtt"])
def test_the_boxs_own_loopback_broker_is_not_announced_and_the_log_says_why(
        kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """``quizbox run`` with no ``[broker] host`` starts its own broker on 127.0.0.1: announcing it at the
    LAN address sent handsets to a port that refuses them."""
    from appliance.box.app import Appliance
    from appliance.edge.broker import BrokerAddress
    from appliance.infra.config import BoxConfig, Config

    announced: list[int] = []
    monkeypatch.setattr(discovery, "advertise", lambda *args, **kwargs: announced.append(1))
    caplog.set_level(logging.WARNING, logger="appliance.box.app")
    with Appliance(Config(box=BoxConfig(id="loopbox", data_dir=str(tmp_path)))) as app:
        app.broker = type("B", (), {"address": BrokerAddress("127.0.0.1", 40123, kind)})()
        assert app.advertise(first_retry=0.01) is None
        time.sleep(0.05)
        assert not announced, "a broker handsets cannot reach was announced"
        assert "not announced" in app.health.parts["mdns"].text
    said = " ".join(r.getMessage() for r in caplog.records)
    assert "not announced on mDNS" in said and "127.0.0.1 only" in said, said


def test_only_the_boxs_own_brokers_are_unreachable_from_the_lan() -> None:
    assert discovery.unreachable_from_lan("external") is None  # the installer's mosquitto: every interface
    for kind in ("mosquitto", "amqtt"):
        why = discovery.unreachable_from_lan(kind)
        assert why is not None and "127.0.0.1" in why and "[broker] host" in why
