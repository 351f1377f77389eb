"""The league's season table on a member box's TV between a night's rounds (rules.md The league 4,
docs/league.md): read-only, the top ten as the league last sent it (``state["night"]["league"]``, put
there by appliance/session/night.py from the member link). Drawn as a panel beside the night's standing;
a night that is not a league member's has no such key, and its standing keeps the whole screen."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from appliance.board import theme
from appliance.board.canvas import Canvas, Rect
from appliance.board.scenes.common import rows
from appliance.board.state import as_int, as_list, as_map, as_text

TOP = 10
SHARE = 0.4
"""The panel's share of the standing's width."""


def league_rows(view: Mapping[str, Any]) -> list[tuple[int, str, int]]:
    """(place, team, league points) of the table in the night's view, best first, at most :data:`TOP`;
    rows that are not a team's are left out (the board draws any state it is sent)."""
    out = []
    for item in as_list(view.get("league"))[:TOP]:
        entry = as_map(item)
        team = as_text(entry.get("team"))
        if team:
            out.append((as_int(entry.get("place"), 0) or 0, team, as_int(entry.get("points"), 0) or 0))
    return out


def league_panel(canvas: Canvas, view: Mapping[str, Any], area: Rect) -> Rect:
    """Draw the league table at the right of ``area`` when the view has one; the area left for the
    night's standing (all of ``area`` when there is no league table)."""
    table = league_rows(view)
    if not table:
        return area
    gap = canvas.u(28)
    width = round(area.width * SHARE)
    box = Rect(area.right - width, area.top, width, area.height)
    canvas.panel(box)
    inner = box.inflate(-canvas.u(32), -canvas.u(24))
    title = Rect(inner.left, inner.top, inner.width, canvas.u(64))
    canvas.text(title, "League table", 40, theme.GOLD, role="title", align="left", max_lines=1)
    body = Rect(inner.left, title.bottom + canvas.u(8), inner.width, inner.bottom - title.bottom - canvas.u(8))
    line = min(canvas.u(64), body.height // TOP)
    body = Rect(body.left, body.top, body.width, line * len(table))
    place_width, points_width = canvas.u(64), canvas.u(110)
    for slot, (place, team, points) in zip(rows(body, len(table), 0), table, strict=True):
        size = 32
        canvas.text(Rect(slot.left, slot.top, place_width, slot.height), f"{place}.", size, theme.MUTED,
                    align="left", max_lines=1)
        name = Rect(slot.left + place_width, slot.top, slot.width - place_width - points_width, slot.height)
        canvas.text(name, team, size, theme.TEXT, align="left", max_lines=1)
        canvas.text(Rect(slot.right - points_width, slot.top, points_width, slot.height), str(points), size,
                    theme.GOLD, role="title", align="right", max_lines=1)
    return Rect(area.left, area.top, box.left - gap - area.left, area.height)
