"""A simulated table for the buzzer's fairness: handsets with their own drifting clocks behind a network
that delays every message by 0-80 ms, pinged by the real ClockSync over the real protocol payloads, and
pressing at known true times into the real BuzzerFlow, with the hub's 100 ms tick running deadlines.

One :func:`trial` is one question: every handset presses, the settle window passes, the quizmaster
judges every answer wrong, and the order in which players were asked is compared with the true order.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from appliance.edge.clocksync import ClockSync
from appliance.flows.buzzer import BuzzerFlow
from appliance.session.flow import GameSetup
from firmware import protocol

TICK_MS = 100  # the hub's tick: pings go out and the settle deadline is checked this often
MAX_DELAY_MS = 80.0


@dataclass
class Handset:
    name: str
    offset: float  # handset clock at appliance time 0 (ms)
    skew: float  # drift: handset ms per appliance ms, minus 1
    base: float  # the path's fixed one-way delay (same both ways)

    def clock(self, t: float) -> int:
        """The handset's millisecond clock at appliance time ``t`` (ms), as its firmware reads it."""
        return int(self.offset + t * (1 + self.skew))


@dataclass
class Network:
    """One-way delays: ``iid`` draws each message's delay from 0-80 ms; ``path`` gives each handset a fixed
    delay of 0-40 ms (the same both ways) plus 0-40 ms of jitter per message."""

    model: str
    rng: random.Random

    def delay(self, handset: Handset) -> float:
        if self.model == "iid":
            return self.rng.uniform(0, MAX_DELAY_MS)
        return handset.base + self.rng.uniform(0, MAX_DELAY_MS / 2)


@dataclass
class Result:
    true_order: list[str]
    arrival_order: list[str]
    declared: list[str]
    gaps: list[float]  # true gaps between adjacent presses (ms)

    @property
    def fair(self) -> bool:
        return self.declared == self.true_order

    def adjacent_swaps(self) -> list[tuple[float, bool]]:
        """Each adjacent true pair's gap and whether the declared order kept the pair in order."""
        position = {p: i for i, p in enumerate(self.declared)}
        pairs = zip(self.true_order, self.true_order[1:], strict=False)
        return [(gap, position[a] < position[b]) for gap, (a, b) in zip(self.gaps, pairs, strict=True)]


@dataclass(order=True)
class _Event:
    at: float
    seq: int
    run: Callable[[], object] = field(compare=False)


def trial(rng: random.Random, model: str, players: int, gap_ms: tuple[float, float] = (10.0, 40.0),
          drift_ppm: float = 50.0, settle_ms: int = 150) -> Result:
    network = Network(model, rng)
    names = [f"P{i}" for i in range(players)]
    handsets = {n: Handset(n, rng.uniform(0, 1e9), rng.uniform(-drift_ppm, drift_ppm) * 1e-6,
                           rng.uniform(0, MAX_DELAY_MS / 2)) for n in names}
    sync = ClockSync()
    start = rng.uniform(1e6, 1e8)  # appliance ms when the handsets join
    events: list[_Event] = []
    counter = itertools.count()

    def at(t: float, run: Callable[[], object]) -> None:
        heapq.heappush(events, _Event(t, next(counter), run))

    def ping(name: str, payload: dict[str, object]) -> None:
        handset = handsets[name]
        wire = protocol.decode(protocol.encode(payload))
        reaches = wire["t0"] + network.delay(handset)

        def answered() -> None:
            reply = protocol.answer_ping(wire, handset.clock(reaches))
            assert reply is not None
            back = reaches + network.delay(handset)
            parsed = protocol.parse_clock(name, protocol.decode(protocol.encode(reply)))
            at(back, lambda: sync.on_reply(name, parsed, int(back)))

        at(reaches, answered)

    for name in names:
        sync.joined(name, int(start))
    flow = BuzzerFlow(GameSetup("buzzer", names, {"settle_ms": settle_ms}), rng, start / 1000)
    arm_at = start + rng.uniform(20_000, 60_000)  # the game has run a while when this question is armed
    first = arm_at + rng.uniform(300, 3000)
    gaps = [rng.uniform(*gap_ms) for _ in names[1:]]
    true_times = [first + sum(gaps[:i]) for i in range(players)]
    order = names[:]
    rng.shuffle(order)  # who presses first is random; the seats play no part
    arrivals: list[tuple[float, str]] = []

    def tick(now: float) -> None:
        for name, payload in sync.due(int(now), names):
            ping(name, payload)
        deadline = flow.deadline()
        if deadline is not None and now / 1000 >= deadline:
            flow.on_deadline(now / 1000)

    def press(name: str, t: float) -> None:
        handset = handsets[name]
        stamp = handset.clock(t)
        arrives = t + network.delay(handset)

        def arrive() -> None:
            arrivals.append((arrives, name))
            data = sync.buzz_data(name, {"pressed": stamp}, None, int(arrives))
            flow.handle(name, protocol.BUZZ, data, int(arrives) / 1000)

        at(arrives, arrive)

    t = start
    end = first + sum(gaps) + MAX_DELAY_MS + settle_ms + 3 * TICK_MS
    while t <= end:
        at(t, functools.partial(tick, t))
        t += TICK_MS
    at(arm_at, lambda: flow.command("arm", {}, arm_at / 1000))
    for name, when in zip(order, true_times, strict=True):
        press(name, when)
    while events:
        heapq.heappop(events).run()

    declared = []
    question = flow.engine.current
    assert question is not None
    while question.answering is not None:
        declared.append(question.answering)
        flow.command("wrong", {}, end / 1000)
    return Result(order, [n for _, n in sorted(arrivals)], declared, gaps)
