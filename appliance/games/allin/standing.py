"""How All In's public view reads as a standing (see :mod:`appliance.games.standings`)."""

from __future__ import annotations

from collections.abc import Sequence

from appliance.games.standings import Standing, View, deal, names, question, table, waiting


def read(view: View, players: Sequence[str]) -> Standing:
    phase, current = view.get("phase"), question(view)
    points = table(view, "chips", players)
    reader = current.get("reader")
    if phase == "reading" and isinstance(reader, str):
        return Standing("Chips", points, f"{reader} reads: choosing a statement", "", "chips", "chips")
    if phase == "betting":
        missing = names(current.get("waiting_for"))
        return Standing("Chips", points, waiting(missing) + (" (splits)" if missing else ""), "", "chips", "chips")
    if phase == "card":
        next_reader = view.get("next_reader")
        turn = f"Next reader: {next_reader}" if isinstance(next_reader, str) else ""
        return Standing("Chips", points, turn, deal(view, "Next card"), "chips", "chips")
    return Standing("Chips", points, unit="chips", key="chips")
