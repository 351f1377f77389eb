"""How All In's public view reads as a standing (see :mod:`appliance.games.standings`)."""

from __future__ import annotations

from collections.abc import Sequence

from appliance.games.standings import Standing, View, deal, names, question, totals, waiting


def read(view: View, players: Sequence[str]) -> Standing:
    phase, current = view.get("phase"), question(view)
    base = totals(view, players)
    reader = current.get("reader")
    if phase == "reading" and isinstance(reader, str):
        return base.now(f"{reader} reads: choosing a statement")
    if phase == "betting":
        missing = names(current.get("waiting_for"))
        return base.now(waiting(missing) + (" (splits)" if missing else ""))
    if phase == "card":
        next_reader = view.get("next_reader")
        return base.now(f"Next reader: {next_reader}" if isinstance(next_reader, str) else "", deal(view, "Next card"))
    return base
