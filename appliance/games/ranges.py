"""A range of numbers a player writes: both ends belong to it, and every measure is exact.

Confident? (rules.md Confident 1: correct when bottom <= answer <= top, SIZE = top - bottom) and
estimation poker (rules.md Estimation poker 9: holding the answer beats not holding it, the narrowest
wins, else the closest midpoint) read ranges the same way; this is the one place that says how. A
:class:`Range` is a tuple ``(low, high)``, so it logs and compares like the pair it replaced.
"""

from __future__ import annotations

from decimal import Decimal
from typing import NamedTuple

from appliance.games.numbers import EXACT, format_plain


class Range(NamedTuple):
    """``low`` to ``high``, both included (Confident? says bottom and top)."""

    low: Decimal
    high: Decimal

    @property
    def size(self) -> Decimal:
        """``high - low``, exact (a range of one number has size 0)."""
        return EXACT.subtract(self.high, self.low)

    @property
    def upside_down(self) -> bool:
        return self.low > self.high

    def contains(self, answer: Decimal) -> bool:
        return self.low <= answer <= self.high

    def key(self, answer: Decimal) -> tuple[int, Decimal]:
        """Smaller is better: ``(0, size)`` if the range holds the answer, else ``(1, twice the distance
        from its midpoint to the answer)`` (compared without dividing, so nothing is rounded)."""
        if self.contains(answer):
            return (0, self.size)
        return (1, abs(EXACT.subtract(EXACT.add(self.low, self.high), EXACT.multiply(2, answer))))

    def to_json(self) -> list[str]:
        """``[low, high]`` in the plain decimal output form."""
        return [format_plain(self.low), format_plain(self.high)]

    def describe(self) -> str:
        return f"{format_plain(self.low)} to {format_plain(self.high)}"
