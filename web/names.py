"""A phone's name at join (issue 31, 8 and 9): what the TV can draw, and not a name already at the table.

The TV's fonts have no emoji (an emoji showed as an empty box), so a name with a character they cannot draw
is refused with words naming it; a name already taken by another handset or phone is refused too (the box
would otherwise show "Dave-3" on the TV while the phone says "Hello Dave!").
"""

from __future__ import annotations

from collections.abc import Iterable

from appliance.board import undrawable
from firmware import protocol


def clean_name(text: str, taken: Iterable[str] = ()) -> str:
    """``text`` as a phone's name (spaces collapsed); ValueError in the player's words when it cannot be."""
    name = " ".join(text.split())
    if not name:
        raise ValueError("Type your name (or your team's).")
    if len(name) > protocol.MAX_NAME:
        raise ValueError(f"At most {protocol.MAX_NAME} characters, please.")
    if any(not ch.isprintable() for ch in name):
        raise ValueError("Letters, digits, spaces and punctuation only, please.")
    missing = undrawable(name)
    if missing:
        shown = " ".join(missing[:3])
        raise ValueError(f"The TV cannot show {shown} (no emoji, please): letters, digits, spaces and "
                         f"punctuation only.")
    if name.casefold() in {t.casefold() for t in taken}:
        raise ValueError(f"{name} is already at the table: add your team's initial or a number "
                         f"(\"{name[: protocol.MAX_NAME - 2]} 2\").")
    return name
