"""Input-to-ack round trip through the hub, next to the raw broker round trip measured in the same run.

    python bench/rtt.py [--inputs 200] [--sizes 8 64] [--broker mosquitto|amqtt]

For N handsets sending inputs concurrently (each waits for its ack before the next input), it prints p50
and p99 of the input -> ack time through the hub (payload checks, dedup, session, a game's rules) and of
a raw round trip through the same broker (a bare echo client republishing each message to the sender,
the same two hops without the hub's work), and the ratio hub / raw. Both use the same client code and
run back to back in one process, so the ratio survives a noisy machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from appliance.edge.broker import RunningBroker, start_broker  # noqa: E402
from appliance.edge.hub import Hub  # noqa: E402
from appliance.edge.mqtt import Client, Connection  # noqa: E402
from appliance.flows import (
    flow_factory,
    register_flow,  # noqa: E402
)
from appliance.session.flow import GameSetup  # noqa: E402
from appliance.session.session import Session  # noqa: E402
from firmware import protocol  # noqa: E402


class EchoFlow:
    """A game whose every range input is accepted and logged; the prompt never changes."""

    game = "bench-echo"
    finished = False
    cards_dealt = 0

    def __init__(self, setup: GameSetup, rng: object, now: float) -> None:
        self.inputs: list[tuple[str, Mapping[str, Any]]] = []

    def prompt(self, player: str) -> dict[str, Any]:
        return {"kind": protocol.RANGE, "title": "Bench", "text": "any range", "unit": ""}

    def handle(self, player: str, kind: str, data: Mapping[str, Any], now: float) -> str:
        self.inputs.append((player, data))
        return "ok"

    def waiting_for_players(self) -> bool:
        return True

    def can_advance(self) -> bool:
        return False

    def advance(self, now: float) -> None:
        return None

    def deadline(self) -> float | None:
        return None

    def on_deadline(self, now: float) -> None:
        return None

    def board(self, now: float | None = None) -> dict[str, Any]:
        return {"inputs": len(self.inputs)}

    def log(self) -> list[dict[str, Any]]:
        return [{"player": p} for p, _ in self.inputs]


register_flow("bench-echo", EchoFlow)


class Pinger:
    """One client sending a message and waiting for its reply, ``count`` times; records round trips."""

    def __init__(
        self,
        name: str,
        conn: Connection,
        out_topic: str,
        in_topic: str,
        make: Callable[[int], bytes],
        seq_of: Callable[[bytes], int],
    ) -> None:
        self.out_topic, self.make, self.seq_of = out_topic, make, seq_of
        self.times: list[float] = []
        self.got = threading.Event()
        self.expect = -1
        self.client = Client(name, conn, self._on, subscriptions=[in_topic]).start()

    def _on(self, topic: str, payload: bytes) -> None:
        if self.seq_of(payload) == self.expect:
            self.got.set()

    def run(self, first: int, count: int, lost: list[int]) -> None:
        for seq in range(first, first + count):
            self.expect = seq
            self.got.clear()
            start = time.perf_counter()
            self.client.publish(self.out_topic, self.make(seq))
            if self.got.wait(5):
                self.times.append(time.perf_counter() - start)
            else:
                lost.append(seq)


def _concurrent(pingers: list[Pinger], first: int, count: int) -> tuple[list[float], int]:
    lost: list[int] = []
    threads = [threading.Thread(target=p.run, args=(first, count, lost)) for p in pingers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [x for p in pingers for x in p.times], len(lost)


def raw_rtt(conn: Connection, n: int, count: int) -> tuple[list[float], int]:
    def echo(topic: str, payload: bytes) -> None:
        echo_client.publish(topic.replace("/ping", "/pong"), payload)

    echo_client = Client("bench-echo", conn, echo, subscriptions=["bench/+/ping"]).start()
    pingers = [
        Pinger(
            f"bench-raw{i}",
            conn,
            f"bench/{i}/ping",
            f"bench/{i}/pong",
            lambda s: json.dumps({"seq": s}).encode(),
            lambda b: int(json.loads(b)["seq"]),
        )
        for i in range(n)
    ]
    try:
        return _concurrent(pingers, 1, count)
    finally:
        for p in pingers:
            p.client.stop()
        echo_client.stop()


def hub_rtt(conn: Connection, n: int, count: int) -> tuple[list[float], int]:
    box = f"bench{n}"
    with Hub(box, Session(time.monotonic, flows=flow_factory), conn) as hub:
        ids = [f"h{i:03d}" for i in range(n)]
        pingers = []
        for hid in ids:
            prompt_id: dict[str, str] = {}

            def make(seq: int, hid: str = hid, prompt_id: dict[str, str] = prompt_id) -> bytes:
                body = protocol.make_input(seq, prompt_id["id"], "range", {"bottom": "1", "top": str(seq)})
                return protocol.encode(body)

            pinger = Pinger(
                f"bench-{hid}",
                conn,
                protocol.input_topic(box, hid),
                protocol.ack_topic(box, hid),
                make,
                lambda b: int(json.loads(b)["seq"]),
            )
            pinger.prompt_id = prompt_id  # type: ignore[attr-defined]
            pinger.client.publish(protocol.hello_topic(box, hid), protocol.encode(protocol.make_hello(hid, hid)))
            pingers.append(pinger)
        deadline = time.monotonic() + 20
        while len(hub.registry) < n and time.monotonic() < deadline:
            time.sleep(0.05)
        hub.command(
            {
                "cmd": "start",
                "game": "bench-echo",
                "cards": [{"id": "x"}],
                "seats": [{"player": hid, "handset": hid} for hid in ids],
            }
        )
        for pinger, hid in zip(pingers, ids, strict=True):
            handset = hub.registry.get(hid)
            assert handset is not None
            pinger.prompt_id["id"] = hub.session.prompt_for(handset)[0]["id"]  # type: ignore[attr-defined]
        try:
            times, lost = _concurrent(pingers, 1, count)
            flow = hub.session.flow
            applied = len(flow.log()) if flow is not None else 0
            if applied != n * count - lost:
                raise SystemExit(f"hub applied {applied} inputs, expected {n * count - lost}")
            return times, lost
        finally:
            for p in pingers:
                p.client.stop()


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inputs", type=int, default=200, help="inputs per handset (default 200)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 64])
    parser.add_argument("--broker", choices=["mosquitto", "amqtt"], default="mosquitto")
    args = parser.parse_args()
    broker: RunningBroker = start_broker(prefer=args.broker)
    conn = Connection(broker.address.host, broker.address.port)
    print(f"broker: {broker.address.kind}; {args.inputs} inputs per handset; times in ms")
    print(
        f"{'handsets':>8} {'raw p50':>8} {'raw p99':>8} {'hub p50':>8} {'hub p99':>8} "
        f"{'p50 ratio':>9} {'p99 ratio':>9} {'lost':>5}"
    )
    try:
        for n in args.sizes:
            raw, raw_lost = raw_rtt(conn, n, args.inputs)
            hub, hub_lost = hub_rtt(conn, n, args.inputs)
            print(
                f"{n:>8} {pct(raw, 0.5):8.2f} {pct(raw, 0.99):8.2f} {pct(hub, 0.5):8.2f} {pct(hub, 0.99):8.2f} "
                f"{pct(hub, 0.5) / pct(raw, 0.5):9.2f} {pct(hub, 0.99) / pct(raw, 0.99):9.2f} {raw_lost + hub_lost:>5}",
                flush=True,
            )
    finally:
        broker.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
