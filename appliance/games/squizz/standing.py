"""How sQuizz's public view reads as a standing (see :mod:`appliance.games.standings`).

Token values stay secret until the end (rules.md sQuizz 5): while playing, the table is the correct
answers (public); the points appear with the final scores."""

from __future__ import annotations

from collections.abc import Sequence

from appliance.games.standings import Standing, View, names, question, totals, waiting


def read(view: View, players: Sequence[str]) -> Standing:
    phase, current = view.get("phase"), question(view)
    base = totals(view, players)  # the correct answers until the end, then the points
    reader = current.get("reader")
    if phase == "answering":
        waits = waiting(names(current.get("waiting_for")))
        # the room form has no reader: the box reads every card (docs/rules.md squizz-room)
        who = f"{reader} reads" if isinstance(reader, str) else "Everyone answers"
        return base.now(who + (f" · {waits}" if waits else ""))
    if phase == "roll":
        next_reader = view.get("next_reader")
        return base.now(f"Next reader: {next_reader}" if isinstance(next_reader, str) else "",
                        "Roll for the next question")
    return base
