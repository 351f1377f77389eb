"""Who holds the best range at the showdown (rules.md Estimation poker 9), computed exactly.

A range containing the answer beats one that does not; among containing ranges the narrowest wins
(size = high - low); if none contains it, the midpoint closest to the answer wins. Equal best ranges
split. Midpoints are compared as ``|low + high - 2 * answer|`` (twice the distance), so nothing is
divided and nothing is rounded: every operation runs in :data:`~appliance.games.numbers.EXACT`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal

from appliance.games.ranges import Range

__all__ = ["Range", "best"]


def best(ranges: Mapping[str, Range], contenders: Iterable[str], answer: Decimal) -> list[str]:
    """The contenders holding the best range (several on a tie), in the order given."""
    keyed = [(ranges[p].key(answer), p) for p in contenders]
    if not keyed:
        return []
    top = min(key for key, _ in keyed)
    return [p for key, p in keyed if key == top]
