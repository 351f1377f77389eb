"""Main and side pots, uncalled chips and odd chips (rules.md Estimation poker 8-10).

Everything here works on what each player has put in during one question, antes included
(``put_in``): an all-in player can win from each other player only as much as they put in
themselves (seed 002, "Betting"), so every all-in amount caps a pot and what lies above it goes into
a side pot that only the players who paid into it can win.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Pot:
    """``amount`` chips that the ``eligible`` players (seat order, none folded) can win."""

    amount: int
    eligible: tuple[str, ...]


def uncalled(put_in: Mapping[str, int], live: Collection[str]) -> dict[str, int]:
    """The chips that go back to their owners when a question ends (rules.md Estimation poker 9,
    "uncalled excess goes back to its owner"):

    * what the single biggest contributor put in above the next biggest (folded players' chips
      count as matched): the uncalled part of the last bet;
    * then anything put in above the most that a player still in (``live``) has put in: nobody
      left can win it, since an all-in player wins from each player only as much as they put in
      themselves (seed 002). This happens when a player folded for want of a range (rules.md 4)
      after paying a full ante that every player still in, all-in from a short ante, could not match.
    """
    returned: dict[str, int] = {}
    if len(put_in) >= 2:
        ranked = sorted(put_in.items(), key=lambda item: item[1], reverse=True)
        (top, most), (_, second) = ranked[0], ranked[1]
        if most > second:
            returned[top] = most - second
    after = {p: chips - returned.get(p, 0) for p, chips in put_in.items()}
    ceiling = max((after[p] for p in live if p in after), default=0)
    for player, chips in after.items():
        if chips > ceiling:
            returned[player] = returned.get(player, 0) + chips - ceiling
    return returned


def form_pots(
    seats: Sequence[str], put_in: Mapping[str, int], folded: Collection[str], all_in: Collection[str]
) -> list[Pot]:
    """The main pot first, then the side pots, from what each player has put in.

    Each distinct amount an all-in (not folded) player has put in caps a pot; the last pot holds
    the rest. A pot's eligible players are the players still in who are not all-in for less than
    its cap. While a round is still being bet this is also the live picture: players who have not
    matched the bet yet stay eligible for the open pot.
    """
    live = [p for p in seats if p in put_in and p not in folded]
    caps = sorted({put_in[p] for p in live if p in all_in})
    top = max(put_in.values(), default=0)
    if not caps or caps[-1] < top:
        caps.append(top)
    pots: list[Pot] = []
    floor = 0
    for cap in caps:
        amount = sum(min(chips, cap) - min(chips, floor) for chips in put_in.values())
        eligible = tuple(p for p in live if not (p in all_in and put_in[p] < cap))
        pots.append(Pot(amount, eligible))
        floor = cap
    return pots


def clockwise_from(seats: Sequence[str], first: str) -> list[str]:
    """The seats in clockwise order starting with ``first``."""
    start = seats.index(first)
    return [*seats[start:], *seats[:start]]


def split_pot(amount: int, winners: Sequence[str], seats: Sequence[str], first: str) -> dict[str, int]:
    """Each winner's share of one pot. Equal shares; the whole remainder (the odd chips) goes to the
    winner nearest clockwise from the question's first actor, that player included (rules.md 10)."""
    if not winners:
        raise ValueError(f"a pot of {amount} needs at least one winner")
    share, odd = divmod(amount, len(winners))
    shares = dict.fromkeys(winners, share)
    nearest = next(p for p in clockwise_from(seats, first) if p in shares)
    shares[nearest] += odd
    return shares
