"""Which refusal code (firmware/protocol.py ``REFUSALS``, listed in docs/protocol.md) an exception is
answered with, and what a handset's screen shows of it. The code is the stable part a handset or the admin
page may act on; the message stays the readable reason."""

from __future__ import annotations

from appliance.errors import IllegalAction, MalformedInput, QuizboxError
from firmware import protocol


def code_of(exc: Exception) -> str:
    """The refusal code for ``exc``: the one each exception carries (appliance/errors.py; a ProtocolError
    its own), "refused" for anything else."""
    code = exc.code if isinstance(exc, QuizboxError | protocol.ProtocolError) else "refused"
    return code if code in protocol.REFUSALS else "refused"


def screen_text(exc: Exception) -> str:
    """What the handset's 3-line screen shows for ``exc``. The games word a refusal as "<the action>:
    <the reason>; <a hint>" (e.g. "Cat writes range 2000 to 1000: the bottom 2000 is above the top 1000;
    write the smaller number first"): when the whole does not fit, the player (who knows what they did)
    is shown the reason. Other messages are fitted as they are (protocol.screen_message)."""
    text = " ".join((str(exc) or type(exc).__name__).split())
    if protocol.screen_message(text) == text:
        return text
    # an aside in brackets goes first: it was what a cut left ("Ann, Bob, Cat, Dan)" of "... (seats: Ann,
    # Bob, Cat, Dan)", issue 32), and a colon inside one is no label
    bare = _without_asides(text)
    if protocol.screen_message(bare) == bare:
        return bare
    if isinstance(exc, IllegalAction | MalformedInput):
        reason = bare.partition(": ")[2]
        # words (or a quoted name), not what followed a label ("unused: [2, 3]" was shown as "[2, 3]")
        if reason[:1].isalpha() or (reason[:1] in "'\"" and reason[1:2].isalpha()):
            return protocol.screen_message(reason[0].upper() + reason[1:])
    return protocol.screen_message(bare)


def _without_asides(text: str) -> str:
    """``text`` without its bracketed asides (balanced round brackets), spaces tidied."""
    out, depth = [], 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
        elif not depth:
            out.append(ch)
    return " ".join("".join(out).replace(" :", ":").replace(" ;", ";").replace(" ,", ",").split())
