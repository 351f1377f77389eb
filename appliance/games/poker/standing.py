"""How estimation poker's public view reads as a standing (see :mod:`appliance.games.standings`)."""

from __future__ import annotations

from collections.abc import Sequence

from appliance.games.standings import Standing, View, deal, names, question, totals, waiting


def read(view: View, players: Sequence[str]) -> Standing:
    phase, current = view.get("phase"), question(view)
    base = totals(view, players)
    if phase == "ranges":
        ranges_in = set(names(current.get("ranges_in")))
        missing = [p for p in names(current.get("dealt")) if p not in ranges_in]
        return base.now(waiting(missing) + (" (ranges)" if missing else ""), "Start betting" if ranges_in else "")
    to_act = view.get("to_act")
    if phase == "betting" and isinstance(to_act, str) and to_act:
        return base.now(f"{to_act} to act")
    if phase in ("waiting", "showdown"):
        return base.now("", deal(view, "Next question"))
    return base
