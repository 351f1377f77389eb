"""A phone's HTML form to the input data of protocol v1, per prompt kind.

This only reads the form; whether the data is allowed by the prompt (a name you may copy, an unused
token, a split of all your chips) is checked by the handset core (``firmware.core.allowed``) when the
phone handset submits it, exactly as on a hardware handset.

Numbers: a phone has a full keyboard, so it also takes what the appliance's own parser reads
("3,000,000", "2.5bn"); such a number is sent in plain digits, the form a hardware handset sends.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from appliance.errors import MalformedInput
from appliance.games.numbers import format_plain, parse_number
from firmware import protocol
from firmware.core import numtext

JSON = dict[str, Any]


def number(text: str, what: str) -> str:
    text = text.strip()
    if not text:
        raise ValueError(f"type the {what}")
    try:
        numtext.parse(text)
        return text
    except ValueError:
        pass
    try:
        plain = format_plain(parse_number(text))
    except MalformedInput as exc:
        raise ValueError(f"{what}: {exc}") from None
    if len(plain) > protocol.MAX_NUMBER:
        raise ValueError(f"{what}: too many digits")
    return plain


def _whole(text: str, what: str) -> int:
    text = text.strip()
    if not text or not text.isdigit() or len(text) > 10:
        raise ValueError(f"{what}: a whole number, please")
    return int(text)


def data_from_form(prompt: Mapping[str, Any], form: Mapping[str, str]) -> JSON:
    """The input data for ``prompt`` from the phone's form fields; ValueError with a reason to show."""
    kind = prompt.get("kind")
    if kind == protocol.RANGE:
        return _range(form)
    if kind == protocol.BET:
        action = form.get("action", "")
        data: JSON = {"action": action}
        if action in protocol.BET_AMOUNT_ACTIONS:
            data["to"] = _whole(form.get(f"to-{action}", ""), "amount")
        return data
    if kind == protocol.CHOICE:
        choices = {}
        for field in prompt.get("fields") or []:
            if isinstance(field, dict) and isinstance(field.get("name"), str):
                value = form.get(f"choice-{field['name']}", "")
                if value:
                    choices[field["name"]] = value
        return {"choices": choices}
    if kind == protocol.SPLIT:
        split = {}
        for side in prompt.get("sides") or []:
            if isinstance(side, dict) and isinstance(side.get("id"), str):
                split[side["id"]] = _whole(form.get(f"split-{side['id']}", "") or "0", str(side.get("label", "")))
        return {"split": split}
    if kind == protocol.TOKEN:
        return {"answer": form.get("answer", ""), "token": _whole(form.get("token", ""), "token")}
    if kind == protocol.BUZZ:
        return {}
    raise ValueError("nothing to answer now")


def _range(form: Mapping[str, str]) -> JSON:
    data: JSON = {}
    copy = form.get("copy", "").strip()
    if copy:
        data["copy"] = copy
    else:
        data["bottom"] = number(form.get("bottom", ""), "bottom")
        data["top"] = number(form.get("top", ""), "top")
    swap = [form.get("swap1", "").strip(), form.get("swap2", "").strip()]
    if any(swap):
        if not all(swap):
            raise ValueError("a swap needs two players")
        data["swap"] = swap
    if form.get("double") == "on":
        data["double"] = True
    return data
