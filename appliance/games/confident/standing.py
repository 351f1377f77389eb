"""How Confident?'s public view reads as a standing (see :mod:`appliance.games.standings`)."""

from __future__ import annotations

from collections.abc import Sequence

from appliance.games.standings import Standing, View, deal, names, question, table, waiting


def read(view: View, players: Sequence[str]) -> Standing:
    phase, current = view.get("phase"), question(view)
    points = table(view, "scores", players)
    target = view.get("target")
    name = f"Points (target {target})" if isinstance(target, int) else "Points"
    if phase == "open":  # entries open: the host's next stops waiting (rules.md Confident 4: no range)
        answered = set(names(current.get("answered")))
        missing = [p for p in names(view.get("players")) if p not in answered]
        return Standing(name, points, waiting(missing), "Close entries", "points", "scores")
    if phase == "closed":
        return Standing(name, points, "Entries closed", "Reveal", "points", "scores")
    if phase in ("lobby", "settled"):
        return Standing(name, points, "", deal(view, "Next question"), "points", "scores")
    return Standing(name, points, unit="points", key="scores")
