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
    if isinstance(exc, IllegalAction | MalformedInput) and protocol.screen_message(text) != text:
        reason = text.partition(": ")[2]
        if reason[:1].isalpha():  # words, not what followed a label ("unused: [2, 3]" was shown as "[2, 3]")
            return protocol.screen_message(reason[0].upper() + reason[1:])
    return protocol.screen_message(text)
