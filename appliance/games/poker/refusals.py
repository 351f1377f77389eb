"""Why estimation poker refuses an input: one :class:`IllegalAction` subclass per reason.

Every message names the input and the state it met (whose turn, the bet faced, the chips behind), so
a handset or the replay can show it as it is. Inputs that cannot be read at all (a range endpoint that
is not a number, ``"to": 2.5`` in a scenario) are :class:`~appliance.errors.MalformedInput` instead,
raised where they are parsed.
"""

from __future__ import annotations

from appliance.errors import IllegalAction
from appliance.games.base import WrongPhase


class NotInQuestion(IllegalAction):
    """The player is not dealt into the question (no chips when it started) or has folded."""


class RangesLocked(WrongPhase):
    """A range entered after betting round 1 started (rules.md Estimation poker 4)."""


class ReversedRange(IllegalAction):
    """A range whose low end is above its high end."""


class NoRanges(IllegalAction):
    """Betting cannot start: nobody has entered a range, so everyone would be folded."""


class BadAmount(IllegalAction):
    """An amount that is negative or not a whole number of chips (rules.md Estimation poker 1)."""


class NotEnoughChips(IllegalAction):
    """More chips than the player has (a bet or raise above the stack, a call they cannot pay)."""


class BelowMinimum(IllegalAction):
    """A bet below the question's ante or a raise below the current bet plus the raise increment
    (rules.md Estimation poker 5); a short stack goes all-in instead."""


class CheckFacingBet(IllegalAction):
    """A check while facing a bet (rulebook: only possible if nobody has bet yet this round)."""


class NothingToCall(IllegalAction):
    """A call when the player already matches the highest bet: check instead."""


class AlreadyBet(IllegalAction):
    """A bet when there is already a bet this round: raise instead."""


class NothingToRaise(IllegalAction):
    """A raise when nobody has bet yet this round: bet instead."""


class NotReopened(IllegalAction):
    """A raise by a player who already acted this round when the bet they face has not risen by a
    full raise increment since (rules.md Estimation poker 6)."""


class NobodyToAnswer(IllegalAction):
    """A raise nobody could call: every other player has folded or cannot put in more than the
    current highest bet, so the extra would only come back as uncalled."""


class NothingToReveal(IllegalAction):
    """A voluntary reveal by a player whose range is already shown or who has none
    (rules.md Estimation poker 11)."""


class WaitingAlone(NotInQuestion):
    """A room player alone at their table: that table plays no more hands; they keep their chips and
    wait (rules.md Estimation poker 13)."""


class TableHandOver(WrongPhase):
    """A betting action at a room table whose hand on this question is over while other tables still
    play theirs (rules.md Estimation poker 13)."""

