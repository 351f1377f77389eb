"""What a retained state costs the hub's process at QoS 1 against QoS 0, through the same broker in one run.

    python bench/qos.py [--messages 2000] [--size 10000] [--rounds 2]

The hub publishes the board and the admin state (retained, QoS 1) after inputs: 10 KB each at 64
handsets, 45 and 34 KB at 256. At QoS 1 paho keeps each one until the broker's PUBACK, which MQTT's
thread (the one that acks inputs) then reads and handles; at QoS 0 it writes it and forgets it. Printed:
the CPU time of this process per message at each QoS (paho's publish, writing and the PUBACKs),
alternating ``--rounds`` times, and the ratio QoS 0 / QoS 1.

Kept at QoS 1 although QoS 0 costs less here: with the states at QoS 0, bench/game.py at 256 handsets
had a question's first acks wait 15-45 ms (p99; 4.5-5.6 ms at QoS 1, two runs each, issue 22), and the
cause was not found. Measure both again before changing it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from appliance.edge.broker import start_broker  # noqa: E402
from appliance.edge.mqtt import Client, Connection  # noqa: E402


def per_message(client: Client, qos: int, count: int, payload: bytes) -> float:
    """CPU microseconds of this process per retained publish at ``qos``, until all are written and acked."""
    client.wait_written(5)
    time.sleep(0.3)  # the PUBACKs of the last round are in
    start = time.process_time()
    for i in range(count):
        client.publish("bench/qos/board", payload, retain=True, qos=qos)
        if i % 50 == 49:
            client.wait_written(5)  # as the hub does: a few states at a time, not 2000 queued
    client.wait_written(5)
    time.sleep(0.3)
    return (time.process_time() - start) / count * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--size", type=int, default=10_000, help="bytes per state")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    broker = start_broker(prefer="mosquitto")
    client = Client("bench-qos", Connection(broker.address.host, broker.address.port), lambda _t, _p: None).start()
    payload = b"x" * args.size
    try:
        figures: dict[int, list[float]] = {1: [], 0: []}
        for _ in range(args.rounds):
            for qos in (1, 0):
                figures[qos].append(per_message(client, qos, args.messages, payload))
    finally:
        client.stop()
        broker.stop()
    one, zero = statistics.median(figures[1]), statistics.median(figures[0])
    print(f"broker: {broker.address.kind}; {args.messages} retained {args.size}-byte states per round, "
          f"median of {args.rounds} rounds")
    print(f"QoS 1: {one:.0f} us CPU per state; QoS 0: {zero:.0f} us; ratio QoS 0 / QoS 1: {zero / one:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
