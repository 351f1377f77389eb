"""Fitting text into a box: wrap at spaces, then shrink, never cut.

:func:`fit` finds the largest font size between a preferred size and the board's minimum at which the
text, wrapped greedily at word boundaries, fits the box in both directions. A word wider than the box
on its own is broken between characters (a 24-character name in a narrow seat box). Only if the text
cannot fit even at the minimum size does the size go below it, so the text is still whole and inside
its box; such a fit is marked ``below_min`` and the layout tests fail on it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

Measure = Callable[[int, str], tuple[int, int]]
"""``measure(px, text) -> (width, line height)`` of one line of ``text`` at ``px``."""

FLOOR_PX = 6
"""Below this a text is not drawn smaller: the layout tests treat anything under the minimum as a bug."""


@dataclass(frozen=True)
class Fit:
    px: int
    lines: tuple[str, ...]
    width: int
    height: int
    below_min: bool


def wrap(text: str, max_width: int, px: int, measure: Measure, max_lines: int | None = None) -> list[str]:
    """Greedy word wrap of ``text`` (explicit newlines kept) so every line is at most ``max_width``."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        words = paragraph.split()
        if not words:
            lines.append("")
            continue
        line = ""
        for word, glue in _pieces(words):
            candidate = f"{line}{glue}{word}" if line else word
            if measure(px, candidate)[0] <= max_width:
                line = candidate
                continue
            if line:
                lines.append(line)
            if max_lines is not None and len(lines) > max_lines:
                return lines  # too many already: what follows cannot make them fewer
            line = ""
            for piece in _break_word(word, max_width, px, measure):
                if line:
                    lines.append(line)
                line = piece
        lines.append(line)
        if max_lines is not None and len(lines) > max_lines:
            break
    return lines


def _fill(text: str, max_width: int, px: int, measure: Measure, max_lines: int | None = None) -> list[str]:
    """Lines filled character by character (a long name in a narrow box), spaces at breaks dropped; stops
    once there are more than ``max_lines`` (the text does not fit: a first frame measured every character
    of a name at every size tried, issue 30)."""
    chars = " ".join(text.split())
    lines: list[str] = []
    start = 0
    while True:
        end = _longest(chars, start, max_width, px, measure)
        if end >= len(chars):
            lines.append(chars[start:])
            return lines
        lines.append(chars[start:end].rstrip())
        if max_lines is not None and len(lines) > max_lines:
            return lines
        start = end + 1 if chars[end] == " " else end  # a space at the break is dropped


def _longest(chars: str, start: int, max_width: int, px: int, measure: Measure) -> int:
    """The end of the longest run of ``chars`` from ``start`` within ``max_width`` (at least one character),
    found by bisection: a run's width never shrinks as it grows by a character (a glyph's advance is more
    than its kerning), so this is where adding characters one at a time would first overflow, in a handful
    of measurements rather than one a character."""
    low, high = start + 1, len(chars)
    while low < high:
        mid = (low + high + 1) // 2
        if measure(px, chars[start:mid])[0] <= max_width:
            low = mid
        else:
            high = mid - 1
    return low


_HYPHENATED = re.compile(r"[^-]+-*|-+")


def _pieces(words: list[str]) -> list[tuple[str, str]]:
    """Words as (piece, glue before it): a hyphenated word may break after each hyphen."""
    out: list[tuple[str, str]] = []
    for word in words:
        parts = _HYPHENATED.findall(word) if "-" in word else [word]
        for index, part in enumerate(parts):
            out.append((part, " " if index == 0 else ""))
    return out


def _break_word(word: str, max_width: int, px: int, measure: Measure) -> list[str]:
    """``word`` in pieces that each fit ``max_width`` (at least one character per piece)."""
    if measure(px, word)[0] <= max_width:
        return [word]
    pieces: list[str] = []
    start = 0
    while start < len(word):
        end = _longest(word, start, max_width, px, measure)
        pieces.append(word[start:end])
        start = end
    return pieces


def _try(text: str, width: int, height: int, px: int, measure: Measure, max_lines: int | None) -> Fit | None:
    line_height = measure(px, "Ag")[1]
    most = height // max(1, line_height)
    if most < 1:
        return None
    if max_lines is not None:
        most = min(most, max_lines)
    if "\n" not in text and text == " ".join(text.split()):  # one measure when the whole text fits one line
        whole = measure(px, text)[0]
        if whole <= width:
            return Fit(px, (text,), whole, line_height, False)
    lines = wrap(text, width, px, measure, most)
    if len(lines) > most and "\n" not in text:
        lines = _fill(text, width, px, measure, most)  # last resort before shrinking: break inside words
    if len(lines) > most:
        return None
    widest = max((measure(px, line)[0] for line in lines), default=0)
    if widest > width:
        return None
    return Fit(px, tuple(lines), widest, line_height * len(lines), False)


def _largest(text: str, width: int, height: int, low: int, high: int, measure: Measure,
             max_lines: int | None) -> Fit | None:
    """The fit at the largest size in ``[low, high]`` that fits (fitting is monotone in the size). The search
    starts where the text on one line would just fit the width, which is the answer or next to it for most
    texts (a name in a pill, a label), so a first frame measures a few sizes rather than a binary search's."""
    if low > high:
        return None
    one_line = measure(high, " ".join(text.split()))[0]
    guess = high if one_line <= 0 else min(high, max(low, high * width // one_line))
    found: Fit | None = None
    attempt = _try(text, width, height, guess, measure, max_lines)
    if attempt is not None:
        found, low = attempt, guess + 1
        step = 1
        while low <= high:  # gallop up from the guess
            probe = min(high, guess + step)
            attempt = _try(text, width, height, probe, measure, max_lines)
            if attempt is None:
                high = probe - 1
                break
            found, low, guess, step = attempt, probe + 1, probe, step * 2
    else:
        high = guess - 1
        step = 1
        while low <= high:  # gallop down from the guess
            probe = max(low, guess - step)
            attempt = _try(text, width, height, probe, measure, max_lines)
            if attempt is not None:
                found, low = attempt, probe + 1
                break
            high, guess, step = probe - 1, probe, step * 2
    while low <= high:  # what the gallop left: binary search
        mid = (low + high) // 2
        attempt = _try(text, width, height, mid, measure, max_lines)
        if attempt is None:
            high = mid - 1
        else:
            found, low = attempt, mid + 1
    return found


def fits(text: str, width: int, height: int, max_px: int, min_px: int, measure: Measure,
         max_lines: int | None = None) -> bool:
    """Whether :func:`fit` finds a size at the minimum or above (its fit is not ``below_min``), without the
    search below the minimum that :func:`fit` then makes (a long "Sitting out" line on a room's first frame
    measured 424 candidate lines there only to be replaced by a shorter one, issue 30)."""
    max_px = max(max_px, min_px)
    if _try(text, width, height, max_px, measure, max_lines) is not None:
        return True
    return _largest(text, width, height, min_px, max_px - 1, measure, max_lines) is not None


def fit(
    text: str,
    width: int,
    height: int,
    max_px: int,
    min_px: int,
    measure: Measure,
    max_lines: int | None = None,
) -> Fit:
    """The largest size in ``[min_px, max_px]`` at which ``text`` fits ``width`` x ``height``."""
    max_px = max(max_px, min_px)
    best = _try(text, width, height, max_px, measure, max_lines)
    if best is not None:
        return best
    found = _largest(text, width, height, min_px, max_px - 1, measure, max_lines)
    if found is not None:
        return found
    attempt = _largest(text, width, height, FLOOR_PX, min_px - 1, measure, None)  # below the minimum: a bug
    if attempt is not None:  # the layout tests report, searched as fast (a long line of names on a first frame)
        return Fit(attempt.px, attempt.lines, attempt.width, attempt.height, True)
    lines = tuple(wrap(text, width, FLOOR_PX, measure))
    widest = max((measure(FLOOR_PX, line)[0] for line in lines), default=0)
    return Fit(FLOOR_PX, lines, widest, measure(FLOOR_PX, "Ag")[1] * len(lines), True)
