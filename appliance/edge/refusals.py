"""Which refusal code (firmware/protocol.py ``REFUSALS``, listed in docs/protocol.md) an exception is
answered with. The code is the stable part a handset or the admin page may act on; the message stays the
readable reason."""

from __future__ import annotations

from appliance.errors import ConfigError, IllegalAction, MalformedInput
from appliance.games.base import NotYourTurn, WrongPhase
from appliance.games.confident.refusals import AlreadyAnswered
from appliance.games.squizz.engine import AlreadySubmitted
from appliance.infra.store import StoreError
from appliance.session.session import NotSeated, Paused, StalePrompt
from firmware import protocol

# most specific first: the first class the exception is an instance of gives the code
_CODES: tuple[tuple[type[Exception], str], ...] = (
    (StalePrompt, "stale"),
    (NotSeated, "not_seated"),
    (Paused, "paused"),
    (NotYourTurn, "not_your_turn"),
    (WrongPhase, "wrong_phase"),
    (AlreadyAnswered, "already_in"),
    (AlreadySubmitted, "already_in"),
    (StoreError, "not_saved"),
    (MalformedInput, "bad_value"),
    (ConfigError, "bad_command"),  # a game option or a deck that does not fit the game
)

NO_GAME = "no game is running"


def code_of(exc: Exception) -> str:
    """The refusal code for ``exc`` (a ProtocolError carries its own)."""
    if isinstance(exc, protocol.ProtocolError):
        return exc.code if exc.code in protocol.REFUSALS else "refused"
    for cls, code in _CODES:
        if isinstance(exc, cls):
            return code
    if isinstance(exc, IllegalAction):
        return "no_game" if str(exc) == NO_GAME else "not_allowed"
    return "refused"


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
