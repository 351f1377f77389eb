"""Why the Confident? rules refuse an input: one IllegalAction subclass per reason.

The base engine's :class:`~appliance.games.base.WrongPhase` (out of phase) and
:class:`~appliance.games.base.UnknownPlayer` (a name nobody is playing under) apply as well.
"""

from __future__ import annotations

from typing import ClassVar

from appliance.errors import IllegalAction


class HostOnly(IllegalAction):
    """A player sent what only the host (quizmaster or session) may: question, close, settle, end."""


class AlreadyAnswered(IllegalAction):
    """A second board from the same player on one question (one board each)."""

    code: ClassVar[str] = "already_in"


class RangeUpsideDown(IllegalAction):
    """Bottom above top (rules.md Confident 1)."""


class NoRangeOrCopy(IllegalAction):
    """A board needs exactly one of a range or a copy: the copier writes no range (rules.md 6)."""


class CopySelf(IllegalAction):
    """A player named themselves in the copy box (rules.md Confident 6)."""


class SwapSelf(IllegalAction):
    """A swap must name two OTHER players (rules.md Confident 6)."""


class SwapSamePlayer(IllegalAction):
    """A swap named the same player twice."""


class BoostUsed(IllegalAction):
    """The player already played this boost in an earlier question (rules.md Confident 5)."""


class BoostNotInVariant(IllegalAction):
    """Two Players: Double is the only boost (rules.md Confident 8)."""


class NotEveryoneIn(IllegalAction):
    """Entries closed as "everyone in" while some player has not answered."""
