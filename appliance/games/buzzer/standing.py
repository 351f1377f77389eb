"""How the buzzer round's public view reads as a standing (see :mod:`appliance.games.standings`)."""

from __future__ import annotations

from collections.abc import Sequence

from appliance.games.standings import Standing, View, deal, names, totals


def read(view: View, players: Sequence[str]) -> Standing:
    phase = view.get("phase")
    base = totals(view, players)
    answering = view.get("answering")
    if phase == "waiting":
        return base.now("", "Arm the buzzers")
    if phase == "armed":
        return base.now("Buzzers armed", "" if names(view.get("buzzes")) else "Close: nobody buzzed")
    if phase == "answering" and isinstance(answering, str):
        return base.now(f"{answering} answers")
    if phase == "closed":
        return base.now("", deal(view, "Next question"))
    return base
