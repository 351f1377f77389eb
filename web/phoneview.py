"""What a phone offers for a prompt: the controls of each protocol v1 prompt kind, read with the handset
core's own prompt readers (``firmware.core.allowed``), so a phone offers exactly the choices a hardware
handset offers and never more; an odd prompt offers fewer choices but never breaks the page.

The page builds an input from these controls; the handset core checks it against the prompt before
anything is sent (``allowed.check``), and the appliance's ack may still refuse it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from firmware import protocol
from firmware.core import allowed

JSON = dict[str, Any]

BET_LABELS = {"check": "Check", "call": "Call", "fold": "Fold", "allin": "All in", "bet": "Bet", "raise": "Raise"}


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def controls(prompt: Mapping[str, Any] | None) -> JSON:
    """The controls for ``prompt`` (``kind`` plus what that kind offers); ``{"kind": ""}`` for none."""
    if not isinstance(prompt, Mapping):
        return {"kind": ""}
    kind = prompt.get("kind")
    base: JSON = {"kind": kind if kind in protocol.PROMPT_KINDS else "", "title": _text(prompt.get("title")),
                  "text": _text(prompt.get("text"))}
    if kind == protocol.INFO:
        lines = prompt.get("lines")
        return {**base, "lines": [line for line in lines if isinstance(line, str)] if isinstance(lines, list) else [],
                "wait": prompt.get("wait") is True}
    if kind == protocol.RANGE:
        return {**base, "unit": _text(prompt.get("unit")), **allowed.boosts(prompt)}
    if kind == protocol.BET:
        actions = [{**entry, "label": BET_LABELS[entry["action"]],
                    "amount": entry["action"] in protocol.BET_AMOUNT_ACTIONS}
                   for entry in allowed.bet_actions(dict(prompt))]
        return {**base, "actions": actions, "stack": _count(prompt.get("stack")),
                "to_call": _count(prompt.get("to_call")), "pot": _count(prompt.get("pot"))}
    if kind == protocol.CHOICE:
        fields = allowed.choice_fields(dict(prompt))
        labels = [str(label) for field in fields for _, label in field["options"]]
        if repeats_options(base["text"], labels):  # the All In reader's statements, cut short above them
            base["text"] = ""
        return {**base, "fields": fields}
    if kind == protocol.SPLIT:
        return {**base, "total": allowed.split_total(dict(prompt)), "sides": allowed.split_sides(dict(prompt))}
    if kind == protocol.TOKEN:
        answers = allowed.token_answers(dict(prompt))
        said = propositions(base["text"], answers)
        if said:  # the buttons carry them: the text keeps the question
            base["text"] = base["text"].split(f" {answers[0]}) ", 1)[0]
        return {**base, "answers": answers, "tokens": allowed.token_numbers(dict(prompt)), "propositions": said}
    if kind == protocol.BUZZ:
        return {**base, "armed": prompt.get("armed") is True}
    if kind == protocol.NUMBER:
        return {**base, "unit": _text(prompt.get("unit"))}
    return base


def private_lines(prompt: Mapping[str, Any] | None) -> list[tuple[str, str]]:
    """The player's own facts a prompt carries (``private``: score, chips, boosts left, tokens...), as
    (label, text) pairs to show; lists read as words, yes/no for true/false, nothing for none."""
    private = prompt.get("private") if isinstance(prompt, Mapping) else None
    if not isinstance(private, Mapping):
        return []
    out = []
    for key, value in private.items():
        if value is None:
            continue
        if isinstance(value, bool):
            text = "yes" if value else "no"
        elif key == "range" and isinstance(value, list) and len(value) == 2:
            text = f"{value[0]} to {value[1]}"
        elif isinstance(value, list):
            text = ", ".join(str(v).replace("_", " ") for v in value) or "none"
        elif isinstance(value, Mapping):
            text = ", ".join(f"{k} {v}" for k, v in value.items())
        else:
            text = str(value)
        out.append((str(key).replace("_", " "), text))
    return out


def propositions(text: str, letters: list[str]) -> dict[str, str]:
    """sQuizz's propositions as its prompt's text lists them ("Capital? A) Paris B) Rome C) Oslo"), by letter,
    so each answer button carries its proposition, not the letter alone (issue 31)."""
    if not letters:
        return {}
    marks = "|".join(re.escape(letter) for letter in letters)
    found = re.findall(rf"(?:^|\s)({marks})\) (.*?)(?=\s(?:{marks})\) |$)", text)
    return {letter: words.strip() for letter, words in found if words.strip()}


def repeats_options(text: str, labels: list[str]) -> bool:
    """Whether ``text`` only lists the options the fields show (" / " between them, the last perhaps cut
    short): a handset's screen needs that line, a phone shows the options themselves."""
    parts = [part.strip() for part in text.split(" / ")] if text else []

    def listed(part: str) -> bool:
        bare = re.sub(r"^\d+\.\s*", "", part)  # "2. I sing" lists the option "I sing" as well
        return any(label.startswith(part) or (bare and label.startswith(bare)) for label in labels)

    return bool(parts) and all(part and listed(part) for part in parts)
