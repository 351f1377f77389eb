"""Advertise and find a box over real mDNS, run by test_discovery.py inside a private network
namespace (`unshare --net`) whose only interface is loopback with multicast switched on, so not one
packet leaves the machine. Prints one JSON object with what each step saw."""

from __future__ import annotations

import json
import time

from zeroconf import AddressResolverIPv4, IPVersion, ServiceInfo, Zeroconf

from appliance.edge import discovery

LOOPBACK = ["127.0.0.1"]


def main() -> None:
    seen: dict[str, object] = {}
    # A home-automation broker on the same network: an _mqtt._tcp service that is not a quiz box.
    other = Zeroconf(interfaces=LOOPBACK, ip_version=IPVersion.V4Only)
    other.register_service(
        ServiceInfo("_mqtt._tcp.local.", "homeassistant._mqtt._tcp.local.", port=1884,
                    server="ha.local.", parsed_addresses=["127.0.0.9"], properties={"model": "x"})
    )
    seen["only_foreign"] = discovery.find_broker(2.0, interfaces=LOOPBACK)

    addresses = [["127.0.0.2"]]
    with discovery.advertise("pub_one", 1883, 8080, box_name="The Red Lion", interfaces=LOOPBACK,
                             addresses=lambda: addresses[0]) as ad:
        seen["any"] = discovery.find_broker(5.0, interfaces=LOOPBACK)
        seen["mine"] = discovery.find_broker(5.0, box="pub_one", interfaces=LOOPBACK)
        seen["other_box"] = discovery.find_broker(2.0, box="pub_two", interfaces=LOOPBACK)
        zc = Zeroconf(interfaces=LOOPBACK, ip_version=IPVersion.V4Only)
        web = zc.get_service_info("_http._tcp.local.", "pub_one._http._tcp.local.", timeout=3000)
        seen["web"] = None if web is None else [web.port, web.decoded_properties, web.server]
        host = AddressResolverIPv4("pub-one.local.")
        seen["host"] = host.parsed_addresses() if host.request(zc, 3000) else None
        zc.close()
        addresses[0] = ["127.0.0.3"]
        seen["refreshed"] = ad.refresh()
        seen["after_refresh"] = discovery.find_broker(5.0, box="pub_one", interfaces=LOOPBACK)
    time.sleep(0.5)
    seen["after_exit"] = discovery.find_broker(2.0, box="pub_one", interfaces=LOOPBACK)
    other.close()
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
