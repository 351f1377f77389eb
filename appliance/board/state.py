"""Reading the public board state (Session.board_state) without trusting its shape.

The board only reads: whatever is missing or of the wrong type reads as empty, so a partial state
(an older session, a flow that adds or omits a key) still draws a frame instead of crashing the TV.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from appliance.board import theme
from appliance.board.theme import Colour
from appliance.errors import MalformedInput
from appliance.games.numbers import format_compact, format_full, format_plain, parse_number

JSON = dict[str, Any]


def as_map(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def as_list(value: object) -> list[Any]:
    return list(value) if isinstance(value, Sequence) and not isinstance(value, str | bytes) else []


def as_text(value: object, default: str = "") -> str:
    if isinstance(value, str):
        return value
    if value is None or isinstance(value, bool):
        return default
    return str(value)


def as_int(value: object, default: int | None = None) -> int | None:
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return default


def as_number(value: object) -> Decimal | None:
    """A number from the state (plain-decimal string or int) as an exact Decimal; None if unreadable."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, float):
        return Decimal(repr(value))
    if isinstance(value, str):
        try:
            return parse_number(value)
        except MalformedInput:
            return None
    return None


FOUR_DIGITS = Decimal(10000)


def show_number(value: object, compact: bool = False) -> str:
    """A number as the board writes it ("3,200,000", or "3.2M" where space is short). A whole number of
    four digits has no separator ("1912", as a year reads and as the number line's axis writes it: the TV
    said "Answer: 1,912" under an axis reading 1910, issue 31.6)."""
    number = as_number(value)
    if number is None:
        return as_text(value, "?")
    if compact:
        return format_compact(number)
    if number == number.to_integral_value() and abs(number) < FOUR_DIGITS:
        return format_plain(number)
    return format_full(number)


@dataclass(frozen=True)
class Player:
    name: str
    colour: Colour
    handset: str
    online: bool
    battery: int | None
    rssi: int | None
    seated: bool


class Board:
    """The envelope of one board state."""

    def __init__(self, state: Mapping[str, Any]) -> None:
        self.raw = state
        self.box = as_text(state.get("box"), "Quizbox") or "Quizbox"
        self.scene = as_text(state.get("scene"), "lobby")
        self.game = as_text(state.get("game")) or None
        self.paused = state.get("paused") is True
        self.view: Mapping[str, Any] = as_map(state.get("view"))
        self.seats = [as_text(s) for s in as_list(state.get("seats")) if as_text(s)]
        self.message = as_text(state.get("message"))
        media = as_map(state.get("media"))
        self.image = as_text(media.get("image")) or None
        """The card on the table's picture: a media reference the board loads once (appliance/board/pictures.py)."""
        self.audio = as_text(media.get("audio")) or None
        self.can_advance = state.get("can_advance") is True
        remaining = state.get("remaining")
        self._remaining = float(remaining) if isinstance(remaining, int | float) and not isinstance(
            remaining, bool) else None
        self.remaining_reads = 0
        """How often the time left was read (a frame that read it is not the same frame a second later)."""
        self.players: list[Player] = []
        for index, item in enumerate(as_list(state.get("players"))):
            entry = as_map(item)
            name = as_text(entry.get("name"))
            if not name:
                continue
            self.players.append(
                Player(
                    name=name,
                    colour=theme.hex_colour(entry.get("colour"), theme.seat_colour(index)),
                    handset=as_text(entry.get("handset")),
                    online=entry.get("online") is not False,
                    battery=as_int(entry.get("battery")),
                    rssi=as_int(entry.get("rssi")),
                    seated=entry.get("seated") is True,
                )
            )
        self._by_name = {p.name: p for p in self.players}
        self._numbers: dict[str, int] | None = None

    @property
    def remaining(self) -> float | None:
        """Seconds left of the time limit (None: no limit applies)."""
        self.remaining_reads += 1
        return self._remaining

    @property
    def timed(self) -> bool:
        """Whether a time limit applies (what a layout needs; the seconds are the countdown's own)."""
        return self._remaining is not None

    def player(self, name: str) -> Player | None:
        return self._by_name.get(name)

    def colour(self, name: str) -> Colour:
        """The player's handset colour; a palette colour by seat when the state names none."""
        player = self._by_name.get(name)
        if player is not None:
            return player.colour
        order = self.in_game()
        index = order.index(name) if name in order else len(order)
        return theme.seat_colour(index)

    def in_game(self) -> list[str]:
        """The game's players in seat order: the view's list, else the seats, else the seated handsets."""
        listed = [as_text(p) for p in as_list(self.view.get("players")) if as_text(p)]
        if listed:
            return listed
        if self.seats:
            return self.seats
        return [p.name for p in self.players if p.seated]

    def seat_number(self, name: str) -> int | None:
        """The player's seat number (rules.md The room 2): the view's ``seat_numbers`` (the night's between
        its rounds), else their place in the game's seat order, else in the room's list of handsets (the
        lobby), 1 first; None for a name in none of them. A number given twice counts once: numbers never
        repeat on the board, whatever the state says."""
        numbers = self._seat_numbers()
        return numbers.get(name)

    def _seat_numbers(self) -> dict[str, int]:
        if self._numbers is None:
            numbers: dict[str, int] = {}
            night = as_map(self.raw.get("night"))
            between = self.scene.startswith("night")  # between a night's rounds: the night's own seats
            for key, value in as_map((night if between else self.view).get("seat_numbers")).items():
                number = as_int(value)
                if isinstance(key, str) and number is not None and number > 0 and number not in numbers.values():
                    numbers[key] = number
            if not numbers:
                order = [as_text(p) for p in as_list(night.get("players")) if as_text(p)] if between else []
                order = order or self.in_game() or [p.name for p in self.players]
                numbers = {name: index for index, name in enumerate(dict.fromkeys(order), 1)}
            self._numbers = numbers
        return self._numbers

    def offline(self, name: str) -> bool:
        player = self._by_name.get(name)
        return player is not None and not player.online
