"""How the buzzer round's public view reads as a standing (see :mod:`appliance.games.standings`)."""

from __future__ import annotations

from collections.abc import Sequence

from appliance.games.standings import Standing, View, deal, names, table


def read(view: View, players: Sequence[str]) -> Standing:
    phase = view.get("phase")
    points = table(view, "scores", players)
    answering = view.get("answering")
    if phase == "waiting":
        return Standing("Points", points, "", "Arm the buzzers", "points", "scores")
    if phase == "armed":
        buzzed = names(view.get("buzzes"))
        return Standing("Points", points, "Buzzers armed", "" if buzzed else "Close: nobody buzzed", "points",
                        "scores")
    if phase == "answering" and isinstance(answering, str):
        return Standing("Points", points, f"{answering} answers", "", "points", "scores")
    if phase == "closed":
        return Standing("Points", points, "", deal(view, "Next question"), "points", "scores")
    return Standing("Points", points, unit="points", key="scores")
