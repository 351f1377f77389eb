"""mDNS (zeroconf): the box announces its broker and admin page, handsets find the broker.

The appliance advertises two services on the local network, both on the host name ``<box>.local``:

* ``_mqtt._tcp``, the broker handsets connect to, TXT ``app=quizbox box=<id> name=<name> proto=<v>``;
* ``_http._tcp``, the admin page (phones and the quizmaster's laptop), TXT ``app=quizbox box=<id> path=/``.

A handset with no broker configured calls :func:`find_broker`; it only takes a service whose TXT says
``app=quizbox`` (a home-automation broker on the same network is not a quiz box), and with ``box`` given,
only that box. The address it returns is an IP address, so the handset does not need an mDNS resolver
of its own. An ESP32 does the same with MicroPython's ``network.WLAN`` plus a small mDNS query (see
docs/deploy.md, "How handsets find the box").
"""

from __future__ import annotations

import ipaddress
import logging
import threading
from collections.abc import Callable, Sequence
from types import TracebackType

import ifaddr
from zeroconf import InterfaceChoice, IPVersion, ServiceInfo, Zeroconf

from firmware import protocol
from firmware.pizero import discovery as pizero_discovery

log = logging.getLogger(__name__)

MQTT_SERVICE = "_mqtt._tcp.local."
HTTP_SERVICE = "_http._tcp.local."
APP = "quizbox"  # the TXT value that marks a Quizbox service
REFRESH_SECONDS = 30.0  # how often the advertised addresses are checked (DHCP, Wi-Fi coming up late)

AddressSource = Callable[[], list[str]]
# where to announce and listen: every interface, or the given interface addresses (tests: 127.0.0.1)
Interfaces = InterfaceChoice | Sequence[str]


def host_name(box_id: str) -> str:
    """The mDNS host name of box ``box_id``: ``pub_one`` -> ``pub-one.local.``

    Host names may not hold ``_`` (many resolvers refuse it), so it becomes ``-``; mDNS names are
    case-insensitive, so the name is lower-cased.
    """
    protocol.box_topic(box_id)  # ProtocolError for an id the protocol refuses
    return box_id.replace("_", "-").lower() + ".local."


LOOPBACK_KINDS = ("mosquitto", "amqtt")  # appliance.edge.broker.start_broker's own: listener 127.0.0.1 only


def unreachable_from_lan(broker_kind: str) -> str | None:
    """Why handsets on the LAN could not reach a broker of this kind (``BrokerAddress.kind``), or None.

    ``quizbox run`` with no ``[broker] host`` starts a broker of its own on a loopback port: announcing
    it at the box's LAN addresses would send every handset to a port that refuses it."""
    if broker_kind in LOOPBACK_KINDS:
        return (f"the box's own {broker_kind} broker listens on 127.0.0.1 only, where handsets cannot reach it "
                "(set [broker] host to the box's mosquitto, as the installer does, for handsets to find it)")
    return None


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, sorted (what handsets can reach)."""
    found: set[str] = set()
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and not ipaddress.IPv4Address(ip.ip).is_loopback:
                found.add(ip.ip)
    return sorted(found, key=ipaddress.IPv4Address)


def service_infos(
    box_id: str, broker_port: int, web_port: int | None, addresses: Sequence[str], box_name: str = ""
) -> list[ServiceInfo]:
    """The records the box announces: the broker, and the admin page when ``web_port`` is set."""
    server = host_name(box_id)
    instance = box_id
    mqtt_txt = {"app": APP, "box": box_id, "name": box_name or box_id, "proto": str(protocol.VERSION)}
    infos = [
        ServiceInfo(
            MQTT_SERVICE,
            f"{instance}.{MQTT_SERVICE}",
            port=broker_port,
            properties=mqtt_txt,
            server=server,
            parsed_addresses=list(addresses),
        )
    ]
    if web_port is not None:
        infos.append(
            ServiceInfo(
                HTTP_SERVICE,
                f"{instance}.{HTTP_SERVICE}",
                port=web_port,
                properties={"app": APP, "box": box_id, "path": "/"},
                server=server,
                parsed_addresses=list(addresses),
            )
        )
    return infos


class Advertisement:
    """The box's services on the network while the ``with`` block runs; goodbye packets on exit.

    A background thread re-reads the addresses every ``refresh_seconds`` and re-announces when they
    change, so a box that booted before its Wi-Fi came up, or got a new DHCP lease, is still found.
    """

    def __init__(
        self,
        box_id: str,
        broker_port: int,
        web_port: int | None,
        box_name: str = "",
        interfaces: Interfaces = InterfaceChoice.All,
        addresses: AddressSource = lan_addresses,
        refresh_seconds: float = REFRESH_SECONDS,
    ) -> None:
        host_name(box_id)  # refuse a bad id before touching the network
        self.box_id = box_id
        self.broker_port = broker_port
        self.web_port = web_port
        self.box_name = box_name
        self._interfaces = interfaces
        self._addresses = addresses
        self._refresh_seconds = refresh_seconds
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._zc: Zeroconf | None = None
        self.infos: list[ServiceInfo] = []
        self.current: list[str] = []

    def __enter__(self) -> Advertisement:
        self._zc = Zeroconf(interfaces=self._interfaces, ip_version=IPVersion.V4Only)
        try:
            self.current = self._addresses()
            self.infos = self._infos(self.current)
            for info in self.infos:
                self._zc.register_service(info, allow_name_change=True)
        except BaseException:
            self._zc.close()
            raise
        log.info(
            "advertising %s on mDNS as %s at %s (broker port %s, admin port %s)",
            self.box_id, host_name(self.box_id), ", ".join(self.current) or "no address yet",
            self.broker_port, self.web_port,
        )
        self._thread = threading.Thread(target=self._watch, name="mdns-refresh", daemon=True)
        self._thread.start()
        return self

    def _infos(self, addresses: Sequence[str]) -> list[ServiceInfo]:
        return service_infos(self.box_id, self.broker_port, self.web_port, addresses, self.box_name)

    def refresh(self) -> bool:
        """Re-announce if the addresses changed since the last look; True when they did."""
        addresses = self._addresses()
        if addresses == self.current or self._zc is None:
            return False
        log.info("network addresses changed (%s -> %s): announcing again", self.current, addresses)
        fresh = self._infos(addresses)
        for old, new in zip(self.infos, fresh, strict=True):
            new.name = old.name  # keep a name that allow_name_change picked
            self._zc.update_service(new)
        self.infos, self.current = fresh, addresses
        return True

    def _watch(self) -> None:
        while not self._stop.wait(self._refresh_seconds):
            try:
                self.refresh()
            except Exception:
                log.exception("mDNS refresh failed; the box stays announced at %s", self.current)

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self._zc is not None:
            try:
                self._zc.unregister_all_services()
            finally:
                self._zc.close()
                self._zc = None


def advertise(
    box_id: str,
    broker_port: int,
    web_port: int | None,
    box_name: str = "",
    interfaces: Interfaces = InterfaceChoice.All,
    addresses: AddressSource = lan_addresses,
) -> Advertisement:
    """Announce box ``box_id``'s broker (and admin page) as ``<box>.local``; use as a context manager."""
    return Advertisement(box_id, broker_port, web_port, box_name, interfaces, addresses)


def broker_from_info(info: ServiceInfo, box: str | None = None) -> tuple[str, int] | None:
    """``(host, port)`` of a resolved ``_mqtt._tcp`` service if it is a Quizbox broker (of ``box``): the
    first IPv4 address when the answer carried one, else the host name. The Pi Zero handset's reading
    (firmware/pizero/discovery.py), the one both sides use."""
    found: tuple[str, int] | None = pizero_discovery.broker_of(info, box)
    return found


def find_broker(
    timeout: float = 5.0,
    box: str | None = None,
    interfaces: Interfaces = InterfaceChoice.All,
) -> tuple[str, int] | None:
    """The first Quizbox broker (of ``box``, if given) announced within ``timeout`` seconds, or None: the
    Pi Zero handset's browse (firmware/pizero/discovery.py), which a handset on a Pi and this side share."""
    found: tuple[str, int] | None = pizero_discovery.browse(box, timeout, interfaces)
    return found
