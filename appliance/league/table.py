"""The league table (rules.md The league 3 and 4): pure, from the places each box gave its teams.

A box's night gives each team a place (1 best, shared places equal); the league turns that into league
points and sums them over the season. Nothing here knows MQTT, SQLite or the clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class NightPlaces:
    """One box's league night as the table needs it: each team's place in that night."""

    result_id: str
    box: str
    places: Mapping[str, int]


@dataclass(frozen=True)
class Row:
    place: int
    team: str
    box: str
    points: int
    nights: int
    wins: int


def league_points(places: Mapping[str, int]) -> dict[str, int]:
    """Each team's league points for one night (rules.md The league 3): with n teams and b of them placed
    strictly below a team, 100 x b / (n - 1) rounded half up; a night of one team gives none."""
    n = len(places)
    if n < 2:
        return {team: 0 for team in places}
    out = {}
    for team, place in places.items():
        below = sum(1 for other in places.values() if other > place)
        out[team] = (200 * below + (n - 1)) // (2 * (n - 1))  # half up, in whole numbers
    return out


def season(nights: Iterable[NightPlaces]) -> list[Row]:
    """The season standing (rules.md The league 4): points summed, then more nights won; equal on both
    share a place. A result id seen twice counts once (rules.md The league 5). Rows best first, ties by name."""
    points: dict[str, int] = {}
    played: dict[str, int] = {}
    wins: dict[str, int] = {}
    home: dict[str, str] = {}
    seen: set[str] = set()
    for night in nights:
        if night.result_id in seen:
            continue
        seen.add(night.result_id)
        for team, got in league_points(night.places).items():
            points[team] = points.get(team, 0) + got
            played[team] = played.get(team, 0) + 1
            wins[team] = wins.get(team, 0) + (1 if night.places[team] == 1 else 0)
            home.setdefault(team, night.box)
    key = {team: (points[team], wins[team]) for team in points}
    order = sorted(points, key=lambda t: (-key[t][0], -key[t][1], t.casefold(), t))
    return [Row(1 + sum(1 for other in key.values() if other > key[team]), team, home[team], points[team],
                played[team], wins[team]) for team in order]
