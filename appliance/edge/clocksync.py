"""Handset clock offsets, so the buzzer orders presses by when they happened (rules.md Buzzer round 2).

Every handset stamps a buzz with its own millisecond clock. To put that stamp on the appliance's clock
the appliance measures each handset's offset with an NTP-style exchange over MQTT (firmware/protocol.py:
``make_ping`` on the handset's time topic, ``make_clock`` back on its clock topic): the appliance sends
at ``t0`` (its clock), the handset answers at ``th`` (its clock), the answer arrives at ``t3``.

With ``offset = handset clock - appliance clock`` and one-way delays ``d_down, d_up >= 0``::

    th = t0 + offset + d_down          t3 = th - offset + d_up
    so   th - t3  <=  offset  <=  th - t0

Each sample bounds the offset; :func:`estimate` intersects the bounds of the recent samples, which is a
min-RTT filter applied per direction: the result is fixed by the fastest way down and the fastest way
up seen, not by the single fastest round trip. The estimate is the middle of the intersection; its
error is at most half its width when the path's fastest delays are the same both ways. The newest
samples win when old ones disagree (a handset's clock jumped, or drifted over the window).

:class:`ClockSync` is the hub's side: which handsets to ping now (while presses are timed a burst at
join, then one every ``period_ms``; otherwise one at join, then one every ``idle_period_ms``; at most
``rate`` pings a second over the whole table), the samples from their answers, and a buzz's press time
on the appliance clock. It is pure: every method takes the time, so tests drive it with simulated
clocks and delays.

Only the buzzer times presses. Pinging a room of 64 every second through a poker game was 128 messages
a second for the hub between the bets, and in a trace the slowest bets' acks were those that met a
batch of them (issue 22). So outside a buzzer round the pings are ten times rarer, which keeps a few
samples in the window; when a round starts (:meth:`ClockSync.pace`) every handset is pinged at once,
in a burst if it has few samples.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from firmware import protocol


@dataclass(frozen=True)
class Sample:
    """One exchange: appliance send ``t0``, handset answer ``th``, appliance receive ``t3`` (all ms)."""

    t0: int
    th: int
    t3: int

    @property
    def rtt(self) -> int:
        return self.t3 - self.t0

    @property
    def low(self) -> int:
        """The offset is at least this (the answer cannot arrive before it was sent)."""
        return self.th - self.t3

    @property
    def high(self) -> int:
        """The offset is at most this (the ping cannot be answered before it was sent)."""
        return self.th - self.t0


@dataclass(frozen=True)
class Estimate:
    """``offset``: handset clock minus appliance clock (ms); the bounds intersected to get it."""

    low: int
    high: int
    samples: int

    @property
    def offset(self) -> float:
        return (self.low + self.high) / 2

    @property
    def error(self) -> float:
        """Half the width: the most the offset can be wrong by if the fastest delays are symmetric."""
        return (self.high - self.low) / 2

    def to_appliance(self, handset_ms: int) -> float:
        """A handset clock reading on the appliance clock."""
        return handset_ms - self.offset


def estimate(samples: Iterable[Sample]) -> Estimate | None:
    """The intersection of the samples' bounds, newest first; it stops at the first older sample that
    disagrees with the newer ones (so a clock that jumped or drifted is followed). None without samples."""
    low: int | None = None
    high: int | None = None
    used = 0
    for sample in sorted(samples, key=lambda s: s.t3, reverse=True):
        new_low = sample.low if low is None else max(low, sample.low)
        new_high = sample.high if high is None else min(high, sample.high)
        if new_low > new_high:
            break
        low, high, used = new_low, new_high, used + 1
    if low is None or high is None:
        return None
    return Estimate(low, high, used)


@dataclass
class _Peer:
    samples: deque[Sample]
    next_ping: int  # appliance ms when the next ping is due
    burst_left: int  # pings still to send at the short join spacing
    pending: dict[int, int] = field(default_factory=dict)  # ping number -> t0


class ClockSync:
    """Per-handset clock offsets for the hub: ``due`` says whom to ping, ``on_reply`` takes the answers,
    ``press_age`` puts a buzz's handset stamp on the appliance clock. All times are appliance ms."""

    def __init__(
        self,
        period_ms: int = 1000,
        idle_period_ms: int = 10_000,
        burst: int = 6,
        burst_gap_ms: int = 200,
        window_ms: int = 60_000,
        max_samples: int = 64,
        timeout_ms: int = 5000,
        rate: int = 100,
        max_age_ms: int = 30_000,
        most_at_once: int = 10,
    ) -> None:
        """``period_ms`` between pings after the ``burst`` at join (``burst_gap_ms`` apart) while presses are
        timed (:meth:`pace`; from the start), ``idle_period_ms`` while they are not; samples are
        kept for ``window_ms`` (ESP32 crystals drift some 10-50 ppm: 60 s of drift is a few ms at most),
        at most ``max_samples`` of them; an answer later than ``timeout_ms`` is dropped; at most ``rate``
        pings a second in all (a big table is pinged less often each: 256 handsets every 2.6 s), and at
        most ``most_at_once`` in one call (one hub tick, 100 ms: a buzzer round pinged all 40 handsets in
        one tick, every second, and their 40 answers reached the hub as one batch that a buzz arriving
        with them waited behind; spread over the ticks, a buzz meets a few at most); a press is never
        placed more than ``max_age_ms`` before it arrived."""
        if min(period_ms, idle_period_ms, burst_gap_ms, window_ms, max_samples, timeout_ms, rate, max_age_ms,
               most_at_once) <= 0 or burst < 0:
            raise ValueError("clock sync periods, window, limits and rate must be positive")
        self.period_ms, self.burst, self.burst_gap_ms = period_ms, burst, burst_gap_ms
        self.idle_period_ms = idle_period_ms
        self.timed = True  # presses are timed now (pace): pings every period_ms
        self.window_ms, self.max_samples, self.timeout_ms = window_ms, max_samples, timeout_ms
        self.rate, self.max_age_ms, self.most_at_once = rate, max_age_ms, most_at_once
        self._peers: dict[str, _Peer] = {}
        self._next_ping = 0
        self._allowance = float(rate)  # pings that may go out now: refills at ``rate`` a second, up to 1 s worth
        self._last_due: int | None = None
        self.dropped = 0  # answers refused: unknown ping, wrong t0, too late (for tests and benches)

    # -- who is at the table ---------------------------------------------------------------------------

    def joined(self, handset: str, now_ms: int) -> None:
        """A handset said hello: its clock may have restarted, so start over: a ping now, the rest of a
        burst after it while presses are timed (else the burst waits for a buzzer round, :meth:`pace`:
        256 handsets saying hello at once after a restart were 15 s of pings at the rate limit)."""
        self._peers[handset] = _Peer(deque(maxlen=self.max_samples), now_ms, self.burst if self.timed else 0)

    def forget(self, handset: str) -> None:
        self._peers.pop(handset, None)

    def pace(self, timed: bool, now_ms: int) -> None:
        """Whether presses are timed from now (a buzzer round in play). Turned on: every handset is due
        at once, and one with fewer than ``burst`` samples in the window gets the join's burst again, so
        the first buzz of the round is placed by fresh samples; turned off: pings every ``idle_period_ms``
        after the next."""
        if timed == self.timed:
            return
        self.timed = timed
        if timed:
            for peer in self._peers.values():
                recent = sum(1 for s in peer.samples if now_ms - s.t3 <= self.window_ms)
                peer.burst_left = max(peer.burst_left, self.burst - recent)
                peer.next_ping = min(peer.next_ping, now_ms)

    # -- pings -------------------------------------------------------------------------------------------

    def due(self, now_ms: int, online: Iterable[str]) -> list[tuple[str, dict[str, Any]]]:
        """The pings to publish now, as ``(handset, payload for its time topic)``; the most overdue first,
        within the rate limit (the rest wait for a later call).

        ``online``: the handsets connected now (a handset not seen before starts with a burst)."""
        if self._last_due is not None:
            self._allowance = min(float(self.rate), self._allowance + (now_ms - self._last_due) * self.rate / 1000)
        self._last_due = now_ms
        candidates: list[tuple[int, str, _Peer]] = []
        for handset in online:
            peer = self._peers.get(handset)
            if peer is None:
                self.joined(handset, now_ms)
                peer = self._peers[handset]
            if peer.pending:
                self._expire(peer, now_ms)
            if peer.next_ping <= now_ms:
                candidates.append((peer.next_ping, handset, peer))
        candidates.sort(key=lambda c: c[0])
        pings = []
        period = self.period_ms if self.timed else self.idle_period_ms
        for _, handset, peer in candidates[: min(int(self._allowance), self.most_at_once)]:
            self._allowance -= 1
            self._next_ping = self._next_ping + 1 if self._next_ping < protocol.MAX_SEQ else 1
            peer.pending[self._next_ping] = now_ms
            if peer.burst_left > 0:
                peer.burst_left -= 1
                peer.next_ping = now_ms + (self.burst_gap_ms if peer.burst_left else period)
            else:
                peer.next_ping = now_ms + period
            pings.append((handset, protocol.make_ping(self._next_ping, now_ms)))
        return pings

    def _expire(self, peer: _Peer, now_ms: int) -> None:
        for ping, t0 in list(peer.pending.items()):
            if now_ms - t0 > self.timeout_ms:
                del peer.pending[ping]

    def on_reply(self, handset: str, reply: Mapping[str, int], now_ms: int) -> Sample | None:
        """Take a handset's answer (``protocol.parse_clock``'s dict) received at ``now_ms``; the new
        sample, or None when it answers no ping of ours that is still pending (dropped, counted)."""
        peer = self._peers.get(handset)
        t0 = None if peer is None else peer.pending.get(reply["ping"])
        if peer is None or t0 is None or t0 != reply["t0"] or now_ms - t0 > self.timeout_ms or now_ms < t0:
            self.dropped += 1
            return None
        del peer.pending[reply["ping"]]
        sample = Sample(t0, reply["th"], now_ms)
        peer.samples.append(sample)
        return sample

    # -- offsets and presses --------------------------------------------------------------------------------

    def estimate(self, handset: str, now_ms: int) -> Estimate | None:
        """The handset's offset from the samples of the last ``window_ms``; None without any."""
        peer = self._peers.get(handset)
        if peer is None:
            return None
        return estimate(s for s in peer.samples if now_ms - s.t3 <= self.window_ms)

    def press_age(self, handset: str, pressed: int | None, now_ms: int) -> int:
        """How long ago (ms, appliance clock) a press stamped ``pressed`` on the handset happened.

        0 when the press has no stamp or the handset's offset is unknown (then arrival order decides);
        a stamp in the future is estimate error and counts as now; at most ``max_age_ms``."""
        found = self.estimate(handset, now_ms)
        if pressed is None or found is None:
            return 0
        age = now_ms - found.to_appliance(pressed)
        return round(min(max(age, 0.0), float(self.max_age_ms)))

    def buzz_data(self, handset: str, data: Mapping[str, Any], clock: int | None, now_ms: int) -> dict[str, Any]:
        """A buzz input's data with ``age_ms`` added for the buzzer flow: the press stamp is the data's
        ``pressed`` or else the input's ``clock`` (when the handset sent the input)."""
        pressed = data.get("pressed")
        if pressed is None:
            pressed = clock
        return {**data, "age_ms": self.press_age(handset, pressed, now_ms)}
