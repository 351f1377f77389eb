"""The number line of a range reveal: which scale, and where each number lands.

Ranges of one question can span orders of magnitude (3 to 3,000,000) and cross zero (-40 to 15).
:func:`choose_scale` picks:

* ``linear`` when the numbers stay within :data:`LOG_RATIO` of each other (or are all equal);
* ``log`` when all numbers are positive and the largest is at least :data:`LOG_RATIO` times the smallest;
* ``symlog`` when they span :data:`LOG_RATIO` or more in size and include zero or negatives:
  ``sign(x) * log10(1 + |x| / c)``, linear near zero within ``c`` and logarithmic beyond, so negative
  and positive ranges share one line.

The mapping works on floats: it only places pixels. Who was right is decided by the engine on exact
decimals, and the labels show the numbers from the state, never a float.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

LOG_RATIO = 100
"""Two orders of magnitude between the smallest and largest size switch to a logarithmic line."""


@dataclass(frozen=True)
class Scale:
    kind: str  # "linear" | "log" | "symlog"
    low: float
    high: float
    c: float = 1.0

    def _t(self, x: float) -> float:
        if self.kind == "log":
            return math.log10(max(x, 1e-300))
        if self.kind == "symlog":
            return math.copysign(math.log10(1 + abs(x) / self.c), x)
        return x

    def position(self, value: Decimal | float) -> float:
        """Where ``value`` lies on the line, 0 (left end) .. 1 (right end); outside values clamp."""
        x = float(value)
        t0, t1 = self._t(self.low), self._t(self.high)
        if t1 == t0:
            return 0.5
        return min(1.0, max(0.0, (self._t(x) - t0) / (t1 - t0)))

    def ticks(self, most: int = 6) -> list[float]:
        """A few round numbers on the line for labels (powers of ten on log lines)."""
        if self.kind == "linear":
            return _linear_ticks(self.low, self.high, most)
        values: list[float] = []
        for exponent in range(-12, 16):
            for sign in (1.0, -1.0):
                v = sign * 10.0**exponent
                if self.low <= v <= self.high and (self.kind == "log" or abs(v) >= self.c):
                    values.append(v)
        values.sort()
        if len(values) > most:  # evenly by index, both ends kept
            values = sorted({values[round(i * (len(values) - 1) / (most - 1))] for i in range(most)})
        if self.low <= 0 <= self.high and all(abs(self.position(v) - self.position(0)) > 0.08 for v in values):
            values = sorted([*values, 0.0])
        return values


def _linear_ticks(low: float, high: float, most: int) -> list[float]:
    span = high - low
    if span <= 0:
        return [low]
    raw = span / max(1, most - 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step) * step
    ticks: list[float] = []
    value = first
    while value <= high + step * 1e-9 and len(ticks) < most + 2:
        ticks.append(round(value, 10))
        value += step
    return ticks


def choose_scale(values: Iterable[Decimal]) -> Scale:
    """The scale for a set of numbers (range ends and the answer), with a margin on each side."""
    numbers = [float(v) for v in values]
    if not numbers:
        return Scale("linear", 0.0, 1.0)
    low, high = min(numbers), max(numbers)
    sizes = [abs(x) for x in numbers if x != 0]
    wide = bool(sizes) and max(sizes) >= LOG_RATIO * min(sizes)
    if wide and low > 0:
        pad = (high / low) ** 0.04
        return Scale("log", low / pad, high * pad)
    if wide:
        c = max(min(sizes), max(sizes) / 1e6)
        scale = Scale("symlog", low, high, c)
        t0, t1 = scale._t(low), scale._t(high)
        pad = (t1 - t0) * 0.04
        return Scale("symlog", _inverse(t0 - pad, c), _inverse(t1 + pad, c), c)
    if high == low:
        pad = abs(high) * 0.1 or 1.0
        return Scale("linear", low - pad, high + pad)
    pad = (high - low) * 0.06
    return Scale("linear", low - pad, high + pad)


def _inverse(t: float, c: float) -> float:
    return math.copysign(c * (10 ** abs(t) - 1), t)
