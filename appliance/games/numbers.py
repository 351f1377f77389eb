"""Exact numbers as players and decks write them: one parser, three formatters.

Every number a player or a deck supplies is an exact :class:`~decimal.Decimal` (rules.md, preamble:
"no binary floats"). :func:`parse_number` reads the forms people type on a handset or in a deck::

    12   -40   +7   0.001   .5   3,000,000   3 000 000   3_000_000   3e6   3E-3
    3 x 10^6   3×10^6   3*10**6   3·10^6   3 × 10⁶   10^6
    3 million   3M   3k   2.5bn   1.2 trillion   (thousand/k, million/m/mn, billion/b/bn, trillion/t/tn,
                                                  any case)

and refuses, with :class:`~appliance.errors.MalformedInput` quoting the input and saying why, anything
else, notably the ambiguous ``1,5`` (a decimal comma or a thousands separator?) and ``1,23,4``: a digit
group separator (``,``, space or ``_``, one kind per number) must split the whole part into groups of
exactly three digits after the first (1 to 3 digits). The decimal mark is always ``.``.

Bounds (no denial of service from ``1e999999999``): the text is at most :data:`MAX_INPUT_LENGTH`
characters and the value is zero or has a magnitude in ``[10^-MAX_EXPONENT, 10^(MAX_EXPONENT+1))``.

Formatters:

* :func:`format_plain`: plain decimal, no exponent, no separators, no trailing zeros after the point,
  never ``-0`` (the scenario output form, ``"3000000"``, ``"2.5"``);
* :func:`format_full`: exact with thousands separators (``"3,200,000"``, ``"-1,234.5"``);
* :func:`format_compact`: for the 128x64 handset screen, at most :data:`COMPACT_WIDTH` characters for any
  value :func:`parse_number` accepts. It is exact where an exact form fits (``"12"``, ``"-40"``,
  ``"0.001"``, ``"3.2M"``, ``"1e20"``); otherwise the value is rounded (half-even) to as many significant
  digits as fit and the text starts with :data:`ROUNDED_MARKER` (``"~12.35M"``). Every text without the
  marker parses back to exactly the same value.

Arithmetic on these numbers (a range's size, a midpoint) must not round: use :data:`EXACT`, a context
with ample precision that traps :class:`~decimal.Inexact`, e.g. ``EXACT.subtract(top, bottom)``.
"""

from __future__ import annotations

import re
from decimal import (
    ROUND_DOWN,
    ROUND_HALF_EVEN,
    Context,
    Decimal,
    DivisionByZero,
    Inexact,
    InvalidOperation,
    Overflow,
)

from appliance.errors import MalformedInput

MAX_INPUT_LENGTH = 256
"""Longest number text accepted (long enough for :func:`format_full` of any accepted value)."""

MAX_EXPONENT = 99
"""Accepted values are 0 or have ``-MAX_EXPONENT <= value.adjusted() <= MAX_EXPONENT``."""

COMPACT_WIDTH = 7
"""Most characters :func:`format_compact` uses for a value :func:`parse_number` accepts."""

ROUNDED_MARKER = "~"
"""First character of a :func:`format_compact` text that is rounded (not exact)."""

EXACT = Context(prec=2000, traps=[InvalidOperation, DivisionByZero, Overflow, Inexact])
"""Context for exact arithmetic on parsed numbers: any result that would need rounding raises."""

_ROUNDING = Context(prec=2000, traps=[InvalidOperation, Overflow])

_SCALE_WORDS: dict[str, int] = {
    "k": 3,
    "thousand": 3,
    "m": 6,
    "mn": 6,
    "million": 6,
    "b": 9,
    "bn": 9,
    "billion": 9,
    "t": 12,
    "tn": 12,
    "trillion": 12,
}

_COMPACT_SCALES: tuple[tuple[int, str], ...] = ((12, "T"), (9, "B"), (6, "M"), (3, "k"))

# Unicode spellings folded to the ASCII the pattern reads.
_FOLD = str.maketrans({"\u2212": "-", "\u00a0": " ", "\u2009": " ", "\u202f": " "})
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻", "0123456789+-")
_SUPERSCRIPT_RUN = re.compile(r"[⁺⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+")

_NUMBER = re.compile(
    r"""
    (?P<sign>[+-])?
    (?:
        (?P<whole>[0-9](?:[0-9,_ ]*[0-9])?)?            # whole part, maybe in groups of three
        (?:\.(?P<frac>[0-9]*))?                          # fraction after the point
        (?:
            [eE](?P<e>[+-]?[0-9]+)                       # 3e6
          | \ *[xX×*·⋅]\ *10\ *(?:\^|\*\*)\ *(?P<power>[+-]?[0-9]+)   # 3 x 10^6, 3*10**6
        )?
      | 10\ *(?:\^|\*\*)\ *(?P<bare>[+-]?[0-9]+)         # 10^6 alone
    )
    (?:\ *(?P<scale>[A-Za-z]+))?                         # 3 million, 3M, 2.5bn
    """,
    re.VERBOSE,
)

SHAPE = (
    "expected digits with an optional sign and decimal point, then optionally an exponent "
    "(3e6, 3 x 10^6) or a scale word (k, M, bn, million...)"
)
"""Why a text that is not the shape of a number is refused (a phone's form puts it in fewer words)."""


def _refuse(text: str, reason: str) -> MalformedInput:
    shown = text if len(text) <= 40 else text[:37] + "..."
    return MalformedInput(f"not a number {shown!r}: {reason}")


def parse_number(text: str) -> Decimal:
    """The exact value of ``text``; raises :class:`MalformedInput` saying why it is not a number."""
    if not isinstance(text, str):
        raise MalformedInput(f"a number must be given as text, got {type(text).__name__} {text!r}")
    if len(text) > MAX_INPUT_LENGTH:
        raise _refuse(text, f"too long ({len(text)} characters, at most {MAX_INPUT_LENGTH})")
    if len(text) <= MAX_EXPONENT and text.isascii() and text.isdigit():  # most entries: "42", "1969"
        return Decimal(int(text))
    folded = text.strip().translate(_FOLD)
    folded = _SUPERSCRIPT_RUN.sub(lambda m: "^" + m.group().translate(_SUPERSCRIPT), folded)
    if not folded:
        raise _refuse(text, "it is empty")
    match = _NUMBER.fullmatch(folded)
    if match is None:
        raise _refuse(text, SHAPE)
    whole, frac = match["whole"], match["frac"]
    bare = match["bare"]
    if bare is None and not whole and not frac:
        raise _refuse(text, "it has no digits")
    digits = _ungroup(text, whole or "") + (frac or "")
    if bare is not None:
        digits = "1"
    exponent_text = match["e"] or match["power"] or bare
    scale = match["scale"]
    exponent = 0
    if scale is not None:
        if exponent_text is not None:
            raise _refuse(text, f"it has both an exponent and the scale word {scale!r}")
        if scale.lower() not in _SCALE_WORDS:
            raise _refuse(
                text,
                f"unknown scale word {scale!r} (known: k, thousand, M, million, b, bn, billion, t, tn, trillion)",
            )
        exponent = _SCALE_WORDS[scale.lower()]
    elif exponent_text is not None:
        # At most MAX_INPUT_LENGTH digits, so int() is cheap; the bound is checked on the value below.
        exponent = int(exponent_text)
    exponent -= len(frac or "")
    significant = digits.lstrip("0")
    if not significant:
        return Decimal(0)
    adjusted = exponent + len(significant) - 1
    if not -MAX_EXPONENT <= adjusted <= MAX_EXPONENT:
        raise _refuse(
            text,
            f"its size is out of range (a value other than 0 must be at least 10^-{MAX_EXPONENT} "
            f"and below 10^{MAX_EXPONENT + 1})",
        )
    sign = "-" if match["sign"] == "-" else ""
    return Decimal(f"{sign}{significant}E{exponent}")


def check_number(value: object, what: str = "number") -> Decimal:
    """``value`` itself if it is a :class:`Decimal` that :func:`parse_number` could have produced (finite,
    zero or within the magnitude bounds); otherwise :class:`MalformedInput` naming ``what``. For values
    that reach an engine without going through the parser (an action built in code, a stored log)."""
    if not isinstance(value, Decimal) or not value.is_finite():
        raise MalformedInput(f"{what} must be a finite Decimal, got {type(value).__name__} {value!r}")
    if not value.is_zero() and not -MAX_EXPONENT <= value.adjusted() <= MAX_EXPONENT:
        raise MalformedInput(
            f"{what} {value} is out of range (a value other than 0 must be at least 10^-{MAX_EXPONENT} "
            f"and below 10^{MAX_EXPONENT + 1})"
        )
    if len(value.as_tuple().digits) > MAX_INPUT_LENGTH:
        raise MalformedInput(f"{what} has more than {MAX_INPUT_LENGTH} digits")
    return value


def _ungroup(text: str, whole: str) -> str:
    """``whole`` without its digit-group separators, refusing ambiguous grouping such as ``1,5``."""
    separators = {c for c in whole if not c.isdigit()}
    if not separators:
        return whole
    if len(separators) > 1:
        kinds = " and ".join(repr(c) for c in sorted(separators))
        raise _refuse(text, f"it mixes digit-group separators {kinds}")
    (separator,) = separators
    groups = whole.split(separator)
    if not 1 <= len(groups[0]) <= 3 or groups[0].startswith("0") or any(len(group) != 3 for group in groups[1:]):
        raise _refuse(
            text,
            f"ambiguous: is {separator!r} a decimal mark or a digit-group separator? Groups must be "
            "1-3 digits (not starting with 0) then groups of exactly three (write 1.5 for one and a "
            "half, 1,500 for fifteen hundred)",
        )
    return "".join(groups)


def _check(d: Decimal) -> None:
    if not isinstance(d, Decimal) or not d.is_finite():
        raise MalformedInput(f"expected a finite Decimal, got {d!r}")


def _strip_fraction_zeros(text: str) -> str:
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def format_plain(d: Decimal) -> str:
    """Plain decimal: no exponent, no separators, no trailing fraction zeros, never ``-0``."""
    _check(d)
    if d.is_zero():
        return "0"
    return _strip_fraction_zeros(format(d, "f"))


def format_full(d: Decimal) -> str:
    """Exact, with ``,`` between groups of three digits of the whole part (``"3,200,000"``)."""
    _check(d)
    if d.is_zero():
        return "0"
    return _strip_fraction_zeros(format(d, ",f"))


def format_compact(d: Decimal) -> str:
    """At most :data:`COMPACT_WIDTH` characters for a 128x64 screen, exact where that fits.

    Exact forms, shortest first (plain wins a tie): plain (``"12"``, ``"0.001"``) or a scale letter
    k/M/B/T (``"3.2M"``); scientific (``"1e20"``) only when neither fits. Otherwise the value is
    rounded half-even to the most significant digits that fit, in the first of plain, scale letter or
    scientific form that fits, behind :data:`ROUNDED_MARKER` (``"~12.35M"``, ``"~1.2e-5"``); a value
    that would round up past parse_number's bound keeps fewer digits, rounded toward zero instead.
    """
    _check(d)
    exact = [form for form in (format_plain(d), _scaled(d)) if form is not None and len(form) <= COMPACT_WIDTH]
    if exact:
        return min(exact, key=len)
    scientific = _scientific(d)
    if len(scientific) <= COMPACT_WIDTH:
        return scientific
    for digits in range(len(d.as_tuple().digits), 0, -1):
        rounded = _round(d, digits, ROUND_HALF_EVEN)
        if rounded.adjusted() > MAX_EXPONENT:
            continue  # a carry past parse_number's bound (9.6e99 -> 1e100): fewer digits, toward zero
        marker = ROUNDED_MARKER if rounded != d else ""
        for form in (format_plain(rounded), _scaled(rounded), _scientific(rounded)):
            if form is not None and len(marker + form) <= COMPACT_WIDTH:
                return marker + form
    # One digit toward zero, in scientific form: 7 characters at most for what parse_number accepts,
    # longer only for magnitudes beyond its bounds.
    return ROUNDED_MARKER + _scientific(_round(d, 1, ROUND_DOWN))


def _round(d: Decimal, digits: int, rounding: str) -> Decimal:
    """``d`` rounded to ``digits`` significant digits."""
    if d.is_zero():
        return d
    return d.quantize(Decimal(1).scaleb(d.adjusted() - digits + 1), rounding=rounding, context=_ROUNDING)


def _scaled(d: Decimal) -> str | None:
    """``d`` with the largest scale letter it reaches (``"3.2M"``); None below 1000 or from 10^15."""
    if d.is_zero() or not 3 <= d.adjusted() < 15:
        return None
    power, letter = next((p, letter) for p, letter in _COMPACT_SCALES if d.adjusted() >= p)
    return format_plain(d.scaleb(-power, context=EXACT)) + letter


def _scientific(d: Decimal) -> str:
    if d.is_zero():
        return "0"
    mantissa = d.scaleb(-d.adjusted(), context=EXACT)
    return f"{format_plain(mantissa)}e{d.adjusted()}"
