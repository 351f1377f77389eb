"""How each game's public view reads as a standing: the points table, whose move it is, and what the
host's *next* does now. The web's game page and the board's leaderboards both read it, so they agree.

Only a public view is read (a game's ``public_view`` plus the flow's ``cards_left``), so nothing here can
show a secret; and nothing decides a rule: the phases, the players to wait for and the winners are the
game's own words. A game with no reader of its own (a test game, a plug-in) gets :func:`generic`: the
first per-player number table among the usual keys and a top-level ``waiting_for``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

View = Mapping[str, Any]

GENERIC_POINTS = (("scores", "points"), ("totals", "points"), ("chips", "chips"), ("stacks", "chips"),
                  ("points", "points"))


@dataclass(frozen=True)
class Standing:
    points_name: str = ""  # the table's column heading ("Points", "Chips", "Correct answers")
    points: dict[str, Any] = field(default_factory=dict)  # player -> number, in seat order
    turn: str = ""  # whose move it is, as a sentence ("Waiting for Bob, Cat", "Ann to act")
    step: str = ""  # what the host's Next does now ("Reveal", "Next question"); "" when nothing
    unit: str = "points"  # what one row counts, plural ("points", "chips", "correct")

    def now(self, turn: str = "", step: str = "") -> Standing:
        """This table with whose move it is and what the host's next does."""
        return replace(self, turn=turn, step=step)


Reader = Callable[[View, Sequence[str]], Standing]
"""``reader(view, players in seat order)`` -> the game's standing now."""


def table(view: View, key: str, players: Sequence[str]) -> dict[str, Any]:
    """The per-player numbers under ``key``, seated players first in seat order."""
    value = view.get(key)
    if not isinstance(value, Mapping):
        return {}
    order = [p for p in players if p in value] + [p for p in value if p not in players]
    return {str(p): value[p] for p in order}


def names(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def question(view: View) -> View:
    current = view.get("question")
    return current if isinstance(current, Mapping) else {}


def waiting(players: Iterable[str]) -> str:
    listed = list(players)
    return f"Waiting for {', '.join(listed)}" if listed else ""


def deal(view: View, label: str) -> str:
    """The host's next when the table waits for a card: deal it, or end the game when none is left."""
    cards_left = view.get("cards_left")
    if isinstance(cards_left, int) and cards_left == 0:
        return "Finish: no cards left"
    return label


def totals(view: View, players: Sequence[str]) -> Standing:
    """The points table of a public view: its ``standings`` block (every engine's public view has one,
    appliance.games.base.Totals); a view without one (a game outside the registry) gets the first
    per-player number table among the usual keys."""
    block = view.get("standings")
    if isinstance(block, Mapping) and isinstance(block.get("points"), Mapping):
        return Standing(str(block.get("heading", "")), table(block, "points", players),
                        unit=str(block.get("unit", "points")))
    seated = set(players)
    for key, unit in GENERIC_POINTS:
        value = view.get(key)
        if isinstance(value, Mapping) and value and set(value) <= seated:
            return Standing(unit.capitalize(), table(view, key, players), unit=unit)
    return Standing()


def generic(view: View, players: Sequence[str]) -> Standing:
    return totals(view, players).now(waiting(names(view.get("waiting_for"))))


def final(standing: Standing) -> Standing:
    """The standing once the game is over: no turn, no next."""
    return standing.now()
