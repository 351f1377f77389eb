"""How the appliance copes with a big table: N handsets all buzzing within one second.

    python bench/scale.py [--sizes 8 32 64 128 256] [--questions 3] [--idle 5] [--json out.json]

For each N, the appliance (hub, session, buzzer flow, clock pings; its own process, as on the box) and N
simulated handsets (appliance/box/sim.py, one paho client each) play ``--questions`` questions in which every
handset presses once at a random moment within ``--spread`` seconds (0.9) of the arming. Printed per N:

* all acked: seconds from the first press until the last handset has its ack (median and worst question);
* drain: from the last press sent to the last ack (ms, worst question);
* lost: presses never acked, or acked but missing from the board (must be 0);
* CPU: the appliance process's CPU over the questions (arming to the last ack and board), and while idle
  with N handsets connected (the clock pings) over ``--idle`` seconds, in % of one core;
* memory: the appliance's resident set after the questions, and its peak (MB);
* the baseline, in the same run: the same N clients on the same schedule (question k's press moments are
  the same for both) against a bare echo client in its own process (bench/game.py), its "all acked"
  (median and worst) and drain, and the appliance's as a ratio of them.

The goal (issue 22): at 256 handsets every press acked within 1.0 s of the first, a drain of at most
100 ms, nothing lost (the exit status is 1 when a size loses a press or 256 misses the goal). The presses
come within 0.9 s so that the two goals say the same: spread over a whole second (as up to the 03:36
UTC run of 2026-12-02, whose 256 presses were all acked 0.999 s after the first, 3 ms after the last),
"all acked within 1.0 s" left the appliance only the last press's own round trip, a few ms (the raw
echo's all acked: 1.000 s in that run), where the drain goal gives it 100 ms.

The handsets share this process; past ~330 paho clients one process runs out of select()'s descriptors,
so 256 is the largest table measured here.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from game import schedule, start_echo  # noqa: E402
from latency import Appliance, RawRoom, Tv, question, release, seat_everyone, start_handsets  # noqa: E402

from appliance.edge.broker import start_broker  # noqa: E402
from appliance.edge.mqtt import Connection  # noqa: E402


def measure(conn: Connection, n: int, questions: int, idle: float, spread: float,
            rng: random.Random) -> dict[str, float]:
    box = f"scale{os.getpid()}n{n}"
    appliance = Appliance(conn, box)
    tv = Tv(conn, box)
    handsets = start_handsets(conn, box, n)
    try:
        seat_everyone(tv, handsets, questions + 1)
        time.sleep(1.0)  # the join bursts of clock pings settle
        cpu, wall = appliance.cpu_seconds(), time.monotonic()
        time.sleep(idle)
        idle_cpu = (appliance.cpu_seconds() - cpu) / (time.monotonic() - wall)
        all_acked, drains, lost, busy, spent = [], [], 0, 0.0, 0.0
        for number in range(1, questions + 1):
            cpu, wall = appliance.cpu_seconds(), time.monotonic()
            sent, shown = question(tv, handsets, number, spread, rng)
            busy += appliance.cpu_seconds() - cpu
            spent += time.monotonic() - wall
            acked = [h.acked[seq] for h, seq, _ in sent if seq in h.acked]
            lost += len(sent) - len(acked) + len({h.core.name for h, _, _ in sent} - set(shown))
            if acked:
                all_acked.append(max(acked) - min(at for _, _, at in sent))
                drains.append(max(acked) - max(at for _, _, at in sent))
        rss, peak = appliance.memory_mb()
    finally:
        for handset in handsets:
            handset.stop()
        tv.stop()
        appliance.stop()
    return {
        "acked_median": statistics.median(all_acked),
        "acked_worst": max(all_acked),
        "drain_worst": max(drains),
        "lost": lost,
        "cpu_busy": 100 * busy / spent,
        "cpu_idle": 100 * idle_cpu,
        "rss": rss,
        "peak": peak,
    }


def raw_spread(conn: Connection, n: int, questions: int, spread: float, rng: random.Random) -> dict[str, float]:
    """The baseline: N clients each sending once within ``spread`` s to an echo, ``questions`` times."""
    tag = f"rawscale{os.getpid()}n{n}"
    raw = RawRoom(conn, n, tag, start_echo(conn, tag))  # the echo in its own process, as bench/game.py's
    acked, drains, lost = [], [], 0
    try:
        for _ in range(questions):
            sent = [(i, *raw.ping(i)) for i in schedule(n, spread, rng)]
            raw.wait(sent)
            got = [raw.got[i][seq] for i, seq, _ in sent if seq in raw.got[i]]
            lost += len(sent) - len(got)
            acked.append(max(got) - min(at for _, _, at in sent))
            drains.append(max(got) - max(at for _, _, at in sent))
    finally:
        raw.stop()
    return {"acked_median": statistics.median(acked), "acked_worst": max(acked), "drain_worst": max(drains),
            "lost": lost}


GOAL_ACKED, GOAL_DRAIN = 1.0, 0.100  # seconds, at 256 handsets


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 32, 64, 128, 256])
    parser.add_argument("--questions", type=int, default=3)
    parser.add_argument("--idle", type=float, default=5.0, help="seconds of idle CPU measured per size")
    parser.add_argument("--spread", type=float, default=0.9, help="seconds within which every handset presses")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    broker = start_broker(prefer="mosquitto")
    conn = Connection(broker.address.host, broker.address.port)
    print(f"broker: {broker.address.kind}; every handset buzzes once within {args.spread:g} s of the arming; "
          f"{args.questions} questions per size; CPU in % of one core")
    print(f"{'handsets':>8} | {'all acked s':>11} {'worst s':>7} {'drain ms':>8} | {'raw acked':>9} "
          f"{'raw drain':>9} {'x acked':>7} | {'lost':>4} | {'CPU busy':>8} {'CPU idle':>8} | {'RSS MB':>6} "
          f"{'peak MB':>7}")
    failed = False
    rows = []
    try:
        for n in args.sizes:
            seed = args.seed * 1000 + n  # the same presses for both: question k's moments from one seed
            base = raw_spread(conn, n, args.questions, args.spread, random.Random(seed))
            release()
            r = measure(conn, n, args.questions, args.idle, args.spread, random.Random(seed))
            release()
            met = r["lost"] == 0 and base["lost"] == 0
            if n >= 256:
                met = met and r["acked_worst"] <= GOAL_ACKED and r["drain_worst"] <= GOAL_DRAIN
            failed |= not met
            rows.append({"handsets": n, **r, "raw_acked": base["acked_median"], "raw_acked_worst": base["acked_worst"],
                         "raw_drain": base["drain_worst"],
                         "x_acked": r["acked_median"] / base["acked_median"], "lost": r["lost"] + base["lost"],
                         "met": met})
            print(f"{n:>8} | {r['acked_median']:11.2f} {r['acked_worst']:7.2f} {r['drain_worst'] * 1000:8.0f} | "
                  f"{base['acked_median']:9.2f} {base['drain_worst'] * 1000:7.0f}ms {rows[-1]['x_acked']:7.2f} | "
                  f"{rows[-1]['lost']:>4.0f} | {r['cpu_busy']:7.0f}% {r['cpu_idle']:7.1f}% | {r['rss']:6.1f} "
                  f"{r['peak']:7.1f}{'' if met else '  (goal missed)'}", flush=True)
    finally:
        broker.stop()
    if args.json:
        Path(args.json).write_text(json.dumps({"bench": "scale", "questions": args.questions,
                                               "spread": args.spread, "rows": rows,
                                               "goal": {"acked_s": GOAL_ACKED, "drain_s": GOAL_DRAIN}}, indent=1))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
