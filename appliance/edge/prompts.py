"""Fitting a prompt into protocol v1's 1 KB (an ESP32's RAM): what a handset must have stays whole (the
prompt id, kind, option ids, amounts, tokens); what is for reading is shortened, in order, until it fits:
the text, the extra lines, the option and field labels, then the player's own info line.

Characters are not bytes: JSON escapes every non-ASCII character as ``\\uXXXX`` (six bytes), so a Greek or
emoji question of 200 characters can be 1.2 KB. Only the encoded size counts here.
"""

from __future__ import annotations

import copy
from typing import Any

from firmware import protocol

ELLIPSIS = "~"  # one byte (a "…" is six in JSON)


def _fits(prompt: dict[str, Any]) -> bytes | None:
    try:
        return protocol.encode(prompt)
    except protocol.ProtocolError:
        return None


def _cut(text: str, size: int) -> str:
    return text if len(text) <= size else text[: max(0, size - 1)] + ELLIPSIS


def _labels(prompt: dict[str, Any], size: int) -> None:
    for field in prompt.get("fields") or []:
        if isinstance(field, dict):
            field["label"] = _cut(str(field.get("label", "")), size)
            for option in field.get("options") or []:
                if isinstance(option, dict):
                    option["label"] = _cut(str(option.get("label", "")), size)
    for side in prompt.get("sides") or []:
        if isinstance(side, dict):
            side["label"] = _cut(str(side.get("label", "")), size)


def fit(prompt: dict[str, Any]) -> bytes:
    """The prompt encoded within :data:`protocol.MAX_PAYLOAD`; ProtocolError if even its bare bones do
    not fit (a flow offering too many choices: a bug to fix there)."""
    wire = _fits(prompt)
    if wire is not None:
        return wire
    work = copy.deepcopy(prompt)
    text = str(work.get("text", ""))
    for size in (len(text) // 2, len(text) // 4, 24, 0):
        work["text"] = _cut(text, size)
        if (wire := _fits(work)) is not None:
            return wire
    work["lines"] = []
    for size in (16, 8, 4, 2):
        _labels(work, size)
        if (wire := _fits(work)) is not None:
            return wire
    work["title"] = _cut(str(work.get("title", "")), 12)
    work.pop("private", None)
    return protocol.encode(work)
