"""The project's exception tree, one root for everything Quizbox refuses.

Malformed input (it cannot be read at all) and illegal input (it reads fine but the rules or the
state refuse it) are different exceptions, as in python-chess. Messages name the input and the state.
"""

from __future__ import annotations


class QuizboxError(Exception):
    """Root of every error Quizbox raises on purpose."""


class MalformedInput(QuizboxError, ValueError):
    """Input that cannot be parsed: not a number, wrong type, bad JSON, a broken file."""


class IllegalAction(QuizboxError):
    """Well-formed input that the rules refuse in the current state (out of turn, used boost...)."""


class ConfigError(QuizboxError):
    """A configuration file or game option that is missing, malformed or out of range."""


class DeckError(MalformedInput):
    """A deck or card that does not validate."""
