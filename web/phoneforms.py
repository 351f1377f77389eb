"""A phone's HTML form to the input data of protocol v1, per prompt kind.

This only reads the form; whether the data is allowed by the prompt (a name you may copy, an unused
token, a split of all your chips) is checked by the handset core (``firmware.core.allowed``) when the
phone handset submits it, exactly as on a hardware handset.

Numbers: a phone has a full keyboard, so it also takes what the appliance's own parser reads
("3,000,000", "2.5bn"); such a number is sent in plain digits, the form a hardware handset sends.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from appliance.errors import MalformedInput
from appliance.games.numbers import SHAPE, format_plain, parse_number
from firmware import protocol
from firmware.core import numtext
from web.phoneview import controls

JSON = dict[str, Any]

SHORT_SHAPE = "type digits, like 12, 3.5, 2k or 3 million"
"""What a phone says of a number it cannot read, in place of the parser's whole list of shapes."""

_FIELD_WORDS = ((re.compile(r"\bbottom above top\b"), "From is above To"),
                (re.compile(r"\bbottom\b"), "From"), (re.compile(r"\btop\b"), "To"))


def player_words(message: str) -> str:
    """A refusal in the words of the phone's form: the handset core says "bottom above top" (its field
    names, fine on a keypad's OLED); the phone's fields are labelled From and To."""
    for pattern, words in _FIELD_WORDS:
        message = pattern.sub(words, message)
    return message


def number(text: str, what: str) -> str:
    text = text.strip()
    if not text:
        raise ValueError(f"{what}: type a number")
    try:
        numtext.parse(text)
        return text
    except ValueError:
        pass
    try:
        plain = format_plain(parse_number(text))
    except MalformedInput as exc:  # the parser's long list of shapes is too much for a phone's screen
        raise ValueError(f"{what}: {str(exc).replace(SHAPE, SHORT_SHAPE)}") from None
    if len(plain) > protocol.MAX_NUMBER:
        raise ValueError(f"{what}: too many digits")
    return plain


WHOLE = re.compile(r"(-?)(\d+)([.,]\d+)?")
"""A chip count as a player may type it: a sign, digits, perhaps a fraction (each refused with its reason)."""


def _whole(text: str, what: str) -> int:
    """A whole number of chips (or a token's number) as typed; ValueError saying what is wrong with it."""
    typed = WHOLE.fullmatch(text.strip())
    if typed is None:
        raise ValueError(f"{what}: a whole number, please")
    sign, digits, fraction = typed.groups()
    if fraction:
        raise ValueError(f"{what}: whole chips only, no fractions")
    if sign:
        raise ValueError(f"{what}: {sign}{digits[:11]} is below 0")
    if len(digits) > 10:
        raise ValueError(f"{what}: {digits[:10]}... is far too big")
    return int(digits)


def data_from_form(prompt: Mapping[str, Any], form: Mapping[str, str]) -> JSON:
    """The input data for ``prompt`` from the phone's form fields; ValueError with a reason to show.

    The field names are those :func:`web.phoneview.controls` offers for the prompt; what the player
    left out (no action tapped, no token chosen) is said here, everything else is the core's to check."""
    c = controls(prompt)
    kind = c["kind"]
    if kind == protocol.RANGE:
        return _range(form)
    if kind == protocol.BET:
        action = form.get("action", "")
        if not action:
            raise ValueError("tap the action you want")
        data: JSON = {"action": action}
        if action in protocol.BET_AMOUNT_ACTIONS:
            data["to"] = _whole(form.get(f"to-{action}", ""), "amount")
        return data
    if kind == protocol.CHOICE:
        choices = {}
        for field in c["fields"]:
            value = form.get(f"choice-{field['name']}", "")
            if value:
                choices[field["name"]] = value
        return {"choices": choices}
    if kind == protocol.SPLIT:
        return {"split": {side: _whole(form.get(f"split-{side}", "") or "0", label) for side, label in c["sides"]}}
    if kind == protocol.TOKEN:
        answer, token = form.get("answer", ""), form.get("token", "")
        if not answer:
            raise ValueError("choose your answer")
        if not token:
            raise ValueError("choose a bet token")
        return {"answer": answer, "token": _whole(token, "token")}
    if kind == protocol.BUZZ:
        return {}
    if kind == protocol.NUMBER:
        return {"number": number(form.get("number", ""), "Your number")}
    raise ValueError("nothing to answer now")


def _range(form: Mapping[str, str]) -> JSON:
    data: JSON = {}
    copy = form.get("copy", "").strip()
    bottom, top = form.get("bottom", "").strip(), form.get("top", "").strip()
    if copy:
        if bottom or top:
            raise ValueError("a copy or your own range, not both: clear one")
        data["copy"] = copy
    else:
        # the words on the phone's form ("From", "To"), not the protocol's field names
        data["bottom"] = number(bottom, "From")
        data["top"] = number(top, "To")
    swap = [form.get("swap1", "").strip(), form.get("swap2", "").strip()]
    if any(swap):
        if not all(swap):
            raise ValueError("a swap needs two players")
        data["swap"] = swap
    if form.get("double") == "on":
        data["double"] = True
    return data
