"""A night's run-sheet: the rounds in order, each one game (or a buzzer round) with its options
(rules.md Quiz night 1).

A :class:`RoundPlan` is what the quizmaster plans before the pub opens: the game, the options, the
multiplier (rules.md Quiz night 3), and for the session the deck, a card count or a time box and a
title for the TV. ``seats`` is who sits the round, a subset of the night's players in seat order;
``None`` means every player of the night (a reusable run-sheet does not know tonight's players).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Self

from appliance.errors import ConfigError, MalformedInput
from appliance.games.base import JSON

MAX_MULTIPLIER = 100
"""The largest multiplier a round may have (rules.md Quiz night 3: a whole number, 1 by default)."""

MAX_TITLE = 80
MAX_CARDS = 500
MAX_MINUTES = 600
PLAN_KEYS = ("game", "seats", "options", "multiplier", "title", "deck", "cards", "minutes", "unseen")


def _whole(value: object, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise MalformedInput(f"{what} must be a whole number from {low} to {high}, got {json.dumps(value)}")
    return value


def _text(value: object, what: str, most: int) -> str:
    if not isinstance(value, str) or len(value) > most:
        raise MalformedInput(f"{what} must be text of at most {most} characters, got {json.dumps(value)[:80]}")
    return value


@dataclass(frozen=True)
class RoundPlan:
    """One round of the run-sheet, as planned (nothing here changes once the round starts)."""

    game: str
    seats: tuple[str, ...] | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    multiplier: int = 1
    title: str = ""
    deck: str = ""
    """The deck's id in the store (the session draws the round's cards from it); empty in a replay."""
    cards: int | None = None
    """A card count: the round stops (and is scored) after this many questions."""
    minutes: int | None = None
    """A time box: the round stops (and is scored) at the first break between questions after it."""
    unseen: bool = False
    """Deal only cards this box has never dealt (docs/decks.md, the deal history); the round refuses to
    start when its deck has none left."""

    def __post_init__(self) -> None:
        if not isinstance(self.game, str) or not self.game:
            raise MalformedInput(f"a round needs its game's name, got {json.dumps(self.game)}")
        if self.seats is not None:
            if isinstance(self.seats, str) or not isinstance(self.seats, Sequence):
                raise MalformedInput(f"a round's seats are a list of player names, got {json.dumps(self.seats)}")
            if not all(isinstance(name, str) and name for name in self.seats):
                raise MalformedInput(f"a round's seats are non-empty names, got {json.dumps(list(self.seats))}")
            object.__setattr__(self, "seats", tuple(self.seats))
        if not isinstance(self.options, Mapping):
            raise MalformedInput(f"a round's options are an object, got {json.dumps(self.options)[:80]}")
        object.__setattr__(self, "options", copy.deepcopy(dict(self.options)))
        _whole(self.multiplier, "a round's multiplier", 0, MAX_MULTIPLIER)
        _text(self.title, "a round's title", MAX_TITLE)
        _text(self.deck, "a round's deck", MAX_TITLE)
        if self.cards is not None:
            _whole(self.cards, "a round's card count", 1, MAX_CARDS)
        if self.minutes is not None:
            _whole(self.minutes, "a round's time box (minutes)", 1, MAX_MINUTES)
        if not isinstance(self.unseen, bool):
            raise MalformedInput(f"a round's unseen is true or false, got {json.dumps(self.unseen)}")

    def seated(self, players: Sequence[str]) -> tuple[str, ...]:
        """Who sits the round: its seats, or every player of the night."""
        return tuple(players) if self.seats is None else self.seats

    def with_seats(self, seats: Sequence[str] | None) -> RoundPlan:
        return RoundPlan(
            self.game, None if seats is None else tuple(seats), self.options, self.multiplier, self.title,
            self.deck, self.cards, self.minutes, self.unseen,
        )

    def to_json(self) -> JSON:
        data: JSON = {"game": self.game, "options": copy.deepcopy(dict(self.options)), "multiplier": self.multiplier}
        if self.seats is not None:
            data["seats"] = list(self.seats)
        for name in ("title", "deck"):
            if getattr(self, name):
                data[name] = getattr(self, name)
        for name in ("cards", "minutes"):
            if getattr(self, name) is not None:
                data[name] = getattr(self, name)
        if self.unseen:
            data["unseen"] = True
        return data

    @classmethod
    def from_json(cls, data: object) -> Self:
        """The plan from its JSON (a stored run-sheet, a web form, a replay round); MalformedInput names
        the bad key."""
        if not isinstance(data, Mapping):
            raise MalformedInput(f"a round is an object, got {json.dumps(data)[:80]}")
        unknown = sorted(set(data) - set(PLAN_KEYS))
        if unknown:
            raise MalformedInput(f"unknown round key(s) {', '.join(unknown)} (known: {', '.join(PLAN_KEYS)})")
        if "game" not in data:
            raise MalformedInput("a round needs its game")
        return cls(
            data["game"],
            data.get("seats"),
            data.get("options", {}),
            data.get("multiplier", 1),
            data.get("title", ""),
            data.get("deck", ""),
            data.get("cards"),
            data.get("minutes"),
            data.get("unseen", False),
        )


def check_seats(plan: RoundPlan, players: Sequence[str]) -> tuple[str, ...]:
    """The round's seats, checked against the night's players (ConfigError names the stranger)."""
    seats = plan.seated(players)
    strangers = [name for name in seats if name not in players]
    if strangers:
        raise ConfigError(
            f"{', '.join(strangers)} sit(s) the {plan.game} round but not the night (players: {', '.join(players)})"
        )
    if len(set(seats)) != len(seats):
        raise ConfigError(f"a player sits the {plan.game} round twice: {', '.join(seats)}")
    return seats
