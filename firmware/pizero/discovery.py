"""The Pi Zero handset finds its box on mDNS (zeroconf): the ``_mqtt._tcp`` service whose TXT says
``app=quizbox`` and, with a box id, ``box=<id>``. This is the handset's half of the announcement the
appliance makes (docs/deploy.md, "How handsets find the box"); the firmware does not import the appliance,
so the TXT keys are the contract between the two."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence

from zeroconf import InterfaceChoice, IPVersion, ServiceBrowser, ServiceInfo, ServiceListener, Zeroconf

log = logging.getLogger(__name__)

MQTT_SERVICE = "_mqtt._tcp.local."
APP = "quizbox"  # the TXT value that marks a Quizbox broker


def broker_of(info: ServiceInfo, box: str | None = None) -> tuple[str, int] | None:
    """``(host, port)`` of a resolved service if it is a Quizbox broker (of ``box``): its first IPv4
    address, else its host name."""
    txt = info.decoded_properties
    if txt.get("app") != APP or info.port is None or (box is not None and txt.get("box") != box):
        return None
    addresses = info.parsed_addresses(IPVersion.V4Only)
    if addresses:
        return addresses[0], info.port
    if info.server:
        return info.server.rstrip("."), info.port
    return None


class _Names(ServiceListener):
    def __init__(self) -> None:
        self.names: list[str] = []
        self.added = threading.Condition()

    def add_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        with self.added:
            self.names.append(name)
            self.added.notify_all()

    def update_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        self.add_service(zc, type_, name)

    def remove_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        return None


def browse(
    box: str | None = None, timeout: float = 5.0, interfaces: InterfaceChoice | Sequence[str] | None = None
) -> tuple[str, int] | None:
    """The first Quizbox broker (of ``box``) announced within ``timeout`` seconds, or None. ``interfaces``:
    zeroconf's (addresses to listen on, or an ``InterfaceChoice``); None for every interface. The appliance's
    ``find_broker`` is this same browse."""
    deadline = time.monotonic() + timeout
    names = _Names()
    tried: set[str] = set()
    zc = (
        Zeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
        if interfaces
        else Zeroconf(ip_version=IPVersion.V4Only)
    )
    browser = ServiceBrowser(zc, MQTT_SERVICE, listener=names)
    try:
        while True:
            with names.added:
                fresh = [n for n in names.names if n not in tried]
                left = deadline - time.monotonic()
                if not fresh:
                    if left <= 0:
                        log.info("no Quizbox broker announced on mDNS within %.0f s", timeout)
                        return None
                    names.added.wait(left)
                    continue
            for name in fresh:
                tried.add(name)
                info = zc.get_service_info(MQTT_SERVICE, name, timeout=max(int(left * 1000), 500))
                found = broker_of(info, box) if info is not None else None
                if found is not None:
                    log.info("found Quizbox broker %s at %s:%s", name, *found)
                    return found
                log.debug("mDNS service %s is not a Quizbox broker%s", name, f" of box {box}" if box else "")
    finally:
        browser.cancel()
        zc.close()
