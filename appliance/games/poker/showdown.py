"""Who holds the best range at the showdown (rules.md Estimation poker 9), computed exactly.

A range containing the answer beats one that does not; among containing ranges the narrowest wins
(width = high - low); if none contains it, the midpoint closest to the answer wins. Equal best ranges
split. Midpoints are compared as ``|low + high - 2 * answer|`` (twice the distance), so nothing is
divided and nothing is rounded: every operation runs in :data:`~appliance.games.numbers.EXACT`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal

from appliance.games.numbers import EXACT, format_plain


@dataclass(frozen=True)
class Range:
    """A player's guess; both endpoints belong to it (seed 002, "Your guess")."""

    low: Decimal
    high: Decimal

    @property
    def width(self) -> Decimal:
        return EXACT.subtract(self.high, self.low)

    def contains(self, answer: Decimal) -> bool:
        return self.low <= answer <= self.high

    def key(self, answer: Decimal) -> tuple[int, Decimal]:
        """Smaller is better: ``(0, width)`` if the range contains the answer, else ``(1, twice the
        distance from its midpoint to the answer)``."""
        if self.contains(answer):
            return (0, self.width)
        return (1, abs(EXACT.subtract(EXACT.add(self.low, self.high), EXACT.multiply(2, answer))))

    def to_json(self) -> list[str]:
        return [format_plain(self.low), format_plain(self.high)]


def best(ranges: Mapping[str, Range], contenders: Iterable[str], answer: Decimal) -> list[str]:
    """The contenders holding the best range (several on a tie), in the order given."""
    keyed = [(ranges[p].key(answer), p) for p in contenders]
    if not keyed:
        return []
    top = min(key for key, _ in keyed)
    return [p for key, p in keyed if key == top]
