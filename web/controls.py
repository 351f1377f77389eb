"""What each quizmaster button does now, in words, and which presses need a "are you sure?" first.

Read from the public board state only (the game's view and the session's ``waiting`` flag), like
:mod:`web.standings`: nothing here decides a rule. *Next* while players are still being asked for
something cuts them off (their entry is missing, the poker player to act checks or folds), so its label
names them and the press is confirmed; the two endings (finish now and score, abandon) are always
confirmed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

JSON = Mapping[str, Any]


@dataclass(frozen=True)
class NextStep:
    label: str  # the button: "Close entries: Bob, Cat have not answered"
    confirm: str = ""  # the question asked before the press, "" when the press cuts nobody off


def _names(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def _who(names: Sequence[str], one: str, many: str) -> str:
    return f"{', '.join(names)} {one if len(names) == 1 else many}"


def _question(view: JSON) -> JSON:
    question = view.get("question")
    return question if isinstance(question, Mapping) else {}


def missing(game: str | None, view: JSON) -> list[str]:
    """The players the table is still waiting for (in the game's own words), [] when none."""
    phase, question = view.get("phase"), _question(view)
    game = str(view.get("game") or game)
    if game == "confident" and phase == "open":
        answered = set(_names(question.get("answered")))
        return [p for p in _names(view.get("players")) if p not in answered]
    if game == "poker" and phase == "ranges":
        ranges_in = set(_names(question.get("ranges_in")))
        return [p for p in _names(question.get("dealt")) if p not in ranges_in]
    if game == "poker" and phase == "betting":
        to_act = view.get("to_act")
        return [str(to_act)] if isinstance(to_act, str) and to_act else []
    if game == "allin" and phase == "reading":
        reader = question.get("reader")
        return [str(reader)] if isinstance(reader, str) else []
    if game in ("allin", "squizz"):
        return _names(question.get("waiting_for"))
    return _names(view.get("waiting_for"))


def next_step(game: str | None, view: JSON | None, step: str, waiting: bool) -> NextStep:
    """The Next button for ``step`` (the standing's "Close entries", "Reveal"...) as it acts now."""
    if not isinstance(view, Mapping) or not waiting:
        return NextStep(step or "Next")
    names = missing(game, view)
    phase, game = view.get("phase"), str(view.get("game") or game)
    if not names:
        return NextStep(step or "Next")
    if game == "poker" and phase == "betting":
        label = f"Close betting: {names[0]} has not acted"
        then = f"{names[0]} checks if they can, else folds"
    elif game == "poker":
        label = f"Start betting: {_who(names, 'has', 'have')} no range"
        then = f"{_who(names, 'is', 'are')} folded for this question"
    elif game == "allin" and phase == "reading":
        label = f"Pass the card on: {names[0]} has not read"
        then = "the card passes on unread"
    elif game == "allin":
        label = f"Close the splits: {_who(names, 'has', 'have')} not split"
        then = f"{_who(names, 'sits', 'sit')} this card out"
    elif game == "squizz":
        label = f"Close answers: {_who(names, 'has', 'have')} not answered"
        then = f"{_who(names, 'is', 'are')} wrong and {'loses' if len(names) == 1 else 'lose'} the lowest token"
    else:
        label = f"{step or 'Close entries'}: {_who(names, 'has', 'have')} not answered"
        then = f"{_who(names, 'has', 'have')} no range this question and {'scores' if len(names) == 1 else 'score'} 0"
    return NextStep(label, f"{_who(names, 'is', 'are')} still answering. If you go on now, {then}.")


ENDINGS: dict[str, tuple[str, str]] = {
    "finish": ("Finish now and score",
               "The game ends now and is scored as it stands: the most points or chips wins, ties share. "
               "A question still being played does not count (poker's bets of that hand go back)."),
    "end": ("Abandon the game", "The game ends now with no winner; it is stored as abandoned."),
}


def ending_text(ending: Any) -> str:
    """How the Live page and the results say how the game ended."""
    return {
        "stopped": "Finished early by the quizmaster: scored as it stood",
        "abandoned": "Abandoned by the quizmaster: no winner",
        "finished": "Played to the end",
    }.get(str(ending), "")
