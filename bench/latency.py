"""Buzz latency through the appliance, beside the raw broker round trip measured in the same run.

    python bench/latency.py [--sizes 8 64 256] [--spread 1.0] [--samples 400]

For N simulated handsets (appliance/box/sim.py: the firmware's handset core over its own paho client each)
playing a buzzer round, every question: the quizmaster arms (an admin command over MQTT, as the admin page
sends it), every handset buzzes once at a random moment within ``--spread`` seconds, and the bench notes
per press the time until the handset gets its ack (input -> ack) and until the TV's retained board state
lists the buzz (input -> board). The appliance (hub, session, buzzer flow, clock pings to every handset)
runs in its own process, as on the box; the handsets and the TV are clients in this one.

The settle window is 0 here, so each buzz shows on the board as soon as the appliance has applied it and
sent the board again: at once for the first few (``STATE_BURST``), then one board every ``STATE_EVERY``
(20 ms) while buzzes keep coming (appliance/edge/hub.py); in play the first buzz of a question shows
``settle_ms`` (150 ms) plus up to one hub tick (100 ms) later, by design.

The raw baseline is the same N clients and the same schedule against a bare echo client (publish, get it
back: the same two broker hops without the appliance), in the same run, so the ratio survives a noisy
machine. Times in ms.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from appliance.box.sim import SimHandset  # noqa: E402
from appliance.edge.broker import start_broker  # noqa: E402
from appliance.edge.mqtt import Client, Connection  # noqa: E402
from appliance.flows import flow_factory  # noqa: E402
from firmware import protocol  # noqa: E402

TIMEOUT = 30.0  # seconds to wait for an ack or a board state before counting the input lost


# -- the appliance, in its own process ----------------------------------------------------------------------


def serve(host: str, port: int, box: str) -> None:
    """The appliance's hub and session (the buzzer's clock sync is in the hub), until stdin closes."""
    from appliance.edge.hub import Hub
    from appliance.session.session import Session

    session = Session(time.monotonic, random.Random(1), flows=flow_factory)
    with Hub(box, session, Connection(host, port)):
        print("ready", flush=True)
        sys.stdin.read()


class Appliance:
    """``python bench/latency.py --serve``: started, watched (CPU, memory) and stopped by the bench."""

    def __init__(self, conn: Connection, box: str) -> None:
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (the appliance's stderr, open until stop())
        self.proc = subprocess.Popen(
            self.command(conn, box),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if line.strip() != "ready":
            self.log.seek(0)
            raise SystemExit(f"the appliance did not start: {line!r}\n{self.log.read().decode()[-2000:]}")

    def command(self, conn: Connection, box: str) -> list[str]:
        """The appliance's command line (bench/trace_bet.py serves a traced one)."""
        return [sys.executable, str(Path(__file__).resolve()), "--serve", conn.host, str(conn.port), box]

    def cpu_seconds(self) -> float:
        """User + system CPU time of the appliance process so far."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def memory_mb(self) -> tuple[float, float]:
        """(resident now, peak resident) in MB."""
        status = dict(line.split(":", 1) for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines())
        return int(status["VmRSS"].split()[0]) / 1024, int(status["VmHWM"].split()[0]) / 1024

    def stop(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.terminate()
            self.proc.wait(5)
        self.log.close()


# -- the table: handsets and the TV --------------------------------------------------------------------------


class TimedHandset(SimHandset):
    """A simulated handset that notes when each input goes to MQTT and when its ack arrives.

    An input is timed from the moment the handset hands it to its MQTT client, as the raw baseline times
    its message: the handset's own work before that (checking the input, drawing "sending") is not the
    appliance's."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.acked: dict[int, float] = {}
        self.sent: dict[int, float] = {}
        super().__init__(*args, **kwargs)
        publish = self._transport.publish

        def timed(topic: str, payload: bytes, retain: bool = False) -> None:
            if topic.endswith("/input") and self.core.pending is not None:
                self.sent.setdefault(self.core.pending["seq"], time.perf_counter())  # a resend keeps the first
            publish(topic, payload, retain)

        self._transport.publish = timed  # type: ignore[method-assign]

    def _message(self, topic: str, payload: bytes) -> None:
        now = time.perf_counter()
        if topic.endswith("/ack"):
            with contextlib.suppress(ValueError, KeyError, TypeError):
                self.acked.setdefault(int(json.loads(payload)["seq"]), now)
        super()._message(topic, payload)

    def buzz(self) -> tuple[int, float]:
        """Press now: the input's seq and when it was sent."""
        seq = self.submit({"pressed": self.core.clock_ms()})
        return seq, self.sent[seq]


class Tv:
    """The TV (and the admin page): the retained board state, when each buzz first shows, commands."""

    def __init__(self, conn: Connection, box: str) -> None:
        self.box = box
        self.changed = threading.Condition()
        self.state: dict[str, Any] = {}
        self.shown: dict[str, float] = {}
        self.client = Client(f"bench-tv-{box}", conn, self._on, subscriptions=[protocol.board_topic(box)]).start()

    def _on(self, topic: str, payload: bytes) -> None:
        now = time.perf_counter()
        state = json.loads(payload)
        with self.changed:
            self.state = state
            for name in (state.get("view") or {}).get("buzzes") or []:
                self.shown.setdefault(name, now)
            self.changed.notify_all()

    @property
    def view(self) -> dict[str, Any]:
        view: dict[str, Any] = self.state.get("view") or {}
        return view

    def command(self, **command: Any) -> None:
        self.client.publish(protocol.admin_command_topic(self.box), json.dumps(command))

    def wait(self, predicate: Callable[[Tv], bool], what: str, timeout: float = TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        with self.changed:
            while not predicate(self):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise SystemExit(f"the board never showed {what} (last: {json.dumps(self.view)[:300]})")
                self.changed.wait(left)

    def stop(self) -> None:
        self.client.stop()


def start_handsets(conn: Connection, box: str, n: int, first: int = 0) -> list[TimedHandset]:
    """Handsets h<first> to h<first + n - 1>, each connected and saying hello."""
    handsets = []
    for i in range(first, first + n):
        handset = TimedHandset(box, f"h{i:03d}", conn, name=f"H{i:03d}")  # its core answers clock pings
        handset.start(wait=30)
        handsets.append(handset)
    return handsets


def seat_everyone(tv: Tv, handsets: Sequence[TimedHandset], questions: int) -> None:
    n = len(handsets)
    tv.wait(lambda t: len(t.state.get("players") or []) == n, f"{n} handsets in the lobby")
    tv.command(cmd="start", game="buzzer", cards=[], options={"settle_ms": 0, "questions": questions})
    tv.wait(lambda t: t.view.get("phase") == "waiting" and len(t.view.get("players") or []) == n, "the first question")


Sent = list[tuple[TimedHandset, int, float]]


def schedule(handsets: Sequence[TimedHandset], spread: float, rng: random.Random) -> Sent:
    """Every handset buzzes once at a random moment within ``spread`` seconds; returns (handset, seq, sent)."""
    plan = sorted((rng.uniform(0, spread), i) for i in range(len(handsets)))
    start = time.perf_counter()
    sent = []
    for offset, i in plan:
        delay = start + offset - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        seq, at = handsets[i].buzz()
        sent.append((handsets[i], seq, at))
    return sent


def wait_acks(sent: Sequence[tuple[TimedHandset, int, float]], timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not all(seq in h.acked for h, seq, _ in sent):
        time.sleep(0.005)


def question(
    tv: Tv, handsets: Sequence[TimedHandset], number: int, spread: float, rng: random.Random
) -> tuple[list[tuple[TimedHandset, int, float]], dict[str, float]]:
    """Arm question ``number``, let every handset buzz, wait for the acks and the board; close it."""
    tv.command(cmd="arm")
    tv.wait(lambda t: t.view.get("number") == number and t.view.get("phase") == "armed", f"question {number} armed")
    for handset in handsets:
        handset.wait_for(lambda h: h.prompt is not None and h.prompt.get("armed") is True, TIMEOUT)
    with tv.changed:
        tv.shown = {}
    sent = schedule(handsets, spread, rng)
    wait_acks(sent)
    names = {h.core.name for h in handsets}
    with contextlib.suppress(SystemExit):  # a buzz the board never lists counts as lost, below
        tv.wait(lambda t: names <= set(t.shown), f"all {len(names)} buzzes")
    with tv.changed:
        shown = dict(tv.shown)
    tv.command(cmd="close")
    tv.wait(lambda t: t.view.get("phase") == "closed", f"question {number} closed")
    tv.command(cmd="next")
    tv.wait(lambda t: t.view.get("number") == number + 1 or t.state.get("scene") == "results", "the next question")
    return sent, shown


def release() -> None:
    """Close the stopped clients' sockets (call it once they are out of scope). paho closes a client's
    wake-up socket pair only when the client is collected, and its network loop uses select(), which takes
    no descriptor above 1023: about 330 clients in one process (3 descriptors each), so 256 handsets fit
    only once the previous phase's clients are gone."""
    gc.collect()


# -- the raw baseline -----------------------------------------------------------------------------------------


class RawRoom:
    """A raw baseline's N clients, in this process as the measured handsets are, each pinging an ``echo``
    (anything with ``stop``: a client here, or one in a process of its own) on ``<tag>/<i>/ping``."""

    def __init__(self, conn: Connection, n: int, tag: str, echo: Any) -> None:
        self.tag, self.echo = tag, echo
        self.got: list[dict[int, float]] = [{} for _ in range(n)]
        self.clients = [Client(f"{tag}-{i}", conn, self._on(i), subscriptions=[f"{tag}/{i}/pong"]).start(wait=30)
                        for i in range(n)]
        self.seq = 0

    def _on(self, i: int) -> Callable[[str, bytes], None]:
        def handle(topic: str, payload: bytes) -> None:
            self.got[i].setdefault(int(json.loads(payload)["seq"]), time.perf_counter())
        return handle

    def ping(self, i: int) -> tuple[int, float]:
        """Client ``i`` pings now: the ping's seq and when it went."""
        self.seq += 1
        payload = protocol.encode(protocol.make_input(self.seq, "p1", protocol.BUZZ, {"pressed": 1}, f"h{i:03d}", 1))
        sent = time.perf_counter()
        self.clients[i].publish(f"{self.tag}/{i}/ping", payload)
        return self.seq, sent

    def wait(self, sent: Sequence[tuple[int, int, float]]) -> None:
        """Until every ping in ``sent`` (client, seq, when) is back, or TIMEOUT."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline and not all(seq in self.got[i] for i, seq, _ in sent):
            time.sleep(0.001)

    def stop(self) -> None:
        for client in self.clients:
            client.stop()
        self.echo.stop()


def raw_round_trips(
    conn: Connection, n: int, rounds: int, spread: float, rng: random.Random
) -> tuple[list[float], int]:
    """The same schedule as the appliance's questions against a bare echo: round trips (s) and losses."""
    tag = f"rawbench{os.getpid()}"
    echo = Client(
        f"{tag}-echo",
        conn,
        lambda topic, payload: echo.publish(topic.replace("/ping", "/pong"), payload),
        subscriptions=[f"{tag}/+/ping"],
    ).start()
    room = RawRoom(conn, n, tag, echo)
    times: list[float] = []
    lost = 0
    try:
        for _ in range(rounds):
            plan = sorted((rng.uniform(0, spread), i) for i in range(n))
            start = time.perf_counter()
            sent = []
            for offset, i in plan:
                delay = start + offset - time.perf_counter()
                if delay > 0:
                    time.sleep(delay)
                sent.append((i, *room.ping(i)))
            room.wait(sent)
            for i, seq, at in sent:
                if seq in room.got[i]:
                    times.append(room.got[i][seq] - at)
                else:
                    lost += 1
    finally:
        room.stop()
    return times, lost


# -- the run -------------------------------------------------------------------------------------------------


def pct(values: Sequence[float], q: float) -> float:
    """The q-quantile in ms (nearest rank)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)] * 1000


def appliance_latency(
    conn: Connection, n: int, rounds: int, spread: float, rng: random.Random
) -> tuple[list[float], list[float], int]:
    box = f"lat{os.getpid()}n{n}"
    appliance = Appliance(conn, box)
    tv = Tv(conn, box)
    handsets = start_handsets(conn, box, n)
    acks: list[float] = []
    board: list[float] = []
    lost = 0
    try:
        seat_everyone(tv, handsets, rounds + 1)
        for number in range(1, rounds + 1):
            sent, shown = question(tv, handsets, number, spread, rng)
            for handset, seq, at in sent:
                if seq in handset.acked and handset.core.name in shown:
                    acks.append(handset.acked[seq] - at)
                    board.append(shown[handset.core.name] - at)
                else:
                    lost += 1
    finally:
        for handset in handsets:
            handset.stop()
        tv.stop()
        appliance.stop()
    return acks, board, lost


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 64, 256])
    parser.add_argument("--spread", type=float, default=1.0, help="seconds over which a question's buzzes come")
    parser.add_argument("--samples", type=int, default=200, help="presses per size, at least (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--serve", nargs=3, metavar=("HOST", "PORT", "BOX"), help=argparse.SUPPRESS)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    if args.serve:
        serve(args.serve[0], int(args.serve[1]), args.serve[2])
        return 0
    broker = start_broker(prefer="mosquitto")
    conn = Connection(broker.address.host, broker.address.port)
    rng = random.Random(args.seed)
    print(f"broker: {broker.address.kind}; buzzes spread over {args.spread:g} s per question; times in ms; "
          "x = appliance / raw")
    print(f"{'handsets':>8} {'presses':>7} | {'raw p50':>7} {'raw p99':>7} | {'ack p50':>7} {'ack p99':>7} "
          f"{'x p50':>6} {'x p99':>6} | {'board p50':>9} {'board p99':>9} {'x p50':>6} {'x p99':>6} | {'lost':>4}")
    rows = []
    try:
        for n in args.sizes:
            rounds = max(3, math.ceil(args.samples / n))
            raw, raw_lost = raw_round_trips(conn, n, rounds, args.spread, rng)
            release()
            acks, board, lost = appliance_latency(conn, n, rounds, args.spread, rng)
            release()
            r50, r99 = pct(raw, 0.5), pct(raw, 0.99)
            a50, a99, b50, b99 = pct(acks, 0.5), pct(acks, 0.99), pct(board, 0.5), pct(board, 0.99)
            print(f"{n:>8} {n * rounds:>7} | {r50:7.2f} {r99:7.2f} | {a50:7.2f} {a99:7.2f} {a50 / r50:6.1f} "
                  f"{a99 / r99:6.1f} | {b50:9.2f} {b99:9.2f} {b50 / r50:6.1f} {b99 / r99:6.1f} | "
                  f"{lost + raw_lost:>4}", flush=True)
            rows.append({"handsets": n, "presses": n * rounds, "raw_p50": r50, "raw_p99": r99, "ack_p50": a50,
                         "ack_p99": a99, "board_p50": b50, "board_p99": b99, "lost": lost + raw_lost})
    finally:
        broker.stop()
    if args.json:
        Path(args.json).write_text(json.dumps({"bench": "latency", "spread": args.spread, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
