"""How many results per second one mosquitto league broker takes from many pubs (docs/league.md).

A league broker as the tests run it (dynamic security, each pub its own account and rights), 50
simulated pubs publishing result-sized QoS 1 messages to their own topics, one subscriber as the league
service. The baseline, taken in the same run on the same broker: the same number of messages from one
client. Prints messages per second for both and their ratio.

    .venv/bin/python -m bench.league [--pubs 50] [--each 100]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import threading
import time

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from appliance.edge.accounts import AccountsError, Dynsec, PahoTransport
from appliance.edge.broker import MosquittoBroker
from appliance.league import topics

SERVICE_PW = "bench-league"
PAYLOAD = json.dumps({"v": 1, "places": {f"Team {i}": i for i in range(1, 21)},
                      "rounds": [{"game": "buzzer", "points": {f"Team {i}": i for i in range(1, 21)}}] * 8}).encode()


def client(port: int, user: str, password: str, client_id: str) -> mqtt.Client:
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311)
    c.username_pw_set(user, password)
    c.max_inflight_messages_set(100)
    c.connect("127.0.0.1", port)
    c.loop_start()
    return c


def run(port: int, senders: list[tuple[str, str, mqtt.Client]], each: int, sink: list[int]) -> float:
    start_count = sink[0]
    total = len(senders) * each
    t0 = time.perf_counter()

    def send(box: str, c: mqtt.Client) -> None:
        infos = [c.publish(topics.result_topic(box, f"r{n}"), PAYLOAD, qos=1) for n in range(each)]
        for info in infos:
            info.wait_for_publish(60)

    threads = [threading.Thread(target=send, args=(box, c)) for box, _, c in senders]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    while sink[0] - start_count < total and time.perf_counter() - t0 < 120:
        time.sleep(0.005)
    return total / (time.perf_counter() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pubs", type=int, default=50)
    parser.add_argument("--each", type=int, default=100)
    args = parser.parse_args()
    keep_root = "user root\n" if os.geteuid() == 0 else ""  # else it cannot read its private accounts file
    with MosquittoBroker(admin=(topics.SERVICE_USER, SERVICE_PW), extra_config=keep_root) as broker:
        transport = PahoTransport("127.0.0.1", broker.port, topics.SERVICE_USER, SERVICE_PW)
        dynsec = Dynsec(transport)
        commands = [c for n in range(args.pubs) for c in topics.member_commands(f"pub-{n}", f"pw-{n}")]
        dynsec.run(commands)
        with contextlib.suppress(AccountsError):  # last: the plugin disconnects this client before it answers
            dynsec.run([{"command": "createRole", "rolename": "bench-all",
                         "acls": topics.acl_entries((("readwrite", "league/#"),))},
                        {"command": "addClientRole", "username": topics.SERVICE_USER, "rolename": "bench-all"}])
        transport.close()
        sink = [0]
        sub = client(broker.port, topics.SERVICE_USER, SERVICE_PW, "bench-service")
        sub.on_message = lambda c, u, m: sink.__setitem__(0, sink[0] + 1)
        sub.subscribe(topics.RESULTS_FILTER, qos=1)
        time.sleep(0.5)
        base_client = client(broker.port, "pub-0", "pw-0", topics.bridge_client_id("pub-0"))
        baseline = run(broker.port, [("pub-0", "", base_client)], args.pubs * args.each, sink)
        base_client.disconnect()
        pubs = [(f"pub-{n}", "", client(broker.port, f"pub-{n}", f"pw-{n}", topics.bridge_client_id(f"pub-{n}")))
                for n in range(args.pubs)]
        many = run(broker.port, pubs, args.each, sink)
        print(f"payload {len(PAYLOAD)} B, {args.pubs * args.each} QoS 1 messages per run, received {sink[0]}")
        print(f"baseline (1 client):        {baseline:8.0f} msg/s")
        print(f"{args.pubs} pubs, own accounts:    {many:8.0f} msg/s   ratio {many / baseline:.2f}")
        for _, _, c in pubs:
            c.disconnect()
        sub.disconnect()


if __name__ == "__main__":
    main()
