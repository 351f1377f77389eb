"""The appliance's CPU time per input, and the input rate one core sustains.

    python bench/cpu.py [--sizes 8 64 256] [--inputs 2000] [--json out.json]

The hub and the session of the appliance run here with the MQTT client swapped for a counter (what goes
on the wire is built, encoded and handed to it, but not sent): each input is a handset payload given to
``Hub.on_message`` as paho would, and the process CPU time (``time.process_time``) it takes is divided by
the inputs. The paho client's own cost of receiving the input and sending the ack, the prompts and the
board (the same per message whatever the hub does) is not in it; bench/game.py measures the whole
appliance process.

Per game (Confident? ranges; poker: ranges then bets; buzzer presses) and per table size N (the game
seats as many handsets as it takes, at most N, the rest are in the room: accepted, online, shown the
lobby prompt), against the baseline in the same run: the same inputs with every prompt rebuilt after each
input (what the hub did before issue 22). "to ack": the part of it before the ack is sent (MQTT's
thread); the rest (the prompts the input touched, the board) is the publisher thread's.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from appliance.decks.deal import DECK_TYPE, card_fields  # noqa: E402
from appliance.decks.shipped import shipped_decks  # noqa: E402
from appliance.edge.hub import Hub  # noqa: E402
from appliance.edge.mqtt import Connection  # noqa: E402
from appliance.flows import flow_factory
from appliance.session.session import Session  # noqa: E402
from firmware import protocol  # noqa: E402

SEATS = {"confident": 12, "poker": 8, "buzzer": 256}  # the most players each game seats


class Counter:
    """Stands in for the hub's MQTT client: counts what would be published, and keeps the last prompt
    per handset (the bench answers it as a handset would)."""

    def __init__(self) -> None:
        self.messages = 0
        self.bytes = 0
        self.prompts: dict[str, dict[str, Any]] = {}

    def publish(self, topic: str, payload: bytes | str, retain: bool = False, qos: int | None = None) -> None:
        self.messages += 1
        self.bytes += len(payload)
        if topic.endswith("/prompt"):
            self.prompts[topic.split("/")[-2]] = json.loads(payload)

    def stop(self) -> None:
        return None


class Running:
    """Stands in for the hub's publisher thread: "alive", so an input is acked and its changes left for
    the publisher, which the bench then runs itself (timed apart: the CPU after the ack)."""

    def is_alive(self) -> bool:
        return True


class FullRebuildHub(Hub):
    """The baseline: every prompt rebuilt after every input (the hub before issue 22)."""

    def publish_changes(self, narrowed: bool = False, state: bool = True) -> None:
        super().publish_changes(narrowed=False, state=state)


def cards(game: str) -> list[dict[str, Any]]:
    kind = DECK_TYPE[game]
    return [{"id": c.id, **card_fields(c)} for d in shipped_decks() if d.type == kind for c in d.cards]


CARDS = {game: cards(game) for game in ("confident", "poker")}


def table(game: str, n: int, full: bool) -> tuple[Hub, Counter, list[str]]:
    """A hub with ``n`` handsets in the room and a game of ``game`` started with the first ones seated."""
    box = "cpubench"
    session = Session(time.monotonic, random.Random(1), flows=flow_factory)
    hub = (FullRebuildHub if full else Hub)(box, session, Connection("127.0.0.1", 1))
    counter = Counter()
    hub.client = counter  # type: ignore[assignment]
    hub._publisher = Running()  # type: ignore[assignment]
    ids = [f"h{i:03d}" for i in range(n)]
    for hid in ids:
        hub.on_message(protocol.hello_topic(box, hid), protocol.encode(protocol.make_hello(hid, hid.upper())))
        hub.on_message(protocol.status_topic(box, hid), protocol.ONLINE.encode())
    seated = ids[: min(n, SEATS[game])]
    start(hub, game, seated)
    return hub, counter, seated


def start(hub: Hub, game: str, seated: list[str]) -> None:
    """A new game of ``game`` (again when the last one ended: a game ends when someone reaches its target)."""
    options: dict[str, Any] = {"settle_ms": 0, "questions": 500} if game == "buzzer" else {}
    if game == "poker":
        options = {"stack": 10**6, "ante": 1, "ante_every": {"questions": 5}}
    if hub.session.state != "lobby":
        hub.command({"cmd": "lobby"})
    hub.command({"cmd": "start", "game": game, "options": options, "cards": [] if game == "buzzer" else CARDS[game],
                 "seats": [{"player": hid.upper(), "handset": hid} for hid in seated]})


def inputs(game: str, hub: Hub, counter: Counter, seated: list[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Inputs a table plays, as (handset, data), forever; the host steps between questions are done here
    (not timed: they are the quizmaster's, not an input)."""
    rng = random.Random(2)
    while True:
        if hub.session.state != "playing":
            start(hub, game, seated)
            continue
        if game == "buzzer":
            hub.command({"cmd": "arm"})
            for hid in rng.sample(seated, len(seated)):
                yield hid, {"pressed": 1}
            hub.command({"cmd": "close"})
            hub.command({"cmd": "next"})
            continue
        wanted = [hid for hid in seated if counter.prompts[hid]["kind"] in (protocol.RANGE, protocol.BET)]
        if not wanted:
            hub.command({"cmd": "next"})
            continue
        for hid in rng.sample(wanted, len(wanted)):
            prompt = counter.prompts[hid]
            if prompt["kind"] == protocol.RANGE:
                low = rng.randrange(1, 1000)
                yield hid, {"bottom": str(low), "top": str(low + rng.randrange(1, 1000))}
            elif prompt["kind"] == protocol.BET:
                offered = [a["action"] for a in prompt["actions"]]
                yield hid, {"action": "check" if "check" in offered else "call"}


def measure(game: str, n: int, count: int, full: bool) -> dict[str, float]:
    hub, counter, seated = table(game, n, full)
    plan = inputs(game, hub, counter, seated)
    spent = 0.0
    applied_before = hub.accepted
    to_ack = 0.0
    messages = 0
    for seq in range(1, count + 1):
        hid, data = next(plan)
        prompt = counter.prompts[hid]
        sent_before = counter.messages
        payload = protocol.encode(protocol.make_input(seq, prompt["id"], prompt["kind"], data, hid, 1))
        topic = protocol.input_topic(hub.box, hid)
        start = time.process_time()
        hub.on_message(topic, payload)  # up to the ack, as MQTT's thread runs it
        acked = time.process_time()
        with hub.outbox:  # what the publisher thread does after it (here after every input: no batching)
            hub.publish_changes(narrowed=True)
        done = time.process_time()
        to_ack += acked - start
        spent += done - start
        messages += counter.messages - sent_before
    applied = hub.accepted - applied_before
    if applied != count:
        raise SystemExit(f"{game} at {n}: {count - applied} inputs were refused (refused: {hub.refused})")
    return {"us_per_input": spent / count * 1e6, "us_to_ack": to_ack / count * 1e6,
            "messages_per_input": messages / count}


def median_of(runs: int, fn: Callable[[], dict[str, float]]) -> dict[str, float]:
    results = [fn() for _ in range(runs)]
    return {key: statistics.median(r[key] for r in results) for key in results[0]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 64, 256])
    parser.add_argument("--games", nargs="+", default=["confident", "poker", "buzzer"])
    parser.add_argument("--inputs", type=int, default=2000, help="inputs per game and size (default 2000)")
    parser.add_argument("--runs", type=int, default=3, help="runs per figure; the median is printed (default 3)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    print(f"appliance CPU per input (hub + session + game, no MQTT I/O); median of {args.runs} runs of "
          f"{args.inputs} inputs; baseline: every prompt rebuilt after each input")
    print(f"{'game':>9} {'handsets':>8} {'seated':>6} | {'us/input':>8} {'to ack':>6} {'inputs/s':>9} "
          f"{'msgs/input':>10} | {'full us':>8} {'x full':>6}")
    rows = []
    for game in args.games:
        for n in args.sizes:
            narrowed = median_of(args.runs, lambda g=game, n=n: measure(g, n, args.inputs, full=False))
            full = median_of(args.runs, lambda g=game, n=n: measure(g, n, args.inputs, full=True))
            us, base = narrowed["us_per_input"], full["us_per_input"]
            row = {"game": game, "handsets": n, "seated": min(n, SEATS[game]), "us_per_input": us,
                   "us_to_ack": narrowed["us_to_ack"], "inputs_per_core_s": 1e6 / us,
                   "messages_per_input": narrowed["messages_per_input"], "full_us_per_input": base,
                   "ratio": us / base}
            rows.append(row)
            print(f"{game:>9} {n:>8} {row['seated']:>6} | {us:8.0f} {row['us_to_ack']:6.0f} {1e6 / us:9.0f} "
                  f"{narrowed['messages_per_input']:10.2f} | {base:8.0f} {us / base:6.2f}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps({"bench": "cpu", "inputs": args.inputs, "runs": args.runs,
                                               "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
