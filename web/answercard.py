"""The quizmaster's answer card on the Live page: the current card's answer, fact, source and hints.

The appliance says only *which* card of the stored game is on the table (``admin/state``'s ``card``:
game id and index); the card itself comes from the game's set-up in the store, which only the box and
this server read. So no answer travels over MQTT, and the TV (which draws the public board) cannot show
it before the rules reveal it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from appliance.infra.store import Store, StoreError


@dataclass(frozen=True)
class AnswerCard:
    number: int  # 1-based position in the game's cards
    question: str = ""
    answer: str = ""
    unit: str = ""
    fact: str = ""
    source: str = ""
    hints: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # sQuizz propositions, All In statements, buzzer alternatives


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def read(store: Store, admin: Mapping[str, Any]) -> AnswerCard | None:
    ref = admin.get("card")
    if not isinstance(ref, Mapping):
        return None
    game_id, index = ref.get("game_id"), ref.get("index")
    if not isinstance(game_id, int) or not isinstance(index, int) or index < 0:
        return None
    try:
        game = store.game(game_id)
    except StoreError:
        return None
    cards = game.setup.get("cards") if game is not None else None
    if not isinstance(cards, list) or index >= len(cards) or not isinstance(cards[index], Mapping):
        return None
    fields = cards[index].get("fields")
    if not isinstance(fields, Mapping):
        return None
    lines: list[str] = []
    for prop in fields.get("propositions") or []:
        if isinstance(prop, Mapping):
            lines.append(f"{_text(prop.get('label'))} {_text(prop.get('text'))}: {_text(prop.get('value'))}".strip())
    for statement in fields.get("statements") or []:
        lines.append(_text(statement))
    alternatives = [_text(a) for a in fields.get("alternatives") or []]
    if alternatives:  # a buzzer card: the other answers that count
        lines.append(f"Also accept: {', '.join(alternatives)}")
    hints = fields.get("hints")
    return AnswerCard(
        number=index + 1,
        question=_text(fields.get("question") or fields.get("prompt")),
        answer=_text(fields.get("answer")),
        unit=_text(fields.get("unit")),
        fact=_text(fields.get("fact")),
        source=_text(fields.get("source")),
        hints=[_text(h) for h in hints] if isinstance(hints, list) else [],
        lines=lines,
    )
