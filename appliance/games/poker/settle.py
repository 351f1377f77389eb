"""Paying a question out (rules.md Estimation poker 8-10): uncalled chips back, main and side pots,
each pot to the best range among the players eligible for it, odd chips clockwise from the first actor.
"""

from __future__ import annotations

from collections.abc import Sequence

from appliance.games.poker.pots import form_pots, split_pot, uncalled
from appliance.games.poker.showdown import best
from appliance.games.poker.state import Outcome, PotResult, Question


def settle(question: Question, stacks: dict[str, int], seats: Sequence[str]) -> Outcome:
    """Pay ``question`` out into ``stacks`` and return how. ``question.put_in`` ends up holding what
    stayed in the pots (uncalled chips removed), so the pots add up to it.

    A pot with one eligible player is theirs without a showdown (rules.md 8: everyone else folded,
    or a side pot nobody else paid into); otherwise the best range among its eligible players wins
    it (rules.md 9). The showdown shows the ranges of every player still in when at least two are.
    """
    live = question.live()
    returned = uncalled(question.put_in, live)
    for owner, chips in returned.items():
        question.put_in[owner] -= chips
        stacks[owner] += chips
    all_in = [p for p in live if stacks[p] == 0]
    results = []
    for pot in form_pots(question.dealt, question.put_in, question.folded, all_in):
        contested = len(pot.eligible) > 1
        winners = best(question.ranges, pot.eligible, question.answer) if contested else list(pot.eligible)
        shares = split_pot(pot.amount, winners, seats, question.first)
        for player, chips in shares.items():
            stacks[player] += chips
        results.append(PotResult(pot, tuple(winners), shares))
    showdown = len(live) > 1
    return Outcome(tuple(results), tuple(live) if showdown else (), returned, showdown)
