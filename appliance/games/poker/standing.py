"""How estimation poker's public view reads as a standing (see :mod:`appliance.games.standings`)."""

from __future__ import annotations

from collections.abc import Sequence

from appliance.games.standings import Standing, View, deal, names, question, table, waiting


def read(view: View, players: Sequence[str]) -> Standing:
    phase, current = view.get("phase"), question(view)
    points = table(view, "stacks", players)
    if phase == "ranges":
        ranges_in = set(names(current.get("ranges_in")))
        missing = [p for p in names(current.get("dealt")) if p not in ranges_in]
        return Standing("Chips", points, waiting(missing) + (" (ranges)" if missing else ""),
                        "Start betting" if ranges_in else "", "chips", "stacks")
    to_act = view.get("to_act")
    if phase == "betting" and isinstance(to_act, str) and to_act:
        return Standing("Chips", points, f"{to_act} to act", "", "chips", "stacks")
    if phase in ("waiting", "showdown"):
        return Standing("Chips", points, "", deal(view, "Next question"), "chips", "stacks")
    return Standing("Chips", points, unit="chips", key="stacks")
