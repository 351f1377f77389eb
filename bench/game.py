"""Input to ack in a real game, beside the raw broker round trip measured in the same run.

    python bench/game.py [--sizes 8 64 256] [--runs 3] [--samples 120] [--think 0.05] [--json out.json]

For a room of N handsets (appliance/box/sim.py: the firmware's handset core over its own paho client each,
answering the appliance's clock pings) the appliance (hub and session, its own process as on the box)
plays two real games:

* Confident?: every seated player enters a range at a random moment within ``--spread`` seconds of the
  question being asked; the quizmaster settles and asks the next question;
* estimation poker: ranges, then betting: the player to act checks (or calls) ``--think`` seconds after
  the board of the bet before is in, round after round; only the bets are timed (one at a time, as the
  rules go). Then a second game, the rush: each bet as soon as the prompt is there.

A game seats 12 (Confident?) or 8 (poker) of the room (the games seat 40 since the room: this bench keeps
its seats, each a process of its own): the other handsets are in the room, accepted
and online, with their own prompt and clock pings, as at a pub where not every handset plays. Each timed
input is input -> ack on the handset. Every handset is a device of its own on a night, so here each
seated one is a process of its own (``--seat``, driven over a pipe; it notes its own times) and the rest
of the room is one more (``--room``): in one process, their threads would take the interpreter from the
handset noting its ack (with the seats in this process, a bet took 0.15 ms more to be handed over to MQTT
than a raw ping, and its ack 0.04 ms more to be noted: bench/trace_bet.py).

The baseline is a raw round trip through the same broker: a bare echo client in its own process (as the
appliance is) republishing each message to its sender, N clients connected, the pinging ones in
processes of their own as the seats are (``--pinger``); Confident?'s pings on the same schedule as its
ranges, poker's one at a time, each ``--think`` seconds after the answer to the one before. The pause is
the same on both sides because a round trip after a pause is slower than one straight after another
(the processes and the CPUs go idle: at 64 handsets here a raw round trip took 1.1 ms 50 ms after the
last, 0.4 ms straight after it; a bet 1.4 and 0.8 ms); at a table a bet always follows a pause, the
player's thought (seconds: 50 ms keeps the bench short). The rush row
has no goal: its bets still wait for the board of the one before, which the appliance paces
(``STATE_EVERY``: one bet every 20 ms or so), while its pings follow each other with no pause at all, so
it compares an appliance idle for most of 20 ms with an echo that never idles (kept to show a bet at
the fastest pace the appliance takes them; bench/trace_bet.py breaks it down step by step).
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
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from latency import TIMEOUT, Appliance, TimedHandset, Tv, pct, release, start_handsets  # noqa: E402

from appliance.decks.deal import DECK_TYPE, card_fields  # noqa: E402
from appliance.decks.shipped import shipped_decks  # noqa: E402
from appliance.edge.broker import start_broker  # noqa: E402
from appliance.edge.mqtt import Client, Connection  # noqa: E402
from firmware import protocol  # noqa: E402

SEATS = {"confident": 12, "poker": 8, "poker-rush": 8}
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
    """``python bench/game.py <flag> ...`` in a process of its own, ready once it printed "ready" (:meth:`ready`).

    Seats and pingers take one JSON command a line on stdin and answer each with one JSON line."""

    def __init__(self, what: str, *args: str) -> None:
        self.what = what
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (open until stop())
        self.proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), *args],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, text=True)

    def ready(self) -> Child:
        if self._line() != "ready":
            self.log.seek(0)
            raise SystemExit(f"the {self.what} did not start: {self.log.read().decode()[-2000:]}")
        return self

    def _line(self) -> str:
        assert self.proc.stdout is not None
        return self.proc.stdout.readline().strip()

    def send(self, **command: Any) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(command) + "\n")
        self.proc.stdin.flush()

    def answer(self) -> dict[str, Any]:
        line = self._line()
        if not line:
            self.log.seek(0)
            raise SystemExit(f"the {self.what} stopped: {self.log.read().decode()[-2000:]}")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def ask(self, **command: Any) -> dict[str, Any]:
        self.send(**command)
        return self.answer()

    def stop(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(30)
        self.log.close()


def start_children(what: str, argvs: Sequence[Sequence[str]]) -> list[Child]:
    """Start them all, then wait until each is ready (they start in parallel)."""
    children = [Child(f"{what} {i}", *argv) for i, argv in enumerate(argvs)]
    try:
        return [child.ready() for child in children]
    except BaseException:
        for child in children:
            child.proc.kill()
        raise


def start_echo(conn: Connection, tag: str) -> Child:
    """The raw baseline's echo client, in its own process."""
    return Child("echo", "--echo", conn.host, str(conn.port), tag).ready()


def start_room(conn: Connection, box: str, first: int, count: int) -> Child:
    """The handsets of the room that no game here seats, in their own process."""
    return Child("room", "--room", conn.host, str(conn.port), box, str(first), str(count)).ready()


# -- the seated handsets and their raw twins: a process each, as a handset is a device of its own -----------


def _answer(**answer: Any) -> None:
    print(json.dumps(answer), flush=True)


def pinger_serve(host: str, port: int, tag: str, i: int) -> None:
    """Raw client ``i``: ``{"ping": seq}`` pings the echo and answers ``{"rtt": s}`` once the echo is back
    (``{"lost": 1}`` after TIMEOUT)."""
    got: dict[int, float] = {}
    changed = threading.Condition()

    def on_pong(topic: str, payload: bytes) -> None:
        now = time.perf_counter()
        with changed:
            got.setdefault(int(json.loads(payload)["seq"]), now)
            changed.notify_all()

    client = Client(f"{tag}-{i}", Connection(host, port), on_pong, subscriptions=[f"{tag}/{i}/pong"]).start(wait=30)
    _answer_ready()
    for line in sys.stdin:
        seq = int(json.loads(line)["ping"])
        payload = protocol.encode(protocol.make_input(seq, "p1", protocol.RANGE, {"bottom": "1", "top": "2"},
                                                      f"h{i:03d}", 1))
        sent = time.perf_counter()
        client.publish(f"{tag}/{i}/ping", payload)
        with changed:
            back = changed.wait_for(lambda seq=seq: seq in got, TIMEOUT)
        if back:
            _answer(rtt=got[seq] - sent, i=i, seq=seq, sent=sent, noted=got[seq])
        else:
            _answer(lost=1)
    client.stop()


def seat_serve(host: str, port: int, box: str, handset_id: str) -> None:
    """Handset ``handset_id`` (named in capitals) on command: ``{"wait": kind}`` answers ``{"prompt": id}``
    once a prompt of that kind it has not answered is on its screen; ``{"answer": kind, "data": {...}}``
    waits for such a prompt, enters ``data`` (a bet: check, else call; a buzz: pressed now, once the
    buzzers are armed), and answers ``{"rtt": s}`` once the ack is in (input handed to MQTT -> ack on the
    handset), ``{"lost": 1}`` after TIMEOUT."""
    handset = TimedHandset(box, handset_id, Connection(host, port), name=handset_id.upper())
    handset.start(wait=30)
    answered: set[str] = set()

    def unanswered(kind: str) -> dict[str, Any] | None:
        handset.wait_for(lambda h: h.prompt is not None and h.prompt["kind"] == kind
                         and h.prompt["id"] not in answered and h.prompt.get("armed", True), TIMEOUT)  # buzz: armed
        return handset.prompt

    _answer_ready()
    for line in sys.stdin:
        command = json.loads(line)
        try:
            if "wait" in command:
                prompt = unanswered(command["wait"])
                assert prompt is not None
                _answer(prompt=prompt["id"])
                continue
            prompt = unanswered(command["answer"])
            assert prompt is not None
            answered.add(prompt["id"])
            data = command.get("data")
            if command["answer"] == protocol.BUZZ:
                data = {"pressed": handset.core.clock_ms()}
            elif data is None:  # a bet: check when it may, else call
                data = {"action": "check" if any(a["action"] == "check" for a in prompt["actions"]) else "call"}
            seq = handset.submit(data)
            handset.wait_for(lambda h, seq=seq: seq in h.acked, TIMEOUT)
            sent, noted = handset.sent[seq], handset.acked[seq]
            _answer(rtt=noted - sent, handset=handset_id, seq=seq, sent=sent, noted=noted)
        except TimeoutError as exc:
            _answer(lost=1, why=str(exc)[:200])
    handset.stop()


def _answer_ready() -> None:
    print("ready", flush=True)


class RawTable:
    """N clients connected: the ``seated`` ones that ping the echo (concurrently in a spread, or one at a
    time) in processes of their own, as the game's seated handsets are; the rest here, connected and idle."""

    def __init__(self, conn: Connection, n: int, seated: int) -> None:
        self.tag = f"rawgame{os.getpid()}n{n}"
        self.echo = start_echo(conn, self.tag)
        self.pingers = start_children("pinger", [("--pinger", conn.host, str(conn.port), self.tag, str(i))
                                                 for i in range(seated)])
        self.idle = [Client(f"{self.tag}-{i}", conn, lambda topic, payload: None).start(wait=30)
                     for i in range(seated, n)]
        self.seq = 0

    def _ping(self, i: int) -> None:
        self.seq += 1
        self.pingers[i].send(ping=self.seq)

    def spread(self, seated: int, rounds: int, spread: float, rng: random.Random) -> tuple[list[float], int]:
        times: list[float] = []
        lost = 0
        for _ in range(rounds):
            asked = []
            for i in schedule(seated, spread, rng):
                self._ping(i)
                asked.append(i)
            lost += tally([self.pingers[i].answer() for i in asked], times, "raw confident")
        return times, lost

    def one_at_a_time(self, seated: int, count: int, think: float, what: str) -> tuple[list[float], int]:
        """``count`` pings, each ``think`` s after the answer to the one before."""
        times: list[float] = []
        lost = 0
        for k in range(count):
            time.sleep(think)
            self._ping(k % seated)
            lost += tally([self.pingers[k % seated].answer()], times, what)
        return times, lost

    def stop(self) -> None:
        for client in self.idle:
            client.stop()
        for child in (*self.pingers, self.echo):
            child.stop()


RECORD: list[tuple[str, dict[str, Any]]] | None = None
"""Set to a list, every answer goes in it as (what, answer): bench/trace_bet.py reads the timestamps."""


def tally(answers: Sequence[dict[str, Any]], times: list[float], what: str) -> int:
    """Adds the answers' round trips to ``times``; returns how many were lost."""
    if RECORD is not None:
        RECORD.extend((what, a) for a in answers)
    times += [a["rtt"] for a in answers if "rtt" in a]
    return sum(1 for a in answers if "rtt" not in a)


def schedule(seated: int, spread: float, rng: random.Random) -> Iterator[int]:
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


def start(tv: Tv, seats: Sequence[str], game: str, options: dict[str, Any]) -> int:
    """Starts ``game`` with the first of ``seats`` (handset ids; each player is named as its handset in
    capitals) seated; returns how many are."""
    seated = list(seats[: SEATS[game]])
    tv.command(cmd="start", game=game, options=options, cards=cards(game),
               seats=[{"player": hid.upper(), "handset": hid} for hid in seated])
    tv.wait(lambda t: t.state.get("game") == game and t.state.get("scene") == "playing", f"{game} started")
    return len(seated)


def confident(tv: Tv, seats: Sequence[Child], ids: Sequence[str], rounds: int, spread: float,
              rng: random.Random) -> tuple[list[float], int]:
    seated = seats[: start(tv, ids, "confident", {})]
    times: list[float] = []
    lost = 0
    for number in range(1, rounds + 1):
        for seat in seated:
            seat.ask(wait=protocol.RANGE)
        asked = []
        for i in schedule(len(seated), spread, rng):
            low = rng.randrange(1, 1000)
            seated[i].send(answer=protocol.RANGE, data={"bottom": str(low), "top": str(low + 500)})
            asked.append(i)
        lost += tally([seated[i].answer() for i in asked], times, "confident")
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


def poker(tv: Tv, seats: Sequence[Child], ids: Sequence[str], bets: int, think: float,
          what: str) -> tuple[list[float], int]:
    """A game of poker until ``bets`` bets are timed: the player to act checks (or calls) ``think`` s
    after the board of the bet before is in (at once with 0: as soon as the prompt is there)."""
    count = start(tv, ids, "poker", POKER)
    seated, by_name = seats[:count], {hid.upper(): seat for hid, seat in zip(ids[:count], seats, strict=False)}
    times: list[float] = []
    lost = 0
    while len(times) + lost < bets:
        tv.wait(lambda t: t.view.get("phase") in ("ranges", "betting", "showdown"), "a poker phase")
        phase = tv.view.get("phase")
        if phase == "ranges":
            for seat in seated:  # each enters its range for the question (one it has not answered)
                seat.send(answer=protocol.RANGE, data={"bottom": "1", "top": "100"})
            for seat in seated:
                seat.answer()
            tv.wait(lambda t: t.view.get("phase") != "ranges", "betting")
            continue
        if phase == "showdown":
            tv.command(cmd="next")
            tv.wait(lambda t: t.view.get("phase") != "showdown", "the next question")
            continue
        actor = by_name[str(tv.view.get("to_act"))]
        version = tv.state.get("version", 0)
        time.sleep(think)
        lost += tally([actor.ask(answer=protocol.BET)], times, what)  # as soon as its prompt is there
        tv.wait(lambda t, v=version: t.state.get("version", 0) > v, "the board after the bet")
    tv.command(cmd="lobby")
    tv.wait(lambda t: t.state.get("scene") == "lobby", "the lobby")
    return times, lost


# -- one run -----------------------------------------------------------------------------------------------


GAMES = ("confident", "poker", "poker-rush")


def run(conn: Connection, n: int, samples: int, spread: float, rng: random.Random,
        think: float = 0.05) -> dict[str, dict[str, float]]:
    seated_c, seated_p = min(n, SEATS["confident"]), min(n, SEATS["poker"])
    seats_n = min(n, max(SEATS.values()))
    rounds = max(2, math.ceil(samples / seated_c))
    raw = RawTable(conn, n, seats_n)
    try:
        raw_c, raw_c_lost = raw.spread(seated_c, rounds, spread, rng)
        raw_p, raw_p_lost = raw.one_at_a_time(seated_p, samples, think, "raw poker")
        raw_r, raw_r_lost = raw.one_at_a_time(seated_p, samples, 0.0, "raw poker-rush")
    finally:
        raw.stop()
    del raw
    release()
    box = f"game{os.getpid()}n{n}"
    appliance = Appliance(conn, box)
    tv = Tv(conn, box)
    ids = [f"h{i:03d}" for i in range(seats_n)]
    seats = start_children("seat", [("--seat", conn.host, str(conn.port), box, hid) for hid in ids])
    room = start_room(conn, box, seats_n, n - seats_n) if n > seats_n else None
    try:
        tv.wait(lambda t: len(t.state.get("players") or []) == n, f"{n} handsets in the lobby")
        time.sleep(1.0)  # the join bursts of clock pings settle
        hub_c, hub_c_lost = confident(tv, seats, ids, rounds, spread, rng)
        hub_p, hub_p_lost = poker(tv, seats, ids, samples, think, "poker")
        hub_r, hub_r_lost = poker(tv, seats, ids, samples, 0.0, "poker-rush")
    finally:
        for seat in seats:
            seat.stop()
        if room is not None:
            room.stop()
        tv.stop()
        appliance.stop()
    release()

    def row(raw: list[float], hub: list[float], lost: int) -> dict[str, float]:
        r50, r99, h50, h99 = pct(raw, .5), pct(raw, .99), pct(hub, .5), pct(hub, .99)
        return {"inputs": len(hub), "raw_p50": r50, "raw_p99": r99, "ack_p50": h50, "ack_p99": h99,
                "x_p50": h50 / r50, "x_p99": h99 / r99, "lost": lost}

    return {"confident": row(raw_c, hub_c, raw_c_lost + hub_c_lost),
            "poker": row(raw_p, hub_p, raw_p_lost + hub_p_lost),
            "poker-rush": row(raw_r, hub_r, raw_r_lost + hub_r_lost)}


def goal(n: int, game: str) -> float | None:
    """The most input -> ack may be, as a multiple of the raw round trip (issue 22); none for the rush,
    whose bets wait for the board's pacing and whose pings wait for nothing (the module's docstring)."""
    return None if game == "poker-rush" else {64: 1.5, 256: 2.0}.get(n)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 64, 256])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--samples", type=int, default=120, help="timed inputs per game, size and run, about")
    parser.add_argument("--spread", type=float, default=1.0, help="seconds over which a question's ranges come")
    parser.add_argument("--think", type=float, default=0.05,
                        help="seconds a poker player takes to bet once the board is in (and between raw pings)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--echo", nargs=3, metavar=("HOST", "PORT", "TAG"), help=argparse.SUPPRESS)
    parser.add_argument("--room", nargs=5, metavar=("HOST", "PORT", "BOX", "FIRST", "COUNT"), help=argparse.SUPPRESS)
    parser.add_argument("--pinger", nargs=4, metavar=("HOST", "PORT", "TAG", "I"), help=argparse.SUPPRESS)
    parser.add_argument("--seat", nargs=4, metavar=("HOST", "PORT", "BOX", "HANDSET"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.pinger:
        pinger_serve(args.pinger[0], int(args.pinger[1]), args.pinger[2], int(args.pinger[3]))
        return 0
    if args.seat:
        seat_serve(args.seat[0], int(args.seat[1]), args.seat[2], args.seat[3])
        return 0
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
          f"Confident? ranges spread over {args.spread:g} s, poker bets one at a time, {args.think:g} s after the "
          "board of the last (the rush: at once)")
    print(f"{'game':>10} {'handsets':>8} {'inputs':>6} | {'raw p50':>7} {'raw p99':>7} | {'ack p50':>7} "
          f"{'ack p99':>7} | {'x p50':>5} {'x p99':>5} {'goal':>5} | {'lost':>4}")
    rows, failed = [], False
    try:
        for n in args.sizes:
            runs = [run(conn, n, args.samples, args.spread, rng, args.think) for _ in range(args.runs)]
            for game in GAMES:
                figures = {k: statistics.median(r[game][k] for r in runs) for k in runs[0][game]}
                figures["lost"] = sum(r[game]["lost"] for r in runs)
                limit = goal(n, game)
                met = figures["lost"] == 0 and (limit is None or max(figures["x_p50"], figures["x_p99"]) <= limit)
                failed |= not met
                rows.append({"game": game, "handsets": n, "seated": min(n, SEATS[game]), **figures,
                             "goal": limit, "met": met})
                f = figures
                print(f"{game:>10} {n:>8} {f['inputs']:>6.0f} | {f['raw_p50']:7.2f} {f['raw_p99']:7.2f} | "
                      f"{f['ack_p50']:7.2f} {f['ack_p99']:7.2f} | {f['x_p50']:5.2f} {f['x_p99']:5.2f} "
                      f"{'' if limit is None else f'<={limit:g}':>5} | {f['lost']:>4.0f}"
                      f"{'' if met else '  (goal missed)'}", flush=True)
    finally:
        broker.stop()
    if args.json:
        Path(args.json).write_text(json.dumps({"bench": "game", "runs": args.runs, "spread": args.spread,
                                               "think": args.think, "rows": rows}, indent=1))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
