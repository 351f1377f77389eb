"""Confident? options: the target and the variants of rules.md Confident 8."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from appliance.errors import ConfigError
from appliance.games import fields
from appliance.games.base import JSON

DEFAULT_TARGET = 15
"""Points to cross the finish line (seed 000, "Win the Game")."""

DEFAULT_FAST_PLAY_SECONDS = 10
"""Fast Play's time limit (rules.md Confident 8); the session times entries, the engine only sees the
host's close."""

MAX_FAST_PLAY_SECONDS = 600


class Variant(StrEnum):
    """The "Bonus Ways to Play" (rules.md Confident 8); any several may be on at once."""

    FINAL_HURDLE = "final_hurdle"
    NAIL_IT = "nail_it"
    FAST_PLAY = "fast_play"
    TOP_TWO = "top_two"
    MINUS_POINTS = "minus_points"
    TWO_PLAYERS = "two_players"


KNOWN_OPTIONS = ("target", "variants", "fast_play_seconds")
DEFAULTS: Mapping[str, Any] = {"target": DEFAULT_TARGET, "variants": (), "fast_play_seconds": DEFAULT_FAST_PLAY_SECONDS}


def _whole(options: Mapping[str, Any], name: str, default: int, low: int, high: int) -> int:
    refusal = f"Confident option {name} must be a whole number from {low} to {high}"
    return fields.whole(options.get(name, default), refusal, low=low, high=high, error=ConfigError)


def validate(options: Mapping[str, Any], players: int) -> JSON:
    """The complete options (defaults filled in, variants in :class:`Variant` order) or ConfigError.

    Two Players needs exactly two players; without it the base scoring needs three or more (rules.md
    Confident 2 and 8)."""
    unknown = sorted(set(options) - set(KNOWN_OPTIONS))
    if unknown:
        raise ConfigError(f"unknown Confident option(s) {', '.join(unknown)}; known: {', '.join(KNOWN_OPTIONS)}")
    target = _whole(options, "target", DEFAULT_TARGET, 1, 10_000)
    seconds = _whole(options, "fast_play_seconds", DEFAULT_FAST_PLAY_SECONDS, 1, MAX_FAST_PLAY_SECONDS)
    chosen = options.get("variants", [])
    if not isinstance(chosen, list | tuple) or not all(isinstance(v, str) for v in chosen):
        raise ConfigError(f"Confident option variants must be a list of names, got {chosen!r}")
    known = {variant.value for variant in Variant}
    strange = sorted(set(chosen) - known)
    if strange:
        names = ", ".join(variant.value for variant in Variant)
        raise ConfigError(f"unknown Confident variant(s) {', '.join(strange)}; known: {names}")
    if len(set(chosen)) != len(chosen):
        raise ConfigError(f"Confident variants must not repeat, got {list(chosen)}")
    if Variant.TWO_PLAYERS in chosen and players != 2:
        raise ConfigError(f"the two_players variant is for exactly 2 players, got {players}")
    if Variant.TWO_PLAYERS not in chosen and players < 3:
        raise ConfigError(f"Confident needs 3 or more players, or the two_players variant for 2; got {players}")
    return {
        "target": target,
        "variants": [variant.value for variant in Variant if variant.value in chosen],
        "fast_play_seconds": seconds,
    }
