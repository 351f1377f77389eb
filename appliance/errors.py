"""The project's exception tree, one root for everything Quizbox refuses.

Malformed input (it cannot be read at all) and illegal input (it reads fine but the rules or the
state refuse it) are different exceptions, as in python-chess. Messages name the input and the state.

Each exception carries its refusal ``code`` (firmware/protocol.py ``REFUSALS``, listed in
docs/protocol.md), as the protocol's own ``ProtocolError`` does: the stable part a handset or the admin page
may act on, while the message stays the readable reason. A subclass that means something more precise says
so with a code of its own (a game's ``AlreadyAnswered`` is ``already_in``).
"""

from __future__ import annotations

from typing import ClassVar


class QuizboxError(Exception):
    """Root of every error Quizbox raises on purpose."""

    code: ClassVar[str] = "refused"


class MalformedInput(QuizboxError, ValueError):
    """Input that cannot be parsed: not a number, wrong type, bad JSON, a broken file."""

    code: ClassVar[str] = "bad_value"


class IllegalAction(QuizboxError):
    """Well-formed input that the rules refuse in the current state (out of turn, used boost...)."""

    code: ClassVar[str] = "not_allowed"


class NoGame(IllegalAction):
    """A game's input or command while no game is running."""

    code: ClassVar[str] = "no_game"

    def __init__(self, message: str = "no game is running") -> None:
        super().__init__(message)


class ConfigError(QuizboxError):
    """A configuration file or game option that is missing, malformed or out of range."""

    code: ClassVar[str] = "bad_command"  # a game option or a deck that does not fit the game


class DeckError(MalformedInput):
    """A deck or card that does not validate."""
