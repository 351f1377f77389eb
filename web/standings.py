"""How each game's public board view reads for the quizmaster: the points table, whose move it is and
what the host's *next* does now.

Only the view is read (``public_view`` of the game's engine plus the flow's ``cards_left``), so nothing
here can show a secret; and nothing decides a rule: the phases, the players to wait for and the winners
are the game's own words. A game this module does not know (a test game, a plug-in) gets the generic
reading: the first per-player number table among the usual keys and a top-level ``waiting_for``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

JSON = Mapping[str, Any]

GENERIC_POINTS = (("scores", "Points"), ("totals", "Points"), ("chips", "Chips"), ("stacks", "Chips"),
                  ("points", "Points"))


@dataclass(frozen=True)
class Standing:
    points_name: str = ""  # the table's column heading ("Points", "Chips", "Correct answers")
    points: dict[str, Any] = field(default_factory=dict)  # player -> number, in seat order
    turn: str = ""  # whose move it is, as a sentence ("Waiting for Bob, Cat", "Ann to act")
    step: str = ""  # what the host's Next does now ("Reveal", "Next question"); "" when nothing


def _table(view: JSON, key: str, players: Sequence[str]) -> dict[str, Any]:
    value = view.get(key)
    if not isinstance(value, Mapping):
        return {}
    order = [p for p in players if p in value] + [p for p in value if p not in players]
    return {str(p): value[p] for p in order}


def _names(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def _question(view: JSON) -> JSON:
    question = view.get("question")
    return question if isinstance(question, Mapping) else {}


def _waiting(names: Iterable[str]) -> str:
    waiting = list(names)
    return f"Waiting for {', '.join(waiting)}" if waiting else ""


def _deal(view: JSON, label: str) -> str:
    """The host's next when the table waits for a card: deal it, or end the game when none is left."""
    cards_left = view.get("cards_left")
    if isinstance(cards_left, int) and cards_left == 0:
        return "Finish: no cards left"
    return label


# -- the four games ------------------------------------------------------------------------------------------

def _confident(view: JSON, players: Sequence[str]) -> Standing:
    phase, question = view.get("phase"), _question(view)
    points = _table(view, "scores", players)
    target = view.get("target")
    name = f"Points (target {target})" if isinstance(target, int) else "Points"
    if phase == "open":  # entries open: the host's next stops waiting (rules.md Confident 4: no range)
        answered = set(_names(question.get("answered")))
        missing = [p for p in _names(view.get("players")) if p not in answered]
        return Standing(name, points, _waiting(missing), "Close entries")
    if phase == "closed":
        return Standing(name, points, "Entries closed", "Reveal")
    if phase in ("lobby", "settled"):
        return Standing(name, points, "", _deal(view, "Next question"))
    return Standing(name, points)


def _poker(view: JSON, players: Sequence[str]) -> Standing:
    phase, question = view.get("phase"), _question(view)
    points = _table(view, "stacks", players)
    if phase == "ranges":
        ranges_in = set(_names(question.get("ranges_in")))
        missing = [p for p in _names(question.get("dealt")) if p not in ranges_in]
        return Standing("Chips", points, _waiting(missing) + (" (ranges)" if missing else ""),
                        "Start betting" if ranges_in else "")
    to_act = view.get("to_act")
    if phase == "betting" and isinstance(to_act, str) and to_act:
        return Standing("Chips", points, f"{to_act} to act")
    if phase in ("waiting", "showdown"):
        return Standing("Chips", points, "", _deal(view, "Next question"))
    return Standing("Chips", points)


def _allin(view: JSON, players: Sequence[str]) -> Standing:
    phase, question = view.get("phase"), _question(view)
    points = _table(view, "chips", players)
    reader = question.get("reader")
    if phase == "reading" and isinstance(reader, str):
        return Standing("Chips", points, f"{reader} reads: choosing a statement")
    if phase == "betting":
        missing = _names(question.get("waiting_for"))
        return Standing("Chips", points, _waiting(missing) + (" (splits)" if missing else ""))
    if phase == "card":
        next_reader = view.get("next_reader")
        turn = f"Next reader: {next_reader}" if isinstance(next_reader, str) else ""
        return Standing("Chips", points, turn, _deal(view, "Next card"))
    return Standing("Chips", points)


def _squizz(view: JSON, players: Sequence[str]) -> Standing:
    """Token values stay secret until the end (rules.md sQuizz 5): while playing, the table is the
    correct answers (public); the points appear with the final scores."""
    phase, question = view.get("phase"), _question(view)
    if isinstance(view.get("scores"), Mapping):
        name, points = "Points", _table(view, "scores", players)
    else:
        name, points = "Correct answers", _table(view, "correct_counts", players)
    reader = question.get("reader")
    if phase == "answering" and isinstance(reader, str):
        waiting = _waiting(_names(question.get("waiting_for")))
        return Standing(name, points, f"{reader} reads" + (f" · {waiting}" if waiting else ""))
    if phase == "roll":
        next_reader = view.get("next_reader")
        turn = f"Next reader: {next_reader}" if isinstance(next_reader, str) else ""
        return Standing(name, points, turn, "Roll for the next question")
    return Standing(name, points)


def _generic(view: JSON, players: Sequence[str]) -> Standing:
    names = set(players)
    points_name, points = "", {}
    for key, label in GENERIC_POINTS:
        value = view.get(key)
        if isinstance(value, Mapping) and value and set(value) <= names:
            points_name, points = label, _table(view, key, players)
            break
    return Standing(points_name, points, _waiting(_names(view.get("waiting_for"))))


GAMES: dict[str, Callable[[JSON, Sequence[str]], Standing]] = {
    "confident": _confident,
    "poker": _poker,
    "allin": _allin,
    "squizz": _squizz,
}


def read(game: str | None, view: JSON | None, players: Sequence[str] = ()) -> Standing:
    """The standing of ``game`` from its public ``view`` (players in seat order for the table)."""
    if not isinstance(view, Mapping):
        return Standing()
    seats = list(players) or _names(view.get("players"))
    reader = GAMES.get(str(view.get("game") or game), _generic)
    standing = reader(view, seats)
    if view.get("finished") is True:  # the game is over: no turn, no next
        return Standing(standing.points_name, standing.points)
    return standing
