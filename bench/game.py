"""Input to ack in a real game, beside the raw broker round trip measured in the same run.

    python bench/game.py [--sizes 8 64 256] [--runs 3] [--samples 120] [--json out.json]

For a room of N handsets (appliance/box/sim.py: the firmware's handset core over its own paho client each,
answering the appliance's clock pings) the appliance (hub and session, its own process as on the box)
plays two real games:

* Confident?: every seated player enters a range at a random moment within ``--spread`` seconds of the
  question being asked; the quizmaster settles and asks the next question;
* estimation poker: ranges, then betting: the player to act checks (or calls) as soon as the bet prompt
  is on their handset, round after round; only the bets are timed (one at a time, as the rules go).

A game seats at most its players (Confident? 12, poker 8): the other handsets are in the room, accepted
and online, with their own prompt and clock pings, as at a pub where not every handset plays. Each timed
input is input -> ack on the handset. The handsets that can be seated (the first 12) are clients in this
process; the rest of the room runs in a process of its own (``--room``): on a night they are devices
of their own, and in this process their threads (a network loop and a clock each, 500 at 256 handsets)
would take the interpreter from the handset noting its ack.

The baseline is a raw round trip through the same broker: a bare echo client in its own process (as the
appliance is) republishing each message to its sender, N clients connected; Confident?'s pings on the same
schedule as its ranges, poker's one after another as soon as the last echo is back (the bets wait for the
board of the last bet too: an echo that also sent a board-sized message, waited for before the next
ping, made poker's raw p50 0.69-0.76 ms instead of 0.59-0.67 at 64 handsets; not the baseline here).
Pings on the bets' own gaps (each as long after the one before as the bet was) were tried and dropped:
the raw p50 rose to 1.7-1.9 ms, above the appliance's own 1.6-2.0 (the echo sat idle through each gap,
while a bet follows the board the appliance has just sent), a flattering ratio, not a fair one.
Each size is measured ``--runs`` times (appliance and clients started afresh); the median of the runs is
printed, with ratios appliance / raw (bench/cpu.py measures the CPU an input costs).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from latency import TIMEOUT, Appliance, TimedHandset, Tv, pct, release, start_handsets  # noqa: E402

from appliance.decks.deal import DECK_TYPE, card_fields  # noqa: E402
from appliance.decks.shipped import shipped_decks  # noqa: E402
from appliance.edge.broker import start_broker  # noqa: E402
from appliance.edge.mqtt import Client, Connection  # noqa: E402
from firmware import protocol  # noqa: E402

SEATS = {"confident": 12, "poker": 8}
POKER = {"stack": 100000, "ante": 10, "ante_every": {"questions": 5}}


# -- the raw baseline: an echo in its own process -----------------------------------------------------------


def echo_serve(host: str, port: int, tag: str) -> None:
    client: Client

    def echo(topic: str, payload: bytes) -> None:
        client.publish(topic.replace("/ping", "/pong"), payload)

    client = Client(f"{tag}-echo", Connection(host, port), echo, subscriptions=[f"{tag}/+/ping"]).start()
    print("ready", flush=True)
    sys.stdin.read()
    client.stop()


def room_serve(host: str, port: int, box: str, first: int, count: int) -> None:
    """Handsets h<first>.. in the room, online and answering clock pings, until stdin closes."""
    handsets = start_handsets(Connection(host, port), box, count, first=first)
    print("ready", flush=True)
    sys.stdin.read()
    for handset in handsets:
        handset.stop()


class Child:
    """``python bench/game.py <flag> ...`` in a process of its own, ready once it printed "ready"."""

    def __init__(self, what: str, *args: str) -> None:
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (open until stop())
        self.proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), *args],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, text=True)
        assert self.proc.stdout is not None
        if self.proc.stdout.readline().strip() != "ready":
            self.log.seek(0)
            raise SystemExit(f"the {what} did not start: {self.log.read().decode()[-2000:]}")

    def stop(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(30)
        self.log.close()


def start_echo(conn: Connection, tag: str) -> Child:
    """The raw baseline's echo client, in its own process."""
    return Child("echo", "--echo", conn.host, str(conn.port), tag)


def start_room(conn: Connection, box: str, first: int, count: int) -> Child:
    """The handsets of the room that no game here seats, in their own process."""
    return Child("room", "--room", conn.host, str(conn.port), box, str(first), str(count))


class RawTable:
    """N clients connected; ``seated`` of them ping the echo (concurrently in a spread, or one at a time)."""

    def __init__(self, conn: Connection, n: int) -> None:
        self.tag = f"rawgame{os.getpid()}n{n}"
        self.echo = start_echo(conn, self.tag)
        self.got: list[dict[int, float]] = [{} for _ in range(n)]
        self.clients = [Client(f"{self.tag}-{i}", conn, self._on(i), subscriptions=[f"{self.tag}/{i}/pong"])
                        .start(wait=30) for i in range(n)]
        self.seq = 0

    def _on(self, i: int) -> Callable[[str, bytes], None]:
        def handle(topic: str, payload: bytes) -> None:
            self.got[i].setdefault(int(json.loads(payload)["seq"]), time.perf_counter())
        return handle

    def ping(self, i: int) -> tuple[int, float]:
        self.seq += 1
        payload = protocol.encode(protocol.make_input(self.seq, "p1", protocol.RANGE,
                                                      {"bottom": "1", "top": "2"}, f"h{i:03d}", 1))
        sent = time.perf_counter()
        self.clients[i].publish(f"{self.tag}/{i}/ping", payload)
        return self.seq, sent

    def wait(self, sent: Sequence[tuple[int, int, float]]) -> tuple[list[float], int]:
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline and not all(seq in self.got[i] for i, seq, _ in sent):
            time.sleep(0.001)
        times = [self.got[i][seq] - at for i, seq, at in sent if seq in self.got[i]]
        return times, len(sent) - len(times)

    def spread(self, seated: int, rounds: int, spread: float, rng: random.Random) -> tuple[list[float], int]:
        times, lost = [], 0
        for _ in range(rounds):
            sent = [(i, *self.ping(i)) for i in _schedule(seated, spread, rng)]
            got, missing = self.wait(sent)
            times += got
            lost += missing
        return times, lost

    def one_at_a_time(self, seated: int, count: int) -> tuple[list[float], int]:
        times, lost = [], 0
        for k in range(count):
            got, missing = self.wait([(k % seated, *self.ping(k % seated))])
            times += got
            lost += missing
        return times, lost

    def stop(self) -> None:
        for client in self.clients:
            client.stop()
        self.echo.stop()


def _schedule(seated: int, spread: float, rng: random.Random) -> Iterator[int]:
    """Who sends when: each one at a random moment within ``spread`` s (yielded at that moment)."""
    plan = sorted((rng.uniform(0, spread), i) for i in range(seated))
    start = time.perf_counter()
    for offset, i in plan:
        delay = start + offset - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        yield i


# -- the appliance ---------------------------------------------------------------------------------------


CARDS = 60  # more than a run plays; all the shipped cards would not fit one admin command (MAX_COMMAND)


def cards(game: str) -> list[dict[str, Any]]:
    kind = DECK_TYPE[game]
    dealt = [{"id": c.id, **card_fields(c)} for d in shipped_decks() if d.type == kind for c in d.cards][:CARDS]
    assert len(json.dumps(dealt)) < protocol.MAX_COMMAND // 2, "the bench's cards must fit one admin command"
    return dealt


def start(tv: Tv, handsets: Sequence[TimedHandset], game: str, options: dict[str, Any]) -> list[TimedHandset]:
    seated = list(handsets[: SEATS[game]])
    tv.command(cmd="start", game=game, options=options, cards=cards(game),
               seats=[{"player": h.core.name, "handset": h.id} for h in seated])
    tv.wait(lambda t: t.state.get("game") == game and t.state.get("scene") == "playing", f"{game} started")
    return seated


def wait_prompt(handset: TimedHandset, kind: str, old: str | None) -> dict[str, Any]:
    handset.wait_for(lambda h: h.prompt is not None and h.prompt["kind"] == kind and h.prompt["id"] != old, TIMEOUT)
    assert handset.prompt is not None
    return handset.prompt


def confident(tv: Tv, handsets: Sequence[TimedHandset], rounds: int, spread: float,
              rng: random.Random) -> tuple[list[float], int]:
    seated = start(tv, handsets, "confident", {})
    times, lost = [], 0
    for number in range(1, rounds + 1):
        for h in seated:
            wait_prompt(h, protocol.RANGE, None)
        sent = []
        for i in _schedule(len(seated), spread, rng):
            low = rng.randrange(1, 1000)
            seq = seated[i].submit({"bottom": str(low), "top": str(low + 500)})
            sent.append((seated[i], seq, seated[i].sent[seq]))
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline and not all(seq in h.acked for h, seq, _ in sent):
            time.sleep(0.001)
        times += [h.acked[seq] - at for h, seq, at in sent if seq in h.acked]
        lost += sum(1 for h, seq, _ in sent if seq not in h.acked)
        tv.wait(lambda t, n=number: t.view.get("phase") == "closed" and _number(t) == n, "entries closed")
        tv.command(cmd="next")  # settle
        tv.wait(lambda t: t.view.get("phase") == "settled", "the question settled")
        tv.command(cmd="next")  # the next question
        tv.wait(lambda t, n=number: _number(t) == n + 1, "the next question")
    tv.command(cmd="lobby")
    tv.wait(lambda t: t.state.get("scene") == "lobby", "the lobby")
    return times, lost


def _number(tv: Tv) -> int | None:
    question = tv.view.get("question")
    return question.get("number") if isinstance(question, dict) else None


def poker(tv: Tv, handsets: Sequence[TimedHandset], bets: int) -> tuple[list[float], int]:
    seated = start(tv, handsets, "poker", POKER)
    by_name = {h.core.name: h for h in seated}
    times, lost = [], 0
    answered: dict[str, str] = {}
    while len(times) + lost < bets:
        tv.wait(lambda t: t.view.get("phase") in ("ranges", "betting", "showdown"), "a poker phase")
        phase = tv.view.get("phase")
        if phase == "ranges":
            for h in seated:
                prompt = wait_prompt(h, protocol.RANGE, None)
                if answered.get(h.id) != prompt["id"]:
                    answered[h.id] = prompt["id"]
                    h.submit({"bottom": "1", "top": "100"})
            tv.wait(lambda t: t.view.get("phase") != "ranges", "betting")
            continue
        if phase == "showdown":
            tv.command(cmd="next")
            tv.wait(lambda t: t.view.get("phase") != "showdown", "the next question")
            continue
        actor = by_name[str(tv.view.get("to_act"))]
        prompt = wait_prompt(actor, protocol.BET, answered.get(actor.id))
        answered[actor.id] = prompt["id"]
        offered = [a["action"] for a in prompt["actions"]]
        version = tv.state.get("version", 0)
        seq = actor.submit({"action": "check" if "check" in offered else "call"})
        try:
            actor.wait_for(lambda h, seq=seq: seq in h.acked, TIMEOUT)
            times.append(actor.acked[seq] - actor.sent[seq])
        except TimeoutError:
            lost += 1
        tv.wait(lambda t, v=version: t.state.get("version", 0) > v, "the board after the bet")
    tv.command(cmd="lobby")
    tv.wait(lambda t: t.state.get("scene") == "lobby", "the lobby")
    return times, lost


# -- one run -----------------------------------------------------------------------------------------------


def run(conn: Connection, n: int, samples: int, spread: float, rng: random.Random) -> dict[str, dict[str, float]]:
    seated_c, seated_p = min(n, SEATS["confident"]), min(n, SEATS["poker"])
    rounds = max(2, math.ceil(samples / seated_c))
    raw = RawTable(conn, n)
    try:
        raw_c, raw_c_lost = raw.spread(seated_c, rounds, spread, rng)
        raw_p, raw_p_lost = raw.one_at_a_time(seated_p, samples)
    finally:
        raw.stop()
    del raw
    release()
    box = f"game{os.getpid()}n{n}"
    appliance = Appliance(conn, box)
    tv = Tv(conn, box)
    handsets = start_handsets(conn, box, min(n, max(SEATS.values())))
    room = start_room(conn, box, len(handsets), n - len(handsets)) if n > len(handsets) else None
    try:
        tv.wait(lambda t: len(t.state.get("players") or []) == n, f"{n} handsets in the lobby")
        time.sleep(1.0)  # the join bursts of clock pings settle
        hub_c, hub_c_lost = confident(tv, handsets, rounds, spread, rng)
        hub_p, hub_p_lost = poker(tv, handsets, samples)
    finally:
        for handset in handsets:
            handset.stop()
        if room is not None:
            room.stop()
        tv.stop()
        appliance.stop()
    del handsets
    release()

    def row(raw: list[float], hub: list[float], lost: int) -> dict[str, float]:
        r50, r99, h50, h99 = pct(raw, .5), pct(raw, .99), pct(hub, .5), pct(hub, .99)
        return {"inputs": len(hub), "raw_p50": r50, "raw_p99": r99, "ack_p50": h50, "ack_p99": h99,
                "x_p50": h50 / r50, "x_p99": h99 / r99, "lost": lost}

    return {"confident": row(raw_c, hub_c, raw_c_lost + hub_c_lost),
            "poker": row(raw_p, hub_p, raw_p_lost + hub_p_lost)}


def goal(n: int) -> float | None:
    """The most input -> ack may be, as a multiple of the raw round trip (issue 22)."""
    return {64: 1.5, 256: 2.0}.get(n)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 64, 256])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--samples", type=int, default=120, help="timed inputs per game, size and run, about")
    parser.add_argument("--spread", type=float, default=1.0, help="seconds over which a question's ranges come")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--echo", nargs=3, metavar=("HOST", "PORT", "TAG"), help=argparse.SUPPRESS)
    parser.add_argument("--room", nargs=5, metavar=("HOST", "PORT", "BOX", "FIRST", "COUNT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.echo:
        echo_serve(args.echo[0], int(args.echo[1]), args.echo[2])
        return 0
    if args.room:
        room_serve(args.room[0], int(args.room[1]), args.room[2], int(args.room[3]), int(args.room[4]))
        return 0
    broker = start_broker(prefer="mosquitto")
    conn = Connection(broker.address.host, broker.address.port)
    rng = random.Random(args.seed)
    print(f"broker: {broker.address.kind}; median of {args.runs} runs; times in ms; x = appliance / raw; "
          f"Confident? ranges spread over {args.spread:g} s, poker bets one at a time")
    print(f"{'game':>9} {'handsets':>8} {'inputs':>6} | {'raw p50':>7} {'raw p99':>7} | {'ack p50':>7} "
          f"{'ack p99':>7} | {'x p50':>5} {'x p99':>5} {'goal':>5} | {'lost':>4}")
    rows, failed = [], False
    try:
        for n in args.sizes:
            runs = [run(conn, n, args.samples, args.spread, rng) for _ in range(args.runs)]
            for game in ("confident", "poker"):
                figures = {k: statistics.median(r[game][k] for r in runs) for k in runs[0][game]}
                figures["lost"] = sum(r[game]["lost"] for r in runs)
                limit = goal(n)
                met = figures["lost"] == 0 and (limit is None or max(figures["x_p50"], figures["x_p99"]) <= limit)
                failed |= not met
                rows.append({"game": game, "handsets": n, "seated": min(n, SEATS[game]), **figures,
                             "goal": limit, "met": met})
                f = figures
                print(f"{game:>9} {n:>8} {f['inputs']:>6.0f} | {f['raw_p50']:7.2f} {f['raw_p99']:7.2f} | "
                      f"{f['ack_p50']:7.2f} {f['ack_p99']:7.2f} | {f['x_p50']:5.2f} {f['x_p99']:5.2f} "
                      f"{'' if limit is None else f'<={limit:g}':>5} | {f['lost']:>4.0f}"
                      f"{'' if met else '  (goal missed)'}", flush=True)
    finally:
        broker.stop()
    if args.json:
        Path(args.json).write_text(json.dumps({"bench": "game", "runs": args.runs, "spread": args.spread,
                                               "rows": rows}, indent=1))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
