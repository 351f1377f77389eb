"""One betting round of estimation poker (rules.md Estimation poker 5-7): the bets, the raise
increment, who has acted, and which actions the player to act may take.

Amounts are ``to`` amounts: a player's total bet in this round after the action (the scenario and
handset form). The round does not know stacks or who folded; the engine passes what it needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from appliance.games import fields
from appliance.games.base import JSON
from appliance.games.poker.refusals import (
    AlreadyBet,
    BadAmount,
    BelowMinimum,
    CheckFacingBet,
    NobodyToAnswer,
    NotEnoughChips,
    NothingToCall,
    NothingToRaise,
    NotReopened,
)

ROUNDS = 4
"""Betting rounds per question: after the guess, hint 1, hint 2 and the answer (seed 002)."""


@dataclass(frozen=True)
class Offer:
    """One action the player to act may take, with the lowest and highest ``to`` it accepts.

    ``to`` is the player's total bet this round after the action; for fold and check it is what they
    already have in, for call and all-in the single amount the action puts them at."""

    kind: str
    min_to: int
    max_to: int

    def to_json(self) -> JSON:
        return {"kind": self.kind, "min_to": self.min_to, "max_to": self.max_to}


@dataclass
class Round:
    """The state of one betting round."""

    number: int
    ante: int
    increment: int = 0
    """The raise increment: the larger of the ante and the last full bet or raise (rules.md 5)."""
    highest: int = 0
    """The highest bet this round."""
    bets: dict[str, int] = field(default_factory=dict)
    acted: dict[str, int] = field(default_factory=dict)
    """Who has acted this round, with the highest bet right after their last action (rules.md 6)."""
    to_act: str | None = None

    def __post_init__(self) -> None:
        self.increment = self.increment or self.ante

    # -- queries -----------------------------------------------------------------------------------

    def bet(self, player: str) -> int:
        return self.bets.get(player, 0)

    def owed(self, player: str) -> int:
        """What ``player`` must add to match the highest bet."""
        return self.highest - self.bet(player)

    def needs_to_act(self, player: str) -> bool:
        """Not acted yet, or not matching the highest bet (rules.md 7)."""
        return player not in self.acted or self.owed(player) > 0

    def reopened(self, player: str) -> bool:
        """Whether ``player`` may bet or raise (rules.md 6): they have not acted this round, or the bet
        they face has risen since their last action by at least one full raise increment. Short
        all-ins count together: the rise is measured from the player's own last action."""
        return player not in self.acted or self.highest - self.acted[player] >= self.increment

    def min_raise_to(self) -> int:
        """The lowest full bet or raise: the ante with no bet yet, else highest + increment (rules.md 5)."""
        return self.highest + self.increment if self.highest else self.ante

    def offers(self, player: str, stack: int, answerable: bool) -> list[Offer]:
        """Exactly the actions :meth:`verify` accepts from ``player`` with ``stack`` chips behind;
        ``answerable``: some other player still in could put in more than the highest bet."""
        bet = self.bet(player)
        owed = self.owed(player)
        total = bet + stack
        may_raise = self.reopened(player) and answerable
        offers = [Offer("fold", bet, bet)]
        if owed == 0:
            offers.append(Offer("check", bet, bet))
        else:  # a call the stack cannot cover is a call for all of it (rules.md Estimation poker 5)
            offers.append(Offer("call", min(self.highest, total), min(self.highest, total)))
        if may_raise and total >= self.min_raise_to():
            kind = "raise" if self.highest else "bet"
            offers.append(Offer(kind, self.min_raise_to(), total))
        if total <= self.highest or self.reopened(player):
            offers.append(Offer("allin", total, total))
        return offers

    def describe(self, player: str, stack: int) -> str:
        """The round as ``player`` sees it, for refusal messages."""
        faced = f"the highest bet is {self.highest}" if self.highest else "nobody has bet yet"
        return f"round {self.number}: {faced}, {player} has {self.bet(player)} in this round and {stack} behind"

    # -- verification ------------------------------------------------------------------------------

    def verify(self, kind: str, player: str, to: object, stack: int, answerable: bool) -> None:
        """Raise the specific refusal if ``player`` (whose turn it is) may not take this action."""
        state = self.describe(player, stack)
        owed = self.owed(player)
        total = self.bet(player) + stack
        if kind == "check" and owed > 0:
            raise CheckFacingBet(f"{player} cannot check facing a bet ({state}): call {owed} more, raise or fold")
        if kind == "call" and owed == 0:
            raise NothingToCall(f"{player} has nothing to call ({state}): check instead")
        if kind == "allin" and total > self.highest:
            # all-in is any amount (rules.md Estimation poker 5): one nobody could call is taken, and the part
            # above what the others have goes back uncalled (rules.md 9); only the re-opening rule holds it
            self._verify_raising(kind, player, stack, answerable=True)
        if kind in ("bet", "raise"):
            self._verify_to(kind, player, to, stack, answerable)

    def _verify_to(self, kind: str, player: str, to: object, stack: int, answerable: bool) -> None:
        state = self.describe(player, stack)
        if not fields.is_whole(to):
            raise BadAmount(f"{kind} to {to!r} refused: amounts are whole numbers of chips ({state})")
        if to < 0:
            raise BadAmount(f"{kind} to {to} refused: an amount cannot be negative ({state})")
        if kind == "bet" and self.highest:
            raise AlreadyBet(f"{player} cannot bet to {to}: there is already a bet ({state}); raise or call")
        if kind == "raise" and not self.highest:
            raise NothingToRaise(f"{player} cannot raise to {to}: {state}; bet instead")
        if to > self.bet(player) + stack:
            raise NotEnoughChips(
                f"{kind} to {to} refused: {player} can reach at most {self.bet(player) + stack} ({state})"
            )
        self._verify_raising(kind, player, stack, answerable)
        if to < self.min_raise_to():
            least = "the ante" if kind == "bet" else f"the highest bet plus the raise increment {self.increment}"
            raise BelowMinimum(
                f"{kind} to {to} refused: the minimum is {self.min_raise_to()} ({least}; {state}); "
                "a shorter stack can go all-in"
            )

    def _verify_raising(self, kind: str, player: str, stack: int, answerable: bool) -> None:
        state = self.describe(player, stack)
        if not self.reopened(player):
            rise = self.highest - self.acted[player]
            raise NotReopened(
                f"{player} cannot {kind}: {player} already acted this round and the bet has risen by {rise} "
                f"since, less than a full raise of {self.increment} (rules.md Estimation poker 6; "
                f"{state}); call or fold"
            )
        if not answerable:
            raise NobodyToAnswer(f"{player} cannot {kind} above {self.highest}: nobody left could call it ({state})")

    # -- changes -----------------------------------------------------------------------------------

    def call_to(self, player: str, stack: int) -> int:
        """Where ``player``'s call takes their round bet: the highest bet, or all they have when that is less
        (a short call is the same as all-in; rules.md Estimation poker 5)."""
        return min(self.highest, self.bet(player) + stack)

    def put(self, player: str, to: int) -> int:
        """``player`` takes their round bet to ``to`` (check, call, bet, raise, all-in); returns the
        chips moved. A rise of at least the increment is a full bet or raise and becomes the new
        increment (rules.md 5); a smaller all-in rise lifts the highest bet but not the increment."""
        moved = to - self.bet(player)
        rise = to - self.highest
        if rise > 0:
            if rise >= self.increment:
                self.increment = rise
            self.highest = to
        self.bets[player] = to
        self.acted[player] = self.highest
        return moved

    def fold(self, player: str) -> None:
        self.acted[player] = self.highest

    def snapshot(self) -> JSON:
        return {
            "number": self.number,
            "ante": self.ante,
            "increment": self.increment,
            "highest": self.highest,
            "bets": dict(self.bets),
            "acted": dict(self.acted),
            "to_act": self.to_act,
        }
