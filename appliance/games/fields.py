"""The two field checks every game makes on what it is given: a whole number and a piece of text.

JSON has no integer type of its own and Python's ``bool`` is an ``int``, so "a whole number" means an
``int`` that is not ``True``/``False``; "text" means a ``str``, non-blank unless blank is allowed. The
refusal names the field in the caller's words and the value it got: ``refusal + ", got " + repr(value)``,
raised as the caller's error (MalformedInput for inputs, ConfigError for options, DeckError for cards).
"""

from __future__ import annotations

from typing import TypeGuard

from appliance.errors import MalformedInput, QuizboxError


def is_whole(value: object, low: int | None = None, high: int | None = None) -> TypeGuard[int]:
    """Whether ``value`` is a whole number (not a bool) within ``low`` .. ``high`` (each end optional)."""
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    return (low is None or value >= low) and (high is None or value <= high)


def whole(
    value: object, refusal: str, *, low: int | None = None, high: int | None = None,
    error: type[QuizboxError] = MalformedInput,
) -> int:
    """``value`` if it is a whole number within bounds; else ``error(f"{refusal}, got {value!r}")``."""
    if not is_whole(value, low, high):
        raise error(f"{refusal}, got {value!r}")
    return value


def text(value: object, refusal: str, *, blank: bool = False, error: type[QuizboxError] = MalformedInput) -> str:
    """``value`` if it is text (non-blank unless ``blank``); else ``error(f"{refusal}, got {value!r}")``."""
    if not isinstance(value, str) or (not blank and not value.strip()):
        raise error(f"{refusal}, got {value!r}")
    return value
