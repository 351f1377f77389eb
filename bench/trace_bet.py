"""Where a poker bet's ack time goes: bench/game.py's run, traced step by step in both processes.

    python bench/trace_bet.py [--handsets 64] [--samples 120] [--runs 3] [--think 0.05] [--json out.json]

bench/game.py times a poker bet from its hand-over to MQTT to its ack, against a raw round trip through the
same broker (issue 22's goal: at most 1.5x at 64 handsets), after a pause (``poker``) and at once
(``poker-rush``). This runs the same room and games ``--runs`` times (``game.run``) with timestamps taken
along the way (``time.perf_counter``: CLOCK_MONOTONIC, one clock for every process of the machine):

* in the seat's process (game.py's own): the handset hands the bet to MQTT; it notes the ack;
* in the appliance process: paho starts reading the bet; the hub's ``on_message`` is called; the session's
  ``handle_input`` (the game's rules) begins and ends; the ack is handed to paho (``publish``) and written
  (``Client.write_now``);
* the raw baseline's pings: their totals (handed over to noted), for the same two ways.

It prints the median and p90 of each step, so the hub's own time (from ``on_message`` to the ack written)
is told apart from the broker's and the seat's. The timestamps cost a few microseconds a step: the traced
totals are a little above game.py's. A diagnostic, not one of ``make bench``'s goals.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import game  # noqa: E402
import latency  # noqa: E402
import paho.mqtt.client as paho  # noqa: E402

_read_at = threading.local()  # when this thread's paho loop last began to read a packet


def _trace_paho() -> None:
    """Note when each paho client starts reading a packet (per thread)."""
    loop_read = paho.Client.loop_read

    def traced_read(self: paho.Client, *args: Any, **kwargs: Any) -> Any:
        _read_at.t = time.perf_counter()
        return loop_read(self, *args, **kwargs)

    paho.Client.loop_read = traced_read  # type: ignore[method-assign]


# -- the appliance, traced, in its own process ---------------------------------------------------------------

STEPS = ("read", "entry", "rules", "rules_end", "publish", "written")


def serve_traced(host: str, port: int, box: str, out: str) -> None:
    """latency.serve with the hub's steps timed for every input; the rows go to ``out`` when stdin closes."""
    from appliance.edge import hub as hub_module
    from appliance.edge import mqtt as mqtt_module
    from appliance.session import session as session_module

    _trace_paho()
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
    parser.add_argument("--think", type=float, default=0.05, help="as bench/game.py's --think")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--serve", nargs=4, metavar=("HOST", "PORT", "BOX", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve_traced(args.serve[0], int(args.serve[1]), args.serve[2], args.serve[3])
        return 0

    game.RECORD = []
    out = tempfile.NamedTemporaryFile(suffix=".json", delete=False).name  # noqa: SIM115
    TracedAppliance.trace = out
    game.Appliance = TracedAppliance  # type: ignore[misc]

    steps: dict[str, list[float]] = {}

    def note(name: str, value: float | None) -> None:
        if value is not None:
            steps.setdefault(name, []).append(value)

    ratios: list[tuple[str, float, float, float]] = []  # game.py's raw p50, ack p50 and ratio of each (traced) run
    rng = random.Random(args.seed)
    broker = game.start_broker(prefer="mosquitto")
    try:
        conn = game.Connection(broker.address.host, broker.address.port)
        for _ in range(args.runs):
            game.RECORD.clear()
            figures = game.run(conn, args.handsets, args.samples, 1.0, rng, args.think)
            ratios += [(what, figures[what]["raw_p50"], figures[what]["ack_p50"], figures[what]["x_p50"])
                       for what in BETS]
            appliance = {(r["handset"], r["seq"]): r for r in json.loads(Path(out).read_text())}
            for what, answer in game.RECORD:
                if what in BETS and "rtt" in answer:
                    hub = appliance.get((answer["handset"], answer["seq"]))
                    if hub is None or not all(k in hub for k in STEPS):
                        continue
                    chain = [answer["sent"], *(hub[k] for k in STEPS), answer["noted"]]
                    for name, (t0, t1) in zip(BET_STEPS, zip(chain, chain[1:], strict=False), strict=True):
                        note(f"{what}: {name}", t1 - t0)
                    note(f"{what}: sent -> noted (total)", answer["rtt"])
                    note(f"{what}: hub, on_message -> ack written", hub["written"] - hub["entry"])
                elif what.startswith("raw ") and what[4:] in BETS and "rtt" in answer:
                    note(f"{what}: sent -> noted (total)", answer["rtt"])
    finally:
        broker.stop()
        Path(out).unlink(missing_ok=True)
        game.RECORD = None

    print(f"poker at {args.handsets} handsets, {args.runs} runs; game.py's own figures of each (traced) run, ms: "
          + "; ".join(f"{what}: raw p50 {raw:.3f}, ack p50 {ack:.3f}, x {x:.2f}" for what, raw, ack, x in ratios))
    print("each step: p50 / p90 over the bets of all runs")
    print(f"{'step':<62} {'p50 / p90 ms':>17} {'n':>4}")
    for name, values in steps.items():
        print(f"{name:<62} {_stats(values):>17} {len(values):>4}")
    if args.json:
        Path(args.json).write_text(json.dumps({"bench": "trace_bet", "handsets": args.handsets, "runs": ratios,
                                               "steps": {k: sorted(v) for k, v in steps.items()}}, indent=1))
    return 0


BETS = ("poker", "poker-rush")  # game.py's two ways of betting (after a pause, at once)
BET_STEPS = (
    "sent -> the hub's paho reads it (seat, broker)",
    "read -> on_message (paho parses)",
    "on_message -> session (hub checks)",
    "session handle_input (rules)",
    "session -> ack published (ack built)",
    "published -> written (paho write)",
    "ack written -> the seat notes it (broker, seat)",
)


if __name__ == "__main__":
    raise SystemExit(main())
