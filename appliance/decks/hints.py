"""Reading an estimation hint as a bound on the answer, so a deck cannot ship a false hint.

A hint in one of these forms (any case, an optional final full stop, the number in any form
:func:`~appliance.games.numbers.parse_number` reads, optionally followed by the card's unit)::

    More than X        After X          At least X        Between X and Y
    Fewer than X       Before X         At most X
    Less than X

is read as an interval (``Between`` includes both ends, as a range does in rules.md; ``More``,
``Fewer``, ``Less``, ``Before`` and ``After`` are strict). Any other hint is free text and is not
checked. Validation then refuses a hint whose interval does not hold the answer, and a second hint
that does not narrow the first down (the format: "the second narrower than the first").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from appliance.errors import MalformedInput
from appliance.games.numbers import parse_number


@dataclass(frozen=True)
class Interval:
    """The values a hint allows; a missing end is unbounded, ``*_closed`` says the end is included."""

    low: Decimal | None = None
    low_closed: bool = False
    high: Decimal | None = None
    high_closed: bool = False

    def holds(self, value: Decimal) -> bool:
        """True when ``value`` is in the interval."""
        if self.low is not None and (value < self.low or (value == self.low and not self.low_closed)):
            return False
        return not (self.high is not None and (value > self.high or (value == self.high and not self.high_closed)))

    def meet(self, other: Interval) -> Interval:
        """The values both intervals allow."""
        low, low_closed = _tighter(self.low, self.low_closed, other.low, other.low_closed, higher=True)
        high, high_closed = _tighter(self.high, self.high_closed, other.high, other.high_closed, higher=False)
        return Interval(low, low_closed, high, high_closed)


def _tighter(
    a: Decimal | None, a_closed: bool, b: Decimal | None, b_closed: bool, *, higher: bool
) -> tuple[Decimal | None, bool]:
    """The tighter of two ends (the higher low end, or the lower high end); open beats closed on a tie."""
    if a is None:
        return b, b_closed
    if b is None:
        return a, a_closed
    if a == b:
        return a, a_closed and b_closed
    if (a > b) == higher:
        return a, a_closed
    return b, b_closed


_ONE_SIDED: dict[str, tuple[bool, bool]] = {
    # prefix: (the number is the low end, the end is included)
    "more than": (True, False),
    "after": (True, False),
    "at least": (True, True),
    "fewer than": (False, False),
    "less than": (False, False),
    "before": (False, False),
    "at most": (False, True),
}
_FORM = re.compile(r"(?P<prefix>" + "|".join(_ONE_SIDED) + r"|between)\s+(?P<rest>.+?)\.?", re.IGNORECASE)


def read_hint(hint: str, unit: str) -> Interval | None:
    """The interval ``hint`` states, or None when it is free text (not one of the forms above)."""
    match = _FORM.fullmatch(hint.strip())
    if match is None:
        return None
    prefix, rest = match["prefix"].lower(), match["rest"]
    if prefix == "between":
        low_text, sep, high_text = rest.partition(" and ")
        low, high = _number(low_text, ""), _number(high_text, unit)
        if not sep or low is None or high is None:
            return None
        return Interval(low, True, high, True)
    value = _number(rest, unit)
    if value is None:
        return None
    is_low, closed = _ONE_SIDED[prefix]
    return Interval(low=value, low_closed=closed) if is_low else Interval(high=value, high_closed=closed)


def _number(text: str, unit: str) -> Decimal | None:
    """The number ``text`` is, alone or followed by `` unit``; None when it is neither."""
    text = text.strip()
    candidates = [text]
    if unit and text.lower().endswith(" " + unit.lower()):
        candidates.insert(0, text[: -len(unit) - 1])
    for candidate in candidates:
        try:
            return parse_number(candidate)
        except MalformedInput:
            continue
    return None
