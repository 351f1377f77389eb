"""The estimation poker part of the scenario format (docs/scenarios.md, section "poker").

* options: ``stack`` (1000), ``ante`` (10), ``first`` (default the first seat), optional
  ``ante_every`` (the schedule; a replay has no clock, so it does not change any ante);
* card: ``question``, ``answer``, ``hints`` (two strings), optional ``ante`` (the ante in force;
  without it the ``ante`` option);
* steps: each player's ``{"player", "range": [low, high]}``, then ``{"player", "action"}`` with
  ``check``, ``call``, ``fold``, ``allin``, or ``bet``/``raise`` with ``"to"`` (a JSON integer: the
  player's total bet this round). Betting round 1 starts at the first action step (the host's start
  of betting, which locks the ranges). Hints, the answer and the showdown follow by themselves.
* two more steps, after a question's showdown: ``{"player", "action": "reveal"}`` (a folded player
  shows their range, rules.md Estimation poker 11) and the host's ``{"player": "", "action": "end"}``
  (the game is stopped or the deck ran out, rules.md 12).
* question result: ``stacks``, ``pots`` (main first, after uncalled chips went back; each
  ``amount``, ``eligible``, ``winners``), ``folded``; plus ``shares`` (each pot's payout per winner,
  same order as ``pots``), ``returned``, ``ranges`` (those shown), ``answer``, ``ante``, ``first``.
  Final result: ``stacks``, ``winners``, ``finished``, plus ``ending``.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from appliance.errors import MalformedInput
from appliance.games import fields
from appliance.games.base import JSON, Action, Engine
from appliance.games.numbers import parse_number
from appliance.games.poker.actions import (
    BETTING_ACTIONS,
    AllIn,
    Bet,
    Call,
    Check,
    EndGame,
    EnterRange,
    Fold,
    Raise,
    Reveal,
    StartBetting,
    StartQuestion,
)
from appliance.games.poker.room import RoomPokerEngine, RoomQuestion
from appliance.games.poker.state import Phase, Question
from appliance.games.scenario import GameAdapter, ScenarioAdapter, step_keys, step_player

SIMPLE: dict[str, type[Check | Call | Fold | AllIn | Reveal | EndGame]] = {
    "check": Check,
    "call": Call,
    "fold": Fold,
    "allin": AllIn,
    "reveal": Reveal,
    "end": EndGame,
}
SIZED: dict[str, type[Bet | Raise]] = {"bet": Bet, "raise": Raise}


class PokerAdapter(GameAdapter[RoomPokerEngine]):
    step_keys = frozenset({"range", "action", "to"})

    def start_question(self, engine: Engine, question: Mapping[str, Any]) -> None:
        poker = self.engine(engine)
        poker.apply(parse_card(question.get("card"), poker.options["ante"]))

    def step(self, engine: Engine, step: Mapping[str, Any]) -> None:
        """Apply one step; the first action step of a question first starts betting round 1. If the
        step is refused, nothing changes: the start of betting is tried on a copy first."""
        poker = self.engine(engine)
        action = parse_step(step)
        if isinstance(action, BETTING_ACTIONS) and poker.phase == Phase.RANGES.value:
            trial = poker.clone()
            trial.apply(StartBetting.now())
            trial.apply(action)
            poker.apply(StartBetting.now())
        poker.apply(action)

    def finish_question(self, engine: Engine, question: Mapping[str, Any]) -> None:
        """A question with only range steps (everyone all-in from the ante, or one range) still plays
        out: betting starts and the run-out follows. A question left mid-betting is an error."""
        poker = self.engine(engine)
        if poker.phase == Phase.RANGES.value:
            poker.apply(StartBetting.now())
        self.require_played(poker, lambda current: current.settled)

    def parse_step(self, step: Mapping[str, Any]) -> Action:
        return parse_step(step)

    def question_result(self, engine: Engine) -> JSON:
        poker = self.engine(engine)
        question = poker.current
        if question is None or not question.settled:
            raise MalformedInput("no question has been played to the end")
        if not poker.room:
            return _hand_result(poker, question.hands[1])
        return _room_result(poker, question)

    def totals(self, engine: RoomPokerEngine) -> JSON:
        return {"stacks": dict(engine.stacks)}


def _hand_result(poker: RoomPokerEngine, hand: Question) -> JSON:
    """A game of 8 or fewer: the ordinary question result (docs/scenarios.md, section "poker")."""
    assert hand.outcome is not None
    return {
        "stacks": poker.stacks,
        "pots": [
            {"amount": r.pot.amount, "eligible": list(r.pot.eligible), "winners": list(r.winners)}
            for r in hand.outcome.pots
        ],
        "shares": [dict(r.shares) for r in hand.outcome.pots],
        "folded": [p for p in poker.players if p in hand.folded],
        "returned": dict(hand.outcome.returned),
        "ranges": {p: r.to_json() for p, r in hand.shown_ranges().items()},
        "answer": hand.answer_text(),
        "ante": hand.ante,
        "first": hand.first,
    }


def _room_result(poker: RoomPokerEngine, question: RoomQuestion) -> JSON:
    """Room tables (rules.md Estimation poker 13): ``tables`` as seated for the question; every table's
    pots, table 1's first, each with its ``table``; ``folded`` across the tables, seat order; ``firsts``:
    each table's first actor (null at a table that played no hand)."""
    pots: list[JSON] = []
    shares: list[dict[str, int]] = []
    folded: set[str] = set()
    returned: dict[str, int] = {}
    ranges: dict[str, list[str]] = {}
    for number, hand in sorted(question.hands.items()):
        assert hand.outcome is not None
        for paid in hand.outcome.pots:
            pots.append({"amount": paid.pot.amount, "eligible": list(paid.pot.eligible),
                         "winners": list(paid.winners), "table": number})
            shares.append(dict(paid.shares))
        folded |= hand.folded
        returned.update(hand.outcome.returned)
        ranges.update({p: r.to_json() for p, r in hand.shown_ranges().items()})
    any_hand = next(iter(question.hands.values()))
    return {
        "tables": [list(seated) for seated in question.tables],
        "stacks": poker.stacks,
        "pots": pots,
        "shares": shares,
        "folded": [p for p in poker.players if p in folded],
        "returned": {p: returned[p] for p in poker.players if p in returned},
        "ranges": {p: ranges[p] for p in poker.players if p in ranges},
        "answer": any_hand.answer_text(),
        "ante": any_hand.ante,
        "firsts": [question.hands[n].first if n in question.hands else None
                   for n in range(1, len(question.tables) + 1)],
    }


CARD_KEYS = frozenset({"question", "answer", "hints", "ante"})


def parse_card(card: object, default_ante: int) -> StartQuestion:
    """The host's start-question action from a scenario card."""
    if not isinstance(card, Mapping):
        raise MalformedInput(f"a poker question needs a card object, got {card!r}")
    unknown = sorted(set(card) - CARD_KEYS)
    if unknown:
        raise MalformedInput(f"unknown poker card key(s) {', '.join(map(str, unknown))} in {dict(card)!r} "
                             f"(a card has {', '.join(sorted(CARD_KEYS))})")
    missing = [k for k in ("question", "answer", "hints") if k not in card]
    if missing:
        raise MalformedInput(f"a poker card needs {', '.join(missing)}, got {dict(card)!r}")
    answer = card["answer"]
    if not isinstance(answer, str):
        raise MalformedInput(f"the card's answer must be a string the number parser reads, got {answer!r}")
    hints = card["hints"]
    if not isinstance(hints, list):
        raise MalformedInput(f"the card's hints must be a list of two strings, got {hints!r}")
    ante = card.get("ante", default_ante)
    return StartQuestion.deal(card["question"], parse_number(answer), hints, _whole("ante", ante))


def parse_step(step: Mapping[str, Any]) -> Action:
    """One scenario step as a poker input; :class:`MalformedInput` if it is none of them."""
    player, keys = step_player(step), step_keys(step)
    if keys == {"range"}:
        return _range(player, step["range"])
    if keys in ({"action"}, {"action", "to"}):
        name = step["action"]
        if name in SIZED:
            if "to" not in keys:
                raise MalformedInput(f"{name} needs a 'to' amount, got {dict(step)!r}")
            return SIZED[name](player, _whole("to", step["to"]))
        if name in SIMPLE:
            if "to" in keys:
                raise MalformedInput(f"{name} takes no 'to' amount, got {dict(step)!r}")
            return SIMPLE[name](player)
    raise MalformedInput(
        "a poker step is a range [low, high] or an action (check, call, fold, allin, bet/raise with "
        f"to, reveal, the host's end), got {dict(step)!r}"
    )


def _range(player: str, value: object) -> EnterRange:
    if not isinstance(value, list) or len(value) != 2:
        raise MalformedInput(f"a range is [low, high], got {value!r}")
    low, high = (_number(end) for end in value)
    return EnterRange(player, low, high)


def _number(value: object) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise MalformedInput(f"a range end must be a string the number parser reads, got {value!r}")
    return parse_number(str(value))


def _whole(name: str, value: object) -> int:
    """A JSON integer (MalformedInput for 2.5, "10", true: amounts are whole chips at parse time)."""
    return fields.whole(value, f"{name} must be a whole number of chips (a JSON integer)")


ADAPTER: ScenarioAdapter = PokerAdapter(RoomPokerEngine)
