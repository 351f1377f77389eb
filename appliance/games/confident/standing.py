"""How Confident?'s public view reads as a standing (see :mod:`appliance.games.standings`)."""

from __future__ import annotations

from collections.abc import Sequence

from appliance.games.standings import Standing, View, deal, names, question, totals, waiting


def read(view: View, players: Sequence[str]) -> Standing:
    phase, current = view.get("phase"), question(view)
    base = totals(view, players)
    if phase == "open":  # entries open: the host's next stops waiting (rules.md Confident 4: no range)
        answered = set(names(current.get("answered")))
        missing = [p for p in names(view.get("players")) if p not in answered]
        return base.now(waiting(missing), "Close entries")
    if phase == "closed":
        return base.now("Entries closed", "Reveal")
    if phase in ("lobby", "settled"):
        return base.now("", deal(view, "Next question"))
    return base
