"""How sQuizz's public view reads as a standing (see :mod:`appliance.games.standings`).

Token values stay secret until the end (rules.md sQuizz 5): while playing, the table is the correct
answers (public); the points appear with the final scores."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from appliance.games.standings import Standing, View, names, question, table, waiting


def read(view: View, players: Sequence[str]) -> Standing:
    phase, current = view.get("phase"), question(view)
    if isinstance(view.get("scores"), Mapping) and view.get("scores"):
        name, unit, key = "Points", "points", "scores"
    else:
        name, unit, key = "Correct answers", "correct", "correct_counts"
    points = table(view, key, players)
    reader = current.get("reader")
    if phase == "answering" and isinstance(reader, str):
        waits = waiting(names(current.get("waiting_for")))
        return Standing(name, points, f"{reader} reads" + (f" · {waits}" if waits else ""), "", unit, key)
    if phase == "roll":
        next_reader = view.get("next_reader")
        turn = f"Next reader: {next_reader}" if isinstance(next_reader, str) else ""
        return Standing(name, points, turn, "Roll for the next question", unit, key)
    return Standing(name, points, unit=unit, key=key)
