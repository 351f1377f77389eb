"""Where a poker bet's ack time goes: bench/game.py's run, traced step by step in both processes.

    python bench/trace_bet.py [--handsets 64] [--samples 120] [--runs 3] [--json out.json]

bench/game.py times a poker bet from its hand-over to MQTT to its ack, against a raw round trip through the
same broker (issue 22's goal: at most 1.5x at 64 handsets). This runs the same room and games ``--runs``
times (``game.run``) with timestamps taken along the way (``time.perf_counter``: CLOCK_MONOTONIC, one clock for
every process of the machine):

* in the bench process: the handset hands the bet to MQTT; paho's network thread writes it to the socket;
  paho starts reading the ack; the handset notes it;
* in the appliance process: paho starts reading the bet; the hub's ``on_message`` is called; the session's
  ``handle_input`` (the game's rules) begins and ends; the ack is handed to paho (``publish``) and written
  (``Client.write_now``);
* the raw baseline's pings the same way on the bench's side: handed over, written, answer read, noted.

It prints the median and p90 of each step, so the hub's own time (from ``on_message`` to the ack written)
is told apart from the broker's and from the bench process's own. The timestamps cost a few microseconds a
step: the traced totals are a little above game.py's. A diagnostic, not one of ``make bench``'s goals.
"""

from __future__ import annotations

import argparse
import bisect
import contextlib
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import game  # noqa: E402
import latency  # noqa: E402
import paho.mqtt.client as paho  # noqa: E402

_read_at = threading.local()  # when this thread's paho loop last began to read a packet


def _trace_paho(writes: dict[int, list[float]] | None) -> None:
    """Note when each paho client starts reading a packet (per thread) and, with ``writes``, when it writes."""
    loop_read, packet_write = paho.Client.loop_read, paho.Client._packet_write

    def traced_read(self: paho.Client, *args: Any, **kwargs: Any) -> Any:
        _read_at.t = time.perf_counter()
        return loop_read(self, *args, **kwargs)

    def traced_write(self: paho.Client, *args: Any, **kwargs: Any) -> Any:
        if writes is not None and self._out_packet:
            writes.setdefault(id(self), []).append(time.perf_counter())
        return packet_write(self, *args, **kwargs)

    paho.Client.loop_read = traced_read  # type: ignore[method-assign]
    paho.Client._packet_write = traced_write  # type: ignore[method-assign]


# -- the appliance, traced, in its own process ---------------------------------------------------------------

STEPS = ("read", "entry", "rules", "rules_end", "publish", "written")


def serve_traced(host: str, port: int, box: str, out: str) -> None:
    """latency.serve with the hub's steps timed for every input; the rows go to ``out`` when stdin closes."""
    from appliance.edge import hub as hub_module
    from appliance.edge import mqtt as mqtt_module
    from appliance.session import session as session_module

    _trace_paho(None)
    rows: list[dict[str, Any]] = []
    current = threading.local()

    def mark(name: str) -> None:
        marks = getattr(current, "marks", None)
        if marks is not None:
            marks.setdefault(name, time.perf_counter())

    def around(cls: type, method: str, before: str | None, after: str | None) -> None:
        original = getattr(cls, method)

        def traced(self: Any, *args: Any, **kwargs: Any) -> Any:
            if before:
                mark(before)
            try:
                return original(self, *args, **kwargs)
            finally:
                if after:
                    mark(after)

        setattr(cls, method, traced)

    around(session_module.Session, "handle_input", "rules", "rules_end")
    around(mqtt_module.Client, "publish", "publish", None)
    around(mqtt_module.Client, "write_now", None, "written")
    on_message = hub_module.Hub.on_message

    def traced_message(self: Any, topic: str, payload: bytes) -> None:
        if not topic.endswith("/input"):
            on_message(self, topic, payload)
            return
        current.marks = {"read": getattr(_read_at, "t", 0.0), "entry": time.perf_counter()}
        try:
            on_message(self, topic, payload)
        finally:
            marks, current.marks = current.marks, None
            try:
                marks["seq"] = json.loads(payload)["seq"]
            except (ValueError, KeyError, TypeError):
                marks["seq"] = -1
            marks["handset"] = topic.split("/")[-2]
            rows.append(marks)

    hub_module.Hub.on_message = traced_message  # type: ignore[method-assign]
    try:
        latency.serve(host, port, box)
    finally:
        Path(out).write_text(json.dumps(rows))


class TracedAppliance(latency.Appliance):
    """The appliance process of latency.Appliance, served by :func:`serve_traced`."""

    trace = ""

    def command(self, conn: Any, box: str) -> list[str]:
        return [sys.executable, str(Path(__file__).resolve()), "--serve", conn.host, str(conn.port), box, self.trace]


# -- the bench's side -------------------------------------------------------------------------------------------


def _first_after(times: list[float], t: float) -> float | None:
    i = bisect.bisect_left(times, t)
    return times[i] if i < len(times) else None


def _stats(values: Sequence[float]) -> str:
    ordered = sorted(values)
    if not ordered:
        return "-"
    p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]
    return f"{statistics.median(ordered) * 1e3:6.3f} / {p90 * 1e3:6.3f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--handsets", type=int, default=64)
    parser.add_argument("--samples", type=int, default=120)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--serve", nargs=4, metavar=("HOST", "PORT", "BOX", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve_traced(args.serve[0], int(args.serve[1]), args.serve[2], args.serve[3])
        return 0

    writes: dict[int, list[float]] = {}
    _trace_paho(writes)
    acks_read: dict[tuple[str, int], float] = {}
    bets: list[tuple[latency.TimedHandset, int]] = []
    pings: list[tuple[Any, int, int, float]] = []
    pongs_read: dict[tuple[int, int], float] = {}
    pongs_noted: dict[tuple[int, int], float] = {}

    message, submit = latency.TimedHandset._message, latency.TimedHandset.submit

    def traced_message(self: latency.TimedHandset, topic: str, payload: bytes) -> None:
        if topic.endswith("/ack"):
            with contextlib.suppress(ValueError, KeyError, TypeError, AttributeError):
                acks_read.setdefault((self.id, int(json.loads(payload)["seq"])), _read_at.t)
        message(self, topic, payload)

    def traced_submit(self: latency.TimedHandset, data: dict[str, Any]) -> int:
        seq = submit(self, data)
        bets.append((self, seq))
        return seq

    latency.TimedHandset._message = traced_message  # type: ignore[method-assign]
    latency.TimedHandset.submit = traced_submit  # type: ignore[method-assign]
    ping, on = game.RawTable.ping, game.RawTable._on

    def traced_ping(self: game.RawTable, i: int) -> tuple[int, float]:
        seq, sent = ping(self, i)
        pings.append((self.clients[i], i, seq, sent))
        return seq, sent

    def traced_on(self: game.RawTable, i: int) -> Callable[[str, bytes], None]:
        handle = on(self, i)

        def traced(topic: str, payload: bytes) -> None:
            noted = time.perf_counter()  # as the raw table notes it
            key = (i, int(json.loads(payload)["seq"]))
            pongs_read.setdefault(key, _read_at.t)
            pongs_noted.setdefault(key, noted)
            handle(topic, payload)
        return traced

    game.RawTable.ping = traced_ping  # type: ignore[method-assign]
    game.RawTable._on = traced_on  # type: ignore[method-assign]
    out = tempfile.NamedTemporaryFile(suffix=".json", delete=False).name  # noqa: SIM115
    TracedAppliance.trace = out
    game.Appliance = TracedAppliance  # type: ignore[misc]

    steps: dict[str, list[float]] = {}

    def note(name: str, value: float | None) -> None:
        if value is not None:
            steps.setdefault(name, []).append(value)

    ratios: list[tuple[float, float, float]] = []  # game.py's raw p50, ack p50 and ratio of each (traced) run
    rng = random.Random(args.seed)
    broker = game.start_broker(prefer="mosquitto")
    try:
        conn = game.Connection(broker.address.host, broker.address.port)
        for _ in range(args.runs):
            first_bet, first_ping = len(bets), len(pings)
            for seen in (acks_read, pongs_read, pongs_noted):  # ids and seqs start again with each run
                seen.clear()
            figures = game.run(conn, args.handsets, args.samples, 1.0, rng)["poker"]
            ratios.append((figures["raw_p50"], figures["ack_p50"], figures["x_p50"]))
            appliance = {(r["handset"], r["seq"]): r for r in json.loads(Path(out).read_text())}
            # the poker bets and their raw pings: the last of each run's inputs
            for handset, seq in bets[first_bet:][-int(figures["inputs"]):]:
                sent, noted = handset.sent.get(seq), handset.acked.get(seq)
                hub = appliance.get((handset.id, seq))
                if sent is None or noted is None or hub is None or not all(k in hub for k in STEPS):
                    continue
                written = _first_after(writes.get(id(handset.client.paho), []), sent)
                read = acks_read.get((handset.id, seq))
                if written is None or read is None:
                    continue
                chain = [sent, written, *(hub[k] for k in STEPS), read, noted]
                for name, (a, b) in zip(BET_STEPS, zip(chain, chain[1:], strict=False), strict=True):
                    note(name, b - a)
                note("bet: sent -> noted (total)", noted - sent)
                note("hub: on_message -> ack written", hub["written"] - hub["entry"])
            for client, i, seq, sent in pings[first_ping:][-int(figures["inputs"]):]:
                written = _first_after(writes.get(id(client.paho), []), sent)
                read, noted = pongs_read.get((i, seq)), pongs_noted.get((i, seq))
                if written is None or read is None or noted is None:
                    continue
                note("raw: sent -> written (bench process)", written - sent)
                note("raw: written -> answer read (broker, echo, broker)", read - written)
                note("raw: answer read -> noted", noted - read)
                note("raw: sent -> noted (total)", noted - sent)
    finally:
        broker.stop()
        Path(out).unlink(missing_ok=True)

    print(f"poker at {args.handsets} handsets, {args.runs} runs; game.py's own figures of each (traced) run, ms: "
          + "; ".join(f"raw p50 {raw:.3f}, ack p50 {ack:.3f}, x {x:.2f}" for raw, ack, x in ratios))
    print("each step: p50 / p90 over the bets of all runs")
    print(f"{'step':<52} {'p50 / p90 ms':>17} {'n':>4}")
    for name, values in steps.items():
        print(f"{name:<52} {_stats(values):>17} {len(values):>4}")
    if args.json:
        Path(args.json).write_text(json.dumps({"bench": "trace_bet", "handsets": args.handsets, "runs": ratios,
                                               "steps": {k: sorted(v) for k, v in steps.items()}}, indent=1))
    return 0


BET_STEPS = (
    "bet: sent -> written (bench process)",
    "bet: written -> hub's paho reads it (broker)",
    "bet: read -> on_message (paho parses)",
    "bet: on_message -> session (hub checks)",
    "bet: session handle_input (rules)",
    "bet: session -> ack published (ack built)",
    "bet: published -> written (paho write)",
    "bet: ack written -> bench reads it (broker)",
    "bet: bench reads -> handset notes the ack",
)


if __name__ == "__main__":
    raise SystemExit(main())
