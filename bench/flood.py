"""Players' acks during a pairing flood against the same game without it, in one run (issue 38).

    python bench/flood.py [--players 12] [--phase 10] [--rounds 3] [--publishers 4] [--logins 300]
                          [--desk own game] [--json out.json]

The box as installed: its mosquitto with the dynamic security plugin, the handsets' own accounts, the hub
(with its pairing desk) and a SQLite store in this process as the quiz program runs them. ``--players``
seated handsets play Confident? from a process of their own (a device each on a night; here threads of one
process, away from the hub's interpreter): each enters its range within 0.2 s of the question and waits
for its ack; the quizmaster presses *next* every ``--pace`` seconds (a new game when one ends). An input is
timed from its hand-over to MQTT to its ack (the first ack of each question, as issue 38 measured).

The run alternates quiet phases and flood phases of ``--phase`` seconds, ``--rounds`` times: in a flood
phase, as from the guest Wi-Fi, ``--logins`` idle connections and ``--publishers`` connections sending
pairing requests as fast as they can, all as the public pairing account, each publisher a process of its
own. Printed per ``--desk``: the acks' p50 / p95 / max in quiet phases and in flood phases, and p95 flood /
quiet (goal at most 1.5x with the desk on its own broker).

``--desk own``: the pairing desk on the pairing broker, a mosquitto process of its own, where handsets ask
(appliance/edge/pairing_broker.py: the box now). ``--desk game``: the desk and the flood on the game's
broker (the box before issue 38), for comparison.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import random
import secrets
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from appliance.decks.deal import cards_for_game, seed_shipped  # noqa: E402
from appliance.edge.accounts import PAIRING_PASSWORD, PAIRING_USER, BrokerAccounts, Dynsec, PahoTransport  # noqa: E402
from appliance.edge.broker import MosquittoBroker  # noqa: E402
from appliance.edge.hub import Hub  # noqa: E402
from appliance.edge.mqtt import Connection  # noqa: E402
from appliance.edge.pairing import Pairing  # noqa: E402
from appliance.edge.pairing_broker import PairingBroker, free_port_pair, pairing_port  # noqa: E402
from appliance.flows import flow_factory  # noqa: E402
from appliance.infra.store import Store  # noqa: E402
from appliance.session.session import Session  # noqa: E402
from bench.junk_requests import send_junk_requests  # noqa: E402

BOX = "benchflood"
GOAL = 1.5
ROOT = "user root\n" if os.geteuid() == 0 else ""  # as root, mosquitto keeps the right to read its files


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else float("nan")


# -- the players' process --------------------------------------------------------------------------------


def players(port: int, accounts: list[tuple[str, str]], until: float, out: Any) -> None:
    from appliance.box.sim import SimHandset

    timed: list[tuple[float, float]] = []
    lock = threading.Lock()
    sims = [SimHandset(BOX, h, Connection("127.0.0.1", port, h, secret), name=f"P{i + 1}").start()
            for i, (h, secret) in enumerate(accounts)]

    def play(sim: SimHandset, seed: int) -> None:
        dice = random.Random(seed)
        answered = ""
        while time.monotonic() < until:
            try:  # each question's range, once (the quizmaster moves the game on)
                sim.wait_for(lambda s, old=answered: (p := s.prompt) is not None and p.get("kind") == "range"
                             and p.get("id") != old, timeout=max(0.1, until - time.monotonic()))
            except (AssertionError, TimeoutError):
                continue
            prompt = sim.prompt
            assert prompt is not None
            answered = str(prompt.get("id"))
            time.sleep(dice.uniform(0, 0.2))  # players do not all answer at the same moment
            t0 = time.monotonic()
            try:
                seq = sim.submit({"bottom": "1", "top": str(dice.randrange(2, 10_000))})
                sim.wait_ack(seq, timeout=30)
            except (AssertionError, TimeoutError, ValueError):
                continue  # the question closed under the player's hand
            with lock:
                timed.append((t0, time.monotonic() - t0))

    threads = [threading.Thread(target=play, args=(sim, n), daemon=True) for n, sim in enumerate(sims)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(until - time.monotonic() + 40)
    for sim in sims:
        sim.stop()
    out.put(timed)


# -- the guest's processes ------------------------------------------------------------------------------


def publisher(port: int, n: int, until: float, out: Any) -> None:
    out.put(send_junk_requests(port, BOX, n, until, queued=2000, handsets=5000,
                               client=f"flood-{n}-{secrets.token_hex(4)}"))


def idle_logins(port: int, count: int, until: float) -> None:
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    made = []
    for n in range(count):
        idle = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"guest-{n}-{secrets.token_hex(4)}")
        idle.username_pw_set(PAIRING_USER, PAIRING_PASSWORD)
        try:
            idle.connect("127.0.0.1", port)
        except OSError:
            continue
        idle.loop_start()
        made.append(idle)
    time.sleep(max(0.0, until - time.monotonic()))
    for idle in made:
        idle.disconnect()
        idle.loop_stop()


# -- one run ----------------------------------------------------------------------------------------------


def run(desk: str, args: argparse.Namespace) -> dict[str, Any]:
    port = free_port_pair()
    password = secrets.token_urlsafe(18)
    ctx = multiprocessing.get_context("fork")
    with tempfile.TemporaryDirectory() as folder, \
            MosquittoBroker(port=port, admin=("appliance", password), box=BOX, extra_config=ROOT) as broker:
        transport = PahoTransport("127.0.0.1", broker.port, "appliance", password)
        accounts = BrokerAccounts(BOX, Dynsec(transport))
        accounts.setup(web_password=secrets.token_urlsafe(18))
        pairing = Pairing(accounts)
        pairing.ensure_service_account()
        seated = [(f"fh{i + 1}", secrets.token_urlsafe(24)) for i in range(args.players)]
        for handset, secret in seated:
            accounts.add_handset(handset, secret)
        own = PairingBroker(BOX, "appliance", password, pairing_port(port)) if desk == "own" else None
        flood_port = own.port if own is not None else port
        store = Store(Path(folder) / "quizbox.db")
        seed_shipped(store)
        cards = [{"id": c.id, **c.fields} for c in cards_for_game(store, "confident", random.Random(1), limit=200)]
        session = Session(time.monotonic, random.Random(1), store=store, flows=flow_factory)
        hub = Hub(BOX, session, Connection("127.0.0.1", port, "appliance", password), open_join=False, store=store,
                  pairing=pairing, pairing_at=None if own is None else ("127.0.0.1", own.port)).start()
        try:
            length = 2 * args.rounds * args.phase
            start = time.monotonic() + 3.0
            out = ctx.Queue()
            player_proc = ctx.Process(target=players, args=(port, seated, start + length, out))
            player_proc.start()
            time.sleep(1.0)
            hub.command({"cmd": "start", "game": "confident", "cards": cards, "options": {"target": 1000},
                         "seats": [{"player": f"P{i + 1}", "handset": h} for i, (h, _) in enumerate(seated)]})
            stop = threading.Event()

            def quizmaster() -> None:  # moves the game on every --pace seconds; a new game when one ends
                game = {"cmd": "start", "game": "confident", "cards": cards, "options": {"target": 1000},
                        "seats": [{"player": f"P{i + 1}", "handset": h} for i, (h, _) in enumerate(seated)]}
                while not stop.wait(args.pace):
                    try:
                        hub.command({"cmd": "next"})
                    except Exception:  # noqa: BLE001 - refused (the game over, nothing to do): start one
                        with contextlib.suppress(Exception):  # a game running after all
                            hub.command(game)

            driver = threading.Thread(target=quizmaster, daemon=True)
            driver.start()
            floods: list[tuple[float, float]] = []
            sent_q = ctx.Queue()
            sent = 0
            time.sleep(max(0.0, start - time.monotonic()))
            for _ in range(args.rounds):
                time.sleep(args.phase)  # quiet
                began = time.monotonic()
                until = began + args.phase
                procs = [ctx.Process(target=publisher, args=(flood_port, n, until, sent_q))
                         for n in range(args.publishers)]
                procs.append(ctx.Process(target=idle_logins, args=(flood_port, args.logins, until)))
                for proc in procs:
                    proc.start()
                for proc in procs:
                    proc.join(args.phase + 60)
                sent += sum(sent_q.get(timeout=10) for _ in range(args.publishers))
                floods.append((began, time.monotonic()))
            timed = out.get(timeout=120)
            player_proc.join(30)
            stop.set()
            driver.join(5)
        finally:
            hub.stop()
            store.close()
            transport.close()
            if own is not None:
                own.stop()

    def flooded(t0: float) -> bool:
        return any(a <= t0 <= b for a, b in floods)

    quiet = [dt * 1000 for t0, dt in timed if t0 >= start and not flooded(t0)]
    loud = [dt * 1000 for t0, dt in timed if flooded(t0)]
    row = {"desk": desk, "players": args.players, "publishers": args.publishers, "logins": args.logins,
           "phase": args.phase, "rounds": args.rounds, "requests": sent, "quiet_n": len(quiet), "flood_n": len(loud),
           "quiet_p50": pct(quiet, 0.5), "quiet_p95": pct(quiet, 0.95), "quiet_max": max(quiet, default=float("nan")),
           "flood_p50": pct(loud, 0.5), "flood_p95": pct(loud, 0.95), "flood_max": max(loud, default=float("nan")),
           "desk_unread": pairing.dropped + pairing.refused_full}
    row["ratio_p95"] = row["flood_p95"] / row["quiet_p95"] if quiet and loud else float("nan")
    row["goal"] = GOAL if desk == "own" else None
    row["met"] = bool(row["ratio_p95"] <= GOAL) if desk == "own" else None
    print(f"desk on the {desk} broker: {sent} requests in {args.rounds} floods of {args.phase:g} s; acks quiet "
          f"p50 {row['quiet_p50']:.1f} / p95 {row['quiet_p95']:.1f} / max {row['quiet_max']:.1f} ms ({len(quiet)}), "
          f"flood p50 {row['flood_p50']:.1f} / p95 {row['flood_p95']:.1f} / max {row['flood_max']:.1f} ms "
          f"({len(loud)}); p95 x{row['ratio_p95']:.2f}", flush=True)
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--phase", type=float, default=10.0, help="seconds of each quiet and each flood phase")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--publishers", type=int, default=4)
    parser.add_argument("--logins", type=int, default=300)
    parser.add_argument("--pace", type=float, default=0.6, help="seconds between the quizmaster's *next*")
    parser.add_argument("--desk", nargs="+", choices=["own", "game"], default=["own", "game"])
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args()
    rows = [run(desk, args) for desk in args.desk]
    if args.json:
        Path(args.json).write_text(json.dumps({"rows": rows, "goal": GOAL, "pace": args.pace}, indent=1))
    missed = [r for r in rows if r["met"] is False]
    print("p95 during a flood / without, desk on its own broker: "
          + ", ".join(f"x{r['ratio_p95']:.2f}" for r in rows if r["desk"] == "own")
          + f" (goal <= {GOAL:g}x): {'missed' if missed else 'met'}")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
